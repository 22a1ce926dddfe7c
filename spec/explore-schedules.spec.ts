/**
 * `exploreSchedules`: it reaches every schedule the model allows for small programs
 * (against a brute-force enumeration of plans: every stall length, every choice), each
 * once; its bound means what it says; a failure comes back replayable; async bodies.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ExploringClock, clockArb, exploreSchedules, withClock } from '../lib/testing/index.js'
import { expectCode } from './support/expect-error.js'
import { conformance, runOnNode } from '../scripts/node-conformance.js'
import { type Program, type TimerSpec, everyResult, programArb, runOn, searchResults } from './support/timer-programs.js'

const leaf = (kind: TimerSpec['kind'], delay: number | undefined): TimerSpec => ({ kind, delay, runs: 1, busy: 0, children: [] })

/** A small program: its timers' run order and times, as one string per schedule. */
const program = (clock: ExploringClock, runs: string[]): void => {
  const log: string[] = []
  const t = (label: string, ms: number, then?: () => void) => setTimeout(() => {
    log.push(`${label}@${clock.performance!.now()}`)
    then?.()
  }, ms)
  t('a', 10)
  t('b', 12, () => t('b2', 1))
  t('c', 10)
  setImmediate(() => log.push(`imm@${clock.performance!.now()}`))
  clock.tick(5)
  t('d', 5) // due with a and c, in a list of its own: either way
  t('e', 7) // due with b, likewise
  clock.tick(30)
  runs.push(log.join(' '))
}

describe('exploreSchedules', () => {
  it('reaches every order a brute-force enumeration of plans reaches, no more runs', () => {
    const cut: string[] = []
    const bounded = exploreSchedules((clock) => program(clock, cut), { maxStall: 2, maxDepartures: 64 })
    expect(bounded.complete).toBe(true)
    expect(bounded.schedules).toBe(cut.length)
    const order = (run: string) => run.replace(/@\d+/g, '')
    const every = everyResult(withClock((clock) => {
      const runs: string[] = []
      program(clock, runs)
      return runs[0]!
    }), { maxStall: 2 })
    // The cut loses no order, and each schedule it runs is one a plan runs.
    expect(new Set(cut.map(order))).toEqual(new Set([...every.results].map(order)))
    expect(cut.every((run) => every.results.has(run))).toBe(true)
    expect(cut.length).toBeLessThanOrEqual(every.runs)
  })

  it('finds the orders a stall makes through timers armed during the batch (issue 39, hole 2)', () => {
    const body = (clock: ExploringClock): boolean => {
      const log: string[] = []
      setTimeout(() => { log.push('A'); setTimeout(() => log.push('Ax'), 1) }, 3)
      setTimeout(() => { log.push('B'); setTimeout(() => log.push('Bx'), 1) }, 1)
      setTimeout(() => { log.push('C'); setTimeout(() => log.push('Cx'), 2) }, 1)
      clock.tick(30)
      return log.join(' ') !== 'B C A Bx Cx Ax'
    }
    const result = exploreSchedules(body, { maxStall: 2 })
    expect(result.failure).toBeDefined()
    expect(fc.check(fc.property(clockArb({ maxStall: 2, plan: result.failure!.plan }), withClock(body))).failed).toBe(true)
  })

  it('complete means complete: on 200 random programs the search reaches exactly the orders every plan reaches', () => {
    // Nested armings, intervals, immediates, zero, missing and several delays, two moves.
    // Small enough to run in seconds; `npm run explore:complete` sweeps larger ones.
    const programs = fc.sample(programArb(3, [undefined, 0, 1, 2, 3, 5]), { numRuns: 200, seed: 39 })
    let searched = 0
    let brute = 0
    for (const p of programs) {
      const options = { maxStall: 1, where: false }
      const body = (clock: ExploringClock) => runOn(clock, p, 30)
      const search = searchResults(body, options)
      const every = everyResult(body, options, { oneClock: true })
      expect(search.complete).toBe(true)
      expect([...search.results].sort(), JSON.stringify(p)).toEqual([...every.results].sort())
      searched += search.schedules
      brute += every.runs
    }
    expect(searched).toBeLessThanOrEqual(brute)
  })

  it("every order real Node shows is in the explored set (Node's delay rule, busy-waits as stalls)", () => {
    // Node: a 0 ms or missing delay is 1 ms, in the 1 ms list, so A runs first, always.
    const zero: Program = { timers: [leaf('timeout', 1), leaf('timeout', 0), leaf('timeout', undefined)], later: [], firstTick: 0 }
    const explored = searchResults((clock) => runOn(clock, zero, 50), { maxStall: 15, where: false })
    expect([...explored.results]).toEqual(['A B C'])
    expect(runOnNode(zero, 2).map((r) => r.order)).toEqual(['A B C', 'A B C'])
    // A few random programs; `npm run node:conformance` runs the wide sweep.
    const busy = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }))
    for (const program of fc.sample(programArb(4, [undefined, 0, 1, 2, 3, 5], busy, false), { numRuns: 2, seed: 11 })) {
      const c = conformance(program, 2, 15)
      expect(c.node.every((r) => r.runTimers > 0), 'traced').toBe(true)
      if (c.explored.complete) expect(c.gaps, JSON.stringify(program)).toEqual([])
    }
  }, 30_000)

  it('maxDepartures bounds the departures: 0 is the FIFO schedule alone', () => {
    const runs: string[] = []
    expect(exploreSchedules((clock) => program(clock, runs), { maxStall: 3, maxDepartures: 0 })).toEqual({ schedules: 1, complete: true })
    const one = exploreSchedules((clock) => program(clock, []), { maxStall: 3, maxDepartures: 1 })
    const two = exploreSchedules((clock) => program(clock, []), { maxStall: 3, maxDepartures: 2 })
    expect(1 < one.schedules && one.schedules < two.schedules).toBe(true)
    expect(exploreSchedules((clock) => program(clock, []), { maxStall: 3, maxSchedules: 3 })).toEqual({ schedules: 3, complete: false })
  })

  it('returns the first failing schedule, replayable as a clockArb value', () => {
    const body = (clock: ExploringClock): boolean => {
      const seen: string[] = []
      setTimeout(() => seen.push('deadline'), 100)
      clock.tick(50)
      setTimeout(() => seen.push('retry'), 50)
      clock.tick(100)
      return seen[0] === 'deadline'
    }
    const result = exploreSchedules(body, { maxStall: 0 })
    expect(result.schedules).toBe(2)
    expect(result.failure!.plan).toEqual({ stalls: [], picks: [1] })
    expect(result.failure!.departures).toEqual([expect.stringMatching(/^setTimeout\(…, 50\) armed at 50 ms .*due at 100 ms, ran at 100 ms: lists due together run in either order/)])
    const details = fc.check(fc.property(clockArb({ maxStall: 0, plan: result.failure!.plan }), withClock(body)))
    expect(details.failed).toBe(true)
    expect(fc.stringify(details.counterexample![0])).toContain('lists due together run in either order')
  })

  it('explores async bodies', async () => {
    const result = await exploreSchedules(async (clock) => {
      const order: string[] = []
      const wait = (ms: number, label: string) => new Promise<void>((resolve) => setTimeout(() => (order.push(label), resolve()), ms))
      const both = Promise.all([wait(20, 'x'), wait(10, 'y').then(() => wait(10, 'z'))])
      await clock.tickAsync(40)
      await both
      return order.join() !== 'y,z,x'
    }, { maxStall: 0 })
    expect(result.failure?.plan).toEqual({ stalls: [], picks: [1] })
  })

  it('refuses bad options, naming the value', () => {
    expect(expectCode('InvalidArgument', () => exploreSchedules(() => true, { maxDepartures: -1 }))).toContain('-1')
    expect(expectCode('InvalidArgument', () => exploreSchedules(() => true, { maxSchedules: 0 }))).toContain('0')
    expect(expectCode('InvalidArgument', () => exploreSchedules(() => true, { maxStall: 2.5 }))).toContain('2.5')
    expect(expectCode('InvalidArgument', () => exploreSchedules(42 as never))).toContain('42')
  })
})
