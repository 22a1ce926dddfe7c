/**
 * Scheme 1, "straightforward" (section 3.1): each outstanding timer holds the number of
 * ticks it has left, and PER_TICK_BOOKKEEPING decrements every one of them.
 *
 * Representation. The outstanding timers are the prefix `[0, count)` of two parallel
 * arrays: `remaining[p]`, the ticks left to the timer at position `p`, and `idAt[p]`, its
 * id. `positionOf[id]` is the timer's position, or -1 if it is not outstanding.
 * Invariants, between calls:
 *
 * - `positionOf[idAt[p]] === p` for every `p < count`, and `positionOf` is -1 elsewhere;
 * - `remaining[p] >= 1`: a timer that reached 0 has fired and left the prefix.
 *
 * The "unordered list" is a dense prefix rather than a linked list so that the per-tick
 * sweep, the O(n) part, is one sequential pass; a stopped timer leaves no hole because
 * the last timer moves into its place. START and STOP stay O(1), as in Figure 4.
 */
import { type Config, type OnExpiry, type Scheme, type TimerModule, broken } from './scheme.js'

class Straightforward {
  readonly remaining: Int32Array
  readonly idAt: Int32Array
  readonly positionOf: Int32Array
  count = 0

  constructor(readonly capacity: number, readonly onExpiry: OnExpiry) {
    this.remaining = new Int32Array(capacity)
    this.idAt = new Int32Array(capacity)
    this.positionOf = new Int32Array(capacity).fill(-1)
  }
}

const startTimer = (s: Straightforward, interval: number, id: number): void => {
  const p = s.count++
  s.remaining[p] = interval
  s.idAt[p] = id
  s.positionOf[id] = p
}

/** Fills position `p` with the last timer, so the prefix stays dense. */
const removeAt = (s: Straightforward, p: number): void => {
  const last = --s.count
  s.positionOf[s.idAt[p]!] = -1
  if (p === last) return
  const moved = s.idAt[last]!
  s.idAt[p] = moved
  s.remaining[p] = s.remaining[last]!
  s.positionOf[moved] = p
}

const stopTimer = (s: Straightforward, id: number): void => {
  const p = s.positionOf[id]!
  if (p !== -1) removeAt(s, p)
}

/**
 * Walks the prefix from the end: `removeAt` moves the last timer, which this walk has
 * already decremented, into the place it empties, so no timer is decremented twice.
 */
const perTickBookkeeping = (s: Straightforward): void => {
  const remaining = s.remaining
  for (let p = s.count - 1; p >= 0; p--) {
    const left = remaining[p]! - 1
    if (left !== 0) {
      remaining[p] = left
    } else {
      const id = s.idAt[p]!
      removeAt(s, p)
      s.onExpiry(id)
    }
  }
}

const invariant = (s: Straightforward): void => {
  const fail = (what: string): never => broken('Scheme 1', what)
  let outstanding = 0
  for (let id = 0; id < s.capacity; id++) if (s.positionOf[id] !== -1) outstanding++
  if (outstanding !== s.count) fail(`count ${s.count} but ${outstanding} ids have a position`)
  for (let p = 0; p < s.count; p++) {
    if (s.positionOf[s.idAt[p]!] !== p) fail(`position ${p} and its id ${s.idAt[p]} disagree`)
    if (s.remaining[p]! < 1) fail(`timer ${s.idAt[p]} has ${s.remaining[p]} ticks left`)
  }
}

export const straightforward: Scheme = {
  key: 's1',
  number: 1,
  name: 'Scheme 1: straightforward',
  create: (config: Config, onExpiry: OnExpiry): TimerModule => {
    const s = new Straightforward(config.capacity, onExpiry)
    return {
      startTimer: (interval, id) => startTimer(s, interval, id),
      stopTimer: (id) => stopTimer(s, id),
      perTickBookkeeping: () => perTickBookkeeping(s),
      size: () => s.count,
      invariant: () => invariant(s),
    }
  },
}
