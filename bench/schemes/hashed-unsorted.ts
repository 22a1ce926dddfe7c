/**
 * Scheme 6, hash table with unsorted lists in each bucket (section 6.1.2): Scheme 5's
 * buckets without the order, so START_TIMER is O(1) and each tick pays instead.
 *
 * Representation. `M = tableSize` lists (`links.ts`), a power of two; `cursor = now mod M`;
 * `rounds[id]`, how many more times the cursor will reach timer `id`'s bucket before the
 * visit at which it expires: the paper's "high-order bits", counted down. A timer with
 * interval `j` goes on bucket `(cursor + j) mod M` with `rounds = floor((j - 1) / M)`: the
 * cursor reaches that bucket every M ticks, first after `((j - 1) mod M) + 1` ticks.
 * Invariants, between calls:
 *
 * - a timer on bucket `b` with `rounds = r` expires at the `(r + 1)`-th tick from now at
 *   which the cursor is `b`;
 * - `rounds >= 0`.
 *
 * Each tick visits every timer in the cursor's bucket and decrements it or fires it. Over
 * M ticks that visits every outstanding timer once: n/M visits per tick on average,
 * however the hash spreads them (the spread only makes the cost bursty).
 */
import { Links, checkList, countLinked, headOf, insertBefore, isLinked, unlink } from './links.js'
import { type Config, type OnExpiry, type Scheme, type TimerModule, broken, defaultTableSize, tableBits } from './scheme.js'

class HashedUnsorted {
  readonly links: Links
  readonly rounds: Int32Array
  readonly bits: number
  readonly mask: number
  cursor = 0
  count = 0

  constructor(capacity: number, readonly tableSize: number, readonly onExpiry: OnExpiry) {
    this.bits = tableBits('Scheme 6', tableSize)
    this.links = new Links(capacity, tableSize)
    this.rounds = new Int32Array(capacity)
    this.mask = tableSize - 1
  }
}

const startTimer = (s: HashedUnsorted, interval: number, id: number): void => {
  s.rounds[id] = (interval - 1) >>> s.bits
  insertBefore(s.links, headOf(s.links, (s.cursor + interval) & s.mask), id)
  s.count++
}

const stopTimer = (s: HashedUnsorted, id: number): void => {
  if (!isLinked(s.links, id)) return
  unlink(s.links, id)
  s.count--
}

/** The successor is read before a timer is unlinked, which clears nothing it needs. */
const perTickBookkeeping = (s: HashedUnsorted): void => {
  const cursor = (s.cursor = (s.cursor + 1) & s.mask)
  const head = headOf(s.links, cursor)
  const next = s.links.next
  const rounds = s.rounds
  for (let row = next[head]!; row !== head; ) {
    const following = next[row]!
    const left = rounds[row]!
    if (left === 0) {
      unlink(s.links, row)
      s.count--
      s.onExpiry(row)
    } else {
      rounds[row] = left - 1
    }
    row = following
  }
}

const invariant = (s: HashedUnsorted): void => {
  const fail = (what: string): never => broken('Scheme 6', what)
  let onLists = 0
  for (let bucket = 0; bucket < s.tableSize; bucket++) {
    onLists += checkList(s.links, headOf(s.links, bucket), fail, (row) => {
      if (s.rounds[row]! < 0) fail(`timer ${row} has ${s.rounds[row]} rounds left`)
    })
  }
  if (onLists !== s.count || countLinked(s.links) !== s.count) fail(`count ${s.count} but ${onLists} on the lists`)
}

export const hashedUnsorted: Scheme = {
  key: 's6',
  number: 6,
  name: 'Scheme 6: hashed wheel, unsorted buckets',
  create: (config: Config, onExpiry: OnExpiry): TimerModule => {
    const s = new HashedUnsorted(config.capacity, config.tableSize ?? defaultTableSize, onExpiry)
    return {
      startTimer: (interval, id) => startTimer(s, interval, id),
      stopTimer: (id) => stopTimer(s, id),
      perTickBookkeeping: () => perTickBookkeeping(s),
      size: () => s.count,
      invariant: () => invariant(s),
    }
  },
}
