/**
 * Hosts: adding them, their clocks and timers, and the host faults (crash, restart, pause,
 * resume, skew).
 *
 * Representation.
 *
 * - A host's time is `base + (clock.now - anchor) * rate` (its offset and drift,
 *   re-anchored whenever they change), so a host with drift d measures `ms` of its own
 *   time in `ms / (1 + d)` true ms: its timers are set for that (rounded up, so never early
 *   by the host's clock). Its monotonic clock is `monoBase + (clock.now - anchor) * rate`:
 *   the same drift, none of the offset, re-anchored with the wall clock.
 * - A host's `incarnation` grows at every crash, and the `epoch` of each of its links,
 *   both ways, moves on (what was in flight is then dropped on arrival: network.ts). Its context (`Host`) belongs to one
 *   incarnation; calls through a stale context do nothing (a send is logged as `'stale'`),
 *   so a crashed host's leftover callbacks cannot act.
 * - `timers` maps a host timer's id to its clock timer, so that a crash clears them all.
 * - A paused host runs nothing: its timers and messages queue in `stalled` and run in
 *   arrival order, one clock macrotask each, when it resumes (a message goes back to the
 *   head of its link and is checked again then, as on arrival); a crash drops the
 *   messages stalled.
 * - A host timer longer than a clock's 2^31 - 1 ms (a drift near -1 divides a delay by
 *   almost 0) is a chain of clock timers, `timers` holding the current one.
 *
 * Host code reads its time with `now(host)` and `monotonic(host)`, or, once installed,
 * with `Date` (install.ts): a per-host view of one true clock (madsim's and turmoil's nodes
 * share one clock; skewing it per host is Jepsen's clock nemesis). The host's context is
 * the handle host code acts through (`send`, `setTimeout`, `onMessage`), as turmoil's and
 * madsim's code acts through the host it runs on.
 *
 * Invariants: a crashed host has no timers of its own, no stalled work, no handler and no
 * state; a paused host is up.
 */
import * as O from '#fp-ts/Option.js'
import { show } from '../errors.js'
import { checkDelay, fail, fn, maxDelay, refuseAsync, skewOf } from './checks.js'
import { fault } from './log.js'
import { prepend, redeliver, settle } from './network.js'
import { type Boot, type Host, type HostState, type Link, type Message, type Simulation, type Skew, Context, contextOf, hostOf, live } from './state.js'

/** @internal */
export const bootHost = <M>(sim: Simulation<M>, h: HostState<M>): void => {
  const context: Host<M> = new Context(h.name, sim, h, h.incarnation)
  h.context = context
  h.up = true
  h.paused = false
  let value: unknown
  if (sim.onError === 'fail') value = sim.enter(context as Host<unknown>, () => h.boot(context))
  else {
    try {
      value = sim.enter(context as Host<unknown>, () => h.boot(context))
    } catch (e) {
      return sim.hostError(h, e)
    }
  }
  // A boot that crashed or restarted its host returns a value of a gone incarnation.
  if (context.incarnation === h.incarnation && h.up) h.value = value
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
  if (sim.hosts[name] !== undefined) fail('InvalidArgument', `host name ${show(name)} is in use (hosts: ${sim.order.map((h) => show(h.name)).join(', ')})`)
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
  sim.hosts[name] = h
  sim.order.push(h)
  sim.log?.push({ kind: 'host', at: now, host: name, offset: offset ?? 0, drift: drift ?? 0 })
  bootHost(sim, h)
  return h.context
}

/**
 * The names of the hosts, in the order they were added.
 *
 * @example
 * hosts(sim) // ['server', 'client']
 */
export const hosts = <M>(sim: Simulation<M>): readonly string[] => sim.order.map((h) => h.name)

/**
 * Host `name`'s current context: the one its latest boot received, so that code outside
 * the host acts through the incarnation that is running (the context `addHost` returned
 * goes stale at the first crash). While the host is crashed, it is the crashed
 * incarnation's: sends through it are logged as dropped, `'stale'`. Throws
 * `InvalidArgument` for an unknown host.
 *
 * @example
 * restart(sim, 'server')
 * send(host(sim, 'client'), 'server', 'ping')
 */
export const host = <M>(sim: Simulation<M>, name: string): Host<M> => hostOf(sim, name).context

/**
 * What host `name`'s boot returned, for its current incarnation; `none` while it is crashed.
 *
 * @example
 * addHost(sim, 'server', () => ({ started: 0 }))
 * state(sim, 'server') // some({ started: 0 })
 * crash(sim, 'server')
 * state(sim, 'server') // none
 */
export const state = <S = unknown, M = unknown>(sim: Simulation<M>, name: string): O.Option<S> => {
  const h = hostOf(sim as Simulation<unknown>, name)
  return h.up ? O.some(h.value as S) : O.none
}

/**
 * Whether host `name` is up (not crashed) and whether it is paused.
 *
 * @example
 * pause(sim, 'server')
 * status(sim, 'server') // { up: true, paused: true }
 */
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

/**
 * Sets the host's message handler (one a host; a later call replaces it).
 *
 * @example
 * addHost(sim, 'server', (host) => onMessage(host, (from, message) => send(host, from, `echo ${message}`)))
 */
export const onMessage = <M>(host: Host<M>, handler: (from: string, message: M) => void): void => {
  const ctx = contextOf<M>(host)
  fn('handler', handler)
  if (live(ctx)) ctx.state.receive = handler
}

/**
 * The host's own wall-clock time: what `Date.now()` reads in its code once installed (whole ms).
 *
 * @example
 * addHost(sim, 'a', (host) => ({ booted: now(host) }), { offset: 250 })
 * state(sim, 'a') // some({ booted: 250 }) on a simulation made at now 0
 */
export const now = <M>(host: Host<M>): number => {
  const h = contextOf(host).state
  return Math.floor(h.base + (host.sim.clock.now - h.anchor) * h.rate)
}

/**
 * The host's monotonic clock (its `performance.now()`): ms since it was added, at its
 * drift, untouched by offset changes. What a lease or a timeout should be measured with.
 *
 * @example
 * const started = monotonic(host)
 * setTimeout(host, () => event(host, 'waited', monotonic(host) - started), 100) // logs 100
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
  else if (sim.onError === 'fail') sim.enter(h.context as Host<unknown>, f)
  else {
    try {
      sim.enter(h.context as Host<unknown>, f)
    } catch (e) {
      sim.hostError(h, e)
    }
  }
}

/**
 * @internal What host code of `h` threw, under `onError` 'crash' or 'record': logged as
 * the host's event `'uncaught'`, and with 'crash' the host crashes, as Node would end its
 * process.
 */
export const hostError = <M>(sim: Simulation<M>, h: HostState<M>, error: unknown): void => {
  sim.log?.push(error === undefined ? { kind: 'event', at: sim.clock.now, host: h.name, name: 'uncaught' } : { kind: 'event', at: sim.clock.now, host: h.name, name: 'uncaught', data: error })
  if (sim.onError === 'crash') crash(sim, h.name)
}

/** @internal */
export const trueDelay = (h: HostState<unknown>, ms: number): number => Math.ceil(ms / h.rate)

/**
 * Calls `f` after `ms` of the host's time (`ms / (1 + drift)` true ms, rounded up), unless
 * the host crashes first; a paused host runs it when it resumes. Returns an id for
 * `clearTimeout`. Throws `TimeOutOfRange` for `ms` outside [0, 2^31 - 1].
 *
 * @example
 * const id = setTimeout(host, () => send(host, 'server', 'retry'), 500)
 */
export const setTimeout = <M>(host: Host<M>, f: () => void, ms: number): number => {
  const ctx = contextOf<unknown>(host)
  fn('callback', f)
  checkDelay('delay', ms)
  if (!live(ctx)) return 0
  const { sim, state: h, incarnation } = ctx
  const id = ++h.nextTimer
  const run = (): void => {
    if (!h.timers.delete(id)) return
    const result: unknown = f()
    if (sim.syncRun) refuseAsync(`${show(h.name)}'s timer callback`, result)
  }
  armTimer(sim, h, id, trueDelay(h, ms), () => runAsHost(sim, h, incarnation, run))
  return id
}

/**
 * Arms host timer `id` on the clock `delay` true ms from now, in steps of at most 2^31 - 1
 * ms: a clock, as Node, runs a longer delay after 1 ms, and a host's delay divided by a
 * drift near -1 can be far longer.
 */
const armTimer = (sim: Simulation<unknown>, h: HostState<unknown>, id: number, delay: number, fire: () => void): void => {
  const step = Math.min(delay, maxDelay)
  const next = (): void => {
    if (h.timers.has(id)) armTimer(sim, h, id, delay - step, fire)
  }
  h.timers.set(id, sim.clock.setTimeout(step === delay ? fire : next, step))
}

/**
 * Calls `f` every `ms` of the host's time, re-armed as it starts (as Node's); a stall runs it once, late.
 *
 * @example
 * setInterval(host, () => send(host, 'leader', 'heartbeat'), 50)
 */
export const setInterval = <M>(host: Host<M>, f: () => void, ms: number): number => {
  const ctx = contextOf<unknown>(host)
  fn('callback', f)
  checkDelay('period', ms)
  if (!live(ctx)) return 0
  const { sim, state: h, incarnation } = ctx
  const id = ++h.nextTimer
  const arm = (): void => armTimer(sim, h, id, Math.max(1, trueDelay(h, ms)), () => runAsHost(sim, h, incarnation, run))
  const run = (): void => {
    if (!h.timers.has(id)) return
    arm()
    const result: unknown = f()
    if (sim.syncRun) refuseAsync(`${show(h.name)}'s interval callback`, result)
  }
  arm()
  return id
}

/**
 * Cancels a timeout or interval of this host; an unknown id, or a crashed incarnation's context, is a no-op.
 *
 * @example
 * const id = setTimeout(host, () => send(host, 'server', 'retry'), 500)
 * onMessage(host, () => clearTimeout(host, id))
 */
export const clearTimeout = <M>(host: Host<M>, id: number): void => {
  const ctx = contextOf<unknown>(host)
  if (!live(ctx)) return
  const h = ctx.state
  const handle = h.timers.get(id)
  if (handle === undefined) return
  h.timers.delete(id)
  host.sim.clock.clearTimeout(handle)
}

// Faults on hosts.

/**
 * Crashes host `name`: its timers and stalled work go, its messages in flight both ways
 * are dropped when they arrive, its state is gone; it stays down until `restart`. A no-op
 * on a crashed host.
 *
 * @example
 * crash(sim, 'server')
 * status(sim, 'server') // { up: false, paused: false }
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
  // What is in flight both ways is lost: the links' epochs move on (see network.ts).
  for (const l of h.links) if (l !== undefined) l.epoch++
  for (const o of sim.order) {
    const l = o.links[h.index]
    if (l !== undefined) l.epoch++
  }
  for (const handle of h.timers.values()) sim.clock.clearTimeout(handle)
  h.timers.clear()
  for (const entry of h.stalled) if (typeof entry !== 'function') settle(sim, entry, 'dropped', 'crash')
  h.stalled = []
  h.receive = undefined
  h.value = undefined
}

/**
 * Boots host `name` again with its boot function (crashing it first if it is up). Its clock keeps its skew.
 *
 * @example
 * crash(sim, 'server')
 * run(sim, 1000)
 * restart(sim, 'server') // boots it again: a fresh state and handler
 */
export const restart = <M>(sim: Simulation<M>, name: string): void => {
  const h = hostOf(sim, name)
  fault(sim, 'restart', [name])
  down(sim, h)
  bootHost(sim, h)
}

/**
 * Stops the world on host `name`: nothing of it runs (its clock goes on) until `resume`.
 *
 * @example
 * pause(sim, 'server') // a GC pause: its timers and messages wait
 * run(sim, 2000)
 * resume(sim, 'server')
 */
export const pause = <M>(sim: Simulation<M>, name: string): void => {
  const h = hostOf(sim, name)
  fault(sim, 'pause', [name])
  if (h.up) h.paused = true
}

/**
 * Resumes host `name`: what came due while it was paused runs, in order, one macrotask
 * each; a message stalled goes back on its link ahead of those still on the wire (or at
 * the head of the link's held messages if it is held), so links stay FIFO.
 *
 * @example
 * pause(sim, 'server')
 * run(sim, 2000)
 * resume(sim, 'server') // what came due meanwhile runs now, in order
 */
export const resume = <M>(sim: Simulation<M>, name: string): void => {
  const h = hostOf(sim, name)
  fault(sim, 'resume', [name])
  if (!h.paused) return
  h.paused = false
  const stalled = h.stalled
  h.stalled = []
  const incarnation = h.incarnation
  const byLink = new Map<Link<M>, Array<Message<M>>>()
  for (const entry of stalled) {
    if (typeof entry === 'function') continue
    const l = entry.link
    const ms = byLink.get(l)
    if (ms === undefined) byLink.set(l, [entry])
    else ms.push(entry)
  }
  for (const [l, ms] of byLink) {
    if (l.held) l.heldQueue.unshift(...ms)
    else prepend(l, ms)
  }
  for (const entry of stalled) {
    if (typeof entry === 'function') sim.clock.setTimeout(() => runAsHost(sim, h, incarnation, entry), 0)
    else {
      const l = entry.link
      if (!l.held) redeliver(sim, l)
    }
  }
}

/**
 * Sets host `name`'s clock offset (host time minus true time, now) and drift, from now on; an omitted field keeps its value.
 *
 * @example
 * skew(sim, 'a', { offset: -5000 }) // its clock set back 5 s, drift unchanged
 * skew(sim, 'a', { drift: 1e-4 }) // gains 0.1 ms a second from now
 */
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
