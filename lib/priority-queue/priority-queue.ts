/**
 * A priority queue over integer keys in `[0, 2^52 - 1]` with a non-decreasing minimum
 * allowed key instead of delete-min: a hierarchical timing wheel (Varghese & Lauck's
 * Scheme 7, as Jane Street Core builds it).
 *
 * Representation.
 *
 * Elements live in rows of typed arrays (`pool.ts`); each level is an array of slots,
 * each slot a circular list of rows (`levels.ts`). The queue object holds the fields of
 * both itself, so that the hot paths reach every array in one hop. Where an element lives is a
 * function of its key `k` and the minimum allowed key `m` alone: the level is fixed by
 * the highest bit in which `k` and `m` differ, the slot by the key's bits at that level.
 * From that one invariant follow the properties the operations rely on:
 *
 * - below the top level, a level holds only keys of the aligned block `m` is in, so its
 *   occupied slots all come after `m`'s slot and never wrap around;
 * - every key at a level is smaller than every key at a higher level, so the minimum is
 *   in the first occupied slot of the lowest non-empty level;
 * - level 0 slots hold one key each; elements with equal keys always share a slot, and a
 *   slot's list keeps them in the order they were added (moving down preserves order);
 * - the levels' key ranges tile `[m, maxAllowedKey]` with no gap and no overlap.
 *
 * Raising `m` to a key `t` ("moving the minimum") keeps the invariant by emptying, at each
 * level, the slot of the block `t` enters and placing its elements again, lower down.
 * `increaseMinAllowedKey` moves the minimum in steps: to the start of the first occupied
 * slot, which moves that slot down, until the smallest key sits at level 0; then that
 * level-0 slot, one key, is spliced whole onto the list of due elements, in order. When no
 * key below the target is left, the minimum moves to the target, and only then are the
 * handlers run, on the due elements in order. Handlers see the final minimum, so anything
 * they add is placed relative to it; an element they remove or change leaves the due list
 * and does not fire.
 *
 * Each occupied slot passed costs a constant; empty slots are skipped 32 at a time by the
 * levels' occupancy bitmaps; an element moves down at most once per level.
 */
import * as O from '#fp-ts/Option.js'
import { TimingWheelError, show } from '../errors.js'
import * as LevelBits from '../level-bits/index.js'
import {
  NOT_FOUND,
  clearOccupancy,
  firstSlotInUse,
  headOf,
  isOccupied,
  lastSlotBelow,
  levelOf,
  markEmpty,
  maxKeyHeld,
  initLevels,
  nextOccupied,
  nextOccupiedAround,
  place,
  setMinimum,
  slotMinKey,
  slotOf,
} from './levels.js'
import {
  DUE_HEAD,
  NO_LEVEL,
  UNLINKED,
  allocate,
  atOf,
  forgetLeastKey as forgetLeastKeyAt,
  genOf,
  greatestKeyOf,
  handleOf,
  isHead,
  isLinked,
  isSorted,
  isValueInRow,
  keyOf,
  leastKeyOf,
  levelOfHead,
  initRows,
  linkLast,
  mayBeLeast,
  nextOf,
  prevOf,
  release,
  resetHead,
  rowOfHandle,
  slotOfHead,
  sortList,
  spliceToEnd,
  takeHeads,
  valueOf,
} from './pool.js'

declare const eltBrand: unique symbol

/**
 * A handle on an element added to a queue: a number that encodes the element's row and a
 * generation, so it never refers to a later element that reuses the row.
 *
 * @example
 * const e: PriorityQueue.Elt<string> = PriorityQueue.add(pq, 5, 'five')
 */
export type Elt<A> = number & {
  /** Keeps handles of queues of different value types apart; no value has it at run time. */
  readonly [eltBrand]: A
}

/**
 * The largest key any queue accepts: `2^52 - 1`.
 *
 * @example
 * PriorityQueue.maxRepresentableKey // 4503599627370495, 2^52 - 1
 */
export const maxRepresentableKey = 2 ** LevelBits.maxNumBits - 1

/** No row. The hot functions below write it as a literal (see `pool.ts`). */
const NO_ROW = -1

/** Keys the one member of the published type (see {@link PriorityQueue}). */
declare const valueType: unique symbol

/**
 * A priority queue of values of type `A`. Use the functions of this module on it. Its
 * fields are not published: the declarations show only a member no value has, which keeps
 * `PriorityQueue<A>` distinct from other objects and covariant in `A`, as its fields do.
 *
 * It holds the fields of its rows (`Rows` in `pool.ts`) and of its levels (`Levels` in
 * `levels.ts`) itself, set in the constructor in one order so that every queue has one
 * shape and every access site sees one.
 *
 * @example
 * const pq: PriorityQueue.PriorityQueue<string> = PriorityQueue.create()
 */
export class PriorityQueue<A> {
  /** @hidden For the type checker only: no value has it. */
  declare readonly [valueType]: A
  // The rows: see `pool.ts`.
  /** @internal */ declare readonly salt: number
  /** @internal */ declare capacity: number
  /** @internal */ declare used: number
  /** @internal */ declare freeHead: number
  /** @internal */ declare ints: Int32Array
  /** @internal */ declare floats: Float64Array
  /** @internal */ declare values: Array<A | undefined>
  // The levels: see `levels.ts`.
  /** @internal The `m` of the representation. */ declare minAllowedKey: number
  /** @internal Derived from `minAllowedKey`; kept because `add` checks it. */ declare maxAllowedKey: number
  /** @internal */ declare readonly levelCount: number
  /** @internal */ declare readonly top: number
  /** @internal */ declare readonly slotMask: Int32Array
  /** @internal */ declare readonly keysPerSlot: Float64Array
  /** @internal */ declare readonly slotsPerKey: Float64Array
  /** @internal */ declare readonly lastKey: Float64Array
  /** @internal */ declare quick0: number
  /** @internal */ declare quick1: number
  /** @internal */ declare readonly mask0: number
  /** @internal */ declare readonly mask1: number
  /** @internal */ declare readonly perKey1: number
  /** @internal */ declare readonly word1: number
  /** @internal */ declare readonly occupied: Int32Array
  /** @internal */ declare readonly firstWord: Int32Array
  /** @internal */ declare readonly occupiedSlots: Int32Array
  /** @internal */ declare readonly headBase: Int32Array
  // The queue.
  /** @internal */ declare readonly levelBits: LevelBits.LevelBits
  /** @internal Elements in the queue, including due elements whose handler has not run. */ declare length: number
  /** @internal True while handlers of removed elements run. */ declare firing: boolean
  /** @internal The row whose handler is running, or -1. */ declare firingRow: number
  /** @internal What error messages call the structure. */ declare noun: string
  /** @internal Rows visited by searches for a slot's least key: tests bound it. */ declare rowsWalked: number
  /** @internal The head of the slot being read ahead (see `readAhead`), or 0: none. */ declare aheadHead: number
  /** @internal The next row to read ahead, `aheadHead` when done, or -1: not started for this block. */ declare aheadRow: number
  /** @internal The next row to read ahead from the back of the list (see `readAhead`). */ declare aheadBack: number
  /** @internal The back half of the slot moving down, kept to be placed after its front half (see `moveSlotDown`). */ declare moving: Int32Array

  /** @internal */
  constructor(levelBits: LevelBits.LevelBits, capacityHint: number) {
    // Every field set here, in one order (an `Object.assign` of the parts left queues
    // whose adds and removes ran four times slower).
    initRows(this, capacityHint)
    initLevels(this, levelBits, maxRepresentableKey)
    this.levelBits = levelBits
    this.length = 0
    this.firing = false
    this.firingRow = NO_ROW
    this.noun = 'priority queue'
    this.rowsWalked = 0
    this.aheadHead = 0
    this.aheadRow = -1
    this.aheadBack = 0
    this.moving = new Int32Array(16)
    takeHeads(this, 1, NO_LEVEL, 0) // row 0: the due list's head
  }
}

/**
 * Options of {@link create}.
 *
 * @example
 * const options: PriorityQueue.CreateOptions = { levelBits: [8, 8], capacity: 1024 }
 * const pq = PriorityQueue.create<string>(options)
 */
export interface CreateOptions {
  /** Level widths; default {@link LevelBits.default}. */
  readonly levelBits?: LevelBits.LevelBits | readonly number[]
  /**
   * How many elements to make room for up front, up to 65,536 (2 MiB); the pool grows
   * past it as needed, so a larger number is accepted and reserves no more.
   */
  readonly capacity?: number
}

/**
 * The largest capacity accepted: the most rows a pool can hold, less the due list's.
 *
 * @example
 * PriorityQueue.create({ capacity: PriorityQueue.maxCapacity + 1 }) // throws InvalidConfig
 */
export const maxCapacity = 2 ** 27 - 1

const optionKeys = new Set(['levelBits', 'capacity'])

const maxAllowedKeyFor = (pq: PriorityQueue<unknown>, m: number): number =>
  Math.min(maxRepresentableKey, maxKeyHeld(pq, m))

// Cold error paths: kept out of the hot functions so that those stay small.

const keyOutOfRange = (pq: PriorityQueue<unknown>, what: string, key: unknown): never => {
  throw new TimingWheelError(
    'TimeOutOfRange',
    `${what} key ${show(key)} is not an integer in [minAllowedKey ${pq.minAllowedKey}, maxAllowedKey ${pq.maxAllowedKey}]`,
  )
}

/**
 * A handle is `generation * 2^27 + row`: shown as `row/generation`, it says which element
 * it was, where sixteen digits say nothing. Anything else is not a handle at all.
 */
const notFound = (pq: PriorityQueue<unknown>, what: string, elt: unknown): never => {
  const item = pq.noun === 'timing wheel' ? 'alarm' : 'element'
  const isHandle = typeof elt === 'number' && Number.isSafeInteger(elt) && elt >= 0
  const row = isHandle ? elt % 2 ** 27 : 0
  throw new TimingWheelError(
    'AlarmNotFound',
    !isHandle
      ? `${what}: ${show(elt)} is not an ${item} handle (handles are the integers add returns)`
      : row >= pq.used
        ? `${what}: ${item} ${row}/${(elt - row) / 2 ** 27} was never in this ${pq.noun}`
        : `${what}: ${item} ${row}/${(elt - row) / 2 ** 27} is not in this ${pq.noun}: it fired or was removed (or cleared), or is another ${pq.noun}'s`,
  )
}

const reentrant = (what: string): never => {
  throw new TimingWheelError(
    'Reentrant',
    `${what} was called from inside a handler of increaseMinAllowedKey; call it after that returns`,
  )
}

const empty = (what: string): never => {
  throw new TimingWheelError('Empty', `${what} of an empty priority queue`)
}

const invalidCapacity = (capacity: unknown): never => {
  throw new TimingWheelError('InvalidConfig', `capacity ${show(capacity)} is not an integer in [0, ${maxCapacity}]`)
}

const invalidOptions = (opts: unknown): never => {
  throw new TimingWheelError(
    'InvalidArgument',
    `PriorityQueue.create options ${show(opts)} are not an object with optional levelBits and capacity`,
  )
}

const notAFunction = (what: string, f: unknown): never => {
  throw new TimingWheelError('InvalidArgument', `${what}: the handler ${show(f)} is not a function`)
}

// Creation and accessors.

/**
 * An empty queue with `minAllowedKey = 0`.
 *
 * Throws `InvalidLevelBits` for bad level bits and `InvalidConfig` for a bad capacity.
 *
 * @example
 * const pq = PriorityQueue.create<string>({ levelBits: [8, 8] })
 */
export const create = <A>(opts: CreateOptions = {}): PriorityQueue<A> => {
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) invalidOptions(opts)
  if (Object.keys(opts).some((k) => !optionKeys.has(k))) invalidOptions(opts)
  const levelBits = LevelBits.fromInput(opts.levelBits)
  const capacity = opts.capacity === undefined ? 0 : opts.capacity
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 0 || capacity > maxCapacity) {
    invalidCapacity(capacity)
  }
  return new PriorityQueue<A>(levelBits, capacity)
}

/**
 * The number of elements in the queue. Constant time.
 *
 * @example
 * PriorityQueue.add(pq, 5, 'five')
 * PriorityQueue.length(pq) // 1
 */
export const length = (pq: PriorityQueue<unknown>): number => pq.length

/**
 * Whether the queue holds no element. Constant time.
 *
 * @example
 * PriorityQueue.isEmpty(PriorityQueue.create()) // true
 */
export const isEmpty = (pq: PriorityQueue<unknown>): boolean => pq.length === 0

/**
 * The least key `add` accepts now. Constant time.
 *
 * @example
 * PriorityQueue.increaseMinAllowedKey(pq, 10, () => {})
 * PriorityQueue.minAllowedKey(pq) // 10
 */
export const minAllowedKey = (pq: PriorityQueue<unknown>): number => pq.minAllowedKey

/**
 * The greatest key `add` accepts now: at least
 * `min(maxRepresentableKey, minAllowedKey + 2^numBits - 1)`. Constant time.
 *
 * @example
 * const pq = PriorityQueue.create<string>({ levelBits: [8, 8] })
 * PriorityQueue.maxAllowedKey(pq) >= 2 ** 16 - 1 // true: 16 bits of keys past minAllowedKey 0
 */
export const maxAllowedKey = (pq: PriorityQueue<unknown>): number => pq.maxAllowedKey

/**
 * The level bits the queue was built with.
 *
 * @example
 * LevelBits.toArray(PriorityQueue.levelBits(PriorityQueue.create({ levelBits: [8, 8] }))) // [8, 8]
 */
export const levelBits = (pq: PriorityQueue<unknown>): LevelBits.LevelBits => pq.levelBits

// Placing and unplacing rows.

/**
 * Unlinks a linked row from wherever it is, keeping the bitmaps and the slot's least key
 * true. The row's `prev` is left for the caller to set.
 */
const detach = (pq: PriorityQueue<unknown>, row: number): void => {
  const ints = pq.ints
  const before = ints[(row << 3) | 1]!
  const after = ints[row << 3]!
  ints[before << 3] = after
  ints[(after << 3) | 1] = before
  if (row === pq.aheadRow) pq.aheadRow = after
  if (row === pq.aheadBack) pq.aheadBack = before
  // The head row is always on its own list, so a list left with one row is empty.
  if (before === after) emptied(pq, before)
  else if ((ints[(row << 3) | 2]! & 536870912) !== 0) forgetLeastKey(pq, pq.floats[(row << 2) | 2]!) // MAY_BE_LEAST
}

/** Clears the bit of a slot whose list just became empty, and resets its head above level 0 (the due list has neither). */
const emptied = (pq: PriorityQueue<unknown>, head: number): void => {
  const level = levelOfHead(pq, head)
  if (level === NO_LEVEL) return
  if (level !== 0) resetHead(pq, head)
  markEmpty(pq, level, slotOfHead(pq, head))
}

/**
 * After removing a marked element with key `key` from a slot that still holds others, the
 * slot's least key may have gone (see `pool.ts`). A key below the minimum is on the due
 * list, and a level-0 slot holds one key: neither keeps a least key.
 */
const forgetLeastKey = (pq: PriorityQueue<unknown>, key: number): void => {
  if (key < pq.minAllowedKey) return
  const level = levelOf(pq, key)
  if (level !== 0) forgetLeastKeyAt(pq, headOf(pq, level, slotOf(pq, level, key)), key)
}

const isValidKey = (pq: PriorityQueue<unknown>, key: number): boolean =>
  typeof key === 'number' && key >= pq.minAllowedKey && key <= pq.maxAllowedKey && Math.floor(key) === key

// Adding, removing, changing.

/** @internal `add` with an arbitrary number stored beside the key (the time layer's `at`). */
export const addWithAt = <A>(pq: PriorityQueue<A>, key: number, at: number, value: A): Elt<A> => {
  if (!isValidKey(pq, key)) keyOutOfRange(pq, 'add', key)
  return insert(pq, key, at, value)
}

/** @internal {@link addWithAt} for a caller that has checked the key already. */
export const insert = <A>(pq: PriorityQueue<A>, key: number, at: number, value: A): Elt<A> => {
  const row = allocate(pq, key, at, value)
  place(pq, row, key)
  pq.length++
  return handleOf(pq, row) as Elt<A>
}

/**
 * Adds `value` with `key` and returns its handle. Constant time.
 *
 * Throws `TimeOutOfRange` unless `key` is an integer in `[minAllowedKey, maxAllowedKey]`.
 *
 * @example
 * const e = PriorityQueue.add(pq, 5, 'five')
 */
export const add = <A>(pq: PriorityQueue<A>, key: number, value: A): Elt<A> =>
  addWithAt(pq, key, key, value)

/**
 * The row of an element in the queue or of the one whose handler is running. A row that
 * is neither (free, or retired with its last generation) names no element.
 */
const readableRow = (pq: PriorityQueue<unknown>, elt: number, what: string): number => {
  const row = rowOfHandle(pq, elt)
  if (row === -1 || (!isLinked(pq, row) && row !== pq.firingRow)) notFound(pq, what, elt)
  return row
}

/**
 * Removes an element. Constant time.
 *
 * Throws `AlarmNotFound` if `elt` is not in the queue (including inside its own handler).
 *
 * @example
 * const e = PriorityQueue.add(pq, 5, 'five')
 * PriorityQueue.remove(pq, e)
 * PriorityQueue.mem(pq, e) // false
 */
export const remove = <A>(pq: PriorityQueue<A>, elt: Elt<A>): void => {
  const row = rowOfHandle(pq, elt)
  if (row === -1 || pq.ints[(row << 3) | 1] === -1) notFound(pq, 'remove', elt) // UNLINKED
  detach(pq, row)
  release(pq, row)
  pq.length--
}

/** @internal `change` that also replaces the number stored beside the key. */
export const changeWithAt = <A>(pq: PriorityQueue<A>, elt: Elt<A>, key: number, at: number): void => {
  const row = readableRow(pq, elt, 'change')
  if (!isValidKey(pq, key)) keyOutOfRange(pq, 'change', key)
  if (isLinked(pq, row)) detach(pq, row)
  else pq.length++ // the element whose handler is running goes back into the queue
  pq.floats[(row << 2) | 2] = key
  pq.floats[(row << 2) | 3] = at
  place(pq, row, key)
}

/**
 * Gives an element a new key; it then counts as added last among elements of that key.
 * Inside its own handler, an element changed this way goes back into the queue under the
 * same handle. Constant time.
 *
 * Throws `AlarmNotFound` for an element not in the queue, `TimeOutOfRange` for a bad key.
 *
 * @example
 * const e = PriorityQueue.add(pq, 5, 'five')
 * PriorityQueue.change(pq, e, 9)
 * Elt.key(pq, e) // 9
 */
export const change = <A>(pq: PriorityQueue<A>, elt: Elt<A>, key: number): void =>
  changeWithAt(pq, elt, key, key)

/**
 * Whether `elt` is in the queue now. Constant time.
 *
 * @example
 * const e = PriorityQueue.add(pq, 5, 'five')
 * PriorityQueue.mem(pq, e) // true
 * PriorityQueue.increaseMinAllowedKey(pq, 6, () => {})
 * PriorityQueue.mem(pq, e) // false: removed with key 5 < 6
 */
export const mem = <A>(pq: PriorityQueue<A>, elt: Elt<A>): boolean => {
  const row = rowOfHandle(pq, elt)
  return row !== -1 && isLinked(pq, row)
}

/**
 * The key of an element in the queue, or of the one whose handler is running.
 *
 * @example
 * Elt.key(pq, PriorityQueue.add(pq, 5, 'five')) // 5
 */
export const eltKey = <A>(pq: PriorityQueue<A>, elt: Elt<A>): number => eltKeyAs(pq, elt, 'Elt.key')

/**
 * The value of an element in the queue, or of the one whose handler is running.
 *
 * @example
 * Elt.value(pq, PriorityQueue.add(pq, 5, 'five')) // 'five'
 */
export const eltValue = <A>(pq: PriorityQueue<A>, elt: Elt<A>): A => eltValueAs(pq, elt, 'Elt.value')

/** @internal {@link eltKey}, with `what` naming the caller in errors. */
export const eltKeyAs = <A>(pq: PriorityQueue<A>, elt: Elt<A>, what: string): number =>
  keyOf(pq, readableRow(pq, elt, what))

/** @internal {@link eltValue}, with `what` naming the caller in errors. */
export const eltValueAs = <A>(pq: PriorityQueue<A>, elt: Elt<A>, what: string): A =>
  valueOf(pq, readableRow(pq, elt, what))

/** @internal The number stored beside the key; `what` names the caller in errors. */
export const eltAt = <A>(pq: PriorityQueue<A>, elt: Elt<A>, what: string): number =>
  atOf(pq, readableRow(pq, elt, what))

/**
 * The handle that no queue ever holds.
 *
 * @example
 * PriorityQueue.mem(pq, Elt.null()) // false
 */
export const nullElt = <A>(): Elt<A> => -1 as Elt<A>

// Moving the minimum allowed key.

/**
 * Sets `m` to `t`, moving down the elements of every slot whose block `t` enters.
 * Requires `m <= t <= ` every key at the levels. Going up from level 1, once `t` is in
 * the same slot as the old `m`, it is at every higher level too, so the loop stops.
 */
const moveMinAllowedKey = (pq: PriorityQueue<unknown>, t: number): void => {
  const old = pq.minAllowedKey
  pq.minAllowedKey = t
  // Within level 0's block nothing else moves: no slot above, no level's last key, and
  // (with more than one level) not the top's range either. Most moves are such.
  if (t <= pq.lastKey[0]! && pq.top > 0) return
  moveBlocks(pq, old, t)
}

const moveBlocks = (pq: PriorityQueue<unknown>, old: number, t: number): void => {
  pq.aheadRow = -1
  setMinimum(pq, t, maxRepresentableKey)
  pq.maxAllowedKey = pq.lastKey[pq.top]!
  for (let level = 1; level < pq.levelCount; level++) {
    const slotsPerKey = pq.slotsPerKey[level]!
    const block = Math.floor(t * slotsPerKey)
    if (block === Math.floor(old * slotsPerKey)) return
    const slot = block & pq.slotMask[level]!
    if (pq.occupiedSlots[level] !== 0 && isOccupied(pq, level, slot)) moveSlotDown(pq, level, slot)
  }
}

/**
 * Empties an occupied slot and places each of its elements again, in order, relative to
 * `m`. Its rows are in random places in the pool, so reaching each is a cache miss, each
 * after the one before. The list is walked from both ends at once, two misses in flight
 * rather than one, and the front half is placed as it is reached, so that the placing
 * overlaps them (7% to 15% off the spread load); the back half is kept in `moving` and
 * placed after it, last row last. `readAhead` has brought most rows into cache by now where
 * the minimum moves one key at a time. Placing may take heads and grow the pool, so the
 * rows are read afresh.
 */
const moveSlotDown = (pq: PriorityQueue<unknown>, level: number, slot: number): void => {
  const head = headOf(pq, level, slot)
  markEmpty(pq, level, slot)
  let front = pq.ints[head << 3]!
  let back = pq.ints[(head << 3) | 1]!
  resetHead(pq, head)
  let kept = 0
  for (;;) {
    const ints = pq.ints
    const afterFront = ints[front << 3]!
    const beforeBack = ints[(back << 3) | 1]!
    place(pq, front, pq.floats[(front << 2) | 2]!)
    if (front === back) break
    if (kept === pq.moving.length) growMoving(pq)
    pq.moving[kept++] = back
    if (afterFront === back) break
    front = afterFront
    back = beforeBack
  }
  const moving = pq.moving
  while (kept > 0) {
    const row = moving[--kept]!
    place(pq, row, pq.floats[(row << 2) | 2]!)
  }
  // A slot of millions leaves no megabytes behind.
  if (moving.length > 4096) pq.moving = new Int32Array(16)
}

const growMoving = (pq: PriorityQueue<unknown>): void => {
  const bigger = new Int32Array(2 * pq.moving.length)
  bigger.set(pq.moving)
  pq.moving = bigger
}

/**
 * The first occupied slot, lowest level first, whose keys may be below `bound`, encoded
 * as `slot * 64 + level`; -1 if no key is below `bound`. With `bound` past every key it
 * is simply the first occupied slot, which holds the least key.
 */
const firstOccupiedBelow = (pq: PriorityQueue<unknown>, bound: number): number => {
  const m = pq.minAllowedKey
  for (let level = 0; level < pq.levelCount; level++) {
    if (pq.occupiedSlots[level] === 0) {
      // Every key at a higher level is past this level's last key.
      if (bound <= pq.lastKey[level]! + 1) return NOT_FOUND
      continue
    }
    const from = firstSlotInUse(pq, level, m)
    let slot: number
    if (level === pq.top) {
      slot = nextOccupiedAround(pq, level, from)
      if (slotMinKey(pq, level, slot, m) >= bound) return NOT_FOUND
    } else {
      slot = nextOccupied(pq, level, from, lastSlotBelow(pq, level, bound))
      // Occupied slots past the bound hold keys above it, and higher levels larger ones.
      if (slot === NOT_FOUND) return NOT_FOUND
    }
    return slot * 64 + level
  }
  return NOT_FOUND
}

/**
 * Moves every element with key below `target` to the due list, in key order and, within a
 * key, in the order added; then sets `m = target`.
 */
const collectDue = (pq: PriorityQueue<unknown>, target: number): void => {
  // Most advances stay within level 0's block (below the top): there each slot holds one
  // key, in key order, so the due elements are the occupied slots before target's.
  if (target <= pq.lastKey[0]! && pq.top > 0) {
    const mask = pq.mask0
    collectLevel0(pq, pq.minAllowedKey & mask, (target - 1) & mask)
    pq.minAllowedKey = target
    readAhead(pq)
  } else collectAcrossBlocks(pq, target)
}

/**
 * {@link collectDue} past the end of level 0's block: slots above move down on the way.
 * Below the top, level 0's occupied slots are collected a bitmap word at a time up to the
 * end of its block, which moves the next slot down; the search skips what is empty.
 */
const collectAcrossBlocks = (pq: PriorityQueue<unknown>, target: number): void => {
  while (pq.minAllowedKey < target) {
    if (pq.top > 0 && pq.occupiedSlots[0] !== 0) {
      const end = pq.lastKey[0]!
      const mask = pq.mask0
      collectLevel0(pq, pq.minAllowedKey & mask, Math.min(target - 1, end) & mask)
      moveMinAllowedKey(pq, Math.min(target, end + 1))
      continue
    }
    const found = firstOccupiedBelow(pq, target)
    if (found === NOT_FOUND) break
    const level = found & 63
    const slot = (found - level) / 64
    const start = slotMinKey(pq, level, slot, pq.minAllowedKey)
    if (level === 0) {
      collectSlot0(pq, slot)
      moveMinAllowedKey(pq, start + 1)
    } else {
      moveMinAllowedKey(pq, start)
    }
  }
  if (pq.minAllowedKey < target) moveMinAllowedKey(pq, target)
}

/**
 * Reads ahead, two rows an advance, the level-1 slot that moves down when `m` enters the
 * next block of level 0. Moving a slot down reaches each row through the one before, a
 * cache miss after a miss; read ahead, the misses overlap the work of the advances before
 * it, and the move finds its rows in cache. The two rows are the next from the front and
 * the next from the back, which do not wait for each other. Only a hint: it changes
 * nothing, and `detach` keeps `aheadRow` and `aheadBack` on the slot's list.
 */
const readAhead = (pq: PriorityQueue<unknown>): void => {
  const ints = pq.ints
  const front = pq.aheadRow
  const head = pq.aheadHead
  if (front === head) return
  if (front === -1) {
    startReadingAhead(pq)
    return
  }
  const back = pq.aheadBack
  const afterFront = ints[front << 3]!
  const beforeBack = ints[(back << 3) | 1]!
  // Once the two ends meet, every row between has been read.
  if (front === back || afterFront === back) pq.aheadRow = head
  else {
    pq.aheadRow = afterFront
    pq.aheadBack = beforeBack
  }
}

/** Starts reading ahead the slot that moves down next, if any, when `m` enters a new block. */
const startReadingAhead = (pq: PriorityQueue<unknown>): void => {
  const next = pq.lastKey[0]! + 1
  const slot = slotOf(pq, 1, next)
  const head = next <= pq.lastKey[1]! && isOccupied(pq, 1, slot) ? headOf(pq, 1, slot) : 0
  pq.aheadHead = head
  pq.aheadBack = head === 0 ? 0 : pq.ints[(head << 3) | 1]!
  pq.aheadRow = head === 0 ? 0 : pq.ints[head << 3]!
}

/**
 * Moves the occupied level-0 slots in `[from, to]` (`from <= to`) to the due list, in
 * order: a word of the bitmap at a time, held in a local as its bits are cleared. Level 0's
 * words come first in `occupied` and `headBase`, so word `w` holds slots `32w` on.
 */
const collectLevel0 = (pq: PriorityQueue<unknown>, from: number, to: number): void => {
  if (pq.occupiedSlots[0] === 0) return
  const occupied = pq.occupied
  const lastWord = to >>> 5
  let w = from >>> 5
  let word = occupied[w]! & (-1 << (from & 31))
  for (;;) {
    if (w === lastWord) word &= -1 >>> (31 - (to & 31))
    if (word !== 0) {
      const bit = 31 - Math.clz32(word & -word)
      word &= ~(1 << bit)
      occupied[w] = occupied[w]! & ~(1 << bit)
      pq.occupiedSlots[0]!--
      spliceToEnd(pq, pq.headBase[w]! + bit, DUE_HEAD)
    } else if (w === lastWord) return
    else word = occupied[++w]!
  }
}

/** Moves an occupied level-0 slot, one key, to the end of the due list. */
const collectSlot0 = (pq: PriorityQueue<unknown>, slot: number): void => {
  spliceToEnd(pq, headOf(pq, 0, slot), DUE_HEAD)
  markEmpty(pq, 0, slot)
}

/**
 * Runs `handle` on each due element in order. Each leaves the queue before its handler
 * runs and is freed after, unless the handler changed it back in. Every due element is
 * handled even if a handler throws; the first error is rethrown at the end.
 */
const fireDue = <A>(pq: PriorityQueue<A>, handle: (elt: Elt<A>) => void): void => {
  let failed = false
  let error: unknown
  pq.firing = true
  // `pq.ints` is read afresh after every handler: one that adds may grow the pool.
  for (let row = pq.ints[0]!; row !== 0; row = pq.ints[0]!) { // DUE_HEAD
    const ints = pq.ints
    const after = ints[row << 3]!
    ints[0] = after
    ints[(after << 3) | 1] = 0
    ints[(row << 3) | 1] = -1 // UNLINKED
    pq.length--
    pq.firingRow = row
    const gen = ints[(row << 3) | 2]! & 67108863 // GEN_MASK
    try {
      handle((gen * 134217728 + row) as Elt<A>) // 2^27
    } catch (e) {
      if (!failed) {
        failed = true
        error = e
      }
    }
    // Still out of the queue and not freed by a remove after a change: its handle dies.
    if (pq.ints[(row << 3) | 1] === -1 && (pq.ints[(row << 3) | 2]! & 67108863) === gen) release(pq, row)
  }
  pq.firingRow = -1 // NO_ROW
  pq.firing = false
  if (failed) throw error
}

/**
 * Raises the minimum allowed key to `key`, first removing every element with a smaller
 * key and calling `handleRemoved` on each, in non-decreasing key order and, for equal
 * keys, in the order they were added (a `change` counts as adding). A no-op if
 * `key <= minAllowedKey`.
 *
 * Handlers may call `add`, `remove`, `change`, `mem`, `Elt.*` and read-only functions;
 * during them `minAllowedKey` is already `key`. An element removed or changed by an
 * earlier handler is not handled. If a handler throws, the rest still run and the first
 * error is rethrown at the end.
 *
 * Time: proportional to the elements removed or moved down a level plus the occupied
 * slots passed; empty slots are skipped 32 at a time.
 *
 * Throws `TimeOutOfRange` if `key` is not an integer or exceeds `maxRepresentableKey`,
 * `Reentrant` if called from a handler.
 *
 * @example
 * PriorityQueue.add(pq, 3, 'c')
 * PriorityQueue.add(pq, 7, 'g')
 * const removed: string[] = []
 * PriorityQueue.increaseMinAllowedKey(pq, 5, (e) => removed.push(Elt.value(pq, e)))
 * removed // ['c']; 'g' stays
 */
export const increaseMinAllowedKey = <A>(
  pq: PriorityQueue<A>,
  key: number,
  handleRemoved: (elt: Elt<A>) => void,
): void => {
  if (pq.firing) reentrant('increaseMinAllowedKey')
  if (!(Number.isInteger(key) && key <= maxRepresentableKey)) {
    throw new TimingWheelError(
      'TimeOutOfRange',
      `increaseMinAllowedKey key ${show(key)} is not an integer at most maxRepresentableKey ${maxRepresentableKey}`,
    )
  }
  if (typeof handleRemoved !== 'function') notAFunction('increaseMinAllowedKey', handleRemoved)
  advanceTo(pq, key, handleRemoved)
}

/**
 * @internal {@link increaseMinAllowedKey} for a caller that has checked its arguments and
 * that no handler is running.
 */
export const advanceTo = <A>(pq: PriorityQueue<A>, key: number, handleRemoved: (elt: Elt<A>) => void): void => {
  if (key <= pq.minAllowedKey) return
  collectDue(pq, key)
  if (pq.ints[0] !== 0) fireDue(pq, handleRemoved) // DUE_HEAD
}

/**
 * @internal Removes the elements with key `minAllowedKey` whose stored number is at most
 * `maxAt`, handling them in the order added, as `increaseMinAllowedKey` does.
 */
export const removeAtMinKeyUpTo = <A>(
  pq: PriorityQueue<A>,
  maxAt: number,
  handleRemoved: (elt: Elt<A>) => void,
): void => {
  if (pq.firing) reentrant('firePastAlarms')
  if (typeof handleRemoved !== 'function') notAFunction('firePastAlarms', handleRemoved)
  const slot = slotOf(pq, 0, pq.minAllowedKey)
  if (!isOccupied(pq, 0, slot)) return
  const head = headOf(pq, 0, slot)
  for (let row = nextOf(pq, head); row !== head; ) {
    const following = nextOf(pq, row)
    if (atOf(pq, row) <= maxAt) {
      detach(pq, row)
      linkLast(pq, DUE_HEAD, row)
    }
    row = following
  }
  fireDue(pq, handleRemoved)
}

// The minimum.

/** The row of an element with the least key (the first added among equals), or -1. */
const minRow = (pq: PriorityQueue<unknown>): number => {
  const due = nextOf(pq, DUE_HEAD)
  if (due !== DUE_HEAD) return due
  if (pq.length === 0) return NO_ROW
  const slot = firstLevel0Slot(pq)
  return nextOf(pq, slot !== -1 ? headOf(pq, 0, slot) : sortedFirstSlot(pq))
}

/**
 * The first occupied slot of level 0 below the top, or -1. Below the top, level 0's
 * occupied slots follow m's, and each is the one key of its slot: this is where the least
 * key mostly is, found without the general search.
 */
const firstLevel0Slot = (pq: PriorityQueue<unknown>): number => {
  if (pq.occupiedSlots[0] === 0 || pq.top === 0) return -1
  // `nextOccupied` for level 0, whose words come first, with no end to check: every
  // occupied slot is at or after m's (46 fewer instructions a hold event, which asks at each).
  const occupied = pq.occupied
  const from = pq.minAllowedKey & pq.mask0
  let w = from >>> 5
  let word = occupied[w]! & (-1 << (from & 31))
  while (word === 0) word = occupied[++w]!
  return (w << 5) + 31 - Math.clz32(word & -word)
}

/**
 * The head of the first occupied slot, sorted if it can hold several keys; requires a
 * non-empty level. Above level 0 a slot mixes keys. Its first row of the least key is
 * found by sorting the slot, stably, once: a sorted slot knows its least key after every
 * removal, so removing the least element again and again (cancel the soonest timeout,
 * ask when to wake) never walks it again. It stays sorted while keys arrive in order.
 */
const sortedFirstSlot = (pq: PriorityQueue<unknown>): number => {
  const found = firstOccupiedBelow(pq, Infinity)
  const level = found & 63
  const head = headOf(pq, level, (found - level) / 64)
  if (level !== 0 && !isSorted(pq, head)) pq.rowsWalked += sortList(pq, head)
  return head
}

/**
 * The least key of a non-empty queue. Unlike the least element, it is usually known
 * without touching a row: a level-0 slot's key is its slot's, and a slot above keeps its
 * least key in its head (see `pool.ts`).
 */
const leastKey = (pq: PriorityQueue<unknown>): number => {
  const level0 = leastKeyAtLevel0(pq)
  if (level0 !== -1) return level0
  const due = nextOf(pq, DUE_HEAD)
  return due !== DUE_HEAD ? keyOf(pq, due) : leastKeyAbove(pq)
}

/**
 * @internal The least key of a queue with nothing due whose least key is at level 0 below
 * the top, as it mostly is; -1 otherwise. Small and calling nothing V8 would not inline,
 * so that callers which ask for the minimum at every event inline it whatever ran before.
 */
export const leastKeyAtLevel0 = (pq: PriorityQueue<unknown>): number => {
  if (pq.ints[0] !== 0) return -1 // DUE_HEAD: something is due
  const slot0 = firstLevel0Slot(pq)
  const m = pq.minAllowedKey
  return slot0 === -1 ? -1 : m - (m & pq.mask0) + slot0
}

/** {@link leastKey} when level 0 below the top is empty. */
const leastKeyAbove = (pq: PriorityQueue<unknown>): number => {
  const m = pq.minAllowedKey
  const found = firstOccupiedBelow(pq, Infinity)
  const level = found & 63
  const slot = (found - level) / 64
  if (level === 0) return slotMinKey(pq, 0, slot, m)
  const known = leastKeyOf(pq, headOf(pq, level, slot))
  if (!Number.isNaN(known)) return known
  return keyOf(pq, minRow(pq))
}
/**
 * An element with the least key (the first added among equals). Cheap: see README.
 *
 * @example
 * PriorityQueue.add(pq, 3, 'c')
 * O.map((e: PriorityQueue.Elt<string>) => Elt.value(pq, e))(PriorityQueue.minElt(pq)) // O.some('c')
 */
export const minElt = <A>(pq: PriorityQueue<A>): O.Option<Elt<A>> => {
  const row = minRow(pq)
  return row === NO_ROW ? O.none : O.some(handleOf(pq, row) as Elt<A>)
}

/**
 * {@link minElt}, throwing `Empty` on an empty queue.
 *
 * @example
 * PriorityQueue.add(pq, 3, 'c')
 * Elt.value(pq, PriorityQueue.minEltExn(pq)) // 'c'
 */
export const minEltExn = <A>(pq: PriorityQueue<A>): Elt<A> => {
  const row = minRow(pq)
  if (row === NO_ROW) empty('minEltExn')
  return handleOf(pq, row) as Elt<A>
}

/** @internal The value of an element with the least key (the first added among equals); requires a non-empty queue. */
export const minValue = <A>(pq: PriorityQueue<A>): A => valueOf(pq, minRow(pq))

/** @internal The least key in the queue, or `none` if it is empty: {@link minKey} without an `Option`. */
export const minKeyOr = (pq: PriorityQueue<unknown>, none: number): number =>
  pq.length === 0 ? none : leastKey(pq)

/**
 * The least key in the queue.
 *
 * @example
 * PriorityQueue.add(pq, 3, 'c')
 * PriorityQueue.minKey(pq) // O.some(3)
 */
export const minKey = (pq: PriorityQueue<unknown>): O.Option<number> =>
  pq.length === 0 ? O.none : O.some(leastKey(pq))

/**
 * {@link minKey}, throwing `Empty` on an empty queue.
 *
 * @example
 * PriorityQueue.minKeyExn(PriorityQueue.create()) // throws Empty
 */
export const minKeyExn = (pq: PriorityQueue<unknown>): number => {
  if (pq.length === 0) empty('minKeyExn')
  return leastKey(pq)
}

/**
 * @internal The least and greatest stored numbers among the elements with the least key,
 * or `undefined` if the queue is empty.
 */
export const atRangeOfMinKey = (pq: PriorityQueue<unknown>): readonly [number, number] | undefined => {
  if (pq.length === 0) return undefined
  // The least key's elements lead their list, which is in key order: the due list, a
  // level-0 slot (one key) or a sorted slot. Only they are visited.
  const head = nextOf(pq, DUE_HEAD) !== DUE_HEAD ? DUE_HEAD : sortedFirstSlot(pq)
  const key = keyOf(pq, nextOf(pq, head))
  let least = Infinity
  let greatest = -Infinity
  for (let row = nextOf(pq, head); row !== head && keyOf(pq, row) === key; row = nextOf(pq, row)) {
    const at = atOf(pq, row)
    if (at < least) least = at
    if (at > greatest) greatest = at
  }
  return [least, greatest]
}

// Whole-queue operations.

/** Calls `f` on the head row of every non-empty list: the due list, then each slot. */
const forEachList = (pq: PriorityQueue<unknown>, f: (head: number) => void): void => {
  f(DUE_HEAD)
  for (let level = 0; level < pq.levelCount; level++) forEachOccupied(pq, level, 0, (slot) => f(headOf(pq, level, slot)))
}

/** Calls `f` on every occupied slot of `level` in circular order from `from`. */
const forEachOccupied = (pq: PriorityQueue<unknown>, level: number, from: number, f: (slot: number) => void): void => {
  const last = pq.slotMask[level]!
  const visit = (low: number, high: number): void => {
    for (let slot = nextOccupied(pq, level, low, high); slot !== NOT_FOUND; ) {
      f(slot)
      slot = slot === high ? NOT_FOUND : nextOccupied(pq, level, slot + 1, high)
    }
  }
  visit(from, last)
  visit(0, from - 1)
}

/**
 * @internal Every element in removal order: by key, equal keys in the order added. A
 * slot's list keeps equal keys in order, so a stable sort of each slot by key, taken in
 * slot order from the lowest level up, gives the order. Time: n log(n) at worst.
 */
export const toArrayInOrder = <A>(pq: PriorityQueue<A>): Array<Elt<A>> => {
  const m = pq.minAllowedKey
  const elts: Array<Elt<A>> = []
  const takeList = (head: number): void => {
    const rows: number[] = []
    for (let row = nextOf(pq, head); row !== head; row = nextOf(pq, row)) rows.push(row)
    rows.sort((a, b) => keyOf(pq, a) - keyOf(pq, b))
    for (const row of rows) elts.push(handleOf(pq, row) as Elt<A>)
  }
  takeList(DUE_HEAD)
  // Below the top no slot before the first in use is occupied, so the circular order
  // from it is the key order at every level.
  for (let level = 0; level < pq.levelCount; level++) {
    forEachOccupied(pq, level, firstSlotInUse(pq, level, m), (slot) => takeList(headOf(pq, level, slot)))
  }
  return elts
}

/** @internal Whether handlers of removed elements are running. */
export const isFiring = (pq: PriorityQueue<unknown>): boolean => pq.firing

/** @internal Sets what error messages call the structure. */
export const nameAs = (pq: PriorityQueue<unknown>, noun: string): void => {
  pq.noun = noun
}

/**
 * Every element in the queue, in no particular order. Linear time.
 *
 * @example
 * PriorityQueue.add(pq, 3, 'c')
 * PriorityQueue.toArray(pq).map((e) => Elt.value(pq, e)) // ['c']
 */
export const toArray = <A>(pq: PriorityQueue<A>): ReadonlyArray<Elt<A>> => {
  const elts: Array<Elt<A>> = []
  forEachList(pq, (head) => {
    for (let row = nextOf(pq, head); row !== head; row = nextOf(pq, row)) {
      elts.push(handleOf(pq, row) as Elt<A>)
    }
  })
  return elts
}

/**
 * Calls `f` on every element, in no particular order. `f` sees the queue as it was when
 * `iter` was called; it may change the queue. Linear time.
 *
 * @example
 * PriorityQueue.iter(pq, (e) => console.log(Elt.key(pq, e), Elt.value(pq, e)))
 */
export const iter = <A>(pq: PriorityQueue<A>, f: (elt: Elt<A>) => void): void => {
  if (typeof f !== 'function') notAFunction('iter', f)
  toArray(pq).forEach((elt) => f(elt))
}

/**
 * Removes every element; their handles die. `minAllowedKey` stays. Linear time.
 * Throws `Reentrant` if called from a handler.
 *
 * @example
 * PriorityQueue.clear(pq)
 * PriorityQueue.isEmpty(pq) // true
 */
export const clear = (pq: PriorityQueue<unknown>): void => {
  if (pq.firing) reentrant('clear')
  forEachList(pq, (head) => {
    let row = nextOf(pq, head)
    resetHead(pq, head)
    while (row !== head) {
      const following = nextOf(pq, row)
      release(pq, row)
      row = following
    }
  })
  clearOccupancy(pq)
  pq.aheadRow = -1
  pq.length = 0
}

// Invariant.

/**
 * `what` may be a function, for checks made per slot or per row: the message (formatting
 * doubles is what costs) is then built only on failure.
 */
const check = (ok: boolean, what: string | (() => string)): void => {
  if (!ok) throw new Error(`PriorityQueue invariant broken: ${typeof what === 'string' ? what : what()}`)
}

/**
 * The key range `[low, high]` of each level when the minimum allowed key is `m`
 * (`high = low - 1` for a level that can hold nothing now).
 */
const levelRanges = (pq: PriorityQueue<unknown>): ReadonlyArray<readonly [number, number]> => {
  const m = pq.minAllowedKey
  const ranges: Array<readonly [number, number]> = []
  let low = m
  for (let level = 0; level < pq.levelCount; level++) {
    const span = pq.keysPerSlot[level]! * (pq.slotMask[level]! + 1)
    const high =
      level === pq.top ? maxAllowedKeyFor(pq, m) : Math.floor(m / span) * span + span - 1
    ranges.push([low, high])
    low = high + 1
  }
  return ranges
}

/**
 * Checks every field against its derivation and throws an `Error` naming the first that
 * is wrong. Linear in the size of the queue; meant for tests.
 *
 * @example
 * PriorityQueue.add(pq, 3, 'c')
 * PriorityQueue.invariant(pq) // throws only if the queue's fields disagree
 */
export const invariant = (pq: PriorityQueue<unknown>): void => {
  const m = pq.minAllowedKey
  check(Number.isInteger(m) && m >= 0 && m <= maxRepresentableKey, `minAllowedKey ${m}`)
  check(pq.maxAllowedKey === maxAllowedKeyFor(pq, m), `maxAllowedKey ${pq.maxAllowedKey}`)
  const guaranteed = Math.min(maxRepresentableKey, m + 2 ** LevelBits.numBits(pq.levelBits) - 1)
  check(pq.maxAllowedKey >= guaranteed, `maxAllowedKey ${pq.maxAllowedKey} < ${guaranteed}`)
  const ranges = levelRanges(pq)
  ranges.forEach(([, high], level) => check(pq.lastKey[level] === high, `lastKey of level ${level}`))
  const more = pq.top > 1
  check(pq.quick0 === (more ? pq.lastKey[0] : -1) && pq.quick1 === (more ? pq.lastKey[1] : -1), `quick0 ${pq.quick0}, quick1 ${pq.quick1}`)
  const many = pq.levelCount > 1
  check(pq.mask0 === pq.slotMask[0] && pq.mask1 === (many ? pq.slotMask[1] : 0), `mask0 ${pq.mask0}, mask1 ${pq.mask1}`)
  check(pq.perKey1 === (many ? pq.slotsPerKey[1] : 0) && pq.word1 === (many ? pq.firstWord[1] : 0), `perKey1 ${pq.perKey1}, word1 ${pq.word1}`)
  ranges.forEach(([low, high], level) => {
    const expectedLow = level === 0 ? m : ranges[level - 1]![1] + 1
    check(low === expectedLow, `level ${level} starts at ${low}, not ${expectedLow}: a gap or an overlap`)
    check(high >= low - 1, `level ${level} range [${low}, ${high}]`)
  })
  check(ranges[pq.top]![1] === pq.maxAllowedKey, 'top level ends at maxAllowedKey')

  const seen = new Set<number>()
  const headRows = new Set<number>([DUE_HEAD])
  /** Visits a list; `keepsLeast` for a slot above level 0, whose head keeps its least key. */
  const visit = (head: number, keepsLeast: boolean, checkRow: (row: number) => void): number => {
    let count = 0
    let least = Infinity
    let greatest = -Infinity
    let inOrder = true
    for (let row = nextOf(pq, head); row !== head; row = nextOf(pq, row)) {
      const key = keyOf(pq, row)
      inOrder &&= key >= greatest
      least = Math.min(least, key)
      greatest = Math.max(greatest, key)
      check(!isHead(pq, row) && row < pq.used, `row ${row} in list ${head}`)
      check(!seen.has(row), `row ${row} on two lists or twice on one`)
      seen.add(row)
      check(prevOf(pq, nextOf(pq, row)) === row, `links around row ${row}`)
      checkRow(row)
      count++
    }
    check(prevOf(pq, nextOf(pq, head)) === head, () => `links of head ${head}`)
    if (!keepsLeast) {
      check(!isSorted(pq, head), () => `list ${head} is marked sorted, but only slots above level 0 are`)
      return count
    }
    const known = leastKeyOf(pq, head)
    const exact = count === 0 ? known === Infinity && !isSorted(pq, head) : Number.isNaN(known) || known === least
    check(exact, () => `list ${head} keeps least key ${known}, but it is ${least}`)
    if (isSorted(pq, head)) {
      check(inOrder && known === least, () => `list ${head} is marked sorted but is not`)
      check(greatestKeyOf(pq, head) >= greatest, () => `sorted list ${head} keeps greatest key ${greatestKeyOf(pq, head)} < ${greatest}`)
      check(mayBeLeast(pq, nextOf(pq, head)), () => `the first row of sorted list ${head} is not marked`)
    } else if (count > 0 && known === least) {
      // Else removing the last row holding it would leave the least key wrong rather than unknown.
      let marked = false
      for (let row = nextOf(pq, head); row !== head; row = nextOf(pq, row)) {
        marked ||= keyOf(pq, row) === known && mayBeLeast(pq, row)
      }
      check(marked, () => `list ${head} records least key ${known} but no row holding it is marked`)
    }
    return count
  }

  let count = 0
  let previousDueKey = -Infinity
  check(isHead(pq, DUE_HEAD) && levelOfHead(pq, DUE_HEAD) === NO_LEVEL, 'row 0 heads the due list')
  count += visit(DUE_HEAD, false, (row) => {
    const key = keyOf(pq, row)
    check(pq.firing, 'due elements outside of handlers')
    check(key < m && key >= previousDueKey, `due row ${row} with key ${key} out of order`)
    previousDueKey = key
  })
  for (let level = 0; level < pq.levelCount; level++) {
    const [low, high] = ranges[level]!
    let occupiedSlots = 0
    for (let slot = 0; slot <= pq.slotMask[level]!; slot++) {
      const word = pq.firstWord[level]! + (slot >>> 5)
      if (pq.headBase[word] === 0) {
        check(pq.occupied[word] === 0, () => `level ${level} slot ${slot} is occupied but has no head`)
        slot |= 31 // the whole run has no heads
        continue
      }
      const head = headOf(pq, level, slot)
      check(isHead(pq, head) && levelOfHead(pq, head) === level && slotOfHead(pq, head) === slot, () => `head ${head} of level ${level} slot ${slot}`)
      headRows.add(head)
      const inList = visit(head, level !== 0, (row) => {
        const key = keyOf(pq, row)
        check(Number.isInteger(key) && key >= low && key <= high, `key ${key} outside level ${level} [${low}, ${high}]`)
        check(slotOf(pq, level, key) === slot, `key ${key} in slot ${slot} of level ${level}`)
      })
      check(isOccupied(pq, level, slot) === inList > 0, () => `bitmap of level ${level} slot ${slot}`)
      if (inList > 0) occupiedSlots++
      count += inList
    }
    check(pq.occupiedSlots[level] === occupiedSlots, `occupied slot count of level ${level}`)
  }
  check(count === pq.length, `length ${pq.length} but ${count} elements linked`)

  const free = new Set<number>()
  for (let row = pq.freeHead; row !== NO_ROW; row = nextOf(pq, row)) {
    // `add` reads a free row's word as its generation.
    check(!isHead(pq, row) && row < pq.used && pq.ints[(row << 3) | 2] === genOf(pq, row), `free row ${row}`)
    check(!seen.has(row) && !free.has(row) && prevOf(pq, row) === UNLINKED, `free row ${row} is in use or loops`)
    free.add(row)
  }
  for (let row = 0; row < pq.used; row++) {
    if (isHead(pq, row)) {
      check(headRows.has(row), () => `head row ${row} belongs to no slot`)
      continue
    }
    const linked = prevOf(pq, row) !== UNLINKED
    check(linked === seen.has(row), `row ${row} is ${linked ? 'linked but on no list' : 'on a list but unlinked'}`)
    const valueInRow = isValueInRow(pq, row)
    const holdsElement = linked || row === pq.firingRow
    check(!valueInRow || holdsElement, () => `row ${row} holds no element but is flagged as holding its value`)
    check(pq.values[row] === undefined || (holdsElement && !valueInRow), () => `row ${row} keeps a stray value`)
    if (!linked && !free.has(row) && row !== pq.firingRow) {
      check(genOf(pq, row) === pq.salt, `row ${row} is lost: neither in use, free, firing nor retired`)
    }
  }
  check(pq.firing || pq.firingRow === NO_ROW, 'firing row outside of handlers')
  if (pq.aheadRow !== -1) {
    const list = [pq.aheadHead]
    for (let row = nextOf(pq, pq.aheadHead); row !== pq.aheadHead; row = nextOf(pq, row)) list.push(row)
    check(list.includes(pq.aheadRow) && list.includes(pq.aheadBack), `rows read ahead ${pq.aheadRow}, ${pq.aheadBack} not on the list of head ${pq.aheadHead}`)
  }
}
