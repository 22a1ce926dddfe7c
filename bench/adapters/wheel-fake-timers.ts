/** `timing-wheel/fake-timers`' clock: fake-timers' whole clock, on the VirtualClock's schedule. */
import { createClock } from '../../dist/lib/fake-timers/index.js'
import type { Clock, ClockImpl } from '../adapter.js'

export const wheelFakeTimers: ClockImpl = {
  name: 'timing-wheel/fake-timers',
  create: () => createClock(0) as unknown as Clock,
}
