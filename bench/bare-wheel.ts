/**
 * Not a peer but a floor: the hold load on the barest two-level timing wheel, what the
 * design costs without any of the package's guarantees. It has no handles (so no
 * cancelling), no generations, no values beside the rows, no checks, no handler protocol
 * (timers are fired straight off their slot), slot arithmetic by shifts, and it finds the
 * next event by stepping through the milliseconds, which this load (about one event a
 * millisecond) allows. Its rows are the pool's: 32 bytes, links, id and key.
 *
 * Level 0 has 2^11 slots of 1 ms, level 1 has 2^10 slots of 2^11 ms. A key lives at
 * level 0 if it is in the same 2^11-ms block as `m`, else at level 1; the load never
 * schedules an event 2^21 ms ahead (its increments are Exp(pending ms)), which the run
 * checks. It fires the same events at the same times as every implementation of
 * `drivers.hold`, so it reports the same checksum.
 */
import { type Hold, mix } from './workloads.js'

const LEVEL0_BITS = 11
const LEVEL0_SLOTS = 2 ** LEVEL0_BITS
const LEVEL1_SLOTS = 2 ** 10
const HEADS = LEVEL0_SLOTS + LEVEL1_SLOTS

/** The hold load on the bare wheel: ns per event and the drivers' checksum. */
export const bareWheelHold = (w: Hold): { nsPerEvent: number; fired: number; hash: number } => {
  const rows = HEADS + w.pending + 1
  const buffer = new ArrayBuffer(32 * rows)
  const ints = new Int32Array(buffer) // next, prev, id at 8r, 8r + 1, 8r + 2
  const keys = new Float64Array(buffer) // key at 4r + 2
  for (let head = 0; head < HEADS; head++) {
    ints[8 * head] = head
    ints[8 * head + 1] = head
  }
  let free = -1
  let used = HEADS
  /** Every key is at least `m`. */
  let m = 0

  const place = (row: number, key: number): void => {
    if (key - m >= 2 ** 21) throw new Error(`bare wheel: key ${key} is beyond its two levels at ${m}`)
    const head = key >>> LEVEL0_BITS === m >>> LEVEL0_BITS ? key & (LEVEL0_SLOTS - 1) : LEVEL0_SLOTS + ((key >>> LEVEL0_BITS) & (LEVEL1_SLOTS - 1))
    const last = ints[8 * head + 1]!
    ints[8 * last] = row
    ints[8 * row + 1] = last
    ints[8 * row] = head
    ints[8 * head + 1] = row
  }
  const add = (id: number, key: number): void => {
    let row = free
    if (row !== -1) free = ints[8 * row]!
    else row = used++
    ints[8 * row + 2] = id
    keys[4 * row + 2] = key
    place(row, key)
  }
  /** Empties the list at `head` and returns its first row (`head` if it was empty). */
  const takeAll = (head: number): number => {
    const first = ints[8 * head]!
    ints[8 * head] = head
    ints[8 * head + 1] = head
    return first
  }

  const { increments, mask } = w
  for (let id = 0; id < w.pending; id++) add(id, increments[mix(id, 0) & mask]!)
  let fired = 0
  let hash = 0
  const t0 = process.hrtime.bigint()
  while (fired < w.fired) {
    let key = m
    for (;;) {
      if (key >>> LEVEL0_BITS !== m >>> LEVEL0_BITS) {
        // A new block: its level-1 slot moves down to level 0.
        m = key
        const head = LEVEL0_SLOTS + ((key >>> LEVEL0_BITS) & (LEVEL1_SLOTS - 1))
        for (let row = takeAll(head); row !== head; ) {
          const next = ints[8 * row]!
          place(row, keys[4 * row + 2]!)
          row = next
        }
      }
      if (ints[8 * (key & (LEVEL0_SLOTS - 1))] !== (key & (LEVEL0_SLOTS - 1))) break
      key++
    }
    // `m` stays at the fired key: a successor due in the next block waits at level 1
    // until the search crosses into that block.
    m = key
    const head = key & (LEVEL0_SLOTS - 1)
    for (let row = takeAll(head); row !== head; ) {
      const next = ints[8 * row]!
      const id = ints[8 * row + 2]!
      ints[8 * row] = free
      free = row
      const h = mix(id, key)
      hash = (hash + h) >>> 0
      fired++
      add(id, key + increments[h & mask]!)
      row = next
    }
  }
  const ns = Number(process.hrtime.bigint() - t0)
  return { nsPerEvent: ns / fired, fired, hash }
}
