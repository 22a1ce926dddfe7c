/**
 * The real-library check of `clockArb` (issue 34): for each property in
 * `spec/libraries/properties.ts`, `SEEDS` seeds of `RUNS` runs on Node's model with stalls
 * up to 50 ms. Properties the libraries keep on Node must never fail (a failure is a false
 * alarm, and the script exits 1); the bugs must be found, each shrunk and printed.
 * Run: `npm run check:libraries` (SEEDS=10 RUNS=500 by default; slow: not in `npm test`).
 */
import fc from 'fast-check'
import { clockArb, withClock } from '../lib/testing/index.js'
import { arrivals, bugs, holds } from '../spec/libraries/properties.js'

const seeds = Number(process.env['SEEDS'] ?? 10)
const runs = Number(process.env['RUNS'] ?? 500)
let bad = 0
const t0 = performance.now()
for (const [name, body] of Object.entries(holds)) {
  let falseAlarms = 0
  for (let seed = 1; seed <= seeds; seed++) {
    const details = await fc.check(fc.asyncProperty(clockArb({ maxStall: 50 }), arrivals, withClock(body)), { seed, numRuns: runs })
    if (details.failed) {
      falseAlarms++
      console.log(`FALSE ALARM (${name}, seed ${seed}):\n${fc.defaultReportMessage(details)}`)
    }
  }
  bad += falseAlarms
  console.log(`${name}: ${falseAlarms} false alarms in ${seeds} seeds x ${runs} runs`)
}
for (const [name, body] of Object.entries(bugs)) {
  const details = await fc.check(fc.asyncProperty(clockArb({ maxStall: 50 }), arrivals, withClock(body)), { seed: 1, numRuns: runs })
  if (!details.failed) bad++
  console.log(`${name}: ${details.failed ? `found after ${details.numRuns} runs, shrunk to` : 'NOT FOUND'}`)
  if (details.failed) console.log(`${fc.stringify(details.counterexample)}`)
}
console.log(`${((performance.now() - t0) / 1000).toFixed(0)} s`)
process.exitCode = bad === 0 ? 0 : 1
