/**
 * A timing wheel: a clock and alarms that fire, never early and never late, only when
 * the clock is advanced. See the README's "Time model" for the rules.
 *
 * Differences from Jane Street Core's `Timing_wheel`:
 *
 * - **Exact order**: interval, then insertion, across levels too; Core approximates it.
 * - **Handlers may use the wheel**, with the README's rules; Core leaves that unspecified.
 * - **Floating-point time** with any positive precision (Core: integer nanoseconds, a
 *   power-of-two precision); the range ends where doubles stop keeping intervals apart.
 * - **No scans**: `nextAlarmFiresAt` and `minKey` use bitmaps and each slot's least key.
 * - **`advanceClockStopAtNextAlarm`** fires what is due at the new `now`, as later Core.
 * - **Limits from outside**: levels of at most 24 bits; handles checked; JSON via io-ts.
 *
 * Resources: an empty wheel costs about 7 KiB, an empty `VirtualClock` 14 KiB (slot heads
 * are taken 32 at a time when first used); a `capacity` reserves at most 2 MiB; a snapshot
 * of `n` alarms decodes in time linear in `n`. A slot is sorted once when its least alarm
 * is removed, so cancelling the soonest timeout and asking when to wake up never walks a
 * slot again.
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
