/**
 * A seeded generator (xoshiro128**, seeded through splitmix32), so that every scheme,
 * every run and every machine plays the same workload.
 */

/** Generator state, advanced in place. */
export interface Random {
  s0: number
  s1: number
  s2: number
  s3: number
}

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k))

/** splitmix32: spreads a small seed over the four words; xoshiro must not start at all zeros. */
export const create = (seed: number): Random => {
  let z = seed | 0
  const next = (): number => {
    z = (z + 0x9e3779b9) | 0
    let x = z
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
    return (x ^ (x >>> 16)) | 0
  }
  return { s0: next(), s1: next(), s2: next(), s3: next() }
}

export const nextUint32 = (r: Random): number => {
  const result = Math.imul(rotl(Math.imul(r.s1, 5), 7), 9) >>> 0
  const t = r.s1 << 9
  r.s2 ^= r.s0
  r.s3 ^= r.s1
  r.s1 ^= r.s2
  r.s0 ^= r.s3
  r.s2 ^= t
  r.s3 = rotl(r.s3, 11)
  return result
}

/** Uniform in `[0, 1)`. */
export const uniform = (r: Random): number => nextUint32(r) / 4294967296

/** Uniform integer in `[low, high]`, for ranges well below 2^32. */
export const intBetween = (r: Random, low: number, high: number): number =>
  low + Math.floor(uniform(r) * (high - low + 1))
