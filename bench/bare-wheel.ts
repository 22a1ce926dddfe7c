/**
 * Not a peer but a floor: the loads of `npm run bench` on the barest two-level timing
 * wheel, what the design costs without any of the package's guarantees. It has no
 * handles (a timer's row is found from its id, so no generations), no values beside the
 * rows, no checks, no handler protocol (timers are fired straight off their slot), slot
 * arithmetic by shifts, and it finds due timers by stepping through the milliseconds.
 * Its rows are the pool's: 32 bytes, links, id and key.
 *
 * Level 0 has 2^11 slots of 1 ms, level 1 has 2^10 slots of 2^11 ms (2^11 slots for the
 * spread load, whose timers lie up to an hour ahead). A key lives at level 0 if it is in
 * the same 2^11-ms block as `m`, else at level 1; the loads never schedule a timer past
 * level 1's span (2^21 ms, or 2^22), which `place` checks. Each kernel fires the same
 * timers at the same times as every implementation of its driver in `drivers.ts`, so it
 * reports the same checksum.
 */
import { type Churn, type Hold, type Spread, type Timeouts, mix } from './workloads.js'

const LEVEL0_BITS = 11
const LEVEL0_SLOTS = 2 ** LEVEL0_BITS

export interface BareRun {
  readonly nsPerOp: number
  /** The drain's share of `nsPerOp`, for a load that times it apart (churn). */
  readonly drainPerOp?: number
  readonly fired: number
  readonly hash: number
}

/**
 * The rows, their free list and the list operations the kernels share; `m` is the wheel's
 * minimum key. Level 1 has `2^level1Bits` slots: 10 as the package's default level bits,
 * more for a load whose timers lie further ahead than 2^21 ms.
 */
const bareWheel = (elementRows: number, level1Bits = 10) => {
  const level1Mask = 2 ** level1Bits - 1
  const HEADS = LEVEL0_SLOTS + level1Mask + 1
  const span = 2 ** (LEVEL0_BITS + level1Bits)
  const buffer = new ArrayBuffer(32 * (HEADS + elementRows))
  const ints = new Int32Array(buffer) // next, prev, id at 8r, 8r + 1, 8r + 2
  const keys = new Float64Array(buffer) // key at 4r + 2
  for (let head = 0; head < HEADS; head++) {
    ints[8 * head] = head
    ints[8 * head + 1] = head
  }
  let free = -1
  let used = HEADS
  const wheel = {
    ints,
    keys,
    /** Rows below are list heads. */
    heads: HEADS,
    /** Every key is at least `m`. */
    m: 0,
    /** A row off the free list, or the next never used. */
    allocate(): number {
      const row = free
      if (row === -1) return used++
      free = ints[8 * row]!
      return row
    },
    release(row: number): void {
      ints[8 * row] = free
      free = row
    },
    /** Gives `row` the timer `id` due at `key` and links it at its slot. */
    insert(row: number, id: number, key: number): void {
      ints[8 * row + 2] = id
      keys[4 * row + 2] = key
      wheel.place(row, key)
    },
    place(row: number, key: number): void {
      const m = wheel.m
      if (key - m >= span) throw new Error(`bare wheel: key ${key} is beyond its two levels at ${m}`)
      const head = key >>> LEVEL0_BITS === m >>> LEVEL0_BITS ? key & (LEVEL0_SLOTS - 1) : LEVEL0_SLOTS + ((key >>> LEVEL0_BITS) & level1Mask)
      const last = ints[8 * head + 1]!
      ints[8 * last] = row
      ints[8 * row + 1] = last
      ints[8 * row] = head
      ints[8 * head + 1] = row
    },
    unlink(row: number): void {
      const before = ints[8 * row + 1]!
      const after = ints[8 * row]!
      ints[8 * before] = after
      ints[8 * after + 1] = before
    },
    /** Empties the list at `head` and returns its first row (`head` if it was empty). */
    takeAll(head: number): number {
      const first = ints[8 * head]!
      ints[8 * head] = head
      ints[8 * head + 1] = head
      return first
    },
    /**
     * Moves `m` to `key` and empties its level-0 slot, whose head is `key & 2047`;
     * returns the slot's first row, or the head if it was empty.
     */
    takeDue(key: number): number {
      wheel.enter(key)
      return wheel.takeAll(key & (LEVEL0_SLOTS - 1))
    },
    /** Moves `m` to `key`, moving the level-1 slot of a new block down to level 0. */
    enter(key: number): void {
      if (key >>> LEVEL0_BITS === wheel.m >>> LEVEL0_BITS) {
        wheel.m = key
        return
      }
      wheel.m = key
      const head = LEVEL0_SLOTS + ((key >>> LEVEL0_BITS) & level1Mask)
      for (let row = wheel.takeAll(head); row !== head; ) {
        const next = ints[8 * row]!
        wheel.place(row, keys[4 * row + 2]!)
        row = next
      }
    },
  }
  return wheel
}

/**
 * The churn load: each timer's row is `heads + id`, so a cancel is an unlink and the add
 * that follows relinks the same row. The timed region is the operations and the drain,
 * as in `drivers.churn`; ns per operation.
 */
export const bareWheelChurn = (w: Churn): BareRun => {
  const wheel = bareWheel(w.outstanding)
  const ints = wheel.ints
  const { times, victims, outstanding: n, ops } = w
  const heads = wheel.heads
  for (let id = 0; id < n; id++) wheel.insert(heads + id, id, times[id]!)
  let fired = 0
  let hash = 0
  const t0 = process.hrtime.bigint()
  for (let j = 0; j < ops; j++) {
    const id = victims[j]!
    wheel.unlink(heads + id)
    wheel.insert(heads + id, id, times[n + j]!)
  }
  const t1 = process.hrtime.bigint()
  // Advancing to `to` fires the timers of key `to - 1`.
  for (let key = 0; key <= w.maxDelay; key++) {
    const head = key & (LEVEL0_SLOTS - 1)
    for (let row = wheel.takeDue(key); row !== head; ) {
      const next = ints[8 * row]!
      hash = (hash + mix(ints[8 * row + 2]!, key + 1)) >>> 0
      fired++
      row = next
    }
  }
  const t2 = process.hrtime.bigint()
  return { nsPerOp: Number(t2 - t0) / ops, drainPerOp: Number(t2 - t1) / ops, fired, hash }
}

/**
 * The spread load, with 2^11 slots at level 1 (2^22 ms, past the load's hour) so that
 * every alarm moves down once at most; alarm `id`'s row is `heads + id`. The timed region
 * is the adds and the advances, as in `drivers.spread`; ns per alarm.
 */
export const bareWheelSpread = (w: Spread): BareRun => {
  const wheel = bareWheel(w.alarms, 11)
  const ints = wheel.ints
  const { times, alarms, step, span } = w
  let fired = 0
  let hash = 0
  const t0 = process.hrtime.bigint()
  for (let id = 0; id < alarms; id++) wheel.insert(wheel.heads + id, id, times[id]!)
  let key = 0
  for (let to = step; ; to += step) {
    // Advancing to `to` fires the timers of keys below `to`.
    for (; key < to; key++) {
      const head = key & (LEVEL0_SLOTS - 1)
      for (let row = wheel.takeDue(key); row !== head; ) {
        const next = ints[8 * row]!
        hash = (hash + mix(ints[8 * row + 2]!, to)) >>> 0
        fired++
        row = next
      }
    }
    if (to >= span) break
  }
  const ns = Number(process.hrtime.bigint() - t0)
  return { nsPerOp: ns / alarms, fired, hash }
}

/** The most timers of a timeouts load pending at once: the rows its wheel needs. */
const peakOutstanding = (w: Timeouts): number => {
  const stopped = new Uint8Array(w.timers)
  for (const id of w.stopIds) stopped[id] = 1
  const firing = new Int32Array(w.end + 1)
  for (let id = 0; id < w.timers; id++) if (stopped[id] === 0) firing[w.ats[id]! + 1]!++
  let pending = 0
  let peak = 0
  for (let m = 0; m <= w.end; m++) {
    pending -= firing[m]! + (w.stopFirst[m + 1]! - w.stopFirst[m]!)
    if (m < w.ms) pending += w.perMs
    peak = Math.max(peak, pending)
  }
  return peak
}

/**
 * The timeouts load: rows come from a free list, and a table maps each timer's id to its
 * row, as a caller keeps handles. The timed region is the whole run, as in
 * `drivers.timeouts`; ns per timer started.
 */
export const bareWheelTimeouts = (w: Timeouts): BareRun => {
  const wheel = bareWheel(peakOutstanding(w))
  const ints = wheel.ints
  const rowOf = new Int32Array(w.timers)
  const { ats, stopFirst, stopIds, perMs, ms, end } = w
  let fired = 0
  let hash = 0
  let next = 0
  const t0 = process.hrtime.bigint()
  for (let m = 0; m <= end; m++) {
    // Advancing to `m` fires the timers of key `m - 1`.
    if (m > 0) {
      const key = m - 1
      const head = key & (LEVEL0_SLOTS - 1)
      for (let row = wheel.takeDue(key); row !== head; ) {
        const following = ints[8 * row]!
        hash = (hash + mix(ints[8 * row + 2]!, m)) >>> 0
        fired++
        wheel.release(row)
        row = following
      }
    }
    for (let k = stopFirst[m]!, last = stopFirst[m + 1]!; k < last; k++) {
      const row = rowOf[stopIds[k]!]!
      wheel.unlink(row)
      wheel.release(row)
    }
    if (m < ms) {
      for (let j = 0; j < perMs; j++, next++) {
        const row = wheel.allocate()
        rowOf[next] = row
        wheel.insert(row, next, ats[next]!)
      }
    }
  }
  const ns = Number(process.hrtime.bigint() - t0)
  return { nsPerOp: ns / w.timers, fired, hash }
}

/**
 * The hold load: a fired row goes on a free list and the successor takes it at once. It
 * finds the next event by stepping through the milliseconds, which this load (about one
 * event a millisecond) allows. ns per event.
 */
export const bareWheelHold = (w: Hold): BareRun => {
  const wheel = bareWheel(w.pending + 1)
  const ints = wheel.ints
  const { increments, mask } = w
  for (let id = 0; id < w.pending; id++) wheel.insert(wheel.allocate(), id, increments[mix(id, 0) & mask]!)
  let fired = 0
  let hash = 0
  const t0 = process.hrtime.bigint()
  while (fired < w.fired) {
    let key = wheel.m
    for (;;) {
      wheel.enter(key)
      if (ints[8 * (key & (LEVEL0_SLOTS - 1))] !== (key & (LEVEL0_SLOTS - 1))) break
      key++
    }
    // `m` stays at the fired key: a successor due in the next block waits at level 1
    // until the search crosses into that block.
    const head = key & (LEVEL0_SLOTS - 1)
    for (let row = wheel.takeAll(head); row !== head; ) {
      const next = ints[8 * row]!
      const id = ints[8 * row + 2]!
      wheel.release(row)
      const h = mix(id, key)
      hash = (hash + h) >>> 0
      fired++
      wheel.insert(wheel.allocate(), id, key + increments[h & mask]!)
      row = next
    }
  }
  const ns = Number(process.hrtime.bigint() - t0)
  return { nsPerOp: ns / fired, fired, hash }
}
