/**
 * The element pool: every element of a queue lives in a 32-byte row of one buffer, not in
 * an object of its own, so adding and removing allocate nothing and an element costs 32
 * bytes with its value if that is a 32-bit integer, 40 otherwise.
 *
 * A row holds `next`, `prev` and a word of flags and generation (32-bit integers, read
 * through `ints`) and `key` and `at` (doubles, through `floats`): one row is half a cache
 * line, so reaching an element costs one cache miss, not one per field. Lists are visited
 * in key order, which is random order in the pool, so that is what most operations pay.
 *
 * Some rows are list heads, the rest hold elements. Every list is circular and doubly
 * linked through `next`/`prev` and includes its head row, so unlinking never needs to know
 * which list it is in. Row 0 heads the list of removed elements waiting for their handler;
 * the slots' heads are taken 32 at a time, when a slot of such a run is first used (see
 * `levels.ts`), so an empty queue costs a few KiB whatever its level bits. A head row
 * keeps its level and slot in its integer fields, so a list that empties tells the
 * bitmaps which slot it was.
 *
 * A head's `key` field keeps the least key on its list, so that the minimum of a slot is
 * known without walking it (the walk is a cache miss per element), and its `at` field the
 * greatest key linked since the list was last empty or sorted. Adding keeps the least key
 * exact for free. A removal cannot recompute it, so the queue marks it unknown (NaN) when
 * it removes a marked element with that key, until the list is sorted. A sorted list (`SORTED`,
 * set by the queue when it sorts a slot to find its minimum, kept while elements arrive in
 * key order) knows its least key after any removal: it is its first row's. Finding the
 * head of a removed element's list means computing its slot from its key, so each row
 * that took the least key when linked (or when its list was sorted) is marked, and only
 * marked rows make their removal look.
 *
 * A value that is a 32-bit integer (ids, mostly) is kept in the row's fourth integer,
 * flagged in its word, rather than in `values`: firing an element reads its value, and a
 * second array would make that a second cache miss. Other values, which cannot live in an
 * ArrayBuffer, go to `values`.
 *
 * A handle given to users is `generation * 2^27 + row`. A row's generation moves on every
 * time the row is freed, so a handle dies with its element and never comes back to life
 * when the row is reused: a row is retired for good before its generation could wrap.
 * Generations start at a per-pool salt, so a handle from another pool is refused unless
 * the salts happen to line up. Only a number that is exactly `generation * 2^27 + row` for
 * an element row at its current generation names a row: fractions, negatives, -0, NaN,
 * numbers past 2^53, head rows and non-numbers name none.
 *
 * The pool grows by doubling up to 2^20 rows and by an eighth past that, so a large queue
 * carries at most 12.5% spare rows.
 *
 * Invariants:
 * - an element row holding an element has `prev >= 0`, and `generation * 2^27 + row` is
 *   its handle;
 * - a free row has `prev === UNLINKED` and sits on the free list through `next`;
 * - the one row whose handler is running has `prev === UNLINKED` and is on no list;
 * - a retired row has `prev === UNLINKED`, is on no list, and its generation is the salt;
 * - a head row has the `HEAD` flag and is always linked (on its own list when empty);
 * - a head's key is +Infinity if its list is empty, else NaN or the least key on it; a
 *   sorted head's list is in non-decreasing key order and its key is never NaN;
 * - an element row's value is its fourth integer if its word has `IN_ROW`, else
 *   `values[row]`; `values[row]` is undefined for every other row;
 * - if a list's least key is recorded, some row holding it has `MAY_BE_LEAST` (in a sorted
 *   list, the first row): removing that row makes the key unknown, even if other rows
 *   still hold it, so the recorded key is never wrong. Marks are never taken off while
 *   the row holds its element: a row marked but no longer least costs a needless look
 *   at its head, nothing more.
 */

const ROW_BITS = 27
const GEN_BITS = 53 - ROW_BITS
const GEN_MASK = 2 ** GEN_BITS - 1
/** The most rows a pool can have: handles must stay below 2^53. */
const MAX_ROWS = 2 ** ROW_BITS
/** Rows a capacity hint may reserve up front: 2 MiB. */
const MAX_ROWS_UP_FRONT = 2 ** 16
/** Up to this many rows the pool doubles; past it, it grows by an eighth. */
const DOUBLING_LIMIT = 2 ** 20

export const UNLINKED = -1
/** The head of the list of due elements. */
export const DUE_HEAD = 0
/** What a head row's level field says for the due list, which is at no level. */
export const NO_LEVEL = 255

/**
 * Row `r` is bytes `[32r, 32r + 32)`: `next`, `prev`, the word, an integer at `ints[8r + 3]`
 * (an element's value, a head's slot), `key` and `at` at `floats[4r + 2]` and
 * `floats[4r + 3]`. An element's word is its generation (26 bits) plus `MAY_BE_LEAST`
 * (bit 29) and `IN_ROW` (bit 30); a head's is `HEAD` (bit 28), `SORTED` (bit 27) and its
 * level (8 bits).
 *
 * This file is the queue's innermost loop. Its accessors spell offsets and flags as
 * literals: a module constant costs a context load and a hole check in each, which V8
 * charges against the inlining budget of every caller.
 */
const ROW_BYTES = 32
const NO_ROW = -1

let saltCounter = 0x9e3779b
const nextSalt = (): number => {
  // A multiplicative hash of a counter: distinct pools get well-spread salts, and runs
  // stay deterministic.
  saltCounter = (saltCounter + 0x61c88647) | 0
  return Math.imul(saltCounter, 0x2545f491) & GEN_MASK
}

export class Pool<A> {
  readonly salt: number
  capacity: number
  /**
   * Rows `[0, used)` have been handed out at least once; a row's word is set when it
   * first is, so growing the pool writes nothing into the new rows.
   */
  used: number
  freeHead: number
  /** The rows' integer fields (see `ROW_BYTES`). */
  ints: Int32Array
  /** The rows' doubles: the same memory as `ints`. */
  floats: Float64Array
  /**
   * Values that are not 32-bit integers, by row; as long as the last row that ever held
   * one, so a queue of integer values (ids, mostly) never grows it.
   */
  values: Array<A | undefined>

  /** A pool with the due list's head and room for `capacityHint` elements, up to 2 MiB. */
  constructor(capacityHint: number) {
    this.salt = nextSalt()
    this.capacity = Math.min(MAX_ROWS_UP_FRONT, 64 + capacityHint)
    this.used = 0
    this.freeHead = NO_ROW
    const buffer = new ArrayBuffer(ROW_BYTES * this.capacity)
    this.ints = new Int32Array(buffer)
    this.floats = new Float64Array(buffer)
    this.values = []
    takeHeads(this, 1, NO_LEVEL, 0)
  }
}

// A row's fields.

export const nextOf = (pool: Pool<unknown>, row: number): number => pool.ints[8 * row]!
export const prevOf = (pool: Pool<unknown>, row: number): number => pool.ints[8 * row + 1]!
export const genOf = (pool: Pool<unknown>, row: number): number => pool.ints[8 * row + 2]! & 67108863 // GEN_MASK
export const keyOf = (pool: Pool<unknown>, row: number): number => pool.floats[4 * row + 2]!
export const atOf = (pool: Pool<unknown>, row: number): number => pool.floats[4 * row + 3]!

export const setKeyAndAt = (pool: Pool<unknown>, row: number, key: number, at: number): void => {
  pool.floats[4 * row + 2] = key
  pool.floats[4 * row + 3] = at
}

/** The handle of the element in `row` now. */
export const handleOf = (pool: Pool<unknown>, row: number): number =>
  (pool.ints[8 * row + 2]! & 67108863) * 134217728 + row // GEN_MASK, 2^27

/**
 * The row of a handle if the handle is the current one of an element row (linked, free,
 * retired or firing: the caller tells which), else -1. A fraction, NaN, a negative or
 * too large number leaves a row that is not an integer or a generation that no word has;
 * the `HEAD` bit in the mask keeps head rows out.
 */
export const rowOfHandle = (pool: Pool<unknown>, handle: unknown): number => {
  if (typeof handle !== 'number') return -1
  // The low 27 bits by a mask (exact for integers below 2^53), then one compare of the
  // whole number against what the row's word makes: a fraction, a negative, NaN or a
  // number past 2^53 differs from every `generation * 2^27 + row`.
  const row = handle & 134217727 // 2^27 - 1
  return row < pool.used && handle - row === (pool.ints[8 * row + 2]! & 335544319) * 134217728 ? row : -1 // GEN_MASK | HEAD
}

export const isLinked = (pool: Pool<unknown>, row: number): boolean => pool.ints[8 * row + 1] !== -1 // UNLINKED

export const isHead = (pool: Pool<unknown>, row: number): boolean => (pool.ints[8 * row + 2]! & 268435456) !== 0 // HEAD

/** The level of a head row's slot, or `NO_LEVEL` for the due list. */
export const levelOfHead = (pool: Pool<unknown>, head: number): number => pool.ints[8 * head + 2]! & 255

export const slotOfHead = (pool: Pool<unknown>, head: number): number => pool.ints[8 * head + 3]!

/**
 * Takes `count` consecutive rows never used before as the empty heads of slots
 * `[firstSlot, firstSlot + count)` of `level`, and returns the first.
 */
export const takeHeads = (pool: Pool<unknown>, count: number, level: number, firstSlot: number): number => {
  if (pool.used + count > pool.capacity) grow(pool, pool.used + count)
  const first = pool.used
  pool.used += count
  for (let i = 0; i < count; i++) {
    const head = first + i
    pool.ints[8 * head + 2] = 268435456 | level // HEAD
    pool.ints[8 * head + 3] = firstSlot + i
    resetHead(pool, head)
  }
  return first
}

/** Makes a head's list empty, unsorted, with no least or greatest key. */
export const resetHead = (pool: Pool<unknown>, head: number): void => {
  pool.ints[8 * head] = head
  pool.ints[8 * head + 1] = head
  pool.ints[8 * head + 2] = pool.ints[8 * head + 2]! & ~134217728 // SORTED
  pool.floats[4 * head + 2] = Infinity
  pool.floats[4 * head + 3] = -Infinity
}

/** Takes a row for a new element and fills it, growing the pool when every row is in use. */
export const allocate = <A>(pool: Pool<A>, key: number, at: number, value: A): number => {
  let row = pool.freeHead
  if (row !== -1) pool.freeHead = pool.ints[8 * row]!
  else row = takeUnusedRow(pool)
  pool.floats[4 * row + 2] = key
  pool.floats[4 * row + 3] = at
  // `Object.is` keeps -0 out: it is a 32-bit integer to `|`, not to the caller.
  if (typeof value === 'number' && Object.is(value | 0, value)) {
    pool.ints[8 * row + 3] = value
    pool.ints[8 * row + 2] = pool.ints[8 * row + 2]! | 1073741824 // IN_ROW
  } else keepValue(pool, row, value)
  return row
}

/** Hands out a row never used before, at its first generation, growing the pool if it is full. */
const takeUnusedRow = (pool: Pool<unknown>): number => {
  if (pool.used === pool.capacity) grow(pool, pool.used + 1)
  const row = pool.used++
  pool.ints[8 * row + 2] = pool.salt
  return row
}

const keepValue = <A>(pool: Pool<A>, row: number, value: A): void => {
  const values = pool.values
  // Filled up to `row` first, so that the array never has holes.
  while (values.length < row) values.push(undefined)
  values[row] = value
}

/** Whether the row keeps its element's value itself, as an integer. */
export const isValueInRow = (pool: Pool<unknown>, row: number): boolean =>
  (pool.ints[8 * row + 2]! & 1073741824) !== 0 // IN_ROW

/** The value of the element in `row`. */
export const valueOf = <A>(pool: Pool<A>, row: number): A =>
  isValueInRow(pool, row) ? (pool.ints[8 * row + 3]! as A) : (pool.values[row] as A)

/** Returns a row to the pool; its handle is dead from now on. */
export const release = <A>(pool: Pool<A>, row: number): void => {
  const ints = pool.ints
  if (!isValueInRow(pool, row)) pool.values[row] = undefined
  ints[8 * row + 1] = -1 // UNLINKED
  // Masking drops IN_ROW and MAY_BE_LEAST too.
  const gen = (ints[8 * row + 2]! + 1) & 67108863 // GEN_MASK
  ints[8 * row + 2] = gen
  if (gen !== pool.salt) {
    ints[8 * row] = pool.freeHead
    pool.freeHead = row
  } else {
    // Every generation of this row has been handed out: retire it rather than let an
    // old handle come back to life.
    ints[8 * row] = -1
  }
}

/** @internal For tests: makes the next release of `row` its last, as after 2^26 - 1 reuses. */
export const ageRow = (pool: Pool<unknown>, row: number): void => {
  const ints = pool.ints
  ints[8 * row + 2] = (ints[8 * row + 2]! & ~67108863) | ((pool.salt - 1) & 67108863)
}

/** Grows the pool to hold at least `rows` rows. */
const grow = (pool: Pool<unknown>, rows: number): void => {
  if (rows > MAX_ROWS) {
    throw new RangeError(`timing-wheel: a queue holds at most ${MAX_ROWS} rows (elements and slot heads), ${rows} needed`)
  }
  const step = pool.capacity < DOUBLING_LIMIT ? pool.capacity : Math.ceil(pool.capacity / 8)
  const capacity = Math.min(MAX_ROWS, Math.max(rows, pool.capacity + step))
  const buffer = new ArrayBuffer(ROW_BYTES * capacity)
  const ints = new Int32Array(buffer)
  ints.set(pool.ints)
  pool.ints = ints
  pool.floats = new Float64Array(buffer)
  pool.capacity = capacity
}

// Lists.

/** Appends `row` at the end of the circular list whose head is `head`. */
export const linkLast = (pool: Pool<unknown>, head: number, row: number): void => {
  const ints = pool.ints
  const floats = pool.floats
  const last = ints[8 * head + 1]!
  ints[8 * last] = row
  ints[8 * row + 1] = last
  ints[8 * row] = head
  ints[8 * head + 1] = row
  // A NaN head key compares false and stays unknown.
  const key = floats[4 * row + 2]!
  const least = floats[4 * head + 2]!
  if (key <= least) {
    if (key < least) floats[4 * head + 2] = key
    markMayBeLeast(pool, row)
  }
  // A key out of order unsorts the list; its first row, marked, still holds the least key
  // or the new row does.
  if (key >= floats[4 * head + 3]!) floats[4 * head + 3] = key
  else ints[8 * head + 2] = ints[8 * head + 2]! & ~134217728 // SORTED
}

/**
 * Unlinks `row` from its list and returns the list's head row if the list became empty,
 * else -1.
 */
export const unlink = (pool: Pool<unknown>, row: number): number => {
  const ints = pool.ints
  const before = ints[8 * row + 1]!
  const after = ints[8 * row]!
  ints[8 * before] = after
  ints[8 * after + 1] = before
  ints[8 * row + 1] = -1 // UNLINKED
  // The head row is always on its own list, so a list left with one row is empty.
  if (before !== after) return -1
  resetHead(pool, before)
  return before
}

/** The least key on the list at `head`: +Infinity if it is empty, NaN if not known. */
export const leastKeyOf = (pool: Pool<unknown>, head: number): number => pool.floats[4 * head + 2]!

/** The greatest key linked to the list at `head` since it was last empty or sorted, or more. */
export const greatestKeyOf = (pool: Pool<unknown>, head: number): number => pool.floats[4 * head + 3]!

/** Whether the list at `head` is sorted by key (see {@link sortList}). */
export const isSorted = (pool: Pool<unknown>, head: number): boolean =>
  (pool.ints[8 * head + 2]! & 134217728) !== 0 // SORTED

/**
 * After removing a marked row from the list at `head`: the least key is unknown if the
 * removed key was it, unless the list is sorted, where it is the first row's.
 */
export const forgetLeastKey = (pool: Pool<unknown>, head: number, removedKey: number): void => {
  if (isSorted(pool, head)) {
    const first = nextOf(pool, head)
    pool.floats[4 * head + 2] = keyOf(pool, first)
    markMayBeLeast(pool, first)
  } else if (leastKeyOf(pool, head) === removedKey) pool.floats[4 * head + 2] = NaN
}

/** Marks a row whose removal may take its list's least key away. */
export const markMayBeLeast = (pool: Pool<unknown>, row: number): void => {
  pool.ints[8 * row + 2] = pool.ints[8 * row + 2]! | 536870912 // MAY_BE_LEAST
}

/** Whether a row is marked with {@link markMayBeLeast} (since it was last freed). */
export const mayBeLeast = (pool: Pool<unknown>, row: number): boolean =>
  (pool.ints[8 * row + 2]! & 536870912) !== 0 // MAY_BE_LEAST

/**
 * Sorts the non-empty list at `head` by key, keeping the order of equal keys, and returns
 * how many rows it has. Its least key is then known after any removal until a key arrives
 * out of order. `Array.prototype.sort` is stable and finds runs already in order, so a
 * list sorted but for a few late arrivals costs a pass.
 */
export const sortList = (pool: Pool<unknown>, head: number): number => {
  const rows: number[] = []
  for (let row = nextOf(pool, head); row !== head; row = nextOf(pool, row)) rows.push(row)
  const floats = pool.floats
  rows.sort((a, b) => floats[4 * a + 2]! - floats[4 * b + 2]!)
  const ints = pool.ints
  let last = head
  for (const row of rows) {
    ints[8 * last] = row
    ints[8 * row + 1] = last
    last = row
  }
  ints[8 * last] = head
  ints[8 * head + 1] = last
  const least = keyOf(pool, rows[0]!)
  floats[4 * head + 2] = least
  floats[4 * head + 3] = keyOf(pool, last)
  ints[8 * head + 2] = ints[8 * head + 2]! | 134217728 // SORTED
  markMayBeLeast(pool, rows[0]!)
  return rows.length
}

/**
 * Empties the list at `head` and returns its first row (`head` if it was empty). The
 * detached rows still chain through `next` and the last one points back at `head`, so
 * the caller can walk them, reading each `next` before relinking the row.
 */
export const detachAll = (pool: Pool<unknown>, head: number): number => {
  const first = nextOf(pool, head)
  resetHead(pool, head)
  return first
}

/**
 * Moves every row of the list at `from`, in order, to the end of the list at `to`, whose
 * least key becomes unknown. `to` is not sorted: it is the due list.
 */
export const spliceToEnd = (pool: Pool<unknown>, from: number, to: number): void => {
  const first = nextOf(pool, from)
  if (first === from) return
  const ints = pool.ints
  const last = prevOf(pool, from)
  const tail = prevOf(pool, to)
  ints[8 * tail] = first
  ints[8 * first + 1] = tail
  ints[8 * last] = to
  ints[8 * to + 1] = last
  const floats = pool.floats
  floats[4 * to + 3] = Math.max(floats[4 * to + 3]!, floats[4 * from + 3]!)
  resetHead(pool, from)
  floats[4 * to + 2] = NaN
}
