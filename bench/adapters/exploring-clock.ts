/**
 * `clockArb`'s clock: the `timing-wheel/fake-timers` clock with an exploring schedule on
 * Node's model, following the empty plan (no stall, FIFO choices), since the row's
 * checksum requires the plain clock's firing order. What exploring costs over the plain
 * clock: the hooks, the lists, a stack per arming; a plan that departs costs the same.
 */
import { createExploringClock } from '../../lib/testing/clock-arb.js'
import type { Clock, ClockImpl } from '../adapter.js'

export const exploringClock: ClockImpl = {
  name: 'clockArb clock',
  create: () => createExploringClock({ stalls: [], picks: [] }, { now: 0, maxStall: 0 }) as unknown as Clock,
}
