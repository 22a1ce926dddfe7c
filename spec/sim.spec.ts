/**
 * VirtualClock, rule by rule: each `describe` is one rule of fake-timers 15's behaviour
 * (API.md, "VirtualClock"), shown on small programs whose expected traces were read off
 * fake-timers itself. The differential spec checks the same rules on generated programs.
 */
import FakeTimers from '@sinonjs/fake-timers'
import { describe, expect, it } from 'vitest'
import { idleTickOf, ticking } from '../lib/fake-timers/clock.js'
import { createClock as createFakeTimersClock } from '../lib/fake-timers/index.js'
import { TimerHandle, VirtualClock } from '../lib/sim/index.js'
import type { ClockLike } from './support/sim-program.js'

type Clock = VirtualClock.VirtualClock

/** A clock and a log that callbacks write `label@now` to. */
const setup = (options: VirtualClock.CreateOptions = {}): { clock: Clock; log: string[]; at: (label: string) => () => void } => {
  const clock = VirtualClock.create(options)
  const log: string[] = []
  return { clock, log, at: (label) => () => void log.push(`${label}@${clock.now}`) }
}

const caught = (f: () => unknown): unknown => {
  try {
    f()
  } catch (e) {
    return e
  }
  throw new Error('expected a throw')
}

describe('create', () => {
  it('starts at now (floored) with no timers; loopLimit 0 or absent means 1000', () => {
    expect(VirtualClock.create().now).toBe(0)
    expect(VirtualClock.create({ now: 1234.9 }).now).toBe(1234)
    expect(VirtualClock.create({ now: -0.5 }).now).toBe(-1)
    expect(VirtualClock.create({ now: new Date(86_400_000) }).now).toBe(86_400_000)
    expect(VirtualClock.create().loopLimit).toBe(1000)
    expect(VirtualClock.create({ loopLimit: 0 }).loopLimit).toBe(1000)
    expect(VirtualClock.create({ loopLimit: 7 }).loopLimit).toBe(7)
    expect(VirtualClock.create().countTimers()).toBe(0)
  })

  it('refuses a start time that is not finite', () => {
    expect(() => VirtualClock.create({ now: Infinity })).toThrow(RangeError)
    expect(() => VirtualClock.create({ now: new Date(Number.NaN) })).toThrow(RangeError)
  })
})

describe('order: due time, then setImmediate, then scheduling order', () => {
  it('fires by due time, ties in the order scheduled', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(at('c'), 30)
    clock.setTimeout(at('a1'), 10)
    clock.setTimeout(at('b'), 20)
    clock.setTimeout(at('a2'), 10)
    clock.tick(30)
    expect(log).toEqual(['a1@10', 'a2@10', 'b@20', 'c@30'])
  })

  it('runs setImmediate before timeouts due at the same time, even ones scheduled earlier', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(at('timeout'), 0)
    clock.setImmediate(at('immediate'))
    clock.setTimeout(
      () => {
        log.push(`t1@${clock.now}`)
        clock.setTimeout(at('timeout 0 from a callback'), 0) // 1 ms later
        clock.setImmediate(at('immediate from a callback')) // 1 ms later too, but first
      },
      1,
    )
    clock.tick(5)
    expect(log).toEqual(['immediate@0', 'timeout@0', 't1@1', 'immediate from a callback@2', 'timeout 0 from a callback@2'])
  })

  it('gives an interval a new place in the order each time it re-arms', () => {
    const { clock, log, at } = setup()
    clock.setInterval(at('every 10'), 10)
    clock.setTimeout(at('at 20, scheduled after the interval'), 20)
    clock.tick(20)
    // At 20 the interval re-armed (at 10) after the timeout was scheduled (at 0).
    expect(log).toEqual(['every 10@10', 'at 20, scheduled after the interval@20', 'every 10@20'])
  })

  it('passes extra arguments to the callback', () => {
    const { clock } = setup()
    const seen: unknown[] = []
    clock.setTimeout((a: string, b: number) => seen.push(a, b), 5, 'x', 1)
    clock.setImmediate((a: string) => seen.push(a), 'y')
    clock.tick(5)
    expect(seen).toEqual(['y', 'x', 1])
  })
})

describe('callbacks', () => {
  it('get their arguments, however many, and this = null, as fake-timers calls them', () => {
    const calls = (clock: Pick<Clock, 'setTimeout' | 'setImmediate' | 'tick'>): unknown[] => {
      const seen: unknown[] = []
      const record = function (this: unknown, ...args: unknown[]): void {
        seen.push([this, ...args])
      }
      clock.setTimeout(record, 1)
      clock.setTimeout(record, 2, 'a')
      clock.setTimeout(record, 3, 'a', 2)
      clock.setTimeout(record, 4, 'a', 2, undefined)
      clock.setImmediate(record, 1, 2, 3, 4, 5)
      clock.tick(10)
      return seen
    }
    const ours = calls(VirtualClock.create())
    expect(ours).toEqual([[null, 1, 2, 3, 4, 5], [null], [null, 'a'], [null, 'a', 2], [null, 'a', 2, undefined]])
    expect(ours).toEqual(calls(FakeTimers.createClock() as unknown as Clock))
  })
})

describe('delay coercion', () => {
  const dueAfter = (delay: unknown, duringTick: boolean): number => {
    const { clock } = setup()
    let due = Number.NaN
    const schedule = (): void => {
      const start = clock.now
      clock.setTimeout(() => (due = clock.now - start), delay as number)
    }
    if (duringTick) {
      clock.setTimeout(schedule, 0)
      clock.tick(0)
    } else {
      schedule()
    }
    clock.runAll()
    return due
  }

  it.each([
    ['missing', undefined, 0],
    ['NaN', Number.NaN, 0],
    ['Infinity', Infinity, 0],
    ['-Infinity', -Infinity, 0],
    ['negative', -5, 0],
    ['a numeric string', '7', 7],
    ['a string with a numeric prefix', '12px', 12],
    ['a non-numeric string', 'abc', 0],
    ['null', null, 0],
    ['true', true, 0],
    ['a fraction', 1.7, 1],
    ['a fraction below 1', 0.4, 0],
    ['2^31 - 1', 2 ** 31 - 1, 2 ** 31 - 1],
    ['above 2^31 - 1', 2 ** 31, 1],
    ['1e21', 1e21, 1],
    ['1e-7, printed as "1e-7"', 1e-7, 1],
    ['5e-324, printed as "5e-324"', 5e-324, 5],
  ])('%s: due after %s ms -> %s ms', (_name, delay, expected) => {
    expect(dueAfter(delay, false)).toBe(expected)
  })

  it('makes a zero delay from inside a callback 1 ms', () => {
    expect(dueAfter(0, true)).toBe(1)
    expect(dueAfter(undefined, true)).toBe(1)
    expect(dueAfter('abc', true)).toBe(1)
    expect(dueAfter(3, true)).toBe(3)
  })

  it('gives setInterval the parsed delay as its period: NaN means 1, 0 and negatives stay', () => {
    const { clock, log, at } = setup()
    clock.setInterval(at('NaN'), Number.NaN)
    clock.tick(3)
    expect(log).toEqual(['NaN@0', 'NaN@1', 'NaN@2', 'NaN@3'])

    const zero = setup()
    let n = 0
    const id = zero.clock.setInterval(() => {
      zero.log.push(`zero@${zero.clock.now}`)
      if (++n === 3) zero.clock.clearInterval(id)
    }, 0)
    zero.clock.setTimeout(zero.at('timeout'), 0)
    zero.clock.tick(5)
    // A zero period fires again at the same time, each time after the others due then.
    expect(zero.log).toEqual(['zero@0', 'timeout@0', 'zero@0', 'zero@0'])
  })

  it('keeps a negative interval period, re-arming in the past; next() follows it back', () => {
    const program = (clock: Clock): string[] => {
      const log: string[] = []
      clock.setInterval(() => log.push(`neg@${clock.now}`), -3)
      log.push(`tick -> ${clock.tick(10)}, ${clock.countTimers()} pending`) // due at -3 now, which tick never reaches
      log.push(`next -> ${clock.next()}`)
      log.push(`next -> ${clock.next()}`)
      log.push(`runToLast -> ${String(caught(() => clock.runToLast()))}`) // a negative tick
      log.push(`jump -> ${clock.jump(20)}`) // pulls the late timer up to now + 20
      return log
    }
    const log = program(VirtualClock.create())
    expect(log.slice(0, 6)).toEqual([
      'neg@0',
      'tick -> 10, 1 pending',
      'neg@-3',
      'next -> -3',
      'neg@-6',
      'next -> -6',
    ])
    expect(log[6]).toBe('runToLast -> TypeError: Negative ticks are not supported')
    expect(log).toEqual(program(FakeTimers.createClock() as unknown as Clock))
  })
})

describe('tick', () => {
  it('fires timers scheduled by callbacks within the same tick when due in time', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(() => {
      log.push(`outer@${clock.now}`)
      clock.setTimeout(at('inner +0'), 0)
      clock.setTimeout(at('inner +5'), 5)
      clock.setTimeout(at('inner +50'), 50)
    }, 10)
    expect(clock.tick(20)).toBe(20)
    expect(log).toEqual(['outer@10', 'inner +0@11', 'inner +5@15'])
    expect(clock.countTimers()).toBe(1)
  })

  it('shows each callback the due time of its own timer', () => {
    const { clock } = setup({ now: 1000 })
    const seen: number[] = []
    for (const d of [3, 1, 2]) clock.setTimeout(() => seen.push(clock.now), d)
    clock.tick(100)
    expect(seen).toEqual([1001, 1002, 1003])
    expect(clock.now).toBe(1100)
  })

  it('runs the rest when a callback throws, then rethrows the first error', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(() => {
      throw new Error('first')
    }, 1)
    clock.setTimeout(at('after first'), 2)
    clock.setTimeout(() => {
      throw new Error('second')
    }, 3)
    clock.setTimeout(at('after second'), 4)
    expect(() => clock.tick(10)).toThrow('first')
    expect(log).toEqual(['after first@2', 'after second@4'])
    expect(clock.now).toBe(10)
  })

  it('forgets a falsy thrown value, as fake-timers does', () => {
    const { clock } = setup()
    clock.setTimeout(() => {
      throw undefined // eslint-disable-line @typescript-eslint/only-throw-error
    }, 1)
    clock.setTimeout(() => {
      throw new Error('the one rethrown')
    }, 2)
    expect(() => clock.tick(5)).toThrow('the one rethrown')
  })

  it('throws a TypeError for a negative amount and changes nothing', () => {
    const { clock, at } = setup()
    clock.setTimeout(at('x'), 0)
    expect(caught(() => clock.tick(-1))).toEqual(new TypeError('Negative ticks are not supported'))
    expect(clock.countTimers()).toBe(1)
    expect(clock.now).toBe(0)
  })

  it('throws a TypeError for NaN and infinite amounts (fake-timers would make now NaN or Infinity)', () => {
    const { clock } = setup()
    expect(() => clock.tick(Number.NaN)).toThrow(TypeError)
    expect(() => clock.tick(Infinity)).toThrow(TypeError)
    expect(clock.now).toBe(0)
  })

  it('accepts "mm:ss" and "hh:mm:ss" strings', () => {
    const { clock } = setup()
    expect(clock.tick('01:30')).toBe(90_000)
    expect(clock.tick('01:00:00')).toBe(90_000 + 3_600_000)
    expect(() => clock.tick('1:2:3:4')).toThrow("tick only understands numbers, 'm:s' and 'h:m:s'")
    expect(() => clock.tick('99')).toThrow('Invalid time 99')
  })

  it('moves whole milliseconds on fractional amounts, carrying the fraction into performance.now', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(at('t'), 2)
    expect(clock.tick(1.5)).toBe(1)
    expect(clock.performance.now()).toBe(1.5)
    expect(log).toEqual([])
    expect(clock.tick(0.6)).toBe(2) // 0.5 + 0.6 carries a millisecond
    expect(clock.performance.now()).toBeCloseTo(2.1, 12)
    expect(log).toEqual(['t@2'])
  })

  it('keeps a system time that is not exact in binary exactly, where fake-timers rounds it', () => {
    const program = (clock: Pick<Clock, 'setTimeout' | 'setSystemTime' | 'tick' | 'now'>): number => {
      clock.setTimeout(() => clock.setSystemTime(-129_198.039), 7)
      clock.tick(7)
      return clock.now
    }
    expect(program(VirtualClock.create())).toBe(-129_198.039)
    // fake-timers: the end of the tick, 7, shifted by (-129198.039 - 7).
    expect(program(FakeTimers.createClock() as unknown as Clock)).toBe(7 + (-129_198.039 - 7))
  })

  it('is what fake-timers does with fractional ticks and a fractional system time', () => {
    const ours = VirtualClock.create({ now: 10.75 })
    const theirs = FakeTimers.createClock(10.75)
    for (const clock of [ours, theirs]) {
      clock.tick(0.3)
      clock.setSystemTime(100.25)
      clock.tick(2.9)
    }
    expect([ours.now, ours.performance.now()]).toEqual([theirs.now, theirs.performance.now()])
  })
})

describe('clearing', () => {
  it('ignores unknown, falsy and already fired ids', () => {
    const { clock, at } = setup()
    const id = clock.setTimeout(at('x'), 1)
    clock.tick(1)
    for (const stranger of [undefined, null, 0, '', 5, 'abc', 1e15, id]) {
      expect(() => clock.clearTimeout(stranger as number)).not.toThrow()
      expect(() => clock.clearImmediate(stranger as number)).not.toThrow()
    }
  })

  it('accepts handles and their numeric ids; timeouts and intervals clear each other', () => {
    const { clock, log, at } = setup()
    const a = clock.setTimeout(at('a'), 1)
    const b = clock.setInterval(at('b'), 1)
    clock.clearInterval(a)
    clock.clearTimeout(Number(b))
    clock.tick(5)
    expect(log).toEqual([])
  })

  it('never clears a timer of one clock with an id kept from another (ids are unique across clocks)', () => {
    const old = VirtualClock.create()
    const stale = [old.setTimeout(() => undefined, 10), old.requestAnimationFrame(() => undefined)]
    old.reset()
    const { clock, log, at } = setup()
    clock.setTimeout(at('kept'), 10)
    clock.requestAnimationFrame(at('frame kept'))
    clock.clearTimeout(stale[0])
    clock.cancelAnimationFrame(stale[1] as number)
    clock.tick(16)
    expect(log).toEqual(['kept@10', 'frame kept@16'])
  })

  it('throws when an immediate or a frame is cleared by the wrong function', () => {
    const { clock } = setup()
    const immediate = clock.setImmediate(() => undefined)
    const frame = clock.requestAnimationFrame(() => undefined)
    const timeout = clock.setTimeout(() => undefined, 1)
    expect(() => clock.clearTimeout(immediate)).toThrow(
      'Cannot clear timer: timer created with setImmediate() but cleared with clearTimeout()',
    )
    expect(() => clock.clearInterval(frame)).toThrow(
      'Cannot clear timer: timer created with requestAnimationFrame() but cleared with clearInterval()',
    )
    expect(() => clock.cancelAnimationFrame(Number(timeout))).toThrow(
      'Cannot clear timer: timer created with setTimeout() but cleared with cancelAnimationFrame()',
    )
    expect(clock.countTimers()).toBe(3)
  })

  it('works from inside callbacks: an interval stops itself, a timer due in the same tick is skipped', () => {
    const { clock, log } = setup()
    let n = 0
    const later = clock.setTimeout(() => log.push('never'), 25)
    const id = clock.setInterval(() => {
      log.push(`tick ${++n}@${clock.now}`)
      if (n === 2) {
        clock.clearInterval(id)
        clock.clearTimeout(later)
      }
    }, 10)
    clock.tick(100)
    expect(log).toEqual(['tick 1@10', 'tick 2@20'])
    expect(clock.countTimers()).toBe(0)
  })
})

describe('next, runAll, runToLast', () => {
  it('next fires the first timer alone and moves there', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(at('b'), 20)
    clock.setTimeout(at('a'), 10)
    expect(clock.next()).toBe(10)
    expect(log).toEqual(['a@10'])
    expect(clock.countTimers()).toBe(1)
    expect(clock.next()).toBe(20)
    expect(clock.next()).toBe(20) // nothing left
  })

  it('runAll runs everything, including timers that callbacks add', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(() => {
      log.push(`a@${clock.now}`)
      clock.setTimeout(at('b'), 100)
    }, 10)
    expect(clock.runAll()).toBe(110)
    expect(log).toEqual(['a@10', 'b@110'])
  })

  it('runAll gives up after loopLimit timers', () => {
    const { clock } = setup({ loopLimit: 50 })
    clock.setInterval(() => undefined, 10)
    expect(() => clock.runAll()).toThrow('Aborting after running 50 timers, assuming an infinite loop!')
    expect(clock.now).toBe(500)
    clock.loopLimit = 3
    expect(() => clock.runAll()).toThrow('Aborting after running 3 timers, assuming an infinite loop!')
  })

  it('runAll with exactly loopLimit timers fails as fake-timers does (a TypeError)', () => {
    const { clock } = setup({ loopLimit: 2 })
    clock.setTimeout(() => undefined, 1)
    clock.setTimeout(() => undefined, 2)
    expect(caught(() => clock.runAll())).toEqual(new TypeError("Cannot read properties of null (reading 'error')"))
  })

  it('runAll lets a callback error out at once', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(() => {
      throw new Error('stop')
    }, 1)
    clock.setTimeout(at('later'), 2)
    expect(() => clock.runAll()).toThrow('stop')
    expect(log).toEqual([])
    expect(clock.countTimers()).toBe(1)
  })

  it('runToLast ticks to the latest due time, firing new timers due by then only', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(() => {
      log.push(`a@${clock.now}`)
      clock.setTimeout(at('b, in time'), 10)
      clock.setTimeout(at('c, too late'), 100)
    }, 10)
    clock.setTimeout(at('last'), 50)
    expect(clock.runToLast()).toBe(50)
    expect(log).toEqual(['a@10', 'b, in time@20', 'last@50'])
    expect(clock.countTimers()).toBe(1)
  })

  it('runToLast ends earlier by as much as a callback moves the clock back, as fake-timers', () => {
    // A negative period re-arms an interval in the past; a nested `next` fires it there.
    const play = (clock: ClockLike): string[] => {
      const log: string[] = []
      clock.setInterval(() => log.push(`interval@${clock.now}`), -5)
      clock.requestAnimationFrame(() => log.push(`frame@${clock.now}`))
      clock.setTimeout(() => log.push(`timeout@${clock.now}, next -> ${clock.next()}`), 0)
      log.push(`runToLast -> ${clock.runToLast()}`, `count ${clock.countTimers()}`)
      return log
    }
    const ours = play(VirtualClock.create() as unknown as ClockLike)
    expect(ours).toEqual(play(FakeTimers.createClock() as unknown as ClockLike))
    // The frame, due at 16 when runToLast started, is past the end moved back to 11.
    expect(ours).toContain('runToLast -> 11')
    expect(ours.some((line) => line.startsWith('frame'))).toBe(false)
  })

  it('runToLast still ends at the latest due time when a callback clears that timer', () => {
    const { clock, log } = setup()
    const last = clock.setTimeout(() => log.push('never'), 80)
    clock.setTimeout(() => clock.clearTimeout(last), 10)
    clock.setInterval(() => log.push(`every 30@${clock.now}`), 30)
    expect(clock.runToLast()).toBe(80)
    expect(log).toEqual(['every 30@30', 'every 30@60'])
  })

  it('runToLast after clearing the latest timer ends at the new latest', () => {
    const { clock } = setup()
    clock.setTimeout(() => undefined, 40)
    const last = clock.setTimeout(() => undefined, 90)
    clock.clearTimeout(last)
    expect(clock.runToLast()).toBe(40)
    expect(clock.runToLast()).toBe(40) // nothing pending
  })
})

describe('animation frames', () => {
  it('fall on 16 ms boundaries of elapsed time and receive performance.now()', () => {
    const { clock } = setup({ now: 1_000_003 })
    const frames: Array<[number, number]> = []
    clock.requestAnimationFrame((t) => frames.push([t, clock.now - 1_000_003]))
    clock.tick(5)
    clock.requestAnimationFrame((t) => frames.push([t, clock.now - 1_000_003]))
    clock.tick(20)
    expect(frames).toEqual([
      [16, 16],
      [16, 16],
    ])
    clock.requestAnimationFrame((t) => frames.push([t, clock.now - 1_000_003]))
    expect(clock.runToFrame()).toBe(1_000_003 + 32)
    expect(frames.at(-1)).toEqual([32, 32])
  })

  it('runToFrame on a boundary goes to the next one; frames can be cancelled', () => {
    const { clock, log, at } = setup()
    expect(clock.runToFrame()).toBe(16)
    const id = clock.requestAnimationFrame(at('cancelled'))
    clock.cancelAnimationFrame(id)
    expect(clock.runToFrame()).toBe(32)
    expect(log).toEqual([])
  })

  it('keep to elapsed time when the system time is set', () => {
    const { clock } = setup()
    clock.tick(5)
    clock.setSystemTime(1_000_000)
    let seen = Number.NaN
    clock.requestAnimationFrame((t) => (seen = t))
    clock.tick(11)
    expect(seen).toBe(16)
    expect(clock.now).toBe(1_000_011)
  })
})

describe('setSystemTime, jump, reset, countTimers', () => {
  it('setSystemTime moves now, not the timers: they keep their distance', () => {
    const { clock, log, at } = setup()
    clock.setTimeout(at('in 100'), 100)
    clock.tick(40)
    clock.setSystemTime(new Date(5_000))
    expect(clock.now).toBe(5_000)
    clock.tick(59)
    expect(log).toEqual([])
    clock.tick(1)
    expect(log).toEqual(['in 100@5060'])
    clock.setSystemTime()
    expect(clock.now).toBe(0)
    expect(() => clock.setSystemTime(Number.NaN)).toThrow(RangeError) // fake-timers reads NaN as 0; a non-finite time is refused here
    expect(clock.now).toBe(0)
    expect(() => clock.setSystemTime(Infinity)).toThrow(RangeError)
    expect(() => clock.setSystemTime('tomorrow' as unknown as number)).toThrow('now should be milliseconds since UNIX epoch')
  })

  it('jump fires every overdue timer once, at the end, in order', () => {
    const { clock, log, at } = setup()
    clock.setInterval(at('every 10'), 10)
    clock.setTimeout(at('at 25'), 25)
    clock.setImmediate(at('immediate'))
    clock.setTimeout(at('at 100'), 100)
    expect(clock.jump(50)).toBe(50)
    expect(log).toEqual(['immediate@50', 'every 10@50', 'at 25@50'])
    clock.tick(50)
    expect(log.slice(3)).toEqual(['every 10@60', 'every 10@70', 'every 10@80', 'every 10@90', 'at 100@100', 'every 10@100'])
  })

  it('reset drops every timer and returns to the start', () => {
    const { clock, log, at } = setup({ now: 500 })
    clock.setTimeout(at('x'), 10)
    clock.tick(5)
    clock.setSystemTime(9_999)
    clock.reset()
    expect(clock.now).toBe(500)
    expect(clock.countTimers()).toBe(0)
    clock.setTimeout(at('y'), 10)
    clock.tick(10)
    expect(log).toEqual(['y@510'])
    VirtualClock.invariant(clock)
  })

  it('countTimers counts pending timers; a timeout is gone while its callback runs, an interval is not', () => {
    const { clock } = setup()
    const counts: number[] = []
    clock.setTimeout(() => counts.push(clock.countTimers()), 1)
    clock.setInterval(() => counts.push(clock.countTimers()), 2)
    clock.setImmediate(() => counts.push(clock.countTimers()))
    expect(clock.countTimers()).toBe(3)
    clock.tick(2)
    expect(counts).toEqual([2, 1, 1])
  })
})

describe('handles', () => {
  it('are objects like Node timeouts, where Node timers are', () => {
    const { clock } = setup()
    const handle = clock.setTimeout(() => undefined, 1)
    expect(handle).toBeInstanceOf(TimerHandle)
    const h = handle as TimerHandle
    expect(h.hasRef()).toBe(true)
    expect(h.unref().hasRef()).toBe(false)
    expect(h.ref().hasRef()).toBe(true)
    expect(Number(h)).toBeGreaterThanOrEqual(1e12)
    expect(typeof clock.requestAnimationFrame(() => undefined)).toBe('number')
  })

  it('refresh re-arms from now with the first delay, after timers already due then, and revives a fired timer', () => {
    const { clock, log, at } = setup()
    const h = clock.setTimeout(at('refreshed'), 10) as TimerHandle
    clock.setTimeout(at('other'), 15)
    clock.tick(5)
    h.refresh()
    clock.tick(10)
    expect(log).toEqual(['other@15', 'refreshed@15'])
    h.refresh()
    expect(clock.countTimers()).toBe(1)
    clock.tick(10)
    expect(log.at(-1)).toBe('refreshed@25')
  })

  it('refresh keeps the firing order, where fake-timers 15 can fire out of order after one', () => {
    // fake-timers changes the due time before taking the timer out of its heap.
    const run = (clock: Pick<Clock, 'setTimeout' | 'setInterval' | 'setImmediate' | 'jump' | 'tick' | 'now'>): string[] => {
      const log: string[] = []
      const h: unknown[] = []
      h[0] = clock.setInterval(() => (h[4] as TimerHandle).refresh(), 2)
      h[1] = clock.setInterval(() => log.push(`t1@${clock.now}`))
      h[2] = clock.setTimeout(() => undefined, 0)
      h[3] = clock.setImmediate(() => (h[5] = clock.setTimeout(() => log.push(`t5@${clock.now}`))))
      h[4] = clock.setTimeout(() => undefined, 5)
      clock.jump(4)
      clock.tick(1)
      return log
    }
    // t5 was scheduled (at 4, due 5) before t1 re-armed (at 4, due 5).
    expect(run(VirtualClock.create())).toEqual(['t1@4', 't5@5', 't1@5'])
    expect(run(FakeTimers.createClock() as unknown as Clock)).toEqual(['t1@4', 't1@5', 't5@5'])
  })
})

describe('callbacks that move the clock', () => {
  it('behave as in fake-timers: the rest of the tick moves with the clock', () => {
    const program = (clock: Pick<Clock, 'setTimeout' | 'tick' | 'now' | 'setSystemTime'>): string[] => {
      const log: string[] = []
      clock.setTimeout(() => {
        log.push(`a@${clock.now}`)
        clock.tick(15)
        log.push(`a after its tick@${clock.now}`)
      }, 10)
      clock.setTimeout(() => log.push(`b@${clock.now}`), 20)
      clock.setTimeout(() => {
        log.push(`c@${clock.now}`)
        clock.setSystemTime(1_000)
      }, 30)
      clock.setTimeout(() => log.push(`d@${clock.now}`), 40)
      log.push(`tick -> ${clock.tick(30)}`)
      return log
    }
    expect(program(VirtualClock.create())).toEqual(program(FakeTimers.createClock() as unknown as Clock))
  })
})

describe('clock objects', () => {
  it('share their accessors, so that V8 gives every clock one fast shape (other getters made each after the first a dictionary)', () => {
    const accessor = (o: object, key: string): unknown => Object.getOwnPropertyDescriptor(o, key)?.get
    const [a, b] = [VirtualClock.create(), VirtualClock.create({ now: 5 })]
    for (const key of ['now', 'loopLimit']) expect(accessor(a, key)).toBe(accessor(b, key))
    expect([a.now, b.now]).toEqual([0, 5])
    b.loopLimit = 7
    expect([a.loopLimit, b.loopLimit]).toEqual([1000, 7])
    const [f, g] = [FakeTimers.createClock(0), FakeTimers.createClock(9)]
    expect(Object.keys(a)).toEqual(expect.arrayContaining(['now', 'loopLimit', 'setTimeout']))
    expect([f.now, g.now]).toEqual([0, 9])
  })

  it('keep their state where their accessors read it, and each module knows its own clocks by their accessors', () => {
    const vc = VirtualClock.create()
    const ft = createFakeTimersClock(0)
    VirtualClock.invariant(vc)
    expect(() => VirtualClock.invariant(ft as unknown as Clock)).toThrow(new TypeError('VirtualClock.invariant: not a clock made by VirtualClock.create'))
    expect(idleTickOf(ft)(5)).toBe(true)
    expect(ft.now).toBe(5)
    expect(() => idleTickOf(vc as never)).toThrow(new TypeError('idleTickOf: not a clock made by createClock'))
    expect(ticking(vc as never)).toBe(false)
  })
})

describe('next from inside a runToLast', () => {
  it('counts the timers it takes out of the wheel for the runToLast that watches them, as fake-timers ends where it does', () => {
    // `next` takes a millisecond's timers out of the wheel at once; the watch must count them as gone.
    const program = (clock: Pick<Clock, 'setTimeout' | 'setImmediate' | 'next' | 'runToLast' | 'now' | 'countTimers'>): string[] => {
      const log: string[] = []
      clock.setTimeout(() => log.push(`t1@${clock.now}`), 11)
      clock.setTimeout(() => {
        clock.setImmediate(() => {
          clock.next()
          log.push(`after next@${clock.now}`)
        })
      }, 0)
      log.push(`runToLast -> ${clock.runToLast()}`, `${clock.countTimers()} left`)
      return log
    }
    const ours = program(VirtualClock.create())
    expect(ours).toEqual(['t1@11', 'after next@11', 'runToLast -> 21', '0 left'])
    expect(ours).toEqual(program(FakeTimers.createClock() as unknown as Clock))
  })
})

describe('scale', () => {
  it('fires 200 000 timers in order, each at its time', () => {
    const clock = VirtualClock.create()
    const n = 200_000
    let fired = 0
    let last = -1
    let inOrder = true
    for (let i = 0; i < n; i++) {
      const due = (i * 7919) % 100_000
      clock.setTimeout(() => {
        fired++
        if (clock.now !== due || clock.now < last) inOrder = false
        last = clock.now
      }, due)
    }
    clock.runToLast()
    expect(fired).toBe(n)
    expect(inOrder).toBe(true)
    expect(clock.now).toBe(99_999)
  })
})

describe('timer handles', () => {
  it('carry their key (id less 10^12) as an own field, so two never compare deep-equal (as fake-timers’ do not)', async () => {
    const { isDeepStrictEqual } = await import('node:util')
    const c = VirtualClock.create()
    const f = (): void => {}
    const a = c.setTimeout(f, 10) as TimerHandle
    const b = c.setTimeout(f, 10) as TimerHandle
    expect(isDeepStrictEqual(a, b)).toBe(false)
    expect(Object.getOwnPropertyDescriptor(a, 'key')).toMatchObject({ value: Number(a) - 1e12, enumerable: true })
    expect(a.id).toBe(Number(a))
    expect(a.unref().refed).toBe(false)
    expect(b.refed).toBe(true)
    const fake = FakeTimers.createClock()
    expect(isDeepStrictEqual(fake.setTimeout(f, 10), fake.setTimeout(f, 10))).toBe(false)
  })

  it('clear only their own clock’s pending timer, by handle or by number, across resets', () => {
    const c = VirtualClock.create()
    const other = VirtualClock.create()
    const log: string[] = []
    const a = c.setTimeout(() => log.push('a'), 10) as TimerHandle
    const b = c.setTimeout(() => log.push('b'), 10) as TimerHandle
    const o = other.setTimeout(() => log.push('o'), 10) as TimerHandle
    c.clearTimeout(o) // another clock's handle: ignored
    other.clearTimeout(a)
    c.clearTimeout(Number(a)) // the first numeric clear builds the index from the pending timers
    c.clearTimeout(Number(a))
    c.tick(10)
    other.tick(10)
    expect(log).toEqual(['b', 'o'])
    c.setTimeout(() => log.push('c'), 5)
    c.reset()
    const d = c.setTimeout(() => log.push('d'), 5) as TimerHandle
    c.clearTimeout(b) // fired, and of the clock's first generation
    c.clearTimeout(a)
    VirtualClock.invariant(c)
    c.tick(5)
    expect(log).toEqual(['b', 'o', 'd'])
    d.refresh()
    c.clearTimeout(Number(d))
    expect(c.countTimers()).toBe(0)
    a.refresh() // revives a timer of the first generation into this one
    c.tick(10)
    expect(log).toEqual(['b', 'o', 'd', 'a'])
    VirtualClock.invariant(c)
  })
})

describe('the loop-limit error', () => {
  it('names the looping timer and shows where it was created, as fake-timers’ does', () => {
    const stackOf = (clock: { setTimeout: (f: () => void, ms: number) => unknown; runAll: () => number }): string[] => {
      const again = function again(): void {
        clock.setTimeout(again, 0)
      }
      clock.setTimeout(again, 0)
      try {
        clock.runAll()
      } catch (e) {
        return (e as Error).stack!.split('\n').slice(0, 3)
      }
      return []
    }
    const ours = stackOf(VirtualClock.create({ loopLimit: 5 }))
    const theirs = stackOf(FakeTimers.createClock(0, 5))
    // (The transform may rename the function expression: again2.)
    expect(ours[0]).toBe('Error: Aborting after running 5 timers, assuming an infinite loop!')
    expect(ours[1]).toMatch(/^Timeout - again\d*$/)
    expect(ours.slice(0, 2)).toEqual(theirs.slice(0, 2))
    expect(ours[2]).toMatch(/^\s+at again\d* /)
    expect(theirs[2]).toMatch(/^\s+at again\d* /)
  })
})
