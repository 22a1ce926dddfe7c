/**
 * The hold load on a kernel that keeps what the contract asks of a wheel, written out in
 * one function (with small inner helpers) and the handler inlined: about the least a
 * wheel with those guarantees spends per event here, against which `npm run bench:floors`
 * judges the hold target.
 *
 * Next to the bare wheel (`bare-wheel.ts`) it has: generation-checked handles, made on
 * add and checked when the handler reads the alarm's value; alarm times turned into
 * interval numbers exactly (precision 1 from start 0, as the bench's wheel) and checked
 * against the allowed range; levels and slots from `m` for any level bits (the default
 * ones); occupancy bitmaps, which find the next alarm (the bare wheel steps through the
 * milliseconds instead); each slot's least key, kept on add (the load removes nothing, so
 * keeping it costs nothing else); the handler protocol (the alarm leaves its slot before
 * its handler runs, errors are caught and the first rethrown after the advance, the row is
 * freed after) and the length. It has no `values` array (the ids are integers, kept in
 * the rows as the package does), no reentrancy guard, no `Option`s and no layer between
 * the time and the queue.
 */
import type { BareRun } from './bare-wheel.js'
import { setup } from './add-remove-steps.js'
import { type Hold, mix } from './workloads.js'

export const guardedHold = (w: Hold): BareRun => {
  const { ints, floats, lastKey, slotsPerKey, slotMask, firstHead, firstWord, occupied, counts, heads } = setup(w.pending + 1)
  const top = lastKey.length - 1
  const spans = Float64Array.from(slotMask, (mask, level) => (mask + 1) / slotsPerKey[level]!)
  const start = 0
  const precision = 1
  const perPrecision = 1 / precision
  const { increments, mask } = w
  let m = 0
  let free = -1
  let used = heads
  let length = 0
  let fired = 0
  let hash = 0

  /** Sets each level's last key for the minimum `m`, as `setMinimum` in `levels.ts`. */
  const setMinimum = (): void => {
    for (let level = 0; level < top; level++) {
      if (m <= lastKey[level]!) return
      lastKey[level] = Math.floor(m / spans[level]!) * spans[level]! + spans[level]! - 1
    }
    lastKey[top] = (Math.floor(m * slotsPerKey[top]!) + 1 + slotMask[top]! + 1) / slotsPerKey[top]! - 1
  }
  setMinimum()

  const place = (row: number, key: number): void => {
    let level = 0
    while (key > lastKey[level]!) level++
    const slot = Math.floor(key * slotsPerKey[level]!) & slotMask[level]!
    const head = firstHead[level]! + slot
    if (ints[8 * head] === head) {
      occupied[firstWord[level]! + (slot >>> 5)]! |= 1 << (slot & 31)
      counts[level]!++
    }
    const last = ints[8 * head + 1]!
    ints[8 * last] = row
    ints[8 * row + 1] = last
    ints[8 * row] = head
    ints[8 * head + 1] = row
    if (floats[4 * head + 2]! > key) floats[4 * head + 2] = key
  }

  const add = (at: number, id: number): number => {
    const key = Math.floor((at - start) * perPrecision)
    if (!(key >= m && key <= lastKey[top]! && start + key * precision <= at && at < start + (key + 1) * precision)) {
      throw new Error(`hold kernel: time ${at} out of range`)
    }
    let row = free
    if (row !== -1) free = ints[8 * row]!
    else row = used++
    floats[4 * row + 2] = key
    floats[4 * row + 3] = at
    ints[8 * row + 3] = id
    ints[8 * row + 2] = ints[8 * row + 2]! | 1073741824
    place(row, key)
    length++
    return (ints[8 * row + 2]! & 67108863) * 134217728 + row
  }

  /** Empties a slot, marking it so, and returns its first row (the head if it was empty). */
  const takeAll = (level: number, slot: number): number => {
    const head = firstHead[level]! + slot
    const first = ints[8 * head]!
    if (first === head) return head
    ints[8 * head] = head
    ints[8 * head + 1] = head
    floats[4 * head + 2] = Infinity
    occupied[firstWord[level]! + (slot >>> 5)]! &= ~(1 << (slot & 31))
    counts[level]!--
    return first
  }

  /** Moves `m` up to `t`, moving down the slot of each block it enters. */
  const moveTo = (t: number): void => {
    const old = m
    m = t
    setMinimum()
    for (let level = 1; level <= top; level++) {
      const block = Math.floor(t * slotsPerKey[level]!)
      if (block === Math.floor(old * slotsPerKey[level]!)) return
      const slot = block & slotMask[level]!
      const head = firstHead[level]! + slot
      for (let row = takeAll(level, slot); row !== head; ) {
        const next = ints[8 * row]!
        place(row, floats[4 * row + 2]!)
        row = next
      }
    }
  }

  /** The first occupied slot of `level` in `[from, to]`, 32 slots a step; -1 if none. */
  const firstOccupied = (level: number, from: number, to: number): number => {
    const base = firstWord[level]!
    for (let slot = from; slot <= to; slot = (slot | 31) + 1) {
      let word = occupied[base + (slot >>> 5)]! & (-1 << (slot & 31))
      if ((slot | 31) > to) word &= -1 >>> (31 - (to & 31))
      if (word !== 0) return (slot & ~31) + 31 - Math.clz32(word & -word)
    }
    return -1
  }

  /**
   * The least key: the first occupied slot through the bitmaps, lowest level first, and
   * its least key. Below the top a level's keys lie after `m`'s slot (from it, at level
   * 0); the top level wraps around.
   */
  const leastKey = (): number => {
    for (let level = 0; level <= top; level++) {
      if (counts[level] === 0) continue
      const own = Math.floor(m * slotsPerKey[level]!) & slotMask[level]!
      let slot = firstOccupied(level, level === 0 ? own : own + 1, slotMask[level]!)
      if (slot === -1) slot = firstOccupied(level, 0, own)
      return floats[4 * (firstHead[level]! + slot) + 2]!
    }
    return Infinity
  }

  for (let id = 0; id < w.pending; id++) add(increments[mix(id, 0) & mask]!, id)
  const t0 = process.hrtime.bigint()
  while (fired < w.fired) {
    const k = leastKey()
    if (k === Infinity) break
    // `nextAlarmFiresAt`, then `advanceClock` to it: the alarms of interval `k` fire.
    const to = start + (k + 1) * precision
    const target = Math.floor((to - start) * perPrecision)
    moveTo(k)
    const slot = Math.floor(k * slotsPerKey[0]!) & slotMask[0]!
    const head = firstHead[0]! + slot
    let row = takeAll(0, slot)
    moveTo(target)
    let failed = false
    let error: unknown
    while (row !== head) {
      const next = ints[8 * row]!
      ints[8 * row + 1] = -1
      length--
      const handle = (ints[8 * row + 2]! & 67108863) * 134217728 + row
      try {
        // The handler: reads the alarm's value through its handle, adds the successor.
        const gen = Math.floor(handle * 7.450580596923828e-9)
        const r = handle - gen * 134217728
        if (!(r >= heads && r < used && (ints[8 * r + 2]! & 67108863) === gen)) throw new Error('stale handle')
        const id = ints[8 * r + 3]!
        const h = mix(id, k)
        hash = (hash + h) >>> 0
        fired++
        add(k + increments[h & mask]!, id)
      } catch (e) {
        if (!failed) {
          failed = true
          error = e
        }
      }
      ints[8 * row + 2] = (ints[8 * row + 2]! + 1) & 67108863
      ints[8 * row] = free
      free = row
      row = next
    }
    if (failed) throw error
  }
  const ns = Number(process.hrtime.bigint() - t0)
  if (length !== w.pending) throw new Error(`hold kernel: ${length} pending, not ${w.pending}`)
  return { nsPerOp: ns / fired, fired, hash }
}
