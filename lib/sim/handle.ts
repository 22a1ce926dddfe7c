/**
 * What `setTimeout`, `setInterval` and `setImmediate` return. Where the host's own
 * `setTimeout` returns an object (Node), fake-timers returns an object shaped like Node's
 * `Timeout`, and code under test calls `unref()` on it; elsewhere (browsers, jsdom) a
 * number. A drop-in does the same, deciding once, the way fake-timers does: by calling
 * the host's `setTimeout`.
 */

/**
 * A timer handle shaped like Node's `Timeout`: `ref`/`unref`/`hasRef` only keep a flag
 * (virtual time keeps nothing alive), `refresh()` re-arms the timer from the current time
 * with its first delay, and the handle converts to its numeric id, so `clearTimeout`
 * accepts either.
 *
 * @example
 * const handle = clock.setTimeout(poll, 100) as TimerHandle
 * handle.unref()
 * clock.tick(50); handle.refresh(); clock.tick(60) // poll has not run: due at 150
 */
export class TimerHandle {
  /** The timer's id (what `Number(handle)` gives). */
  declare readonly id: number
  /** Whether the timer would keep a real event loop alive; only `ref` and `unref` change it. */
  refed = true
  readonly #id: number
  readonly #timer: unknown
  readonly #refresh: (timer: never) => void

  /** @internal Made by the clock: `refresh(timer)` re-arms the timer (one function per clock). */
  constructor(id: number, timer: unknown, refresh: (timer: never) => void) {
    this.#id = id
    // An own, read-only `id`, as fake-timers' handles have: two handles never compare deep-equal.
    Object.defineProperty(this, 'id', { value: id, enumerable: true })
    this.#timer = timer
    this.#refresh = refresh
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
    this.#refresh(this.#timer as never)
    return this
  }

  /** The timer's id, so that `Number(handle)` and `clearTimeout(handle)` work. */
  [Symbol.toPrimitive](): number {
    return this.#id
  }
}

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
