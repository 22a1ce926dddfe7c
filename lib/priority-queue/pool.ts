/**
 * The rows of a queue: every element lives in a 32-byte row of one buffer, not in an object
 * of its own, so adding and removing allocate nothing and an element costs 32 bytes with
 * its value if that is a 32-bit integer, 40 otherwise.
 *
 * A row holds `next`, `prev`, a word of flags and generation, and an integer (32-bit
 * integers, read through `ints`), then `key` and `at` (doubles, through `floats`): one row
 * is half a cache line, so reaching an element costs one cache miss, not one per field.
 * Lists are visited in key order, which is random order in the pool, so that is what
 * most operations pay.
 *
 * Some rows are list heads, the rest hold elements. Every list is circular and doubly
 * linked through `next`/`prev` and includes its head row, so unlinking never needs to know
 * which list it is in, and a list is empty when its head is its own neighbour. Row 0 heads
 * the list of removed elements waiting for their handler; the slots' heads are taken 32
 * at a time, when a slot of such a run is first used (see `levels.ts`). A head row keeps
 * its level and slot, so a list that empties tells the bitmaps which slot it was.
 *
 * A head's `key` field keeps the least key on its list, so that the minimum of a slot is
 * known without walking it (+Infinity while it is empty), and its `at` field the greatest
 * key linked since the list was last sorted. Linking keeps the least key exact for free.
 * A removal cannot recompute it, so the queue marks it unknown (NaN) when it removes a
 * marked row with that key, until the list is sorted. A sorted list (`SORTED`, set when the queue sorts a slot to
 * find its minimum, kept while elements arrive in key order) knows its least key after
 * any removal: it is its first row's. Each row that took the least key when linked (or
 * when its list was sorted) is marked `MAY_BE_LEAST`, and only marked rows make their
 * removal look at the head. Level-0 slots hold one key each, so their heads keep none of
 * this (see `levels.ts`).
 *
 * A value that is a 32-bit integer (ids, mostly) is kept in the row's fourth integer,
 * flagged `IN_ROW`, rather than in `values`: firing an element reads its value, and a
 * second array would make that a second cache miss. Other values go to `values`.
 *
 * A handle given to users is `generation * 2^27 + row`. A row's generation moves on every
 * time the row is freed, so a handle dies with its element and never comes back to life
 * when the row is reused: a row is retired for good before its generation could wrap.
 * Generations start at a per-queue salt, so a handle from another queue is refused unless
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
 * - a free row has `prev === UNLINKED`, its word is its generation alone (no flag), and it
 *   sits on the free list through `next`;
 * - the one row whose handler is running has `prev === UNLINKED` and is on no list;
 * - a retired row has `prev === UNLINKED`, is on no list, and its generation is the salt;
 * - a head row has the `HEAD` flag and is always linked (on its own list when empty);
 * - above level 0, a head's key is +Infinity if its list is empty, else NaN or the least
 *   key on it; a sorted head's list is in non-decreasing key order, its key is never NaN,
 *   and its greatest key is at least its last row's;
 * - an element row's value is its fourth integer if its word has `IN_ROW`, else
 *   `values[row]`; `values[row]` is undefined for every other row;
 * - if a list above level 0 records its least key, some row holding it has `MAY_BE_LEAST`
 *   (in a sorted list, the first row): removing that row makes the key unknown, even if
 *   other rows still hold it, so the recorded key is never wrong. Marks stay on a row
 *   while it holds its element: a row marked but no longer least costs a needless look at
 *   its head, nothing more.
 *
 * This file and the queue's are its innermost loops, written for V8: offsets and flags are
 * literals with their names in a comment (a module constant costs a context load and a
 * hole check, charged against the inlining budget of every caller), fields are read once
 * into locals, and rare work (growing, errors) is in functions of its own so that the hot
 * ones stay small enough to be inlined whole into their callers.
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

/** The `prev` of a row on no list. */
export const UNLINKED = -1
/** The head of the list of due elements. */
export const DUE_HEAD = 0
/** What a head row's level field says for the due list, which is at no level. */
export const NO_LEVEL = 255

/**
 * Row `r` is bytes `[32r, 32r + 32)`: `next` at `ints[8r]`, `prev` at `ints[8r + 1]`, the
 * word at `ints[8r + 2]`, an integer at `ints[8r + 3]` (an element's value, a head's
 * slot), `key` and `at` at `floats[4r + 2]` and `floats[4r + 3]`. An element's word is its
 * generation (26 bits) plus `MAY_BE_LEAST` (bit 29) and `IN_ROW` (bit 30); a head's is
 * `HEAD` (bit 28), `SORTED` (bit 27) and its level (8 bits).
 */
const ROW_BYTES = 32

/** The rows of a queue: the fields the queue keeps for this file. */
export interface Rows<A> {
  readonly salt: number
  capacity: number
  /**
   * Rows `[0, used)` have been handed out at least once; a row's word is set when it
   * first is, so growing the pool writes nothing into the new rows.
   */
  used: number
  /** The first free row, -1 if none. */
  freeHead: number
  /** The rows' integer fields. */
  ints: Int32Array
  /** The rows' doubles: the same memory as `ints`. */
  floats: Float64Array
  /**
   * Values that are not 32-bit integers, by row; as long as the last row that ever held
   * one, so a queue of integer values (ids, mostly) never grows it.
   */
  values: Array<A | undefined>
}

let saltCounter = 0x9e3779b
/**
 * A multiplicative hash of a counter: distinct queues get well-spread salts, and runs
 * stay deterministic.
 */
const nextSalt = (): number => {
  saltCounter = (saltCounter + 0x61c88647) | 0
  return Math.imul(saltCounter, 0x2545f491) & GEN_MASK
}

/**
 * Sets the rows' fields of a new queue, `rows`: empty, with room for `capacityHint`
 * elements and some heads, up to 2 MiB.
 */
export const initRows = (rows: { -readonly [K in keyof Rows<unknown>]: Rows<unknown>[K] }, capacityHint: number): void => {
  const capacity = Math.min(MAX_ROWS_UP_FRONT, 64 + capacityHint)
  const buffer = newBuffer(capacity)
  rows.salt = nextSalt()
  rows.capacity = capacity
  rows.used = 0
  rows.freeHead = -1
  rows.ints = buffer.ints
  rows.floats = buffer.floats
  rows.values = []
}

// A row's fields.

export const nextOf = (rows: Rows<unknown>, row: number): number => rows.ints[row << 3]!
export const prevOf = (rows: Rows<unknown>, row: number): number => rows.ints[(row << 3) | 1]!
export const genOf = (rows: Rows<unknown>, row: number): number => rows.ints[(row << 3) | 2]! & 67108863 // GEN_MASK
export const keyOf = (rows: Rows<unknown>, row: number): number => rows.floats[(row << 2) | 2]!
export const atOf = (rows: Rows<unknown>, row: number): number => rows.floats[(row << 2) | 3]!

/** The handle of the element in `row` now. */
export const handleOf = (rows: Rows<unknown>, row: number): number =>
  (rows.ints[(row << 3) | 2]! & 67108863) * 134217728 + row // GEN_MASK, 2^27

/**
 * The row of a handle if the handle is the current one of an element row (linked, free,
 * retired or firing: the caller tells which), else -1. The low 27 bits by a mask (exact
 * for integers below 2^53), then one compare of the whole number against what the row's
 * word makes: a fraction, a negative, NaN or a number past 2^53 differs from every
 * `generation * 2^27 + row`, and the `HEAD` bit in the mask keeps head rows out.
 */
export const rowOfHandle = (rows: Rows<unknown>, handle: unknown): number => {
  if (typeof handle !== 'number') return -1
  const row = handle & 134217727 // 2^27 - 1
  return row < rows.used && handle - row === (rows.ints[(row << 3) | 2]! & 335544319) * 134217728 ? row : -1 // GEN_MASK | HEAD
}

export const isLinked = (rows: Rows<unknown>, row: number): boolean => rows.ints[(row << 3) | 1] !== -1 // UNLINKED

export const isHead = (rows: Rows<unknown>, row: number): boolean => (rows.ints[(row << 3) | 2]! & 268435456) !== 0 // HEAD

/** The level of a head row's slot, or `NO_LEVEL` for the due list. */
export const levelOfHead = (rows: Rows<unknown>, head: number): number => rows.ints[(head << 3) | 2]! & 255

export const slotOfHead = (rows: Rows<unknown>, head: number): number => rows.ints[(head << 3) | 3]!

/** Whether the row keeps its element's value itself, as an integer. */
export const isValueInRow = (rows: Rows<unknown>, row: number): boolean =>
  (rows.ints[(row << 3) | 2]! & 1073741824) !== 0 // IN_ROW

/** The value of the element in `row`. */
export const valueOf = <A>(rows: Rows<A>, row: number): A =>
  isValueInRow(rows, row) ? (rows.ints[(row << 3) | 3]! as A) : (rows.values[row] as A)

// Handing out and taking back rows.

/**
 * Takes `count` consecutive rows never used before as the empty heads of slots
 * `[firstSlot, firstSlot + count)` of `level`, and returns the first.
 */
export const takeHeads = (rows: Rows<unknown>, count: number, level: number, firstSlot: number): number => {
  if (rows.used + count > rows.capacity) grow(rows, rows.used + count)
  const first = rows.used
  rows.used += count
  for (let i = 0; i < count; i++) {
    const head = first + i
    rows.ints[(head << 3) | 2] = 268435456 | level // HEAD
    rows.ints[(head << 3) | 3] = firstSlot + i
    resetHead(rows, head)
  }
  return first
}

/**
 * Makes a head's list empty and unsorted, with a least key above every key, so that the
 * first row linked takes it. Its greatest key means nothing until the list is sorted.
 */
export const resetHead = (rows: Rows<unknown>, head: number): void => {
  const ints = rows.ints
  ints[head << 3] = head
  ints[(head << 3) | 1] = head
  ints[(head << 3) | 2] = ints[(head << 3) | 2]! & ~134217728 // SORTED
  rows.floats[(head << 2) | 2] = Infinity
}

/**
 * Whether a value is kept in its row: a 32-bit integer, but not -0, which `|` takes for
 * one and the row would give back as 0. (`Object.is` would say so in a call V8 does not
 * inline.)
 */
export const fitsInRow = (value: unknown): value is number =>
  typeof value === 'number' && (value | 0) === value && (value !== 0 || 1 / value > 0)

/**
 * Takes a row for a new element and fills it; the caller links it. Reuses the last row
 * freed, which is likely still in cache.
 */
export const allocate = <A>(rows: Rows<A>, key: number, at: number, value: A): number => {
  let row = rows.freeHead
  if (row === -1) row = takeUnusedRow(rows)
  const ints = rows.ints
  rows.freeHead = ints[row << 3]!
  const floats = rows.floats
  floats[(row << 2) | 2] = key
  floats[(row << 2) | 3] = at
  if (fitsInRow(value)) {
    ints[(row << 3) | 3] = value
    ints[(row << 3) | 2] = ints[(row << 3) | 2]! | 1073741824 // IN_ROW
  } else keepValue(rows, row, value)
  return row
}

/**
 * Hands out a row never used before, at its first generation, growing the pool if it is
 * full. Its `next` is -1, so taking it leaves the free list empty.
 */
export const takeUnusedRow = (rows: Rows<unknown>): number => {
  if (rows.used === rows.capacity) grow(rows, rows.used + 1)
  const row = rows.used++
  rows.ints[row << 3] = -1
  rows.ints[(row << 3) | 2] = rows.salt
  return row
}

const keepValue = <A>(rows: Rows<A>, row: number, value: A): void => {
  const values = rows.values
  // Filled up to `row` first, so that the array never has holes.
  while (values.length < row) values.push(undefined)
  values[row] = value
}

/** Returns an unlinked row to the pool; its handle is dead from now on. */
export const release = (rows: Rows<unknown>, row: number): void => {
  const ints = rows.ints
  const word = ints[(row << 3) | 2]!
  if ((word & 1073741824) === 0) rows.values[row] = undefined // IN_ROW
  ints[(row << 3) | 1] = -1 // UNLINKED
  // Masking drops IN_ROW and MAY_BE_LEAST too. A row whose every generation has been
  // handed out is retired rather than let an old handle come back to life.
  const gen = (word + 1) & 67108863 // GEN_MASK
  ints[(row << 3) | 2] = gen
  if (gen === rows.salt) ints[row << 3] = -1
  else {
    ints[row << 3] = rows.freeHead
    rows.freeHead = row
  }
}

/** @internal For tests: makes the next release of `row` its last, as after 2^26 - 1 reuses. */
export const ageRow = (rows: Rows<unknown>, row: number): void => {
  const ints = rows.ints
  ints[(row << 3) | 2] = (ints[(row << 3) | 2]! & ~67108863) | ((rows.salt - 1) & 67108863)
}

/** Grows the pool to hold at least `count` rows. */
const grow = (rows: Rows<unknown>, count: number): void => {
  if (count > MAX_ROWS) {
    throw new RangeError(`timing-wheel: a queue holds at most ${MAX_ROWS} rows (elements and slot heads), ${count} needed`)
  }
  const step = rows.capacity < DOUBLING_LIMIT ? rows.capacity : Math.ceil(rows.capacity / 8)
  const capacity = Math.min(MAX_ROWS, Math.max(count, rows.capacity + step))
  const bigger = newBuffer(capacity)
  bigger.ints.set(rows.ints)
  rows.ints = bigger.ints
  rows.floats = bigger.floats
  rows.capacity = capacity
}

/** A fresh, empty buffer of `capacity` rows, as `ints` and `floats`. */
const newBuffer = (capacity: number): { ints: Int32Array; floats: Float64Array } => {
  const buffer = new ArrayBuffer(ROW_BYTES * capacity)
  return { ints: new Int32Array(buffer), floats: new Float64Array(buffer) }
}

// Lists.

/** Appends `row` at the end of the circular list whose head is `head`, keeping no least key. */
export const linkLast = (rows: Rows<unknown>, head: number, row: number): void => {
  const ints = rows.ints
  const last = ints[(head << 3) | 1]!
  ints[last << 3] = row
  ints[(row << 3) | 1] = last
  ints[row << 3] = head
  ints[(head << 3) | 1] = row
}

/**
 * Notes that a row with `key` was just linked to the list at `head`, above level 0: a new
 * least key (a NaN compares false and stays unknown) marks the row; in a
 * sorted list, a key out of order unsorts it (its first row, marked, still holds the
 * least key, or the new row does). Mostly neither happens, and the test is all it costs.
 */
export const noteLinked = (rows: Rows<unknown>, head: number, row: number, key: number): void => {
  if (key < rows.floats[(head << 2) | 2]! || (rows.ints[(head << 3) | 2]! & 134217728) !== 0) updateHead(rows, head, row, key) // SORTED
}

const updateHead = (rows: Rows<unknown>, head: number, row: number, key: number): void => {
  const floats = rows.floats
  const ints = rows.ints
  if (key < floats[(head << 2) | 2]!) {
    floats[(head << 2) | 2] = key
    markMayBeLeast(rows, row)
  }
  const word = ints[(head << 3) | 2]!
  if ((word & 134217728) !== 0) { // SORTED
    if (key >= floats[(head << 2) | 3]!) floats[(head << 2) | 3] = key
    else ints[(head << 3) | 2] = word & ~134217728
  }
}

/** The least key on the list at `head` (above level 0): +Infinity if it is empty, NaN if not known. */
export const leastKeyOf = (rows: Rows<unknown>, head: number): number => rows.floats[(head << 2) | 2]!

/** The greatest key on the sorted list at `head`. */
export const greatestKeyOf = (rows: Rows<unknown>, head: number): number => rows.floats[(head << 2) | 3]!

/** Whether the list at `head` is sorted by key (see {@link sortList}). */
export const isSorted = (rows: Rows<unknown>, head: number): boolean =>
  (rows.ints[(head << 3) | 2]! & 134217728) !== 0 // SORTED

/**
 * After removing a marked row from the list at `head`: the least key is unknown if the
 * removed key was it, unless the list is sorted, where it is the first row's.
 */
export const forgetLeastKey = (rows: Rows<unknown>, head: number, removedKey: number): void => {
  if (isSorted(rows, head)) {
    const first = nextOf(rows, head)
    rows.floats[(head << 2) | 2] = keyOf(rows, first)
    markMayBeLeast(rows, first)
  } else if (leastKeyOf(rows, head) === removedKey) rows.floats[(head << 2) | 2] = NaN
}

/** Marks a row whose removal may take its list's least key away. */
export const markMayBeLeast = (rows: Rows<unknown>, row: number): void => {
  rows.ints[(row << 3) | 2] = rows.ints[(row << 3) | 2]! | 536870912 // MAY_BE_LEAST
}

/** Whether a row is marked with {@link markMayBeLeast} (since it was last freed). */
export const mayBeLeast = (rows: Rows<unknown>, row: number): boolean =>
  (rows.ints[(row << 3) | 2]! & 536870912) !== 0 // MAY_BE_LEAST

/**
 * Sorts the non-empty list at `head` by key, keeping the order of equal keys, and returns
 * how many rows it has. Its least key is then known after any removal until a key arrives
 * out of order. `Array.prototype.sort` is stable and finds runs already in order, so a
 * list sorted but for a few late arrivals costs a pass.
 */
export const sortList = (rows: Rows<unknown>, head: number): number => {
  const list: number[] = []
  for (let row = nextOf(rows, head); row !== head; row = nextOf(rows, row)) list.push(row)
  const floats = rows.floats
  list.sort((a, b) => floats[(a << 2) | 2]! - floats[(b << 2) | 2]!)
  const ints = rows.ints
  let last = head
  for (const row of list) {
    ints[last << 3] = row
    ints[(row << 3) | 1] = last
    last = row
  }
  ints[last << 3] = head
  ints[(head << 3) | 1] = last
  floats[(head << 2) | 2] = keyOf(rows, list[0]!)
  floats[(head << 2) | 3] = keyOf(rows, last)
  ints[(head << 3) | 2] = ints[(head << 3) | 2]! | 134217728 // SORTED
  markMayBeLeast(rows, list[0]!)
  return list.length
}

/**
 * Moves every row of the non-empty list at `from`, in order, to the end of the list at
 * `to` (the due list, whose least key nobody reads), and empties `from`.
 */
export const spliceToEnd = (rows: Rows<unknown>, from: number, to: number): void => {
  const ints = rows.ints
  const first = ints[from << 3]!
  const last = ints[(from << 3) | 1]!
  const tail = ints[(to << 3) | 1]!
  ints[tail << 3] = first
  ints[(first << 3) | 1] = tail
  ints[last << 3] = to
  ints[(to << 3) | 1] = last
  ints[from << 3] = from
  ints[(from << 3) | 1] = from
}
