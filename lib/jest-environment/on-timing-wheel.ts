/**
 * What both environments do: hand Jest's modern fake timers `timing-wheel/fake-timers`.
 * Kept apart from them so that neither loads the other's Jest package.
 *
 * @module
 */
import { withGlobal } from '../fake-timers/index.js'
import { checkAdvance, checkSystemTime } from '../fake-timers/refusals.js'

/**
 * What the environment changes in Jest's modern fake timers: the module they install clocks
 * with, and the methods whose refusals it names as the `jest.*` call.
 */
interface ModernFakeTimersInternals {
  _fakeTimers: ReturnType<typeof withGlobal>
  advanceTimersByTime(ms: unknown): void
  advanceTimersByTimeAsync(ms: unknown): Promise<void>
  setSystemTime(now?: unknown): void
}

/** `jest.advanceTimersByTime` is a closure in jest-runtime's build; the user's line is above it. */
const jestRuntime = /[\\/]jest-runtime[\\/]build[\\/]/

/** Checks what the wheel refuses (NaN, Infinity, negative advances) as `jest.<name>(value)`, from the user's line. */
const nameRefusals = (timers: ModernFakeTimersInternals): void => {
  const { advanceTimersByTime, advanceTimersByTimeAsync, setSystemTime } = timers
  timers.advanceTimersByTime = function byTime(ms) {
    checkAdvance('jest.advanceTimersByTime', ms, byTime, jestRuntime)
    advanceTimersByTime.call(this, ms)
  }
  timers.advanceTimersByTimeAsync = function byTimeAsync(ms) {
    checkAdvance('jest.advanceTimersByTimeAsync', ms, byTimeAsync, jestRuntime)
    return advanceTimersByTimeAsync.call(this, ms)
  }
  timers.setSystemTime = function systemTime(now) {
    checkSystemTime('jest.setSystemTime', now, systemTime, false, jestRuntime)
    setSystemTime.call(this, now)
  }
}

/**
 * Puts `timing-wheel/fake-timers` under a Jest environment's modern fake timers, for
 * environments of other kinds (jsdom, your own): call it in their constructor.
 *
 * @example
 * class MyEnvironment extends JsdomEnvironment {
 *   constructor(config, context) {
 *     super(config, context)
 *     onTimingWheel(this)
 *   }
 * }
 */
export const onTimingWheel = (environment: { fakeTimersModern: unknown; global: unknown }): void => {
  const timers = environment.fakeTimersModern as ModernFakeTimersInternals | null
  if (timers === null || typeof timers !== 'object' || !('_fakeTimers' in timers)) {
    throw new Error('timing-wheel/jest-environment: this Jest has no modern fake timers to put on the wheel (Jest 29 or 30 has)')
  }
  timers._fakeTimers = withGlobal(environment.global as object)
  nameRefusals(timers)
}

