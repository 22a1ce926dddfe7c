/**
 * Scheme 3, "tree-based algorithms" (section 4.1.1), as a binary min-heap on absolute
 * expiry time: START_TIMER and STOP_TIMER O(log n), PER_TICK_BOOKKEEPING looks at the
 * root only (Figure 6).
 *
 * Representation. An implicit binary tree in two parallel arrays over heap positions
 * `[0, length)`: `ids[i]` and `keys[i]`, the timer at position `i` and its expiry, kept
 * side by side so that sifting compares without a detour through the id. `positionOf[id]`
 * is where timer `id` sits, or -1. Invariants, between calls:
 *
 * - heap order: `keys[(i - 1) >> 1] <= keys[i]` for every `0 < i < length`;
 * - `positionOf[ids[i]] === i` on `[0, length)`, -1 for every other id;
 * - every key is greater than `now`.
 *
 * The position index, rather than lazy deletion, is what lets STOP_TIMER take a timer
 * out where it is: the paper's section 4.2 warns that marking stopped timers and leaving
 * them in place lets memory grow without bound when STOP_TIMER is frequent.
 */
import { type Config, type OnExpiry, type Scheme, type TimerModule, broken } from './scheme.js'

class BinaryHeap {
  readonly ids: Int32Array
  readonly keys: Float64Array
  readonly positionOf: Int32Array
  length = 0
  now = 0

  constructor(readonly capacity: number, readonly onExpiry: OnExpiry) {
    this.ids = new Int32Array(capacity)
    this.keys = new Float64Array(capacity)
    this.positionOf = new Int32Array(capacity).fill(-1)
  }
}

/** Puts timer `id` with `key` at position `i` or above it, moving larger parents down. */
const siftUp = (h: BinaryHeap, i: number, id: number, key: number): void => {
  const { ids, keys, positionOf } = h
  while (i > 0) {
    const parent = (i - 1) >> 1
    const parentKey = keys[parent]!
    if (parentKey <= key) break
    const parentId = ids[parent]!
    ids[i] = parentId
    keys[i] = parentKey
    positionOf[parentId] = i
    i = parent
  }
  ids[i] = id
  keys[i] = key
  positionOf[id] = i
}

/** Puts timer `id` with `key` at position `i` or below it, moving smaller children up. */
const siftDown = (h: BinaryHeap, i: number, id: number, key: number): void => {
  const { ids, keys, positionOf, length } = h
  for (;;) {
    let child = 2 * i + 1
    if (child >= length) break
    if (child + 1 < length && keys[child + 1]! < keys[child]!) child++
    const childKey = keys[child]!
    if (key <= childKey) break
    const childId = ids[child]!
    ids[i] = childId
    keys[i] = childKey
    positionOf[childId] = i
    i = child
  }
  ids[i] = id
  keys[i] = key
  positionOf[id] = i
}

const startTimer = (h: BinaryHeap, interval: number, id: number): void => {
  siftUp(h, h.length++, id, h.now + interval)
}

/** Fills position `i` with the last timer, which may then belong above or below it. */
const removeAt = (h: BinaryHeap, i: number): void => {
  h.positionOf[h.ids[i]!] = -1
  const last = --h.length
  if (i === last) return
  const id = h.ids[last]!
  const key = h.keys[last]!
  if (i > 0 && h.keys[(i - 1) >> 1]! > key) siftUp(h, i, id, key)
  else siftDown(h, i, id, key)
}

const stopTimer = (h: BinaryHeap, id: number): void => {
  const i = h.positionOf[id]!
  if (i !== -1) removeAt(h, i)
}

const perTickBookkeeping = (h: BinaryHeap): void => {
  const now = ++h.now
  while (h.length > 0 && h.keys[0] === now) {
    const id = h.ids[0]!
    removeAt(h, 0)
    h.onExpiry(id)
  }
}

const invariant = (h: BinaryHeap): void => {
  const fail = (what: string): never => broken('Scheme 3', what)
  for (let i = 0; i < h.length; i++) {
    if (h.positionOf[h.ids[i]!] !== i) fail(`position ${i} and timer ${h.ids[i]} disagree`)
    if (h.keys[i]! <= h.now) fail(`timer ${h.ids[i]} expires at ${h.keys[i]}, not after now ${h.now}`)
    if (i > 0 && h.keys[(i - 1) >> 1]! > h.keys[i]!) fail(`heap order broken at position ${i}`)
  }
  let outstanding = 0
  for (let id = 0; id < h.capacity; id++) if (h.positionOf[id] !== -1) outstanding++
  if (outstanding !== h.length) fail(`length ${h.length} but ${outstanding} ids have a position`)
}

export const binaryHeap: Scheme = {
  key: 's3',
  number: 3,
  name: 'Scheme 3: binary heap',
  create: (config: Config, onExpiry: OnExpiry): TimerModule => {
    const h = new BinaryHeap(config.capacity, onExpiry)
    return {
      startTimer: (interval, id) => startTimer(h, interval, id),
      stopTimer: (id) => stopTimer(h, id),
      perTickBookkeeping: () => perTickBookkeeping(h),
      size: () => h.length,
      invariant: () => invariant(h),
    }
  },
}
