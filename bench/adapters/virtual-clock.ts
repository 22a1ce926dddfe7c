/** `timing-wheel/sim`'s VirtualClock. */
import { VirtualClock } from '../../dist/lib/sim/index.js'
import type { Clock, ClockImpl } from '../adapter.js'

export const virtualClock: ClockImpl = {
  name: 'VirtualClock',
  create: () => VirtualClock.create() as unknown as Clock,
}
