/**
 * The log: one array of entries in the order things happened (messages delivered or
 * dropped, application events, faults, hosts added), each with its `kind` and `at`, the
 * true time. Nothing is kept with `log: false` (`sim.log` is then undefined).
 *
 * Representation: `sim.log`, appended to only. A message entry holds the message itself,
 * an event the caller's data, not copies.
 *
 * Invariants: entries are in the order they were made, so `at` never decreases; every
 * copy of every message ends in the log exactly once, delivered or dropped, unless it is
 * on the wire, held or stalled (network.ts); a refused call logs nothing.
 */
import { show } from '../errors.js'
import { fail } from './checks.js'
import { type Direction, type Host, type Message, type Simulation, Context, simOf } from './state.js'

/**
 * Why a message was not delivered: lost by the link, cut by a partition, an end crashed
 * while it was in flight, the receiver has no handler, or it was sent through a crashed
 * incarnation's context (`'stale'`: logged, never sent), or it was on the wire when the
 * clock was reset (`'reset'`: fake-timers' `reset` drops every timer, and so the wire).
 *
 * @example
 * const partitioned = messages(sim).filter((e) => e.outcome === 'dropped' && e.reason === 'partition').length
 */
export type DropReason = 'loss' | 'partition' | 'crash' | 'no handler' | 'stale' | 'reset'

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

/**
 * What a fault entry did: a fault or its undoing.
 *
 * @example
 * const crashes = log(sim).filter((e) => e.kind === 'fault' && e.action === 'crash').length
 */
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

/** @internal */
export const record = <M>(sim: Simulation<M>, m: Message<M>, outcome: 'delivered' | 'dropped', reason?: DropReason): void => {
  if (sim.log === undefined) return
  const duplicate = m.seq % 2 === 1
  const entry: MessageEntry<M> = {
    kind: 'message',
    id: duplicate ? (m.seq - 1) / 2 : m.seq / 2,
    from: m.link.from.name,
    to: m.link.to.name,
    message: m.message,
    sentAt: m.sentAt,
    at: sim.clock.now,
    duplicate,
    outcome,
  }
  sim.log.push(reason === undefined ? entry : { ...entry, reason })
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
/** @internal */
export const fault = <M>(sim: Simulation<M>, action: FaultAction, hosts: readonly string[], extra?: { oneWay?: boolean; offset?: number; drift?: number }): void => {
  sim.log?.push({ kind: 'fault', at: sim.clock.now, action, hosts, ...extra })
}

/** The hosts and direction of a link fault, for its log entry. */
/** @internal */
export const linkFault = <M>(sim: Simulation<M>, action: FaultAction, a: string, b: string, direction: unknown): void => {
  fault(sim, action, [a, b], { oneWay: (direction as Direction | undefined)?.oneWay === true })
}
