/**
 * Two bugs that happen on Node and that every fake clock hides, found by `clockArb` and
 * `exploreSchedules` on Node's model; the fixed code passes. Run with
 * `npm run example:order-bugs`: seeds are fixed, so it prints the same thing every time.
 */
import fc from 'fast-check'
import { type ExploringClock, clockArb, exploreSchedules, withClock } from 'timing-wheel/testing'
import { retryUntil } from './deadline.js'
import { createLimiter } from './rate-limiter.js'

let failures = 0
const check = (ok: boolean, what: string): void => {
  console.log(`${ok ? 'ok' : 'NOT OK'}: ${what}`)
  if (!ok) failures++
}

/** Three jobs through a limiter of one per 100 ms: true if no two started closer. */
const limiterHolds = (recheck: boolean) => (clock: ExploringClock): boolean => {
  const starts: number[] = []
  const limiter = createLimiter({ intervalMs: 100, recheck })
  for (let i = 0; i < 3; i++) limiter.schedule(() => starts.push(Date.now()))
  clock.tick(1000)
  return starts.length === 3 && starts.every((t, i) => i === 0 || t - starts[i - 1]! >= 100)
}

console.log('1. A rate limiter that plans start times on arrival')
// Browsers run a 0 ms timeout at once (HTML 8.6), so only a stall breaks the limiter there;
// Node makes every delay below 1 ms 1 ms (its Timeout constructor), so there it fails at once.
check(!fc.check(fc.property(clockArb({ runtime: 'browser', maxStall: 0 }), withClock(limiterHolds(false))), { seed: 1 }).failed, 'passes in a browser on time (no stall)')
const stalled = fc.check(fc.property(clockArb({ runtime: 'browser', maxStall: 20 }), withClock(limiterHolds(false))), { seed: 1 })
check(stalled.failed, 'fails in a browser when the event loop may stall up to 20 ms; the counterexample:')
console.log(fc.stringify(stalled.counterexample?.[0]))
check(
  fc.check(fc.property(clockArb({ maxStall: 0 }), withClock(limiterHolds(false))), { seed: 1 }).failed,
  'fails on Node with no stall at all: its first setTimeout(…, 0) waits 1 ms there, 99 ms before the next',
)
for (const runtime of ['browser', 'node'] as const) {
  check(
    !fc.check(fc.property(clockArb({ runtime, maxStall: 50 }), withClock(limiterHolds(true))), { seed: 1, numRuns: 500 }).failed,
    `the limiter that re-checks when its timer fires passes 500 runs with stalls up to 50 ms (${runtime})`,
  )
}

/** Four attempts fit before a 400 ms deadline with a 100 ms pause; true if no fifth starts. */
const deadlineHolds = (readClock: boolean) => async (clock: ExploringClock): Promise<boolean> => {
  let attempts: number | undefined
  void retryUntil(async () => false, { deadlineMs: 400, everyMs: 100, readClock }).then((n) => (attempts = n))
  await clock.runAllAsync()
  return attempts === 4
}

console.log('\n2. A deadline timer that ties with a retry wait of another duration')
const tie = await fc.check(fc.asyncProperty(clockArb({ maxStall: 0 }), withClock(deadlineHolds(false))), { seed: 1 })
check(tie.failed, 'fails in the Node model, with no stall at all; the counterexample:')
console.log(fc.stringify(tie.counterexample?.[0]))
const exhaustive = await exploreSchedules(deadlineHolds(false), { maxStall: 0 })
check(exhaustive.failure !== undefined, `exploreSchedules finds it too, at schedule ${exhaustive.schedules}, plan ${JSON.stringify(exhaustive.failure?.plan)}`)
const fixed = await exploreSchedules(deadlineHolds(true), { maxStall: 30, maxDepartures: 2 })
check(fixed.failure === undefined && fixed.complete, `reading the clock passes all ${fixed.schedules} schedules with up to 2 departures and stalls up to 30 ms`)

process.exitCode = failures === 0 ? 0 : 1
