/**
 * Reading an alarm of a {@link TimingWheel}. Each function takes the wheel the alarm was
 * added to and throws `AlarmNotFound` unless the alarm is in it, or is the alarm whose
 * handler is running.
 *
 * @example
 * const a = TimingWheel.add(t, 10, 'x')
 * Alarm.at(t, a)          // 10
 * Alarm.value(t, a)       // 'x'
 * Alarm.intervalNum(t, a) // the key of its interval
 *
 * @module
 */
export {
  type Alarm,
  alarmAt as at,
  alarmValue as value,
  alarmIntervalNum as intervalNum,
  nullAlarm as null,
} from '../timing-wheel/timing-wheel.js'
