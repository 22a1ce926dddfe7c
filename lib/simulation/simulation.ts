/**
 * A deterministic simulation: named hosts exchanging messages over a simulated network,
 * with faults, on one `timing-wheel/fake-timers` clock and one seeded generator.
 *
 * Representation.
 *
 * - `clock` is the only time: hosts' timers and messages in flight are its timers. True
 *   time is `clock.now` (do not `setSystemTime` it: `skew` hosts instead); a host's time is
 *   `base + (clock.now - anchor) * rate` (its offset and drift, re-anchored whenever they
 *   change), so a host with drift d measures `ms` of its own time in `ms / (1 + d)` true ms:
 *   its timers are set for that (rounded up, so never early by the host's clock).
 * - A message in flight is a timer of the clock (whose timers are a timing wheel's alarms:
 *   constant time each, however many are in flight) at its arrival time. Its arrival is a
 *   macrotask of its own, as a socket's is: microtasks and `await`s run between two, and it
 *   is ordered with the hosts' timers by time, then by when it was set. A batch of arrivals
 *   in one timer would be cheaper, but would run handlers back to back with no microtask
 *   between them, an order Node never produces. fake-timers runs a 0 ms timer set during a
 *   tick 1 ms later (to stop loops), so a 0 ms link, a `release` or a `resume` made from a
 *   timer delivers 1 ms later.
 * - With `batch`, the messages in flight are alarms of a timing wheel of their own (1 ms
 *   precision: an alarm's interval is its arrival ms, and alarms of one interval fire in
 *   the order added, Guarantee 3), and one clock timer, armed at the earliest, delivers
 *   every message due, those sent with no latency meanwhile included.
 * - A host's monotonic clock is `monoBase + (clock.now - anchor) * rate`: the same drift,
 *   none of the offset, re-anchored with the wall clock.
 * - A host's `incarnation` grows at every crash. A message remembers both ends'
 *   incarnations when sent and is dropped on arrival if either changed (a crash loses what
 *   a host had in flight, both ways): crashes cost nothing per message in flight. A host's
 *   context (`Host`) belongs to one incarnation; calls through a stale context do nothing,
 *   so a crashed host's leftover callbacks cannot act.
 * - `links[from][to]` is a directed link, made from the defaults on first use: its
 *   latency, loss, duplication and reordering, whether it is partitioned or held, the
 *   messages held, and the time its last in-order message arrives (links are FIFO:
 *   a message never arrives before one sent earlier on the link, unless it was drawn to be
 *   reordered, which delays it by one more latency draw and lets later messages pass).
 * - A paused host runs nothing: its timers and messages queue in `stalled` and run in
 *   arrival order, one clock macrotask each, when it resumes (a message is checked again
 *   then, as on arrival); a crash drops the messages stalled.
 *
 * Host code reads its time with `now(host)` and `monotonic(host)`, or, once installed,
 * with `Date` (install.ts): a per-host view of one true clock (madsim's and turmoil's nodes
 * share one clock; skewing it per host is Jepsen's clock nemesis). The host's context is the handle host code acts
 * through (`send`, `setTimeout`, `onMessage`), as turmoil's and madsim's code acts through
 * the host it runs on.
 *
 * On the hot path (`send`, arrival), a message is one record and one clock timer with its
 * arguments (no closure), and a context is recognised by its class.
 *
 * Every random choice comes from `random` in the order the run makes them; a link without
 * faults and with a fixed latency draws nothing. The same seed and program give the same
 * log, bit for bit.
 *
 * Invariants: `wire` counts the messages' timers not yet fired; every copy of every
 * message ends in the log exactly once (delivered or dropped) unless on the wire, held or
 * stalled; a crashed host has no timers of its own, no stalled work and no state.
 */
import * as O from '#fp-ts/Option.js'
import { TimingWheelError, show } from '../errors.js'
import { createClock } from '../fake-timers/index.js'
import * as TW from '../timing-wheel/timing-wheel.js'
import * as Random from './random.js'

/** A link's latency in ms: fixed, or uniform over whole ms in `[min, max]` drawn from the seed. */
export type Latency =
  | number
  | {
      /** The least latency, ms. */
      readonly min: number
      /** The greatest, ms (at least `min`). */
      readonly max: number
    }

/** What a directed link does to the messages on it. Probabilities are in [0, 1]. */
export interface LinkOptions {
  /** Default 1 ms. */
  readonly latency?: Latency
  /** The chance a message is lost. Default 0. */
  readonly loss?: number
  /** The chance a message is delivered twice (the copy with its own latency). Default 0. */
  readonly duplicate?: number
  /** The chance a message is held back by one more latency draw and lets later ones pass. Default 0. */
  readonly reorder?: number
}

/** A host's clock: `offset` ms ahead of true time, running `1 + drift` times as fast. */
export interface Skew {
  /** ms, default 0. */
  readonly offset?: number
  /** In (-1, 1): 1e-4 gains 0.1 ms a second. Default 0. */
  readonly drift?: number
}

/** FoundationDB's BUGGIFY: a fault point is enabled for the run with `activate`'s chance when first asked, then fires with `fire`'s chance each time. */
export interface BuggifyOptions {
  /** The chance a point is enabled for the run, decided when first asked; default 0.25. */
  readonly activate?: number
  /** The chance an enabled point fires each time it is asked; default 0.25. */
  readonly fire?: number
}

/** What `create` and `install` take; only `seed` is required. */
export interface SimulationOptions {
  /** The seed of every random choice: an integer in [-2^31, 2^31 - 1]. */
  readonly seed: number
  /** The clock's wall time at the start (ms since the epoch); default 0. Ignored with `clock`. */
  readonly now?: number
  /** Every link's options until `link` changes them. */
  readonly network?: LinkOptions
  /** Whether to keep the delivery log; default true. */
  readonly log?: boolean
  /**
   * Deliver the messages due in one ms in one clock timer, in order (default false: a timer
   * each). Several times faster with many in flight; but microtasks and `await`s of their
   * handlers run after the whole batch, an order Node never produces for two sockets.
   */
  readonly batch?: boolean
  /** Fault points: off (`false`, the default, `buggify` always false), or on with these chances (`true`: 0.25 and 0.25). */
  readonly buggify?: boolean | BuggifyOptions
  /**
   * The clock to run on, instead of a new one: any fake-timers clock (`timing-wheel/fake-timers`,
   * `@sinonjs/fake-timers`, clockArb's exploring clock, whose timer order then varies too).
   */
  readonly clock?: SimulationClock
}

/**
 * Why a message was not delivered: lost by the link, cut by a partition, an end crashed
 * while it was in flight, the receiver has no handler, or it was sent through a crashed
 * incarnation's context (`'stale'`: logged, never sent).
 */
export type DropReason = 'loss' | 'partition' | 'crash' | 'no handler' | 'stale'

/**
 * Everything the simulation keeps in its log, in the order it happened: messages, events,
 * faults and hosts. Each has `kind` and `at`, the true time (`clock.now`).
 *
 * @example
 * const lines = log(sim).map((e) => (e.kind === 'message' ? `${e.at} ${e.from}->${e.to} ${e.outcome}` : `${e.at} ${e.kind}`))
 */
export type LogEntry<M> = MessageEntry<M> | EventEntry | FaultEntry | HostEntry

/**
 * One copy of a message, logged when it was delivered or dropped.
 *
 * @example
 * const lost = log(sim).filter((e): e is MessageEntry<string> => e.kind === 'message' && e.reason === 'loss')
 */
export interface MessageEntry<M> {
  /** What this entry is. */
  readonly kind: 'message'
  /** The send's number, from 1; a duplicate has its original's. */
  readonly id: number
  /** The sending host. */
  readonly from: string
  /** The host it was sent to. */
  readonly to: string
  /** The message itself (not a copy). */
  readonly message: M
  /** The true time it was sent (`clock.now`). */
  readonly sentAt: number
  /** The true time it was delivered or dropped. */
  readonly at: number
  /** Whether this is the copy the link's duplication made. */
  readonly duplicate: boolean
  /** Whether the host's handler got it. */
  readonly outcome: 'delivered' | 'dropped'
  /** For a dropped message. */
  readonly reason?: DropReason
}

/**
 * An application event, added by `event` from host code or from outside.
 *
 * @example
 * event(host, 'elected', { term: 3 }) // logs { kind: 'event', at, host: host.name, name: 'elected', data: { term: 3 } }
 */
export interface EventEntry {
  /** What this entry is. */
  readonly kind: 'event'
  /** The true time it was added. */
  readonly at: number
  /** The host whose context added it; absent when added through the simulation. */
  readonly host?: string
  /** The event's name. */
  readonly name: string
  /** What the caller attached (not a copy); absent when it was `undefined`. */
  readonly data?: unknown
}

/** What a fault entry did: a fault or its undoing. */
export type FaultAction = 'partition' | 'heal' | 'hold' | 'release' | 'crash' | 'restart' | 'pause' | 'resume' | 'skew' | 'link'

/**
 * A fault or its undoing, one per call of `partition`, `heal`, `hold`, `release`, `crash`,
 * `restart`, `pause`, `resume`, `skew` or `link` that was accepted (`applySchedule` makes
 * those calls); a call that finds nothing to do (crashing a crashed host) is logged too.
 *
 * @example
 * partition(sim, 'a', 'b', { oneWay: true }) // logs { kind: 'fault', at, action: 'partition', hosts: ['a', 'b'], oneWay: true }
 */
export interface FaultEntry {
  /** What this entry is. */
  readonly kind: 'fault'
  /** The true time of the call. */
  readonly at: number
  /** Which fault, or which undoing. */
  readonly action: FaultAction
  /** `[a, b]` for a link fault (from `a` to `b` when `oneWay`), `[name]` for a host's, `[]` for healing every cut. */
  readonly hosts: readonly string[]
  /** For a link fault: whether it went from `a` to `b` only. */
  readonly oneWay?: boolean
  /** For `skew`: the host's offset from now on (host time minus true time, ms). */
  readonly offset?: number
  /** For `skew`: the host's drift from now on. */
  readonly drift?: number
}

/**
 * A host added: with its offset and drift, a picture can draw its lane and compute its time
 * (`skew` entries change them later).
 *
 * @example
 * addHost(sim, 'a', boot, { offset: 5 }) // logs { kind: 'host', at, host: 'a', offset: 5, drift: 0 }
 */
export interface HostEntry {
  /** What this entry is. */
  readonly kind: 'host'
  /** The true time it was added. */
  readonly at: number
  /** Its name. */
  readonly host: string
  /** Its offset when added (host time minus true time, ms). */
  readonly offset: number
  /** Its drift when added. */
  readonly drift: number
}

/** A host's handle to its own incarnation: pass it to `send`, `setTimeout`, `now`, `random`, `buggify`. */
export interface Host<M = unknown> {
  /** The host's name. */
  readonly name: string
  /** @internal */
  readonly sim: Simulation<M>
  /** @internal */
  readonly state: HostState<M>
  /** @internal */
  readonly incarnation: number
}

/** Builds a host's state and behaviour; run at `addHost` and at every restart. */
export type Boot<M, S> = (host: Host<M>) => S

/** @internal */
export interface HostState<M> {
  readonly name: string
  readonly index: number
  readonly boot: Boot<M, unknown>
  up: boolean
  paused: boolean
  incarnation: number
  context: Host<M>
  value: unknown
  receive: ((from: string, message: M) => void) | undefined
  base: number
  anchor: number
  rate: number
  /** `rate - 1` as given (kept apart so the log and `applySchedule` give back the exact drift). */
  drift: number
  monoBase: number
  nextTimer: number
  readonly timers: Map<number, unknown>
  /** What came due while paused, in order: timer callbacks and messages. */
  stalled: Array<(() => void) | Message<M>>
  readonly links: Array<Link<M> | undefined>
}

interface LinkParams {
  readonly min: number
  readonly max: number
  readonly loss: number
  readonly duplicate: number
  readonly reorder: number
}

interface Link<M> extends LinkParams {
  partitioned: boolean
  held: boolean
  heldQueue: Array<Message<M>>
  /** When the last in-order message sent on the link arrives. */
  fifoAt: number
}

interface Message<M> {
  readonly id: number
  readonly from: HostState<M>
  readonly to: HostState<M>
  readonly fromIncarnation: number
  readonly toIncarnation: number
  readonly message: M
  readonly sentAt: number
  readonly duplicate: boolean
}

/** @internal The batched network: messages as alarms at their arrival ms, one clock timer armed at the earliest. */
export interface Batch<M> {
  readonly wheel: TW.TimingWheel<Message<M>>
  armed: unknown
  armedAt: number
  flushing: boolean
}

/** Runs host code: in the host's async context once installed (see `install.ts`). */
export type Enter = <R>(host: Host<unknown>, f: () => R) => R

/**
 * What the simulation needs of its clock: any fake-timers clock has it (this package's,
 * `@sinonjs/fake-timers`', clockArb's exploring clock).
 */
export interface SimulationClock {
  /** The true time, ms. */
  readonly now: number
  /** Calls `callback(...args)` after `delay` ms; returns what `clearTimeout` takes. */
  setTimeout(callback: (...args: never[]) => unknown, delay?: unknown, ...args: unknown[]): unknown
  /** Cancels a timeout. */
  clearTimeout(id?: unknown): void
  /** Moves `ms` forward, firing what comes due. */
  tick(ms: number): unknown
  /** The same, letting promises settle between timers. */
  tickAsync(ms: number): Promise<unknown>
}

/** A simulation of messages of type `M`. Made by `create` or `install`. */
export interface Simulation<M = unknown> {
  /** The clock everything runs on: to use all of a fake-timers clock, make it and pass it as `clock`. */
  readonly clock: SimulationClock
  /** @internal */
  readonly random: Random.Generator
  /** @internal */
  readonly hosts: Map<string, HostState<M>>
  /** @internal */
  readonly order: Array<HostState<M>>
  /** @internal */
  readonly defaults: LinkParams
  /** @internal Messages on the wire (each a clock timer, or in `batch`'s wheel). */
  wire: number
  /** @internal With `batch: true`: the messages on the wire and the one clock timer that delivers them. */
  readonly batch: Batch<M> | undefined
  /** @internal */
  sent: number
  /** @internal */
  readonly log: Array<LogEntry<M>> | undefined
  /** @internal */
  readonly buggify: { readonly activate: number; readonly fire: number } | undefined
  /** @internal */
  readonly faults: Map<string, number>
  /** @internal */
  enter: Enter
  /** @internal */
  uninstall: (() => void) | undefined
}

// Validation: every check runs before anything changes, and names the value and the range.

const fail = (code: 'InvalidArgument' | 'TimeOutOfRange', message: string): never => {
  throw new TimingWheelError(code, message)
}

/** The longest delay a timer can have (Node's and fake-timers' 2^31 - 1 ms). */
const maxDelay = 2 ** 31 - 1
/** The widest host offset: `Date`'s range. */
const maxOffset = 8.64e15

const isNumber = (x: unknown): x is number => typeof x === 'number'

const probability = (what: string, p: unknown): number =>
  isNumber(p) && p >= 0 && p <= 1 ? p : fail('InvalidArgument', `${what} ${show(p)} is not a probability in [0, 1]`)

const wholeMs = (what: string, ms: unknown): number =>
  isNumber(ms) && Number.isInteger(ms) && ms >= 0 && ms <= maxDelay
    ? ms
    : fail('TimeOutOfRange', `${what} ${show(ms)} is not a whole number of ms in [0, ${maxDelay}]`)

/** A delay or duration: any finite ms in [0, 2^31 - 1]. */
export const checkDelay = (what: string, ms: unknown): number =>
  isNumber(ms) && ms >= 0 && ms <= maxDelay ? ms : fail('TimeOutOfRange', `${what} ${show(ms)} is not a number of ms in [0, ${maxDelay}]`)

const options = <T extends object>(what: string, value: unknown): Partial<T> =>
  value === undefined
    ? {}
    : typeof value === 'object' && value !== null
      ? (value as Partial<T>)
      : fail('InvalidArgument', `${what} ${show(value)} is not an options object`)

const fn = <F>(what: string, f: unknown): F => (typeof f === 'function' ? (f as F) : fail('InvalidArgument', `${what} ${show(f)} is not a function`))

const linkParams = (value: unknown, base: LinkParams): LinkParams => {
  const o = options<LinkOptions>('link options', value)
  let { min, max } = base
  if (o.latency !== undefined) {
    const latency = o.latency as unknown
    if (typeof latency === 'object' && latency !== null) {
      const range = latency as { min?: unknown; max?: unknown }
      const field = (name: 'min' | 'max'): number =>
        isNumber(range[name]) && Number.isInteger(range[name]) && range[name] >= 0 && range[name] <= maxDelay
          ? range[name]
          : fail('TimeOutOfRange', `latency ${show(latency)}: ${name} ${show(range[name])} is not a whole number of ms in [0, ${maxDelay}]`)
      min = field('min')
      max = field('max')
      if (max < min) fail('TimeOutOfRange', `latency ${show(latency)}: max ${show(max)} is not in [min ${show(min)}, ${maxDelay}]`)
    } else min = max = wholeMs('latency', latency)
  }
  return {
    min,
    max,
    loss: o.loss === undefined ? base.loss : probability('loss', o.loss),
    duplicate: o.duplicate === undefined ? base.duplicate : probability('duplicate', o.duplicate),
    reorder: o.reorder === undefined ? base.reorder : probability('reorder', o.reorder),
  }
}

const skewOf = (value: unknown): { offset: number | undefined; drift: number | undefined } => {
  const o = options<Skew>('skew', value)
  const offset =
    o.offset === undefined || (isNumber(o.offset) && Math.abs(o.offset) <= maxOffset)
      ? o.offset
      : fail('TimeOutOfRange', `offset ${show(o.offset)} is not a number of ms in [-${maxOffset}, ${maxOffset}]`)
  const drift =
    o.drift === undefined || (isNumber(o.drift) && o.drift > -1 && o.drift < 1)
      ? o.drift
      : fail('InvalidArgument', `drift ${show(o.drift)} is not a rate in (-1, 1)`)
  return { offset, drift }
}

const hostOf = <M>(sim: Simulation<M>, name: unknown): HostState<M> =>
  (typeof name === 'string' ? sim.hosts.get(name) : undefined) ??
  fail('InvalidArgument', `${show(name)} is not a host of this simulation (hosts: ${[...sim.hosts.keys()].map(show).join(', ') || 'none'})`)

/** A host's context: a class, so that recognising one is a single check on the hot path. */
class Context<M> implements Host<M> {
  constructor(
    readonly name: string,
    readonly sim: Simulation<M>,
    readonly state: HostState<M>,
    readonly incarnation: number,
  ) {}
}

const contextOf = <M>(host: unknown): Host<M> =>
  host instanceof Context ? (host as Host<M>) : fail('InvalidArgument', `${show(host)} is not a host context (the value a host's boot function receives)`)

const simOf = <M>(source: unknown): Simulation<M> =>
  typeof source === 'object' && source !== null && 'wire' in source && 'hosts' in source
    ? (source as Simulation<M>)
    : contextOf<M>(source).sim

// Creation.

const direct: Enter = (_host, f) => f()

/** @internal Builds a simulation on `clock` from checked options. */
export const build = <M>(clock: SimulationClock, opts: SimulationOptions): Simulation<M> => {
  const buggify = opts.buggify === true ? {} : opts.buggify === false || opts.buggify === undefined ? undefined : opts.buggify
  return {
    clock,
    random: Random.create(opts.seed),
    hosts: new Map(),
    order: [],
    defaults: linkParams(opts.network, { min: 1, max: 1, loss: 0, duplicate: 0, reorder: 0 }),
    wire: 0,
    batch:
      opts.batch === true
        ? { wheel: TW.create<Message<M>>({ alarmPrecision: 1, start: clock.now }), armed: undefined, armedAt: Infinity, flushing: false }
        : undefined,
    sent: 0,
    log: opts.log === false ? undefined : [],
    buggify:
      buggify === undefined
        ? undefined
        : { activate: probability('buggify.activate', buggify.activate ?? 0.25), fire: probability('buggify.fire', buggify.fire ?? 0.25) },
    faults: new Map(),
    enter: direct,
    uninstall: undefined,
  }
}

/** @internal Checks `create`'s and `install`'s options, refusing before any clock is made. */
export const checkOptions = (value: unknown): SimulationOptions => {
  if (typeof value !== 'object' || value === null) fail('InvalidArgument', `simulation options ${show(value)} is not an object with a seed`)
  const o = value as Partial<SimulationOptions>
  if (!isNumber(o.seed) || !Number.isInteger(o.seed) || o.seed < -(2 ** 31) || o.seed > 2 ** 31 - 1) {
    fail('InvalidArgument', `seed ${show(o.seed)} is not an integer in [-2147483648, 2147483647]`)
  }
  if (o.now !== undefined && !(isNumber(o.now) && Math.abs(o.now) <= maxOffset)) {
    fail('TimeOutOfRange', `now ${show(o.now)} is not a time in ms in [-${maxOffset}, ${maxOffset}]`)
  }
  linkParams(o.network, { min: 1, max: 1, loss: 0, duplicate: 0, reorder: 0 })
  for (const key of ['log', 'batch'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean') fail('InvalidArgument', `${key} ${show(o[key])} is not a boolean`)
  }
  if (o.buggify !== undefined && typeof o.buggify !== 'boolean') {
    const b = options<BuggifyOptions>('buggify', o.buggify)
    if (b.activate !== undefined) probability('buggify.activate', b.activate)
    if (b.fire !== undefined) probability('buggify.fire', b.fire)
  }
  const clock = o.clock as Partial<SimulationClock> | undefined
  if (clock !== undefined && (typeof clock.setTimeout !== 'function' || typeof clock.clearTimeout !== 'function' || typeof clock.tick !== 'function')) {
    fail('InvalidArgument', `clock ${show(o.clock)} is not a fake-timers clock`)
  }
  return o as SimulationOptions
}

/**
 * A simulation on a new `timing-wheel/fake-timers` clock (or `options.clock`), not installed:
 * globals are untouched. See `install` for one whose `Date`, timers and randomness are the program's.
 *
 * @example
 * const sim = create<string>({ seed: 1, network: { latency: { min: 5, max: 50 }, loss: 0.01 } })
 */
export const create = <M = unknown>(opts: SimulationOptions): Simulation<M> => {
  const checked = checkOptions(opts)
  return build<M>(checked.clock ?? createClock(checked.now ?? 0), checked)
}

// Hosts.

const bootHost = <M>(sim: Simulation<M>, h: HostState<M>): void => {
  const context: Host<M> = new Context(h.name, sim, h, h.incarnation)
  h.context = context
  h.up = true
  h.paused = false
  h.value = sim.enter(context as Host<unknown>, () => h.boot(context))
}

/**
 * Adds host `name`, booted now by `boot` (and again at every `restart`): `boot` receives the
 * host's context, sets its message handler with `onMessage` and its timers, and returns its
 * state (`state` reads it). Throws `InvalidArgument` for a name in use or a `boot` that is
 * not a function, and for a bad skew (`TimeOutOfRange` for the offset).
 *
 * @example
 * addHost(sim, 'server', (host) => {
 *   onMessage(host, (from, message) => send(host, from, `echo ${message}`))
 *   return { started: now(host) }
 * }, { offset: 250, drift: 1e-3 })
 */
export const addHost = <M, S>(sim: Simulation<M>, name: string, boot: Boot<M, S>, skew?: Skew): Host<M> => {
  if (typeof name !== 'string' || name === '') fail('InvalidArgument', `host name ${show(name)} is not a non-empty string`)
  if (sim.hosts.has(name)) fail('InvalidArgument', `host name ${show(name)} is in use (hosts: ${[...sim.hosts.keys()].map(show).join(', ')})`)
  fn('boot', boot)
  const { offset, drift } = skewOf(skew)
  const now = sim.clock.now
  const h: HostState<M> = {
    name,
    index: sim.order.length,
    boot: boot as Boot<M, unknown>,
    up: false,
    paused: false,
    incarnation: 0,
    context: undefined as unknown as Host<M>,
    value: undefined,
    receive: undefined,
    base: now + (offset ?? 0),
    anchor: now,
    rate: 1 + (drift ?? 0),
    drift: drift ?? 0,
    monoBase: 0,
    nextTimer: 0,
    timers: new Map(),
    stalled: [],
    links: [],
  }
  sim.hosts.set(name, h)
  sim.order.push(h)
  sim.log?.push({ kind: 'host', at: now, host: name, offset: offset ?? 0, drift: drift ?? 0 })
  bootHost(sim, h)
  return h.context
}

/** The names of the hosts, in the order they were added. */
export const hosts = <M>(sim: Simulation<M>): readonly string[] => sim.order.map((h) => h.name)

/** What host `name`'s boot returned, for its current incarnation; `none` while it is crashed. */
export const state = <S = unknown, M = unknown>(sim: Simulation<M>, name: string): O.Option<S> => {
  const h = hostOf(sim as Simulation<unknown>, name)
  return h.up ? O.some(h.value as S) : O.none
}

/** Whether host `name` is up (not crashed) and whether it is paused. */
export const status = <M>(
  sim: Simulation<M>,
  name: string,
): {
  /** Not crashed. */
  readonly up: boolean
  /** Paused (stopped the world) and not yet resumed. */
  readonly paused: boolean
} => {
  const h = hostOf(sim as Simulation<unknown>, name)
  return { up: h.up, paused: h.paused }
}

const live = <M>(host: Host<M>): boolean => host.state.incarnation === host.incarnation && host.state.up

/** Sets the host's message handler (one a host; a later call replaces it). */
export const onMessage = <M>(host: Host<M>, handler: (from: string, message: M) => void): void => {
  const ctx = contextOf<M>(host)
  fn('handler', handler)
  if (live(ctx)) ctx.state.receive = handler
}

/** The host's own wall-clock time: what `Date.now()` reads in its code once installed (whole ms). */
export const now = <M>(host: Host<M>): number => {
  const h = contextOf(host).state
  return Math.floor(h.base + (host.sim.clock.now - h.anchor) * h.rate)
}

/**
 * The host's monotonic clock (its `performance.now()`): ms since it was added, at its
 * drift, untouched by offset changes. What a lease or a timeout should be measured with.
 */
export const monotonic = <M>(host: Host<M>): number => {
  const h = contextOf(host).state
  return h.monoBase + (host.sim.clock.now - h.anchor) * h.rate
}

// Host timers: the clock's, remembered by the host so that a crash clears them.

/** @internal Runs `f` as host work now, or when the host resumes if it is paused; nothing if that incarnation is gone. */
export const runAsHost = <M>(sim: Simulation<M>, h: HostState<M>, incarnation: number, f: () => void): void => {
  if (h.incarnation !== incarnation || !h.up) return
  if (h.paused) h.stalled.push(f)
  else sim.enter(h.context as Host<unknown>, f)
}

/** @internal */
export const trueDelay = (h: HostState<unknown>, ms: number): number => Math.ceil(ms / h.rate)

/**
 * Calls `f` after `ms` of the host's time (`ms / (1 + drift)` true ms, rounded up), unless
 * the host crashes first; a paused host runs it when it resumes. Returns an id for
 * `clearTimeout`. Throws `TimeOutOfRange` for `ms` outside [0, 2^31 - 1].
 */
export const setTimeout = <M>(host: Host<M>, f: () => void, ms: number): number => {
  const ctx = contextOf<unknown>(host)
  fn('callback', f)
  checkDelay('delay', ms)
  if (!live(ctx)) return 0
  const { sim, state: h, incarnation } = ctx
  const id = ++h.nextTimer
  const run = (): void => {
    if (h.timers.delete(id)) f()
  }
  h.timers.set(
    id,
    sim.clock.setTimeout(() => runAsHost(sim, h, incarnation, run), trueDelay(h, ms)),
  )
  return id
}

/** Calls `f` every `ms` of the host's time, re-armed as it starts (as Node's); a stall runs it once, late. */
export const setInterval = <M>(host: Host<M>, f: () => void, ms: number): number => {
  const ctx = contextOf<unknown>(host)
  fn('callback', f)
  checkDelay('period', ms)
  if (!live(ctx)) return 0
  const { sim, state: h, incarnation } = ctx
  const id = ++h.nextTimer
  const arm = (): void => {
    h.timers.set(
      id,
      sim.clock.setTimeout(() => runAsHost(sim, h, incarnation, run), Math.max(1, trueDelay(h, ms))),
    )
  }
  const run = (): void => {
    if (!h.timers.has(id)) return
    arm()
    f()
  }
  arm()
  return id
}

/** Cancels a timeout or interval of this host; an unknown id is a no-op. */
export const clearTimeout = <M>(host: Host<M>, id: number): void => {
  const h = contextOf<unknown>(host).state
  const handle = h.timers.get(id)
  if (handle === undefined) return
  h.timers.delete(id)
  host.sim.clock.clearTimeout(handle)
}

// The network.

const linkOf = <M>(sim: Simulation<M>, from: HostState<M>, to: HostState<M>): Link<M> =>
  (from.links[to.index] ??= { ...sim.defaults, partitioned: false, held: false, heldQueue: [], fifoAt: -Infinity })

const record = <M>(sim: Simulation<M>, m: Message<M>, outcome: 'delivered' | 'dropped', reason?: DropReason): void => {
  if (sim.log === undefined) return
  const entry: MessageEntry<M> = {
    kind: 'message',
    id: m.id,
    from: m.from.name,
    to: m.to.name,
    message: m.message,
    sentAt: m.sentAt,
    at: sim.clock.now,
    duplicate: m.duplicate,
    outcome,
  }
  sim.log.push(reason === undefined ? entry : { ...entry, reason })
}

/**
 * Puts a message on the wire: a clock timer of its own at its arrival time. Each arrival is
 * then a macrotask, as a socket's is (microtasks and `await`s run between two), ordered
 * with the hosts' timers by time and then by when it was sent.
 */
const enqueue = <M>(sim: Simulation<M>, m: Message<M>, at: number): void => {
  sim.wire++
  const batch = sim.batch
  if (batch === undefined) {
    sim.clock.setTimeout(land, at - sim.clock.now, sim, m)
    return
  }
  TW.add(batch.wheel, Math.max(at, TW.now(batch.wheel)), m)
  if (!batch.flushing && at < batch.armedAt) arm(sim, batch, at)
}

/** Batched: the one clock timer, at the earliest arrival. */
const arm = <M>(sim: Simulation<M>, batch: Batch<M>, at: number): void => {
  if (batch.armed !== undefined) sim.clock.clearTimeout(batch.armed)
  batch.armedAt = at
  batch.armed = sim.clock.setTimeout(flush, at - sim.clock.now, sim, batch)
}

/**
 * Batched: delivers everything due, in order, including what the handlers send with no
 * latency; then re-arms. A handler that throws does not stop the batch: the first error is
 * rethrown at its end, as a clock rethrows after running the other due timers.
 */
const flush = <M>(sim: Simulation<M>, batch: Batch<M>): void => {
  batch.armed = undefined
  batch.armedAt = Infinity
  batch.flushing = true
  const now = sim.clock.now
  const due: Array<Message<M>> = []
  const take = (alarm: TW.Alarm<Message<M>>): void => {
    due.push(TW.alarmValue(batch.wheel, alarm))
  }
  let failed = false
  let error: unknown
  for (;;) {
    TW.advanceClock(batch.wheel, now, take)
    TW.firePastAlarms(batch.wheel, take)
    if (due.length === 0) break
    for (const m of due) {
      try {
        land(sim, m)
      } catch (e) {
        if (!failed) error = e
        failed = true
      }
    }
    due.length = 0
  }
  batch.flushing = false
  const k = TW.minAlarmIntervalNum(batch.wheel)
  if (O.isSome(k)) arm(sim, batch, TW.intervalNumStart(batch.wheel, k.value))
  if (failed) throw error
}

const land = <M>(sim: Simulation<M>, m: Message<M>): void => {
  sim.wire--
  arrive(sim, m)
}

/** A message reaches the far end of its link: the checks a real network would make on arrival. */
const arrive = <M>(sim: Simulation<M>, m: Message<M>): void => {
  const link = linkOf(sim, m.from, m.to)
  if (link.partitioned) return record(sim, m, 'dropped', 'partition')
  if (m.from.incarnation !== m.fromIncarnation || m.to.incarnation !== m.toIncarnation || !m.to.up) {
    return record(sim, m, 'dropped', 'crash')
  }
  if (link.held) {
    link.heldQueue.push(m)
    return
  }
  const h = m.to
  if (h.paused) {
    h.stalled.push(m)
    return
  }
  const receive = h.receive
  if (receive === undefined) return record(sim, m, 'dropped', 'no handler')
  record(sim, m, 'delivered')
  if (sim.enter === direct) receive(m.from.name, m.message)
  else sim.enter(h.context as Host<unknown>, () => receive(m.from.name, m.message))
}

const latency = (sim: Simulation<unknown>, link: LinkParams): number =>
  link.min === link.max ? link.min : Random.int(sim.random, link.min, link.max)

const transmit = <M>(sim: Simulation<M>, link: Link<M>, m: Message<M>): void => {
  const now = sim.clock.now
  if (link.loss > 0 && Random.chance(sim.random, link.loss)) return record(sim, m, 'dropped', 'loss')
  let at = now + latency(sim as Simulation<unknown>, link)
  if (link.reorder > 0 && Random.chance(sim.random, link.reorder)) at += latency(sim as Simulation<unknown>, link)
  else at = link.fifoAt = Math.max(at, link.fifoAt)
  enqueue(sim, m, at)
}

/**
 * Sends `message` from the host to host `to` over their link: lost, delayed, duplicated or
 * reordered as the link says, dropped if the link is partitioned now or on arrival, or if
 * either end crashes before it arrives. A crashed host's context sends nothing.
 * Throws `InvalidArgument` for an unknown host. Constant time.
 */
export const send = <M>(host: Host<M>, to: string, message: M): void => {
  const ctx = contextOf<M>(host)
  const { sim, state: from } = ctx
  const target = hostOf(sim, to)
  const m: Message<M> = {
    id: ++sim.sent,
    from,
    to: target,
    fromIncarnation: from.incarnation,
    toIncarnation: target.incarnation,
    message,
    sentAt: sim.clock.now,
    duplicate: false,
  }
  if (!live(ctx)) return record(sim, m, 'dropped', 'stale')
  const link = linkOf(sim, from, target)
  if (link.partitioned) return record(sim, m, 'dropped', 'partition')
  transmit(sim, link, m)
  if (link.duplicate > 0 && Random.chance(sim.random, link.duplicate)) transmit(sim, link, { ...m, duplicate: true })
}

/** Messages sent and not yet delivered or dropped: in flight, due, held or stalled. */
export const inFlight = <M>(sim: Simulation<M>): number => {
  const s = sim as Simulation<unknown>
  let n = s.wire
  for (const h of s.order) {
    for (const link of h.links) n += link?.heldQueue.length ?? 0
    for (const entry of h.stalled) if (typeof entry !== 'function') n++
  }
  return n
}

/**
 * The log: every copy of every message delivered or dropped, every event, fault and host
 * added, in the order they happened. Empty when made with `log: false`.
 *
 * @example
 * const delivered = log(sim).filter((e) => e.kind === 'message' && e.outcome === 'delivered').length
 */
export const log = <M>(sim: Simulation<M>): ReadonlyArray<LogEntry<M>> => sim.log ?? []

/**
 * The log's message entries only, in order.
 *
 * @example
 * const lost = messages(sim).filter((e) => e.reason === 'loss').length
 */
export const messages = <M>(sim: Simulation<M>): ReadonlyArray<MessageEntry<M>> =>
  (sim.log ?? []).filter((e): e is MessageEntry<M> => e.kind === 'message')

/**
 * Adds an application event to the log, at the true time: from host code through its
 * context (the entry names the host), or from outside through the simulation. Throws
 * `InvalidArgument` for a `name` that is not a string. Nothing is kept with `log: false`.
 *
 * @example
 * onMessage(host, (from, m) => event(host, 'got', { from, m }))
 */
export const event = <M>(source: Simulation<M> | Host<M>, name: string, data?: unknown): void => {
  const sim = simOf<unknown>(source)
  if (typeof name !== 'string') fail('InvalidArgument', `event name ${show(name)} is not a string`)
  if (sim.log === undefined) return
  const host = source instanceof Context ? { host: source.name } : {}
  sim.log.push(data === undefined ? { kind: 'event', at: sim.clock.now, ...host, name } : { kind: 'event', at: sim.clock.now, ...host, name, data })
}

/** Logs a fault call. */
const fault = <M>(sim: Simulation<M>, action: FaultAction, hosts: readonly string[], extra?: { oneWay?: boolean; offset?: number; drift?: number }): void => {
  sim.log?.push({ kind: 'fault', at: sim.clock.now, action, hosts, ...extra })
}

/** The hosts and direction of a link fault, for its log entry. */
const linkFault = <M>(sim: Simulation<M>, action: FaultAction, a: string, b: string, direction: unknown): void => {
  fault(sim, action, [a, b], { oneWay: (direction as Direction | undefined)?.oneWay === true })
}

/** Which way a link operation goes: both by default, or `from` to `to` only. */
export interface Direction {
  /** Only the link from the first host to the second; default false (both ways). */
  readonly oneWay?: boolean
}

const links = <M>(sim: Simulation<M>, a: string, b: string, direction: unknown): Array<Link<M>> => {
  const from = hostOf(sim, a)
  const to = hostOf(sim, b)
  const oneWay = options<Direction>('direction', direction).oneWay === true
  return oneWay || from === to ? [linkOf(sim, from, to)] : [linkOf(sim, from, to), linkOf(sim, to, from)]
}

/** Sets the latency, loss, duplication and reordering of the link from `a` to `b` and back (or one way); other fields stay. */
export const link = <M>(sim: Simulation<M>, a: string, b: string, linkOptions: LinkOptions, direction?: Direction): void => {
  const ls = links(sim, a, b, direction)
  const params = ls.map((l) => linkParams(linkOptions, l))
  ls.forEach((l, i) => Object.assign(l, params[i]))
  linkFault(sim, 'link', a, b, direction)
}

/** Cuts the link between `a` and `b` (or from `a` to `b` only): messages sent or arriving while cut are dropped. */
export const partition = <M>(sim: Simulation<M>, a: string, b: string, direction?: Direction): void => {
  for (const l of links(sim, a, b, direction)) l.partitioned = true
  linkFault(sim, 'partition', a, b, direction)
}

/** Heals the cut between `a` and `b` (or one way); without hosts, every cut. */
export const heal = <M>(sim: Simulation<M>, a?: string, b?: string, direction?: Direction): void => {
  if (a === undefined && b === undefined) {
    for (const h of sim.order) for (const l of h.links) if (l !== undefined) l.partitioned = false
    return fault(sim, 'heal', [])
  }
  for (const l of links(sim, a as string, b as string, direction)) l.partitioned = false
  linkFault(sim, 'heal', a as string, b as string, direction)
}

/** Holds the messages arriving on the link between `a` and `b` (or one way) until `release`. */
export const hold = <M>(sim: Simulation<M>, a: string, b: string, direction?: Direction): void => {
  for (const l of links(sim, a, b, direction)) l.held = true
  linkFault(sim, 'hold', a, b, direction)
}

/** Releases a held link: its held messages arrive now, in the order they reached it. */
export const release = <M>(sim: Simulation<M>, a: string, b: string, direction?: Direction): void => {
  const ls = links(sim, a, b, direction)
  linkFault(sim, 'release', a, b, direction)
  for (const l of ls) {
    l.held = false
    const queue = l.heldQueue
    l.heldQueue = []
    for (const m of queue) enqueue(sim, m, sim.clock.now)
  }
}

// Faults on hosts.

/**
 * Crashes host `name`: its timers and stalled work go, its messages in flight both ways
 * are dropped when they arrive, its state is gone; it stays down until `restart`. A no-op
 * on a crashed host.
 */
export const crash = <M>(sim: Simulation<M>, name: string): void => {
  const h = hostOf(sim, name)
  fault(sim, 'crash', [name])
  down(sim, h)
}

/** Takes a host down: see `crash`. */
const down = <M>(sim: Simulation<M>, h: HostState<M>): void => {
  if (!h.up) return
  h.up = false
  h.paused = false
  h.incarnation++
  for (const handle of h.timers.values()) sim.clock.clearTimeout(handle)
  h.timers.clear()
  for (const entry of h.stalled) if (typeof entry !== 'function') record(sim, entry, 'dropped', 'crash')
  h.stalled = []
  h.receive = undefined
  h.value = undefined
}

/** Boots host `name` again with its boot function (crashing it first if it is up). Its clock keeps its skew. */
export const restart = <M>(sim: Simulation<M>, name: string): void => {
  const h = hostOf(sim, name)
  fault(sim, 'restart', [name])
  down(sim, h)
  bootHost(sim, h)
}

/** Stops the world on host `name`: nothing of it runs (its clock goes on) until `resume`. */
export const pause = <M>(sim: Simulation<M>, name: string): void => {
  const h = hostOf(sim, name)
  fault(sim, 'pause', [name])
  if (h.up) h.paused = true
}

/** Resumes host `name`: what came due while it was paused runs, in order, one macrotask each. */
export const resume = <M>(sim: Simulation<M>, name: string): void => {
  const h = hostOf(sim, name)
  fault(sim, 'resume', [name])
  if (!h.paused) return
  h.paused = false
  const stalled = h.stalled
  h.stalled = []
  const incarnation = h.incarnation
  for (const entry of stalled) {
    if (typeof entry === 'function') sim.clock.setTimeout(() => runAsHost(sim, h, incarnation, entry), 0)
    else enqueue(sim, entry, sim.clock.now)
  }
}

/** Sets host `name`'s clock offset (host time minus true time, now) and drift, from now on; an omitted field keeps its value. */
export const skew = <M>(sim: Simulation<M>, name: string, to: Skew): void => {
  const h = hostOf(sim, name)
  const { offset, drift } = skewOf(to)
  const t = sim.clock.now
  const current = h.base + (t - h.anchor) * h.rate - t
  h.monoBase += (t - h.anchor) * h.rate
  h.base = t + (offset ?? current)
  h.anchor = t
  if (drift !== undefined) {
    h.rate = 1 + drift
    h.drift = drift
  }
  fault(sim, 'skew', [name], { offset: offset ?? current, drift: h.drift })
}

// Randomness and fault points.

/** A float in [0, 1) from the simulation's generator. */
export const random = <M>(source: Simulation<M> | Host<M>): number =>
  Random.float(simOf<unknown>(source).random)

/** An integer in [min, max] from the simulation's generator; throws `InvalidArgument` unless both are safe integers, min <= max. */
export const integer = <M>(source: Simulation<M> | Host<M>, min: number, max: number): number => {
  const sim = simOf<unknown>(source)
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
    fail('InvalidArgument', `integer(${show(min)}, ${show(max)}): the bounds are not safe integers with min <= max`)
  }
  return Random.int(sim.random, min, max)
}

/**
 * Whether fault point `name` fires now (FoundationDB's `BUGGIFY`): always false unless the
 * simulation was made with `buggify`; otherwise the point is enabled for the whole run
 * with chance `activate` the first time it is asked (or as `setFault` set it), and an
 * enabled point fires with chance `fire` each time.
 */
export const buggify = <M>(source: Simulation<M> | Host<M>, name: string): boolean => {
  const sim = simOf<unknown>(source)
  if (typeof name !== 'string') fail('InvalidArgument', `fault point ${show(name)} is not a string`)
  let p = sim.faults.get(name)
  if (p === undefined) {
    if (sim.buggify === undefined) return false
    p = Random.chance(sim.random, sim.buggify.activate) ? sim.buggify.fire : 0
    sim.faults.set(name, p)
  }
  return Random.chance(sim.random, p)
}

/** Fixes fault point `name` to fire with chance `p` each time it is asked, buggify on or off. */
export const setFault = <M>(sim: Simulation<M>, name: string, p: number): void => {
  if (typeof name !== 'string') fail('InvalidArgument', `fault point ${show(name)} is not a string`)
  ;(sim as Simulation<unknown>).faults.set(name, probability(`fault point ${show(name)}'s chance`, p))
}

// Running.

/** Runs the simulation `ms` forward (`clock.tick`): timers, messages and microtasks of the fake clock. */
export const run = <M>(sim: Simulation<M>, ms: number): void => {
  sim.clock.tick(checkDelayLong(ms))
}

/** The same, letting promises settle between timers (`clock.tickAsync`): for `async` host code. */
export const runAsync = async <M>(sim: Simulation<M>, ms: number): Promise<void> => {
  await sim.clock.tickAsync(checkDelayLong(ms))
}

const checkDelayLong = (ms: unknown): number =>
  isNumber(ms) && ms >= 0 && ms <= maxOffset ? ms : fail('TimeOutOfRange', `run ${show(ms)} is not a number of ms in [0, ${maxOffset}]`)
