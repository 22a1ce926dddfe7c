/**
 * `install`: a simulation whose clock is installed on the process's global (fake-timers'
 * `install`: timers, `Date`, `performance`, microtasks, Node's `timers`), and whose
 * generator is the program's randomness: `Math.random`, and `crypto.getRandomValues` and
 * `crypto.randomUUID` of the global Web Crypto object. `uninstall` puts every original back.
 *
 * Host time. Host code runs inside an `AsyncLocalStorage` context holding its host (every
 * boot, timer and delivery is entered so, and Node carries the context across `await`s and
 * promise callbacks), and the installed `Date` reads it: inside a host, `Date.now()` and
 * `new Date()` are that host's skewed time (`now(host)`), outside one the true time (madsim
 * and turmoil give every node the one simulated clock; skew is what Jepsen's clock nemesis
 * adds). `performance.now()` stays true elapsed time,
 * as a monotonic clock is not the wall clock. The global `setTimeout`, `setInterval`,
 * `setImmediate`, `queueMicrotask` and `process.nextTick`, called from host code, give
 * their callback to the host, as madsim's tasks belong to their node: it runs in the host's
 * context, waits while the host is paused, never runs once the host has crashed, and a
 * delay is the host's time (scaled by its drift). A crashed host's global timers stay on
 * the clock until due, then do nothing; `clearTimeout` works on them as usual.
 *
 * `getRandomValues` keeps its contract: an argument it would refuse (not an integer typed
 * array, more than 65536 bytes) is passed to the original, which throws its own error.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { TimingWheelError, show } from '../errors.js'
import { install as installClock } from '../fake-timers/index.js'
import { immediateNow, ticking } from '../fake-timers/clock.js'
import * as Random from './random.js'
import { maxDelay } from './checks.js'
import type { Registry } from './preload.js'
import { type Host, type HostState, type Simulation, type SimulationOptions, build, checkOptions, now, runAsHost, trueDelay } from './simulation.js'

/**
 * `install`'s options: those of `create` but `clock`.
 *
 * @example
 * const options: InstallOptions = { seed: 7, now: Date.UTC(2024, 0, 1), onError: 'crash' }
 * const sim = install(options)
 */
export type InstallOptions = Omit<SimulationOptions, 'clock'>

const integerArrays = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  BigInt64Array,
  BigUint64Array,
]

/** The global functions whose callbacks, scheduled from host code, belong to that host. */
const hostScoped = [
  ['global', 'setTimeout'],
  ['global', 'setInterval'],
  ['global', 'setImmediate'],
  ['global', 'queueMicrotask'],
  ['process', 'nextTick'],
] as const

/** Puts `value` at `object[key]` and returns what puts the original back (deleting it where it was not an own property). */
const patch = (object: object, key: string, value: unknown): (() => void) => {
  const own = Object.getOwnPropertyDescriptor(object, key)
  Object.defineProperty(object, key, { value, writable: true, configurable: true, enumerable: own?.enumerable ?? false })
  return () => {
    if (own === undefined) delete (object as Record<string, unknown>)[key]
    else Object.defineProperty(object, key, own)
  }
}

/**
 * A simulation installed on the global: see the module comment. Throws `InvalidArgument`
 * for bad options (before installing anything) and fake-timers' `TypeError` if a clock is
 * installed already. `uninstall(sim)` undoes it.
 *
 * @example
 * const sim = install({ seed: 7, now: Date.UTC(2024, 0, 1) })
 * try { Math.random() } finally { uninstall(sim) }
 */
export const install = <M = unknown>(opts: InstallOptions): Simulation<M> => {
  const checked = checkOptions(opts)
  if ((checked as SimulationOptions).clock !== undefined) {
    throw new TimingWheelError('InvalidArgument', `install makes its own clock: clock ${show((checked as SimulationOptions).clock)} is not accepted (use create)`)
  }
  const realImmediate = (globalThis as unknown as { setImmediate?: (f: () => void) => unknown }).setImmediate
  const clock = installClock({ now: checked.now ?? 0 })
  const sim = build<M>(clock, checked)
  const store = new AsyncLocalStorage<Host<unknown>>()
  // Host code run by the clock (a timer, an immediate, a delivery) has its nextTicks and
  // microtasks run right after it, in its ms, as Node drains them after each callback
  // (fake-timers runs them before the next timer, at that timer's time). Not inside host
  // code, nor while draining, nor outside a tick (a boot's wait for the next move, as the
  // main script's wait for the loop).
  let depth = 0
  let draining = false
  sim.enter = (host, f) => {
    if (depth > 0 || draining || !ticking(clock)) return store.run(host, f)
    depth++
    let result
    try {
      result = store.run(host, f)
    } finally {
      depth--
    }
    draining = true
    try {
      clock.runMicrotasks()
    } finally {
      draining = false
    }
    return result
  }
  const g = globalThis as unknown as Record<string, unknown>
  const undo: Array<() => void> = [patch(Math, 'random', () => Random.float(sim.random))]
  const crypto = g['crypto'] as (Crypto & Record<string, unknown>) | undefined
  if (crypto !== undefined) {
    const original = crypto.getRandomValues.bind(crypto)
    undo.push(
      patch(crypto, 'getRandomValues', <T extends ArrayBufferView | null>(array: T): T => {
        const ok = array !== null && integerArrays.some((A) => array instanceof A) && array.byteLength <= 65536
        if (!ok) return original(array as never) as T
        Random.fill(sim.random, new Uint8Array(array.buffer, array.byteOffset, array.byteLength))
        return array
      }),
      patch(crypto, 'randomUUID', () => Random.uuid(sim.random)),
    )
  }
  // A host timer whose true delay passes 2^31 - 1 ms (a drift near -1) is a chain of clock
  // timers, each at most that long (a clock, as Node, runs a longer one after 1 ms): `chains`
  // maps the handle returned to the chain's current timer, for `clearTimeout`.
  const chains = new Map<unknown, { current: unknown }>()
  const later = g['setTimeout'] as (...a: unknown[]) => unknown
  const chain = (self: unknown, f: (...a: unknown[]) => void, delay: number, repeat: boolean, args: unknown[]): unknown => {
    const link = { current: undefined as unknown }
    const step = (left: number): void => {
      const ms = Math.min(left, maxDelay)
      link.current = later.call(self, () => {
        if (left > ms) return step(left - ms)
        if (repeat) step(delay)
        else chains.delete(first)
        f(...args)
      }, ms)
    }
    step(delay)
    const first = link.current
    chains.set(first, link)
    return first
  }
  // A host's setImmediate is due in the ms it is called, after the timers due then (Node's
  // check phase follows the timers phase of its loop turn), where fake-timers' rule would make
  // it 1 ms later; one queued by an immediate keeps that rule (it waits for the next turn, and
  // a chain of them cannot hold the clock at one ms), as does one outside a host.
  const soon = immediateNow(clock)
  let inImmediate = false
  // Those immediates are 0 ms timeouts on the clock: clearImmediate clears them as such.
  const nowImmediates = new WeakSet<object>()
  const remember = (set: WeakSet<object>, handle: unknown): unknown => (typeof handle === 'object' && handle !== null && set.add(handle), handle)
  for (const [owner, name] of hostScoped) {
    const target = owner === 'process' ? (g['process'] as Record<string, unknown> | undefined) : g
    const fake = target?.[name]
    if (target === undefined || typeof fake !== 'function') continue
    const scaled = name === 'setTimeout' || name === 'setInterval'
    const immediate = name === 'setImmediate'
    const job = name === 'queueMicrotask' || name === 'nextTick'
    const wrapper = function (this: unknown, f: unknown, ...rest: unknown[]): unknown {
      const host = store.getStore()
      if (host === undefined || typeof f !== 'function') return fake.call(this, f, ...rest)
      const { state: h, incarnation } = host
      // A job (nextTick, queueMicrotask) runs inside the clock's job loop: no drain from it,
      // which would run that loop's jobs again.
      const hosted = job
        ? (...args: unknown[]): void => {
            depth++
            try {
              runAsHost(sim, h as HostState<M>, incarnation, () => f(...args))
            } finally {
              depth--
            }
          }
        : (...args: unknown[]): void => runAsHost(sim, h as HostState<M>, incarnation, () => f(...args))
      if (scaled && typeof rest[0] === 'number' && rest[0] > 0) {
        rest[0] = trueDelay(h as HostState<unknown>, rest[0])
        if ((rest[0] as number) > maxDelay) return chain(this, hosted, rest[0] as number, name === 'setInterval', rest.slice(1))
      }
      if (immediate && soon !== undefined && !inImmediate) {
        return remember(nowImmediates, soon((...args: unknown[]) => {
          inImmediate = true
          try {
            hosted(...args)
          } finally {
            inImmediate = false
          }
        }, ...rest))
      }
      return fake.call(this, hosted, ...rest)
    }
    const { length: _l, name: _n, prototype: _p, ...own } = Object.getOwnPropertyDescriptors(fake)
    undo.push(patch(target, name, Object.defineProperties(wrapper, own)))
  }
  for (const name of ['clearTimeout', 'clearInterval'] as const) {
    const fake = g[name] as ((handle: unknown) => void) | undefined
    if (typeof fake !== 'function') continue
    const wrapper = function (this: unknown, handle: unknown): void {
      const link = chains.get(handle)
      if (link === undefined) return fake.call(this, handle)
      chains.delete(handle)
      fake.call(this, link.current)
    }
    const { length: _l, name: _n, prototype: _p, ...own } = Object.getOwnPropertyDescriptors(fake)
    undo.push(patch(g, name, Object.defineProperties(wrapper, own)))
  }
  const fakeClearImmediate = g['clearImmediate'] as ((handle: unknown) => void) | undefined
  if (typeof fakeClearImmediate === 'function') {
    const wrapper = function (this: unknown, handle: unknown): void {
      if (typeof handle === 'object' && handle !== null && nowImmediates.has(handle)) return clock.clearTimeout(handle as never)
      return fakeClearImmediate.call(this, handle)
    }
    const { length: _l, name: _n, prototype: _p, ...own } = Object.getOwnPropertyDescriptors(fakeClearImmediate)
    undo.push(patch(g, 'clearImmediate', Object.defineProperties(wrapper, own)))
  }
  const registry = g[Symbol.for('timing-wheel/simulation/preload') as unknown as string] as Registry | undefined
  if (registry !== undefined) {
    const process = g['process'] as Record<string, unknown> | undefined
    const installed: Record<string, unknown> = { nextTick: process?.['nextTick'] }
    for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask']) installed[name] = g[name]
    registry.route = (name) => (name.startsWith('clear') || store.getStore() !== undefined ? (installed[name] as (...args: unknown[]) => unknown) : undefined)
    undo.push(() => {
      registry.route = undefined
    })
  }
  if (g['Date'] === clock.Date) {
    const ClockDate = clock.Date
    const hostTime = (): number | undefined => {
      const host = store.getStore()
      return host === undefined ? undefined : now(host)
    }
    const dateNow = (): number => hostTime() ?? ClockDate.now()
    g['Date'] = new Proxy(ClockDate, {
      construct: (target, args, newTarget) => {
        const t = args.length === 0 ? hostTime() : undefined
        return Reflect.construct(target, t === undefined ? args : [t], newTarget) as object
      },
      apply: (target, self, args) => {
        const t = hostTime()
        return t === undefined ? Reflect.apply(target, self, args) : new ClockDate(t).toString()
      },
      get: (target, key, receiver) => (key === 'now' ? dateNow : Reflect.get(target, key, receiver)),
    })
  }
  // Host code's async errors, attributed through the async context (Node runs these
  // listeners in the context of the promise or callback): the policy of `onError`. An error
  // outside every host is left to Node's default when no one else listens.
  const proc = g['process'] as NodeJS.Process | undefined
  if (proc !== undefined && typeof proc.on === 'function') {
    const owned = (error: unknown): boolean => {
      const host = store.getStore()
      if (host === undefined) return false
      const { state: h, incarnation } = host
      if (h.incarnation === incarnation && h.up) {
        if (sim.onError === 'fail') sim.asyncFailure ??= { error }
        else sim.hostError(h as HostState<M>, error)
      }
      return true
    }
    const rejected = (reason: unknown): void => {
      if (!owned(reason) && proc.listenerCount('unhandledRejection') === 1) throw reason
    }
    const uncaught = (error: unknown): void => {
      if (owned(error) || proc.listenerCount('uncaughtException') > 1) return
      console.error(error)
      proc.exit(1)
    }
    proc.on('unhandledRejection', rejected)
    proc.on('uncaughtException', uncaught)
    undo.push(() => {
      proc.off('unhandledRejection', rejected)
      proc.off('uncaughtException', uncaught)
    })
    if (typeof realImmediate === 'function') sim.settle = () => new Promise<void>((resolve) => void realImmediate(resolve))
  }
  sim.uninstall = () => {
    sim.uninstall = undefined
    sim.enter = (_host, f) => f()
    sim.settle = undefined
    for (const f of undo.reverse()) f()
    clock.uninstall()
  }
  return sim
}

/**
 * Undoes `install`: the global's timers, `Date`, `Math.random` and `crypto` are the originals again. A no-op on a simulation not installed.
 *
 * @example
 * const sim = install({ seed: 7 })
 * try { run(sim, 1000) } finally { uninstall(sim) } // the real Date and timers again
 */
export const uninstall = <M>(sim: Simulation<M>): void => {
  sim.uninstall?.()
}
