/**
 * The methods `timing-wheel/node-test` puts on Node's `MockTimers` prototype: Node's
 * `enable`, `tick`, `runAll`, `setTime`, `reset` and `[Symbol.dispose]`, plus `tickAsync`
 * and `runAllAsync`, all on a `timing-wheel/fake-timers` clock.
 *
 * Representation: one {@link Enabled} per enabled `MockTimers` instance (the global
 * `mock.timers` and each test's `t.mock.timers`), in a `WeakMap` keyed by the instance,
 * since the prototype is shared and Node's own state is in private fields that stay
 * untouched. Invariants: an instance is enabled iff it has an entry; while it has one,
 * its clock is installed on `globalThis` for exactly the fake-timers names its `apis`
 * map to (none: the clock is made and not installed), and the `timers/promises` entries
 * it replaced are listed in `restore`, newest last. `reset` undoes both, newest first, so
 * a subtest's mock timers stacked over its parent's put back the parent's fakes.
 */
import { type Clock, createClock, idleTickOf } from '../fake-timers/clock.js'
import { type FakeMethod, type Host, readHost } from '../fake-timers/host.js'
import { install } from '../fake-timers/install.js'
import type { AbortListeners } from '../fake-timers/timers-promises.js'
import { TimingWheelError } from '../errors.js'
import { type Caller, invalidArgType, invalidArgValue, invalidState } from './node-errors.js'
import { type NodePromises, nodePromises } from './promises.js'

/**
 * The `apis` names Node 20 knows, in its order: its default list.
 *
 * @example
 * import { nodeApis } from 'timing-wheel/node-test'
 * t.mock.timers.enable({ apis: [...nodeApis] }) // what enable() fakes with no `apis`
 */
export const nodeApis = ['setTimeout', 'setInterval', 'setImmediate', 'Date', 'scheduler.wait'] as const

/**
 * The `apis` names added here, faked only when listed.
 *
 * @example
 * import { addedApis, nodeApis } from 'timing-wheel/node-test'
 * t.mock.timers.enable({ apis: [...nodeApis, ...addedApis] }) // everything, performance and hrtime too
 */
export const addedApis = ['AbortSignal.timeout', 'performance', 'hrtime'] as const

/**
 * A name `enable`'s `apis` accepts.
 *
 * @example
 * const apis: Api[] = ['setTimeout', 'Date', 'AbortSignal.timeout']
 * t.mock.timers.enable({ apis })
 */
export type Api = (typeof nodeApis)[number] | (typeof addedApis)[number]

/**
 * `enable`'s options, as Node's, with the added `apis` names.
 *
 * @example
 * const options: EnableOptions = { apis: ['setTimeout', 'Date', 'performance'], now: new Date('2024-01-01T00:00:00Z') }
 * t.mock.timers.enable(options)
 * Date.now() // 1704067200000
 */
export interface EnableOptions {
  /** What to fake; default {@link nodeApis}. */
  readonly apis?: readonly Api[]
  /** The starting time (ms since the epoch, or a `Date`); default 0. */
  readonly now?: number | Date
}

const fakeNames: Readonly<Record<Api, readonly FakeMethod[]>> = {
  setTimeout: ['setTimeout', 'clearTimeout'],
  setInterval: ['setInterval', 'clearInterval'],
  setImmediate: ['setImmediate', 'clearImmediate'],
  Date: ['Date'],
  'scheduler.wait': [],
  'AbortSignal.timeout': ['AbortSignal.timeout'],
  performance: ['performance'],
  hrtime: ['hrtime'],
}

interface Enabled {
  readonly clock: Clock
  /** The clock's idle tick (`idleTickOf`), read once: `tick` tries it first. */
  readonly idle: (ms: number) => boolean
  readonly installed: boolean
  readonly listeners: AbortListeners
  readonly restore: (() => void)[]
}

const enabled = new WeakMap<object, Enabled>()

type PromisesModule = Record<string, unknown> & { readonly scheduler: Record<string, unknown> }

/** Node's `timers/promises` (through `getBuiltinModule`, which `moveMockTimers` checks for first). */
let promises: PromisesModule | undefined
const promisesModuleOf = (): PromisesModule => (promises ??= process.getBuiltinModule('node:timers/promises') as unknown as PromisesModule)

let host: Host | undefined
/**
 * The global and its real timers, which async ticks yield to: read once, when the
 * prototype is moved, before any fake.
 *
 * @example
 * theHost().later(() => console.log('one real macrotask later'))
 */
export const theHost = (): Host => (host ??= readHost(globalThis as unknown as Record<string, unknown>))

/** Puts `value` at `holder[name]` and returns what undoes it: the old own descriptor back, or none. */
const replace = (holder: Record<string, unknown>, name: string, value: unknown): (() => void) => {
  const before = Object.getOwnPropertyDescriptor(holder, name)
  Object.defineProperty(holder, name, { value, writable: true, enumerable: before?.enumerable ?? false, configurable: true })
  return () => {
    if (before === undefined) Reflect.deleteProperty(holder, name)
    else Object.defineProperty(holder, name, before)
  }
}

/** Node's mock hands out a timer for `setTimeout()` without a callback; it throws only when it fires. */
const missingCallback = (): never => {
  throw new TypeError('The timer fired without a callback: setTimeout or setInterval was called without one')
}

/** A clock whose `setTimeout` and `setInterval` take a missing callback, as Node's mock does; made before `install` copies them. */
const makeClock: typeof createClock = (host, now, loopLimit) => {
  const clock = createClock(host, now, loopLimit) as unknown as Record<string, unknown>
  for (const name of ['setTimeout', 'setInterval']) {
    const original = clock[name] as (...args: unknown[]) => unknown
    const lenient = function (callback: unknown, ...rest: unknown[]): unknown {
      return original(callback === undefined ? missingCallback : callback, ...rest)
    }
    Object.defineProperties(lenient, Object.getOwnPropertyDescriptors(original))
    clock[name] = lenient
  }
  return clock as unknown as Clock
}

/**
 * The instance last found enabled and its entry, or both undefined: a test drives one
 * `mock.timers` at a time, and a `WeakMap` lookup costs more than the idle tick it would
 * guard. `reset` empties it for its instance, so it never names a disabled one.
 */
let lastTimers: object | undefined
let lastEnabled: Enabled | undefined

const state = (timers: object, method: string, caller: Caller): Enabled => {
  if (timers === lastTimers) return lastEnabled!
  const s = enabled.get(timers)
  if (s === undefined) throw invalidState('You should enable MockTimers first by calling the .enable function', method, caller)
  lastTimers = timers
  lastEnabled = s
  return s
}

/** `time` must be a non-negative finite number (Node also takes a string and concatenates; that is refused here). */
const checkTime = (time: unknown, name: string, method: string, caller: Caller): number => {
  if (typeof time !== 'number' || Number.isNaN(time)) throw invalidArgType(name, 'of type number', time, method, caller)
  if (time < 0 || !Number.isFinite(time)) throw invalidArgValue(name, time, 'must be a finite number at least 0', method, caller)
  return time
}

/** The clock's own range error (a move past 2^52 - 2^32 ms from its start) as Node's code for a bad argument; any other error as it is. */
const rangeError = (error: unknown, time: number, method: string, caller: Caller): unknown =>
  error instanceof TimingWheelError && error.code === 'TimeOutOfRange'
    ? invalidArgValue('time', time, `is out of the clock's range (${error.message})`, method, caller)
    : error

const isDate = (value: unknown): value is Date => {
  try {
    Date.prototype.getTime.call(value)
    return true
  } catch {
    return false
  }
}

const checkApis = (apis: unknown, caller: Caller): readonly Api[] => {
  if (!Array.isArray(apis)) throw invalidArgType('options.apis', 'an instance of Array', apis, 'enable', caller)
  apis.forEach((api: unknown, i) => {
    if (typeof api !== 'string') throw invalidArgType(`options.apis[${i}]`, 'of type string', api, 'enable', caller)
  })
  for (const api of apis as string[]) {
    if (!(nodeApis as readonly string[]).includes(api) && !(addedApis as readonly string[]).includes(api)) {
      throw invalidArgValue('options.apis', api, `option ${api} is not supported`, 'enable', caller)
    }
  }
  return apis as readonly Api[]
}

const checkNaN = (now: unknown, caller: Caller): void => {
  if (typeof now === 'number' && Number.isNaN(now)) {
    throw invalidArgValue('now', now, `epoch must be a positive integer received ${now}`, 'enable', caller)
  }
}

const checkNow = (now: unknown, caller: Caller): number => {
  if (!now) return 0
  if (isDate(now)) return now.getTime()
  return checkTime(now, 'initialTime', 'enable', caller)
}

const isMockDate = (): boolean => {
  const D = globalThis.Date as { isMock?: unknown; isFake?: unknown }
  return D.isMock === true || D.isFake === true
}

/** Replaces the `timers/promises` entries of `apis` with Node's forms on `clock`, and puts back those fake-timers' install replaced unasked. */
const replacePromises = (
  apis: readonly Api[],
  promises: NodePromises,
  before: Readonly<Record<string, PropertyDescriptor | undefined>>,
): (() => void)[] => {
  const restore: (() => void)[] = []
  const promisesModule = promisesModuleOf()
  const entries: readonly [Api, Record<string, unknown>, string, unknown][] = [
    ['setTimeout', promisesModule, 'setTimeout', promises.setTimeout],
    ['setInterval', promisesModule, 'setInterval', promises.setInterval],
    ['setImmediate', promisesModule, 'setImmediate', promises.setImmediate],
    ['scheduler.wait', promisesModule.scheduler, 'wait', promises.wait],
  ]
  for (const [api, holder, name, fake] of entries) {
    if (apis.includes(api)) restore.push(replace(holder, name, fake))
    else {
      const old = before[api]
      if (old === undefined) Reflect.deleteProperty(holder, name)
      else Object.defineProperty(holder, name, old)
    }
  }
  return restore
}

/**
 * The methods, by name, to put on the prototype. Each is a `function` (its `this` is the
 * `MockTimers` instance) and the frame its errors' stacks are cut at.
 *
 * @example
 * Object.assign(MockTimers.prototype, methods) // what moveMockTimers does, checked first
 */
export const methods = {
  enable(this: object, options: EnableOptions = { apis: nodeApis, now: 0 }): void {
    const caller = methods.enable
    // As Node: any value is spread (null and primitives give the defaults).
    const o: EnableOptions = { ...options }
    if (enabled.has(this)) throw invalidState('MockTimers is already enabled!', 'enable', caller)
    // In Node's order: a NaN start, the apis, then the start's type and sign.
    checkNaN(o.now, caller)
    const apis = checkApis(o.apis || nodeApis, caller)
    const now = checkNow(o.now, caller)
    if (apis.includes('Date') && isMockDate()) throw invalidState('Date is already being mocked!', 'enable', caller)
    const h = theHost()
    const promisesModule = promisesModuleOf()
    const toFake = [...new Set(apis.flatMap((api) => fakeNames[api]))]
    const before = {
      setTimeout: Object.getOwnPropertyDescriptor(promisesModule, 'setTimeout'),
      setInterval: Object.getOwnPropertyDescriptor(promisesModule, 'setInterval'),
      setImmediate: Object.getOwnPropertyDescriptor(promisesModule, 'setImmediate'),
      'scheduler.wait': Object.getOwnPropertyDescriptor(promisesModule.scheduler, 'wait'),
    }
    const installed = toFake.length > 0
    const clock = installed ? install(h, { now, toFake }, 0, makeClock, true) : makeClock(h, now)
    if (apis.includes('Date')) Object.defineProperty(clock.Date, 'isMock', { value: true, enumerable: true })
    const listeners: AbortListeners = new Map()
    const restore = replacePromises(apis, nodePromises(clock, listeners), before)
    enabled.set(this, { clock, idle: idleTickOf(clock), installed, listeners, restore })
  },

  tick(this: object, time: number = 1): void {
    // The idle tick first, in few calls (the interpreter runs a test's first thousands):
    // it takes only a whole ms count at least 0, which checkTime passes.
    const s = this === lastTimers ? lastEnabled! : state(this, 'tick', methods.tick)
    if (s.idle(time)) return
    const t = checkTime(time, 'time', 'tick', methods.tick)
    try {
      s.clock.tick(t)
    } catch (error) {
      throw rangeError(error, t, 'tick', methods.tick)
    }
  },

  /** Added: `tick` that lets promise callbacks run between timers (fake-timers' `tickAsync`). */
  async tickAsync(this: object, time: number = 1): Promise<void> {
    const s = state(this, 'tickAsync', methods.tickAsync)
    const t = checkTime(time, 'time', 'tickAsync', methods.tickAsync)
    try {
      await s.clock.tickAsync(t)
    } catch (error) {
      throw rangeError(error, t, 'tickAsync', methods.tickAsync)
    }
  },

  runAll(this: object): void {
    state(this, 'runAll', methods.runAll).clock.runToLast()
  },

  /** Added: `runAll` that lets promise callbacks run between timers. */
  async runAllAsync(this: object): Promise<void> {
    await state(this, 'runAllAsync', methods.runAllAsync).clock.runToLastAsync()
  },

  setTime(this: object, time: number = 0): void {
    const t = checkTime(time, 'time', 'setTime', methods.setTime)
    state(this, 'setTime', methods.setTime).clock.setSystemTime(t)
  },

  reset(this: object): void {
    const s = enabled.get(this)
    if (s === undefined) return
    enabled.delete(this)
    if (lastTimers === this) lastTimers = lastEnabled = undefined
    for (const undo of s.restore.reverse()) undo()
    for (const [listener, signal] of s.listeners) signal.removeEventListener('abort', listener)
    s.listeners.clear()
    if (s.installed) s.clock.uninstall()
  },
}

/**
 * `[Symbol.dispose]`: `reset`, as Node's.
 *
 * @example
 * { using timers = mock.timers; timers.enable() } // reset on leaving the block
 */
export function dispose(this: object): void {
  methods.reset.call(this)
}
