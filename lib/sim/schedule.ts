/**
 * The pending timers of a virtual clock, in fake-timers' firing order, at constant cost
 * per timer to add, remove and fire.
 *
 * Representation.
 *
 * - `wheel` is a `TimingWheel` (precision 1 ms, from elapsed time 0) whose alarms are
 *   buckets, one per due millisecond that has timers; `buckets` finds the bucket of a due
 *   time. A bucket keeps two lists, its `setImmediate` timers and the others, each in
 *   arming order: a timer's `order` is handed out when it is armed and only grows, so
 *   appending keeps a list sorted. The wheel orders the milliseconds and the bucket orders
 *   within one; nothing is ever sorted.
 * - `late` holds the timers due before the wheel's `now`, where the wheel cannot take
 *   them, sorted by `firesBefore`. Only odd programs make any: a negative `setInterval`
 *   period re-arms in the past, and `next()` then takes the clock back to that timer,
 *   where new timers can fall before the wheel's `now` too. A sorted array suits so few.
 *
 * Invariants (`invariant` checks them):
 *
 * - every late timer is due strictly before every timer in the wheel, so the first timer
 *   is the first late one if there is one, else the first of the least bucket;
 * - every bucket is non-empty, is the value of exactly one alarm, at its due time, and
 *   `buckets` holds exactly the buckets in the wheel;
 * - `count` is the number of timers, `wheelCount` the number in buckets.
 *
 * The wheel's `now` moves only to the due time of a bucket about to fire (or below a
 * bound the caller is about to pass), never past the clock's elapsed time at rest; so
 * timers the clock adds later are not before it and go into the wheel, not `late`.
 *
 * Watches serve `runToLast`, which must run to the latest due time without a search for
 * it (the wheel finds minimums, not maximums). A watch counts the timers that were in the
 * wheel when it started and have not left since (fired, cleared, moved), and remembers the
 * latest due time among those that left. When the count reaches 0, that time is the
 * latest due time there was when the watch started. A timer taken in again gets a fresh
 * `armSeq`, so it is not counted twice.
 */
import * as TimingWheel from '../timing-wheel/timing-wheel.js'
import { type Timer, firesBefore } from './timer.js'

/** A list of timers linked through their `prev` and `next`, oldest first. */
interface TimerList {
  head: Timer | undefined
  tail: Timer | undefined
}

/**
 * The timers due in one millisecond. The bucket is itself the list of its timeouts,
 * intervals and frames; its immediates, which few programs have, get a list of their own
 * when the first arrives. A bucket per due millisecond is one object, not three.
 */
export interface Bucket extends TimerList {
  readonly due: number
  alarm: TimingWheel.Alarm<Bucket>
  immediates: TimerList | undefined
}

/** See the module comment. */
export interface Watch {
  /** Timers whose `armSeq` is below this were there when the watch started. */
  readonly since: number
  /** How many of those are still in the wheel, unmoved. */
  left: number
  /** The latest due time among those that left; -Infinity if none has. */
  latestDue: number
}

/** The pending timers of one clock. */
export interface Schedule {
  wheel: TimingWheel.TimingWheel<Bucket>
  readonly buckets: Map<number, Bucket>
  late: Timer[]
  count: number
  wheelCount: number
  armCounter: number
  readonly watches: Watch[]
}

const newWheel = (): TimingWheel.TimingWheel<Bucket> => TimingWheel.create<Bucket>({ alarmPrecision: 1 })

/**
 * An empty schedule.
 *
 * @example
 * const s = Schedule.create()
 */
export const create = (): Schedule => ({
  wheel: newWheel(),
  buckets: new Map(),
  late: [],
  count: 0,
  wheelCount: 0,
  armCounter: 0,
  watches: [],
})

// The wheel as a queue of buckets.

const bucketsAreNeverDue = (): never => {
  throw new Error('VirtualClock internal error: the wheel fired a bucket; it is only ever advanced to its least one')
}

/** Moves the wheel's `now` to `due`, which no bucket is before; this cascades that bucket to level 0. */
const advanceTo = (s: Schedule, due: number): void => {
  if (due > TimingWheel.now(s.wheel)) TimingWheel.advanceClock(s.wheel, due, bucketsAreNeverDue)
}

// The Exn twin, guarded, because the Option version allocates on a path taken per timer.
const leastBucketDue = (s: Schedule): number | undefined =>
  TimingWheel.isEmpty(s.wheel) ? undefined : TimingWheel.minAlarmIntervalNumExn(s.wheel)

const bucketAt = (s: Schedule, due: number): Bucket => s.buckets.get(due)!

const firstOf = (b: Bucket): Timer => (b.immediates?.head ?? b.head)!

const listOf = (b: Bucket, t: Timer): TimerList =>
  t.kind !== 'Immediate' ? b : (b.immediates ??= { head: undefined, tail: undefined })

const isEmptyBucket = (b: Bucket): boolean => b.head === undefined && b.immediates?.head === undefined

const append = (list: TimerList, t: Timer): void => {
  t.prev = list.tail
  t.next = undefined
  if (list.tail === undefined) list.head = t
  else list.tail.next = t
  list.tail = t
}

const unlink = (list: TimerList, t: Timer): void => {
  if (t.prev === undefined) list.head = t.next
  else t.prev.next = t.next
  if (t.next === undefined) list.tail = t.prev
  else t.next.prev = t.prev
  t.prev = undefined
  t.next = undefined
}

const addToBucket = (s: Schedule, t: Timer): void => {
  let b = s.buckets.get(t.due)
  if (b === undefined) {
    b = {
      due: t.due,
      alarm: TimingWheel.nullAlarm(),
      head: undefined,
      tail: undefined,
      immediates: undefined,
    }
    b.alarm = TimingWheel.add(s.wheel, t.due, b)
    s.buckets.set(t.due, b)
  }
  append(listOf(b, t), t)
  t.place = b
  s.wheelCount++
}

const removeFromBucket = (s: Schedule, b: Bucket, t: Timer): void => {
  unlink(listOf(b, t), t)
  t.place = undefined
  s.wheelCount--
  for (const w of s.watches) {
    if (t.armSeq < w.since) {
      w.left--
      if (t.due > w.latestDue) w.latestDue = t.due
    }
  }
  if (isEmptyBucket(b)) {
    TimingWheel.remove(s.wheel, b.alarm)
    s.buckets.delete(b.due)
  }
}

/** The timers of a bucket in firing order, taken out of it (the bucket goes too). */
const takeBucket = (s: Schedule, b: Bucket): Timer[] => {
  const taken: Timer[] = []
  for (let t = b.immediates?.head; t !== undefined; t = t.next) taken.push(t)
  for (let t = b.head; t !== undefined; t = t.next) taken.push(t)
  for (const t of taken) removeFromBucket(s, b, t)
  return taken
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
  s.late.splice(lateIndexOf(s.late, t), 0, t)
  t.place = 'late'
}

const removeLate = (s: Schedule, t: Timer): void => {
  s.late.splice(lateIndexOf(s.late, t), 1)
  t.place = undefined
}

/** Moves a bucket wholly below the caller's range to the end of `late`, in order. */
const strand = (s: Schedule, b: Bucket): void => {
  for (const t of takeBucket(s, b)) {
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
export const fits = (s: Schedule, due: number): boolean =>
  due <= TimingWheel.maxAllowedAlarmIntervalNum(s.wheel)

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
  const lastLate = s.late[s.late.length - 1]
  if (t.due < TimingWheel.now(s.wheel) || (lastLate !== undefined && t.due <= lastLate.due)) insertLate(s, t)
  else addToBucket(s, t)
  s.count++
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
  else removeFromBucket(s, place, t)
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
  const late = s.late[0]
  if (late !== undefined) return late
  const due = leastBucketDue(s)
  if (due === undefined) return undefined
  advanceTo(s, due)
  return firstOf(bucketAt(s, due))
}

/**
 * The first timer due in `[low, high]`, as fake-timers' `firstTimerInRange` finds it.
 * A bucket wholly below `low` (only clock moves from inside callbacks leave one) becomes
 * late, as it can never be in range again. If the answer is in the wheel, the wheel's
 * `now` moves to its due time, which the caller's clock reaches (it either fires the
 * timer or ends at `high`). Amortized constant time when nothing is late.
 *
 * @example
 * const t = Schedule.firstInRange(s, tickFrom, tickTo)
 */
export const firstInRange = (s: Schedule, low: number, high: number): Timer | undefined => {
  if (s.late.length > 0) {
    const t = s.late[lateIndexAtOrAfter(s.late, low)]
    if (t !== undefined) return t.due <= high ? t : undefined
  }
  for (;;) {
    const due = leastBucketDue(s)
    if (due === undefined || due > high) return undefined
    if (due >= low) {
      advanceTo(s, due)
      return firstOf(bucketAt(s, due))
    }
    strand(s, bucketAt(s, due))
  }
}

/** The least due time in the wheel, if any; for invariants. Amortized constant time. */
export const leastWheelDue = (s: Schedule): number | undefined => leastBucketDue(s)

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
  for (let due = leastBucketDue(s); due !== undefined && due <= target; due = leastBucketDue(s)) {
    advanceTo(s, due)
    const taken = takeBucket(s, bucketAt(s, due))
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
  if (s.watches.length > 0) for (const b of [...s.buckets.values()]) takeBucket(s, b)
  s.wheel = newWheel()
  s.buckets.clear()
  s.late = []
  s.count = 0
  s.wheelCount = 0
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
  TimingWheel.invariant(s.wheel)
  const wheelNow = TimingWheel.now(s.wheel)
  const alarms = TimingWheel.length(s.wheel)
  check(alarms === s.buckets.size, `${alarms} alarms for ${s.buckets.size} buckets`)
  let inBuckets = 0
  let leastDue = Infinity
  for (const [due, b] of s.buckets) {
    check(b.due === due, `bucket ${b.due} filed under ${due}`)
    const alarmed = TimingWheel.mem(s.wheel, b.alarm) && TimingWheel.alarmAt(s.wheel, b.alarm) === due
    check(alarmed, `bucket ${due} has no alarm at its time`)
    check(Number.isInteger(due) && due >= wheelNow, `bucket ${due} before the wheel's now ${wheelNow}`)
    check(!isEmptyBucket(b), `bucket ${due} is empty`)
    const immediates = b.immediates ?? { head: undefined, tail: undefined }
    for (const [list, immediate] of [[immediates, true], [b, false]] as const) {
      let prev: Timer | undefined
      for (let t = list.head; t !== undefined; t = t.next) {
        check(t.prev === prev && t.place === b && t.due === due, `timer ${t.id} badly linked in bucket ${due}`)
        check((t.kind === 'Immediate') === immediate, `timer ${t.id} in the wrong list of bucket ${due}`)
        check(prev === undefined || prev.order < t.order, `bucket ${due} out of order at timer ${t.id}`)
        prev = t
        inBuckets++
      }
      check(list.tail === prev, `bucket ${due} tail`)
    }
    leastDue = Math.min(leastDue, due)
  }
  check(inBuckets === s.wheelCount, `wheelCount ${s.wheelCount} but ${inBuckets} timers in buckets`)
  check(s.count === s.wheelCount + s.late.length, `count ${s.count}`)
  s.late.forEach((t, i) => {
    check(t.place === 'late', `late timer ${t.id} placed elsewhere`)
    const prev = s.late[i - 1]
    check(prev === undefined || firesBefore(prev, t), `late timers out of order at ${t.id}`)
    check(t.due < leastDue, `late timer ${t.id} due ${t.due} not before the wheel's ${leastDue}`)
  })
}
