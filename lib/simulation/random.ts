/**
 * The simulation's one source of randomness: pure-rand's xoroshiro128+ seeded from a
 * 32-bit integer, used in place (pure-rand's unsafe, mutating form: one object, no
 * allocation a draw). Every random choice of a run (latencies, losses, duplicates, fault
 * points, and after `install` the program's `Math.random`, `crypto.getRandomValues` and
 * `crypto.randomUUID`) is drawn from it in the order the run makes them, so the same seed
 * and the same program give the same draws.
 *
 * Floats are multiples of 2^-53 in [0, 1), as `Math.random`'s are; integers are uniform
 * without modulo bias (pure-rand's `uniformInt`); bytes come four to a draw.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'

/** A seeded generator, advanced in place by every draw. */
export type Generator = ReturnType<typeof xoroshiro128plus>

/** A generator from `seed`. xoroshiro128+'s first outputs from a small seed are weak (the first is `-seed - 1`), so 16 are skipped. */
export const create = (seed: number): Generator => {
  const g = xoroshiro128plus(seed)
  for (let i = 0; i < 16; i++) g.next()
  return g
}

/** A float in [0, 1). */
export const float = (g: Generator): number => uniformFloat64(g)

/** An integer in [min, max], both included. */
export const int = (g: Generator, min: number, max: number): number => uniformInt(g, min, max)

/** Whether an event of probability `p` happens; draws nothing when `p` is 0 or 1, so a link without faults costs no draws. */
export const chance = (g: Generator, p: number): boolean => (p <= 0 ? false : p >= 1 ? true : uniformFloat64(g) < p)

/** Fills `bytes` with random bytes. */
export const fill = (g: Generator, bytes: Uint8Array): void => {
  for (let i = 0; i < bytes.length; i += 4) {
    let word = g.next()
    for (let j = i; j < i + 4 && j < bytes.length; j++, word >>>= 8) bytes[j] = word & 0xff
  }
}

/** An RFC 9562 version 4 UUID, as `crypto.randomUUID` makes them. */
export const uuid = (g: Generator): string => {
  const b = new Uint8Array(16)
  fill(g, b)
  b[6] = (b[6]! & 0x0f) | 0x40
  b[8] = (b[8]! & 0x3f) | 0x80
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
