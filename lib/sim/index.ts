/**
 * Virtual time in milliseconds for tests, simulations and game loops: timers that run only
 * when the clock is told to move, as `@sinonjs/fake-timers` 15 runs them, built on a
 * `TimingWheel` so that each timer costs constant time to start, stop and fire.
 *
 * @example
 * import { VirtualClock } from 'timing-wheel/sim'
 * const clock = VirtualClock.create()
 * clock.setTimeout(() => console.log('at', clock.now), 250)
 * clock.tick(1000) // at 250
 *
 * @module
 */
export * as VirtualClock from './namespace.js'
export { TimerHandle, type TimerId } from './handle.js'
export type { FakeableName, InstallOptions, TimerFunctionName } from './install.js'
