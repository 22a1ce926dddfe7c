/**
 * What `setTimeout`, `setInterval` and `setImmediate` return. Where the host's own
 * `setTimeout` returns an object (Node), fake-timers returns an object shaped like Node's
 * `Timeout`, and code under test calls `unref()` on it; elsewhere (browsers, jsdom) a
 * number. A drop-in does the same, deciding once, the way fake-timers does: by calling
 * the host's `setTimeout`.
 */

import { firstTimerId } from './coercion.js'

/**
 * A timer handle shaped like Node's `Timeout`: `ref`/`unref`/`hasRef` only keep a flag
 * (virtual time keeps nothing alive), `refresh()` re-arms the timer from the current time
 * with its first delay, and the handle converts to its numeric id, so `clearTimeout`
 * accepts either.
 *
 * The virtual clock's handle is its timer record itself (a subclass, `timer.ts`): one
 * object a timer, and `clearTimeout(handle)` reaches the timer without a lookup. Timers
 * are made by the million and live long, so every byte counts twice (young-generation
 * collections copy the survivors): the handle's own field is `key`, the id less 10^12, a
 * small integer V8 keeps in the object where the id itself would be boxed, and `id` is a
 * getter; `refed` is on the prototype until `unref` sets it. Two handles never compare
 * deep-equal, by their keys (fake-timers' differ by their own closures and have no `id`).
 * A read-only own `id` would cost a property definition a timer, a quarter of a
 * `setTimeout`.
 *
 * @example
 * const handle = clock.setTimeout(poll, 100) as TimerHandle
 * handle.unref()
 * clock.tick(50); handle.refresh(); clock.tick(60) // poll has not run: due at 150
 */
export class TimerHandle {
  /** The timer's id less 10^12, where ids start. */
  readonly key: number
  /** Whether the timer would keep a real event loop alive; only `ref` and `unref` change it. */
  declare refed: boolean

  /** @internal Made by a clock, as the base of its timer record. */
  constructor(key: number) {
    this.key = key
  }

  /** The timer's id (what `Number(handle)` gives). */
  get id(): number {
    return this.key + firstTimerId
  }

  /** Marks the timer as keeping the event loop alive, as Node's `Timeout.ref` does; it changes nothing else here. */
  ref(): this {
    this.refed = true
    return this
  }

  /** Marks the timer as not keeping the event loop alive; it still fires when the clock moves. */
  unref(): this {
    this.refed = false
    return this
  }

  /** Whether `ref` (or no call) rather than `unref` was called last. */
  hasRef(): boolean {
    return this.refed
  }

  /**
   * Re-arms the timer: due its first delay after now, after every timer already due
   * then. A timer that has fired or been cleared is armed again, as in Node. Constant time.
   */
  refresh(): this {
    this.rearm()
    return this
  }

  /** @internal What `refresh` does: each clock's timer records define it. */
  rearm(): void {
    throw new TypeError('TimerHandle: this handle belongs to no clock')
  }

  /** The timer's id, so that `Number(handle)` and `clearTimeout(handle)` work. */
  [Symbol.toPrimitive](): number {
    return this.key + firstTimerId
  }
}

// Every handle is refed until `unref`: an own field only then.
;(TimerHandle.prototype as { refed: boolean }).refed = true

/**
 * A timer id: a number, or a {@link TimerHandle} where the host's timers return objects.
 *
 * @example
 * const id: TimerId = clock.setTimeout(f, 10)
 * clock.clearTimeout(id)
 */
export type TimerId = number | TimerHandle

let hostTimersReturnObjects: boolean | undefined

/**
 * Whether the host's `setTimeout` returns objects. Asked once, with a timer that is
 * cleared at once, as fake-timers asks when it loads; cached after.
 *
 * @example
 * hostReturnsObjects() // true on Node, false in a browser
 */
export const hostReturnsObjects = (): boolean => {
  if (hostTimersReturnObjects === undefined) {
    const host = globalThis as { setTimeout?: unknown; clearTimeout?: unknown }
    if (typeof host.setTimeout !== 'function') {
      hostTimersReturnObjects = false
    } else {
      const probe: unknown = (host.setTimeout as (f: () => void, ms: number) => unknown)(() => undefined, 0)
      if (typeof host.clearTimeout === 'function') (host.clearTimeout as (id: unknown) => void)(probe)
      hostTimersReturnObjects = typeof probe === 'object' && probe !== null
    }
  }
  return hostTimersReturnObjects
}
