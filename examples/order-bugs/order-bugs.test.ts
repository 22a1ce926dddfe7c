/**
 * Two bugs every FIFO clock hides, found by `clockArb` and shrunk to the one departure
 * from FIFO that breaks the code; the fixed code passes a thousand explored runs.
 * Run with `npm run example:order-bugs`; it prints each counterexample.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ExploringClock, clockArb } from 'timing-wheel/testing'
import { createCache, keepWarm } from './cache.js'
import { watchConnection } from './heartbeat.js'

/** Reads the cache every 500 ms for six seconds while a refresher keeps it warm; true if every read hits. */
const cacheStaysWarm = (fixed: boolean) => (clock: ExploringClock): boolean => {
  const cache = createCache<number>(clock, 1000, { fixed })
  let loads = 0
  const stop = keepWarm(clock, cache, 'user:7', () => ++loads, 1000)
  let hits = true
  for (let t = 0; t < 12; t++) {
    clock.tick(500)
    hits &&= cache.get('user:7') !== undefined
  }
  stop()
  return hits
}

/** Ten seconds of heartbeats every second: true if the live connection is never declared dead. */
const staysAlive = (fixed: boolean) => (clock: ExploringClock): boolean => {
  let dead = false
  const watch = watchConnection(clock, { heartbeatMs: 1000, fixed, onDead: () => (dead = true) })
  clock.tick(10_000)
  watch.stop()
  return !dead
}

const fifo = clockArb({ ties: 'fifo' })

/** fast-check's report for `property` on `clocks`, failing within 100 runs. */
const found = (clocks: fc.Arbitrary<ExploringClock>, property: (clock: ExploringClock) => boolean): fc.RunDetails<[ExploringClock]> => {
  const details = fc.check(fc.property(clocks, property), { numRuns: 100 })
  console.log(fc.defaultReportMessage(details))
  return details
}

describe('a cache whose expiry timer ties with its refresh', () => {
  it('passes on every FIFO clock', () => {
    fc.assert(fc.property(fifo, cacheStaysWarm(false)), { numRuns: 200 })
  })

  it('fails when the tie goes the other way, shrunk to that one swap', () => {
    const details = found(clockArb({ ties: 'any' }), cacheStaysWarm(false))
    expect(details.failed).toBe(true)
    const departures = details.counterexample![0].describe()
    expect(departures).toHaveLength(1)
    expect(departures[0]).toMatch(/^setTimeout #\d+ ran before setTimeout #\d+, both at \d+ ms$/)
  })

  it('is fixed by clearing the old expiry', () => {
    fc.assert(fc.property(clockArb({ ties: 'any' }), cacheStaysWarm(true)), { numRuns: 1000 })
  })
})

describe('a watchdog of 1.2 heartbeats', () => {
  it('passes on every clock that fires on time', () => {
    fc.assert(fc.property(fifo, staysAlive(false)), { numRuns: 200 })
  })

  it('fails when a heartbeat runs late, shrunk to that one late beat', () => {
    const details = found(clockArb({ maxLateness: 500 }), staysAlive(false))
    expect(details.failed).toBe(true)
    const departures = details.counterexample![0].describe()
    expect(departures).toHaveLength(1)
    expect(departures[0]).toMatch(/^setInterval #\d+ \(due at \d+ ms\) ran \d+ ms late, at \d+ ms$/)
  })

  it('is fixed by waiting two heartbeats and a margin', () => {
    fc.assert(fc.property(clockArb({ maxLateness: 500 }), staysAlive(true)), { numRuns: 1000 })
  })
})
