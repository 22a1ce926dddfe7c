/**
 * timing-wheel: a hierarchical timing wheel for TypeScript, after Jane Street Core's
 * `Timing_wheel`.
 *
 * @module
 */
export { TimingWheelError, type TimingWheelErrorCode } from './errors.js'
export * as LevelBits from './level-bits/index.js'
export * as PriorityQueue from './priority-queue/index.js'
export * as Elt from './priority-queue/elt.js'
export * as TimingWheel from './timing-wheel/index.js'
export * as Alarm from './alarm/index.js'
export * as Config from './config/index.js'
