/**
 * The `VirtualClock` namespace: what virtual-clock.ts offers users. Its `internals` (the
 * state and steps that `timing-wheel/fake-timers` moves clocks with) stay out of it.
 *
 * @module
 */
export {
  TimerHandle,
  type TimerId,
  type FakeableName,
  type InstallOptions,
  type TimerFunctionName,
  type CreateOptions,
  type VirtualClock,
  lastElapsed,
  create,
  invariant,
} from './virtual-clock.js'
