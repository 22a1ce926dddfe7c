/**
 * Scheme 7, hierarchical wheels (section 6.2), as Jane Street Core builds it: this
 * package's `PriorityQueue`, whose levels are wheels of `2^bits` slots, each slot of a
 * level spanning a whole turn of the level below.
 *
 * Representation. The queue holds every outstanding timer with key = its absolute expiry
 * tick and value = its id; `handles[id]` is the queue's handle on timer `id`, or -1 (the
 * queue's null handle) if it is not outstanding. Invariants, between calls:
 *
 * - the queue's minimum allowed key is `now + 1`, so every key in it is in the future
 *   and a tick that raises the minimum to `now + 2` removes exactly the keys `now + 1`;
 * - `handles[id] !== -1` exactly for the ids in the queue.
 *
 * The queue keeps Scheme 7's promise: START_TIMER finds a level from the highest bit in
 * which the expiry differs from the current time (O(1), the paper allows O(m)); a timer
 * moves down a level at most once per level, so over its life it costs at most m moves,
 * whatever its interval T; empty slots are skipped by occupancy bitmaps.
 */
import { Elt, LevelBits, PriorityQueue } from '../../lib/index.js'
import { type Config, type OnExpiry, type Scheme, type TimerModule, broken } from './scheme.js'

type Handle = PriorityQueue.Elt<number>

const noHandle = -1

class Hierarchical {
  readonly pq: PriorityQueue.PriorityQueue<number>
  readonly handles: Float64Array
  /** Made once, not per tick: the queue calls it on each timer that expires. */
  readonly expire: (elt: Handle) => void
  now = 0

  constructor(readonly capacity: number, levelBits: readonly number[] | undefined, onExpiry: OnExpiry) {
    const pq = PriorityQueue.create<number>(levelBits === undefined ? {} : { levelBits })
    this.pq = pq
    this.handles = new Float64Array(capacity).fill(noHandle)
    const handles = this.handles
    this.expire = (elt) => {
      const id = Elt.value(pq, elt)
      handles[id] = noHandle
      onExpiry(id)
    }
    PriorityQueue.increaseMinAllowedKey(pq, 1, this.expire)
  }
}

/** Rejects, up front, a wheel too small for the intervals: `add` would throw mid-run. */
const checkRange = (levelBits: readonly number[] | undefined, maxInterval: number): void => {
  const bits = LevelBits.numBits(LevelBits.createExn(levelBits ?? LevelBits.default))
  if (2 ** bits < maxInterval) {
    throw new RangeError(`Scheme 7: level bits ${String(levelBits)} cover 2^${bits} ticks, less than maxInterval ${maxInterval}`)
  }
}

const startTimer = (h: Hierarchical, interval: number, id: number): void => {
  h.handles[id] = PriorityQueue.add(h.pq, h.now + interval, id)
}

const stopTimer = (h: Hierarchical, id: number): void => {
  const handle = h.handles[id]!
  if (handle === noHandle) return
  PriorityQueue.remove(h.pq, handle as Handle)
  h.handles[id] = noHandle
}

const perTickBookkeeping = (h: Hierarchical): void => {
  const now = ++h.now
  PriorityQueue.increaseMinAllowedKey(h.pq, now + 1, h.expire)
}

const invariant = (h: Hierarchical): void => {
  const fail = (what: string): never => broken('Scheme 7', what)
  PriorityQueue.invariant(h.pq)
  if (PriorityQueue.minAllowedKey(h.pq) !== h.now + 1) fail(`minAllowedKey is not now ${h.now} + 1`)
  let outstanding = 0
  for (let id = 0; id < h.capacity; id++) {
    const handle = h.handles[id]!
    if (handle === noHandle) continue
    outstanding++
    if (!PriorityQueue.mem(h.pq, handle as Handle)) fail(`timer ${id}'s handle is not in the queue`)
    if (Elt.value(h.pq, handle as Handle) !== id) fail(`timer ${id}'s handle holds another id`)
  }
  if (outstanding !== PriorityQueue.length(h.pq)) fail(`${outstanding} handles but ${PriorityQueue.length(h.pq)} in the queue`)
}

export const hierarchical: Scheme = {
  key: 's7',
  number: 7,
  name: 'Scheme 7: hierarchical (this package)',
  create: (config: Config, onExpiry: OnExpiry): TimerModule => {
    checkRange(config.levelBits, config.maxInterval)
    const h = new Hierarchical(config.capacity, config.levelBits, onExpiry)
    return {
      startTimer: (interval, id) => startTimer(h, interval, id),
      stopTimer: (id) => stopTimer(h, id),
      perTickBookkeeping: () => perTickBookkeeping(h),
      size: () => PriorityQueue.length(h.pq),
      invariant: () => invariant(h),
    }
  },
}
