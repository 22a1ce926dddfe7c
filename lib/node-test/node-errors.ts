/**
 * Node's own errors for `mock.timers`: the codes `ERR_INVALID_STATE`,
 * `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` and `ABORT_ERR`, worded as Node 20's
 * `lib/internal/errors.js` words them, because tests match them (by `code` mostly, by
 * message sometimes). Node's error classes are internal; `AbortError` alone can be had
 * (`events.on` throws one synchronously for an aborted signal), so the others are built
 * here: an `Error` or `TypeError` with an own enumerable `code`, as Node's are.
 *
 * Each message ends with the method the user called (`mock.timers.tick`), and each
 * stack starts at the user's line: `Error.captureStackTrace` cuts it at `caller`, the
 * public method.
 */
import { EventEmitter, on } from 'node:events'
import { inspect } from 'node:util'

/** A function the stack is cut at: the public method the user called. */
export type Caller = (...args: never[]) => unknown

/** Node's `determineSpecificType`: how `ERR_INVALID_ARG_TYPE` shows what it received. */
const specificType = (value: unknown): string => {
  if (value === null || value === undefined) return String(value)
  if (typeof value === 'function') return value.name ? `function ${value.name}` : inspect(value)
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name
    return typeof name === 'string' && name !== '' ? `an instance of ${name}` : inspect(value, { depth: -1 })
  }
  const shown = inspect(value, { colors: false })
  return `type ${typeof value} (${shown.length > 28 ? `${shown.slice(0, 25)}...` : shown})`
}

const withCode = <E extends Error>(error: E, code: string, method: string, caller: Caller | undefined): E => {
  error.message = `${error.message} [mock.timers.${method}]`
  Object.defineProperty(error, 'code', { value: code, enumerable: true, writable: true, configurable: true })
  if (caller !== undefined) Error.captureStackTrace(error, caller)
  return error
}

/**
 * `ERR_INVALID_STATE`: `Invalid state: ${message}`.
 *
 * @example
 * throw invalidState('MockTimers is already enabled!', 'enable', enable)
 */
export const invalidState = (message: string, method: string, caller?: Caller): Error =>
  withCode(new Error(`Invalid state: ${message}`), 'ERR_INVALID_STATE', method, caller)

/**
 * `ERR_INVALID_ARG_TYPE` for `name`, which must be `expected` (`of type number`, `an
 * instance of Array`).
 *
 * @example
 * throw invalidArgType('time', 'of type number', '5', 'tick', tick)
 */
export const invalidArgType = (name: string, expected: string, value: unknown, method: string, caller?: Caller): TypeError =>
  withCode(
    new TypeError(`The "${name}" ${name.includes('.') ? 'property' : 'argument'} must be ${expected}. Received ${specificType(value)}`),
    'ERR_INVALID_ARG_TYPE',
    method,
    caller,
  )

/**
 * `ERR_INVALID_ARG_VALUE`: `The argument '${name}' ${reason}. Received ${value}`.
 *
 * @example
 * throw invalidArgValue('time', -1, 'must be a non-negative number', 'tick', tick)
 */
export const invalidArgValue = (name: string, value: unknown, reason: string, method: string, caller?: Caller): TypeError => {
  const shown = inspect(value)
  return withCode(
    new TypeError(
      `The ${name.includes('.') ? 'property' : 'argument'} '${name}' ${reason}. Received ${shown.length > 128 ? `${shown.slice(0, 128)}...` : shown}`,
    ),
    'ERR_INVALID_ARG_VALUE',
    method,
    caller,
  )
}

type AbortErrorClass = new (message?: string, options?: { cause?: unknown }) => Error

/** Node's own `AbortError` class (code `ABORT_ERR`), from the one error `events.on` throws synchronously. */
const NodeAbortError = ((): AbortErrorClass => {
  try {
    on(new EventEmitter(), 'never', { signal: AbortSignal.abort() })
  } catch (error) {
    return (error as Error).constructor as AbortErrorClass
  }
  /* c8 ignore next: every Node 20+ throws above */
  throw new Error('timing-wheel/node-test: events.on did not throw for an aborted signal')
})()

/**
 * What Node's timers reject with on an abort: an `AbortError` (code `'ABORT_ERR'`) whose
 * `cause` is the signal's reason.
 *
 * @example
 * reject(abortError(signal))
 */
export const abortError = (signal: AbortSignal): Error => new NodeAbortError(undefined, { cause: signal.reason })

/**
 * Node's `validateAbortSignal`: `undefined`, or an object with `aborted`; else an
 * `ERR_INVALID_ARG_TYPE` naming `options.signal`.
 *
 * @example
 * const bad = badSignal({ signal: {} }, 'setTimeout') // a TypeError, code ERR_INVALID_ARG_TYPE
 */
export const badSignal = (options: { readonly signal?: unknown } | undefined, method: string): TypeError | undefined => {
  const signal = options?.signal
  if (signal === undefined || (signal !== null && typeof signal === 'object' && 'aborted' in signal)) return undefined
  return invalidArgType('options.signal', 'an instance of AbortSignal', signal, method)
}
