/**
 * The neighbouring doubles of a number: generated times aim at the edges of intervals,
 * where rounding bugs live. Not exported from the package.
 */
const f64 = new Float64Array(1)
const i64 = new BigInt64Array(f64.buffer)

/** The least double above `x` (`x` itself for NaN and `Infinity`). */
export const nextUp = (x: number): number => {
  if (Number.isNaN(x) || x === Infinity) return x
  if (x === 0) return Number.MIN_VALUE
  f64[0] = x
  i64[0]! += x > 0 ? 1n : -1n
  return f64[0]!
}

/** The greatest double below `x` (`x` itself for NaN and `-Infinity`). */
export const nextDown = (x: number): number => -nextUp(-x)

/** `x`, or the double just below or above it. */
export const nudge = (x: number, by: -1 | 0 | 1): number => (by < 0 ? nextDown(x) : by > 0 ? nextUp(x) : x)
