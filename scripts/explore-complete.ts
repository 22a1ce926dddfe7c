/**
 * The wide version of `spec/explore-schedules.spec.ts`'s completeness check: on random
 * small programs, `exploreSchedules` (unbounded departures) must reach exactly the orders
 * a brute force over every plan reaches (every time at every stall and read, every pick).
 * Prints each miss and the totals; exits 1 on a miss.
 *
 * The brute force grows as (maxStall + 1) to the number of time choices (stalls and
 * reads, at rest too), so a few programs need millions of runs. It stops after
 * `maxRuns` plans of a program: such a program is checked one way only (every order the
 * plans run reached is in the search's set) and counted as partial, not as compared.
 * Run: `npm run explore:complete -- [programs] [maxTimers] [maxStall] [seed] [maxRuns]`.
 */
import fc from 'fast-check'
import type { ExploringClock } from '../lib/testing/index.js'
import { everyResult, programArb, runOn, searchResults } from '../spec/support/timer-programs.js'

const [programs = 400, maxTimers = 4, maxStall = 2, seed = 1, maxRuns = 20_000] = process.argv.slice(2).map(Number)
const t0 = performance.now()
const sample = fc.sample(programArb(maxTimers, [undefined, 0, 1, 2, 3, 5, 8]), { numRuns: programs, seed })
let misses = 0
let incomplete = 0
let searched = 0
let brute = 0
let partial = 0
let orders = 0
for (const [i, p] of sample.entries()) {
  const options = { maxStall: 1 + (i % maxStall), where: false }
  const body = (clock: ExploringClock) => runOn(clock, p, 60)
  const search = searchResults(body, options)
  const every = everyResult(body, options, { maxRuns, oneClock: true })
  searched += search.schedules
  orders += search.results.size
  brute += every.runs
  if (!search.complete) incomplete++
  if (!every.complete) partial++
  const missed = [...every.results].filter((r) => !search.results.has(r))
  // A partial brute force reached a subset: only what it reached is checked.
  const extra = every.complete ? [...search.results].filter((r) => !every.results.has(r)) : []
  if ((i + 1) % 50 === 0) console.log(`${i + 1} programs: ${misses} with a different set of orders so far, ${partial} partial, ${searched} schedules searched, ${brute} brute-force runs`)
  if (missed.length + extra.length > 0) {
    misses++
    console.log(`program ${i} (maxStall ${options.maxStall}): ${JSON.stringify(p)}\n  missed: ${missed.join(' | ')}\n  extra: ${extra.join(' | ')}`)
  }
}
console.log(
  `${sample.length} programs (at most ${maxTimers} timers, maxStall 1..${maxStall}, seed ${seed}): ${misses} with a different set of orders, ${incomplete} incomplete, ` +
    `${partial} over ${maxRuns} brute-force runs (checked for misses only); ${orders} orders in all, ` +
    `${searched} schedules searched, ${brute} brute-force runs, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
)
process.exitCode = misses + incomplete > 0 ? 1 : 0
