/**
 * `timing-wheel/testing`: what you need to property-test a timing wheel, or code built on
 * one, with fast-check (a peer dependency of this entry only; `timing-wheel` itself never
 * loads it).
 *
 * - Arbitraries: {@link levelBitsArb}, {@link configArb}, {@link commandsArb}.
 * - Commands as plain data and {@link runCommands}, which runs one command list on any
 *   structure given its {@link WheelOps}: {@link timingWheelOps},
 *   {@link checkedTimingWheelOps}, {@link referenceWheelOps} or your own.
 * - {@link ReferenceWheel}: a plainly correct model with the functions of `TimingWheel`.
 * - {@link checkGuarantees} and {@link checkedAdvance} (with its siblings): the contract's
 *   guarantees on a live wheel, failing with a {@link GuaranteeViolation} that names the
 *   guarantee and the alarm.
 *
 * @example
 * import fc from 'fast-check'
 * import { expect, it } from 'vitest'
 * import { TimingWheel } from 'timing-wheel'
 * import { ReferenceWheel, checkedTimingWheelOps, commandsArb, configArb, referenceWheelOps, runCommands } from 'timing-wheel/testing'
 *
 * it('the wheel does what the model does', () => {
 *   fc.assert(fc.property(configArb(), commandsArb(), (config, commands) => {
 *     const wheel = runCommands(checkedTimingWheelOps, TimingWheel.create<number>(config), commands)
 *     const model = runCommands(referenceWheelOps, ReferenceWheel.create<number>(config), commands)
 *     expect(wheel).toEqual(model)
 *   }))
 * })
 *
 * @module
 */
export { levelBitsArb, configArb, commandsArb } from './arbitraries.js'
export type { LevelBitsArbOptions, ConfigArbOptions, CommandsArbOptions } from './arbitraries.js'
export {
  runCommands,
  resolveTime,
  timingWheelOps,
  checkedTimingWheelOps,
  referenceWheelOps,
} from './commands.js'
export type {
  Command,
  CommandKind,
  TimeChoice,
  Nudge,
  AlarmChoice,
  HandlerAction,
  WheelOps,
  Step,
  Trace,
} from './commands.js'
export {
  checkGuarantees,
  checkedAdvance,
  checkedAdvanceStopAtNextAlarm,
  checkedFirePastAlarms,
  GuaranteeViolation,
} from './check-guarantees.js'
export type { Guarantee, CheckOptions } from './check-guarantees.js'
export * as ReferenceWheel from './reference-wheel.js'
export { clockArb, withClock, createExploringClock, defaultNow } from './clock-arb.js'
export type { ClockArbOptions, ExploringClock, Plan } from './clock-arb.js'
export { exploreSchedules } from './explore-schedules.js'
export type { ExploreOptions, ExploreResult } from './explore-schedules.js'
export type { Runtime } from './runtime-model.js'
export type { Ran, Armed } from './exploring-schedule.js'
