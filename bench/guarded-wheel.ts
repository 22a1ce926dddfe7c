/**
 * The hold and churn loads on a wheel that keeps what the contract asks of a wheel and
 * nothing else, written out with no layer in between: about the least a wheel with those
 * guarantees spends, against which `npm run bench:floors` judges the hold and churn
 * targets.
 *
 * Next to the bare wheel (`bare-wheel.ts`) it has: generation-checked handles, made on
 * add and checked on remove and when a handler reads an alarm's value; alarm times turned
 * into interval numbers exactly (precision 1 from start 0, as the bench's wheel) and
 * checked against the allowed range; levels and slots from `m` for any level bits (the
 * default ones); occupancy bitmaps, which find the next alarm (the bare wheel steps
 * through the milliseconds instead); each slot's least key, kept on add and, when a
 * removal may take it, marked unknown; the handler protocol (the due alarms go to a list
 * of their own, each leaves it before its handler runs, so a handler may add or remove
 * any alarm; errors are caught and the first rethrown after the advance; the row is
 * freed after its handler) and the length. It has no `values` array (the ids are
 * integers, kept in the rows as the package does), no reentrancy guard, no `Option`s and
 * no layer between the time and the queue.
 *
 * Both loads advance the clock one interval at a time: hold to the end of the next
 * alarm's interval, churn 1 ms at a time. So the wheel has only that advance, which a
 * general one would take whenever no alarm lies before the interval it ends.
 */
import type { BareRun } from './bare-wheel.js'
import { setup } from './add-remove-steps.js'
import { type Churn, type Hold, mix } from './workloads.js'

const START = 0
const PRECISION = 1
const PER_PRECISION = 1 / PRECISION

/** Row 0 of `setup`'s rows: the list of due alarms. */
const DUE = 0

const guardedWheel = (elementRows: number) => {
  const { ints, floats, lastKey, slotsPerKey, slotMask, firstHead, firstWord, levelOfHead, occupied, counts, heads } =
    setup(elementRows)
  const top = lastKey.length - 1
  const spans = Float64Array.from(slotMask, (mask, level) => (mask + 1) / slotsPerKey[level]!)
  let m = 0
  let free = -1
  let used = heads
  let length = 0

  /** Sets each level's last key for the minimum `m`, as `setMinimum` in `levels.ts`. */
  const setMinimum = (): void => {
    for (let level = 0; level < top; level++) {
      if (m <= lastKey[level]!) return
      lastKey[level] = Math.floor(m / spans[level]!) * spans[level]! + spans[level]! - 1
    }
    lastKey[top] = (Math.floor(m * slotsPerKey[top]!) + 1 + slotMask[top]! + 1) / slotsPerKey[top]! - 1
  }
  setMinimum()

  const levelOf = (key: number): number => {
    let level = 0
    while (key > lastKey[level]!) level++
    return level
  }

  const slotOf = (level: number, key: number): number => Math.floor(key * slotsPerKey[level]!) & slotMask[level]!

  const place = (row: number, key: number): void => {
    const level = levelOf(key)
    const slot = slotOf(level, key)
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

  /** The row of a handle to a linked alarm (or the one whose handler runs, if `firing`), else -1. */
  const rowOf = (handle: number, firing: boolean): number => {
    const gen = Math.floor(handle * 7.450580596923828e-9)
    const row = handle - gen * 134217728
    return row >= heads && row < used && (ints[8 * row + 2]! & 67108863) === gen && (firing || ints[8 * row + 1] !== -1)
      ? row
      : -1
  }

  const release = (row: number): void => {
    ints[8 * row + 2] = (ints[8 * row + 2]! + 1) & 67108863
    ints[8 * row] = free
    free = row
  }

  /**
   * Unlinks a row; if that empties its list, marks the slot empty, unless it is the due
   * list. Returns whether the list was emptied.
   */
  const unlink = (row: number): boolean => {
    const before = ints[8 * row + 1]!
    const after = ints[8 * row]!
    ints[8 * before] = after
    ints[8 * after + 1] = before
    ints[8 * row + 1] = -1
    if (before !== after) return false
    if (before === DUE) return true
    const level = levelOfHead[before]!
    const slot = before - firstHead[level]!
    occupied[firstWord[level]! + (slot >>> 5)]! &= ~(1 << (slot & 31))
    counts[level]!--
    floats[4 * before + 2] = Infinity
    return true
  }

  const add = (at: number, id: number): number => {
    const key = Math.floor((at - START) * PER_PRECISION)
    if (!(key >= m && key <= lastKey[top]! && START + key * PRECISION <= at && at < START + (key + 1) * PRECISION)) {
      throw new Error(`guarded wheel: time ${at} out of range`)
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

  const remove = (handle: number): void => {
    const row = rowOf(handle, false)
    if (row === -1) throw new Error(`guarded wheel: no alarm ${handle}`)
    const key = floats[4 * row + 2]!
    if (!unlink(row) && key >= m) {
      const level = levelOf(key)
      const head = firstHead[level]! + slotOf(level, key)
      if (floats[4 * head + 2] === key) floats[4 * head + 2] = NaN
    }
    length--
    release(row)
  }

  const valueOf = (handle: number): number => {
    const row = rowOf(handle, true)
    if (row === -1) throw new Error(`guarded wheel: stale handle ${handle}`)
    return ints[8 * row + 3]!
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

  /** The least key on the list at `head`, walking it if a removal made it unknown. */
  const slotLeastKey = (head: number): number => {
    let least = floats[4 * head + 2]!
    if (least === least) return least
    least = Infinity
    for (let row = ints[8 * head]!; row !== head; row = ints[8 * row]!) least = Math.min(least, floats[4 * row + 2]!)
    floats[4 * head + 2] = least
    return least
  }

  return {
    add,
    remove,
    valueOf,
    length: (): number => length,
    /** The minimum allowed key, `m`. */
    minKey: (): number => m,

    /**
     * The least key: the first occupied slot through the bitmaps, lowest level first, and
     * its least key. Below the top a level's keys lie after `m`'s slot (from it, at level
     * 0); the top level wraps around.
     */
    leastKey(): number {
      for (let level = 0; level <= top; level++) {
        if (counts[level] === 0) continue
        const own = slotOf(level, m)
        let slot = firstOccupied(level, level === 0 ? own : own + 1, slotMask[level]!)
        if (slot === -1) slot = firstOccupied(level, 0, own)
        return slotLeastKey(firstHead[level]! + slot)
      }
      return Infinity
    },

    /**
     * Advances to the end of interval `k`, which no alarm lies before: moves `m` past it
     * and fires its alarms, each handler seeing `m = k + 1`.
     */
    fireInterval(k: number, handler: (handle: number) => void): void {
      moveTo(k)
      const slot = slotOf(0, k)
      const head = firstHead[0]! + slot
      const last = ints[8 * head + 1]!
      const first = takeAll(0, slot)
      if (first !== head) {
        // The rows still chain from `first` to `last`: hang them on the due list.
        ints[8 * DUE] = first
        ints[8 * first + 1] = DUE
        ints[8 * last] = DUE
        ints[8 * DUE + 1] = last
      }
      moveTo(k + 1)
      let failed = false
      let error: unknown
      for (let row = ints[8 * DUE]!; row !== DUE; row = ints[8 * DUE]!) {
        unlink(row)
        length--
        try {
          handler((ints[8 * row + 2]! & 67108863) * 134217728 + row)
        } catch (e) {
          if (!failed) {
            failed = true
            error = e
          }
        }
        release(row)
      }
      if (failed) throw error
    },
  }
}

/** The hold load: `nextAlarmFiresAt`, then an advance to it; each handler adds the successor. */
export const guardedHold = (w: Hold): BareRun => {
  const wheel = guardedWheel(w.pending + 1)
  const { increments, mask } = w
  let fired = 0
  let hash = 0
  let k = 0
  const handler = (handle: number): void => {
    const id = wheel.valueOf(handle)
    const h = mix(id, k)
    hash = (hash + h) >>> 0
    fired++
    wheel.add(k + increments[h & mask]!, id)
  }
  for (let id = 0; id < w.pending; id++) wheel.add(increments[mix(id, 0) & mask]!, id)
  const t0 = process.hrtime.bigint()
  while (fired < w.fired) {
    k = wheel.leastKey()
    if (k === Infinity) break
    wheel.fireInterval(k, handler)
  }
  const ns = Number(process.hrtime.bigint() - t0)
  if (wheel.length() !== w.pending) throw new Error(`guarded wheel: ${wheel.length()} pending, not ${w.pending}`)
  return { nsPerOp: ns / fired, fired, hash }
}

/**
 * The churn load, as `drivers.churn` plays it: cancel by handle and add, then the drain,
 * 1 ms at a time; the handler reads the alarm's value through its handle. The drain is
 * timed apart.
 */
export const guardedChurn = (w: Churn): BareRun => {
  const wheel = guardedWheel(w.outstanding + 1)
  const { times, victims, outstanding: n, ops } = w
  const handles = new Float64Array(n)
  let fired = 0
  let hash = 0
  let to = 0
  const handler = (handle: number): void => {
    hash = (hash + mix(wheel.valueOf(handle), to)) >>> 0
    fired++
  }
  for (let id = 0; id < n; id++) handles[id] = wheel.add(times[id]!, id)
  const t0 = process.hrtime.bigint()
  for (let j = 0; j < ops; j++) {
    const id = victims[j]!
    wheel.remove(handles[id]!)
    handles[id] = wheel.add(times[n + j]!, id)
  }
  const t1 = process.hrtime.bigint()
  for (to = 1; to <= w.maxDelay + 1; to++) {
    // Advancing to `to` fires the alarms of the intervals before the one `to` is in.
    const target = Math.floor((to - START) * PER_PRECISION)
    if (target !== wheel.minKey() + 1) throw new Error(`guarded wheel: advance to ${to} passes more than one interval`)
    wheel.fireInterval(target - 1, handler)
  }
  const t2 = process.hrtime.bigint()
  if (wheel.length() !== 0) throw new Error(`guarded wheel: ${wheel.length()} alarms left after the drain`)
  return { nsPerOp: Number(t2 - t0) / ops, drainPerOp: Number(t2 - t1) / ops, fired, hash }
}
