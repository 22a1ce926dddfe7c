/**
 * A plainly correct timing wheel: the alarms in one array kept in firing order, every
 * operation a search or a splice, every interval found by binary search over the
 * definition `intervalNumStart(k) = start + k * alarmPrecision`. It is slow on purpose
 * and shares no code with the wheel but two definitions: how far doubles keep intervals
 * apart, and the key range of the levels (a formula here, a layout there).
 *
 * It has the same functions as `TimingWheel` (the `Alarm.*` readers as `alarmAt`,
 * `alarmValue`, `alarmIntervalNum`), with its own handles, and throws `TimingWheelError`s
 * with the same codes, so differential tests can run one program on both and compare:
 * `runCommands` with `referenceWheelOps` does that for generated command lists.
 *
 * Every function here takes time linear in the alarms (or `log` of the range, for the
 * interval arithmetic): it is for tests, not for use.
 *
 * @example
 * import { ReferenceWheel } from 'timing-wheel/testing'
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 1 })
 * ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.advanceClock(r, 10, (a) => console.log(ReferenceWheel.alarmValue(r, a))) // five
 *
 * @module
 */
import * as O from '#fp-ts/Option.js'
import { TimingWheelError, show } from '../errors.js'
import * as LevelBits from '../level-bits/index.js'
import { maxExactIntervalNum } from '../timing-wheel/intervals.js'
import { type Config, checkedConfig } from '../timing-wheel/timing-wheel.js'

declare const refAlarmBrand: unique symbol
/**
 * A handle on an alarm of a {@link ReferenceWheel}: a number never reused in that model.
 *
 * @example
 * const a: ReferenceWheel.RefAlarm<string> = ReferenceWheel.add(r, 5, 'five')
 */
export type RefAlarm<A> = number & {
  /** Keeps the handles of models of different value types apart; no value has it. */
  readonly [refAlarmBrand]: A
}

interface Entry<A> {
  readonly handle: RefAlarm<A>
  at: number
  key: number
  readonly value: A
  /** Bumped at every (re)schedule: tells a rescheduled alarm from the one it was. */
  version: number
}

/**
 * The model's state, in plain sight for debugging; change it only with this module's functions.
 *
 * @example
 * const r: ReferenceWheel.ReferenceWheel<string> = ReferenceWheel.create({ alarmPrecision: 1 })
 */
export interface ReferenceWheel<A> {
  /** The time the clock started at. */
  readonly start: number
  /** The length of an interval. */
  readonly alarmPrecision: number
  /** The level widths, which fix how far ahead alarms may be. */
  readonly levelBits: readonly number[]
  /** The last interval number doubles keep distinct from `start` on. */
  readonly maxIntervalNum: number
  /** The clock's time. */
  now: number
  /** @hidden Alarms in firing order: by key, then by when they were (re)scheduled. */
  entries: Array<Entry<A>>
  /** @hidden The alarm whose handler is running, if any. */
  firing: Entry<A> | undefined
  /** @hidden Whether an advance is calling handlers. */
  inHandlers: boolean
  /** @hidden The next handle, and the next (re)schedule's version. */
  nextHandle: number
}

const fail = (code: ConstructorParameters<typeof TimingWheelError>[0], message: string): never => {
  throw new TimingWheelError(code, message)
}

/**
 * A model with no alarms and `now = start`, like `TimingWheel.create`; throws
 * `InvalidConfig` or `InvalidLevelBits` for the configurations the wheel refuses.
 *
 * @example
 * const r = ReferenceWheel.create<number>({ start: 0, alarmPrecision: 0.1, levelBits: [4, 4] })
 */
export const create = <A>(config: Config): ReferenceWheel<A> => {
  // The wheel's own validation: the model and the wheel refuse the same configs alike.
  const { start, alarmPrecision: p, levelBits } = checkedConfig(config)
  const maxIntervalNum = maxExactIntervalNum(start, p)
  return { start, alarmPrecision: p, levelBits: LevelBits.toArray(levelBits), maxIntervalNum, now: start, entries: [], firing: undefined, inHandlers: false, nextHandle: 1 }
}

// Accessors.

/**
 * The time the clock started at.
 *
 * @example
 * ReferenceWheel.start(ReferenceWheel.create({ start: 100, alarmPrecision: 1 })) // 100
 */
export const start = (r: ReferenceWheel<unknown>): number => r.start
/**
 * The length of an interval.
 *
 * @example
 * ReferenceWheel.alarmPrecision(ReferenceWheel.create({ alarmPrecision: 0.5 })) // 0.5
 */
export const alarmPrecision = (r: ReferenceWheel<unknown>): number => r.alarmPrecision
/**
 * The level widths the configuration named (or the default); they fix how far ahead alarms may be.
 *
 * @example
 * ReferenceWheel.levelBits(ReferenceWheel.create({ alarmPrecision: 1, levelBits: [8, 8] })) // [8, 8]
 */
export const levelBits = (r: ReferenceWheel<unknown>): readonly number[] => r.levelBits
/**
 * The last interval number doubles keep distinct from `start` on, as `TimingWheel.maxIntervalNum`.
 *
 * @example
 * ReferenceWheel.maxIntervalNum(r) >= ReferenceWheel.maxAllowedAlarmIntervalNum(r) // true
 */
export const maxIntervalNum = (r: ReferenceWheel<unknown>): number => r.maxIntervalNum

// Intervals, from the definition.

/**
 * `start + k * alarmPrecision`, the definition; unlike the wheel's, it does not check `k`.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ start: 5, alarmPrecision: 10 })
 * ReferenceWheel.intervalNumStart(r, 2) // 25
 */
export const intervalNumStart = (r: ReferenceWheel<unknown>, k: number): number => r.start + k * r.alarmPrecision

/**
 * The largest `k` in `[0, maxIntervalNum]` with `intervalNumStart(k) <= time`, by bisection.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * ReferenceWheel.intervalNum(r, 25) // 2
 */
export const intervalNum = (r: ReferenceWheel<unknown>, time: number): number => {
  if (!(Number.isFinite(time) && time >= r.start && time < intervalNumStart(r, r.maxIntervalNum + 1))) {
    fail('TimeOutOfRange', `intervalNum of ${show(time)}`)
  }
  let low = 0
  let high = r.maxIntervalNum
  while (low < high) {
    const mid = Math.floor((low + high + 1) / 2)
    if (intervalNumStart(r, mid) <= time) low = mid
    else high = mid - 1
  }
  return low
}

/**
 * The start of the interval holding `time`.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 0.5 })
 * ReferenceWheel.intervalStart(r, 1.7) // 1.5
 */
export const intervalStart = (r: ReferenceWheel<unknown>, time: number): number =>
  intervalNumStart(r, intervalNum(r, time))

/**
 * The clock's time.
 *
 * @example
 * ReferenceWheel.advanceClock(r, 12.5, onFire)
 * ReferenceWheel.now(r) // 12.5
 */
export const now = (r: ReferenceWheel<unknown>): number => r.now
/**
 * The number of the interval holding `now`: the least interval an alarm may have.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * ReferenceWheel.advanceClock(r, 25, onFire)
 * ReferenceWheel.nowIntervalNum(r) // 2
 */
export const nowIntervalNum = (r: ReferenceWheel<unknown>): number => intervalNum(r, r.now)
/**
 * `nowIntervalNum`, under the name `TimingWheel` also has.
 *
 * @example
 * ReferenceWheel.addAtIntervalNum(r, ReferenceWheel.minAllowedAlarmIntervalNum(r), 'now')
 */
export const minAllowedAlarmIntervalNum = nowIntervalNum
/**
 * The number of alarms; an alarm whose handler is running is not counted.
 *
 * @example
 * ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.length(r) // 1
 */
export const length = (r: ReferenceWheel<unknown>): number => r.entries.length
/**
 * Whether there are no alarms.
 *
 * @example
 * ReferenceWheel.isEmpty(ReferenceWheel.create({ alarmPrecision: 1 })) // true
 */
export const isEmpty = (r: ReferenceWheel<unknown>): boolean => r.entries.length === 0

/**
 * The last key the levels hold: with levels `b0..bt` and `S = 2^(b0 + ... + b(t-1))`, the
 * top level holds the `2^bt` blocks of `S` keys after the block of the minimum `m`; with
 * one level, the `2^b0` keys from `m`. Capped at `2^52 - 1`.
 *
 * @example
 * ReferenceWheel.addAtIntervalNum(r, ReferenceWheel.maxAllowedAlarmIntervalNum(r), 'latest')
 */
export const maxAllowedAlarmIntervalNum = (r: ReferenceWheel<unknown>): number => {
  const m = nowIntervalNum(r)
  const bits = r.levelBits
  const top = bits[bits.length - 1]!
  const below = 2 ** (bits.reduce((a, b) => a + b, 0) - top)
  const held = bits.length === 1 ? m + 2 ** top - 1 : (Math.floor(m / below) + 1 + 2 ** top) * below - 1
  return Math.min(held, 2 ** 52 - 1, r.maxIntervalNum)
}

/**
 * Every alarm time is below this: the end of interval `maxAllowedAlarmIntervalNum`.
 *
 * @example
 * ReferenceWheel.add(r, ReferenceWheel.alarmUpperBound(r), 'x') // throws TimeOutOfRange, as TimingWheel.add
 */
export const alarmUpperBound = (r: ReferenceWheel<unknown>): number =>
  intervalNumStart(r, maxAllowedAlarmIntervalNum(r) + 1)

// Alarms.

const entryOf = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>): Entry<A> | undefined =>
  r.entries.find((e) => e.handle === alarm)

const readable = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>): Entry<A> => {
  const entry = entryOf(r, alarm) ?? (r.firing?.handle === alarm ? r.firing : undefined)
  if (entry === undefined) return fail('AlarmNotFound', `alarm ${show(alarm)}`)
  return entry
}

const checkedKey = (r: ReferenceWheel<unknown>, at: number): number => {
  const ok =
    typeof at === 'number' &&
    Number.isFinite(at) &&
    at >= intervalNumStart(r, nowIntervalNum(r)) &&
    at < alarmUpperBound(r)
  if (!ok) fail('TimeOutOfRange', `alarm at ${show(at)}`)
  return intervalNum(r, at)
}

/** Puts an entry after every entry whose key is not greater: last among its interval. */
const insert = <A>(r: ReferenceWheel<A>, entry: Entry<A>): void => {
  entry.version = r.nextHandle++
  const i = r.entries.findIndex((e) => e.key > entry.key)
  r.entries.splice(i < 0 ? r.entries.length : i, 0, entry)
}

/**
 * Adds an alarm at `at` holding `value`, last among its interval. Throws
 * `TimeOutOfRange` if `at` is not finite, before now's interval or not below
 * `alarmUpperBound`.
 *
 * @example
 * const a = ReferenceWheel.add(r, 250, 'timeout')
 */
export const add = <A>(r: ReferenceWheel<A>, at: number, value: A): RefAlarm<A> => {
  const key = checkedKey(r, at)
  const handle = r.nextHandle++ as RefAlarm<A>
  insert(r, { handle, at, key, value, version: 0 })
  return handle
}

const checkedIntervalNum = (r: ReferenceWheel<unknown>, k: number): number => {
  if (!(Number.isInteger(k) && k >= nowIntervalNum(r) && k <= maxAllowedAlarmIntervalNum(r))) {
    fail('TimeOutOfRange', `interval number ${show(k)}`)
  }
  return k
}

/**
 * `add(r, intervalNumStart(r, k), value)`; throws `TimeOutOfRange` for a `k` out of the alarm range.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * ReferenceWheel.alarmAt(r, ReferenceWheel.addAtIntervalNum(r, 3, 'x')) // 30
 */
export const addAtIntervalNum = <A>(r: ReferenceWheel<A>, k: number, value: A): RefAlarm<A> =>
  add(r, intervalNumStart(r, checkedIntervalNum(r, k)), value)

/**
 * Whether `alarm` is in the model (false for the alarm whose handler is running).
 *
 * @example
 * const a = ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.mem(r, a) // true
 * ReferenceWheel.advanceClock(r, 10, onFire)
 * ReferenceWheel.mem(r, a) // false: it fired
 */
export const mem = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>): boolean => entryOf(r, alarm) !== undefined

/**
 * Removes an alarm; throws `AlarmNotFound` unless it is in the model.
 *
 * @example
 * const a = ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.remove(r, a)
 * ReferenceWheel.mem(r, a) // false
 */
export const remove = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>): void => {
  if (!mem(r, alarm)) fail('AlarmNotFound', `alarm ${show(alarm)}`)
  r.entries = r.entries.filter((e) => e.handle !== alarm)
}

/**
 * Moves an alarm to `at`, last among its new interval; inside its own handler it puts the
 * alarm back. Throws `AlarmNotFound` or `TimeOutOfRange`, changing nothing.
 *
 * @example
 * const a = ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.reschedule(r, a, 8)
 * ReferenceWheel.alarmAt(r, a) // 8
 */
export const reschedule = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>, at: number): void => {
  const entry = readable(r, alarm)
  const key = checkedKey(r, at)
  r.entries = r.entries.filter((e) => e !== entry)
  entry.at = at
  entry.key = key
  insert(r, entry)
}

/**
 * `reschedule(r, alarm, intervalNumStart(r, k))`, checking `alarm` first, then `k`.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * const a = ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.rescheduleAtIntervalNum(r, a, 3)
 * ReferenceWheel.alarmAt(r, a) // 30
 */
export const rescheduleAtIntervalNum = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>, k: number): void => {
  readable(r, alarm)
  reschedule(r, alarm, intervalNumStart(r, checkedIntervalNum(r, k)))
}

/**
 * Removes every alarm; throws `Reentrant` from a handler.
 *
 * @example
 * ReferenceWheel.clear(r)
 * ReferenceWheel.isEmpty(r) // true
 */
export const clear = (r: ReferenceWheel<unknown>): void => {
  if (r.inHandlers) fail('Reentrant', 'clear')
  r.entries = []
}

/**
 * Every alarm in firing order: by interval, then by when it was (re)scheduled.
 *
 * @example
 * ReferenceWheel.add(r, 7, 'b')
 * ReferenceWheel.add(r, 3, 'a')
 * ReferenceWheel.toArray(r).map((a) => ReferenceWheel.alarmValue(r, a)) // ['a', 'b']
 */
export const toArray = <A>(r: ReferenceWheel<A>): ReadonlyArray<RefAlarm<A>> => r.entries.map((e) => e.handle)
/**
 * Calls `f` on every alarm in firing order; `f` may change the model.
 *
 * @example
 * ReferenceWheel.iter(r, (a) => console.log(ReferenceWheel.alarmAt(r, a), ReferenceWheel.alarmValue(r, a)))
 */
export const iter = <A>(r: ReferenceWheel<A>, f: (a: RefAlarm<A>) => void): void => {
  checkHandler('iter', f)
  toArray(r).forEach((a) => f(a))
}

/**
 * `Alarm.at`: the alarm's time; throws `AlarmNotFound` unless it is in the model or firing.
 *
 * @example
 * const a = ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.alarmAt(r, a) // 5
 */
export const alarmAt = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>): number => readable(r, alarm).at
/**
 * `Alarm.value`: the alarm's value; throws as {@link alarmAt}.
 *
 * @example
 * const a = ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.alarmValue(r, a) // 'five'
 */
export const alarmValue = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>): A => readable(r, alarm).value
/**
 * `Alarm.intervalNum`: the number of the alarm's interval; throws as {@link alarmAt}.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * ReferenceWheel.alarmIntervalNum(r, ReferenceWheel.add(r, 25, 'x')) // 2
 */
export const alarmIntervalNum = <A>(r: ReferenceWheel<A>, alarm: RefAlarm<A>): number => readable(r, alarm).key

// Firing.

/**
 * Fires, one at a time, the first entry that `due` accepts, until none does; each leaves
 * the wheel before its handler runs. Errors are kept and the first rethrown at the end.
 */
const fireWhile = <A>(r: ReferenceWheel<A>, due: (e: Entry<A>) => boolean, handle: (a: RefAlarm<A>) => void): void => {
  r.inHandlers = true
  let failed = false
  let error: unknown
  for (;;) {
    const entry = r.entries.find(due)
    if (entry === undefined) break
    r.entries = r.entries.filter((e) => e !== entry)
    r.firing = entry
    try {
      handle(entry.handle)
    } catch (e) {
      if (!failed) {
        failed = true
        error = e
      }
    }
    r.firing = undefined
  }
  r.inHandlers = false
  if (failed) throw error
}

const checkHandler = (what: string, f: unknown): void => {
  if (typeof f !== 'function') fail('InvalidArgument', `${what}: the handler is not a function`)
}

const checkClockTime = (r: ReferenceWheel<unknown>, to: number): void => {
  if (!(typeof to === 'number' && Number.isFinite(to))) fail('TimeOutOfRange', `advance to ${show(to)}`)
  if (to >= intervalNumStart(r, r.maxIntervalNum + 1)) fail('TimeOutOfRange', `advance to ${show(to)}`)
}

/**
 * Sets `now` to `to` and fires, one at a time, the first alarm in firing order whose time
 * is before `intervalStart(to)`, until there is none. No-op if `to <= now`. Throws
 * `Reentrant` from a handler, `TimeOutOfRange` for a `to` that is not finite or past the
 * representable range; rethrows the first handler error after the advance.
 *
 * @example
 * ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.advanceClock(r, 10, (a) => console.log(ReferenceWheel.alarmValue(r, a))) // five
 */
export const advanceClock = <A>(r: ReferenceWheel<A>, to: number, handleFired: (a: RefAlarm<A>) => void): void => {
  if (r.inHandlers) fail('Reentrant', 'advanceClock')
  checkClockTime(r, to)
  checkHandler('advanceClock', handleFired)
  if (!(to > r.now)) return
  r.now = to
  const bound = intervalStart(r, to)
  // Entries are in firing order, so the first due one is the next to fire.
  fireWhile(r, (e) => e.at < bound, handleFired)
}

/**
 * Fires the alarms of now's interval with `at <= now` that were there when the call began.
 *
 * @example
 * ReferenceWheel.add(r, ReferenceWheel.now(r), 'due now')
 * ReferenceWheel.firePastAlarms(r, onFire) // fires it without moving the clock
 */
export const firePastAlarms = <A>(r: ReferenceWheel<A>, handleFired: (a: RefAlarm<A>) => void): void => {
  if (r.inHandlers) fail('Reentrant', 'firePastAlarms')
  checkHandler('firePastAlarms', handleFired)
  const key = nowIntervalNum(r)
  // Only those due when the call began, and not rescheduled since. They fire before the
  // rest of their interval, so for the rest of the call they come first in firing order.
  const dueEntries = r.entries.filter((e) => e.key === key && e.at <= r.now)
  r.entries = [...dueEntries, ...r.entries.filter((e) => !dueEntries.includes(e))]
  const due = new Map(dueEntries.map((e) => [e, e.version] as const))
  fireWhile(r, (e) => due.get(e) === e.version && due.delete(e), handleFired)
}

const minEntries = <A>(r: ReferenceWheel<A>): Array<Entry<A>> => {
  const first = r.entries[0]
  return first === undefined ? [] : r.entries.filter((e) => e.key === first.key)
}

/**
 * The interval number of the earliest alarm.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * ReferenceWheel.add(r, 25, 'x')
 * ReferenceWheel.minAlarmIntervalNum(r) // O.some(2)
 */
export const minAlarmIntervalNum = (r: ReferenceWheel<unknown>): O.Option<number> =>
  O.fromNullable(r.entries[0]?.key)

/**
 * The least alarm time in the earliest interval that has alarms.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * ReferenceWheel.add(r, 27, 'b')
 * ReferenceWheel.add(r, 25, 'a')
 * ReferenceWheel.minAlarmTimeInMinInterval(r) // O.some(25)
 */
export const minAlarmTimeInMinInterval = (r: ReferenceWheel<unknown>): O.Option<number> => {
  const es = minEntries(r)
  return es.length === 0 ? O.none : O.some(Math.min(...es.map((e) => e.at)))
}

/**
 * The greatest alarm time in the earliest interval that has alarms.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * ReferenceWheel.add(r, 27, 'b')
 * ReferenceWheel.add(r, 25, 'a')
 * ReferenceWheel.maxAlarmTimeInMinInterval(r) // O.some(27)
 */
export const maxAlarmTimeInMinInterval = (r: ReferenceWheel<unknown>): O.Option<number> => {
  const es = minEntries(r)
  return es.length === 0 ? O.none : O.some(Math.max(...es.map((e) => e.at)))
}

/**
 * The start of the interval after the earliest alarm's; none in the last representable interval.
 *
 * @example
 * const r = ReferenceWheel.create<string>({ alarmPrecision: 10 })
 * ReferenceWheel.add(r, 25, 'x')
 * ReferenceWheel.nextAlarmFiresAt(r) // O.some(30)
 */
export const nextAlarmFiresAt = (r: ReferenceWheel<unknown>): O.Option<number> => {
  const first = r.entries[0]
  return first === undefined || first.key >= r.maxIntervalNum ? O.none : O.some(intervalNumStart(r, first.key + 1))
}

/**
 * Advances to `min(to, m)` for `m` the least alarm time and, if it reached `m`, fires the past alarms.
 *
 * @example
 * ReferenceWheel.add(r, 5, 'five')
 * ReferenceWheel.advanceClockStopAtNextAlarm(r, 100, onFire)
 * ReferenceWheel.now(r) // 5
 */
export const advanceClockStopAtNextAlarm = <A>(
  r: ReferenceWheel<A>,
  to: number,
  handleFired: (a: RefAlarm<A>) => void,
): void => {
  if (r.inHandlers) fail('Reentrant', 'advanceClockStopAtNextAlarm')
  checkClockTime(r, to)
  checkHandler('advanceClockStopAtNextAlarm', handleFired)
  const min = minAlarmTimeInMinInterval(r)
  if (O.isNone(min) || to < min.value) return advanceClock(r, to, handleFired)
  advanceClock(r, min.value, handleFired)
  firePastAlarms(r, handleFired)
}

const exn =
  (name: string, f: (r: ReferenceWheel<unknown>) => O.Option<number>) =>
  (r: ReferenceWheel<unknown>): number => {
    const value = f(r)
    if (O.isSome(value)) return value.value
    return r.entries.length === 0
      ? fail('Empty', `${name} of a reference wheel with no alarms`)
      : fail('TimeOutOfRange', `${name}: every alarm is in the last representable interval`)
  }

/**
 * {@link minAlarmIntervalNum}, throwing `Empty` instead of returning none.
 *
 * @example
 * ReferenceWheel.minAlarmIntervalNumExn(ReferenceWheel.create({ alarmPrecision: 1 })) // throws Empty
 */
export const minAlarmIntervalNumExn = exn('minAlarmIntervalNumExn', minAlarmIntervalNum)
/**
 * {@link minAlarmTimeInMinInterval}, throwing `Empty` instead of returning none.
 *
 * @example
 * ReferenceWheel.add(r, 25, 'a')
 * ReferenceWheel.minAlarmTimeInMinIntervalExn(r) // 25 when no alarm is earlier
 */
export const minAlarmTimeInMinIntervalExn = exn('minAlarmTimeInMinIntervalExn', minAlarmTimeInMinInterval)
/**
 * {@link maxAlarmTimeInMinInterval}, throwing `Empty` instead of returning none.
 *
 * @example
 * ReferenceWheel.add(r, 27, 'b')
 * ReferenceWheel.maxAlarmTimeInMinIntervalExn(r) // 27 when no other alarm is in its interval or earlier
 */
export const maxAlarmTimeInMinIntervalExn = exn('maxAlarmTimeInMinIntervalExn', maxAlarmTimeInMinInterval)
/**
 * {@link nextAlarmFiresAt}, throwing `Empty`, or `TimeOutOfRange` if every alarm is in the last interval.
 *
 * @example
 * ReferenceWheel.nextAlarmFiresAtExn(ReferenceWheel.create({ alarmPrecision: 1 })) // throws Empty
 */
export const nextAlarmFiresAtExn = exn('nextAlarmFiresAtExn', nextAlarmFiresAt)
