/**
 * How `@sinonjs/fake-timers` 15 turns what callers pass into milliseconds. A drop-in has to
 * reproduce these rules exactly, quirks included, because tests depend on them without
 * knowing it: `setTimeout(f, 1e-7)` waits 1 ms, because the delay goes through
 * `parseInt(String(delay))` and `String(1e-7)` is `"1e-7"`; a zero delay asked for while
 * timers are firing waits 1 ms; `setInterval(f, -5)` keeps its negative period.
 *
 * Every function here is pure apart from the `duringTick` flag passed in. None of them
 * is exported from the package.
 */

/** The largest delay browsers and Node honour, 2^31 - 1; larger ones mean 1 ms (WebIDL's `long`). */
export const maxTimeout = 2 ** 31 - 1

/** Timer ids start here, far above the ids native timers hand out. */
export const firstTimerId = 1e12

/** Animation frames fall on multiples of 16 ms of elapsed time. */
export const frameMs = 16

/**
 * A `setTimeout` delay after coercion: non-numbers through `parseInt(x, 10)`, then NaN
 * and infinities to 0, anything above `maxTimeout` to 1, negatives to 0. Fractions stay;
 * {@link dueOffset} decides what they mean. Throws what `parseInt` throws (for a symbol).
 * Constant time.
 *
 * @example
 * coerceDelay('12px') // 12
 * coerceDelay(-5)     // 0
 * coerceDelay(2 ** 31) // 1
 */
export const coerceDelay = (raw: unknown): number => {
  let delay = typeof raw === 'number' ? raw : parseInt(raw as string, 10)
  if (!Number.isFinite(delay)) delay = 0
  if (delay > maxTimeout) delay = 1
  return Math.max(0, delay)
}

/**
 * `setInterval` parses its delay once, `parseInt(String(raw), 10)`, and uses the result
 * both as the first delay (through {@link coerceDelay}) and as the period.
 *
 * @example
 * parseIntervalDelay(2.9)  // 2
 * parseIntervalDelay(null) // NaN
 */
export const parseIntervalDelay = (raw: unknown): number => parseInt(String(raw), 10)

/**
 * The period of an interval: NaN and infinities mean 1, above `maxTimeout` means 1.
 * Zero and negative periods are kept, as fake-timers keeps them: a zero period fires
 * again at the same time, a negative one re-arms in the past.
 *
 * @example
 * coerceInterval(Number.NaN) // 1
 * coerceInterval(-3)         // -3
 */
export const coerceInterval = (parsed: number): number =>
  !Number.isFinite(parsed) || parsed > maxTimeout ? 1 : parsed

/**
 * How far after now a timer with this (coerced) delay is due. The delay is printed and
 * parsed again, so fractions truncate and exponent notation reads as its mantissa; a
 * zero (or missing) delay means 0 at rest but 1 while timers fire, so that a callback
 * cannot starve the clock by scheduling at its own time.
 *
 * @example
 * dueOffset(1e-7, false)     // 1: String(1e-7) is "1e-7"
 * dueOffset(0, true)         // 1
 * dueOffset(undefined, false) // 0
 */
export const dueOffset = (delay: number | undefined, duringTick: boolean): number =>
  // Coerced delays are at most maxTimeout, and whole ones that small print as themselves.
  (Number.isInteger(delay) ? (delay as number) : parseInt(String(delay))) || (duringTick ? 1 : 0)

/**
 * The sub-millisecond part of a tick, in whole nanoseconds in `[0, 1e6)`, computed the
 * way fake-timers does (in floating point, so huge odd tick lengths get spurious
 * nanoseconds there too).
 *
 * @example
 * nanoRemainder(1.5)  // 500000
 * nanoRemainder(-0.25) // 750000
 */
export const nanoRemainder = (msFloat: number): number => {
  const remainder = (msFloat * 1e6) % 1e6
  return Math.floor(remainder < 0 ? remainder + 1e6 : remainder)
}

/**
 * `"ss"`, `"mm:ss"` or `"hh:mm:ss"` in milliseconds; the empty string is 0. Throws an
 * `Error` with fake-timers' message for anything else or a part of 60 or more.
 *
 * @example
 * parseTime('01:30') // 90000
 */
export const parseTime = (str: string): number => {
  if (!str) return 0
  const parts = str.split(':')
  if (parts.length > 3 || !/^(\d\d:){0,2}\d\d?$/.test(str)) {
    throw new Error("tick only understands numbers, 'm:s' and 'h:m:s'. Each part must be two digits")
  }
  let seconds = 0
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parseInt(parts[i]!, 10)
    if (part >= 60) throw new Error(`Invalid time ${str}`)
    seconds += part * 60 ** (parts.length - i - 1)
  }
  return seconds * 1000
}

/** Something with a `total` method, as a `Temporal.Duration` has. */
interface DurationLike {
  total(options: { unit: 'millisecond' }): number
}

const isDurationLike = (value: unknown): value is DurationLike =>
  typeof value === 'object' && value !== null && typeof (value as { total?: unknown }).total === 'function'

/**
 * What `tick` and `jump` accept, in milliseconds: a number as it is, a duration through
 * its `total`, anything else through {@link parseTime} (which may throw).
 *
 * @example
 * tickValueToMs('00:02') // 2000
 */
export const tickValueToMs = (value: unknown): number => {
  if (typeof value === 'number') return value
  if (isDurationLike(value)) return value.total({ unit: 'millisecond' })
  return parseTime(value as string)
}

/**
 * A system time as milliseconds since the epoch: falsy means 0, a number is itself, a
 * `Date` its `getTime()`, a `Temporal.Instant`-like its `epochMilliseconds`. Throws a
 * `TypeError` (fake-timers' message) for anything else, and a `RangeError` for a time
 * that is not finite, which fake-timers would accept and then compute nonsense from.
 *
 * @example
 * epochOf(new Date(5)) // 5
 * epochOf(undefined)   // 0
 */
export const epochOf = (value: unknown): number => {
  const ms = epochOrNaN(value)
  if (!Number.isFinite(ms)) {
    throw new RangeError(`VirtualClock: the time ${String(ms)} is not a finite number of milliseconds`)
  }
  return ms
}

const epochOrNaN = (value: unknown): number => {
  // A number first: NaN is falsy but not "no time" (fake-timers reads it as 0).
  if (typeof value === 'number') return value
  if (!value) return 0
  const v = value as { getTime?: unknown; epochMilliseconds?: unknown }
  if (typeof v.getTime === 'function') return (v.getTime as () => number).call(value)
  if (typeof v.epochMilliseconds === 'number') return v.epochMilliseconds
  throw new TypeError('now should be milliseconds since UNIX epoch')
}
