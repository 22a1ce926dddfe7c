/**
 * The lateness bugs `clockArb` found in real libraries (`npm run check:libraries`),
 * replayed on Node's real timers: the counterexample's stall is made by a callback that
 * keeps the event loop busy, as a slow `JSON.parse` or a sync crypto call would. Prints
 * what happened; exits 1 if a bug did not show (a model that cried wolf).
 * Run: `node --import tsx scripts/real-timers-replay.ts`.
 */
import Bottleneck from 'bottleneck'
import pThrottle from 'p-throttle'

const busy = (ms: number): void => {
  const until = performance.now() + ms
  while (performance.now() < until);
}
let shown = 0

// p-throttle, strict, one call per 100 ms. Counterexample: three calls at once; the
// second call's 100 ms timer runs 1 ms late. Here a callback due at 95 ms blocks the loop
// for 15 ms: the second call starts at ~110 ms, the third on plan at ~200 ms.
{
  const throttle = pThrottle({ limit: 1, interval: 100, strict: true })
  const t0 = performance.now()
  const starts: number[] = []
  const call = throttle(() => starts.push(performance.now() - t0))
  setTimeout(() => busy(15), 95)
  await Promise.all([call(), call(), call()])
  const gaps = starts.slice(1).map((s, i) => s - starts[i]!)
  const broken = gaps.some((g) => g < 100)
  if (broken) shown++
  console.log(`p-throttle strict {limit: 1, interval: 100}: calls started at ${starts.map((s) => s.toFixed(1)).join(', ')} ms; gaps ${gaps.map((g) => g.toFixed(1)).join(', ')} ms: ${broken ? 'the limit is broken' : 'held'}`)
}

// bottleneck, expiration 50 ms, a job of 30 ms. Counterexample: the launch timer runs
// late. Here, as soon as bottleneck has armed the job's launch and expiration timers (the
// tick after its 'scheduled' event), the loop is kept busy for 25 ms: the job starts
// ~25 ms late, and its expiration, counted from the planned launch, fails it after ~25 ms
// of running.
{
  const limiter = new Bottleneck({ maxConcurrent: 1 })
  const t0 = performance.now()
  let started = 0
  const job = limiter.schedule({ expiration: 50 }, async () => {
    started = performance.now() - t0
    await new Promise((resolve) => setTimeout(resolve, 30))
  })
  limiter.on('scheduled', () => process.nextTick(() => busy(25)))
  const outcome = await job.then(() => 'completed', (e: Error) => e.message)
  const failedAt = performance.now() - t0
  const broken = outcome !== 'completed'
  if (broken) shown++
  console.log(`bottleneck {expiration: 50}, a 30 ms job: started at ${started.toFixed(1)} ms, ${outcome} at ${failedAt.toFixed(1)} ms, after ${(failedAt - started).toFixed(1)} ms of running: ${broken ? 'failed though it ran under 50 ms' : 'held'}`)
}

// bottleneck, minTime 100 ms. Counterexample: two jobs 1 ms apart, no stall at all: the
// next launch is planned from when a job was registered, but a job launches through a
// setTimeout(0), which is 1 ms on Node. Three tries, no busy loop; the gap is short by
// under a millisecond (libuv counts whole ms), so it is reported, not required.
for (let attempt = 0; attempt < 3; attempt++) {
  const limiter = new Bottleneck({ minTime: 100 })
  const t0 = performance.now()
  const starts: number[] = []
  const first = limiter.schedule(async () => void starts.push(performance.now() - t0))
  await new Promise((resolve) => setTimeout(resolve, 1))
  await Promise.all([first, limiter.schedule(async () => void starts.push(performance.now() - t0))])
  const gap = starts[1]! - starts[0]!
  console.log(`bottleneck {minTime: 100}, two jobs 1 ms apart: launched at ${starts.map((s) => s.toFixed(1)).join(', ')} ms, ${gap.toFixed(1)} ms apart: ${gap < 100 ? 'closer than minTime' : 'held'}`)
}

process.exitCode = shown === 2 ? 0 : 1
