/**
 * `clockArb`'s clock: the `timing-wheel/fake-timers` clock with an exploring schedule on
 * Node's model, following the empty plan (no stall, FIFO choices), since the row's
 * checksum requires the plain clock's firing order. What exploring costs over the plain
 * clock: the hooks and its queue of armings; a plan that departs costs the same. Without
 * the arming lines (`where: false`): a stack per arming would triple the cost.
 */
import { createExploringClock } from '../../dist/lib/testing/clock-arb.js'
import type { Clock, ClockImpl } from '../adapter.js'

export const exploringClock: ClockImpl = {
  name: 'clockArb clock',
  create: () => createExploringClock({ stalls: [], picks: [] }, { now: 0, maxStall: 0, where: false }) as unknown as Clock,
}
