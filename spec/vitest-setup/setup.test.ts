/**
 * `timing-wheel/vitest/setup` as a project uses it: this file runs with the setup as its
 * one setup file and `fakeTimers: { loopLimit: 50 }` in its config (vitest.config.ts), and
 * calls `vi` exactly as a test written for Vitest's own fake timers does. Each test states
 * one rule of Vitest's `FakeTimers` (Vitest 4.1, `integrations/mock/timers.ts` and
 * `createVitest()`), or one difference that shows the timers are the wheel's.
 */
import fc from 'fast-check'
import PQueue from 'p-queue'
import { Temporal } from 'temporal-polyfill'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TimingWheelError } from 'timing-wheel'
import { TimerHandle } from 'timing-wheel/sim'
import { FakeTimers } from 'timing-wheel/vitest'
import { moveTimers } from 'timing-wheel/vitest/setup'

const notMocked = 'A function to advance timers was called but the timers APIs are not mocked. Call `vi.useFakeTimers()` in the test file first.'
const realSetTimeout = globalThis.setTimeout

afterEach(() => {
  vi.useRealTimers()
})

describe('the timers vi installs', () => {
  it('are the wheel’s: handles are the virtual clock’s, and a non-finite advance is refused', () => {
    vi.useFakeTimers()
    expect(setTimeout(() => undefined, 10)).toBeInstanceOf(TimerHandle)
    expect(() => vi.advanceTimersByTime(Number.NaN)).toThrow('needs a finite number of milliseconds')
  })

  it('fire in order with Date.now at each due time, and every method chains', () => {
    expect(vi.useFakeTimers()).toBe(vi)
    const start = Date.now()
    const seen: number[] = []
    setTimeout(() => seen.push(Date.now() - start), 20)
    setTimeout(() => seen.push(Date.now() - start), 10)
    expect(vi.getTimerCount()).toBe(2)
    expect(vi.advanceTimersByTime(15)).toBe(vi)
    expect(seen).toEqual([10])
    expect(vi.runAllTimers()).toBe(vi)
    expect(seen).toEqual([10, 20])
    expect(vi.runOnlyPendingTimers().advanceTimersToNextFrame().runAllTicks().clearAllTimers().useRealTimers()).toBe(vi)
  })

  it('start at the real time, or at the date mocked before them', () => {
    vi.useFakeTimers()
    expect(Math.abs(Date.now() - vi.getRealSystemTime())).toBeLessThan(1_000)
    vi.useRealTimers()
    vi.setSystemTime(Date.UTC(2030, 0, 1))
    vi.useFakeTimers()
    expect(Date.now()).toBe(Date.UTC(2030, 0, 1))
    expect(vi.getMockedSystemTime()).toEqual(new Date(Date.UTC(2030, 0, 1)))
  })
})

describe('config', () => {
  const forever = (): void => void setInterval(() => undefined, 1)

  it('comes from test.fakeTimers: loopLimit 50', () => {
    vi.useFakeTimers()
    forever()
    expect(() => vi.runAllTimers()).toThrow('Aborting after running 50 timers')
  })

  it('of useFakeTimers is merged over it for that call only', () => {
    vi.useFakeTimers({ loopLimit: 5 })
    forever()
    expect(() => vi.runAllTimers()).toThrow('Aborting after running 5 timers')
    vi.useFakeTimers()
    forever()
    expect(() => vi.runAllTimers()).toThrow('Aborting after running 50 timers')
  })

  it('follows vi.setConfig', () => {
    vi.setConfig({ fakeTimers: { loopLimit: 7 } })
    try {
      vi.useFakeTimers()
      forever()
      expect(() => vi.runAllTimers()).toThrow('Aborting after running 7 timers')
    } finally {
      vi.resetConfig()
    }
  })

  it('fakes every timer but nextTick and queueMicrotask by default; toNotFake keeps one real', () => {
    const { nextTick } = process
    const { queueMicrotask } = globalThis
    vi.useFakeTimers()
    expect(process.nextTick).toBe(nextTick)
    expect(globalThis.queueMicrotask).toBe(queueMicrotask)
    for (const faked of [setImmediate, performance, AbortSignal.timeout]) expect(faked).toHaveProperty('clock')
    // Vitest 4's types know fake-timers 15.0's options, which had no toNotFake and no such name.
    vi.useFakeTimers({ toNotFake: ['AbortSignal.timeout'] } as never)
    expect(AbortSignal.timeout).not.toHaveProperty('clock')
    expect(setTimeout).toHaveProperty('clock')
  })
})

describe('moves', () => {
  it('advanceTimersToNextTimer runs the next timer and what is due with it', () => {
    vi.useFakeTimers()
    const seen: string[] = []
    setTimeout(() => seen.push('a'), 10)
    setTimeout(() => seen.push('b'), 10)
    setTimeout(() => seen.push('c'), 20)
    vi.advanceTimersToNextTimer()
    expect(seen).toEqual(['a', 'b'])
    vi.advanceTimersToNextTimer().advanceTimersToNextTimer()
    expect(seen).toEqual(['a', 'b', 'c'])
  })

  it('the async moves let promise callbacks run between timers', async () => {
    vi.useFakeTimers()
    const seen: number[] = []
    const start = Date.now()
    const run = async (): Promise<void> => {
      for (let i = 0; i < 3; i++) {
        seen.push(Date.now() - start)
        await new Promise((resolve) => setTimeout(resolve, 1_000))
      }
    }
    void run()
    expect(await vi.advanceTimersByTimeAsync(3_000)).toBe(vi)
    expect(seen).toEqual([0, 1_000, 2_000])
    setTimeout(() => seen.push(-1), 5)
    await vi.advanceTimersToNextTimerAsync()
    await vi.runOnlyPendingTimersAsync()
    await vi.runAllTimersAsync()
    expect(seen.at(-1)).toBe(-1)
  })

  it('vi.waitFor advances the fake timers at each interval', async () => {
    vi.useFakeTimers()
    let ready = false
    setTimeout(() => (ready = true), 200)
    await vi.waitFor(() => expect(ready).toBe(true), { interval: 50, timeout: 1_000 })
  })

  it('setTimerTickMode runs timers by itself, and names a mode it does not know', async () => {
    vi.useFakeTimers()
    const fired = new Promise((resolve) => setTimeout(resolve, 60_000))
    vi.setTimerTickMode('nextTimerAsync')
    await fired
    expect(() => vi.setTimerTickMode('sometimes' as 'manual')).toThrow('Invalid tick mode: sometimes')
  })

  it('before useFakeTimers, throw Vitest’s error', () => {
    expect(vi.isFakeTimers()).toBe(false)
    for (const move of [vi.advanceTimersByTime, vi.runAllTimers, vi.getTimerCount, vi.advanceTimersToNextTimer]) {
      expect(() => move(1)).toThrow(notMocked)
    }
    vi.clearAllTimers() // a no-op, as in Vitest
  })
})

describe('setSystemTime', () => {
  it('before useFakeTimers mocks Date alone, standing still, until useRealTimers', async () => {
    const date = new Date(2000, 1, 1)
    vi.setSystemTime(date)
    expect(vi.isFakeTimers()).toBe(false)
    expect(Date.now()).toBe(date.valueOf())
    expect(new Date()).toEqual(date)
    expect(vi.getMockedSystemTime()).toBe(date)
    expect(setTimeout).toBe(realSetTimeout)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(Date.now()).toBe(date.valueOf())
    vi.setSystemTime('2015-02-20T13:59:31Z')
    expect(Date.now()).toBe(Date.UTC(2015, 1, 20, 13, 59, 31))
    vi.useRealTimers()
    expect(vi.getMockedSystemTime()).toBe(null)
    expect(Math.abs(Date.now() - vi.getRealSystemTime())).toBeLessThan(1_000)
  })

  it('with fake timers moves the clock’s date, not its timers', () => {
    vi.useFakeTimers()
    const seen: number[] = []
    setTimeout(() => seen.push(Date.now()), 100)
    vi.setSystemTime(0)
    expect(vi.getMockedSystemTime()).toEqual(new Date(0))
    vi.advanceTimersByTime(100)
    expect(seen).toEqual([100])
  })

  it('refuses an invalid date with Vitest’s date mock’s error, and mocks nothing', () => {
    expect(() => vi.setSystemTime('not a date')).toThrow('mockdate: The time set is an invalid date')
    expect(vi.getMockedSystemTime()).toBe(null)
  })
})

describe('refusals point at the call the user made', () => {
  /** What threw, and the first frame of its stack (where a reader looks first). */
  const caught = async (call: () => unknown): Promise<{ error: Error; top: string }> => {
    try {
      await call()
    } catch (error) {
      const top = (error as Error).stack!.split('\n').find((line) => /^\s+at /.test(line))!
      return { error: error as Error, top }
    }
    throw new Error('did not throw')
  }

  it.each([
    ['advanceTimersByTime', Number.NaN, 'vi.advanceTimersByTime(NaN) needs a finite number of milliseconds'],
    ['advanceTimersByTime', Number.POSITIVE_INFINITY, 'vi.advanceTimersByTime(Infinity) needs a finite'],
    ['advanceTimersByTime', -1, 'vi.advanceTimersByTime(-1) needs a finite number of milliseconds, 0 or more'],
    ['advanceTimersByTimeAsync', Number.NaN, 'vi.advanceTimersByTimeAsync(NaN) needs a finite'],
    ['setSystemTime', 1e300, 'vi.setSystemTime(1e+300) needs a time a Date can hold'],
    ['setSystemTime', Number.NaN, 'vi.setSystemTime(NaN) needs a time a Date can hold'],
  ] as const)('vi.%s(%s): named by the vi call and its value, from this file’s line, nothing moved', async (method, value, words) => {
    vi.useFakeTimers()
    const now = Date.now()
    setTimeout(() => undefined, 1)
    const { error, top } = await caught(() => (vi[method] as (v: number) => unknown)(value))
    expect(error).toBeInstanceOf(TimingWheelError)
    expect(error.message).toContain(words)
    expect(error.message).not.toMatch(/VirtualClock|tick|the time NaN/)
    expect(top).toContain('setup.test.ts')
    expect(Date.now()).toBe(now)
    expect(vi.getTimerCount()).toBe(1)
  })

  it('before useFakeTimers, an invalid date keeps Vitest’s words, from this file’s line', async () => {
    const { error, top } = await caught(() => vi.setSystemTime(1e300))
    expect(error.message).toContain('mockdate: The time set is an invalid date: 1e+300')
    expect(top).toContain('setup.test.ts')
  })

  it('a timer callback’s own error passes unchanged', () => {
    vi.useFakeTimers()
    const own = new RangeError('the callback’s')
    setTimeout(() => {
      throw own
    }, 5)
    expect(() => vi.advanceTimersByTime(10)).toThrow(own)
  })
})

describe('beyond fake-timers', () => {
  it('AbortSignal.timeout aborts on the clock with a TimeoutError', () => {
    vi.useFakeTimers()
    const signal = AbortSignal.timeout(100)
    vi.advanceTimersByTime(99)
    expect(signal.aborted).toBe(false)
    vi.advanceTimersByTime(1)
    expect(signal.aborted).toBe(true)
    expect(signal.reason).toBeInstanceOf(DOMException)
    expect((signal.reason as DOMException).name).toBe('TimeoutError')
  })

  it('Temporal.Now follows the clock where the global has a Temporal', () => {
    const global = { Date, setTimeout, clearTimeout, Temporal }
    const timers = new FakeTimers({ global })
    timers.setSystemTime(Date.UTC(2030, 0, 1))
    expect(global.Temporal.Now.instant().epochMilliseconds).toBe(Date.UTC(2030, 0, 1))
    timers.useFakeTimers()
    timers.advanceTimersByTime(1_500)
    expect(global.Temporal.Now.instant().epochMilliseconds).toBe(Date.UTC(2030, 0, 1) + 1_500)
    expect(global.Temporal.Now.plainDateISO('UTC').toString()).toBe('2030-01-01')
    timers.useRealTimers()
    expect(global.Temporal).toBe(Temporal)
  })
})

describe('async advances settle as Node runs code (issue 39)', () => {
  // A queue that starts its next task from queueMicrotask after a task's promise resolves,
  // as p-queue 9 and 10 do: with queueMicrotask faked, each start waits for the jobs to run.
  const tenTasks = (add: (task: () => Promise<unknown>) => unknown): number[] => {
    const start = Date.now()
    const ends: number[] = []
    for (let i = 0; i < 10; i++) add(() => new Promise((resolve) => setTimeout(resolve, 1000)).then(() => ends.push(Date.now() - start)))
    return ends
  }
  const every = [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000]

  it('p-queue runs every task under advanceTimersByTimeAsync and runAllTimersAsync', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'queueMicrotask', 'Date'] })
    const queue = new PQueue({ concurrency: 1 })
    const ends = tenTasks((task) => queue.add(task))
    await vi.advanceTimersByTimeAsync(5500)
    expect(ends).toEqual(every.slice(0, 5))
    await vi.runAllTimersAsync()
    expect(ends).toEqual(every)
  })

  it('a minimal queue on queueMicrotask runs every task under advanceTimersByTimeAsync', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'queueMicrotask', 'Date'] })
    const waiting: Array<() => Promise<unknown>> = []
    let running = false
    const next = (): void => {
      const task = running ? undefined : waiting.shift()
      if (task === undefined) return
      running = true
      void task().finally(() => {
        running = false
        queueMicrotask(next)
      })
    }
    const ends = tenTasks((task) => (waiting.push(task), next()))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(ends).toEqual(every)
  })
})

describe('moveTimers', () => {
  it('moves a vi once: a second setup run keeps the first instance', () => {
    vi.useFakeTimers()
    const installed = setTimeout
    moveTimers(vi, '4.1.11')
    expect(vi.isFakeTimers()).toBe(true)
    expect(setTimeout).toBe(installed)
  })

  it('refuses a Vitest major it does not know, naming it, and leaves the object as it was', () => {
    const useFakeTimers = (): string => 'original'
    const other = { useFakeTimers }
    expect(() => moveTimers(other, '99.1.0')).toThrow('Vitest 99.1.0 is not a version it knows (majors 3, 4, 5)')
    expect(other).toEqual({ useFakeTimers })
  })

  it('replaces only the methods the installed Vitest has', () => {
    const older = { useFakeTimers: () => 'v3', advanceTimersByTime: () => 'v3' }
    moveTimers(older, '3.2.4')
    expect(Object.keys(older).sort()).toEqual(['advanceTimersByTime', 'useFakeTimers'])
    expect(older.useFakeTimers).not.toBe('v3')
  })
})

describe('hostile input', () => {
  const hostile = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.string(),
    fc.constantFrom(null, undefined, true, [], {}, () => 1, Symbol('s'), 10n, new Date(Number.NaN), Number.MAX_VALUE),
  )

  it('a move with any amount moves or throws; either way no timer is lost or fired early', () => {
    vi.useFakeTimers()
    fc.assert(
      fc.property(hostile, (amount) => {
        vi.clearAllTimers()
        const start = Date.now()
        const fired: number[] = []
        setTimeout(() => fired.push(Date.now() - start), 3_600_000)
        try {
          vi.advanceTimersByTime(amount as number)
        } catch {
          // Refused: the clock is as it was.
        }
        const moved = Date.now() - start
        expect(moved).toBeGreaterThanOrEqual(0)
        expect(fired).toEqual(moved >= 3_600_000 ? [3_600_000] : [])
        expect(vi.getTimerCount()).toBe(moved >= 3_600_000 ? 0 : 1)
      }),
      { numRuns: 200 },
    )
  })

  it('setSystemTime with any value sets a valid date or throws, leaving the mocked time as it was', () => {
    fc.assert(
      fc.property(fc.boolean(), hostile, (faking, time) => {
        vi.useRealTimers()
        if (faking) vi.useFakeTimers()
        vi.setSystemTime(0)
        try {
          vi.setSystemTime(time as number)
        } catch {
          expect(vi.getMockedSystemTime()?.getTime()).toBe(0)
        }
        expect(Number.isFinite(vi.getMockedSystemTime()?.getTime())).toBe(true)
      }),
      { numRuns: 200 },
    )
  })

  it('moveTimers takes only a version of a known major, and leaves anything else untouched', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{1,3}\.\d\.\d$/)), (version) => {
        const original = (): string => 'original'
        const target = { useFakeTimers: original }
        const known = [3, 4, 5].includes(Number(version.split('.')[0]))
        if (known) moveTimers(target, version)
        else expect(() => moveTimers(target, version)).toThrow(`Vitest ${version} is not a version it knows`)
        expect(target.useFakeTimers === original).toBe(!known)
      }),
    )
  })
})
