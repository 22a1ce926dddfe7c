/**
 * A timing wheel: a clock and alarms that fire, never early and never late, only when
 * the clock is advanced. See the README's "Time model" for the rules.
 *
 * @example
 * import { Alarm, TimingWheel } from 'timing-wheel'
 * const t = TimingWheel.create<string>({ alarmPrecision: 1 })
 * TimingWheel.add(t, 5, 'five')
 * TimingWheel.advanceClock(t, 10, (a) => console.log(Alarm.value(t, a))) // five
 *
 * @module
 */
export {
  type TimingWheel,
  type Config,
  type Alarm,
  create,
  config,
  now,
  start,
  alarmPrecision,
  levelBits,
  length,
  isEmpty,
  maxIntervalNum,
  intervalNum,
  intervalNumStart,
  intervalStart,
  nowIntervalNum,
  minAllowedAlarmIntervalNum,
  maxAllowedAlarmIntervalNum,
  alarmUpperBound,
  add,
  addAtIntervalNum,
  remove,
  reschedule,
  rescheduleAtIntervalNum,
  mem,
  clear,
  iter,
  toArray,
  advanceClock,
  advanceClockStopAtNextAlarm,
  firePastAlarms,
  minAlarmIntervalNum,
  minAlarmIntervalNumExn,
  minAlarmTimeInMinInterval,
  minAlarmTimeInMinIntervalExn,
  maxAlarmTimeInMinInterval,
  maxAlarmTimeInMinIntervalExn,
  nextAlarmFiresAt,
  nextAlarmFiresAtExn,
  invariant,
} from './timing-wheel.js'
export { snapshotCodec, type Snapshot } from './snapshot.js'
