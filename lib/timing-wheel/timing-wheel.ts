/**
 * A timing wheel: a clock and a set of alarms that fire only when the clock is advanced.
 *
 * Representation. A wheel is a priority queue whose keys are interval numbers (see
 * `intervals.ts`): an alarm at time `at` has key `intervalNum(at)` and keeps `at` beside
 * it. The queue's minimum allowed key is always `intervalNum(now)`, so:
 *
 * - `add` accepts exactly the times whose interval is not before `now`'s and whose key the
 *   queue (and doubles) can hold: `[intervalStart(now), alarmUpperBound)`;
 * - advancing to `to` raises the minimum to `intervalNum(to)`, which removes precisely the
 *   alarms with `at < intervalStart(to) <= to`: never early, and none is left behind in an
 *   interval before `now`'s: never late;
 * - the queue removes in key order, ties in insertion order, which is the firing order.
 *
 * Time is any finite number; `start + k * alarmPrecision` is computed in doubles and the
 * interval of a time is the last one whose computed start is not after it, so bracketing
 * and "never early" hold exactly. The wheel's range ends at the last interval doubles keep
 * apart (`maxIntervalNum`): the range is trimmed there, and the alarm range with it.
 */
import * as E from '#fp-ts/Either.js'
import * as O from '#fp-ts/Option.js'
import * as ConfigCheck from '../config/check.js'
import { TimingWheelError, show } from '../errors.js'
import * as LevelBits from '../level-bits/index.js'
import * as Elt from '../priority-queue/elt.js'
import * as PQ from '../priority-queue/index.js'
import * as Intervals from './intervals.js'
import {
  addWithAt,
  advanceTo,
  atRangeOfMinKey,
  insert,
  leastKeyAtLevel0,
  minKeyOr,
  noteLinked,
  fitsInRow,
  takeUnusedRow,
  changeWithAt,
  eltAt,
  eltKeyAs,
  eltValueAs,
  isFiring,
  nameAs,
  removeAtMinKeyUpTo,
  toArrayInOrder,
} from '../priority-queue/internal.js'

declare const alarmBrand: unique symbol

/**
 * A handle on an alarm in a timing wheel: a number, never reused for another alarm.
 *
 * @example
 * const a: TimingWheel.Alarm<string> = TimingWheel.add(t, 5, 'five')
 */
export type Alarm<A> = number & {
  /** Keeps alarms of wheels of different value types apart; no value has it at run time. */
  readonly [alarmBrand]: A
}

/**
 * What `create` takes.
 *
 * @example
 * const config: TimingWheel.Config = { start: 0, alarmPrecision: 1, levelBits: [11, 10, 10] }
 * const t = TimingWheel.create<string>(config)
 */
export interface Config {
  /** The time the clock starts at; default 0. */
  readonly start?: number
  /** The length of an interval; alarms in one interval fire together. */
  readonly alarmPrecision: number
  /** Level widths; default {@link LevelBits.default}. */
  readonly levelBits?: LevelBits.LevelBits | readonly number[]
  /** How many alarms to make room for up front. */
  readonly capacity?: number
}

/** Keys the one member of a structure's published type (see {@link TimingWheel}). */
declare const valueType: unique symbol

/**
 * A timing wheel holding alarms with values of type `A`. Use this module's functions on it.
 * Its fields are not published: the declarations show only a member no value has, which
 * keeps `TimingWheel<A>` distinct from other objects and covariant in `A`, as its fields do.
 *
 * @example
 * const t: TimingWheel.TimingWheel<string> = TimingWheel.create({ alarmPrecision: 1 })
 */
export class TimingWheel<A> {
  /** @hidden For the type checker only: no value has it. */
  declare readonly [valueType]: A
  // The intervals (see `intervals.ts`), held here rather than in an object of their own:
  // `add` and `advanceClock` read them on every call, and another object is another hop.
  /** @internal */ readonly start: number
  /** @internal */ readonly precision: number
  /** @internal */ readonly perPrecision: number
  /** @internal */ readonly maxIntervalNum: number
  /** @internal */ readonly exactQuotient: boolean
  /** @internal */ readonly queue: PQ.PriorityQueue<A>
  /** @internal */ readonly capacity: number | undefined
  /** @internal */ now: number

  /** @internal */
  constructor(intervals: Intervals.Intervals, queue: PQ.PriorityQueue<A>, capacity: number | undefined) {
    this.start = intervals.start
    this.precision = intervals.precision
    this.perPrecision = intervals.perPrecision
    this.maxIntervalNum = intervals.maxIntervalNum
    this.exactQuotient = intervals.exactQuotient
    this.queue = queue
    this.capacity = capacity
    this.now = intervals.start
  }
}

const toElt = <A>(alarm: Alarm<A>): PQ.Elt<A> => alarm as unknown as PQ.Elt<A>
const toAlarm = <A>(elt: PQ.Elt<A>): Alarm<A> => elt as unknown as Alarm<A>

// Cold error paths.

const timeOutOfRange = (t: TimingWheel<unknown>, what: string, time: unknown): never => {
  const low = intervalNumStartUnchecked(t, nowIntervalNum(t))
  const high = alarmUpperBound(t)
  const problem =
    typeof time !== 'number' || !Number.isFinite(time)
      ? `is not a finite time in [intervalStart(now) ${low}, alarmUpperBound ${high})`
      : time < low
        ? `is before intervalStart(now) ${low}`
        : `is not below alarmUpperBound ${high}`
  throw new TimingWheelError(
    'TimeOutOfRange',
    `${what} at ${show(time)} ${problem} (now ${t.now}, alarmPrecision ${t.precision})`,
  )
}

const intervalNumOutOfRange = (t: TimingWheel<unknown>, what: string, k: unknown): never => {
  throw new TimingWheelError(
    'TimeOutOfRange',
    `${what} interval number ${show(k)} is not an integer in [nowIntervalNum ${nowIntervalNum(t)}, ` +
      `maxAllowedAlarmIntervalNum ${maxAllowedAlarmIntervalNum(t)}]`,
  )
}

const notAFunction = (what: string, f: unknown): never => {
  throw new TimingWheelError('InvalidArgument', `${what}: the handler ${show(f)} is not a function`)
}

/** Handlers are checked before anything moves, so a bad one loses no alarm. */
const checkHandler = (what: string, f: unknown): void => {
  if (typeof f !== 'function') notAFunction(what, f)
}

const reentrant = (what: string): never => {
  throw new TimingWheelError(
    'Reentrant',
    `${what} was called from inside a handler of a firing alarm; call it after the advance returns`,
  )
}

const empty = (what: string): never => {
  throw new TimingWheelError('Empty', `${what} of a timing wheel with no alarms`)
}

// Creation.

/**
 * A wheel with no alarms and `now = start`.
 *
 * Throws `InvalidConfig` for a precision that is not a finite number > 0 or too fine for
 * doubles at `start`, a start that is not finite or a bad capacity; `InvalidLevelBits`
 * for bad level bits.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 1 }) // milliseconds, from 0
 */
export const create = <A>(config: Config): TimingWheel<A> => {
  const valid = checkedConfig(config)
  const intervals = Intervals.create(valid.start, valid.alarmPrecision)
  const queue = PQ.create<A>(
    valid.capacity === undefined ? { levelBits: valid.levelBits } : { levelBits: valid.levelBits, capacity: valid.capacity },
  )
  nameAs(queue, 'timing wheel')
  return new TimingWheel(intervals, queue, valid.capacity)
}

/**
 * The configuration `Config.decode` would accept, or a throw with every problem:
 * `InvalidLevelBits` when the level bits are all that is wrong, else `InvalidConfig`.
 */
export const checkedConfig = (config: unknown): ConfigCheck.Config => {
  const checked = ConfigCheck.check(config)
  if (E.isRight(checked)) return checked.right
  const problems = checked.left
  if (problems.every((p) => p.key === 'levelBits')) {
    throw new TimingWheelError('InvalidLevelBits', problems[0]!.message)
  }
  throw new TimingWheelError('InvalidConfig', ConfigCheck.describe('config', problems))
}

// Accessors.

/**
 * The clock's time: `start` until the first advance, then the last `to` that moved it.
 * Constant time.
 *
 * @example
 * TimingWheel.advanceClock(t, 12.5, onFire)
 * TimingWheel.now(t) // 12.5
 */
export const now = (t: TimingWheel<unknown>): number => t.now
/**
 * The time the clock started at; interval 0 begins here. Constant time.
 *
 * @example
 * TimingWheel.start(TimingWheel.create({ start: 100, alarmPrecision: 1 })) // 100
 */
export const start = (t: TimingWheel<unknown>): number => t.start
/**
 * The length of an interval: alarms in one interval fire in the same advance. Constant time.
 *
 * @example
 * TimingWheel.alarmPrecision(TimingWheel.create({ alarmPrecision: 0.5 })) // 0.5
 */
export const alarmPrecision = (t: TimingWheel<unknown>): number => t.precision
/**
 * The level bits of the wheel's queue. Constant time.
 *
 * @example
 * LevelBits.numBits(TimingWheel.levelBits(t)) // 52 with the default level bits
 */
export const levelBits = (t: TimingWheel<unknown>): LevelBits.LevelBits => PQ.levelBits(t.queue)
/**
 * The number of alarms; an alarm whose handler is running is not counted. Constant time.
 *
 * @example
 * TimingWheel.add(t, 5, 'five')
 * TimingWheel.length(t) // 1
 */
export const length = (t: TimingWheel<unknown>): number => PQ.length(t.queue)
/**
 * Whether the wheel has no alarms (the one whose handler is running does not count). Constant time.
 *
 * @example
 * TimingWheel.isEmpty(TimingWheel.create({ alarmPrecision: 1 })) // true
 */
export const isEmpty = (t: TimingWheel<unknown>): boolean => PQ.isEmpty(t.queue)
/**
 * The configuration that rebuilds this wheel (with the level bits in use). Constant time.
 *
 * @example
 * const copy = TimingWheel.create<string>(TimingWheel.config(t)) // same intervals, no alarms
 */
export const config = (
  t: TimingWheel<unknown>,
): {
  /** As given to `create`, or 0. */
  start: number
  /** As given to `create`. */
  alarmPrecision: number
  /** The level bits in use. */
  levelBits: LevelBits.LevelBits
  /** As given to `create`, if it was. */
  capacity?: number
} =>
  t.capacity === undefined
    ? { start: start(t), alarmPrecision: alarmPrecision(t), levelBits: levelBits(t) }
    : { start: start(t), alarmPrecision: alarmPrecision(t), levelBits: levelBits(t), capacity: t.capacity }

/**
 * The last interval number doubles can represent distinctly from this wheel's start: the
 * clock cannot move past its interval. Constant time.
 *
 * @example
 * TimingWheel.maxIntervalNum(t) >= TimingWheel.maxAllowedAlarmIntervalNum(t) // true
 */
export const maxIntervalNum = (t: TimingWheel<unknown>): number => t.maxIntervalNum

// Intervals.

const intervalNumStartUnchecked = (t: TimingWheel<unknown>, k: number): number =>
  Intervals.intervalNumStart(t, k)

/**
 * The number `k` of the interval holding `time`: `intervalNumStart(k) <= time <
 * intervalNumStart(k + 1)`, exactly. Throws `TimeOutOfRange` for a time that is not
 * finite, before `start`, or past the last representable interval.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 10 })
 * TimingWheel.intervalNum(t, 25) // 2
 */
export const intervalNum = (t: TimingWheel<unknown>, time: number): number => {
  const max = t.maxIntervalNum
  const k = typeof time === 'number' ? Intervals.intervalNumWithin(t, time, 0, max) : NaN
  if (!(k >= 0 && k <= max)) {
    throw new TimingWheelError(
      'TimeOutOfRange',
      `intervalNum of ${show(time)}: the time is not in [start ${t.start}, ${intervalNumStartUnchecked(t, max + 1)})`,
    )
  }
  return k
}

/**
 * The start of interval `k`. Throws `TimeOutOfRange` unless `k` is an integer in `[0, maxIntervalNum]`.
 *
 * @example
 * const t = TimingWheel.create<string>({ start: 5, alarmPrecision: 10 })
 * TimingWheel.intervalNumStart(t, 2) // 25
 */
export const intervalNumStart = (t: TimingWheel<unknown>, k: number): number => {
  if (!(Number.isInteger(k) && k >= 0 && k <= t.maxIntervalNum)) {
    throw new TimingWheelError(
      'TimeOutOfRange',
      `intervalNumStart of ${show(k)}: not an integer in [0, maxIntervalNum ${t.maxIntervalNum}]`,
    )
  }
  return intervalNumStartUnchecked(t, k)
}

/**
 * The start of the interval holding `time`: `intervalNumStart(t, intervalNum(t, time))`.
 * Throws `TimeOutOfRange` as {@link intervalNum} does. Constant time.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 0.5 })
 * TimingWheel.intervalStart(t, 1.7) // 1.5
 */
export const intervalStart = (t: TimingWheel<unknown>, time: number): number =>
  intervalNumStartUnchecked(t, intervalNum(t, time))

/**
 * The number of the interval holding `now`; also the least interval number of an alarm. Constant time.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 10 })
 * TimingWheel.advanceClock(t, 25, onFire)
 * TimingWheel.nowIntervalNum(t) // 2
 */
export const nowIntervalNum = (t: TimingWheel<unknown>): number => PQ.minAllowedKey(t.queue)

/**
 * {@link nowIntervalNum}, under Core's name: the least interval number `addAtIntervalNum` accepts.
 *
 * @example
 * TimingWheel.addAtIntervalNum(t, TimingWheel.minAllowedAlarmIntervalNum(t), 'now')
 */
export const minAllowedAlarmIntervalNum = nowIntervalNum

/**
 * The greatest interval number an alarm may have now: at least `2^numBits - 1` intervals
 * after now's, capped at {@link maxIntervalNum}. Constant time.
 *
 * @example
 * TimingWheel.addAtIntervalNum(t, TimingWheel.maxAllowedAlarmIntervalNum(t), 'latest')
 */
export const maxAllowedAlarmIntervalNum = (t: TimingWheel<unknown>): number =>
  Math.min(PQ.maxAllowedKey(t.queue), t.maxIntervalNum)

/**
 * Every alarm time is below this: the end of interval {@link maxAllowedAlarmIntervalNum};
 * it grows as `now` does. Constant time.
 *
 * @example
 * TimingWheel.add(t, TimingWheel.alarmUpperBound(t), 'x') // throws TimeOutOfRange
 */
export const alarmUpperBound = (t: TimingWheel<unknown>): number =>
  intervalNumStartUnchecked(t, maxAllowedAlarmIntervalNum(t) + 1)

// Adding and removing alarms.

/**
 * The key of an alarm at `at`, or a throw naming the allowed range. Small enough for
 * callers to inline: `intervalNumWithin` keeps its rare correction out of line.
 */
const keyOfAlarmTime = (t: TimingWheel<unknown>, at: number, what: string): number => {
  if (typeof at !== 'number') timeOutOfRange(t, what, at)
  const low = t.queue.minAllowedKey
  const high = maxAllowedAlarmIntervalNum(t)
  const key = Intervals.intervalNumWithin(t, at, low, high)
  if (!(key >= low && key <= high)) timeOutOfRange(t, what, at)
  return key
}

const checkAlarmIntervalNum = (t: TimingWheel<unknown>, k: number, what: string): void => {
  if (!(Number.isInteger(k) && k >= nowIntervalNum(t) && k <= maxAllowedAlarmIntervalNum(t))) {
    intervalNumOutOfRange(t, what, k)
  }
}

/**
 * Adds an alarm at `at` holding `value`. Constant time.
 *
 * Throws `TimeOutOfRange` if `at` is not finite, in an interval before `now`'s, or at or
 * after `alarmUpperBound`.
 *
 * @example
 * const a = TimingWheel.add(t, 250, 'timeout')
 */
export const add = <A>(t: TimingWheel<A>, at: number, value: A): Alarm<A> => {
  const q = t.queue
  // Most alarms take this path: an exact quotient (`start` 0, a power-of-two precision), a
  // key at level 0 or 1 below the top, a value kept in the row and a slot whose head is
  // taken. It does what `keyOfAlarmTime` and `insert` do (see `pool.ts` and
  // `levels.ts`) in this one function: down the general way, each call that V8's inlining
  // budget leaves is paid per alarm, and which calls it leaves depends on what ran before
  // (calling `allocate` and `linkAt` here counted 8% more instructions an add and a
  // remove, and 2% more a hold event). The general way takes the rest.
  if (typeof at === 'number' && t.exactQuotient) {
    const key = Math.floor(at * t.perPrecision)
    const level = key <= q.quick0 ? 0 : 1
    // `slotOf` (see `levels.ts`), with level 0's and 1's geometry from plain fields.
    const slot = level === 0 ? key & q.mask0 : (key * q.perKey1) & q.mask1
    const w = (level === 0 ? 0 : q.word1) + (slot >>> 5)
    const first = q.headBase[w]!
    if (key >= q.minAllowedKey && key <= q.quick1 && key <= t.maxIntervalNum && first !== 0 && fitsInRow(value)) {
      // The last row freed, likely still in cache, or a row never used (which may grow the pool).
      const row = q.freeHead !== -1 ? q.freeHead : takeUnusedRow(q)
      const ints = q.ints
      const r = row << 3
      const h = (first + (slot & 31)) << 3
      q.freeHead = ints[r]!
      q.floats[(r >> 1) | 2] = key
      q.floats[(r >> 1) | 3] = at
      const gen = ints[r | 2]! // a free row's word: its generation, no flag set
      ints[r | 2] = gen | 1073741824 // IN_ROW
      ints[r | 3] = value
      const last = ints[h | 1]!
      if (last << 3 === h) {
        q.occupied[w] = q.occupied[w]! | (1 << (slot & 31))
        q.occupiedSlots[level]!++
      }
      ints[last << 3] = row
      ints[r | 1] = last
      ints[r] = h >> 3
      ints[h | 1] = row
      // `noteLinked`'s own test, here: the call is rare.
      if (level === 1 && (key < q.floats[(h >> 1) | 2]! || (ints[h | 2]! & 134217728) !== 0)) noteLinked(q, h >> 3, row, key) // SORTED
      q.length++
      return (gen * 134217728 + row) as Alarm<A> // 2^27
    }
  }
  return toAlarm(insert(q, keyOfAlarmTime(t, at, 'add'), at, value))
}

/**
 * `add(t, intervalNumStart(t, k), value)`: an alarm at the start of interval `k`. Throws
 * `TimeOutOfRange` unless `k` is an integer in `[nowIntervalNum, maxAllowedAlarmIntervalNum]`.
 * Constant time.
 *
 * @example
 * TimingWheel.addAtIntervalNum(t, TimingWheel.nowIntervalNum(t) + 1, 'next interval')
 */
export const addAtIntervalNum = <A>(t: TimingWheel<A>, k: number, value: A): Alarm<A> => {
  checkAlarmIntervalNum(t, k, 'addAtIntervalNum')
  return toAlarm(addWithAt(t.queue, k, intervalNumStartUnchecked(t, k), value))
}

/**
 * Removes an alarm. Constant time. Throws `AlarmNotFound` if it is not in the wheel.
 *
 * @example
 * const a = TimingWheel.add(t, 5, 'five')
 * TimingWheel.remove(t, a)
 * TimingWheel.mem(t, a) // false
 */
export const remove = <A>(t: TimingWheel<A>, alarm: Alarm<A>): void => {
  const q = t.queue
  // Most removals, for the reason `add` gives, here: the handle is a live alarm's (as
  // `rowOfHandle` decodes it), whose value is in its row, whose slot keeps other alarms,
  // whose removal changes no slot's least key and no read-ahead, and whose row is not at
  // its last generation. Unlinked and freed as `detach` and `release` would. Calling
  // `rowOfHandle` here instead counted 10% more instructions an add and a remove.
  if (typeof alarm === 'number') {
    const row = alarm & 134217727 // 2^27 - 1
    const ints = q.ints
    if (row < q.used && row !== q.aheadRow && row !== q.aheadBack) {
      const word = ints[(row << 3) | 2]!
      const before = ints[(row << 3) | 1]!
      const after = ints[row << 3]!
      const gen = (word + 1) & 67108863 // GEN_MASK
      // IN_ROW set, MAY_BE_LEAST and HEAD clear; linked; not left alone with its head.
      if ((word & 1879048192) === 1073741824 && alarm - row === (word & 67108863) * 134217728 && before !== -1 && before !== after && gen !== q.salt) {
        ints[before << 3] = after
        ints[(after << 3) | 1] = before
        ints[(row << 3) | 1] = -1 // UNLINKED
        ints[(row << 3) | 2] = gen
        ints[row << 3] = q.freeHead
        q.freeHead = row
        q.length--
        return
      }
    }
  }
  PQ.remove(q, toElt(alarm))
}

/**
 * Moves an alarm to `at`; it counts as added now for the order within its interval.
 * Inside its own handler, puts the alarm back in the wheel under the same handle.
 * Constant time. Throws `AlarmNotFound` or `TimeOutOfRange`, changing nothing.
 *
 * @example
 * const a = TimingWheel.add(t, 5, 'five')
 * TimingWheel.reschedule(t, a, 8)
 * Alarm.at(t, a) // 8
 */
export const reschedule = <A>(t: TimingWheel<A>, alarm: Alarm<A>, at: number): void => {
  eltAt(t.queue, toElt(alarm), 'reschedule') // AlarmNotFound before TimeOutOfRange
  changeWithAt(t.queue, toElt(alarm), keyOfAlarmTime(t, at, 'reschedule'), at)
}

/**
 * `reschedule(t, alarm, intervalNumStart(t, k))`. Throws `AlarmNotFound` for an alarm not
 * in the wheel, then `TimeOutOfRange` as {@link addAtIntervalNum}, changing nothing.
 * Constant time.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 10 })
 * const a = TimingWheel.add(t, 5, 'five')
 * TimingWheel.rescheduleAtIntervalNum(t, a, 3)
 * Alarm.at(t, a) // 30
 */
export const rescheduleAtIntervalNum = <A>(t: TimingWheel<A>, alarm: Alarm<A>, k: number): void => {
  eltAt(t.queue, toElt(alarm), 'rescheduleAtIntervalNum')
  checkAlarmIntervalNum(t, k, 'rescheduleAtIntervalNum')
  changeWithAt(t.queue, toElt(alarm), k, intervalNumStartUnchecked(t, k))
}

/**
 * Whether `alarm` is in the wheel (false for the alarm whose handler is running, and for
 * every handle once removed or fired). Never throws. Constant time.
 *
 * @example
 * const a = TimingWheel.add(t, 5, 'five')
 * TimingWheel.mem(t, a) // true
 * TimingWheel.advanceClock(t, 10, onFire)
 * TimingWheel.mem(t, a) // false: it fired
 */
export const mem = <A>(t: TimingWheel<A>, alarm: Alarm<A>): boolean => PQ.mem(t.queue, toElt(alarm))

/**
 * Removes every alarm; their handles die. Throws `Reentrant` from a handler. Linear in the alarms.
 *
 * @example
 * TimingWheel.clear(t)
 * TimingWheel.isEmpty(t) // true
 */
export const clear = (t: TimingWheel<unknown>): void => {
  if (isFiring(t.queue)) reentrant('clear')
  PQ.clear(t.queue)
}

/**
 * Every alarm, in firing order (interval, then insertion). Linear time.
 *
 * @example
 * TimingWheel.add(t, 7, 'b')
 * TimingWheel.add(t, 3, 'a')
 * TimingWheel.toArray(t).map((a) => Alarm.value(t, a)) // ['a', 'b']
 */
export const toArray = <A>(t: TimingWheel<A>): ReadonlyArray<Alarm<A>> =>
  toArrayInOrder(t.queue).map(toAlarm)

/**
 * Calls `f` on every alarm in firing order; `f` may change the wheel.
 *
 * @example
 * TimingWheel.iter(t, (a) => console.log(Alarm.at(t, a), Alarm.value(t, a)))
 */
export const iter = <A>(t: TimingWheel<A>, f: (alarm: Alarm<A>) => void): void => {
  checkHandler('iter', f)
  toArray(t).forEach((a) => f(a))
}

// Reading alarms.

/**
 * The time of an alarm in the wheel or of the one whose handler is running; throws
 * `AlarmNotFound` otherwise. Constant time.
 *
 * @example
 * const a = TimingWheel.add(t, 5, 'five')
 * Alarm.at(t, a) // 5
 */
export const alarmAt = <A>(t: TimingWheel<A>, alarm: Alarm<A>): number => eltAt(t.queue, toElt(alarm), 'Alarm.at')
/**
 * The value of an alarm in the wheel or of the one whose handler is running; throws `AlarmNotFound` otherwise.
 *
 * @example
 * const a = TimingWheel.add(t, 5, 'five')
 * Alarm.value(t, a) // 'five'
 */
export const alarmValue = <A>(t: TimingWheel<A>, alarm: Alarm<A>): A => {
  const q = t.queue
  // Most handlers ask it: the handle is decoded and checked here as `rowOfHandle` and
  // `readableRow` do (see `pool.ts`), in one function rather than a chain of six (52
  // fewer instructions a hold event).
  const row = typeof alarm === 'number' ? alarm & 134217727 : -1 // 2^27 - 1
  if (row >= 0 && row < q.used) {
    const ints = q.ints
    const word = ints[(row << 3) | 2]!
    if (alarm - row === (word & 335544319) * 134217728 && (ints[(row << 3) | 1] !== -1 || row === q.firingRow)) { // GEN_MASK | HEAD, 2^27
      return ((word & 1073741824) !== 0 ? ints[(row << 3) | 3] : q.values[row]) as A // IN_ROW
    }
  }
  return eltValueAs(q, toElt(alarm), 'Alarm.value')
}
/**
 * The number of the interval of an alarm's time; throws as {@link alarmValue}.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 10 })
 * Alarm.intervalNum(t, TimingWheel.add(t, 25, 'x')) // 2
 */
export const alarmIntervalNum = <A>(t: TimingWheel<A>, alarm: Alarm<A>): number =>
  eltKeyAs(t.queue, toElt(alarm), 'Alarm.intervalNum')
/**
 * A handle that is in no wheel: a placeholder for "no alarm" where a handle is required.
 *
 * @example
 * let pending: TimingWheel.Alarm<string> = Alarm.null()
 * TimingWheel.mem(t, pending) // false
 */
export const nullAlarm = <A>(): Alarm<A> => toAlarm(Elt.null<A>())

// Advancing the clock.

/** The key for advancing to `to`, or a throw; `to` must be finite and representable. */
const keyOfClockTime = (t: TimingWheel<unknown>, to: number, what: string): number => {
  const max = t.maxIntervalNum
  const key = typeof to === 'number' ? Intervals.intervalNumWithin(t, to, 0, max) : NaN
  if (!Number.isFinite(to) || !(key <= max)) clockOutOfRange(t, to, what)
  return key
}

const clockOutOfRange = (t: TimingWheel<unknown>, to: unknown, what: string): never => {
  throw new TimingWheelError(
    'TimeOutOfRange',
    `${what} to ${show(to)}: the clock can only move to finite times before ` +
      `${intervalNumStartUnchecked(t, t.maxIntervalNum + 1)} (the end of the last representable interval)`,
  )
}

/**
 * Sets `now` to `to` and fires every alarm with `at < intervalStart(to)`, calling
 * `handleFired` on each in interval order and, within an interval, in the order added.
 *
 * A no-op if `to <= now`. During the handlers `now` is already `to`; they may add, remove
 * and reschedule alarms. If a handler throws, the advance completes and then the first
 * error is rethrown.
 *
 * Time: proportional to the alarms fired or moved down a level plus the occupied slots
 * passed.
 *
 * Throws `TimeOutOfRange` if `to` is not finite or past the representable range,
 * `Reentrant` from a handler; either way nothing changes.
 *
 * @example
 * TimingWheel.advanceClock(t, 1000, (a) => console.log(Alarm.at(t, a), Alarm.value(t, a)))
 */
export const advanceClock = <A>(t: TimingWheel<A>, to: number, handleFired: (alarm: Alarm<A>) => void): void => {
  if (isFiring(t.queue)) reentrant('advanceClock')
  const key = keyOfClockTime(t, to, 'advanceClock')
  checkHandler('advanceClock', handleFired)
  if (!(to > t.now)) return
  t.now = to
  advanceTo(t.queue, key, handleFired as unknown as (e: PQ.Elt<A>) => void)
}

/**
 * Fires the alarms of `now`'s interval whose time is at most `now`, in the order added.
 * Alarms their handlers add are not fired by this call. Throws `Reentrant` from a handler.
 * Time: proportional to the alarms of `now`'s interval.
 *
 * @example
 * TimingWheel.add(t, TimingWheel.now(t), 'due now')
 * TimingWheel.firePastAlarms(t, onFire) // fires it without moving the clock
 */
export const firePastAlarms = <A>(t: TimingWheel<A>, handleFired: (alarm: Alarm<A>) => void): void => {
  if (isFiring(t.queue)) reentrant('firePastAlarms')
  checkHandler('firePastAlarms', handleFired)
  removeAtMinKeyUpTo(t.queue, t.now, handleFired as unknown as (e: PQ.Elt<A>) => void)
}

/**
 * Advances to `min(to, m)` where `m` is the least alarm time; if that reaches `m`, also
 * fires the alarms of the then current interval whose time is at most `now` (so the
 * alarms at `m` fire). With no alarms, `advanceClock(t, to, handleFired)`. Throws as
 * {@link advanceClock}; costs what it and {@link firePastAlarms} cost.
 *
 * A handler runs after `now` has moved to the target, so one `advanceClock` fires a
 * periodic alarm at most once; stepping from alarm to alarm fires every period.
 *
 * @example
 * // A discrete-event simulation: jump from event to event, each handler seeing its own time.
 * while (!TimingWheel.isEmpty(t)) TimingWheel.advanceClockStopAtNextAlarm(t, end, onFire)
 *
 * // A periodic alarm, every 16 ms up to 100: frames is [16, 32, 48, 64, 80, 96].
 * const t = TimingWheel.create<string>({ alarmPrecision: 1 })
 * const frames: number[] = []
 * TimingWheel.add(t, 16, 'frame')
 * const onFire = (a: TimingWheel.Alarm<string>): void => {
 *   frames.push(Alarm.at(t, a))
 *   TimingWheel.reschedule(t, a, Alarm.at(t, a) + 16)
 * }
 * while (TimingWheel.now(t) < 100) TimingWheel.advanceClockStopAtNextAlarm(t, 100, onFire)
 */
export const advanceClockStopAtNextAlarm = <A>(
  t: TimingWheel<A>,
  to: number,
  handleFired: (alarm: Alarm<A>) => void,
): void => {
  if (isFiring(t.queue)) reentrant('advanceClockStopAtNextAlarm')
  keyOfClockTime(t, to, 'advanceClockStopAtNextAlarm')
  checkHandler('advanceClockStopAtNextAlarm', handleFired)
  const range = atRangeOfMinKey(t.queue)
  if (range === undefined || to < range[0]) {
    advanceClock(t, to, handleFired)
    return
  }
  advanceClock(t, range[0], handleFired)
  firePastAlarms(t, handleFired)
}

// The next alarm.

/**
 * The interval number of the earliest alarm. Found through the occupancy bitmaps, then cached.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 10 })
 * TimingWheel.add(t, 25, 'x')
 * TimingWheel.minAlarmIntervalNum(t) // O.some(2)
 */
export const minAlarmIntervalNum = (t: TimingWheel<unknown>): O.Option<number> => PQ.minKey(t.queue)

/**
 * {@link minAlarmIntervalNum}, throwing `Empty` on a wheel with no alarms.
 *
 * @example
 * TimingWheel.minAlarmIntervalNumExn(TimingWheel.create({ alarmPrecision: 1 })) // throws Empty
 */
export const minAlarmIntervalNumExn = (t: TimingWheel<unknown>): number => {
  if (PQ.isEmpty(t.queue)) empty('minAlarmIntervalNumExn')
  return PQ.minKeyExn(t.queue)
}

/**
 * The least alarm time in the earliest interval that has alarms. Linear in the alarms
 * that share the earliest alarm's slot.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 10 })
 * TimingWheel.add(t, 27, 'b')
 * TimingWheel.add(t, 25, 'a')
 * TimingWheel.minAlarmTimeInMinInterval(t) // O.some(25)
 */
export const minAlarmTimeInMinInterval = (t: TimingWheel<unknown>): O.Option<number> => {
  const range = atRangeOfMinKey(t.queue)
  return range === undefined ? O.none : O.some(range[0])
}

/**
 * {@link minAlarmTimeInMinInterval}, throwing `Empty` on a wheel with no alarms.
 *
 * @example
 * TimingWheel.add(t, 25, 'a')
 * TimingWheel.minAlarmTimeInMinIntervalExn(t) // 25 when no alarm is earlier
 */
export const minAlarmTimeInMinIntervalExn = (t: TimingWheel<unknown>): number => {
  const range = atRangeOfMinKey(t.queue)
  if (range === undefined) empty('minAlarmTimeInMinIntervalExn')
  return range![0]
}

/**
 * The greatest alarm time in the earliest interval that has alarms. Linear in the alarms
 * that share the earliest alarm's slot.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 10 })
 * TimingWheel.add(t, 27, 'b')
 * TimingWheel.add(t, 25, 'a')
 * TimingWheel.maxAlarmTimeInMinInterval(t) // O.some(27)
 */
export const maxAlarmTimeInMinInterval = (t: TimingWheel<unknown>): O.Option<number> => {
  const range = atRangeOfMinKey(t.queue)
  return range === undefined ? O.none : O.some(range[1])
}

/**
 * {@link maxAlarmTimeInMinInterval}, throwing `Empty` on a wheel with no alarms.
 *
 * @example
 * TimingWheel.add(t, 27, 'b')
 * TimingWheel.maxAlarmTimeInMinIntervalExn(t) // 27 when no other alarm is in its interval or earlier
 */
export const maxAlarmTimeInMinIntervalExn = (t: TimingWheel<unknown>): number => {
  const range = atRangeOfMinKey(t.queue)
  if (range === undefined) empty('maxAlarmTimeInMinIntervalExn')
  return range![1]
}

/**
 * The least time to advance to that fires an alarm: the start of the interval after the
 * earliest alarm's, so `next - alarmPrecision <= min alarm time < next`. None if there
 * are no alarms, or if the earliest is in the last representable interval (as in Core).
 * Finds the minimum through the occupancy bitmaps.
 *
 * @example
 * const t = TimingWheel.create<string>({ alarmPrecision: 10 })
 * TimingWheel.add(t, 25, 'x')
 * TimingWheel.nextAlarmFiresAt(t) // O.some(30)
 */
export const nextAlarmFiresAt = (t: TimingWheel<unknown>): O.Option<number> => {
  // Asked at every event: the common case first, in a function V8 inlines here.
  const level0 = leastKeyAtLevel0(t.queue)
  const key = level0 !== -1 ? level0 : minKeyOr(t.queue, Infinity)
  return key >= t.maxIntervalNum ? O.none : O.some(intervalNumStartUnchecked(t, key + 1))
}

/**
 * {@link nextAlarmFiresAt}, throwing `Empty` on a wheel with no alarms and
 * `TimeOutOfRange` when every alarm is in the last representable interval.
 *
 * @example
 * TimingWheel.advanceClock(t, TimingWheel.nextAlarmFiresAtExn(t), onFire) // fires the earliest interval
 */
export const nextAlarmFiresAtExn = (t: TimingWheel<unknown>): number => {
  const next = nextAlarmFiresAt(t)
  if (O.isNone(next)) {
    if (PQ.isEmpty(t.queue)) empty('nextAlarmFiresAtExn')
    throw new TimingWheelError('TimeOutOfRange', 'nextAlarmFiresAtExn: every alarm is in the last representable interval')
  }
  return next.value
}

// Invariant.

const check = (ok: boolean, what: string): void => {
  if (!ok) throw new Error(`TimingWheel invariant broken: ${what}`)
}

/**
 * Checks the queue's invariant and the time layer's: `now` and every alarm in range, each
 * alarm's key the interval of its time, none before `now`'s interval (outside handlers).
 * Throws an `Error` naming what is broken. Linear in the alarms and slots: for tests.
 *
 * @example
 * TimingWheel.advanceClock(t, 100, onFire)
 * TimingWheel.invariant(t) // after every step of a property test
 */
export const invariant = (t: TimingWheel<unknown>): void => {
  PQ.invariant(t.queue)
  const iv = t
  check(Number.isFinite(t.now) && t.now >= iv.start, `now ${t.now} before start ${iv.start}`)
  check(intervalNum(t, t.now) === nowIntervalNum(t), `nowIntervalNum ${nowIntervalNum(t)} is not intervalNum(now ${t.now})`)
  check(maxAllowedAlarmIntervalNum(t) <= iv.maxIntervalNum, 'alarms stay within the representable intervals')
  const firing = isFiring(t.queue)
  for (const alarm of PQ.toArray(t.queue)) {
    const at = alarmAt(t, toAlarm(alarm))
    const k = Elt.key(t.queue, alarm)
    check(intervalNum(t, at) === k, `alarm at ${at} has key ${k}, not intervalNum ${intervalNum(t, at)}`)
    if (!firing) {
      check(intervalStart(t, at) >= intervalStart(t, t.now), `alarm at ${at} is late: now ${t.now}`)
      check(at < alarmUpperBound(t), `alarm at ${at} is not below alarmUpperBound ${alarmUpperBound(t)}`)
    }
  }
}
