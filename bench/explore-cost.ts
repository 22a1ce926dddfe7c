/**
 * What exploring costs: fast-check runs per second of a property with 20 timers on
 * `clockArb` (each run a fresh clock installed by `withClock`), against the same property
 * on the plain `timing-wheel/fake-timers` clock installed the same way; and schedules per
 * second of `exploreSchedules` on a small body. The method of `npm run bench` (bench/README.md):
 * the built package (dist/), as users run it; the main thread's CPU time after a full
 * collection; 7 interleaved rounds, medians. Run: `npm run bench:explore`.
 */
import fc from 'fast-check'
import { install } from '../dist/lib/fake-timers/index.js'
import { type ExploringClock, clockArb, exploreSchedules, withClock } from '../dist/lib/testing/index.js'
import { clockName, collect, nanos } from './drivers.js'
import { median } from './runner.js'
import { twentyTimers } from './twenty-timers.js'


const runs = 2000
const rounds = 7
/** Runs per second of `f` (which makes `n`), on the project's bench clock, after a full collection. */
const perSecond = (f: () => void, n: number): number => {
  collect()
  const t0 = nanos()
  f()
  return (n / (nanos() - t0)) * 1e9
}

const explored: number[] = []
const bare: number[] = []
const plain: number[] = []
const schedules: number[] = []
let count = 0
for (let round = 0; round < rounds; round++) {
  // The three in a rotating order, so none is always the first after the warm-up.
  const measures = [
    () => explored.push(perSecond(() => fc.assert(fc.property(clockArb({ maxStall: 20 }), withClock(twentyTimers)), { numRuns: runs, seed: round }), runs)),
    () => bare.push(perSecond(() => fc.assert(fc.property(clockArb({ maxStall: 20, where: false }), withClock(twentyTimers)), { numRuns: runs, seed: round }), runs)),
    () => plain.push(perSecond(() => fc.assert(fc.property(fc.constant(0), () => {
      const clock = install({ now: 0 })
      try {
        return twentyTimers(clock)
      } finally {
        clock.uninstall()
      }
    }), { numRuns: runs, seed: round }), runs)),
  ]
  for (let i = 0; i < measures.length; i++) measures[(i + round) % measures.length]!()
  collect()
  const t0 = nanos()
  const result = exploreSchedules((clock: ExploringClock) => {
    const seen: number[] = []
    for (let i = 0; i < 6; i++) setTimeout(() => seen.push(i), 10 + 4 * (i % 3))
    setImmediate(() => seen.push(9))
    clock.tick(8)
    setTimeout(() => seen.push(6), 6)
    setTimeout(() => seen.push(7), 10)
    clock.tick(50)
    return seen.length === 9
  }, { maxStall: 10, maxDepartures: 4 })
  count = result.schedules
  schedules.push((result.schedules / (nanos() - t0)) * 1e9)
}
/** The plain clock's rate over `rates`' in each round: how many times its time a run takes; median (least-greatest). */
const cost = (rates: readonly number[]): string => {
  const ratios = rates.map((r, i) => plain[i]! / r).sort((a, b) => a - b)
  return `${median(ratios).toFixed(2)}x (${ratios[0]!.toFixed(2)}-${ratios[ratios.length - 1]!.toFixed(2)})`
}
console.log(`${rounds} rounds; ${clockName}. Each cost is a run's time over the plain clock's in the same round, median (least-greatest).`)
console.log(`20-timer property: clockArb ${median(explored).toFixed(0)} runs/s, costs ${cost(explored)}; with where: false ${median(bare).toFixed(0)} runs/s, ${cost(bare)}; plain fake-timers clock ${median(plain).toFixed(0)} runs/s`)
console.log(`exploreSchedules: ${count} schedules (9 timers, maxStall 10, maxDepartures 4), ${median(schedules).toFixed(0)} schedules/s`)
