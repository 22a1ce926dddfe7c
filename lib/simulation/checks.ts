/**
 * Refusals: every check runs before anything changes, and names the value and the range
 * it is not in, with a `TimingWheelError` (`InvalidArgument` or `TimeOutOfRange`).
 *
 * Representation: pure functions of the value checked; each returns the value (narrowed)
 * or throws.
 */
import { TimingWheelError, show } from '../errors.js'
import type { LinkOptions, LinkParams, Skew } from './state.js'

/** @internal */
export const fail = (code: 'InvalidArgument' | 'TimeOutOfRange', message: string): never => {
  throw new TimingWheelError(code, message)
}

/** The longest delay a timer can have (Node's and fake-timers' 2^31 - 1 ms). */
/** @internal */
export const maxDelay = 2 ** 31 - 1
/** The widest host offset: `Date`'s range. */
/** @internal */
export const maxOffset = 8.64e15

/** @internal */
export const isNumber = (x: unknown): x is number => typeof x === 'number'

/** @internal */
export const probability = (what: string, p: unknown): number =>
  isNumber(p) && p >= 0 && p <= 1 ? p : fail('InvalidArgument', `${what} ${show(p)} is not a probability in [0, 1]`)

/** @internal */
export const wholeMs = (what: string, ms: unknown): number =>
  isNumber(ms) && Number.isInteger(ms) && ms >= 0 && ms <= maxDelay
    ? ms
    : fail('TimeOutOfRange', `${what} ${show(ms)} is not a whole number of ms in [0, ${maxDelay}]`)

/** A delay or duration: any finite ms in [0, 2^31 - 1]. */
export const checkDelay = (what: string, ms: unknown): number =>
  isNumber(ms) && ms >= 0 && ms <= maxDelay ? ms : fail('TimeOutOfRange', `${what} ${show(ms)} is not a number of ms in [0, ${maxDelay}]`)

/** @internal */
export const options = <T extends object>(what: string, value: unknown): Partial<T> =>
  value === undefined
    ? {}
    : typeof value === 'object' && value !== null
      ? (value as Partial<T>)
      : fail('InvalidArgument', `${what} ${show(value)} is not an options object`)

/** @internal */
export const fn = <F>(what: string, f: unknown): F => (typeof f === 'function' ? (f as F) : fail('InvalidArgument', `${what} ${show(f)} is not a function`))

/** @internal */
export const linkParams = (value: unknown, base: LinkParams): LinkParams => {
  const o = options<LinkOptions>('link options', value)
  let { min, max } = base
  if (o.latency !== undefined) {
    const latency = o.latency as unknown
    if (typeof latency === 'object' && latency !== null) {
      const range = latency as { min?: unknown; max?: unknown }
      const field = (name: 'min' | 'max'): number =>
        isNumber(range[name]) && Number.isInteger(range[name]) && range[name] >= 0 && range[name] <= maxDelay
          ? range[name]
          : fail('TimeOutOfRange', `latency ${show(latency)}: ${name} ${show(range[name])} is not a whole number of ms in [0, ${maxDelay}]`)
      min = field('min')
      max = field('max')
      if (max < min) fail('TimeOutOfRange', `latency ${show(latency)}: max ${show(max)} is not in [min ${show(min)}, ${maxDelay}]`)
    } else min = max = wholeMs('latency', latency)
  }
  return {
    min,
    max,
    loss: o.loss === undefined ? base.loss : probability('loss', o.loss),
    duplicate: o.duplicate === undefined ? base.duplicate : probability('duplicate', o.duplicate),
    reorder: o.reorder === undefined ? base.reorder : probability('reorder', o.reorder),
  }
}

/** @internal */
export const skewOf = (value: unknown): { offset: number | undefined; drift: number | undefined } => {
  const o = options<Skew>('skew', value)
  const offset =
    o.offset === undefined || (isNumber(o.offset) && Math.abs(o.offset) <= maxOffset)
      ? o.offset
      : fail('TimeOutOfRange', `offset ${show(o.offset)} is not a number of ms in [-${maxOffset}, ${maxOffset}]`)
  const drift =
    o.drift === undefined || (isNumber(o.drift) && o.drift > -1 && o.drift < 1)
      ? o.drift
      : fail('InvalidArgument', `drift ${show(o.drift)} is not a rate in (-1, 1)`)
  return { offset, drift }
}

/** @internal */
export const checkDelayLong = (ms: unknown): number =>
  isNumber(ms) && ms >= 0 && ms <= maxOffset ? ms : fail('TimeOutOfRange', `run ${show(ms)} is not a number of ms in [0, ${maxOffset}]`)
