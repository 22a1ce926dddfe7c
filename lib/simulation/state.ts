/**
 * The simulation's state: what a simulation, a host, a link and a message are, and how a
 * host's context is recognised. The operations are in hosts.ts, network.ts, log.ts and
 * simulation.ts; checks.ts refuses bad arguments before any of them changes anything.
 *
 * Representation.
 *
 * - `clock` is the only time: hosts' timers and messages in flight are its timers. True
 *   time is `clock.now` (do not `setSystemTime` it: `skew` hosts instead).
 * - `hosts` maps a name to its `HostState`, `order` holds them in the order added (a host's
 *   `index` is its place there, and `links[to.index]` of a host is its link to `to`).
 * - A host's context (`Host`, a `Context`) belongs to one incarnation of it: `live` is
 *   whether that incarnation is the host's current one and up.
 * - `log` is undefined with `log: false`; otherwise every entry in the order it happened.
 * - `enter` runs host code: directly, or in the host's async context once installed.
 *
 * Invariants: `order[i].index === i`; `hosts` and `order` hold the same hosts; a host's
 * `context.incarnation === incarnation`; a link is `from.links[to.index]` of its `from`.
 */
import type * as VirtualClock from '../sim/virtual-clock.js'
import type { Timer } from '../sim/timer.js'
import { show } from '../errors.js'
import type * as Random from './random.js'
import { fail } from './checks.js'
import type { LogEntry } from './log.js'
import type { Arrivals, FakeTimersState } from './arrivals.js'

/**
 * A link's latency in ms: fixed, or uniform over whole ms in `[min, max]` drawn from the seed.
 *
 * @example
 * const fixed: Latency = 5
 * const uniform: Latency = { min: 10, max: 30 } // a whole ms in [10, 30], drawn from the seed
 */
export type Latency =
  | number
  | {
      /** The least latency, ms. */
      readonly min: number
      /** The greatest, ms (at least `min`). */
      readonly max: number
    }

/**
 * What a directed link does to the messages on it. Probabilities are in [0, 1].
 *
 * @example
 * const lossy: LinkOptions = { latency: { min: 5, max: 50 }, loss: 0.05, duplicate: 0.01, reorder: 0.1 }
 * link(sim, 'a', 'b', lossy)
 */
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

/**
 * A host's clock: `offset` ms ahead of true time, running `1 + drift` times as fast.
 *
 * @example
 * const fast: Skew = { offset: 250, drift: 1e-4 } // 250 ms ahead, gaining 0.1 ms a second
 * addHost(sim, 'a', boot, fast)
 */
export interface Skew {
  /** ms, default 0. */
  readonly offset?: number
  /** In (-1, 1): 1e-4 gains 0.1 ms a second. Default 0. */
  readonly drift?: number
}

/**
 * FoundationDB's BUGGIFY: a fault point is enabled for the run with `activate`'s chance when first asked, then fires with `fire`'s chance each time.
 *
 * @example
 * const sim = create({ seed: 1, buggify: { activate: 0.5, fire: 0.1 } })
 */
export interface BuggifyOptions {
  /** The chance a point is enabled for the run, decided when first asked; default 0.25. */
  readonly activate?: number
  /** The chance an enabled point fires each time it is asked; default 0.25. */
  readonly fire?: number
}

/**
 * What `create` and `install` take; only `seed` is required.
 *
 * @example
 * const options: SimulationOptions = { seed: 42, now: Date.UTC(2024, 0, 1), network: { latency: 5 }, onError: 'crash' }
 * const sim = create<string>(options)
 */
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
   * Deliver the messages due in one ms in one clock timer, in order (default false: each
   * arrival a macrotask of its own). On the package's own clock the default costs no more
   * (it keeps one clock timer a ms too, re-armed for each arrival); on another clock, where
   * each message is then a clock timer, this saves that timer. Microtasks and `await`s of
   * their handlers run after the whole batch, an order Node never produces for two sockets.
   */
  readonly batch?: boolean
  /** Fault points: off (`false`, the default, `buggify` always false), or on with these chances (`true`: 0.25 and 0.25). */
  readonly buggify?: boolean | BuggifyOptions
  /**
   * The clock to run on, instead of a new one: any fake-timers clock (`timing-wheel/fake-timers`,
   * `@sinonjs/fake-timers`, clockArb's exploring clock, whose timer order then varies too).
   */
  readonly clock?: SimulationClock
  /**
   * What an error thrown by host code (boot, message handler, timer callback) does: `'fail'`
   * (the default) lets it out of `run`, as the clock rethrows it; `'crash'` crashes that
   * host, as Node ends the process, and logs it; `'record'` only logs it. The log entry is
   * an event named `'uncaught'` of that host, its data the value thrown. Under `install`,
   * so too a rejection of host code nobody handles and an uncaught exception in host code,
   * attributed to the host through the async context: with 'fail', `runAsync` rejects with
   * it at its end (`run`, which returns before Node reports rejections, throws it when next
   * called).
   */
  readonly onError?: ErrorPolicy
}

/**
 * What an error thrown by host code does: see `SimulationOptions.onError`.
 *
 * @example
 * const sim = create({ seed: 1, onError: 'record' }) // host code's errors are logged as events 'uncaught'
 */
export type ErrorPolicy = 'fail' | 'crash' | 'record'

/**
 * A host's handle to its own incarnation: pass it to `send`, `setTimeout`, `now`, `random`, `buggify`.
 *
 * @example
 * addHost(sim, 'client', (host: Host<string>) => {
 *   setTimeout(host, () => send(host, 'server', `hello from ${host.name}`), 10)
 * })
 */
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

/**
 * Builds a host's state and behaviour; run at `addHost` and at every restart.
 *
 * @example
 * const counter: Boot<string, { count: number }> = (host) => {
 *   const s = { count: 0 }
 *   onMessage(host, () => { s.count++ })
 *   return s
 * }
 * addHost(sim, 'counter', counter)
 */
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

/** @internal */
export interface LinkParams {
  readonly min: number
  readonly max: number
  readonly loss: number
  readonly duplicate: number
  readonly reorder: number
}

/** @internal */
export interface Link<M> extends LinkParams {
  /** Its ends: `from.links[to.index]` is this link. */
  readonly from: HostState<M>
  readonly to: HostState<M>
  partitioned: boolean
  held: boolean
  /** Moved on at every crash of either end (hosts.ts), so that a message knows on arrival whether one came since its send. */
  epoch: number
  heldQueue: Array<Message<M>>
  /** When the last in-order message sent on the link arrives. */
  fifoAt: number
  /** The in-order messages waiting for a token, oldest first from `head` (a deque: slots before `head` are emptied). */
  queue: Array<Message<M> | undefined>
  head: number
  /** How many at the queue's head were put back by `release` or `resume` (older than any on the wire). */
  front: number
}

/** @internal What a clock timer (or with `batch` an alarm) on the wire delivers: a link's oldest in-order message, or one reordered message. */
export type Token<M> = Link<M> | Message<M>

/** @internal A copy of a message on the network; a record the network reuses once its copy is delivered or dropped (network.ts). */
export interface Message<M> {
  /** The link it is sent on (its ends are the link's), kept so that an arrival need not look it up. */
  link: Link<M>
  /**
   * Twice the send's number, plus 1 for the copy the link's duplication made: in-order
   * messages of a link are sent in its order (a duplicate follows its original).
   */
  seq: number
  /** Its link's `epoch` when sent: it is dropped on arrival if either end crashed since. */
  epoch: number
  message: M
  sentAt: number
  /** Sent in order (not drawn to be reordered): its own token gives way to an older message waiting on the link. */
  inOrder: boolean
  /**
   * With `batch`: the token put after it for the same ms (see `Batch`). A record with a
   * negative `seq` stands for a link's token there, its `link`, and is no message.
   */
  next: Message<M> | undefined
}

/**
 * @internal The batched network: the tokens of each arrival ms in a chain through their
 * records' `next`, found by its ms, one clock timer armed at the earliest.
 */
export interface Batch<M> {
  /** The ms of the last flush (or the clock's now when made or when nothing was pending): every chain pending is due at or after it. */
  base: number
  /** How many chains are pending, in `near` and `far`. */
  chains: number
  /**
   * The chains of the ms less than `nearKey.length` after `base`: the ms at slot
   * `ms % nearKey.length` of `nearKey` (NaN for none), its chain's first and last records
   * at the same slot of `nearHead` and `nearTail`. A chain runs in the order put.
   */
  readonly nearKey: Float64Array
  readonly nearHead: Array<Message<M> | undefined>
  readonly nearTail: Array<Message<M> | undefined>
  /** The chains of later ms, by ms. */
  readonly far: Map<number, { readonly head: Message<M>; tail: Message<M> }>
  /** On the package's own clock (hookless): its state, through which `timer` is armed. */
  readonly core: VirtualClock.State | undefined
  /** With `core`: the one clock timer, made at the first arming and re-armed in place. */
  timer: Timer | undefined
  /** With `core`: its `home` when the wire was last found whole: another after a reset (network.ts `afterReset`). */
  home: unknown
  /** With `core`: the clock's state, whose job queue a flush steps past only when empty. */
  readonly queues: FakeTimersState | undefined
  /** On any other clock: the pending clock timer, if any. */
  armed: unknown
  armedAt: number
  flushing: boolean
  /** The chains a flush took, in the order of their ms, to `dueSize` (reused: flushes do not nest; slots past it are stale). */
  readonly due: Array<Message<M> | undefined>
  dueSize: number
  /** The clock timer's callback: delivers what is due. */
  readonly flush: () => void
}

/** Runs host code: in the host's async context once installed (see `install.ts`). */
export type Enter = <R>(host: Host<unknown>, f: () => R) => R

/**
 * What the simulation needs of its clock: any fake-timers clock has it (this package's,
 * `@sinonjs/fake-timers`', clockArb's exploring clock).
 *
 * @example
 * const clock: SimulationClock = FakeTimers.createClock() // @sinonjs/fake-timers' clock
 * const sim = create({ seed: 1, clock })
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

/**
 * A simulation of messages of type `M`. Made by `create` or `install`.
 *
 * @example
 * const sim: Simulation<string> = create<string>({ seed: 1 })
 * sim.clock.now // 0
 */
export interface Simulation<M = unknown> {
  /** The clock everything runs on: to use all of a fake-timers clock, make it and pass it as `clock`. */
  readonly clock: SimulationClock
  /** @internal */
  readonly random: Random.Generator
  /**
   * @internal The hosts by name, in an object without a prototype: V8 finds a key in it in
   * about half the time `Map.get` takes, and each send looks its receiver up.
   */
  readonly hosts: Record<string, HostState<M> | undefined>
  /** @internal */
  readonly order: Array<HostState<M>>
  /** @internal */
  readonly defaults: LinkParams
  /** @internal Messages on the wire (each a clock timer, or in one of `batch`'s chains). */
  wire: number
  /** @internal The callback of the tokens' clock timers: delivers what a token stands for. */
  readonly land: (t: Token<M>) => void
  /** @internal Without `batch`, on the package's own clock: the tokens on the wire by due ms, a clock timer a ms (arrivals.ts). */
  readonly arrivals: Arrivals<M> | undefined
  /** @internal With `batch: true`: the messages on the wire and the one clock timer that delivers them. */
  readonly batch: Batch<M> | undefined
  /** @internal */
  sent: number
  /** @internal The records of messages delivered or dropped, for the next sends to reuse (network.ts). */
  readonly spare: Array<Message<M>>
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
  /** @internal */
  readonly onError: ErrorPolicy
  /** @internal Handles what host code of `h` threw under `onError` 'crash' or 'record' (hosts.ts). */
  hostError: (h: HostState<M>, error: unknown) => void
  /** @internal True while `run` (not `runAsync`) moves the clock: host code returning a promise is then refused. */
  syncRun: boolean
  /** @internal Under `onError` 'fail' with `install`: the first error of a host's async code (a rejection nobody handled, an uncaught exception), thrown by the next run. */
  asyncFailure: { readonly error: unknown } | undefined
  /** @internal With `install`: waits one real macrotask, so that Node reports the rejections of what ran. */
  settle: (() => Promise<void>) | undefined
}

/**
 * Which way a link operation goes: both by default, or `from` to `to` only.
 *
 * @example
 * partition(sim, 'a', 'b', { oneWay: true }) // a's messages to b are cut, b's to a arrive
 */
export interface Direction {
  /** Only the link from the first host to the second; default false (both ways). */
  readonly oneWay?: boolean
}

/** @internal */
export const hostOf = <M>(sim: Simulation<M>, name: unknown): HostState<M> =>
  (typeof name === 'string' ? sim.hosts[name] : undefined) ??
  fail('InvalidArgument', `${show(name)} is not a host of this simulation (hosts: ${sim.order.map((h) => show(h.name)).join(', ') || 'none'})`)

/** A host's context: a class, so that recognising one is a single check on the hot path. */
/** @internal */
export class Context<M> implements Host<M> {
  constructor(
    readonly name: string,
    readonly sim: Simulation<M>,
    readonly state: HostState<M>,
    readonly incarnation: number,
  ) {}
}

/** @internal */
export const contextOf = <M>(host: unknown): Host<M> =>
  host instanceof Context ? (host as Host<M>) : fail('InvalidArgument', `${show(host)} is not a host context (the value a host's boot function receives)`)

/** @internal */
export const simOf = <M>(source: unknown): Simulation<M> =>
  typeof source === 'object' && source !== null && 'wire' in source && 'hosts' in source
    ? (source as Simulation<M>)
    : contextOf<M>(source).sim

/** @internal */
export const direct: Enter = (_host, f) => f()

/** @internal */
export const live = <M>(host: Host<M>): boolean => host.state.incarnation === host.incarnation && host.state.up
