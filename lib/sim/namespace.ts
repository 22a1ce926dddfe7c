/**
 * The `VirtualClock` namespace: what virtual-clock.ts offers users. Its `internals` (the
 * state and steps that `timing-wheel/fake-timers` moves clocks with) stay out of it.
 *
 * @example
 * import { VirtualClock } from 'timing-wheel/sim'
 * const clock = VirtualClock.create({ now: Date.UTC(2024, 0, 1) })
 * const id = clock.setInterval(() => console.log(new Date(clock.now).toISOString()), 1000)
 * clock.tick(2000) // 2024-01-01T00:00:01.000Z, then 2024-01-01T00:00:02.000Z
 * clock.clearInterval(id)
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
