/**
 * The wide version of `spec/explore-schedules.spec.ts`'s completeness check: on random
 * small programs, `exploreSchedules` (unbounded departures) must reach exactly the orders
 * a brute force over every plan reaches (every time at every stall and read, every pick).
 * Prints each miss and the totals; exits 1 on a miss.
 *
 * The brute force grows as (maxStall + 1) to the number of time choices (stalls and
 * reads, at rest too), and the search with it, so a few programs need millions of runs.
 * Each side stops after its bound (`maxRuns` plans, `maxSchedules` schedules): then the
 * other side is checked against it one way only (a bounded search must still reach no
 * order the brute force lacks, a bounded brute force none the search lacks), and the
 * program is counted as bounded, not as compared.
 * Run: `npm run explore:complete -- [programs] [maxTimers] [maxStall] [seed] [maxRuns] [maxSchedules]`.
 */
import fc from 'fast-check'
import type { ExploringClock } from '../lib/testing/index.js'
import { everyResult, programArb, runOn, searchResults } from '../spec/support/timer-programs.js'

const [programs = 400, maxTimers = 4, maxStall = 2, seed = 1, maxRuns = 20_000, maxSchedules = 100_000] = process.argv.slice(2).map(Number)
const t0 = performance.now()
const sample = fc.sample(programArb(maxTimers, [undefined, 0, 1, 2, 3, 5, 8]), { numRuns: programs, seed })
let misses = 0
let bounded = 0
let compared = 0
let searched = 0
let brute = 0
let partial = 0
let orders = 0
for (const [i, p] of sample.entries()) {
  const options = { maxStall: 1 + (i % maxStall), where: false }
  const body = (clock: ExploringClock) => runOn(clock, p, 60)
  const search = searchResults(body, options, maxSchedules)
  const every = everyResult(body, options, { maxRuns, oneClock: true })
  searched += search.schedules
  orders += search.results.size
  brute += every.runs
  if (!search.complete) bounded++
  if (!every.complete) partial++
  if (search.complete && every.complete) compared++
  // A bounded side reached a subset of its orders: only what it reached is checked.
  const missed = search.complete ? [...every.results].filter((r) => !search.results.has(r)) : []
  const extra = every.complete ? [...search.results].filter((r) => !every.results.has(r)) : []
  if ((i + 1) % 50 === 0) console.log(`${i + 1} programs: ${misses} with a different set of orders so far, ${compared} compared whole, ${searched} schedules searched, ${brute} brute-force runs`)
  if (missed.length + extra.length > 0) {
    misses++
    console.log(`program ${i} (maxStall ${options.maxStall}): ${JSON.stringify(p)}\n  missed: ${missed.join(' | ')}\n  extra: ${extra.join(' | ')}`)
  }
}
console.log(
  `${sample.length} programs (at most ${maxTimers} timers, maxStall 1..${maxStall}, seed ${seed}): ${misses} with a different set of orders; ` +
    `${compared} compared whole, ${bounded} searches over ${maxSchedules} schedules and ${partial} brute forces over ${maxRuns} runs (checked one way); ` +
    `${orders} orders in all, ${searched} schedules searched, ${brute} brute-force runs, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
)
process.exitCode = misses > 0 ? 1 : 0
