/**
 * The element pool: every element of a queue lives in a row of parallel typed arrays,
 * not in an object of its own, so adding and removing allocate nothing and an
 * element costs about 36 bytes.
 *
 * Rows `[0, firstElement)` are list heads (one per slot, see `levels.ts`, plus the list
 * of removed elements waiting for their handler); rows from `firstElement` on hold
 * elements. Every list is circular and doubly linked through `next`/`prev` and includes
 * its head row, so unlinking never needs to know which list it is in.
 *
 * A handle given to users is `generation * 2^27 + row`. A row's generation moves on every
 * time the row is freed, so a handle dies with its element and never comes back to life
 * when the row is reused (a row is retired for good before its generation could wrap).
 * Generations start at a per-pool salt, so a handle from another pool is refused unless
 * the salts happen to line up.
 *
 * Invariants:
 * - a row holding an element has `prev >= 0`, and `gens[row] * 2^27 + row` is its handle;
 * - a free row has `prev === UNLINKED` and sits on the free list through `next`;
 * - the one row whose handler is running has `prev === UNLINKED` and is on no list.
 */

const ROW_BITS = 27
const ROW_SCALE = 2 ** ROW_BITS
const INV_ROW_SCALE = 2 ** -ROW_BITS
const GEN_BITS = 53 - ROW_BITS
const GEN_MASK = 2 ** GEN_BITS - 1
/** The most rows a pool can have: handles must stay below 2^53. */
const MAX_ROWS = ROW_SCALE

export const UNLINKED = -1
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
  /** Rows `[0, used)` have been handed out at least once. */
  used: number
  freeHead: number
  next: Int32Array
  prev: Int32Array
  keys: Float64Array
  ats: Float64Array
  gens: Uint32Array
  values: Array<A | undefined>

  constructor(headRows: number, elementCapacity: number) {
    this.firstElement = headRows
    this.salt = nextSalt()
    const capacity = roundUpCapacity(headRows + Math.max(elementCapacity, 16))
    this.capacity = capacity
    this.used = headRows
    this.freeHead = NO_ROW
    this.next = new Int32Array(capacity)
    this.prev = new Int32Array(capacity)
    this.keys = new Float64Array(capacity)
    this.ats = new Float64Array(capacity)
    this.gens = new Uint32Array(capacity).fill(this.salt)
    this.values = new Array<A | undefined>(capacity).fill(undefined)
    for (let head = 0; head < headRows; head++) {
      this.next[head] = head
      this.prev[head] = head
    }
  }
}

const roundUpCapacity = (rows: number): number => {
  if (rows > MAX_ROWS) {
    throw new RangeError(`timing-wheel: a queue holds at most ${MAX_ROWS} rows, ${rows} asked for`)
  }
  return Math.min(MAX_ROWS, 2 ** Math.ceil(Math.log2(Math.max(rows, 2))))
}

/** The handle of the element in `row` now. */
export const handleOf = (pool: Pool<unknown>, row: number): number =>
  pool.gens[row]! * ROW_SCALE + row

/**
 * The row of a handle if the handle is the current one of an element row (linked, or
 * unlinked because its handler is running), else -1. Anything that is not such a
 * number, including NaN, fractions and other types, gives -1.
 */
export const rowOfHandle = (pool: Pool<unknown>, handle: number): number => {
  const gen = Math.floor(handle * INV_ROW_SCALE)
  const row = handle - gen * ROW_SCALE
  return row >= pool.firstElement && row < pool.used && pool.gens[row] === gen ? row : NO_ROW
}

export const isLinked = (pool: Pool<unknown>, row: number): boolean => pool.prev[row]! !== UNLINKED

/** Takes a row for a new element, growing the pool when every row is in use. */
export const allocate = <A>(pool: Pool<A>): number => {
  const free = pool.freeHead
  if (free !== NO_ROW) {
    pool.freeHead = pool.next[free]!
    return free
  }
  if (pool.used === pool.capacity) grow(pool)
  return pool.used++
}

/** Returns a row to the pool; its handle is dead from now on. */
export const release = <A>(pool: Pool<A>, row: number): void => {
  pool.values[row] = undefined
  pool.prev[row] = UNLINKED
  const gen = (pool.gens[row]! + 1) & GEN_MASK
  pool.gens[row] = gen
  if (gen === pool.salt) {
    // Every generation of this row has been handed out: retire it rather than let an
    // old handle come back to life.
    pool.next[row] = NO_ROW
    return
  }
  pool.next[row] = pool.freeHead
  pool.freeHead = row
}

const grow = <A>(pool: Pool<A>): void => {
  const capacity = roundUpCapacity(pool.capacity * 2)
  if (capacity === pool.capacity) {
    throw new RangeError(`timing-wheel: a queue holds at most ${MAX_ROWS} rows`)
  }
  pool.next = growInt32(pool.next, capacity)
  pool.prev = growInt32(pool.prev, capacity)
  pool.keys = growFloat64(pool.keys, capacity)
  pool.ats = growFloat64(pool.ats, capacity)
  const gens = new Uint32Array(capacity).fill(pool.salt)
  gens.set(pool.gens)
  pool.gens = gens
  const values = pool.values
  for (let row = pool.capacity; row < capacity; row++) values.push(undefined)
  pool.capacity = capacity
}

const growInt32 = (a: Int32Array, capacity: number): Int32Array => {
  const b = new Int32Array(capacity)
  b.set(a)
  return b
}

const growFloat64 = (a: Float64Array, capacity: number): Float64Array => {
  const b = new Float64Array(capacity)
  b.set(a)
  return b
}

/** Appends `row` at the end of the circular list whose head is `head`. */
export const linkLast = (pool: Pool<unknown>, head: number, row: number): void => {
  const next = pool.next
  const prev = pool.prev
  const last = prev[head]!
  next[last] = row
  prev[row] = last
  next[row] = head
  prev[head] = row
}

/**
 * Unlinks `row` from its list and returns the list's head row if the list became empty,
 * else -1.
 */
export const unlink = (pool: Pool<unknown>, row: number): number => {
  const next = pool.next
  const prev = pool.prev
  const before = prev[row]!
  const after = next[row]!
  next[before] = after
  prev[after] = before
  prev[row] = UNLINKED
  // The head row is always on its own list, so a list left with one row is empty.
  return before === after ? before : NO_ROW
}

/**
 * Empties the list at `head` and returns its first row (`head` if it was empty). The
 * detached rows still chain through `next` and the last one points back at `head`, so
 * the caller can walk them, reading each `next` before relinking the row.
 */
export const detachAll = (pool: Pool<unknown>, head: number): number => {
  const first = pool.next[head]!
  pool.next[head] = head
  pool.prev[head] = head
  return first
}

/** Moves every row of the list at `from`, in order, to the end of the list at `to`. */
export const spliceToEnd = (pool: Pool<unknown>, from: number, to: number): void => {
  const next = pool.next
  const prev = pool.prev
  const first = next[from]!
  if (first === from) return
  const last = prev[from]!
  const tail = prev[to]!
  next[tail] = first
  prev[first] = tail
  next[last] = to
  prev[to] = last
  next[from] = from
  prev[from] = from
}
