/**
 * `node:timers/promises` as Node's `mock.timers` replaces it, on a clock: `setTimeout`,
 * `setImmediate`, `setInterval` and `scheduler.wait`. They are fake-timers' own promise
 * timers (`../fake-timers/timers-promises.ts`) with Node's edges around them, which the
 * fake-timers entry does not have (it follows `@sinonjs/fake-timers`): a `signal` that is
 * not an `AbortSignal` rejects with `ERR_INVALID_ARG_TYPE`; an abort rejects with an
 * `AbortError` (code `'ABORT_ERR'`, the reason as `cause`) rather than the bare reason;
 * `setInterval` returns an async iterator (`.next()` without `for await`), whose timer
 * starts at the first `next()`, as Node's async generator's does.
 */
import type { Clock } from '../fake-timers/clock.js'
import * as TimersPromises from '../fake-timers/timers-promises.js'
import { abortError, badSignal } from './node-errors.js'

type Options = TimersPromises.PromiseTimerOptions | undefined

/** The four functions, bound to one clock. */
export interface NodePromises {
  readonly setTimeout: <A>(delay?: number, value?: A, options?: Options) => Promise<A>
  readonly setImmediate: <A>(value?: A, options?: Options) => Promise<A>
  readonly setInterval: <A>(delay?: number, value?: A, options?: Options) => AsyncIterableIterator<A>
  readonly wait: (delay?: number, options?: Options) => Promise<void>
}

/** Rejects with Node's `AbortError` where the fake-timers promise rejected with the signal's reason. */
const nodeAbort = <A>(promise: Promise<A>, signal: AbortSignal | undefined): Promise<A> =>
  signal === undefined
    ? promise
    : promise.catch((reason: unknown) => {
        throw signal.aborted && reason === signal.reason ? abortError(signal) : reason
      })

const finished = { done: true, value: undefined } as const

/**
 * Node's promise `setInterval` on `clock`: each firing and the abort are events, queued
 * in the order they happen and taken by `next()` in that order (Node's mock reads them
 * from an `events.on` iterator), so a firing before an abort is still read as a value.
 * The interval starts at the first `next()`, as the body of Node's async generator does.
 */
const nodeInterval = <A>(
  clock: Clock,
  listeners: TimersPromises.AbortListeners,
  delay: number | undefined,
  value: A | undefined,
  options: Options,
): AsyncIterableIterator<A> => {
  const signal = options?.signal
  const events: ('value' | 'abort')[] = []
  const waiting: ((event: 'value' | 'abort' | 'done') => void)[] = []
  let handle: unknown
  let started = false
  let done = false
  const push = (event: 'value' | 'abort'): void => {
    const first = waiting.shift()
    if (first === undefined) events.push(event)
    else first(event)
  }
  const onAbort = (): void => push('abort')
  const stop = (): void => {
    done = true
    clock.clearInterval(handle as never)
    if (signal !== undefined) {
      signal.removeEventListener('abort', onAbort)
      listeners.delete(onAbort)
    }
    for (const w of waiting.splice(0)) w('done')
  }
  const iterator: AsyncIterableIterator<A> = {
    [Symbol.asyncIterator]: () => iterator,
    next: async () => {
      if (!started) {
        started = true
        const bad = badSignal(options, 'setInterval')
        if (bad !== undefined) throw bad
        if (signal?.aborted) {
          done = true
          throw abortError(signal)
        }
        handle = clock.setInterval(() => push('value'), delay)
        if (signal !== undefined) {
          signal.addEventListener('abort', onAbort, { once: true })
          listeners.set(onAbort, signal)
        }
      }
      if (done && events.length === 0) return finished
      const event = events.shift() ?? (await new Promise<'value' | 'abort' | 'done'>((resolve) => waiting.push(resolve)))
      if (event === 'done') return finished
      if (event === 'abort') {
        stop()
        throw abortError(signal!)
      }
      return { done: false, value: value as A }
    },
    return: async () => {
      stop()
      events.length = 0
      return finished
    },
  }
  return iterator
}

/**
 * Node's `timers/promises` functions on `clock`; `listeners` collects the abort
 * listeners they attach, for `reset` to detach.
 *
 * @example
 * const { setTimeout } = nodePromises(clock, new Map())
 * const p = setTimeout(100, 'done'); clock.tick(100); await p // 'done'
 */
export const nodePromises = (clock: Clock, listeners: TimersPromises.AbortListeners): NodePromises => {
  const sleep = TimersPromises.promiseSetTimeout(clock, listeners)
  const immediate = TimersPromises.promiseSetImmediate(clock, listeners)
  const setTimeout = <A>(delay?: number, value?: A, options?: Options): Promise<A> => {
    const bad = badSignal(options, 'setTimeout')
    if (bad !== undefined) return Promise.reject(bad)
    const signal = options?.signal
    if (signal?.aborted) return Promise.reject(abortError(signal))
    return nodeAbort(sleep(delay, value, options), signal)
  }
  return {
    setTimeout,
    setImmediate: <A>(value?: A, options?: Options): Promise<A> => {
      const bad = badSignal(options, 'setImmediate')
      if (bad !== undefined) return Promise.reject(bad)
      const signal = options?.signal
      if (signal?.aborted) return Promise.reject(abortError(signal))
      return nodeAbort(immediate(value, options), signal)
    },
    setInterval: <A>(delay?: number, value?: A, options?: Options): AsyncIterableIterator<A> =>
      nodeInterval(clock, listeners, delay, value, options),
    wait: (delay?: number, options?: Options): Promise<void> => setTimeout<void>(delay, undefined, options),
  }
}
