/**
 * A seeded source of random numbers (sfc32), so that every implementation, every run and
 * every machine plays exactly the same workload.
 */

/** Generator state; advanced in place by the functions below. */
export interface Random {
  a: number
  b: number
  c: number
  d: number
}

/** A generator for `seed`; its first outputs are discarded because sfc32 mixes slowly from small seeds. */
export const create = (seed: number): Random => {
  const r: Random = { a: 0x9e3779b9, b: 0x243f6a88, c: 0xb7e15162, d: seed | 0 }
  for (let i = 0; i < 15; i++) nextUint32(r)
  return r
}

export const nextUint32 = (r: Random): number => {
  const t = (((r.a + r.b) | 0) + r.d) | 0
  r.d = (r.d + 1) | 0
  r.a = r.b ^ (r.b >>> 9)
  r.b = (r.c + (r.c << 3)) | 0
  r.c = (r.c << 21) | (r.c >>> 11)
  r.c = (r.c + t) | 0
  return t >>> 0
}

/** Uniform in `[0, 1)` with 53 random bits. */
export const uniform = (r: Random): number =>
  ((nextUint32(r) >>> 5) * 67108864 + (nextUint32(r) >>> 6)) / 9007199254740992

/** Uniform integer in `[low, high]`. */
export const intBetween = (r: Random, low: number, high: number): number =>
  low + Math.floor(uniform(r) * (high - low + 1))

/** Exponentially distributed with mean `mean`. */
export const exponential = (r: Random, mean: number): number => -mean * Math.log(1 - uniform(r))
