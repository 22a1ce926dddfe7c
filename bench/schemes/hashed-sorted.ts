/**
 * Scheme 5, hash table with sorted lists in each bucket (section 6.1.1): Scheme 4's wheel
 * with fewer lists than ticks, each list kept in order like Scheme 2's.
 *
 * Representation. `M = tableSize` lists (`links.ts`), a power of two; `cursor = now mod M`;
 * `expiry[id]`, the absolute tick at which timer `id` expires. A timer goes on list
 * `expiry mod M`: the low-order bits of its expiry pick the bucket, as in Figure 9.
 * Invariants, between calls:
 *
 * - every timer on list `b` has `expiry mod M === b` and `expiry > now`;
 * - along each list `expiry` never decreases.
 *
 * The paper stores the high-order bits and decrements the head's; comparing the head's
 * absolute expiry with `now` is the same test (section 3.1 allows either, "COMPARE"
 * instead of "DECREMENT"). With the list sorted, only the head can be due, so a tick is
 * O(1) beyond the expiries. START_TIMER pays instead: it walks its bucket, O(1) on
 * average while `n < M` and the hash spreads timers evenly, O(n/M) once `n > M`.
 */
import { Links, checkList, countLinked, first, headOf, insertInExpiryOrder, isLinked, unlink } from './links.js'
import { type Config, type OnExpiry, type Scheme, type TimerModule, broken, defaultTableSize, tableBits } from './scheme.js'

class HashedSorted {
  readonly links: Links
  readonly expiry: Float64Array
  readonly mask: number
  cursor = 0
  now = 0
  count = 0

  constructor(capacity: number, readonly tableSize: number, readonly onExpiry: OnExpiry) {
    tableBits('Scheme 5', tableSize)
    this.links = new Links(capacity, tableSize)
    this.expiry = new Float64Array(capacity)
    this.mask = tableSize - 1
  }
}

/** Hashes by `cursor + interval`, not `expiry`, so the mask works on a small integer. */
const startTimer = (s: HashedSorted, interval: number, id: number): void => {
  insertInExpiryOrder(s.links, headOf(s.links, (s.cursor + interval) & s.mask), s.expiry, s.now + interval, id)
  s.count++
}

const stopTimer = (s: HashedSorted, id: number): void => {
  if (!isLinked(s.links, id)) return
  unlink(s.links, id)
  s.count--
}

const perTickBookkeeping = (s: HashedSorted): void => {
  const now = ++s.now
  const cursor = (s.cursor = (s.cursor + 1) & s.mask)
  const head = headOf(s.links, cursor)
  for (let row = first(s.links, head); row !== head && s.expiry[row] === now; row = first(s.links, head)) {
    unlink(s.links, row)
    s.count--
    s.onExpiry(row)
  }
}

const invariant = (s: HashedSorted): void => {
  const fail = (what: string): never => broken('Scheme 5', what)
  if (s.cursor !== s.now % s.tableSize) fail(`cursor ${s.cursor} is not now ${s.now} mod ${s.tableSize}`)
  let onLists = 0
  for (let bucket = 0; bucket < s.tableSize; bucket++) {
    let previous = -Infinity
    onLists += checkList(s.links, headOf(s.links, bucket), fail, (row) => {
      const at = s.expiry[row]!
      if (at % s.tableSize !== bucket) fail(`timer ${row} expiring at ${at} is in bucket ${bucket}`)
      if (at <= s.now) fail(`timer ${row} expires at ${at}, not after now ${s.now}`)
      if (at < previous) fail(`bucket ${bucket} is out of order at timer ${row}`)
      previous = at
    })
  }
  if (onLists !== s.count || countLinked(s.links) !== s.count) fail(`count ${s.count} but ${onLists} on the lists`)
}

export const hashedSorted: Scheme = {
  key: 's5',
  number: 5,
  name: 'Scheme 5: hashed wheel, sorted buckets',
  create: (config: Config, onExpiry: OnExpiry): TimerModule => {
    const s = new HashedSorted(config.capacity, config.tableSize ?? defaultTableSize, onExpiry)
    return {
      startTimer: (interval, id) => startTimer(s, interval, id),
      stopTimer: (id) => stopTimer(s, id),
      perTickBookkeeping: () => perTickBookkeeping(s),
      size: () => s.count,
      invariant: () => invariant(s),
    }
  },
}
