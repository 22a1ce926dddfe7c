/**
 * Exact interval arithmetic in floating point.
 *
 * Time from `start` on is cut into half-open intervals of `precision`; interval `k` starts
 * at `intervalNumStart(k) = start + k * precision`, computed in doubles. That function is
 * the definition: `intervalNum(x)` is the largest `k` with `intervalNumStart(k) <= x`. So
 * `intervalNumStart(intervalNum(x)) <= x < intervalNumStart(intervalNum(x) + 1)` holds
 * exactly, by construction, whatever rounding the quotient `(x - start) / precision`
 * suffers: the quotient is only a first guess, corrected by at most a few steps.
 *
 * For the intervals to be distinct, consecutive starts must differ. Rounding moves each of
 * `k * precision` and `start + k * precision` by at most half an ulp, so it suffices that
 * every magnitude involved stays below the largest power of two `M` whose ulp is under
 * `precision / 2`. That bounds the interval numbers a wheel can use: `maxIntervalNum`.
 */
import { TimingWheelError, show } from '../errors.js'

/** Interval numbers are keys, which are at most `2^52 - 1`. */
const MAX_KEY = 2 ** 52 - 1
/** How far the first guess may be off, in intervals, before the correction (see above). */
const GUESS_SLACK = 4

export interface Intervals {
  readonly start: number
  readonly precision: number
  readonly perPrecision: number
  /** The last interval number whose interval is distinct from its neighbours. */
  readonly maxIntervalNum: number
  /**
   * Whether `floor((time - start) * perPrecision)` is always the exact interval number of
   * a time (or not finite): so when `start` is 0 and the precision a power of two, where
   * the product only scales by a power of two. Then the check of the quotient is skipped.
   */
  readonly exactQuotient: boolean
}

/**
 * The last interval number `k` such that every interval up to `k + 1` is distinct from
 * its neighbours; negative if not even the first two are.
 */
export const maxExactIntervalNum = (start: number, precision: number): number => {
  // The largest power of two `M` such that every magnitude below it has an ulp under
  // precision / 2, or at most precision / 2 when the precision is a power of two: then
  // `k * precision` is exact and two starts a precision apart stay at least two ulps apart.
  const exactMultiples = 2 ** Math.round(Math.log2(precision)) === precision
  const fine = (magnitude: number): boolean => {
    const ulp = magnitude * 2 ** -53
    return exactMultiples ? ulp <= precision / 2 : ulp < precision / 2
  }
  let magnitude = Math.min(2 ** 1023, 2 ** Math.floor(Math.log2(precision) + 53))
  while (!fine(magnitude)) magnitude /= 2
  while (magnitude < 2 ** 1023 && fine(magnitude * 2)) magnitude *= 2
  const k = Math.floor((magnitude - Math.abs(start)) / precision) - 2
  return Math.min(MAX_KEY, k)
}

/**
 * Why `precision` cannot cut time into intervals from `start` on, or `undefined` if it
 * can. Requires both finite and `precision > 0`. Each search below halves or doubles at
 * most about 2,100 times (the exponent range of doubles), so this returns in bounded time
 * for any input, however extreme.
 */
export const check = (start: number, precision: number): string | undefined => {
  if (maxExactIntervalNum(start, precision) >= 1) return undefined
  const coarser = searchPrecision(start, precision, 2)
  if (coarser !== undefined) {
    return (
      `alarmPrecision ${show(precision)} is too fine for start ${show(start)}: doubles there are ` +
      `${2 ** (Math.floor(Math.log2(Math.abs(start))) - 52)} apart, so its intervals would collapse; ` +
      `use alarmPrecision >= ${coarser}` +
      (maxExactIntervalNum(0, precision) >= 1 ? ` or a start with |start| < ${largestWorkingStart(precision)}` : '')
    )
  }
  const finer = searchPrecision(start, precision, 0.5)
  if (finer !== undefined) {
    return `alarmPrecision ${show(precision)} is too coarse: the second interval from start ${show(start)} would overflow doubles; use alarmPrecision <= ${finer}`
  }
  return `start ${show(start)} is too far from 0 for any alarmPrecision: |start| must be below ${2 ** 1023}`
}

/** The first `precision * factor^j` that keeps intervals distinct from `start` on, if any. */
const searchPrecision = (start: number, precision: number, factor: number): number | undefined => {
  for (let p = precision * factor; Number.isFinite(p) && p > 0; p *= factor) {
    if (maxExactIntervalNum(start, p) >= 1) return p
  }
  return undefined
}

/** The largest `|start|` with which `precision` keeps its first intervals distinct. */
const largestWorkingStart = (precision: number): number =>
  Math.floor((maxExactIntervalNum(0, precision) + 1) * precision)

/**
 * Validates `start` and `precision`. Throws `InvalidConfig` unless both are finite,
 * `precision > 0`, and doubles keep at least the first intervals from `start` apart.
 */
export const create = (start: number, precision: number): Intervals => {
  if (typeof precision !== 'number' || !Number.isFinite(precision) || precision <= 0) {
    throw new TimingWheelError('InvalidConfig', `alarmPrecision ${show(precision)} is not a finite number > 0`)
  }
  if (typeof start !== 'number' || !Number.isFinite(start)) {
    throw new TimingWheelError('InvalidConfig', `start ${show(start)} is not a finite number`)
  }
  const problem = check(start, precision)
  if (problem !== undefined) throw new TimingWheelError('InvalidConfig', problem)
  // `+ 0` turns -0 into 0, which is what a JSON round trip would do anyway.
  return {
    start: start + 0,
    precision,
    perPrecision: 1 / precision,
    maxIntervalNum: maxExactIntervalNum(start, precision),
    exactQuotient: start === 0 && 2 ** Math.round(Math.log2(precision)) === precision,
  }
}

/** The start of interval `k`, for integers `k` in `[0, maxIntervalNum + 1]`. */
export const intervalNumStart = (iv: Intervals, k: number): number => iv.start + k * iv.precision

/**
 * The number of the interval holding `time` if it is in `[low, high]`; otherwise (and for
 * NaN or infinite times) a number outside `[low, high]`. Requires `0 <= low`,
 * `high <= maxIntervalNum`.
 */
export const intervalNumWithin = (iv: Intervals, time: number, low: number, high: number): number => {
  const start = iv.start
  const precision = iv.precision
  const k = Math.floor((time - start) * iv.perPrecision)
  // Mostly the guess is right (always, given `exactQuotient`), which two products confirm;
  // the correction is kept out of line so that callers inline this.
  return k >= low && k <= high && (iv.exactQuotient || (start + k * precision <= time && time < start + (k + 1) * precision))
    ? k
    : correctGuess(iv, time, low, high, k)
}

const correctGuess = (iv: Intervals, time: number, low: number, high: number, guess: number): number => {
  let k = guess
  if (!(k >= low - GUESS_SLACK && k <= high + GUESS_SLACK)) return k >= low ? Infinity : -Infinity
  const start = iv.start
  const precision = iv.precision
  while (k > low - 1 && start + k * precision > time) k--
  while (k < high + 1 && start + (k + 1) * precision <= time) k++
  return k
}
