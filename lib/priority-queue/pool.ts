/**
 * The element pool: every element of a queue lives in a 32-byte row of one buffer, not in
 * an object of its own, so adding and removing allocate nothing and an element costs 32
 * bytes with its value if that is a 32-bit integer, 40 otherwise.
 *
 * A row holds `next`, `prev` and `generation` (32-bit integers, read through `ints`) and
 * `key` and `at` (doubles, through `floats`): one row is half a cache line, so reaching
 * an element costs one cache miss, not one per field. Lists are visited in key order,
 * which is random order in the pool, so that is what most operations pay.
 *
 * Rows `[0, firstElement)` are list heads (one per slot, see `levels.ts`, plus the list
 * of removed elements waiting for their handler); rows from `firstElement` on hold
 * elements. Every list is circular and doubly linked through `next`/`prev` and includes
 * its head row, so unlinking never needs to know which list it is in.
 *
 * A head row's `key` field keeps the least key on its list, so that the minimum of a
 * slot is known without walking it (the walk is a cache miss per element). Adding keeps
 * it exact for free; a removal cannot recompute it, so the queue marks it unknown (NaN)
 * when it removes an element with that key, until someone walks the list and sets it
 * again. Finding the head of a removed element's list means computing its slot from its
 * key, so each row that took the least key when linked (or was found to hold it by a
 * walk) is marked, and only marked rows make their removal look.
 *
 * A value that is a 32-bit integer (ids, mostly) is kept in the row's fourth integer,
 * flagged in its generation word, rather than in `values`: firing an element reads its
 * value, and a second array would make that a second cache miss. Other values, which
 * cannot live in an ArrayBuffer, go to `values`.
 *
 * A handle given to users is `generation * 2^27 + row`. A row's generation moves on every
 * time the row is freed, so a handle dies with its element and never comes back to life
 * when the row is reused (a row is retired for good before its generation could wrap).
 * Generations start at a per-pool salt, so a handle from another pool is refused unless
 * the salts happen to line up.
 *
 * Invariants:
 * - a row holding an element has `prev >= 0`, and `generation * 2^27 + row` is its handle;
 * - a free row has `prev === UNLINKED` and sits on the free list through `next`;
 * - the one row whose handler is running has `prev === UNLINKED` and is on no list;
 * - a head's key is +Infinity if its list is empty, else NaN or the least key on it;
 * - an element row's value is its fourth integer if its generation word has the
 *   `IN_ROW` bit, else `values[row]`; `values[row]` is undefined for every other row;
 * - every row whose key is its list's recorded least key has the `MAY_BE_LEAST` bit
 *   (bit 29 of its generation word), so a removal computes where its list's head is only
 *   for marked rows. Marks are never taken off while the row holds its element: a row
 *   marked but no longer least costs a needless look at its head, nothing more.
 */

const ROW_BITS = 27
const ROW_SCALE = 2 ** ROW_BITS
const GEN_BITS = 53 - ROW_BITS
const GEN_MASK = 2 ** GEN_BITS - 1
/** The most rows a pool can have: handles must stay below 2^53. */
const MAX_ROWS = ROW_SCALE

export const UNLINKED = -1

/**
 * Row `r` is bytes `[32r, 32r + 32)`: `next`, `prev`, generation word, integer value at
 * `ints[8r]` to `ints[8r + 3]`, `key` and `at` at `floats[4r + 2]` and `floats[4r + 3]`.
 * The generation word is the generation (26 bits) plus `MAY_BE_LEAST` (bit 29) and
 * `IN_ROW` (bit 30). The accessors
 * below spell the offsets as literals: a module constant costs a context load and a hole
 * check in each, which V8 charges against the inlining budget of every caller.
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
  /** Rows `[0, firstElement)` are list heads. */
  readonly firstElement: number
  readonly salt: number
  capacity: number
  /**
   * Rows `[0, used)` have been handed out at least once; a row's generation word is set
   * when it first is, so growing the pool writes nothing into the new rows.
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

  constructor(headRows: number, elementCapacity: number) {
    this.firstElement = headRows
    this.salt = nextSalt()
    const capacity = roundUpCapacity(headRows + Math.max(elementCapacity, 16))
    this.capacity = capacity
    this.used = headRows
    this.freeHead = NO_ROW
    const buffer = new ArrayBuffer(ROW_BYTES * capacity)
    this.ints = new Int32Array(buffer)
    this.floats = new Float64Array(buffer)
    this.values = []
    for (let head = 0; head < headRows; head++) {
      this.ints[8 * head] = head
      this.ints[8 * head + 1] = head
      this.floats[4 * head + 2] = Infinity
    }
  }
}

const roundUpCapacity = (rows: number): number => {
  if (rows > MAX_ROWS) {
    throw new RangeError(`timing-wheel: a queue holds at most ${MAX_ROWS} rows, ${rows} asked for`)
  }
  return Math.min(MAX_ROWS, 2 ** Math.ceil(Math.log2(Math.max(rows, 2))))
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

const setNext = (pool: Pool<unknown>, row: number, next: number): void => {
  pool.ints[8 * row] = next
}

const setPrev = (pool: Pool<unknown>, row: number, prev: number): void => {
  pool.ints[8 * row + 1] = prev
}

/** The handle of the element in `row` now. */
export const handleOf = (pool: Pool<unknown>, row: number): number =>
  (pool.ints[8 * row + 2]! & 67108863) * 134217728 + row // GEN_MASK, 2^27

/**
 * The row of a handle if the handle is the current one of an element row (linked, or
 * unlinked because its handler is running), else -1. Anything that is not such a
 * number, including NaN, fractions and other types, gives -1.
 */
export const rowOfHandle = (pool: Pool<unknown>, handle: number): number => {
  const gen = Math.floor(handle * 7.450580596923828e-9) // 2^-27, as ROW_SCALE
  const row = handle - gen * 134217728
  return row >= pool.firstElement && row < pool.used && (pool.ints[8 * row + 2]! & 67108863) === gen ? row : -1
}

export const isLinked = (pool: Pool<unknown>, row: number): boolean => pool.ints[8 * row + 1] !== -1 // UNLINKED

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
  if (pool.used === pool.capacity) grow(pool)
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

/** Doubles the pool. */
const grow = (pool: Pool<unknown>): void => {
  const capacity = roundUpCapacity(pool.capacity * 2)
  if (capacity === pool.capacity) {
    throw new RangeError(`timing-wheel: a queue holds at most ${MAX_ROWS} rows`)
  }
  const buffer = new ArrayBuffer(ROW_BYTES * capacity)
  const ints = new Int32Array(buffer)
  ints.set(pool.ints)
  pool.ints = ints
  pool.floats = new Float64Array(buffer)
  pool.capacity = capacity
}

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
  pool.floats[4 * before + 2] = Infinity
  return before
}

/** The least key on the list at `head`: +Infinity if it is empty, NaN if not known. */
export const leastKeyOf = (pool: Pool<unknown>, head: number): number => pool.floats[4 * head + 2]!

/**
 * Records the least key on the list at `head`, found by walking it: every row on the list
 * with that key must have been marked with {@link markMayBeLeast}.
 */
export const setLeastKey = (pool: Pool<unknown>, head: number, key: number): void => {
  pool.floats[4 * head + 2] = key
}

/** Marks a row whose removal may take its list's least key away. */
export const markMayBeLeast = (pool: Pool<unknown>, row: number): void => {
  pool.ints[8 * row + 2] = pool.ints[8 * row + 2]! | 536870912 // MAY_BE_LEAST
}

/** Whether a row is marked with {@link markMayBeLeast} (since it was last freed). */
export const mayBeLeast = (pool: Pool<unknown>, row: number): boolean =>
  (pool.ints[8 * row + 2]! & 536870912) !== 0 // MAY_BE_LEAST

/**
 * Empties the list at `head` and returns its first row (`head` if it was empty). The
 * detached rows still chain through `next` and the last one points back at `head`, so
 * the caller can walk them, reading each `next` before relinking the row.
 */
export const detachAll = (pool: Pool<unknown>, head: number): number => {
  const first = nextOf(pool, head)
  setNext(pool, head, head)
  setPrev(pool, head, head)
  setLeastKey(pool, head, Infinity)
  return first
}

/**
 * Moves every row of the list at `from`, in order, to the end of the list at `to`, whose
 * least key becomes unknown.
 */
export const spliceToEnd = (pool: Pool<unknown>, from: number, to: number): void => {
  const first = nextOf(pool, from)
  if (first === from) return
  const last = prevOf(pool, from)
  const tail = prevOf(pool, to)
  setNext(pool, tail, first)
  setPrev(pool, first, tail)
  setNext(pool, last, to)
  setPrev(pool, to, last)
  setNext(pool, from, from)
  setPrev(pool, from, from)
  setLeastKey(pool, from, Infinity)
  setLeastKey(pool, to, NaN)
}
