/**
 * The contract's guarantees, checked on a live wheel, for property tests.
 *
 * Some guarantees are about the state between calls (never late, handles consistent,
 * stale handles dead): {@link checkGuarantees} checks those. Others are only visible while
 * an advance runs (never early, order, what handlers see): {@link checkedAdvance} and its
 * two siblings watch every firing and then call `checkGuarantees`. Each failure throws a
 * {@link GuaranteeViolation} that names the guarantee and the alarm.
 *
 * What no check here can see is whether the firing order within an interval is the order
 * of adding: a wheel's handles do not record when they were added. These checks hold the
 * wheel to the order its `toArray` reports; comparing with `ReferenceWheel` (see
 * `runCommands`) checks that order against the calls made.
 *
 * @module
 */
import * as N from '#fp-ts/number.js'
import * as O from '#fp-ts/Option.js'
import { TimingWheelError, show } from '../errors.js'
import * as Alarm from '../alarm/index.js'
import { isFiring } from '../priority-queue/internal.js'
import * as TimingWheel from '../timing-wheel/index.js'

/**
 * The guarantee a {@link GuaranteeViolation} is about: the five numbered in the contract
 * (`never early` 1, `never late` 2, `order` 3, `handlers` 4, `handles never alias` 5), and
 * three more: `handles consistent` (`toArray`, `length`, `mem` and `Alarm.*` agree),
 * `next alarm` (`nextAlarmFiresAt` and the `min...` functions agree with the alarms) and
 * `invariant` (`TimingWheel.invariant` passes, every alarm is below `alarmUpperBound`).
 *
 * @example
 * try {
 *   checkGuarantees(t)
 * } catch (e) {
 *   if (e instanceof GuaranteeViolation) console.log(e.guarantee satisfies Guarantee) // e.g. 'never late'
 * }
 */
export type Guarantee =
  | 'never early'
  | 'never late'
  | 'order'
  | 'handlers'
  | 'handles never alias'
  | 'handles consistent'
  | 'next alarm'
  | 'invariant'

const numbers: Partial<Record<Guarantee, number>> = {
  'never early': 1,
  'never late': 2,
  order: 3,
  handlers: 4,
  'handles never alias': 5,
}

/**
 * Thrown by the checks of this module: `guarantee` names what broke, and the message
 * names it, the alarm (handle, time and value) and what was seen, e.g.
 * `never late (Guarantee 2) broken for alarm 3 (at 5, value "x"): ...`.
 *
 * @example
 * try {
 *   checkedAdvance(t, 100, onFire)
 * } catch (e) {
 *   if (e instanceof GuaranteeViolation) console.log(e.guarantee, e.message) // never late (Guarantee 2) broken for ...
 * }
 */
export class GuaranteeViolation extends Error {
  /** Which guarantee broke. */
  readonly guarantee: Guarantee

  /** Makes the error; the message is used as given. */
  constructor(guarantee: Guarantee, message: string) {
    super(message)
    this.name = 'GuaranteeViolation'
    this.guarantee = guarantee
  }
}

const title = (g: Guarantee): string => (numbers[g] === undefined ? g : `${g} (Guarantee ${numbers[g]})`)

const broken = (g: Guarantee, subject: string, detail: string): never => {
  throw new GuaranteeViolation(g, `${title(g)} broken for ${subject}: ${detail}`)
}

/** An alarm for a message; a handle the wheel refuses to read is named by its number alone. */
const describe = <A>(t: TimingWheel.TimingWheel<A>, a: TimingWheel.Alarm<A>): string => {
  try {
    return `alarm ${a} (at ${show(Alarm.at(t, a))}, value ${show(Alarm.value(t, a))})`
  } catch {
    return `alarm ${a}`
  }
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** `f()`, or a violation of `g` that quotes what `f` threw. */
const reading = <T>(g: Guarantee, subject: string, what: string, f: () => T): T => {
  try {
    return f()
  } catch (e) {
    return broken(g, subject, `${what} threw ${errorMessage(e)}`)
  }
}

// Between calls.

const checkCounts = <A>(t: TimingWheel.TimingWheel<A>, alarms: ReadonlyArray<TimingWheel.Alarm<A>>): void => {
  const n = TimingWheel.length(t)
  if (n !== alarms.length) {
    broken('handles consistent', 'the wheel', `length is ${n} but toArray lists ${alarms.length} alarms`)
  }
  if (TimingWheel.isEmpty(t) !== (n === 0)) broken('handles consistent', 'the wheel', `isEmpty disagrees with length ${n}`)
  if (new Set(alarms).size !== n) broken('handles consistent', 'the wheel', 'toArray lists an alarm twice')
}

const checkHandle = <A>(t: TimingWheel.TimingWheel<A>, a: TimingWheel.Alarm<A>): void => {
  const subject = describe(t, a)
  if (!TimingWheel.mem(t, a)) broken('handles consistent', subject, 'toArray lists it but mem is false')
  const at = reading('handles consistent', subject, 'Alarm.at', () => Alarm.at(t, a))
  reading('handles consistent', subject, 'Alarm.value', () => Alarm.value(t, a))
  const k = reading('handles consistent', subject, 'Alarm.intervalNum', () => Alarm.intervalNum(t, a))
  const expected = reading('invariant', subject, `intervalNum(${at})`, () => TimingWheel.intervalNum(t, at))
  if (k !== expected) {
    broken('handles consistent', subject, `Alarm.intervalNum is ${k}, but its time is in interval ${expected}`)
  }
}

const checkNeverLate = <A>(t: TimingWheel.TimingWheel<A>, a: TimingWheel.Alarm<A>): void => {
  const at = Alarm.at(t, a)
  const nowStart = TimingWheel.intervalStart(t, TimingWheel.now(t))
  const atStart = TimingWheel.intervalStart(t, at)
  if (!(atStart >= nowStart)) {
    broken(
      'never late',
      describe(t, a),
      `its interval starts at ${atStart}, before the interval of now ${TimingWheel.now(t)} (at ${nowStart}); ` +
        'it should have fired',
    )
  }
  const upper = TimingWheel.alarmUpperBound(t)
  if (!(at < upper)) broken('invariant', describe(t, a), `its time is not below alarmUpperBound ${upper}`)
}

const checkListedOrder = <A>(t: TimingWheel.TimingWheel<A>, alarms: ReadonlyArray<TimingWheel.Alarm<A>>): void => {
  alarms.forEach((a, i) => {
    const previous = alarms[i - 1]
    if (previous !== undefined && Alarm.intervalNum(t, a) < Alarm.intervalNum(t, previous)) {
      const after = describe(t, previous)
      broken('order', describe(t, a), `toArray (the firing order) lists it after ${after}, of a later interval`)
    }
  })
}

const showOption = (o: O.Option<number>): string => (O.isSome(o) ? `some(${o.value})` : 'none')

const sameOption = O.getEq(N.Eq).equals

/** `option` must be what the wheel says, and its `...Exn` twin must return it or throw a `TimingWheelError`. */
const checkQuery = (
  subject: string,
  name: string,
  expected: O.Option<number>,
  actual: O.Option<number>,
  exn: () => number,
): void => {
  const wanted = showOption(expected)
  if (!sameOption(expected, actual)) broken('next alarm', subject, `${name} is ${showOption(actual)}, expected ${wanted}`)
  let value: number
  try {
    value = exn()
  } catch (e) {
    if (O.isNone(expected) && e instanceof TimingWheelError) return
    return broken('next alarm', subject, `${name}Exn threw ${errorMessage(e)}, expected ${wanted}`)
  }
  if (!(O.isSome(expected) && value === expected.value)) {
    broken('next alarm', subject, `${name}Exn returned ${value}, expected ${wanted}`)
  }
}

const checkNextAlarm = <A>(t: TimingWheel.TimingWheel<A>, alarms: ReadonlyArray<TimingWheel.Alarm<A>>): void => {
  const first = alarms[0]
  const subject = first === undefined ? 'the empty wheel' : `its earliest alarm, ${describe(t, first)}`
  const minK = first === undefined ? O.none : O.some(Alarm.intervalNum(t, first))
  const timesInMin = alarms
    .filter((a) => O.isSome(minK) && Alarm.intervalNum(t, a) === minK.value)
    .map((a) => Alarm.at(t, a))
  const next = O.flatMap(minK, (k) =>
    k < TimingWheel.maxIntervalNum(t) ? O.some(TimingWheel.intervalNumStart(t, k + 1)) : O.none,
  )
  const least = timesInMin.length === 0 ? O.none : O.some(Math.min(...timesInMin))
  const most = timesInMin.length === 0 ? O.none : O.some(Math.max(...timesInMin))
  checkQuery(subject, 'minAlarmIntervalNum', minK, TimingWheel.minAlarmIntervalNum(t), () =>
    TimingWheel.minAlarmIntervalNumExn(t),
  )
  checkQuery(subject, 'minAlarmTimeInMinInterval', least, TimingWheel.minAlarmTimeInMinInterval(t), () =>
    TimingWheel.minAlarmTimeInMinIntervalExn(t),
  )
  checkQuery(subject, 'maxAlarmTimeInMinInterval', most, TimingWheel.maxAlarmTimeInMinInterval(t), () =>
    TimingWheel.maxAlarmTimeInMinIntervalExn(t),
  )
  checkQuery(subject, 'nextAlarmFiresAt', next, TimingWheel.nextAlarmFiresAt(t), () => TimingWheel.nextAlarmFiresAtExn(t))
}

const checkStale = <A>(t: TimingWheel.TimingWheel<A>, a: TimingWheel.Alarm<A>): void => {
  if (TimingWheel.mem(t, a)) broken('handles never alias', `alarm ${a}`, 'it was removed or fired, yet mem is true')
  try {
    Alarm.at(t, a)
  } catch (e) {
    if (e instanceof TimingWheelError && e.code === 'AlarmNotFound') return
    broken('handles never alias', `alarm ${a}`, `Alarm.at threw ${errorMessage(e)}, not AlarmNotFound`)
  }
  broken('handles never alias', `alarm ${a}`, 'it was removed or fired, yet Alarm.at reads it')
}

const checkInvariant = (t: TimingWheel.TimingWheel<unknown>): void => {
  reading('invariant', 'the wheel', 'TimingWheel.invariant', () => TimingWheel.invariant(t))
}

/**
 * Options of {@link checkGuarantees}.
 *
 * @example
 * const fired: TimingWheel.Alarm<string>[] = []
 * TimingWheel.advanceClock(t, 100, (a) => fired.push(a))
 * const options: CheckOptions<string> = { stale: fired }
 * checkGuarantees(t, options) // each fired handle stays dead
 */
export interface CheckOptions<A> {
  /** Handles that were removed or fired: each must stay dead (Guarantee 5). */
  readonly stale?: Iterable<TimingWheel.Alarm<A>>
}

/**
 * Checks, on a wheel between calls, every guarantee that the state can show, and throws
 * a {@link GuaranteeViolation} naming the first one broken and its alarm:
 *
 * - Guarantee 2, never late: every alarm's interval is not before now's;
 * - handles consistent: `toArray` lists each alarm once, `length` and `isEmpty` agree,
 *   each listed alarm is `mem` and readable with `Alarm.*`, its `intervalNum` is its time's;
 * - Guarantee 3 as far as a snapshot shows it: `toArray`, the firing order, is in
 *   non-decreasing interval order;
 * - next alarm: `minAlarmIntervalNum`, `min`/`maxAlarmTimeInMinInterval`,
 *   `nextAlarmFiresAt` and their `...Exn` twins agree with the alarms;
 * - Guarantee 5, handles never alias: each of `opts.stale` (and `Alarm.null()`) is not
 *   `mem` and `Alarm.at` refuses it with `AlarmNotFound`;
 * - invariant: every alarm is below `alarmUpperBound` and `TimingWheel.invariant` passes.
 *
 * Guarantees 1, 3 and 4 show only during an advance: use {@link checkedAdvance}.
 *
 * Throws a plain `Error` if called from inside a handler, where alarms may be due and
 * unfired. Cost: linear in the alarms and the stale handles, plus `invariant`'s.
 *
 * @example
 * TimingWheel.advanceClock(t, 100, onFire)
 * checkGuarantees(t, { stale: firedOrRemoved })
 */
export const checkGuarantees = <A>(t: TimingWheel.TimingWheel<A>, opts: CheckOptions<A> = {}): void => {
  if (isFiring(t.queue)) {
    throw new Error('checkGuarantees was called from inside a handler; call it after the advance returns')
  }
  const alarms = TimingWheel.toArray(t)
  checkCounts(t, alarms)
  for (const a of alarms) checkHandle(t, a)
  for (const a of alarms) checkNeverLate(t, a)
  checkListedOrder(t, alarms)
  checkNextAlarm(t, alarms)
  for (const a of [Alarm.null<A>(), ...(opts.stale ?? [])]) checkStale(t, a)
  checkInvariant(t)
}

// During an advance.

/** What one kind of call promises about the alarms it fires. */
interface Firing {
  readonly what: string
  /** `now` during the handlers and after the call. */
  readonly nowAfter: number
  /** Why an alarm at `at` should not fire in this call, if it should not. */
  readonly early: (at: number) => string | undefined
}

interface Watch<A> {
  readonly t: TimingWheel.TimingWheel<A>
  readonly firing: Firing
  /** Position in firing order when the call began: fixes the order within an interval. */
  readonly position: ReadonlyMap<TimingWheel.Alarm<A>, number>
  readonly fired: Set<TimingWheel.Alarm<A>>
  last: { readonly k: number; readonly position: number; readonly description: string } | undefined
  violation: GuaranteeViolation | undefined
}

const checkFired = <A>(w: Watch<A>, a: TimingWheel.Alarm<A>): void => {
  const { t, firing } = w
  const subject = describe(t, a)
  const at = reading('handlers', subject, `Alarm.at inside its handler during ${firing.what}`, () => Alarm.at(t, a))
  const position = w.position.get(a)
  if (position === undefined) {
    broken('handlers', subject, `it fired in ${firing.what} but was not in the wheel when the call began`)
  }
  if (w.fired.has(a)) broken('handlers', subject, `it fired twice in ${firing.what}`)
  w.fired.add(a)
  if (TimingWheel.mem(t, a)) broken('handlers', subject, 'mem is true inside its own handler')
  const now = TimingWheel.now(t)
  if (now !== firing.nowAfter) {
    broken('handlers', subject, `now is ${now} inside its handler during ${firing.what}, not ${firing.nowAfter}`)
  }
  const early = firing.early(at)
  if (early !== undefined) broken('never early', subject, `it fired in ${firing.what}, but ${early}`)
  const k = TimingWheel.intervalNum(t, at)
  const last = w.last
  if (last !== undefined && (k < last.k || (k === last.k && position! < last.position))) {
    broken('order', subject, `it fired in ${firing.what} after ${last.description}, ` +
      (k < last.k ? 'of a later interval' : 'which came after it in firing order'))
  }
  w.last = { k, position: position!, description: subject }
}

const violationOf = (f: () => void): GuaranteeViolation | undefined => {
  try {
    f()
    return undefined
  } catch (e) {
    if (e instanceof GuaranteeViolation) return e
    throw e
  }
}

/**
 * Runs `call` with a handler that checks each firing before passing it on to
 * `handleFired`; then checks `now` and {@link checkGuarantees}. A violation seen inside a
 * handler is kept and thrown after the call returns: thrown there, the wheel would
 * finish the advance and might rethrow an earlier handler error instead.
 */
const watchFiring = <A>(
  t: TimingWheel.TimingWheel<A>,
  handleFired: (a: TimingWheel.Alarm<A>) => void,
  firing: () => Firing,
  call: (h: (a: TimingWheel.Alarm<A>) => void) => void,
): void => {
  if (isFiring(t.queue)) return call(handleFired) // reentrant: the wheel refuses it, nothing to watch
  const nowBefore = TimingWheel.now(t)
  const w: Watch<A> = {
    t,
    firing: firing(),
    position: new Map(TimingWheel.toArray(t).map((a, i) => [a, i])),
    fired: new Set(),
    last: undefined,
    violation: undefined,
  }
  let failure: { readonly error: unknown } | undefined
  try {
    call((a) => {
      w.violation ??= violationOf(() => checkFired(w, a))
      handleFired(a)
    })
  } catch (error) {
    failure = { error }
  }
  if (w.violation !== undefined) throw w.violation
  // With no handler run, an error is the wheel refusing the call, which must change nothing.
  const refused = failure !== undefined && w.fired.size === 0 && failure.error instanceof TimingWheelError
  const expected = refused ? nowBefore : w.firing.nowAfter
  const now = TimingWheel.now(t)
  if (now !== expected) broken('handlers', 'the wheel', `now is ${now} after ${w.firing.what}, expected ${expected}`)
  checkGuarantees(t)
  if (failure !== undefined) throw failure.error
}

/**
 * `TimingWheel.advanceClock(t, to, handleFired)`, checked. For each alarm it fires:
 * Guarantee 1, never early (`at < to` and `at < intervalStart(to)`); Guarantee 3, order
 * (non-decreasing intervals, and within one the order `toArray` listed them when the call
 * began); Guarantee 4, handlers (the alarm was in the wheel when the call began, fires
 * once, is not `mem` but readable inside its handler, and `now` is `to` there). After
 * the call: `now` is `max(now, to)` even if a handler threw, and {@link checkGuarantees}.
 *
 * Throws the first {@link GuaranteeViolation}, else whatever the advance threw. Called from
 * a handler it just calls the wheel, which throws `Reentrant`. Cost: the advance's, plus
 * `checkGuarantees`'s and a constant per alarm in the wheel.
 *
 * @example
 * checkedAdvance(t, 100, (a) => log.push(Alarm.value(t, a)))
 */
export const checkedAdvance = <A>(
  t: TimingWheel.TimingWheel<A>,
  to: number,
  handleFired: (a: TimingWheel.Alarm<A>) => void,
): void =>
  watchFiring(
    t,
    handleFired,
    () => ({
      what: `advanceClock to ${show(to)}`,
      nowAfter: Math.max(TimingWheel.now(t), to),
      early: (at) => {
        if (!(at < to)) return `${at} is not before ${to}`
        const start = TimingWheel.intervalStart(t, to)
        return at < start ? undefined : `${at} is in the interval of ${to}, which starts at ${start} and is not over`
      },
    }),
    (h) => TimingWheel.advanceClock(t, to, h),
  )

/**
 * `TimingWheel.advanceClockStopAtNextAlarm(t, to, handleFired)`, checked as
 * {@link checkedAdvance} is, except that the new `now` is `min(to, m)` for `m` the least
 * alarm time (never moving back), and never early means `at <= now`.
 *
 * @example
 * checkedAdvanceStopAtNextAlarm(t, 1000, onFire) // stops at the first alarm's time
 */
export const checkedAdvanceStopAtNextAlarm = <A>(
  t: TimingWheel.TimingWheel<A>,
  to: number,
  handleFired: (a: TimingWheel.Alarm<A>) => void,
): void =>
  watchFiring(
    t,
    handleFired,
    () => {
      const least = TimingWheel.minAlarmTimeInMinInterval(t)
      const target = O.isSome(least) && to >= least.value ? least.value : to
      const nowAfter = Math.max(TimingWheel.now(t), target)
      return {
        what: `advanceClockStopAtNextAlarm to ${show(to)}`,
        nowAfter,
        early: (at) => (at <= nowAfter ? undefined : `${at} is after the new now ${nowAfter}`),
      }
    },
    (h) => TimingWheel.advanceClockStopAtNextAlarm(t, to, h),
  )

/**
 * `TimingWheel.firePastAlarms(t, handleFired)`, checked as {@link checkedAdvance} is,
 * except that `now` does not move and never early means `at <= now`.
 *
 * @example
 * checkedFirePastAlarms(t, onFire)
 */
export const checkedFirePastAlarms = <A>(
  t: TimingWheel.TimingWheel<A>,
  handleFired: (a: TimingWheel.Alarm<A>) => void,
): void =>
  watchFiring(
    t,
    handleFired,
    () => {
      const now = TimingWheel.now(t)
      return {
        what: 'firePastAlarms',
        nowAfter: now,
        early: (at) => (at <= now ? undefined : `${at} is after now ${now}`),
      }
    },
    (h) => TimingWheel.firePastAlarms(t, h),
  )
