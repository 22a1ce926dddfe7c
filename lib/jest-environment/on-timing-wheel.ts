/**
 * What both environments do: hand Jest's modern fake timers `timing-wheel/fake-timers`.
 * Kept apart from them so that neither loads the other's Jest package.
 *
 * @module
 */
import { withGlobal } from '../fake-timers/index.js'

/** What the environment changes in Jest's modern fake timers: the module they install clocks with. */
interface ModernFakeTimersInternals {
  _fakeTimers: ReturnType<typeof withGlobal>
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
}

