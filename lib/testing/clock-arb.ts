/**
 * `clockArb`: fast-check draws fake clocks that run timers in the orders real event loops
 * may (see `exploring-clock.ts`), so a property finds code that is only right when timers
 * due together run first in, first out, and on time.
 *
 * @module
 */
import fc from 'fast-check'
import { TimingWheelError, show } from '../errors.js'
import { maxTimeout } from '../sim/coercion.js'
import { type Choice, type ExploringClock, type ExploringClockOptions, createExploringClock } from './exploring-clock.js'

/** Options of {@link clockArb}. */
export interface ClockArbOptions extends ExploringClockOptions {
  /**
   * The order of timers due in the same millisecond: `'fifo'` as armed (immediates
   * first), as every fake clock runs them; `'any'` (the default) any order.
   */
  readonly ties?: 'fifo' | 'any'
  /** How many ms after its due time a timer may run, never before; default 0. */
  readonly maxLateness?: number
  /** How many armings (timer creations and interval re-armings) the plan covers; later ones run FIFO and on time; default 200. */
  readonly maxArmings?: number
}

/**
 * Clocks with the timer API of `timing-wheel/fake-timers`' clocks (`setTimeout`,
 * `setInterval`, `setImmediate`, `tick`, `next`, `runAll`, `runToLast`, the async
 * variants, `install`, `uninstall`, `now`), whose departures from FIFO are drawn by
 * fast-check: with `ties: 'any'` timers due in the same millisecond run in any order, and
 * each timer may run up to `maxLateness` ms late (so one due later can overtake it).
 *
 * The same generated value always makes the same choices, so a failure replays from
 * fast-check's seed and path; shrinking goes toward FIFO and no lateness, so a
 * counterexample shows the fewest departures that break the code, listed in words in
 * what fast-check prints. Each run gets a fresh clock. A clock costs what the virtual
 * clock costs per timer, plus one plan lookup per arming.
 *
 * @example
 * fc.assert(
 *   fc.property(clockArb({ maxLateness: 50 }), (clock) => {
 *     const seen: string[] = []
 *     clock.setTimeout(() => seen.push('save'), 100)
 *     clock.setTimeout(() => seen.push('close'), 100)
 *     clock.tick(200)
 *     return seen.length === 2 // true under every order
 *   }),
 * )
 */
export const clockArb = (options: ClockArbOptions = {}): fc.Arbitrary<ExploringClock> => {
  const { ties = 'any', maxLateness = 0, maxArmings = 200, ...clockOptions } = options
  if (ties !== 'fifo' && ties !== 'any') bad(`ties ${show(ties)} is not 'fifo' or 'any'`)
  if (!Number.isInteger(maxLateness) || maxLateness < 0 || maxLateness > maxTimeout) bad(`maxLateness ${show(maxLateness)} is not an integer in [0, ${maxTimeout}]`)
  if (!Number.isInteger(maxArmings) || maxArmings < 0 || maxArmings > 100_000) bad(`maxArmings ${show(maxArmings)} is not an integer in [0, 100000]`)
  createExploringClock([], clockOptions) // refuses bad clock options now, not in the first run
  const choice: fc.Arbitrary<Choice> = fc.tuple(ties === 'any' ? fc.nat({ max: 511 }) : fc.constant(0), fc.nat({ max: maxLateness }))
  return fc.array(choice, { maxLength: maxArmings, size: 'medium' }).map((plan) => withFastCheck(plan, clockOptions))
}

const bad = (message: string): never => {
  throw new TimingWheelError('InvalidArgument', `clockArb: ${message}`)
}

/** A clock fast-check clones for every run (it has state) and prints with its departures. */
const withFastCheck = (plan: readonly Choice[], options: ExploringClockOptions): ExploringClock => {
  const clock = createExploringClock(plan, options)
  return Object.defineProperties(clock, {
    [fc.cloneMethod]: { value: () => withFastCheck(plan, options) },
    [fc.toStringMethod]: { value: () => describeClock(clock) },
    toString: { value: () => describeClock(clock) },
  })
}

const describeClock = (clock: ExploringClock): string => {
  const departures = clock.describe()
  // The plan up to its last departure: what follows runs FIFO and on time.
  let end = clock.plan.length
  while (end > 0 && clock.plan[end - 1]![0] === 0 && clock.plan[end - 1]![1] === 0) end--
  const plan = JSON.stringify(clock.plan.slice(0, end))
  return departures.length === 0
    ? `clockArb(no departure from FIFO; plan ${plan})`
    : `clockArb(${departures.join('; ')}; plan ${plan})`
}
