/**
 * The virtual clock at the edges: its range, non-finite times, and hostile delays, which
 * keep fake-timers' coercion (the differential below runs each on a real fake-timers
 * clock). A move the range cannot follow is refused before anything changes.
 */
import FakeTimers from '@sinonjs/fake-timers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VirtualClock } from '../lib/sim/index.js'
import { expectCode } from './support/expect-error.js'

const observe = (c: VirtualClock.VirtualClock) => ({ now: c.now, timers: c.countTimers(), perf: c.performance.now() })

describe('the clock’s range', () => {
  it('refuses a jump or tick past its range up front, losing no timer (was: an internal error, both timers lost)', () => {
    const fired: string[] = []
    const c = VirtualClock.create()
    c.setTimeout(() => fired.push('timeout'), 10)
    c.setInterval(() => fired.push('interval'), 1000)
    for (const move of [() => c.jump(2 ** 52), () => c.tick(2 ** 52), () => c.tick(VirtualClock.lastElapsed + 1)]) {
      const before = observe(c)
      expect(expectCode('TimeOutOfRange', move)).toContain(String(VirtualClock.lastElapsed))
      expect(observe(c)).toEqual(before)
    }
    expect(fired).toEqual([])
    // Within the range, a jump fires each timer once, as fake-timers does.
    c.jump(2 ** 50)
    expect(fired).toEqual(['timeout', 'interval'])
    expect(c.countTimers()).toBe(1)
    VirtualClock.invariant(c)
  })

  it('returns from a jump near the end of the range with an interval pending (was: never returned)', () => {
    const c = VirtualClock.create()
    let fired = 0
    c.setInterval(() => fired++, 100)
    expectCode('TimeOutOfRange', () => c.jump(2 ** 52 - 50))
    c.jump(VirtualClock.lastElapsed - 10)
    expect(fired).toBe(1)
    // The interval is now due past the range: next and runAll refuse to go there and keep it.
    expectCode('TimeOutOfRange', () => c.next())
    expectCode('TimeOutOfRange', () => c.runAll())
    expect(c.countTimers()).toBe(1)
    expect(c.now).toBe(VirtualClock.lastElapsed - 10)
    // Timers set at the end of the range still fit.
    c.setTimeout(() => fired++, 2 ** 31 - 1)
    expect(c.countTimers()).toBe(2)
    VirtualClock.invariant(c)
  })

  it('refuses non-finite start and system times (fake-timers reads NaN as 0)', () => {
    for (const now of [Number.NaN, Infinity, -Infinity]) {
      expect(() => VirtualClock.create({ now })).toThrow(RangeError)
      const c = VirtualClock.create({ now: 5 })
      expect(() => c.setSystemTime(now)).toThrow(RangeError)
      expect(c.now).toBe(5)
    }
  })
})

describe('hostile delays keep fake-timers’ coercion', () => {
  const hostile = fc.oneof(
    fc.constantFrom<unknown>(Number.NaN, Infinity, -Infinity, -0, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 1e308, -1e308, '10', '', 'x', true, null, undefined, [], [7], { valueOf: () => 7 }, new Number(7), 10n, Symbol('d')),
    fc.double({ min: -100, max: 5000 }),
  )

  it('fires the same timers at the same times as fake-timers (property)', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 8 }), (delays) => {
        const run = (clock: { setTimeout: (f: () => void, d?: number) => unknown; tick: (ms: number) => unknown; now: number }) => {
          const log: string[] = []
          const outcomes = delays.map((d, i) => {
            try {
              clock.setTimeout(() => log.push(`${i}@${clock.now}`), d as number)
              return 'ok'
            } catch (e) {
              return (e as Error).constructor.name
            }
          })
          clock.tick(6000)
          return { log, outcomes }
        }
        expect(run(VirtualClock.create())).toEqual(run(FakeTimers.createClock()))
      }),
      { numRuns: 300 },
    )
  })
})
