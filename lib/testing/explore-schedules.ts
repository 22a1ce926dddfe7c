/**
 * `exploreSchedules`: model checking, not sampling. Runs a small body once per distinct
 * schedule the runtime model allows, depth first, as tokio's `loom` does for thread
 * interleavings, and stops at the first that fails.
 *
 * The space: each choice point of a run (a stall, a free order) has a known number of
 * options; a schedule is a sequence of option indices, 0 being FIFO on time. Stalls are
 * cut where they change what has come due: the batch runs at the first due time, at each
 * later due time within `maxStall` (each brings one more timer into the batch), or at
 * `maxStall` itself (the longest lateness, which changes what callbacks see of the time).
 * The bound, as loom's preemption bound, is the number of departures: choices other than
 * 0. The count grows with the choice points to the power of the bound: keep bodies small.
 *
 * A failing schedule comes back as a plan, replayable with `clockArb({ plan })` or
 * `createExploringClock(plan)`.
 *
 * @module
 */
import { TimingWheelError, show } from '../errors.js'
import { type ClockArbOptions, type ExploringClock, type Plan, createExploringClock } from './clock-arb.js'
import type { Chooser } from './exploring-schedule.js'

/** Options of {@link exploreSchedules}. */
export interface ExploreOptions extends Omit<ClockArbOptions, 'plan'> {
  /** At most this many departures per schedule (loom's bound); default 2. */
  readonly maxDepartures?: number
  /** Stops after this many schedules (then `complete` is false); default 100,000. */
  readonly maxSchedules?: number
  /** Whether the clock is installed on the global while the body runs; default true. */
  readonly install?: boolean
}

/** What {@link exploreSchedules} found. */
export interface ExploreResult {
  /** How many schedules ran. */
  readonly schedules: number
  /** Whether every schedule within the bound ran. */
  readonly complete: boolean
  /** The first failing schedule: a clock replaying it (with its departures), and what the body threw or returned. */
  readonly failure?: {
    /** A clock replaying the failing schedule. */
    readonly clock: ExploringClock
    /** That schedule's choices, for `clockArb({ plan })`. */
    readonly plan: Plan
    /** What the body threw, or the `false` it returned. */
    readonly error: unknown
    /** The departures from FIFO on time, in words. */
    readonly departures: readonly string[]
  }
}

interface Point {
  readonly n: number
  readonly index: number
}

type Body = (clock: ExploringClock) => unknown

/** A chooser following `script` (option indices), then 0; it records the points and the plan. */
const scripted = (script: readonly number[], bound: number) => {
  const points: Point[] = []
  const stalls: number[] = []
  const picks: number[] = []
  let departures = 0
  const choose = (n: number): number => {
    const k = points.length
    const index = k < script.length ? script[k]! : 0
    points.push({ n, index })
    if (index > 0) departures++
    return departures > bound ? 0 : index
  }
  const chooser: Chooser = {
    stall: (first, last, dues) => {
      const at = [first, ...dues.filter((d) => d < last), last]
      const b = at[choose(at.length)]!
      stalls.push(b - first)
      return b
    },
    pick: (n) => {
      const p = choose(n)
      picks.push(p)
      return p
    },
  }
  return { chooser, points, plan: (): Plan => ({ stalls: [...stalls], picks: [...picks] }) }
}

/** The next script after a run with `points`, depth first within the bound; undefined when done. */
const nextScript = (points: readonly Point[], bound: number): number[] | undefined => {
  let before = points.reduce((d, p) => d + (p.index > 0 ? 1 : 0), 0)
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i]!
    if (p.index > 0) before--
    if (p.index + 1 < p.n && before + 1 <= bound) return [...points.slice(0, i).map((q) => q.index), p.index + 1]
  }
  return undefined
}

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  (typeof x === 'object' || typeof x === 'function') && x !== null && typeof (x as { then?: unknown }).then === 'function'

const fail = (message: string): never => {
  throw new TimingWheelError('InvalidArgument', `exploreSchedules: ${message}`)
}

/**
 * Runs `body` on a fresh exploring clock once per distinct schedule the runtime model
 * allows within `maxDepartures`, until one fails (throws, rejects, or returns false).
 * Returns a promise when `body` does.
 *
 * @example
 * const result = exploreSchedules((clock) => {
 *   const seen: number[] = []
 *   setTimeout(() => seen.push(1), 10)
 *   setTimeout(() => seen.push(2), 10)
 *   clock.tick(50)
 *   return seen.join() === '1,2'
 * }, { maxStall: 5 })
 * result.failure // undefined: one list, arming order, whatever the stall
 */
export function exploreSchedules(body: (clock: ExploringClock) => Promise<unknown>, options?: ExploreOptions): Promise<ExploreResult>
export function exploreSchedules(body: (clock: ExploringClock) => unknown, options?: ExploreOptions): ExploreResult
export function exploreSchedules(body: Body, options: ExploreOptions = {}): ExploreResult | Promise<ExploreResult> {
  if (typeof body !== 'function') fail(`body ${show(body)} is not a function`)
  if (typeof options !== 'object' || options === null) fail(`options ${show(options)} is not an object`)
  const { maxDepartures = 2, maxSchedules = 100_000, install = true, ...clockOptions } = options
  if (!Number.isInteger(maxDepartures) || maxDepartures < 0 || maxDepartures > 64) fail(`maxDepartures ${show(maxDepartures)} is not an integer in [0, 64]`)
  if (!Number.isInteger(maxSchedules) || maxSchedules < 1) fail(`maxSchedules ${show(maxSchedules)} is not an integer >= 1`)
  createExploringClock({ stalls: [], picks: [] }, clockOptions) // refuses bad clock options before any run
  let script: number[] | undefined = []
  let schedules = 0

  const start = () => {
    const run = scripted(script!, maxDepartures)
    const clock = createExploringClock({ stalls: [], picks: [] }, clockOptions, run.chooser)
    if (install) clock.install()
    return { run, clock }
  }
  const settle = (run: ReturnType<typeof scripted>, clock: ExploringClock, outcome: { error: unknown } | undefined): ExploreResult | undefined => {
    if (install) clock.uninstall()
    schedules++
    if (outcome !== undefined) {
      const plan = run.plan()
      const replay = createExploringClock(plan, clockOptions)
      return { schedules, complete: false, failure: { clock: replay, plan, error: outcome.error, departures: clock.departures() } }
    }
    script = nextScript(run.points, maxDepartures)
    return script === undefined ? { schedules, complete: true } : schedules >= maxSchedules ? { schedules, complete: false } : undefined
  }
  const judged = (value: unknown): { error: unknown } | undefined => (value === false ? { error: new Error('the body returned false') } : undefined)

  const loopAsync = async (pending: { run: ReturnType<typeof scripted>; clock: ExploringClock; result: PromiseLike<unknown> }): Promise<ExploreResult> => {
    let { run, clock, result } = pending
    for (;;) {
      let outcome: { error: unknown } | undefined
      try {
        outcome = judged(await result)
      } catch (error) {
        outcome = { error }
      }
      const done = settle(run, clock, outcome)
      if (done !== undefined) return done
      ;({ run, clock } = start())
      try {
        result = Promise.resolve(body(clock))
      } catch (error) {
        result = Promise.reject(error)
      }
    }
  }

  for (;;) {
    const { run, clock } = start()
    let outcome: { error: unknown } | undefined
    try {
      const value = body(clock)
      if (isThenable(value)) return loopAsync({ run, clock, result: value })
      outcome = judged(value)
    } catch (error) {
      outcome = { error }
    }
    const done = settle(run, clock, outcome)
    if (done !== undefined) return done
  }
}
