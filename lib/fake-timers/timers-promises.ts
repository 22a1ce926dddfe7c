/**
 * Node's `timers/promises` on a clock: `setTimeout`, `setImmediate` and `setInterval`
 * whose timers are the clock's, with `AbortSignal` support, as fake-timers replaces
 * them when it installs on the process's global; and, beyond fake-timers 15.5,
 * `scheduler.wait` with `setTimeout`, as Node's own `mock.timers` fakes it.
 *
 * An abort clears the timer and rejects with the signal's reason; every listener added
 * to a signal is recorded in `listeners`, so that `uninstall` can remove those still
 * attached.
 */
import type { Clock } from './clock.js'

/** The options the promise forms take. */
export interface PromiseTimerOptions {
  readonly signal?: AbortSignal
  readonly ref?: boolean
}

/** Listeners attached to signals, by listener; `uninstall` detaches what is left. */
export type AbortListeners = Map<() => void, AbortSignal>

/** Detaches `listener` from `signal` and forgets it. */
const detach = (listeners: AbortListeners, signal: AbortSignal | undefined, listener: () => void): void => {
  if (signal === undefined) return
  signal.removeEventListener('abort', listener)
  listeners.delete(listener)
}

/** Calls `abort` now if `signal` is aborted, else when it is. */
const watch = (listeners: AbortListeners, signal: AbortSignal | undefined, abort: () => void): void => {
  if (signal === undefined) return
  if (signal.aborted) {
    abort()
    return
  }
  signal.addEventListener('abort', abort)
  listeners.set(abort, signal)
}

/**
 * A one-shot promise timer: `start(done)` starts the clock's timer, `stop(handle)` clears it.
 */
const oneShot = <A>(
  listeners: AbortListeners,
  value: A,
  signal: AbortSignal | undefined,
  start: (done: () => void) => unknown,
  stop: (handle: unknown) => void,
): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    let handle: unknown
    const abort = (): void => {
      detach(listeners, signal, abort)
      stop(handle)
      reject(signal!.reason)
    }
    handle = start(() => {
      detach(listeners, signal, abort)
      resolve(value)
    })
    watch(listeners, signal, abort)
  })

/**
 * `timers/promises.setTimeout(delay, value, { signal })` on `clock`.
 *
 * @example
 * const sleep = promiseSetTimeout(clock, listeners)
 * const p = sleep(100, 'done'); clock.tick(100); await p // 'done'
 */
export const promiseSetTimeout =
  (clock: Clock, listeners: AbortListeners) =>
  <A>(delay?: number, value?: A, options: PromiseTimerOptions = {}): Promise<A> =>
    oneShot(listeners, value as A, options.signal, (done) => clock.setTimeout(done, delay), clock.clearTimeout)

/**
 * `timers/promises.scheduler.wait(delay, { signal })` on `clock`: Node defines it as
 * `setTimeout(delay, undefined, options)`, so it is faked with `setTimeout`.
 *
 * @example
 * const wait = promiseSchedulerWait(clock, listeners)
 * const p = wait(100); clock.tick(100); await p // undefined
 */
export const promiseSchedulerWait =
  (clock: Clock, listeners: AbortListeners) =>
  (delay?: number, options: PromiseTimerOptions = {}): Promise<void> =>
    promiseSetTimeout(clock, listeners)<void>(delay, undefined, options)

/**
 * `timers/promises.setImmediate(value, { signal })` on `clock`.
 *
 * @example
 * const p = promiseSetImmediate(clock, listeners)('x'); clock.tick(0); await p // 'x'
 */
export const promiseSetImmediate =
  (clock: Clock, listeners: AbortListeners) =>
  <A>(value?: A, options: PromiseTimerOptions = {}): Promise<A> =>
    oneShot(listeners, value as A, options.signal, (done) => clock.setImmediate(done), clock.clearImmediate)

interface Deferred {
  readonly promise: Promise<void>
  readonly resolve: () => void
}

const deferred = (): Deferred => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/**
 * `timers/promises.setInterval(delay, value, { signal })` on `clock`: an async iterable
 * whose every iterator runs its own interval. Each firing either wakes a waiting `next()`
 * or is banked for the next call; `return()` waits for the waiting calls, then clears
 * the interval; an abort ends the iteration, and the first `next()` after it throws the
 * signal's reason.
 *
 * @example
 * for await (const v of promiseSetInterval(clock, listeners)(10, 'tick')) { ... }
 */
export const promiseSetInterval =
  (clock: Clock, listeners: AbortListeners) =>
  <A>(delay?: number, value?: A, options: PromiseTimerOptions = {}): AsyncIterable<A> => ({
    [Symbol.asyncIterator]: (): AsyncIterator<A, undefined> => {
      const signal = options.signal
      let done = false
      let thrown = false
      let banked = 0
      let returning: Deferred | undefined
      const waiting: Deferred[] = []
      const handle = clock.setInterval(() => {
        const first = waiting.shift()
        if (first === undefined) banked++
        else first.resolve()
      }, delay)
      const abort = (): void => {
        detach(listeners, signal, abort)
        clock.clearInterval(handle)
        done = true
        for (const w of waiting) w.resolve()
      }
      watch(listeners, signal, abort)
      const throwIfAborted = (): void => {
        if (signal?.aborted && !thrown) {
          thrown = true
          throw signal.reason
        }
      }
      const finished = { done: true, value: undefined } as const
      return {
        next: async () => {
          throwIfAborted()
          if (done) return finished
          if (banked > 0) {
            banked--
            return { done: false, value: value as A }
          }
          const wait = deferred()
          waiting.push(wait)
          await wait.promise
          if (returning !== undefined && waiting.length === 0) returning.resolve()
          throwIfAborted()
          if (done) return finished
          return { done: false, value: value as A }
        },
        return: async () => {
          if (done) return finished
          if (waiting.length > 0) {
            returning = deferred()
            await returning.promise
          }
          clock.clearInterval(handle)
          done = true
          detach(listeners, signal, abort)
          return finished
        },
      }
    },
  })
