/**
 * What exploring costs: fast-check runs per second of a property with 20 timers on
 * `clockArb` (each run a fresh clock installed by `withClock`), against the same property
 * on the plain `timing-wheel/fake-timers` clock installed the same way; and schedules per
 * second of `exploreSchedules` on a small body. Medians of 5 interleaved rounds.
 * Run: `node --import tsx bench/explore-cost.ts`.
 */
import fc from 'fast-check'
import { install } from '../lib/fake-timers/index.js'
import { type ExploringClock, clockArb, exploreSchedules, withClock } from '../lib/testing/index.js'
import { median } from './runner.js'

/** 20 timers: 10 timeouts of 4 durations, 5 of them re-armed by their callbacks, 2 intervals, 3 immediates. */
const twentyTimers = (clock: { tick: (ms: number) => number }): boolean => {
  const ran: number[] = []
  for (let i = 0; i < 10; i++) setTimeout(() => ran.push(i), 25 * (i % 4) + 5)
  for (let i = 0; i < 5; i++) setTimeout(() => setTimeout(() => ran.push(100 + i), 30), 10 * i)
  const intervals = [setInterval(() => ran.push(200), 40), setInterval(() => ran.push(201), 55)]
  for (let i = 0; i < 3; i++) setImmediate(() => ran.push(300 + i))
  clock.tick(120)
  intervals.forEach(clearInterval)
  return ran.length > 0
}

const runs = 2000
const perSecond = (f: () => void, n: number): number => {
  const t0 = performance.now()
  f()
  return (n / (performance.now() - t0)) * 1000
}

const explored: number[] = []
const bare: number[] = []
const plain: number[] = []
const schedules: number[] = []
let count = 0
for (let round = 0; round < 5; round++) {
  // The three in a rotating order: the first of a round pays for the last one's garbage.
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
  const t0 = performance.now()
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
  schedules.push((result.schedules / (performance.now() - t0)) * 1000)
}
const e = median(explored)
const p = median(plain)
const w = median(bare)
console.log(`20-timer property: clockArb ${e.toFixed(0)} runs/s (${(p / e).toFixed(2)}x the plain clock's time), with where: false ${w.toFixed(0)} runs/s (${(p / w).toFixed(2)}x), plain fake-timers clock ${p.toFixed(0)} runs/s`)
console.log(`exploreSchedules: ${count} schedules (9 timers, maxStall 10, maxDepartures 4), ${median(schedules).toFixed(0)} schedules/s`)
