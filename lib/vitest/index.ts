/**
 * Vitest on the wheel. For existing tests, one line of config moves `vi`'s fake timers
 * onto it: `setupFiles: ['timing-wheel/vitest/setup']` (see `./setup.ts`; the class it
 * uses is {@link FakeTimers}). For new tests, `useVirtualClock`, called in a `describe`
 * (or at the top of a test file), installs a `timing-wheel/fake-timers` clock before each
 * test and uninstalls it after, and returns the current test's clock.
 *
 * What to call for each of Vitest's timer functions:
 *
 * | Vitest | `useVirtualClock` |
 * | --- | --- |
 * | `vi.useFakeTimers(opts)` / `vi.useRealTimers()` | `const clock = useVirtualClock(opts)` in the suite |
 * | `vi.advanceTimersByTime(ms)` / `...Async` | `clock().tick(ms)` / `await clock().tickAsync(ms)` |
 * | `vi.advanceTimersToNextTimer()` / `...Async` | `clock().next()` / `await clock().nextAsync()` |
 * | `vi.runAllTimers()` / `...Async` | `clock().runAll()` / `await clock().runAllAsync()` |
 * | `vi.runOnlyPendingTimers()` / `...Async` | `clock().runToLast()` / `await clock().runToLastAsync()` |
 * | `vi.advanceTimersToNextFrame()` | `clock().runToFrame()` |
 * | `vi.runAllTicks()` | `clock().runMicrotasks()` |
 * | `vi.setSystemTime(t)` / `vi.getMockedSystemTime()` | `clock().setSystemTime(t)` / `new Date(clock().now)` |
 * | `vi.getTimerCount()` / `vi.clearAllTimers()` | `clock().countTimers()` / `clock().reset()` |
 * | `vi.isFakeTimers()` | true inside a test of the suite |
 *
 * @example
 * import { expect, it } from 'vitest'
 * import { useVirtualClock } from 'timing-wheel/vitest'
 *
 * const clock = useVirtualClock({ now: Date.UTC(2024, 0, 1) })
 * it('waits a second', async () => {
 *   const done = new Promise((resolve) => setTimeout(resolve, 1000))
 *   await clock().tickAsync(1000)
 *   await done
 * })
 *
 * @module
 */
import { afterEach, beforeEach } from 'vitest'
import { type Clock, type InstallConfig, install } from '../fake-timers/index.js'

export { FakeTimers, type FakeTimersConfig, type TimerTickMode } from './fake-timers.js'

/**
 * Installs a clock with `config` (fake-timers' install options) before each test of the
 * enclosing suite and uninstalls it after; returns a function giving the current one.
 * It throws outside a test, where no clock is installed.
 *
 * Only the clock moves time: `vi.waitFor`, `vi.waitUntil` and `expect.poll` move `vi`'s
 * fake timers, which this clock is not, so under it they wait on real time for a virtual
 * timer that never fires, and time out. Move the clock yourself (`await
 * clock().tickAsync(ms)`), or use the setup file, under which `vi.waitFor` moves the wheel.
 *
 * @example
 * import { expect, it } from 'vitest'
 * import { useVirtualClock } from 'timing-wheel/vitest'
 *
 * const clock = useVirtualClock()
 * it('retries after a second', async () => {
 *   let ready = false
 *   setTimeout(() => (ready = true), 1000)
 *   await clock().tickAsync(1000) // not vi.waitFor(() => ready): it would not move this clock
 *   expect(ready).toBe(true)
 * })
 */
export const useVirtualClock = (config: InstallConfig = {}): (() => Clock) => {
  let clock: Clock | undefined
  beforeEach(() => {
    clock = install(config)
  })
  afterEach(() => {
    clock?.uninstall()
    clock = undefined
  })
  return () => {
    if (clock === undefined) throw new Error('useVirtualClock: no clock is installed outside a test')
    return clock
  }
}
