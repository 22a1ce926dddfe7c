/**
 * Scheme 4, the basic timing wheel for intervals within a range (section 5): a circular
 * array of MaxInterval lists, one per tick of the coming MaxInterval ticks.
 *
 * Representation. `maxInterval` lists (`links.ts`) and `cursor`, the list of the current
 * tick. A timer started with interval `j` goes on list `(cursor + j) mod maxInterval` and
 * is never moved. Invariants, between calls:
 *
 * - the timers on list `(cursor + j) mod maxInterval` expire exactly `j` ticks from now,
 *   for `1 <= j < maxInterval`: no list holds two different expiry times, because no
 *   interval reaches around the wheel;
 * - so the cursor's own list is empty: whatever was on it fired when the cursor arrived.
 *
 * Each tick moves the cursor one list and fires that whole list: O(1) per tick beyond the
 * expiries themselves, which no scheme can avoid. The price is memory: one list head per
 * tick of the longest interval.
 */
import { Links, checkList, countLinked, first, headOf, insertBefore, isEmpty, isLinked, unlink } from './links.js'
import { type Config, type OnExpiry, type Scheme, type TimerModule, broken } from './scheme.js'

class BasicWheel {
  readonly links: Links
  cursor = 0
  count = 0

  constructor(capacity: number, readonly maxInterval: number, readonly onExpiry: OnExpiry) {
    this.links = new Links(capacity, maxInterval)
  }
}

const intervalOutOfRange = (w: BasicWheel, interval: number): never => {
  throw new RangeError(`Scheme 4: interval ${interval} is not an integer in [1, maxInterval ${w.maxInterval})`)
}

const startTimer = (w: BasicWheel, interval: number, id: number): void => {
  if (!(interval >= 1 && interval < w.maxInterval)) intervalOutOfRange(w, interval)
  let slot = w.cursor + interval
  if (slot >= w.maxInterval) slot -= w.maxInterval
  insertBefore(w.links, headOf(w.links, slot), id)
  w.count++
}

const stopTimer = (w: BasicWheel, id: number): void => {
  if (!isLinked(w.links, id)) return
  unlink(w.links, id)
  w.count--
}

const perTickBookkeeping = (w: BasicWheel): void => {
  const cursor = w.cursor + 1 === w.maxInterval ? 0 : w.cursor + 1
  w.cursor = cursor
  const head = headOf(w.links, cursor)
  while (!isEmpty(w.links, head)) {
    const row = first(w.links, head)
    unlink(w.links, row)
    w.count--
    w.onExpiry(row)
  }
}

const invariant = (w: BasicWheel): void => {
  const fail = (what: string): never => broken('Scheme 4', what)
  if (!isEmpty(w.links, headOf(w.links, w.cursor))) fail(`the current list ${w.cursor} holds timers`)
  let onLists = 0
  for (let slot = 0; slot < w.maxInterval; slot++) onLists += checkList(w.links, headOf(w.links, slot), fail)
  if (onLists !== w.count || countLinked(w.links) !== w.count) fail(`count ${w.count} but ${onLists} on the lists`)
}

export const basicWheel: Scheme = {
  key: 's4',
  number: 4,
  name: 'Scheme 4: basic wheel',
  create: (config: Config, onExpiry: OnExpiry): TimerModule => {
    const w = new BasicWheel(config.capacity, config.maxInterval, onExpiry)
    return {
      startTimer: (interval, id) => startTimer(w, interval, id),
      stopTimer: (id) => stopTimer(w, id),
      perTickBookkeeping: () => perTickBookkeeping(w),
      size: () => w.count,
      invariant: () => invariant(w),
    }
  },
}
