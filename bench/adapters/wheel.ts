/**
 * The timing wheel at 1 ms precision, as its users hold it: the handle `add` returns is
 * kept (a number, so in a Float64Array) to cancel with, the id is the alarm's value.
 */
import * as O from 'fp-ts/lib/Option.js'
import { Alarm, TimingWheel } from '../../dist/lib/index.js'
import type { Capacity, OnFire, QueueImpl, TimerQueue } from '../adapter.js'

type Handle = TimingWheel.Alarm<number>

class WheelTimers implements TimerQueue {
  readonly wheel: TimingWheel.TimingWheel<number>
  readonly handles: Float64Array
  readonly onFired: (alarm: Handle) => void

  constructor(capacity: Capacity, onFire: OnFire) {
    const wheel = TimingWheel.create<number>({ alarmPrecision: 1 })
    this.wheel = wheel
    this.handles = new Float64Array(capacity.ids)
    // Made once here, not per advance, so firing allocates nothing on the harness side.
    this.onFired = (alarm) => onFire(Alarm.value(wheel, alarm))
  }

  add(id: number, at: number): void {
    this.handles[id] = TimingWheel.add(this.wheel, at, id)
  }

  cancel(id: number): void {
    TimingWheel.remove(this.wheel, this.handles[id]! as Handle)
  }

  advance(to: number): void {
    TimingWheel.advanceClock(this.wheel, to, this.onFired)
  }

  nextFiresAt(): number {
    const next = TimingWheel.nextAlarmFiresAt(this.wheel)
    return O.isSome(next) ? next.value : Infinity
  }

  size(): number {
    return TimingWheel.length(this.wheel)
  }
}

export const wheel: QueueImpl = {
  name: 'timing-wheel',
  create: (capacity, onFire) => new WheelTimers(capacity, onFire),
}
