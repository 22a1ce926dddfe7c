/** The neighbouring doubles of `x`: the tests aim at the edges of intervals with them. */
const f64 = new Float64Array(1)
const i64 = new BigInt64Array(f64.buffer)

export const nextUp = (x: number): number => {
  if (Number.isNaN(x) || x === Infinity) return x
  if (x === 0) return Number.MIN_VALUE
  f64[0] = x
  i64[0]! += x > 0 ? 1n : -1n
  return f64[0]!
}

export const nextDown = (x: number): number => -nextUp(-x)
