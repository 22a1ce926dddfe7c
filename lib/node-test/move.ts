/**
 * Moving `MockTimers`' prototype onto the wheel, after checking it is one this route
 * knows: Node 20 or newer, and exactly Node 20's methods, each writable and
 * configurable. A check that fails throws before anything is changed.
 */
import { dispose, type EnableOptions, methods, theHost } from './mock-timers.js'

/** Where the moved prototype records it was moved: one key for every copy of this module. */
const marker = Symbol.for('timing-wheel.node-test.timers')

/**
 * `MockTimers`' own methods on Node 20 and newer, as far as this route knows them.
 *
 * @example
 * import { knownMethods } from 'timing-wheel/node-test'
 * knownMethods.join(', ') // 'constructor, tick, enable, setTime, reset, runAll, Symbol.dispose'
 */
export const knownMethods: readonly string[] = ['constructor', 'tick', 'enable', 'setTime', 'reset', 'runAll', 'Symbol.dispose']

/**
 * What `mock.timers` offers once moved: Node's methods, with the added `apis` names,
 * and the two async ones. (`@types/node` 20 types `enable` as Node 20.0 had it.)
 *
 * @example
 * const timers = t.mock.timers as unknown as WheelMockTimers
 * timers.enable({ apis: ['setTimeout', 'performance'] })
 * await timers.tickAsync(1000)
 */
export interface WheelMockTimers {
  /** Fakes `options.apis` (default: Node's five) from `options.now` (default 0). */
  enable(options?: EnableOptions): void
  /** Moves the clock `time` ms (default 1), firing each due timer at its own time. */
  tick(time?: number): void
  /** `tick(time)`, letting promise callbacks run between timers. */
  tickAsync(time?: number): Promise<void>
  /** Moves the clock to the last timer pending now, firing every timer on the way. */
  runAll(): void
  /** `runAll()`, letting promise callbacks run between timers. */
  runAllAsync(): Promise<void>
  /** Sets the wall-clock time (`Date`), firing nothing. */
  setTime(time?: number): void
  /** Puts back everything faked and forgets the timers. */
  reset(): void
  /** `reset()`. */
  [Symbol.dispose](): void
}

const keyName = (key: string | symbol): string => (typeof key === 'symbol' ? (key.description ?? 'symbol') : key)

const unknownNode = (version: string, why: string): never => {
  throw new Error(
    `timing-wheel/node-test: Node ${version}'s MockTimers is not one it knows (${why}); mock.timers was left as it is. Remove the import or use Node 20 or newer with the methods ${knownMethods.join(', ')}.`,
  )
}

/**
 * Moves the methods of `prototype` (Node's `MockTimers.prototype`) onto the wheel.
 * Does nothing if it was moved already. Throws, changing nothing, if `version` is older
 * than Node 20 or the prototype's methods are not exactly {@link knownMethods} (the
 * dispose symbol named by its description, `Symbol.dispose` or Node 20's
 * `nodejs.dispose`), or one of them cannot be replaced.
 *
 * @example
 * import { mock } from 'node:test'
 * moveMockTimers(Object.getPrototypeOf(mock.timers), process.versions.node)
 */
export const moveMockTimers = (prototype: object, version: string): void => {
  if (Object.hasOwn(prototype, marker)) return
  const major = Number(version.replace(/^v/, '').split('.')[0])
  if (!(major >= 20)) unknownNode(version, 'Node 20 or newer is needed')
  // The modules to fake are reached through it, as the fake-timers entry reaches them.
  if (typeof process.getBuiltinModule !== 'function') unknownNode(version, 'process.getBuiltinModule is missing: Node 20.16 or newer is needed')
  const keys = Reflect.ownKeys(prototype)
  const disposeKey = keys.find((key) => typeof key === 'symbol' && /dispose/.test(key.description ?? ''))
  const names = keys.map((key) => (key === disposeKey ? 'Symbol.dispose' : keyName(key)))
  const missing = knownMethods.filter((name) => !names.includes(name))
  const extra = names.filter((name) => !knownMethods.includes(name))
  if (missing.length > 0 || extra.length > 0) {
    unknownNode(version, [missing.length > 0 && `missing ${missing.join(', ')}`, extra.length > 0 && `unknown ${extra.join(', ')}`].filter(Boolean).join('; '))
  }
  for (const key of keys) {
    if (key === 'constructor') continue
    const d = Object.getOwnPropertyDescriptor(prototype, key)!
    if (!d.configurable || typeof d.value !== 'function') unknownNode(version, `${keyName(key)} cannot be replaced`)
  }
  if (!Object.isExtensible(prototype)) unknownNode(version, 'the prototype is not extensible')
  const define = (key: string | symbol, value: unknown): void => {
    Object.defineProperty(prototype, key, { value, writable: true, enumerable: false, configurable: true })
  }
  for (const [name, method] of Object.entries(methods)) define(name, method)
  define(disposeKey!, dispose)
  if (Symbol.dispose !== undefined && disposeKey !== Symbol.dispose) define(Symbol.dispose, dispose)
  Object.defineProperty(prototype, marker, { value: true, configurable: true })
  theHost()
}
