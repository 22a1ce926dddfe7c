/**
 * The geometry of the levels: where a key goes given the queue's minimum allowed key
 * `m`, and the occupancy bitmaps that find the next non-empty slot without visiting
 * empty ones.
 *
 * With level widths `b0, b1, ...` let `B(i) = b0 + ... + bi` and `B(-1) = 0`. Level `i`
 * has `2^bi` slots, and its slot `s` holds keys whose bits `[B(i-1), B(i))` equal `s`.
 * A key `k >= m` lives at the lowest level `i` at which `k` and `m` fall in the same
 * block of `2^B(i)` keys: the level is given by the highest bit in which `k` and `m`
 * differ. So below the top level, a level only ever holds keys of the block that `m` is
 * in, its slots never wrap around, and all keys at a level are smaller than all keys at
 * any higher level. The top level is a circular buffer: it holds the `2^b(top)` blocks of
 * `2^B(top-1)` keys that follow `m`'s block (with one level, the `2^b0` keys from `m`).
 * A level-0 slot holds one key, so its list is in key order whatever arrives.
 *
 * Because a key's place depends only on the key and `m`, equal keys always share a slot,
 * and a slot's list keeps equal keys in the order they were added. When `m` moves into a
 * new block at some level, the slot of that block is emptied and its elements placed
 * again, lower down (see `moveMinAllowedKey` in priority-queue.ts).
 *
 * The fields live on the queue itself (see {@link Levels}), not in an object of their
 * own: placing an element reads several of them, and each hop through another object is
 * a dependent load on the hot path.
 */
import { type Rows, noteLinked, takeHeads } from './pool.js'

export const NOT_FOUND = -1

/** The levels of a queue: the fields the queue keeps for this file. */
export interface Levels {
  /** The minimum allowed key `m`. */
  minAllowedKey: number
  /** Derived from `m`: the last key of the top level, capped at the largest representable key. */
  maxAllowedKey: number
  readonly levelCount: number
  readonly top: number
  /** `slotMask[i] = 2^bi - 1`. */
  readonly slotMask: Int32Array
  /** `keysPerSlot[i] = 2^B(i-1)`, and its inverse, which divides exactly. */
  readonly keysPerSlot: Float64Array
  readonly slotsPerKey: Float64Array
  /**
   * The last key each level holds for the current minimum `m` (derived from `m`: see
   * `setMinimum`). A key lives at the first level whose last key is not below it, which
   * is the level given by the highest bit in which it differs from `m`.
   */
  readonly lastKey: Float64Array
  /**
   * `lastKey[0]` and `lastKey[1]` as plain numbers with more than two levels, else -1:
   * what the wheel's `add` compares a key with, where a typed array would cost it checks.
   */
  quick0: number
  quick1: number
  /**
   * `slotMask[0]`, `slotMask[1]`, `slotsPerKey[1]` and `firstWord[1]` as plain numbers (0
   * with one level), for the same reason: each typed array a function reads costs it a
   * map check and a bounds check per read.
   */
  readonly mask0: number
  readonly mask1: number
  readonly perKey1: number
  readonly word1: number
  /** Occupancy bitmaps, one bit a slot, level `i` from word `firstWord[i]`. */
  readonly occupied: Int32Array
  readonly firstWord: Int32Array
  /** How many slots of each level are non-empty. */
  readonly occupiedSlots: Int32Array
  /**
   * The head rows of each run of 32 slots that bitmap word `w` covers are rows
   * `headBase[w]` to `headBase[w] + 31`, taken from the pool when a slot of the run is
   * first used; 0 (the due list's head, never a slot's) until then. So a level costs 8
   * bytes per 32 slots until it is used, and the pool a row per slot of the runs in use.
   */
  readonly headBase: Int32Array
}

/** Sets the levels' fields of a new queue, `levels`, for level widths `levelBits`, with `m = 0`. */
export const initLevels = (
  levels: { -readonly [K in keyof Levels]: Levels[K] },
  levelBits: readonly number[],
  maxKey: number,
): void => {
  const count = levelBits.length
  const firstWord = new Int32Array(count)
  let words = 0
  levelBits.forEach((b, level) => {
    firstWord[level] = words
    words += Math.ceil(2 ** b / 32)
  })
  let bitsBelow = 0
  const keysPerSlot = Float64Array.from(levelBits, (b) => {
    const keys = 2 ** bitsBelow
    bitsBelow += b
    return keys
  })
  levels.minAllowedKey = 0
  levels.maxAllowedKey = 0
  levels.levelCount = count
  levels.top = count - 1
  levels.slotMask = Int32Array.from(levelBits, (b) => 2 ** b - 1)
  levels.keysPerSlot = keysPerSlot
  levels.slotsPerKey = keysPerSlot.map((keys) => 1 / keys)
  levels.lastKey = new Float64Array(count).fill(-1) // below any minimum: `setMinimum` fills it
  levels.quick0 = -1
  levels.quick1 = -1
  levels.mask0 = levels.slotMask[0]!
  levels.mask1 = count > 1 ? levels.slotMask[1]! : 0
  levels.perKey1 = count > 1 ? levels.slotsPerKey[1]! : 0
  levels.word1 = count > 1 ? firstWord[1]! : 0
  levels.occupied = new Int32Array(words)
  levels.firstWord = firstWord
  levels.occupiedSlots = new Int32Array(count)
  levels.headBase = new Int32Array(words)
  setMinimum(levels, 0, maxKey)
  levels.maxAllowedKey = levels.lastKey[levels.top]!
}

/** The head row of a slot whose run of 32 has its heads (every slot that holds or held an element). */
export const headOf = (levels: Levels, level: number, slot: number): number =>
  levels.headBase[levels.firstWord[level]! + (slot >>> 5)]! + (slot & 31)

/**
 * Sets the levels' last keys for a minimum allowed key `m` not below the last one: below
 * the top, the end of `m`'s aligned block of `2^B(i)` keys; at the top, the end of its
 * circular range, capped at `maxKey`.
 */
export const setMinimum = (levels: Levels, m: number, maxKey: number): void => {
  setLastKeys(levels, m, maxKey)
  const more = levels.top > 1
  levels.quick0 = more ? levels.lastKey[0]! : -1
  levels.quick1 = more ? levels.lastKey[1]! : -1
}

const setLastKeys = (levels: Levels, m: number, maxKey: number): void => {
  const top = levels.top
  for (let level = 0; level < top; level++) {
    // `m` only grows: still in its old block at this level, it is at every higher level
    // too, and nothing above changes.
    if (m <= levels.lastKey[level]!) return
    const span = levelSpan(levels, level)
    levels.lastKey[level] = Math.floor(m / span) * span + span - 1
  }
  levels.lastKey[top] = Math.min(maxKey, maxKeyHeld(levels, m))
}

/** The keys one whole level covers: `2^B(level)`. */
const levelSpan = (levels: Levels, level: number): number => levels.keysPerSlot[level]! * (levels.slotMask[level]! + 1)

/** The level at which `key` lives; requires `m <= key <= lastKey[top]`. Mostly one or two compares. */
export const levelOf = (levels: Levels, key: number): number => {
  const lastKey = levels.lastKey
  let level = 0
  while (key > lastKey[level]!) level++
  return level
}

/**
 * The slot of `key` at `level`: bits `[B(level-1), B(level))` of the key. `&` takes a
 * double modulo 2^32, which is exact for integers below 2^53, after truncating it, which
 * for a key (never negative) is its floor: the quotient by a power of two is exact, so it
 * needs no `Math.floor`.
 */
export const slotOf = (levels: Levels, level: number, key: number): number =>
  level === 0 ? key & levels.mask0 : (key * levels.slotsPerKey[level]!) & levels.slotMask[level]!

/**
 * Links `row`, whose key is `key`, at the end of its slot, marking the slot occupied.
 * Small enough to be inlined into `add` and into the loop that moves a slot down.
 */
export const place = (q: Levels & Rows<unknown>, row: number, key: number): void => {
  const lastKey = q.lastKey
  if (key <= lastKey[0]!) linkAt(q, 0, key & q.mask0, row)
  else placeAbove(q, row, key)
}

/** {@link place} above level 0, where each slot keeps its least key. */
const placeAbove = (q: Levels & Rows<unknown>, row: number, key: number): void => {
  const lastKey = q.lastKey
  let level = 1
  while (key > lastKey[level]!) level++
  noteLinked(q, linkAt(q, level, slotOf(q, level, key), row), row, key)
}

/** Links `row` at the end of a slot, marking the slot occupied, and returns the slot's head. */
const linkAt = (q: Levels & Rows<unknown>, level: number, slot: number, row: number): number => {
  const word = q.firstWord[level]! + (slot >>> 5)
  let first = q.headBase[word]!
  if (first === 0) first = takeRunOfHeads(q, level, slot)
  const head = first + (slot & 31)
  const ints = q.ints
  const last = ints[(head << 3) | 1]!
  if (last === head) {
    q.occupied[word] = q.occupied[word]! | (1 << (slot & 31))
    q.occupiedSlots[level]!++
  }
  ints[last << 3] = row
  ints[(row << 3) | 1] = last
  ints[row << 3] = head
  ints[(head << 3) | 1] = row
  return head
}

/** Gives the run of 32 slots (fewer on a narrow level) that holds `slot` its heads, and returns its first. */
const takeRunOfHeads = (q: Levels & Rows<unknown>, level: number, slot: number): number => {
  const count = Math.min(32, q.slotMask[level]! + 1)
  const first = takeHeads(q, count, level, slot & ~31)
  q.headBase[q.firstWord[level]! + (slot >>> 5)] = first
  return first
}

/**
 * The smallest key that slot `slot` of `level` can hold when the minimum allowed key is
 * `m`; for level 0 below the top, the one key it holds.
 */
export const slotMinKey = (levels: Levels, level: number, slot: number, m: number): number => {
  const keysPerSlot = levels.keysPerSlot[level]!
  if (level < levels.top) {
    const span = levelSpan(levels, level)
    return Math.floor(m / span) * span + slot * keysPerSlot
  }
  const firstBlock = firstTopBlock(levels, m)
  const ahead = (slot - firstBlock) & levels.slotMask[level]!
  return (firstBlock + ahead) * keysPerSlot
}

/** The number of the first block of keys held by the top level. */
const firstTopBlock = (levels: Levels, m: number): number => {
  const block = Math.floor(m * levels.slotsPerKey[levels.top]!)
  return levels.top === 0 ? block : block + 1
}

/** The first slot of `level` that may hold keys when the minimum allowed key is `m`. */
export const firstSlotInUse = (levels: Levels, level: number, m: number): number => {
  if (level === levels.top) return firstTopBlock(levels, m) & levels.slotMask[level]!
  const slot = slotOf(levels, level, m)
  // Below the top, the slot holding `m` itself is in use only at level 0: at higher
  // levels, `m`'s own block lives further down.
  return level === 0 ? slot : slot + 1
}

/**
 * The largest key the levels can hold when the minimum allowed key is `m` (before
 * capping at the largest representable key).
 */
export const maxKeyHeld = (levels: Levels, m: number): number => {
  const top = levels.top
  return (firstTopBlock(levels, m) + levels.slotMask[top]! + 1) * levels.keysPerSlot[top]! - 1
}

/** The last slot of a level below the top whose keys may be below `bound`. */
export const lastSlotBelow = (levels: Levels, level: number, bound: number): number => {
  const span = levelSpan(levels, level)
  const levelEnd = Math.floor(levels.minAllowedKey / span) * span + span
  return bound > levelEnd ? levels.slotMask[level]! : slotOf(levels, level, bound - 1)
}

// Occupancy bitmaps.

export const markEmpty = (levels: Levels, level: number, slot: number): void => {
  const word = levels.firstWord[level]! + (slot >>> 5)
  levels.occupied[word] = levels.occupied[word]! & ~(1 << (slot & 31))
  levels.occupiedSlots[level]!--
}

export const isOccupied = (levels: Levels, level: number, slot: number): boolean =>
  (levels.occupied[levels.firstWord[level]! + (slot >>> 5)]! & (1 << (slot & 31))) !== 0

/** The first occupied slot of `level` in `[from, to]`, 32 slots a step; -1 if none. */
export const nextOccupied = (levels: Levels, level: number, from: number, to: number): number => {
  if (from > to) return NOT_FOUND
  const occupied = levels.occupied
  const base = levels.firstWord[level]!
  const lastWord = to >>> 5
  let w = from >>> 5
  let word = occupied[base + w]! & (-1 << (from & 31))
  for (;;) {
    if (w === lastWord) word &= -1 >>> (31 - (to & 31))
    if (word !== 0) return (w << 5) + 31 - Math.clz32(word & -word)
    if (w === lastWord) return NOT_FOUND
    word = occupied[base + ++w]!
  }
}

/**
 * The first occupied slot of `level` in circular order from `from`, wrapping at the end
 * of the level; -1 if the level is empty.
 */
export const nextOccupiedAround = (levels: Levels, level: number, from: number): number => {
  const found = nextOccupied(levels, level, from, levels.slotMask[level]!)
  return found !== NOT_FOUND ? found : nextOccupied(levels, level, 0, from - 1)
}

export const clearOccupancy = (levels: Levels): void => {
  levels.occupied.fill(0)
  levels.occupiedSlots.fill(0)
}
