/**
 * The pending timers of a virtual clock, in fake-timers' firing order, at constant cost
 * per timer to add, remove and fire.
 *
 * Representation.
 *
 * - Two priority queues keyed by due time (whole elapsed ms, so a key is the due time
 *   itself) hold the timers as their elements: `immediates` the `setImmediate` timers,
 *   `others` the rest. A queue hands back equal keys in the order they were added, and a
 *   timer's `order` is handed out when it is armed, just before it is added, so within a
 *   millisecond each queue is already in fake-timers' order; at equal due times the
 *   immediates go first. Nothing is ever sorted, and a timer costs one queue element.
 * - `late` holds the timers due before the queues' minimum allowed key (the wheel's
 *   `now`), where they cannot go, sorted by `firesBefore`: the rest of the millisecond
 *   `first` took out (below), and the timers of odd programs (a negative `setInterval`
 *   period re-arms in the past, and `next()` then takes the clock back to that timer,
 *   where new timers can fall before the wheel's `now` too). A sorted array suits so few.
 *
 * Invariants (`invariant` checks them):
 *
 * - the minimum allowed key of `others` is the wheel's `now`; that of `immediates` is the
 *   same unless `immediates` is empty, when it may lag (it catches up before an add: an
 *   empty queue's bounds are all there is to move, and most programs have no immediates);
 * - a timer in a queue has `place === 'wheel'`, `elt` its handle there, and is in the
 *   queue of its kind under its due time; equal due times are in increasing `order`;
 * - every late timer is due strictly before every timer in the queues, so the first timer
 *   is the first late one if there is one, else the first of the least due time;
 * - `count` is the number of timers, `wheelCount` the number in the queues;
 * - `lowDue` is at most the least due time in the queues (Infinity bounds an empty
 *   wheel).
 *
 * `lowDue` makes an idle move constant time: a search whose range ends below it answers
 * nothing without looking at the queues, whose least key costs a search of the wheel's
 * levels. An add lowers it to the new due time if that is less; a removal leaves it a
 * bound, and the next search that reaches it finds the least due time and makes it exact
 * again. So each search of the levels either finds a timer in range or follows the
 * removal of the least one.
 *
 * `first` (the clock's `next`) and `firstInRange` (its `tick`) take all the timers of
 * the least due time out of the queues at once, as the wheel fires a millisecond's
 * alarms, moving the wheel's `now` one past it: they become late, fired from the front of
 * `late` one at a time. So a millisecond costs one advance, not a search and a removal a
 * timer. Otherwise the wheel's `now` moves only to the due time of timers about to be
 * moved (`jump`) or below a bound the caller is about to pass. Either way it passes the clock's elapsed time at rest by at
 * most one, and only a timer due now (a zero delay at rest) added then is late.
 *
 * A schedule other than FIFO on time (`hooks.ts`, the exploring schedule) reads the first
 * timer without taking it (`peek`), makes a batch's timers late at once (`lateUpTo`), and
 * puts them back in front in its own order (`replaceFront`). A search may make timers late
 * up to its longest stall ahead of the clock: the wheel's `now` then passes the clock's time
 * by more than one, and timers armed before it go among the late ones, in order.
 *
 * Watches serve `runToLast`, which must run to the latest due time without a search for
 * it (the wheel finds minimums, not maximums). A watch counts the timers that were in the
 * queues when it started and have not left since (fired, cleared, moved), and remembers
 * the latest due time among those that left. When the count reaches 0, that time is the
 * latest due time there was when the watch started. A timer taken in again gets a fresh
 * `armSeq`, so it is not counted twice.
 */
import * as PriorityQueue from '../priority-queue/priority-queue.js'
import { advanceTo as advanceQueueTo, minKeyOr, minValue } from '../priority-queue/internal.js'
import { type Timer, firesBefore } from './timer.js'

type Queue = PriorityQueue.PriorityQueue<Timer>

/** See the module comment. */
export interface Watch {
  /** Timers whose `armSeq` is below this were there when the watch started. */
  readonly since: number
  /** How many of those are still in the queues, unmoved. */
  left: number
  /** The latest due time among those that left; -Infinity if none has. */
  latestDue: number
}

/** The pending timers of one clock. */
export interface Schedule {
  immediates: Queue
  others: Queue
  late: Timer[]
  count: number
  wheelCount: number
  /** A lower bound on the least due time in the queues; see the module comment. */
  lowDue: number
  armCounter: number
  readonly watches: Watch[]
  /** The handlers `first` advances the queues with: each moves a timer it is handed to `late`. */
  readonly strandImmediate: (elt: PriorityQueue.Elt<Timer>) => void
  readonly strandOther: (elt: PriorityQueue.Elt<Timer>) => void
}

const newQueue = (): Queue => PriorityQueue.create<Timer>()

/**
 * An empty schedule.
 *
 * @example
 * const s = Schedule.create()
 */
export const create = (): Schedule => {
  const s: Schedule = {
    immediates: newQueue(),
    others: newQueue(),
    late: [],
    count: 0,
    wheelCount: 0,
    lowDue: Infinity,
    armCounter: 0,
    watches: [],
    strandImmediate: (elt) => strandFired(s, PriorityQueue.eltValue(s.immediates, elt)),
    strandOther: (elt) => strandFired(s, PriorityQueue.eltValue(s.others, elt)),
  }
  return s
}

// The queues.

const queueOf = (s: Schedule, t: Timer): Queue => (t.kind === 'Immediate' ? s.immediates : s.others)

/** The wheel's `now`: no timer in the queues is due before it. */
const wheelNow = (s: Schedule): number => PriorityQueue.minAllowedKey(s.others)

const timersAreNeverDue = (): never => {
  throw new Error('VirtualClock internal error: a queue fired a timer; they are only ever advanced to their least one')
}

/**
 * Moves the wheel's `now` to `due`, which no timer is before; that brings the timers due
 * then to the front of their queues.
 */
const advanceTo = (s: Schedule, due: number): void => {
  advanceQueueTo(s.others, due, timersAreNeverDue)
  if (!PriorityQueue.isEmpty(s.immediates)) advanceQueueTo(s.immediates, due, timersAreNeverDue)
}

/** The least due time in the queues, or Infinity; `lowDue` becomes it. */
const leastDue = (s: Schedule): number =>
  (s.lowDue = Math.min(minKeyOr(s.immediates, Infinity), minKeyOr(s.others, Infinity)))

/** The first timer due at `due`, the least due time in the queues, once `now` is there. */
const firstAt = (s: Schedule, due: number): Timer => {
  return minValue(minKeyOr(s.immediates, Infinity) === due ? s.immediates : s.others)
}

const enterWheel = (s: Schedule, t: Timer): void => {
  const q = queueOf(s, t)
  if (q === s.immediates) advanceQueueTo(q, wheelNow(s), timersAreNeverDue)
  t.elt = PriorityQueue.add(q, t.due, t)
  t.place = 'wheel'
  s.wheelCount++
  if (t.due < s.lowDue) s.lowDue = t.due
}

const leaveWheel = (s: Schedule, t: Timer): void => {
  PriorityQueue.remove(queueOf(s, t), t.elt as PriorityQueue.Elt<Timer>)
  t.place = undefined
  s.wheelCount--
  if (s.watches.length !== 0) countLeaving(s, t)
}

/** A timer leaving the wheel, for the watches; only while a `runToLast` runs. */
const countLeaving = (s: Schedule, t: Timer): void => {
  for (const w of s.watches) {
    if (t.armSeq < w.since) {
      w.left--
      if (t.due > w.latestDue) w.latestDue = t.due
    }
  }
}

/** The timers due at `due`, the least due time, in firing order, taken out of the queues. */
const takeDue = (s: Schedule, due: number): Timer[] => {
  advanceTo(s, due)
  const taken: Timer[] = []
  for (let t = firstAt(s, due); ; t = firstAt(s, due)) {
    leaveWheel(s, t)
    taken.push(t)
    if (leastDue(s) !== due) return taken
  }
}

// Late timers.

/** The least index whose timer does not fire before `t` (where `t` goes, or is). */
const lateIndexOf = (late: readonly Timer[], t: Timer): number => {
  let low = 0
  let high = late.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (firesBefore(late[mid]!, t)) low = mid + 1
    else high = mid
  }
  return low
}

/** The least index whose timer is due at or after `time`. */
const lateIndexAtOrAfter = (late: readonly Timer[], time: number): number => {
  let low = 0
  let high = late.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (late[mid]!.due < time) low = mid + 1
    else high = mid
  }
  return low
}

const insertLate = (s: Schedule, t: Timer): void => {
  const i = lateIndexOf(s.late, t)
  // At the end (a simulation's re-armed arrival, mostly), a push: a splice costs a call.
  if (i === s.late.length) s.late.push(t)
  else s.late.splice(i, 0, t)
  t.place = 'late'
}

const removeLate = (s: Schedule, t: Timer): void => {
  // The first, mostly: `first` makes late timers of each millisecond's, fired in order.
  if (s.late[0] === t) s.late.shift()
  else s.late.splice(lateIndexOf(s.late, t), 1)
  t.place = undefined
}

/** A timer the queue has just given up, which goes to the end of `late`. */
const strandFired = (s: Schedule, t: Timer): void => {
  s.wheelCount--
  // Counted as it leaves the queues, before its fresh `armSeq` makes it new to the watches.
  if (s.watches.length !== 0) countLeaving(s, t)
  t.armSeq = s.armCounter++
  t.place = 'late'
  s.late.push(t)
}

/** Moves the timers of `due`, wholly below the caller's range, to the end of `late`, in order. */
const strand = (s: Schedule, due: number): void => {
  for (const t of takeDue(s, due)) {
    t.armSeq = s.armCounter++
    s.late.push(t)
    t.place = 'late'
  }
}

// Operations.

/** The number of pending timers. Constant time. */
export const count = (s: Schedule): number => s.count

/** The number of pending timers in the wheel (all but the late ones). Constant time. */
export const wheelCount = (s: Schedule): number => s.wheelCount

/**
 * Whether a timer may be due at `due`: the wheel reaches 2^52 - 1 ms past the clock's
 * start. Constant time.
 *
 * @example
 * if (!Schedule.fits(s, due)) throw new RangeError(`${due} is too late`)
 */
export const fits = (s: Schedule, due: number): boolean => due <= PriorityQueue.maxAllowedKey(s.others)

/**
 * Takes in a timer whose `due` and `order` are set, placing it after every pending timer
 * it does not fire before. Constant time unless it is late (then linear in the late
 * timers). Requires `fits(s, t.due)`.
 *
 * @example
 * Schedule.add(s, timer)
 */
export const add = (s: Schedule, t: Timer): void => {
  t.armSeq = s.armCounter++
  const late = s.late
  if (late.length === 0 && t.kind !== 'Immediate' && t.due >= wheelNow(s)) {
    // The common case, a timeout or interval due from now on, in one step.
    t.elt = PriorityQueue.add(s.others, t.due, t)
    t.place = 'wheel'
    s.wheelCount++
    if (t.due < s.lowDue) s.lowDue = t.due
  } else if (t.due < wheelNow(s) || (late.length !== 0 && t.due <= late[late.length - 1]!.due)) {
    insertLate(s, t)
  } else {
    enterWheel(s, t)
  }
  s.count++
}

/**
 * Takes in a timer due at or before the wheel's `now` whose `order` was handed out
 * earlier than that of timers already pending at its due time (a simulation's arrival,
 * whose order is taken when the message is sent, delivered by a timer re-armed once the
 * arrival before it is delivered): the timers of that due time become late, and it goes
 * among them in order. Linear in the late timers.
 *
 * @example
 * Schedule.addAmongDue(s, timer) // timer.order older than some pending at timer.due
 */
export const addAmongDue = (s: Schedule, t: Timer): void => {
  if (t.due === wheelNow(s) && leastDue(s) === t.due) strand(s, t.due)
  add(s, t)
}

/**
 * Gives `t`, the first late timer, a later `order` in place, when it still fires first with
 * it and no `runToLast` watches: true then; otherwise false, and nothing changed. What
 * taking it out and adding it again with that order would do, for a timer that stands for
 * several of its millisecond (a simulation's arrivals), without the moves. Constant time.
 *
 * @example
 * if (!Schedule.reorderFirst(s, timer, order)) { Schedule.remove(s, timer); timer.order = order; Schedule.addAmongDue(s, timer) }
 */
export const reorderFirst = (s: Schedule, t: Timer, order: number): boolean => {
  const late = s.late
  if (late[0] !== t || s.watches.length !== 0 || leastDue(s) <= t.due) return false
  const next = late[1]
  // Sorted, the next late timer is not due before `t`; at the same ms it must still come after.
  if (next !== undefined && next.due === t.due && (next.kind === 'Immediate' || next.order < order)) return false
  t.order = order
  t.armSeq = s.armCounter++
  return true
}

/**
 * Takes out a pending timer; a no-op for one that is not. Constant time unless it is late.
 *
 * @example
 * Schedule.remove(s, timer)
 */
export const remove = (s: Schedule, t: Timer): void => {
  const place = t.place
  if (place === undefined) return
  if (place === 'late') removeLate(s, t)
  else leaveWheel(s, t)
  s.count--
}

/**
 * The timer that fires first, if any. The caller is about to fire it: the wheel's `now`
 * moves to its due time. Amortized constant time.
 *
 * @example
 * const t = Schedule.first(s) // then fire t
 */
export const first = (s: Schedule): Timer | undefined => {
  const late = s.late
  if (late.length === 0) {
    const due = PriorityQueue.isEmpty(s.immediates) ? minKeyOr(s.others, Infinity) : leastDue(s)
    if (due === Infinity) return undefined
    takeOut(s, due)
  }
  return late[0]
}

/**
 * Every timer due at `due`, the least due time in the queues, leaves them at once, in
 * firing order (immediates first), as the wheel fires a millisecond's alarms: one advance
 * of the wheel past `due` for the lot, no search and no removal a timer. They are late
 * from here on, at the end of `late`, and taken from its front as they fire.
 */
const takeOut = (s: Schedule, due: number): void => {
  if (!PriorityQueue.isEmpty(s.immediates)) advanceQueueTo(s.immediates, due + 1, s.strandImmediate)
  advanceQueueTo(s.others, due + 1, s.strandOther)
}

/**
 * The first timer due in `[low, high]`, as fake-timers' `firstTimerInRange` finds it.
 * Timers due below `low` (only clock moves from inside callbacks leave any) become late,
 * as they can never be in range again. If the answer is in the wheel, every timer due
 * with it leaves the wheel as with `first`, whose `now` moves one past their due time,
 * which the caller's clock reaches (it fires the timer). Amortized constant time when
 * nothing is late.
 *
 * @example
 * const t = Schedule.firstInRange(s, tickFrom, tickTo)
 */
export const firstInRange = (s: Schedule, low: number, high: number): Timer | undefined => {
  if (s.late.length > 0) {
    const t = s.late[lateIndexAtOrAfter(s.late, low)]
    if (t !== undefined) return t.due <= high ? t : undefined
  }
  if (s.lowDue > high) return undefined
  for (;;) {
    const due = leastDue(s)
    if (due > high) return undefined
    if (due >= low) {
      // As `first` does: the late timers are all due before `low`, so those of `due` go
      // after them, and the first of those is the answer.
      const at = s.late.length
      takeOut(s, due)
      return s.late[at]
    }
    strand(s, due)
  }
}

/**
 * The timer that fires first, if any, taking nothing out: the caller only looks. Amortized
 * constant time.
 *
 * @example
 * const head = Schedule.peek(s) // head?.due: when the next timer is due
 */
export const peek = (s: Schedule): Timer | undefined => {
  if (s.late.length > 0) return s.late[0]
  const due = leastDue(s)
  return due === Infinity ? undefined : firstAt(s, due)
}

/**
 * Makes every timer due at or before `by` late, as `first` does a millisecond at a time,
 * and returns how many late timers are due by then: they are `late[0]` up to that count,
 * in firing order. For a schedule other than FIFO on time (`hooks.ts`), which must see
 * every timer of a batch before it orders them. Amortized constant time a timer.
 *
 * @example
 * const n = Schedule.lateUpTo(s, elapsed + stall) // the batch: s.late.slice(0, n)
 */
export const lateUpTo = (s: Schedule, by: number): number => {
  if (s.lowDue <= by) for (let due = leastDue(s); due <= by; due = leastDue(s)) takeOut(s, due)
  return lateIndexAtOrAfter(s.late, by + 1)
}

/**
 * Where the late timer `t` is among the late timers, in firing order. Logarithmic time.
 *
 * @example
 * Schedule.lateIndex(s, s.late[2]!) // 2
 */
export const lateIndex = (s: Schedule, t: Timer): number => lateIndexOf(s.late, t)

/**
 * Puts `front` in place of the first `count` late timers, which it must hold (some of
 * them may be left out, to be added again later): each with its `due` and `order` set
 * anew, in firing order, all firing before every other pending timer. Linear in the late
 * timers, for a whole batch, where a removal and an add a timer would be linear each.
 *
 * @example
 * Schedule.replaceFront(s, n, reordered) // the batch `lateUpTo` gave, in its new order
 */
export const replaceFront = (s: Schedule, count: number, front: readonly Timer[]): void => {
  const late = s.late
  for (let i = 0; i < count; i++) late[i]!.place = undefined
  for (const t of front) {
    t.armSeq = s.armCounter++
    t.place = 'late'
  }
  s.count += front.length - count
  if (front.length === count) for (let i = 0; i < count; i++) late[i] = front[i]!
  else s.late = front.concat(late.slice(count))
}

/**
 * Whether no timer is due up to `high`, by the late timers and the bound alone: false may
 * be wrong (a stale bound; `firstInRange` then makes it exact), true never is. Constant
 * time.
 *
 * @example
 * if (Schedule.idleUpTo(s, elapsed + 1)) elapsed += 1 // nothing to fire on the way
 */
export const idleUpTo = (s: Schedule, high: number): boolean => s.late.length === 0 && s.lowDue > high

/**
 * Every pending timer, late ones first, then those in the queues in no particular order.
 * Linear time.
 *
 * @example
 * for (const t of Schedule.timers(s)) console.log(t.id)
 */
export const timers = (s: Schedule): Timer[] => {
  const all = [...s.late]
  for (const q of [s.immediates, s.others]) PriorityQueue.iter(q, (elt) => all.push(PriorityQueue.eltValue(q, elt)))
  return all
}

/** The least due time in the wheel, if any; for invariants. Amortized constant time. */
export const leastWheelDue = (s: Schedule): number | undefined => {
  const due = leastDue(s)
  return due === Infinity ? undefined : due
}

/** The due time of the last late timer, the latest of all when the wheel is empty. Constant time. */
export const lastLateDue = (s: Schedule): number | undefined => s.late[s.late.length - 1]?.due

/**
 * `jump`'s first half: every timer due at or before `target` becomes due at `target`,
 * keeping its order among the others (immediates first, then arming order). `elapsed` is
 * the clock's time: a negative jump raises late timers to a target still before it, and
 * they stay late. Time: proportional to those timers times the log of their number, as
 * they must be merged.
 *
 * @example
 * Schedule.raiseDueTimes(s, elapsed + ms, elapsed) // then tick ms
 */
export const raiseDueTimes = (s: Schedule, target: number, elapsed: number): void => {
  const moved = s.late.splice(0, lateIndexAtOrAfter(s.late, target + 1))
  for (const t of moved) t.place = undefined
  s.count -= moved.length
  for (let due = leastDue(s); due <= target; due = leastDue(s)) {
    const taken = takeDue(s, due)
    s.count -= taken.length
    moved.push(...taken)
  }
  const rank = (t: Timer): number => (t.kind === 'Immediate' ? 0 : 1)
  moved.sort((a, b) => rank(a) - rank(b) || a.order - b.order)
  for (const t of moved) {
    t.due = target
    if (target < elapsed) {
      t.armSeq = s.armCounter++
      insertLate(s, t)
      s.count++
    } else {
      add(s, t)
    }
  }
}

/**
 * Drops every timer and starts a new wheel from elapsed time 0. For a watch, every timer
 * leaves; finding the latest due time among those it counts costs a pass over the timers
 * (only a `reset` from inside a `runToLast` pays it). Otherwise constant time.
 *
 * @example
 * Schedule.clear(s)
 */
export const clear = (s: Schedule): void => {
  if (s.watches.length > 0) for (let due = leastDue(s); due !== Infinity; due = leastDue(s)) takeDue(s, due)
  s.immediates = newQueue()
  s.others = newQueue()
  s.late = []
  s.count = 0
  s.wheelCount = 0
  s.lowDue = Infinity
}

/**
 * Starts a watch over the timers now in the wheel; see the module comment. Constant time;
 * while watches run, each timer leaving the wheel costs one step per watch.
 *
 * @example
 * const w = Schedule.watchWheel(s) // ... when w.left === 0, w.latestDue is the latest
 */
export const watchWheel = (s: Schedule): Watch => {
  const w: Watch = { since: s.armCounter, left: s.wheelCount, latestDue: -Infinity }
  s.watches.push(w)
  return w
}

/**
 * Ends a watch early with its latest due time known: the latest among the timers it
 * started with, those that left and those still in the queues. Linear in the timers in
 * the queues; for the rare `runToLast` whose end moves back before its watch ends.
 */
export const closeWatch = (s: Schedule, w: Watch): void => {
  for (const q of [s.immediates, s.others]) {
    for (const elt of PriorityQueue.toArray(q)) {
      const t = PriorityQueue.eltValue(q, elt)
      if (t.armSeq < w.since && t.due > w.latestDue) w.latestDue = t.due
    }
  }
  w.left = 0
}

/** Ends a watch. Linear in the number of watches (one per running `runToLast`). */
export const unwatch = (s: Schedule, w: Watch): void => {
  const i = s.watches.indexOf(w)
  if (i >= 0) s.watches.splice(i, 1)
}

// Invariant.

const check = (ok: boolean, what: string): void => {
  if (!ok) throw new Error(`Schedule invariant broken: ${what}`)
}

/**
 * Checks the invariants above and the wheel's own; throws an `Error` naming the first
 * broken one. Linear time; for tests.
 *
 * @example
 * Schedule.invariant(s)
 */
export const invariant = (s: Schedule): void => {
  const now = wheelNow(s)
  const immediatesAt = PriorityQueue.minAllowedKey(s.immediates)
  const inStep = immediatesAt === now || (immediatesAt < now && PriorityQueue.isEmpty(s.immediates))
  check(inStep, `immediates at ${immediatesAt}, the wheel at ${now}`)
  let inQueues = 0
  for (const [q, immediate] of [[s.immediates, true], [s.others, false]] as const) {
    // Most programs have no immediates: the empty queue's invariant would cost a pass over its slots.
    if (!PriorityQueue.isEmpty(q)) PriorityQueue.invariant(q)
    // `toArray` lists equal keys in the queue's order for them, which must be `order`.
    const lastOrderAt = new Map<number, number>()
    for (const elt of PriorityQueue.toArray(q)) {
      const t = PriorityQueue.eltValue(q, elt)
      check(t.place === 'wheel' && t.elt === elt, `timer ${t.id} is not in the wheel under its handle`)
      check(PriorityQueue.eltKey(q, elt) === t.due && t.due >= now, `timer ${t.id} filed under another time`)
      check((t.kind === 'Immediate') === immediate, `timer ${t.id} in the wrong queue`)
      check((lastOrderAt.get(t.due) ?? -Infinity) < t.order, `due time ${t.due} out of order at timer ${t.id}`)
      lastOrderAt.set(t.due, t.order)
      inQueues++
    }
  }
  check(inQueues === s.wheelCount, `wheelCount ${s.wheelCount} but ${inQueues} timers in the queues`)
  check(s.count === s.wheelCount + s.late.length, `count ${s.count}`)
  // Read without `leastDue`, which would make the bound exact.
  const least = Math.min(minKeyOr(s.immediates, Infinity), minKeyOr(s.others, Infinity))
  check(s.lowDue <= least, `lowDue ${s.lowDue} above the least due time ${least}`)
  s.late.forEach((t, i) => {
    check(t.place === 'late', `late timer ${t.id} placed elsewhere`)
    const prev = s.late[i - 1]
    check(prev === undefined || firesBefore(prev, t), `late timers out of order at ${t.id}`)
    check(t.due < least, `late timer ${t.id} due ${t.due} not before the wheel's ${least}`)
  })
}
