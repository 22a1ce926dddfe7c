/**
 * `exploreSchedules`: model checking, not sampling. Runs a small body once per distinct
 * schedule the runtime model allows, depth first, as tokio's `loom` does for thread
 * interleavings, and stops at the first that fails.
 *
 * The space: each choice point of a run (a stall, a free order) has a known number of
 * options; a schedule is a sequence of option indices, 0 being FIFO on time. Times (the
 * stall before a batch, the time an arming in a callback reads) are cut where they can
 * change an order: the earliest, each later due time within `maxStall` (one more timer in
 * the batch), the latest, and every time where something that moves with the choice (what
 * the batch arms, and what that arms) meets or passes something that does not, found from
 * the runs themselves (`discover`): a point's times grow as runs below it show more. The
 * spec checks the cut against a brute force over every time on 200 random programs.
 * The bound, as loom's preemption bound, is the number of departures: choices other than
 * 0. The count grows with the choice points to the power of the bound: keep bodies small.
 *
 * A failing schedule comes back as a plan, replayable with `clockArb({ plan })` or
 * `createExploringClock(plan)`.
 *
 * @module
 */
import { TimingWheelError, show } from '../errors.js'
import { type ClockArbOptions, type ExploringClock, type Plan, createExploringClock, restart } from './clock-arb.js'
import type { Chooser } from './exploring-schedule.js'

/**
 * Options of {@link exploreSchedules}.
 *
 * @example
 * const options: ExploreOptions = { runtime: 'browser', maxStall: 5, maxDepartures: 1, maxSchedules: 1000 }
 * exploreSchedules(body, options).complete // true when every schedule within one departure ran
 */
export interface ExploreOptions extends Omit<ClockArbOptions, 'plan'> {
  /** At most this many departures per schedule (loom's bound); default 2. */
  readonly maxDepartures?: number
  /** Stops after this many schedules (then `complete` is false); default 100,000. */
  readonly maxSchedules?: number
  /** Whether the clock is installed on the global while the body runs; default true. */
  readonly install?: boolean
}

/**
 * What {@link exploreSchedules} found.
 *
 * @example
 * const result: ExploreResult = exploreSchedules(body, { maxStall: 5 })
 * if (result.failure) console.log(result.failure.departures.join('\n'), result.failure.plan)
 */
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

/**
 * A choice point of one run: a pick has `n` options; a time (a stall, a read) has the
 * times in `times`, which later runs through the same prefix may lengthen.
 */
interface Point {
  readonly n: number
  readonly index: number
  readonly time?: { readonly times: number[]; readonly value: number; readonly hi: number; readonly origin: number }
}

type Body = (clock: ExploringClock) => unknown

/**
 * The times worth trying at each time point, by the prefix of choices that leads there
 * (the program is deterministic, so a prefix always meets the same point). The first is
 * the earliest (no departure); the rest are added as runs reveal where a later time
 * changes what comes due.
 */
type Candidates = Map<string, number[]>

/** A chooser following `script` (option indices), then 0; it records the points, the times seen and the plan. */
const scripted = (script: readonly number[], bound: number, candidates: Candidates) => {
  const points: Point[] = []
  /** Times seen, each with its origin (`Chooser.seen`); the time points' own origins, by choice number. */
  const seen: number[] = []
  const seenOrigins: number[] = []
  const parents: number[] = []
  const stalls: number[] = []
  const picks: number[] = []
  let departures = 0
  let prefix = ''
  const choose = (): number => {
    const index = points.length < script.length ? script[points.length]! : 0
    if (index > 0) departures++
    return departures > bound ? 0 : index
  }
  const time = (from: number, hi: number, origin: number, initial: () => number[]): number => {
    let times = candidates.get(prefix)
    if (times === undefined) candidates.set(prefix, (times = initial()))
    const index = choose()
    const value = times[index]!
    points.push({ n: times.length, index, time: { times, value, hi, origin: parents.length } })
    prefix += `${index},`
    stalls.push(value - from)
    parents.push(origin)
    return value
  }
  const chooser: Chooser = {
    stall: (first, last, dues, origin) => time(first, last, origin, () => [first, ...dues().filter((d) => d < last), last]),
    // What callbacks read changes no order by itself: the latest is no special case.
    read: (from, to, origin) => time(from, to, origin, () => [from]),
    pick: (n) => {
      const index = choose()
      points.push({ n, index })
      prefix += `${index},`
      picks.push(index)
      return index
    },
    seen: (t, origin) => {
      seen.push(t)
      seenOrigins.push(origin)
    },
  }
  return { chooser, points, seen, seenOrigins, parents, plan: (): Plan => ({ stalls: [...stalls], picks: [...picks] }) }
}

/**
 * After a run, adds to each time point the times where another choice there changes a
 * comparison. A time seen moves with the point's time `v` when the point is among its
 * origins (`Chooser.seen`): it is `v + c`. Moving `v` changes an order only where a moved
 * time meets a fixed one `D`, or passes it: at `v' = D - c` and one more. A later stall
 * reaches `maxStall` past a moved first due, so `c + maxStall` moves too.
 */
const discover = (run: { readonly points: readonly Point[]; readonly seen: readonly number[]; readonly seenOrigins: readonly number[]; readonly parents: readonly number[] }, maxStall: number): void => {
  const { points, seen, seenOrigins, parents } = run
  const movesWith = (origin: number, k: number): boolean => {
    for (let o = origin; o >= k; o = parents[o]!) if (o === k) return true
    return false
  }
  for (const p of points) {
    if (p.time === undefined) continue
    const { times, value, hi, origin: k } = p.time
    const lo = times[0]!
    // Every time in range is there already: nothing to add.
    if (times.length > hi - lo) continue
    const offsets = new Set<number>()
    const fixed = new Set<number>()
    for (let i = 0; i < seen.length; i++) {
      if (movesWith(seenOrigins[i]!, k)) offsets.add(seen[i]! - value).add(seen[i]! - value + maxStall)
      else fixed.add(seen[i]!)
    }
    const known = new Set(times)
    for (const d of fixed) {
      for (const c of offsets) {
        for (const t of [d - c, d - c + 1]) {
          if (t > lo && t <= hi && !known.has(t)) {
            known.add(t)
            times.push(t)
          }
        }
      }
    }
  }
}

/** The next script after a run with `points`, depth first within the bound; undefined when done. */
const nextScript = (points: readonly Point[], bound: number): number[] | undefined => {
  let before = points.reduce((d, p) => d + (p.index > 0 ? 1 : 0), 0)
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i]!
    if (p.index > 0) before--
    const n = p.time?.times.length ?? p.n
    if (p.index + 1 < n && before + 1 <= bound) return [...points.slice(0, i).map((q) => q.index), p.index + 1]
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
  const candidates: Candidates = new Map()
  const maxStall = clockOptions.maxStall ?? 20

  // One clock for every run, installed once (installing costs as much as a small run),
  // started over with each run's chooser. Arming lines cost most of a run: kept only in
  // the failing schedule's replay.
  let shared: ExploringClock | undefined
  const start = () => {
    const run = scripted(script!, maxDepartures, candidates)
    if (shared === undefined) {
      shared = createExploringClock({ stalls: [], picks: [] }, { ...clockOptions, where: false }, run.chooser)
      if (install) shared.install()
    } else restart(shared, run.chooser)
    return { run, clock: shared }
  }
  const settle = (run: ReturnType<typeof scripted>, clock: ExploringClock, outcome: { error: unknown } | undefined): ExploreResult | undefined => {
    schedules++
    // Uninstalled before a failure's replay installs its own clock.
    if (outcome !== undefined && install) clock.uninstall()
    const done = decide(run, clock, outcome)
    if (done !== undefined && outcome === undefined && install) clock.uninstall()
    return done
  }
  const decide = (run: ReturnType<typeof scripted>, clock: ExploringClock, outcome: { error: unknown } | undefined): ExploreResult | undefined => {
    if (outcome !== undefined) {
      const plan = run.plan()
      return { schedules, complete: false, failure: { clock: createExploringClock(plan, clockOptions), plan, error: outcome.error, departures: wordsOf(plan, clock) } }
    }
    discover(run, maxStall)
    script = nextScript(run.points, maxDepartures)
    return script === undefined ? { schedules, complete: true } : schedules >= maxSchedules ? { schedules, complete: false } : undefined
  }
  // The failing schedule once more with its arming lines (a sync body; an async one keeps the lines of the search).
  const wordsOf = (plan: Plan, ran: ExploringClock): readonly string[] => {
    if (clockOptions.where === false) return ran.departures()
    const replay = createExploringClock(plan, clockOptions)
    if (install) replay.install()
    try {
      const value = body(replay)
      if (isThenable(value)) {
        value.then(undefined, () => {})
        return ran.departures()
      }
    } catch {
      // The failure itself, again.
    } finally {
      if (install) replay.uninstall()
    }
    return replay.departures()
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
