/**
 * The lateness bugs `clockArb` found in real libraries (`npm run check:libraries`),
 * replayed on Node's real timers: the counterexample's stall is made by a callback that
 * keeps the event loop busy, as a slow `JSON.parse` or a sync crypto call would. Prints
 * what happened; exits 1 if a bug did not show (a model that cried wolf).
 * Then what the simulation found in tinyraft (spec/simulation.tinyraft.spec.ts), on real timers.
 * Run: `node --import tsx scripts/real-timers-replay.ts`.
 */
import { createRequire } from 'node:module'
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

// tinyraft 1.0.1, five nodes, 5 ms links, no fault. The simulation's seed 1: two election
// timers fire 4 ms apart, so the second candidate votes for itself, and the first wins. Two
// ways the leader is then deposed with no fault: (a) the rival's vote reaches the leader,
// _isVotingFailed (an array added to a number: NaN for string ids, so "failed") says the
// vote failed, and the leader runs _nextTerm(0), starting a new term itself within one
// election timeout; (b) the rival stays a candidate (a ping from a leader it did not vote
// for does not make it a follower) and starts the next term when its own timer fires.
// Here n3 and n4 start 2 ms apart on real timers; with numeric ids (tinyraft's README) only
// (b) happens. Printed: who started each term after the first, and when.
interface Raft {
  start(): void
  stop(): void
  onReceive(from: string | number, m: unknown): void
  on(e: 'change', f: (st: { state: string; term: number; leader?: unknown }) => void): void
}
const TinyRaft = createRequire(import.meta.url)('tinyraft') as new (config: object) => Raft
/**
 * A tinyraft cluster on real timers with 5 ms links: `starts` are [node index, ms] to call
 * start() at, `cut(from, to)` drops a message, and after `ms` every node stops. Returns who
 * started each term after the first (start() announces a candidate without a leader), in
 * what state, and when.
 */
const raftRun = async <Id extends string | number>(ids: readonly Id[], starts: ReadonlyArray<readonly [number, number]>, ms: number, cut = (_from: Id, _to: Id): boolean => false): Promise<string[]> => {
  const rafts = new Map<Id, Raft & { state?: string }>()
  const t0 = performance.now()
  const started: string[] = []
  let stopped = false
  for (const id of ids) {
    // Nothing is delivered after stop(): a message received then would start a node again.
    const send = (to: Id, m: unknown): void => void setTimeout(() => stopped || cut(id, to) || rafts.get(to)?.onReceive(id, m), 5)
    const raft = new TinyRaft({ nodes: [...ids], nodeId: id, electionTimeout: 250, heartbeatTimeout: 50, send })
    const was = { state: 'none' }
    const start = raft.start.bind(raft)
    raft.start = () => ((was.state = (raft as { state?: string }).state ?? 'none'), start())
    raft.on('change', (st) => void (st.state === 'candidate' && st.leader === undefined && st.term > 1 && started.push(`term ${st.term} by ${id} (was ${was.state}) at ${(performance.now() - t0).toFixed(0)} ms`)))
    rafts.set(id, raft)
  }
  for (const [i, at] of starts) setTimeout(() => rafts.get(ids[i]!)!.start(), at)
  await new Promise((resolve) => setTimeout(resolve, ms))
  stopped = true
  for (const raft of rafts.values()) raft.stop()
  return started
}
const splitVote = <Id extends string | number>(ids: readonly Id[]): Promise<string[]> => raftRun(ids, [[2, 0], [3, 2]], 240)
{
  // 240 ms: before any election timer of term 1 can fire (250 ms at least), so a new term is
  // (a) when n3 starts it, (b) when n4 does; either deposes n3. Which comes first is up to
  // Math.random: up to 8 tries each.
  const tries = async <Id extends string | number>(ids: readonly Id[], leader: string): Promise<string> => {
    const seen: string[] = []
    for (let i = 0; i < 8; i++) {
      const started = await splitVote(ids)
      seen.push(started[0] ?? 'none')
      if (started[0]?.includes(` by ${leader} `)) break
    }
    return `${seen.length} tries, first new term: ${seen.join('; ')}`
  }
  const named = await tries(['n1', 'n2', 'n3', 'n4', 'n5'], 'n3')
  const numbered = await tries([1, 2, 3, 4, 5], '3')
  const broken = / by n3 /.test(named)
  if (broken) shown++
  console.log(`tinyraft, a split vote 2 ms apart, no fault, 240 ms: ids 'n1'..'n5': ${named} (${broken ? 'the leader n3 deposed itself' : 'never by the leader'}); ids 1..5: ${numbered}`)
}

// (c) check:tinyraft's shrunk schedule: a partition between the leader n2 and a follower n1
// from 11 ms.
// n1 hears no heartbeat, starts a term and wins it; n2, still leader of the old term, pings
// n1's followers, and their PONG (naming n1) makes n2 call start() from leader instead of
// following n1: a new election at n2's term + 1, a term that already has its leader.
{
  const ids = ['n1', 'n2', 'n3', 'n4', 'n5']
  // Cut after 11 ms: n1 has had n2's vote request (and so an election timer) by then.
  const t0 = performance.now()
  const started = await raftRun(ids, [[1, 0]], 1000, (from, to) => performance.now() - t0 > 11 && [from, to].sort().join() === 'n1,n2')
  const broken = started.some((s) => / by n2 \(was leader\)/.test(s))
  if (broken) shown++
  console.log(`tinyraft, n1 <-> n2 cut, n2 elected first, 1 s: ${started.join('; ') || 'no new term'} (${broken ? 'the stale leader n2 started an election on learning of n1' : 'n2 followed'})`)
}

process.exitCode = shown === 4 ? 0 : 1
