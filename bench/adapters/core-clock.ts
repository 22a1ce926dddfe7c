/**
 * The core wheel as a clock: what the clock rows cost without a clock, the callbacks the
 * workload passes to `setTimeout` kept as the alarms' values and called by the wheel's
 * handler. As the hold row drives the wheel, `next()` asks when the next alarm fires and
 * advances there, which fires every alarm of that millisecond (the drivers finish the
 * last millisecond of the clocks with `tick(0)`, so all play the same events). Only what
 * the hold rows use: a delay of at least 1 ms, one argument.
 */
import * as O from 'fp-ts/lib/Option.js'
import { Alarm, TimingWheel } from '../../dist/lib/index.js'
import type { Clock, ClockImpl } from '../adapter.js'

/** One call: the distinct object a timer costs. */
class Call {
  constructor(
    readonly callback: (arg: number) => void,
    readonly arg: number,
  ) {}
}

class CoreClock {
  readonly wheel = TimingWheel.create<Call>({ alarmPrecision: 1 })
  now = 0
  readonly onFired = (alarm: TimingWheel.Alarm<Call>): void => {
    const call = Alarm.value(this.wheel, alarm)
    call.callback(call.arg)
  }

  setTimeout(callback: (arg: number) => void, delay: number, arg: number): void {
    TimingWheel.add(this.wheel, this.now + delay, new Call(callback, arg))
  }

  next(): number {
    const to = TimingWheel.nextAlarmFiresAt(this.wheel)
    if (O.isNone(to)) return this.now
    // The alarms of [to - 1, to) fire at to - 1, which their callbacks read as `now`.
    this.now = to.value - 1
    TimingWheel.advanceClock(this.wheel, to.value, this.onFired)
    return this.now
  }

  tick(ms: number): number {
    if (ms !== 0) throw new Error('core clock: only tick(0), which has nothing left to fire')
    return this.now
  }

  runToLast(): number {
    throw new Error('core clock: runToLast is not played on the core')
  }

  countTimers(): number {
    return TimingWheel.length(this.wheel)
  }
}

export const coreClock: ClockImpl = {
  name: 'timing-wheel core',
  create: () => new CoreClock() as unknown as Clock,
}
