/**
 * Scheme 2, "ordered list / timer queues" (section 3.2): the timers sorted by absolute
 * expiry time, so that PER_TICK_BOOKKEEPING looks only at the head, at the price of a
 * START_TIMER that searches the list.
 *
 * Representation. One doubly linked list (`links.ts`) of the outstanding timers and
 * `expiry[id]`, the absolute tick at which timer `id` expires. Invariants, between calls:
 *
 * - along the list, `expiry` never decreases, and timers with equal expiry are in the
 *   order they were started;
 * - every `expiry` is greater than `now`.
 *
 * START_TIMER searches from the head, as the paper's analysis assumes (its average cost,
 * about `n/2` steps for uniform intervals, is what makes the scheme O(n)). STOP_TIMER
 * unlinks in O(1) because the list is doubly linked and the id locates the element.
 */
import { Links, checkList, countLinked, first, headOf, insertInExpiryOrder, isLinked, unlink } from './links.js'
import { type Config, type OnExpiry, type Scheme, type TimerModule, broken } from './scheme.js'

class OrderedList {
  readonly links: Links
  readonly head: number
  readonly expiry: Float64Array
  now = 0
  count = 0

  constructor(capacity: number, readonly onExpiry: OnExpiry) {
    this.links = new Links(capacity, 1)
    this.head = headOf(this.links, 0)
    this.expiry = new Float64Array(capacity)
  }
}

/** Inserts after every timer that expires no later, keeping equal expiries in start order. */
const startTimer = (s: OrderedList, interval: number, id: number): void => {
  insertInExpiryOrder(s.links, s.head, s.expiry, s.now + interval, id)
  s.count++
}

const stopTimer = (s: OrderedList, id: number): void => {
  if (!isLinked(s.links, id)) return
  unlink(s.links, id)
  s.count--
}

/** Every expiry exceeded the old `now`, so the due timers are exactly those equal to the new one. */
const perTickBookkeeping = (s: OrderedList): void => {
  const now = ++s.now
  for (let row = first(s.links, s.head); row !== s.head && s.expiry[row] === now; row = first(s.links, s.head)) {
    unlink(s.links, row)
    s.count--
    s.onExpiry(row)
  }
}

const invariant = (s: OrderedList): void => {
  const fail = (what: string): never => broken('Scheme 2', what)
  let previous = -Infinity
  const length = checkList(s.links, s.head, fail, (row) => {
    const at = s.expiry[row]!
    if (at < previous) fail(`timer ${row} expires at ${at}, before its predecessor at ${previous}`)
    if (at <= s.now) fail(`timer ${row} expires at ${at}, not after now ${s.now}`)
    previous = at
  })
  if (length !== s.count || countLinked(s.links) !== s.count) fail(`count ${s.count} but ${length} on the list`)
}

export const orderedList: Scheme = {
  key: 's2',
  number: 2,
  name: 'Scheme 2: ordered list',
  create: (config: Config, onExpiry: OnExpiry): TimerModule => {
    const s = new OrderedList(config.capacity, onExpiry)
    return {
      startTimer: (interval, id) => startTimer(s, interval, id),
      stopTimer: (id) => stopTimer(s, id),
      perTickBookkeeping: () => perTickBookkeeping(s),
      size: () => s.count,
      invariant: () => invariant(s),
    }
  },
}
