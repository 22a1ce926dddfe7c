/**
 * `clockArb`'s clock, with a plan covering its first 10,000 armings: what exploring costs
 * over the plain clock. The plan keeps FIFO order and no lateness (ranks and lateness 0),
 * since the row's checksum requires the plain clock's firing order; a plan that departs
 * costs the same lookups.
 */
import { type Choice, createExploringClock } from '../../dist/lib/testing/exploring-clock.js'
import type { Clock, ClockImpl } from '../adapter.js'

const plan: Choice[] = Array.from({ length: 10_000 }, () => [0, 0])

export const exploringClock: ClockImpl = {
  name: 'clockArb clock',
  create: () => createExploringClock(plan) as unknown as Clock,
}
