/**
 * `useVirtualClock` under Vitest: the same timer scenarios run on its clocks and on
 * `vi.useFakeTimers()` give the same results, and each test gets a fresh clock that is
 * gone after it.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useVirtualClock } from '../lib/vitest/index.js'

/** The clock calls a scenario makes, which `vi.*` and the clock both offer. */
interface Timers {
  readonly tick: (ms: number) => void
  readonly tickAsync: (ms: number) => Promise<void>
  readonly runAll: () => void
  readonly next: () => void
  readonly count: () => number
  readonly setSystemTime: (t: number) => void
  readonly nextAsync: () => Promise<void>
  readonly runAllAsync: () => Promise<void>
  readonly runOnlyPending: () => void
  readonly runOnlyPendingAsync: () => Promise<void>
  readonly toNextFrame: () => void
  readonly runAllTicks: () => void
  readonly clearAll: () => void
}

const start = Date.UTC(2024, 0, 1)
// Both sides fake queueMicrotask, which neither fakes by default (Vitest refuses nextTick in its forks pool).
const toFake = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date', 'queueMicrotask'] as const

const scenarios: Record<string, (timers: Timers) => Promise<unknown[]>> = {
  'timeouts and intervals in order': async (timers) => {
    const seen: unknown[] = []
    setTimeout(() => seen.push(['b', Date.now() - start]), 20)
    setTimeout(() => seen.push(['a', Date.now() - start]), 10)
    const every = setInterval(() => seen.push(['i', Date.now() - start]), 15)
    timers.tick(31)
    clearInterval(every)
    return [...seen, timers.count()]
  },
  'runAll and next': async (timers) => {
    const seen: unknown[] = []
    const chain = (n: number) => (): void => {
      seen.push(n)
      if (n < 3) setTimeout(chain(n + 1), 5)
    }
    setTimeout(chain(0), 5)
    timers.next()
    seen.push(timers.count())
    timers.runAll()
    return [...seen, Date.now() - start]
  },
  'an async retry with back-off': async (timers) => {
    const seen: unknown[] = []
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    const retry = async (): Promise<void> => {
      for (let i = 0; i < 3; i++) {
        seen.push(Date.now() - start)
        await wait(1000)
      }
    }
    const done = retry()
    await timers.tickAsync(3000)
    await done
    return seen
  },
  'runOnlyPending leaves what the timers schedule': async (timers) => {
    const seen: unknown[] = []
    setTimeout(() => {
      seen.push(['a', Date.now() - start])
      setTimeout(() => seen.push('later'), 1)
    }, 10)
    setInterval(() => seen.push(['i', Date.now() - start]), 4)
    timers.runOnlyPending()
    return [...seen, timers.count(), Date.now() - start]
  },
  'the async steps let promise callbacks run between timers': async (timers) => {
    const seen: unknown[] = []
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    void wait(10).then(() => {
      seen.push(['then', Date.now() - start])
      return wait(5).then(() => seen.push(['then again', Date.now() - start]))
    })
    await timers.nextAsync()
    seen.push(timers.count())
    const every = setInterval(() => seen.push(['i', Date.now() - start]), 7)
    await timers.runOnlyPendingAsync()
    clearInterval(every)
    setTimeout(() => Promise.resolve().then(() => setTimeout(() => seen.push(['deep', Date.now() - start]), 3)), 2)
    await timers.runAllAsync()
    return seen
  },
  'frames, ticks and clearing': async (timers) => {
    const seen: unknown[] = []
    setTimeout(() => seen.push(['t', Date.now() - start]), 20)
    queueMicrotask(() => seen.push('microtask'))
    timers.runAllTicks()
    timers.toNextFrame()
    seen.push(Date.now() - start)
    timers.clearAll()
    seen.push(timers.count())
    timers.tick(100)
    return seen
  },
  'system time moves Date, not timers': async (timers) => {
    const seen: unknown[] = []
    setTimeout(() => seen.push(new Date().toISOString()), 50)
    timers.setSystemTime(Date.UTC(2030, 5, 1))
    timers.tick(50)
    return seen
  },
}

const results: Record<string, Record<string, unknown[]>> = { wheel: {}, vi: {} }

describe('on useVirtualClock', () => {
  const clock = useVirtualClock({ now: start, toFake: [...toFake] })
  const timers: Timers = {
    tick: (ms) => void clock().tick(ms),
    tickAsync: async (ms) => void (await clock().tickAsync(ms)),
    runAll: () => void clock().runAll(),
    next: () => void clock().next(),
    count: () => clock().countTimers(),
    setSystemTime: (t) => clock().setSystemTime(t),
    nextAsync: async () => void (await clock().nextAsync()),
    runAllAsync: async () => void (await clock().runAllAsync()),
    runOnlyPending: () => void clock().runToLast(),
    runOnlyPendingAsync: async () => void (await clock().runToLastAsync()),
    toNextFrame: () => void clock().runToFrame(),
    runAllTicks: () => clock().runMicrotasks(),
    clearAll: () => clock().reset(),
  }
  for (const [name, run] of Object.entries(scenarios)) {
    it(name, async () => {
      results['wheel']![name] = await run(timers)
    })
  }

  it('gives each test a fresh clock, installed on the globals', () => {
    expect(clock().countTimers()).toBe(0)
    expect(Date.now()).toBe(start)
    expect((setTimeout as unknown as { clock?: unknown }).clock).toBe(clock())
  })
})

describe('on vi.useFakeTimers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: start, toFake: [...toFake] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })
  const timers: Timers = {
    tick: (ms) => void vi.advanceTimersByTime(ms),
    tickAsync: async (ms) => void (await vi.advanceTimersByTimeAsync(ms)),
    runAll: () => void vi.runAllTimers(),
    next: () => void vi.advanceTimersToNextTimer(),
    count: () => vi.getTimerCount(),
    setSystemTime: (t) => void vi.setSystemTime(t),
    nextAsync: async () => void (await vi.advanceTimersToNextTimerAsync()),
    runAllAsync: async () => void (await vi.runAllTimersAsync()),
    runOnlyPending: () => void vi.runOnlyPendingTimers(),
    runOnlyPendingAsync: async () => void (await vi.runOnlyPendingTimersAsync()),
    toNextFrame: () => void vi.advanceTimersToNextFrame(),
    runAllTicks: () => void vi.runAllTicks(),
    clearAll: () => vi.clearAllTimers(),
  }
  for (const [name, run] of Object.entries(scenarios)) {
    it(name, async () => {
      results['vi']![name] = await run(timers)
    })
  }
})

describe('outside a test', () => {
  const clock = useVirtualClock()
  afterAll(() => {
    expect(() => clock()).toThrow('no clock is installed outside a test')
  })
  it('the results agree', () => {
    expect(Object.keys(results['wheel']!)).toHaveLength(Object.keys(scenarios).length)
    expect(results['wheel']).toEqual(results['vi'])
    expect(Date.now()).toBe(0) // this suite's own clock, installed with no options, starts at 0
  })
})

describe('vi.waitFor under useVirtualClock (what its reference page says)', () => {
  const clock = useVirtualClock()

  it('does not move the clock: a condition a virtual timer makes true times out', async () => {
    let ready = false
    setTimeout(() => (ready = true), 10)
    await expect(vi.waitFor(() => expect(ready).toBe(true), { timeout: 100, interval: 10 })).rejects.toThrow()
    expect(ready).toBe(false)
    await clock().tickAsync(10) // what to do instead
    expect(ready).toBe(true)
  })
})
