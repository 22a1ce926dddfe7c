/**
 * timing-wheel/fake-timers, function by function, on clocks made by `createClock`: each
 * test states what fake-timers 15.5's clock does and checks ours does it. (The
 * differential spec checks the same against fake-timers itself, on generated programs;
 * `fake-timers-install.spec.ts` covers `install` and `withGlobal`.)
 */
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import FakeTimers, { type Clock, createClock } from '../lib/fake-timers/index.js'

const at = (clock: Clock, log: string[], name: string) => () => log.push(`${name}@${clock.now}`)

describe('timers', () => {
  it('setTimeout fires at its due time with its arguments; clearTimeout cancels', () => {
    const clock = createClock(100)
    const seen: unknown[] = []
    clock.setTimeout((a: number, b: string) => seen.push([a, b, clock.now]), 20, 1, 'x')
    const cancelled = clock.setTimeout(() => seen.push('cancelled'), 10)
    clock.clearTimeout(cancelled)
    expect(clock.tick(19)).toBe(119)
    expect(seen).toEqual([])
    clock.tick(1)
    expect(seen).toEqual([[1, 'x', 120]])
  })

  it('returns Node-shaped handles whose ids are their own, so two never compare equal', () => {
    const clock = createClock()
    const f = (): void => undefined
    const a = clock.setTimeout(f, 10)
    const b = clock.setTimeout(f, 10)
    expect(typeof a).toBe('object')
    expect(isDeepStrictEqual(a, b)).toBe(false)
    expect(Number(a)).toBeGreaterThanOrEqual(1e12)
    const handle = a as unknown as { unref(): unknown; hasRef(): boolean; ref(): unknown }
    expect(handle.unref()).toBe(a)
    expect(handle.hasRef()).toBe(false)
    clock.clearTimeout(a)
    expect(clock.countTimers()).toBe(1)
  })

  it('refresh() re-arms a timer its first delay after now, behind timers already due then', () => {
    const clock = createClock()
    const log: string[] = []
    const a = clock.setTimeout(at(clock, log, 'a'), 10) as unknown as { refresh(): unknown }
    clock.tick(5)
    clock.setTimeout(at(clock, log, 'b'), 10)
    a.refresh()
    clock.tick(20)
    expect(log).toEqual(['b@15', 'a@15'])
  })

  it('setInterval repeats until cleared from its own callback', () => {
    const clock = createClock()
    const times: number[] = []
    const id = clock.setInterval(() => {
      times.push(clock.now)
      if (times.length === 3) clock.clearInterval(id)
    }, 7)
    clock.tick(100)
    expect(times).toEqual([7, 14, 21])
  })

  it('setImmediate fires before timeouts due at the same time; clearImmediate cancels', () => {
    const clock = createClock()
    const log: string[] = []
    clock.setTimeout(at(clock, log, 'timeout'), 0)
    clock.setImmediate(at(clock, log, 'immediate'))
    clock.clearImmediate(clock.setImmediate(at(clock, log, 'cleared')))
    clock.tick(0)
    expect(log).toEqual(['immediate@0', 'timeout@0'])
  })

  it('clearing a timer with the wrong function throws, naming both', () => {
    const clock = createClock()
    const immediate = clock.setImmediate(() => undefined)
    expect(() => clock.clearTimeout(immediate)).toThrow(
      'Cannot clear timer: timer created with setImmediate() but cleared with clearTimeout()',
    )
    const frame = clock.requestAnimationFrame(() => undefined)
    expect(() => clock.cancelIdleCallback(frame)).toThrow('created with requestAnimationFrame() but cleared with cancelIdleCallback()')
    expect(clock.countTimers()).toBe(2)
  })

  it('requestAnimationFrame fires on 16 ms frames with performance.now(); runToFrame goes there', () => {
    const clock = createClock()
    const frames: number[] = []
    clock.tick(5)
    clock.requestAnimationFrame((t) => frames.push(t))
    expect(clock.runToFrame()).toBe(16)
    expect(frames).toEqual([16])
    clock.cancelAnimationFrame(clock.requestAnimationFrame((t) => frames.push(t)))
    clock.tick(50)
    expect(frames).toEqual([16])
  })

  it('requestIdleCallback waits for the other timers, and its deadline tells how much idle time is left', () => {
    const clock = createClock()
    const log: string[] = []
    let remaining = -1
    clock.requestIdleCallback((deadline) => {
      log.push(`idle@${clock.now}`)
      remaining = deadline.timeRemaining()
    })
    clock.setTimeout(at(clock, log, 'timeout'), 30)
    clock.runAll()
    expect(log).toEqual(['idle@0', 'timeout@30'])
    expect(remaining).toBe(50) // the timeout was still pending
    clock.requestIdleCallback(() => log.push(`lone idle@${clock.now}`))
    clock.tick(0)
    expect(log[2]).toBe('lone idle@30')
  })

  it('requestIdleCallback with a timeout is a timeout that cancelIdleCallback also clears', () => {
    const clock = createClock()
    const fired: boolean[] = []
    const id = clock.requestIdleCallback((d) => fired.push(d.didTimeout), { timeout: 40 })
    expect(() => clock.cancelIdleCallback(clock.setTimeout(() => undefined, 1))).toThrow('cleared with cancelIdleCallback()')
    clock.cancelIdleCallback(id)
    clock.runAll()
    expect(fired).toEqual([])
    const plain = clock.requestIdleCallback(() => undefined)
    expect(() => clock.clearTimeout(plain)).toThrow('created with requestIdleCallback() but cleared with clearTimeout()')
  })

  it('countTimers counts pending timers and queued microtasks', () => {
    const clock = createClock()
    clock.setTimeout(() => undefined, 5)
    clock.nextTick(() => undefined)
    clock.queueMicrotask(() => undefined)
    expect(clock.countTimers()).toBe(3)
    clock.runMicrotasks()
    expect(clock.countTimers()).toBe(1)
  })

  it('timers describes the pending timers by id', () => {
    const clock = createClock(1000)
    const id = Number(clock.setTimeout(() => undefined, 5))
    const timers = clock.timers
    expect(timers).toBeInstanceOf(Map)
    expect(timers.get(id)).toMatchObject({ id, type: 'Timeout', callAt: 1005, createdAt: 1000, delay: 5 })
  })
})

describe('microtasks', () => {
  it('nextTick and queueMicrotask jobs run in order before the next timer, at its time', () => {
    const clock = createClock()
    const log: string[] = []
    clock.setTimeout(() => {
      log.push(`a@${clock.now}`)
      clock.nextTick((x: string) => log.push(`tick ${x}@${clock.now}`), 'arg')
      clock.queueMicrotask(() => log.push(`micro@${clock.now}`))
    }, 10)
    clock.setTimeout(at(clock, log, 'b'), 20)
    clock.tick(30)
    expect(log).toEqual(['a@10', 'tick arg@20', 'micro@20', 'b@20'])
  })

  it('the jobs left after the last timer run before tick returns, at that timer’s time', () => {
    const clock = createClock()
    const log: string[] = []
    clock.setTimeout(() => clock.nextTick(at(clock, log, 'job')), 10)
    clock.tick(30)
    expect(log).toEqual(['job@10'])
    expect(clock.now).toBe(30)
  })

  it('runMicrotasks runs jobs queued by jobs; more than loopLimit of them throws, naming the job', () => {
    const clock = createClock(0, 10)
    let runs = 0
    const again = (): void => {
      runs++
      clock.nextTick(again)
    }
    clock.nextTick(again)
    const error = (() => {
      try {
        clock.runMicrotasks()
      } catch (e) {
        return e as Error
      }
      return undefined
    })()
    expect(error?.message).toBe('Aborting after running 10 timers, assuming an infinite loop!')
    expect(error?.stack).toContain('Microtask - again')
    expect(runs).toBe(12)
  })
})

describe('moving the clock', () => {
  it('next fires the first timer alone; runAll fires all; runToLast stops at the last pending one', () => {
    const clock = createClock()
    const log: string[] = []
    clock.setTimeout(at(clock, log, 'a'), 10)
    clock.setTimeout(at(clock, log, 'b'), 20)
    expect(clock.next()).toBe(10)
    expect(clock.runAll()).toBe(20)
    clock.setTimeout(() => {
      log.push(`c@${clock.now}`)
      clock.setTimeout(at(clock, log, 'late'), 100)
    }, 5)
    expect(clock.runToLast()).toBe(25)
    expect(log).toEqual(['a@10', 'b@20', 'c@25'])
  })

  it('runAll throws past the loop limit with the looping timer’s creation stack', () => {
    const clock = createClock(0, 50)
    const loop = (): void => {
      clock.setTimeout(function looping() {
        loop()
      }, 10)
    }
    loop()
    let error: Error | undefined
    try {
      clock.runAll()
    } catch (e) {
      error = e as Error
    }
    expect(error?.message).toBe('Aborting after running 50 timers, assuming an infinite loop!')
    expect(error?.stack).toContain('Timeout - looping')
    // Then where it was created, not where runAll gave up.
    expect(error?.stack?.split('\n')[2]).toMatch(/^\s+at loop /)
  })

  it('tick reruns the first error at the end, after the rest have fired', () => {
    const clock = createClock()
    const log: string[] = []
    clock.setTimeout(() => {
      throw new Error('first')
    }, 1)
    clock.setTimeout(() => {
      throw new Error('second')
    }, 2)
    clock.setTimeout(at(clock, log, 'after'), 3)
    expect(() => clock.tick(5)).toThrow('first')
    expect(log).toEqual(['after@3'])
    expect(clock.now).toBe(5)
  })

  it('tick accepts "mm:ss" and refuses negative amounts', () => {
    const clock = createClock()
    expect(clock.tick('01:02')).toBe(62_000)
    expect(() => clock.tick(-1)).toThrow(TypeError)
    expect(clock.now).toBe(62_000)
  })

  it('refuses amounts and times that are not finite, where fake-timers would run to Infinity', async () => {
    const clock = createClock()
    clock.setTimeout(() => undefined, 5)
    expect(() => clock.tick(Infinity)).toThrow(TypeError)
    expect(() => clock.jump(Number.NaN)).toThrow(TypeError)
    await expect(clock.tickAsync(Infinity)).rejects.toThrow(TypeError)
    expect(() => clock.setSystemTime(Infinity)).toThrow(RangeError)
    expect(clock.now).toBe(0)
    expect(clock.countTimers()).toBe(1)
  })

  it('jump fires each overdue timer once, at the end', () => {
    const clock = createClock()
    const times: number[] = []
    clock.setInterval(() => times.push(clock.now), 10)
    clock.jump(35)
    expect(times).toEqual([35])
    expect(clock.now).toBe(35)
  })

  it('setSystemTime moves the wall clock; timers keep their distance, hrtime and performance do not jump', () => {
    const clock = createClock(0)
    const log: string[] = []
    clock.setTimeout(at(clock, log, 'a'), 10)
    clock.tick(4)
    clock.setSystemTime(new Date(1_000_000))
    expect(clock.now).toBe(1_000_000)
    expect(clock.performance!.now()).toBe(4)
    clock.tick(6)
    expect(log).toEqual(['a@1000006'])
  })

  it('reset drops timers and jobs and goes back to the start', () => {
    const clock = createClock(500)
    clock.setTimeout(() => undefined, 10)
    clock.nextTick(() => undefined)
    clock.tick(3)
    clock.nextTick(() => undefined)
    clock.reset()
    expect(clock.now).toBe(500)
    expect(clock.countTimers()).toBe(0)
  })

  it('now can be set, which moves the wall clock only', () => {
    const clock = createClock(0)
    clock.now = 5000
    expect(clock.now).toBe(5000)
    expect(new clock.Date().getTime()).toBe(5000)
  })
})

describe('Date, Intl, hrtime and performance', () => {
  it('Date reads the clock in every form that asks for the current time', () => {
    const clock = createClock(Date.UTC(2024, 1, 29, 12))
    const ClockDate = clock.Date
    expect(new ClockDate().toISOString()).toBe('2024-02-29T12:00:00.000Z')
    expect(ClockDate.now()).toBe(Date.UTC(2024, 1, 29, 12))
    expect((ClockDate as unknown as () => string)()).toBe(new Date(Date.UTC(2024, 1, 29, 12)).toString())
    expect(new ClockDate(0).getTime()).toBe(0)
    expect(new ClockDate(2020, 0, 2).getFullYear()).toBe(2020)
    expect(new ClockDate('2021-03-04T00:00:00Z').getTime()).toBe(Date.UTC(2021, 2, 4))
    expect(ClockDate.UTC(2000, 0)).toBe(Date.UTC(2000, 0))
    expect(ClockDate.parse('1970-01-01T00:00:01Z')).toBe(1000)
    clock.tick(1500)
    expect(new ClockDate().getTime()).toBe(Date.UTC(2024, 1, 29, 12) + 1500)
  })

  it('Date is the host Date to instanceof, constructor checks and toString', () => {
    const clock = createClock()
    const made = new clock.Date()
    expect(made).toBeInstanceOf(Date)
    expect(new Date()).toBeInstanceOf(clock.Date)
    expect(made.constructor).toBe(Date)
    expect(clock.Date.toString()).toBe(Date.toString())
    expect(clock.Date.isFake).toBe(true)
    expect(clock.Date.name).toBe('ClockDate')
  })

  it('Intl.DateTimeFormat formats the clock’s time when given no date, and the given date otherwise', () => {
    const clock = createClock(Date.UTC(2023, 6, 14, 9, 30))
    const format = new clock.Intl!.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'short', timeStyle: 'short' })
    expect(format.format()).toBe('14/07/2023, 09:30')
    expect(format.formatToParts().find((p) => p.type === 'minute')?.value).toBe('30')
    expect(format.format(0)).toBe('01/01/1970, 00:00')
    expect(format.resolvedOptions().timeZone).toBe('UTC')
    expect(clock.Intl!.NumberFormat).toBe(Intl.NumberFormat)
  })

  it('hrtime counts from the clock’s start, with nanoseconds of fractional ticks', () => {
    const clock = createClock(1e9)
    clock.tick(1500.000_25)
    expect(clock.hrtime!()).toEqual([1, 500_000_250])
    expect(clock.hrtime!.bigint!()).toBe(1_500_000_250n)
    const before = clock.hrtime!()
    clock.tick(700)
    expect(clock.hrtime!(before)).toEqual([0, 700_000_000])
    expect(() => clock.hrtime!([0, 2e9])).toThrow("Number of nanoseconds can't exceed a billion")
  })

  it('performance.now counts elapsed virtual ms, fractions included', () => {
    const clock = createClock(123)
    clock.tick(10.5)
    expect(clock.performance!.now()).toBe(10.5)
    clock.tick(0.5)
    expect(clock.performance!.now()).toBe(11)
  })
})

describe('the async variants', () => {
  it('tickAsync lets promise callbacks run between timers, so a retry loop gets every attempt', async () => {
    const clock = createClock()
    const sleep = (ms: number): Promise<void> => new Promise((resolve) => clock.setTimeout(resolve, ms))
    const attempts: number[] = []
    const retry = async (): Promise<string> => {
      for (let i = 0; i < 3; i++) {
        attempts.push(clock.now)
        await sleep(300)
      }
      return 'gave up'
    }
    const result = retry()
    await clock.tickAsync(1000)
    expect(attempts).toEqual([0, 300, 600])
    await expect(result).resolves.toBe('gave up')
  })

  it('a sync tick does not wait for promise callbacks, as in fake-timers', async () => {
    const clock = createClock()
    const attempts: number[] = []
    void (async () => {
      for (let i = 0; i < 3; i++) {
        attempts.push(clock.now)
        await new Promise((resolve) => clock.setTimeout(resolve, 300))
      }
    })()
    clock.tick(1000)
    await Promise.resolve()
    // The first sleep ended at 300, but the second attempt only starts now, at 1000.
    expect(attempts).toEqual([0, 1000])
  })

  it('nextAsync fires one timer then yields; runAllAsync fires timers that promises create', async () => {
    const clock = createClock()
    const log: string[] = []
    clock.setTimeout(() => {
      log.push(`a@${clock.now}`)
      void Promise.resolve().then(() => clock.setTimeout(at(clock, log, 'from promise'), 5))
    }, 10)
    expect(await clock.nextAsync()).toBe(10)
    expect(clock.countTimers()).toBe(1)
    expect(await clock.runAllAsync()).toBe(15)
    expect(log).toEqual(['a@10', 'from promise@15'])
  })

  it('runToLastAsync ticks to the last timer pending when it starts, as tickAsync', async () => {
    const clock = createClock()
    const log: string[] = []
    clock.setTimeout(() => void Promise.resolve().then(() => clock.setTimeout(at(clock, log, 'inner'), 1)), 10)
    clock.setTimeout(at(clock, log, 'last'), 20)
    expect(await clock.runToLastAsync()).toBe(20)
    expect(log).toEqual(['inner@11', 'last@20'])
  })

  it('the async variants reject with the first error', async () => {
    const clock = createClock()
    clock.setTimeout(() => {
      throw new Error('boom')
    }, 5)
    await expect(clock.tickAsync(10)).rejects.toThrow('boom')
    expect(clock.now).toBe(10)
  })
})

describe('tick modes', () => {
  it('nextAsync mode fires timers by itself, one per real macrotask, until set back to manual', async () => {
    const clock = createClock()
    const fired = new Promise<number>((resolve) => clock.setTimeout(() => resolve(clock.now), 5_000))
    clock.setTickMode({ mode: 'nextAsync' })
    expect(await fired).toBe(5_000)
    clock.setTickMode({ mode: 'manual' })
    expect(clock.tickMode).toMatchObject({ mode: 'manual', counter: 2 })
  })

  it('interval mode ticks delta virtual ms every delta real ms', async () => {
    vi.useRealTimers()
    const clock = createClock()
    clock.setTickMode({ mode: 'interval', delta: 5 })
    await new Promise((resolve) => setTimeout(resolve, 40))
    clock.setTickMode({ mode: 'manual' })
    const now = clock.now
    expect(now).toBeGreaterThanOrEqual(5)
    expect(now % 5).toBe(0)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(clock.now).toBe(now)
  })

  it('an async move pauses nextAsync mode while it runs', async () => {
    const clock = createClock()
    clock.setTickMode({ mode: 'nextAsync' })
    const ticking = clock.tickAsync(10)
    expect(clock.tickMode.mode).toBe('manual')
    await ticking
    expect(clock.tickMode.mode).toBe('nextAsync')
    clock.setTickMode({ mode: 'manual' })
  })
})

describe('the module', () => {
  it('has fake-timers’ shape, as ESM and as the object require() gives', async () => {
    expect(Object.keys(FakeTimers)).toEqual(['timers', 'createClock', 'install', 'withGlobal'])
    expect(FakeTimers.timers.setTimeout).toBe(globalThis.setTimeout)
    const { createRequire } = await import('node:module')
    const required = createRequire(import.meta.url)('timing-wheel/fake-timers') as typeof FakeTimers
    expect(Object.keys(required)).toEqual(['timers', 'createClock', 'install', 'withGlobal'])
    expect(Object.isExtensible(required)).toBe(true)
  })

  it('createClock refuses a start that is not a time', () => {
    expect(() => createClock('soon' as unknown as number)).toThrow('now should be milliseconds since UNIX epoch')
    expect(createClock(new Date(42)).now).toBe(42)
    expect(createClock(12.9).now).toBe(12)
  })
})

describe('clock objects', () => {
  it('share their accessors, so that V8 gives every clock one fast shape', () => {
    const accessor = (o: object, key: string): unknown => Object.getOwnPropertyDescriptor(o, key)?.get
    const [a, b] = [createClock(0), createClock(5)]
    for (const key of ['now', 'loopLimit', 'isNearInfiniteLimit', 'tickMode', 'timers']) expect(accessor(a, key), key).toBe(accessor(b, key))
    b.now = 50
    expect([a.now, b.now]).toEqual([0, 50])
    b.setTimeout(() => {}, 10)
    expect([a.timers.size, b.timers.size]).toEqual([0, 1])
  })
})
