/**
 * A yardstick for the growth-in-n tables: the time of one dependent random read in a
 * working set of 16·n bytes, about what the schemes' records for n timers occupy (two
 * 32-bit links and a 64-bit expiry, or a heap's id and key and position).
 *
 * The paper counts instructions; the machine also charges for cache misses. A routine
 * that touches a few random timer records per call is O(1) in instructions, but its cost
 * grows with n the way this read's does, as the records outgrow each cache level. The
 * analysis divides by this to tell that growth from more work.
 */
import * as Random from './random.js'

/** Ints per record: 16 bytes, so each read lands on its own record. */
const stride = 4

/**
 * A single cycle through n records in random order (Sattolo's algorithm), written so that
 * `chain[stride * i]` holds the index of the record after record i.
 */
export const chain = (n: number, seed: number): Int32Array => {
  const r = Random.create(seed ^ 0x5bd1e995 ^ n)
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  for (let i = n - 1; i > 0; i--) {
    const j = Random.intBetween(r, 0, i - 1)
    const t = order[i]!
    order[i] = order[j]!
    order[j] = t
  }
  const next = new Int32Array(stride * n)
  for (let i = 0; i < n; i++) next[stride * i] = stride * order[i]!
  return next
}

/** Ns per read over `steps` dependent reads along `next`: each read's address is the last read's value. */
export const timeChase = (next: Int32Array, steps: number): number => {
  let at = 0
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < steps; i++) at = next[at]!
  const ns = Number(process.hrtime.bigint() - t0)
  // Using `at` keeps the loop from being optimized away.
  if (at < 0) throw new Error('unreachable')
  return ns / steps
}
