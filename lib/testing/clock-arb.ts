/**
 * `clockArb`: fast-check draws `timing-wheel/fake-timers` clocks with an exploring
 * schedule (`exploring-schedule.ts`), whose freedom is exactly what a runtime permits
 * (`runtime-model.ts`): stalls of the event loop and the orders the runtime leaves open.
 * A property that holds on the runtime holds on every clock drawn; one that fails prints
 * the departures from FIFO on time that broke it, in words, each with its rule.
 *
 * A value is a plan: the stall before each batch that can stall (ms), and each free
 * choice (an index, 0 being FIFO's). The same plan makes the same choices, so a failure
 * replays (`clockArb({ plan })`, or `createExploringClock(plan)`); shrinking goes toward
 * fewer and shorter stalls and FIFO choices.
 *
 * @module
 */
import fc from 'fast-check'
import { TimingWheelError, show } from '../errors.js'
import { type Clock, createClock } from '../fake-timers/clock.js'
import { type GlobalObject, type Host, readHost } from '../fake-timers/host.js'
import { type InstallConfig, install as installOnHost } from '../fake-timers/install.js'
import { put } from '../sim/accessors.js'
import { maxTimeout } from '../sim/coercion.js'
import type { State } from '../sim/virtual-clock.js'
import { type Chooser, type Exploring, type Ran, createExploring, departures } from './exploring-schedule.js'
import type { Runtime } from './runtime-model.js'

/**
 * The choices of one exploring clock: stalls in ms, one per batch that can stall and (Node)
 * one per arming (in a callback or at rest) that can read a later time, in the order met; picks,
 * one per free order.
 *
 * @example
 * const plan: Plan = { stalls: [30], picks: [1] } // say, a failure's `plan` from exploreSchedules
 * fc.assert(fc.property(clockArb({ plan }), withClock(body))) // replays that one schedule
 */
export interface Plan {
  /** The stall in ms before each batch that can stall, in order; missing ones are 0. */
  readonly stalls: readonly number[]
  /** The choice at each free order, in order; missing ones are 0 (FIFO). */
  readonly picks: readonly number[]
}

/**
 * Options of {@link clockArb} and {@link createExploringClock}.
 *
 * @example
 * const options: ClockArbOptions = { runtime: 'browser', maxStall: 0 } // browser orders, no stalls
 * fc.assert(fc.property(clockArb(options), withClock(body)))
 */
export interface ClockArbOptions {
  /** Whose rules: `'node'` (default) or `'browser'`. */
  readonly runtime?: Runtime
  /** The longest stall of the event loop before a batch of timers, in ms; default 20. 0 explores orders only. */
  readonly maxStall?: number
  /** Wall-clock start, ms since the epoch or a `Date`; default 2026-03-14T15:09:26.535Z (a fixed, realistic date). */
  readonly now?: number | Date
  /** How many timers `runAll` runs before it gives up; default 1000. */
  readonly loopLimit?: number
  /**
   * Whether each arming keeps the line that armed it, for the words of a departure. A
   * stack is most of what an arming costs (about 3x a plain clock's arming). By default,
   * `clockArb`'s clocks keep none while they run and, when asked for their departures
   * (a counterexample printed), replay the same plan with lines through the body
   * {@link withClock} ran (a sync body; once a body is async, the clocks of that
   * arbitrary keep lines as they run);
   * `createExploringClock` keeps them. `true`: always kept; `false`: never.
   */
  readonly where?: boolean
  /** Replays this plan instead of drawing one (the arbitrary is then constant). */
  readonly plan?: Plan
}

/**
 * A `timing-wheel/fake-timers` clock following a plan, with what it did.
 *
 * @example
 * const clock: ExploringClock = createExploringClock({ stalls: [], picks: [] })
 * clock.setTimeout(() => {}, 10)
 * clock.tick(10)
 * clock.runs().length // 1
 * clock.departures()  // []: FIFO on time, the plan chose nothing else
 */
export interface ExploringClock extends Clock {
  /** The runtime whose freedom it explores. */
  readonly runtime: Runtime
  /** The choices it replays. */
  readonly plan: Plan
  /** Every timer that ran, in order, with when and why. */
  readonly runs: () => readonly Ran[]
  /** The departures from FIFO on time so far, in words, each with the rule that allowed it. */
  readonly departures: () => readonly string[]
  /** Installs this clock on the global, as `timing-wheel/fake-timers`' `install` does (its `now` and `loopLimit` are the clock's). */
  readonly install: (config?: Omit<InstallConfig, 'now' | 'loopLimit'>) => ExploringClock
}

/**
 * The default start: fixed, so runs repeat, and realistic, so that it is not a zero timestamp.
 *
 * @example
 * new Date(defaultNow).toISOString() // '2026-03-14T15:09:26.535Z'
 */
export const defaultNow = Date.UTC(2026, 2, 14, 15, 9, 26, 535)

const bad = (message: string): never => {
  throw new TimingWheelError('InvalidArgument', `clockArb: ${message}`)
}

const isCount = (n: unknown, max: number): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= max

type Checked = Required<Omit<ClockArbOptions, 'plan'>> & { plan: Plan | undefined }

const checkOptions = (options: ClockArbOptions): Checked => {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) bad(`options ${show(options)} is not an object`)
  const { runtime = 'node', maxStall = 20, now = defaultNow, loopLimit = 1000, where = true, plan } = options
  if (runtime !== 'node' && runtime !== 'browser') bad(`runtime ${show(runtime)} is not 'node' or 'browser'`)
  if (!isCount(maxStall, maxTimeout)) bad(`maxStall ${show(maxStall)} is not an integer in [0, ${maxTimeout}]`)
  if (!isCount(loopLimit, 1e9) || loopLimit < 1) bad(`loopLimit ${show(loopLimit)} is not an integer in [1, 1e9]`)
  if (typeof where !== 'boolean') bad(`where ${show(where)} is not a boolean`)
  const start = now instanceof Date ? now.getTime() : now
  if (typeof start !== 'number' || !Number.isFinite(start) || Math.abs(start) > 8.64e15) bad(`now ${show(now)} is not a time: ms since the epoch within ±8.64e15, or a valid Date`)
  if (plan !== undefined) {
    const ok =
      typeof plan === 'object' && plan !== null && Array.isArray(plan.stalls) && Array.isArray(plan.picks) &&
      plan.stalls.every((s) => isCount(s, maxTimeout)) && plan.picks.every((p) => isCount(p, 1e6))
    if (!ok) bad(`plan ${show(plan)} is not { stalls: integers in [0, ${maxTimeout}], picks: integers in [0, 1e6] }`)
  }
  return { runtime, maxStall, now, loopLimit, where, plan }
}

let host: Host | undefined
/** The process's global, read once, when first needed: its originals are what `install` restores. */
const hostOf = (): Host => (host ??= readHost(globalThis as unknown as GlobalObject))

/** A chooser reading a plan; past its end every choice is FIFO's. */
const planChooser = (plan: Plan): Chooser => {
  let s = 0
  let p = 0
  return {
    stall: (first, last) => Math.min(last, first + (plan.stalls[s++] ?? 0)),
    read: (from, to) => Math.min(to, from + (plan.stalls[s++] ?? 0)),
    pick: () => plan.picks[p++] ?? 0,
  }
}

/** What the values of one `clockArb` share: whether its property's body is async (then its clocks keep lines as they run). */
interface Body {
  async: boolean
}

/**
 * What this module and `exploreSchedules` keep of a clock beside what it shows, in one
 * symbol-keyed slot: a WeakMap entry a thing would cost the collector an ephemeron each,
 * and a clock is made for every run of a property.
 */
interface Kept {
  /** Starts the clock over with another chooser (see {@link restart}). */
  readonly restart: (chooser: Chooser) => void
  /** The words of a clock that kept no arming lines but can replay with them (`valueOf`). */
  words: (() => readonly string[]) | undefined
  /** How {@link withClock} ran the clock's body: runs it again on another clock. */
  replay: ((clock: ExploringClock) => unknown) | undefined
  /** Its arbitrary's, if a `clockArb` drew it. */
  body: Body | undefined
}
const keptKey = Symbol('timing-wheel exploring clock')
const kept = (clock: ExploringClock): Kept | undefined => (clock as unknown as { [keptKey]?: Kept })[keptKey]

/**
 * Starts a clock over with another chooser: `exploreSchedules` keeps one clock installed
 * for all its runs (installing costs as much as a small run).
 *
 * @example
 * const clock = createExploringClock({ stalls: [], picks: [] })
 * restart(clock, { stall: (first) => first, read: (from) => from, pick: () => 0 })
 */
export const restart = (clock: ExploringClock, chooser: Chooser): void => kept(clock)!.restart(chooser)

/**
 * A fresh exploring clock following `plan`, for `chooser` (default: the plan's).
 * Fresh clocks with the same plan and options make the same choices.
 *
 * @example
 * const clock = createExploringClock({ stalls: [30], picks: [] })
 * clock.setTimeout(() => console.log(clock.now), 100)
 * clock.tick(200) // logs the start + 130: the loop stalled 30 ms
 */
export const createExploringClock = (plan: Plan, options: ClockArbOptions = {}, chooser?: Chooser): ExploringClock => {
  // Checked before the spread: a string or an array spread into an object would pass.
  if (typeof options !== 'object' || options === null || Array.isArray(options)) bad(`options ${show(options)} is not an object`)
  if (plan === undefined) bad(`plan ${show(plan)} is not { stalls: integers in [0, ${maxTimeout}], picks: integers in [0, 1e6] }`)
  return exploringClock(plan, checkOptions({ ...options, plan }), chooser)
}

/** {@link createExploringClock} with its options checked already: `clockArb` checks them once, not for every value. */
const exploringClock = (plan: Plan, o: Checked, chooser?: Chooser): ExploringClock => {
  let exploring: Exploring | undefined
  let state: State | undefined
  const clock = createClock(hostOf(), o.now, o.loopLimit, (core) => {
    state = core
    exploring = createExploring(core, o.runtime, o.maxStall, chooser ?? planChooser(plan), o.where)
    return exploring.hooks
  }) as Clock & Record<string | symbol, unknown>
  const k: Kept = {
    restart: (next) => {
      clock.reset()
      exploring = createExploring(state!, o.runtime, o.maxStall, next, o.where)
      state!.hooks = exploring.hooks
    },
    words: undefined,
    replay: undefined,
    body: undefined,
  }
  const runs = (): readonly Ran[] => exploring!.runs
  Object.assign(clock, {
    runtime: o.runtime,
    plan,
    runs,
    departures: () => k.words?.() ?? departures(runs()),
    install: (config: InstallConfig = {}) => {
      if ('now' in config || 'loopLimit' in config) bad('install: an exploring clock keeps the now and loopLimit it was made with')
      installOnHost(hostOf(), config, 0, () => clock)
      return clock
    },
  })
  Object.defineProperty(clock, keptKey, { value: k })
  return clock as unknown as ExploringClock
}

/** Prints a clock as its plan and the departures of the last run of any of its copies. */
const describePlan = (options: ClockArbOptions, plan: Plan, last: ExploringClock | undefined): string => {
  const lines = last === undefined ? [] : last.departures()
  const head = `clockArb(${JSON.stringify({ runtime: options.runtime ?? 'node', maxStall: options.maxStall ?? 20, plan })})`
  return lines.length === 0 ? `${head}: no departure from FIFO on time` : `${head}:\n${lines.map((l) => `  - ${l}`).join('\n')}`
}

/** The departures of `plan` with arming lines: the body run again on a clock that keeps them (sync bodies). */
const replayWords = (plan: Plan, options: ClockArbOptions, ran: ExploringClock, replay: (clock: ExploringClock) => unknown): readonly string[] => {
  const fresh = createExploringClock(plan, { ...options, where: true })
  try {
    const result = replay(fresh)
    if (isThenable(result)) {
      Promise.resolve(result).catch(() => {})
      return departures(ran.runs())
    }
  } catch {
    // The failure itself, again.
  }
  return fresh.departures()
}

/** The options of one `clockArb`, checked once: as given, and for clocks that keep no lines while they run. */
interface Options {
  readonly given: ClockArbOptions
  readonly eager: Checked
  readonly lazy: Checked
}

/** A value fast-check clones for every run (a clock has state) and prints with its departures. */
const valueOf = (plan: Plan, options: Options, shared: { last: ExploringClock | undefined }, body: Body): ExploringClock => {
  const lazy = options.given.where === undefined && !body.async
  const clock = exploringClock(plan, lazy ? options.lazy : options.eager)
  const k = kept(clock)!
  k.body = body
  shared.last = clock
  const print = (): string => describePlan(options.given, plan, shared.last)
  if (lazy) {
    let words: readonly string[] | undefined
    put(k, 'words', () => (k.replay === undefined ? departures(clock.runs()) : (words ??= replayWords(plan, options.given, clock, k.replay))))
  }
  return Object.defineProperties(clock, {
    [fc.cloneMethod]: { value: () => valueOf(plan, options, shared, body) },
    [fc.toStringMethod]: { value: print },
    toString: { value: print },
  })
}

/**
 * Clocks that explore what `options.runtime` permits: the `timing-wheel/fake-timers` clock
 * (`Date`, `Intl`, microtasks, the async moves, `performance`) with an exploring schedule.
 * Use {@link withClock} to run a property body with the clock installed.
 *
 * @example
 * fc.assert(fc.property(clockArb({ maxStall: 50 }), withClock((clock) => {
 *   const seen: string[] = []
 *   setTimeout(() => seen.push('save'), 100)
 *   setTimeout(() => seen.push('close'), 100)
 *   clock.tick(200)
 *   return seen.join() === 'save,close' // one list, arming order: true on Node
 * })))
 */
export const clockArb = (options: ClockArbOptions = {}): fc.Arbitrary<ExploringClock> => {
  const o = checkOptions(options)
  const body: Body = { async: false }
  const checked: Options = { given: options, eager: o, lazy: { ...o, where: false } }
  const make = (plan: Plan): ExploringClock => valueOf(plan, checked, { last: undefined }, body)
  if (o.plan !== undefined) return fc.constant(o.plan).map(make)
  const stall = o.maxStall === 0 ? fc.constant(0) : fc.oneof(fc.constant(0), fc.integer({ min: 1, max: o.maxStall }))
  return fc
    .record({ stalls: fc.array(stall, { maxLength: 200 }), picks: fc.array(fc.nat({ max: 5 }), { maxLength: 200 }) })
    .map(make)
}

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  (typeof x === 'object' || typeof x === 'function') && x !== null && typeof (x as { then?: unknown }).then === 'function'

/**
 * A property body run with its clock installed on the global (as `install` does: timers,
 * `Date`, `performance`, `nextTick`, `queueMicrotask`, Node's `timers`), uninstalled after,
 * also when it throws; an async body is uninstalled when its promise settles. For
 * `fc.property` and `fc.asyncProperty` alike.
 *
 * @example
 * fc.assert(fc.asyncProperty(clockArb(), withClock(async (clock) => {
 *   const done = new Promise((resolve) => setTimeout(resolve, 10))
 *   await clock.tickAsync(100)
 *   await done
 * })))
 */
export const withClock =
  <A extends unknown[], R>(body: (clock: ExploringClock, ...rest: A) => R, config?: Omit<InstallConfig, 'now' | 'loopLimit'>) =>
  (clock: ExploringClock, ...rest: A): R => {
    const k = kept(clock)
    if (k !== undefined) put(k, 'replay', (again: ExploringClock) => withClock(body, config)(again, ...rest))
    clock.install(config)
    let result: R
    try {
      result = body(clock, ...rest)
    } catch (e) {
      clock.uninstall()
      throw e
    }
    if (!isThenable(result)) {
      clock.uninstall()
      return result
    }
    // An async body cannot be replayed for the words: its clocks keep lines from now on.
    const shared = k?.body
    if (shared !== undefined) shared.async = true
    return Promise.resolve(result).finally(() => clock.uninstall()) as R
  }
