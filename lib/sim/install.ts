/**
 * Putting a clock's functions in place of a global object's, and taking them out again
 * exactly: every property touched is recorded with its own descriptor (or its absence)
 * and put back as it was, in reverse order, so that what `uninstall` leaves is
 * indistinguishable from what `install` found (same functions, same attributes, own or
 * inherited as before).
 */

/** The timer functions `install` can replace. */
export const timerFunctionNames = [
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'requestAnimationFrame',
  'cancelAnimationFrame',
] as const

/**
 * A timer function `install` can replace.
 *
 * @example
 * const replaced: TimerFunctionName[] = ['setTimeout', 'clearTimeout']
 * clock.install(globalThis, { toFake: replaced })
 */
export type TimerFunctionName = (typeof timerFunctionNames)[number]

/**
 * What `install` can fake: the timer functions, `Date` (its `now`) and `performance` (its `now`).
 *
 * @example
 * const toFake: FakeableName[] = ['setTimeout', 'clearTimeout', 'Date']
 * clock.install(globalThis, { toFake }) // performance.now and setInterval stay real
 */
export type FakeableName = TimerFunctionName | 'Date' | 'performance'

/**
 * Options of `install`.
 *
 * @example
 * const options: InstallOptions = { toFake: ['setTimeout', 'clearTimeout'] }
 * const clock = VirtualClock.create()
 * clock.install(globalThis, options)
 * clock.uninstall()
 */
export interface InstallOptions {
  /**
   * What to fake. By default every timer function the target has, `Date.now` if it has a
   * `Date` and `performance.now` if it has a `performance`, as fake-timers does. A timer
   * function named here is installed even if the target lacks it (and deleted again by
   * `uninstall`); `Date` or `performance` named here must exist on the target.
   */
  readonly toFake?: readonly FakeableName[]
}

/** What `install` needs of a clock. */
export type Fakes = Readonly<Record<TimerFunctionName, (...args: never[]) => unknown>> & {
  readonly now: number
  readonly performance: { readonly now: () => number }
}

/** An installed clock: undoes itself. */
export interface Installation {
  readonly restore: () => void
}

type Saved = readonly [holder: object, key: PropertyKey, descriptor: PropertyDescriptor | undefined]

const putBack = (saved: readonly Saved[]): void => {
  for (let i = saved.length - 1; i >= 0; i--) {
    const [holder, key, descriptor] = saved[i]!
    if (descriptor === undefined) Reflect.deleteProperty(holder, key)
    else Object.defineProperty(holder, key, descriptor)
  }
}

/** Gives `holder` an own data property `key` holding `value`, keeping what attributes it had. */
const replace = (saved: Saved[], holder: object, key: PropertyKey, value: unknown, enumerable: boolean): void => {
  const descriptor = Object.getOwnPropertyDescriptor(holder, key)
  saved.push([holder, key, descriptor])
  Object.defineProperty(holder, key, {
    value,
    writable: descriptor !== undefined && 'value' in descriptor ? descriptor.writable === true : true,
    enumerable: descriptor?.enumerable ?? enumerable,
    configurable: descriptor?.configurable ?? true,
  })
}

const missing = (name: string): never => {
  throw new TypeError(`VirtualClock.install: the target has no ${name} to fake`)
}

const installedTwice = (): never => {
  throw new TypeError("Can't install fake timers twice on the same global object.")
}

/** Targets a clock of this module is installed on. */
const installedOn = new WeakSet<object>()

/**
 * Whether `host` already has fake timers: a clock of this module, or a fake-timers-style
 * clock (whose `Date` says `isFake`, whose timer functions carry their `clock`).
 */
const hasFakeTimers = (target: object, host: Record<string, unknown>): boolean =>
  installedOn.has(target) ||
  (host['Date'] as { isFake?: unknown } | undefined)?.isFake === true ||
  timerFunctionNames.some((name) => {
    const f: unknown = host[name]
    return typeof f === 'function' && (f as { clock?: unknown }).clock !== undefined
  })

/**
 * Replaces the target's timer functions, `Date.now` and `performance.now` with the
 * clock's. The timer replacements forward to the clock and carry a `clock` property,
 * which testing libraries look for to detect fake timers; `performance.now` becomes the
 * clock's own function, as in fake-timers; a `Date` without `now` is left without one.
 * Throws a `TypeError` if the target already has fake timers (this module's or
 * fake-timers'), if `Date` or `performance` is asked for and missing, or if a property
 * cannot be replaced (frozen); the replacements already made are then undone. Constant
 * time.
 *
 * @example
 * const installation = install(clock, globalThis)
 * try { runCodeUnderTest() } finally { installation.restore() }
 */
export const install = (clock: Fakes, target: object, options: InstallOptions = {}): Installation => {
  const host = target as Record<string, unknown>
  if (hasFakeTimers(target, host)) installedTwice()
  const wanted = options.toFake
  const fakes = (name: FakeableName, present: boolean): boolean =>
    wanted === undefined ? present : wanted.includes(name)
  const saved: Saved[] = []
  try {
    for (const name of timerFunctionNames) {
      if (!fakes(name, typeof host[name] === 'function')) continue
      const impl = clock[name] as (...args: unknown[]) => unknown
      const fake = { [name]: (...args: unknown[]): unknown => impl(...args) }[name]!
      Object.defineProperty(fake, 'clock', { value: clock, enumerable: false })
      replace(saved, target, name, fake, true)
    }
    const date = host['Date']
    if (fakes('Date', typeof date === 'function')) {
      if (typeof date !== 'function') missing('Date')
      if (typeof (date as { now?: unknown }).now === 'function') replace(saved, date as object, 'now', () => clock.now, false)
    }
    const performance = host['performance']
    if (fakes('performance', typeof performance === 'object' && performance !== null)) {
      if (typeof performance !== 'object' || performance === null) missing('performance')
      replace(saved, performance as object, 'now', clock.performance.now, false)
    }
  } catch (e) {
    putBack(saved)
    throw e
  }
  installedOn.add(target)
  return {
    restore: () => {
      installedOn.delete(target)
      putBack(saved)
    },
  }
}
