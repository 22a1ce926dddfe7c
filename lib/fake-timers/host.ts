/**
 * What a global object offers to fake, read once when `withGlobal` is called, as
 * fake-timers reads it: which timer functions and objects are present, the originals
 * (`timers`), whether its `setTimeout` returns objects, and the host functions the
 * clocks use to yield to the real event loop (`tickAsync` waits one real macrotask
 * between timers; `shouldAdvanceTime` ticks from a real interval).
 */

import { isTemporal } from './temporal.js'

/** Every name `install` can fake, in fake-timers' order. */
export const fakeableNames = [
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'Date',
  'setImmediate',
  'clearImmediate',
  'hrtime',
  'nextTick',
  'performance',
  'requestAnimationFrame',
  'queueMicrotask',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'Intl',
  'Temporal',
  // Beyond fake-timers 15.5: see abort-signal.ts.
  'AbortSignal.timeout',
] as const

/**
 * A name `install` can fake (fake-timers' `FakeMethod`).
 *
 * @example
 * const toFake: FakeMethod[] = ['setTimeout', 'clearTimeout', 'Date', 'AbortSignal.timeout']
 * const clock = install({ toFake })
 */
export type FakeMethod = (typeof fakeableNames)[number]

/** Which queue a faked job belongs to on Node: `nextTick`'s, or the microtask queue. */
export type JobKind = 'tick' | 'microtask'

/** A global object, read and written by name. */
export type GlobalObject = Record<string, unknown>

type AnyFunction = (...args: never[]) => unknown

/** A global object and what it offers; one per `withGlobal` call. */
export interface Host {
  readonly global: GlobalObject
  readonly present: Readonly<Record<FakeMethod, boolean>>
  /** The originals of what is present, by name: fake-timers' `timers`. */
  readonly timers: Readonly<Partial<Record<FakeMethod, unknown>>>
  /** Whether the global's `setTimeout` returns objects (Node) rather than numbers. */
  readonly returnsObjects: boolean
  readonly NativeDate: DateConstructor
  /** A copy of the global's `Intl`, if it has one. */
  readonly NativeIntl: typeof Intl | undefined
  /** Runs `f` after one real macrotask: `setImmediate` where there is one, else `setTimeout`. */
  readonly later: (f: () => void) => void
  /**
   * Queues `f` on the host's own queue of `kind`: Node's `nextTick` queue (where there is
   * one) or the microtask queue, through the originals read with the host, so a faked job
   * can take its real place among native ones (see `state.ts`).
   */
  readonly native: (kind: JobKind, f: () => void) => void
  readonly setInterval: ((f: () => void, ms: number) => unknown) | undefined
  readonly clearInterval: ((id: unknown) => void) | undefined
  /** Node's `util.promisify.custom`, where the global has a `process`. */
  readonly promisifyCustom: symbol | undefined
  /** The global's `Promise`. */
  readonly Promise: PromiseConstructor
  /** Whether this host is the process's own global, whose `timers` modules install also fakes. */
  readonly isProcessGlobal: boolean
  /** `console.warn`s its first message only: once per host, as fake-timers warns once per `withGlobal`. */
  readonly warnOnce: (message: string) => void
}

const isFunction = (value: unknown): value is AnyFunction => typeof value === 'function'

const noGlobalDate = (): never => {
  throw new Error(
    "The global scope doesn't have a `Date` object (see https://github.com/sinonjs/sinon/issues/1852#issuecomment-419622780)",
  )
}

/**
 * Reads `global` as fake-timers' `withGlobal` does: calls its `setTimeout` once (and
 * clears it) to learn whether timers are objects. Throws an `Error` if it has no `Date`.
 *
 * @example
 * const host = readHost(globalThis as GlobalObject)
 * host.present.setImmediate // true on Node
 */
export const readHost = (global: GlobalObject): Host => {
  const g = global
  const process = g['process'] as { hrtime?: unknown; nextTick?: unknown } | undefined
  let returnsObjects = false
  let probe: unknown
  if (g['setTimeout']) {
    probe = (g['setTimeout'] as (f: () => void, ms: number) => unknown)(() => undefined, 0)
    returnsObjects = typeof probe === 'object'
  }
  const performance = g['performance'] as { now?: unknown } | undefined
  const hrtime = process !== undefined && process !== null && isFunction(process.hrtime)
  const present: Record<FakeMethod, boolean> = {
    setTimeout: Boolean(g['setTimeout']),
    clearTimeout: Boolean(g['clearTimeout']),
    setInterval: Boolean(g['setInterval']),
    clearInterval: Boolean(g['clearInterval']),
    Date: true,
    setImmediate: isFunction(g['setImmediate']),
    clearImmediate: isFunction(g['clearImmediate']),
    hrtime,
    nextTick: process !== undefined && process !== null && isFunction(process.nextTick),
    performance: Boolean(performance) && isFunction(performance?.now),
    requestAnimationFrame: isFunction(g['requestAnimationFrame']),
    queueMicrotask: Object.hasOwn(g, 'queueMicrotask'),
    cancelAnimationFrame: isFunction(g['cancelAnimationFrame']),
    requestIdleCallback: isFunction(g['requestIdleCallback']),
    cancelIdleCallback: isFunction(g['cancelIdleCallback']),
    Intl: Boolean(g['Intl']) && typeof g['Intl'] === 'object',
    Temporal: isTemporal(g['Temporal']),
    'AbortSignal.timeout': isFunction((g['AbortSignal'] as { timeout?: unknown } | undefined)?.timeout),
  }
  if (g['clearTimeout']) (g['clearTimeout'] as (id: unknown) => void)(probe)
  const NativeDate = g['Date'] as DateConstructor | undefined
  if (NativeDate === undefined) noGlobalDate()
  const NativeIntl = present.Intl
    ? (Object.defineProperties(Object.create(null), Object.getOwnPropertyDescriptors(g['Intl'])) as typeof Intl)
    : undefined
  const timers: Partial<Record<FakeMethod, unknown>> = {
    setTimeout: g['setTimeout'],
    clearTimeout: g['clearTimeout'],
    setInterval: g['setInterval'],
    clearInterval: g['clearInterval'],
    Date: NativeDate,
  }
  if (present.setImmediate) timers.setImmediate = g['setImmediate']
  if (present.clearImmediate) timers.clearImmediate = g['clearImmediate']
  if (present.hrtime) timers.hrtime = process!.hrtime
  if (present.nextTick) timers.nextTick = process!.nextTick
  if (present.performance) timers.performance = performance
  if (present.requestAnimationFrame) timers.requestAnimationFrame = g['requestAnimationFrame']
  if (present.queueMicrotask) timers.queueMicrotask = g['queueMicrotask']
  if (present.cancelAnimationFrame) timers.cancelAnimationFrame = g['cancelAnimationFrame']
  if (present.requestIdleCallback) timers.requestIdleCallback = g['requestIdleCallback']
  if (present.cancelIdleCallback) timers.cancelIdleCallback = g['cancelIdleCallback']
  if (present.Intl) timers.Intl = NativeIntl
  if (present.Temporal) timers.Temporal = g['Temporal']
  if (present['AbortSignal.timeout']) timers['AbortSignal.timeout'] = (g['AbortSignal'] as { timeout: unknown }).timeout
  const Promise_ = (g['Promise'] as PromiseConstructor | undefined) ?? Promise
  // The originals, read now: `install` replaces them on the global. Under the simulation's
  // preload a global is a dispatcher that may route back to a clock: its real function is
  // the one to queue and yield with.
  const native = <F>(f: F): F => ((isFunction(f) && (f as unknown as Record<symbol, F>)[Symbol.for('timing-wheel/native')]) || f)
  const queueMicrotask = native(g['queueMicrotask'])
  const microtask = isFunction(queueMicrotask)
    ? (f: () => void) => void Reflect.apply(queueMicrotask, g, [f])
    : (f: () => void) => void Promise_.resolve().then(f)
  const nextTick = native(process?.nextTick)
  const tick = isFunction(nextTick) ? (f: () => void) => void Reflect.apply(nextTick, process, [f]) : microtask
  const later = native(g['setImmediate'] ?? g['setTimeout']) as ((f: () => void) => unknown) | undefined
  const setInterval = native(g['setInterval']) as ((f: () => void, ms: number) => unknown) | undefined
  const clearInterval = native(g['clearInterval']) as ((id: unknown) => void) | undefined
  let warned = false
  return {
    global: g,
    present,
    timers,
    returnsObjects,
    NativeDate: NativeDate!,
    NativeIntl,
    later: (f) => {
      if (later === undefined) throw new TypeError('fake-timers: the global object has no setImmediate or setTimeout to yield with')
      later(f)
    },
    native: (kind, f) => (kind === 'tick' ? tick(f) : microtask(f)),
    setInterval,
    clearInterval,
    promisifyCustom: process ? Symbol.for('nodejs.util.promisify.custom') : undefined,
    Promise: Promise_,
    isProcessGlobal: g === (globalThis as unknown),
    warnOnce: (message) => {
      if (warned) return
      warned = true
      console.warn(message)
    },
  }
}
