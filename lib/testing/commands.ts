/**
 * Commands on a timing wheel as plain data, and one interpreter that runs them on any
 * structure that behaves like a wheel.
 *
 * A command names its times relative to the wheel it runs on ("the start of the third
 * interval after now's", "the double just below `alarmUpperBound`") and its alarms by
 * position ("the second alarm in firing order"), not as absolute numbers and handles:
 * absolute times drawn before the configuration is known would nearly all be out of
 * range, and handles do not exist until the commands run. So one command list runs
 * unchanged on `TimingWheel`, on `ReferenceWheel`, or on a user's structure, prints
 * readably in a counterexample, and shrinks with fast-check's array shrinking; and two
 * runs can be compared step by step with `toEqual`.
 *
 * @module
 */
import * as O from '#fp-ts/Option.js'
import { TimingWheelError } from '../errors.js'
import * as Alarm from '../alarm/index.js'
import * as TimingWheel from '../timing-wheel/index.js'
import {
  checkGuarantees,
  checkedAdvance,
  checkedAdvanceStopAtNextAlarm,
  checkedFirePastAlarms,
} from './check-guarantees.js'
import { nextDown, nudge } from './float.js'
import * as ReferenceWheel from './reference-wheel.js'

// Commands.

/**
 * Move a time to the double just below it (-1), keep it (0), or to the double just above (1).
 *
 * @example
 * const justBelowNow: TimeChoice = { kind: 'now', nudge: -1 satisfies Nudge }
 */
export type Nudge = -1 | 0 | 1

/**
 * A time, relative to the state of the wheel when the command runs: `k` below is the
 * number of now's interval and `maxK` the greatest interval an alarm may have now.
 * Intervals past `maxK` are clamped to it, so the `intervalStart` and `withinInterval`
 * choices stay valid alarm times unless nudged below now's interval.
 *
 * @example
 * const nextInterval: TimeChoice = { kind: 'intervalStart', ahead: 1, nudge: 0 }
 * const add: Command = { kind: 'add', at: nextInterval }
 */
export type TimeChoice =
  | {
      /** The start of interval `k + ahead`, or the double next to it; before now's interval, invalid for an alarm. */
      readonly kind: 'intervalStart'
      /** How many intervals after now's; negative is in the past. */
      readonly ahead: number
      /** Which double: the start itself or its neighbour. */
      readonly nudge: Nudge
    }
  | {
      /** A point inside interval `k + ahead`, short of its end. */
      readonly kind: 'withinInterval'
      /** How many intervals after now's. */
      readonly ahead: number
      /** How far through the interval, in `[0, 1)`. */
      readonly fraction: number
    }
  | {
      /** The start of interval `k + floor((maxK - k) * fraction)`: anywhere, up at the highest levels. */
      readonly kind: 'inAlarmRange'
      /** How far through the alarm range, in `[0, 1)`. */
      readonly fraction: number
    }
  | {
      /** `now`, or a double next to it; just below may be in the previous interval. */
      readonly kind: 'now'
      /** Which double. */
      readonly nudge: Nudge
    }
  | {
      /** `alarmUpperBound`, or a double next to it; only the one below is a valid alarm time. */
      readonly kind: 'alarmUpperBound'
      /** Which double. */
      readonly nudge: Nudge
    }
  | {
      /**
       * The start of an interval between now's and the last that doubles keep apart: a
       * valid clock time, mostly too far for an alarm.
       */
      readonly kind: 'far'
      /** How far, in `[0, 1]`. */
      readonly fraction: number
    }
  | {
      /** A time that is never valid. */
      readonly kind: 'notFinite'
      /** NaN, `Infinity` or `-Infinity`. */
      readonly value: number
    }

/**
 * An alarm, by position, or a command whose pick finds no alarm is skipped.
 *
 * @example
 * const first: AlarmChoice = { kind: 'live', index: 0 }
 * const remove: Command = { kind: 'remove', alarm: first }
 */
export type AlarmChoice =
  | {
      /** One of the alarms in the wheel. */
      readonly kind: 'live'
      /** Which one, modulo their number, in firing order. */
      readonly index: number
    }
  | {
      /**
       * One of the alarms this run added that are gone (removed or fired): every function
       * must refuse it with `AlarmNotFound`.
       */
      readonly kind: 'stale'
      /** Which one, modulo their number, in the order they were added. */
      readonly index: number
    }

/**
 * What a handler does when its alarm fires. In one advance the `n`-th handler to run does
 * action `n` modulo the list's length.
 *
 * @example
 * const handlers: HandlerAction[] = [{ kind: 'rescheduleSelf', at: { kind: 'intervalStart', ahead: 2, nudge: 0 } }, { kind: 'none' }]
 * const advance: Command = { kind: 'advanceClock', to: { kind: 'intervalStart', ahead: 3, nudge: 0 }, handlers }
 */
export type HandlerAction =
  | {
      /** Nothing. */
      readonly kind: 'none'
    }
  | {
      /** Add an alarm (it fires in a later call, never in this one). */
      readonly kind: 'add'
      /** When. */
      readonly at: TimeChoice
    }
  | {
      /** Remove another alarm; it must not fire in this call. */
      readonly kind: 'remove'
      /** Which, among the alarms in the wheel, in firing order. */
      readonly index: number
    }
  | {
      /** Reschedule another alarm; it must not fire in this call. */
      readonly kind: 'reschedule'
      /** Which, among the alarms in the wheel, in firing order. */
      readonly index: number
      /** To when. */
      readonly at: TimeChoice
    }
  | {
      /** Reschedule the firing alarm: a periodic alarm, back in the wheel under the same handle. */
      readonly kind: 'rescheduleSelf'
      /** To when. */
      readonly at: TimeChoice
    }
  | {
      /** Throw an `Error`: the advance must still complete, then rethrow it. */
      readonly kind: 'throw'
    }
  | {
      /** Call `advanceClock` from the handler, which must throw `Reentrant`. */
      readonly kind: 'reenter'
    }

/**
 * One call on the wheel. `add` gives each new alarm the next number of the run (0, 1,
 * 2, ...) as its value, so a trace names alarms by value.
 *
 * @example
 * const commands: Command[] = [
 *   { kind: 'add', at: { kind: 'intervalStart', ahead: 1, nudge: 0 } },
 *   { kind: 'advanceClock', to: { kind: 'intervalStart', ahead: 2, nudge: 0 }, handlers: [] },
 * ]
 * runCommands(timingWheelOps, TimingWheel.create<number>({ alarmPrecision: 1 }), commands)[1]!.fired // [0]
 */
export type Command =
  | {
      /** `add(t, at, value)`. */
      readonly kind: 'add'
      /** The alarm's time. */
      readonly at: TimeChoice
    }
  | {
      /** `remove(t, alarm)`. */
      readonly kind: 'remove'
      /** Which alarm. */
      readonly alarm: AlarmChoice
    }
  | {
      /** `reschedule(t, alarm, at)`. */
      readonly kind: 'reschedule'
      /** Which alarm. */
      readonly alarm: AlarmChoice
      /** Its new time. */
      readonly at: TimeChoice
    }
  | {
      /** `advanceClock(t, to, handleFired)`. */
      readonly kind: 'advanceClock'
      /** Where the clock goes; not after now is a no-op. */
      readonly to: TimeChoice
      /** What the handlers do, in turn. */
      readonly handlers: readonly HandlerAction[]
    }
  | {
      /** `advanceClockStopAtNextAlarm(t, to, handleFired)`. */
      readonly kind: 'advanceClockStopAtNextAlarm'
      /** How far the clock may go. */
      readonly to: TimeChoice
      /** What the handlers do, in turn. */
      readonly handlers: readonly HandlerAction[]
    }
  | {
      /** `firePastAlarms(t, handleFired)`. */
      readonly kind: 'firePastAlarms'
      /** What the handlers do, in turn. */
      readonly handlers: readonly HandlerAction[]
    }

/**
 * The kind of a {@link Command}.
 *
 * @example
 * const kinds: CommandKind[] = ['add', 'remove', 'advanceClock']
 * commandsArb({ kinds })
 */
export type CommandKind = Command['kind']

// What the commands need of a wheel.

/**
 * The functions {@link runCommands} calls, over a wheel `W` with alarm handles `H` and
 * number values. {@link timingWheelOps} and {@link referenceWheelOps} are the two built
 * in; write one for your own structure to run the same commands on it (see the
 * lease-table example). Each function means what the `TimingWheel` function of the same
 * name (or `Alarm.at`, `Alarm.value`) means, and throws the same `TimingWheelError`s.
 *
 * @example
 * const ops: WheelOps<TimingWheel.TimingWheel<number>, TimingWheel.Alarm<number>> = {
 *   ...timingWheelOps,
 *   advanceClock: (t, to, onFire) => TimingWheel.advanceClock(t, to, onFire), // wrap a call to trace it
 * }
 */
export interface WheelOps<W, H> {
  /** `TimingWheel.now`. */
  readonly now: (t: W) => number
  /** `TimingWheel.nowIntervalNum`. */
  readonly nowIntervalNum: (t: W) => number
  /** `TimingWheel.maxAllowedAlarmIntervalNum`. */
  readonly maxAllowedAlarmIntervalNum: (t: W) => number
  /** `TimingWheel.maxIntervalNum`. */
  readonly maxIntervalNum: (t: W) => number
  /** `TimingWheel.intervalNumStart`; called only with `k` in `[0, maxIntervalNum]`. */
  readonly intervalNumStart: (t: W, k: number) => number
  /** `TimingWheel.alarmUpperBound`. */
  readonly alarmUpperBound: (t: W) => number
  /** `TimingWheel.nextAlarmFiresAt`. */
  readonly nextAlarmFiresAt: (t: W) => O.Option<number>
  /** `TimingWheel.toArray`: the alarms in firing order. */
  readonly toArray: (t: W) => ReadonlyArray<H>
  /** `TimingWheel.mem`. */
  readonly mem: (t: W, alarm: H) => boolean
  /** `Alarm.at`. */
  readonly alarmAt: (t: W, alarm: H) => number
  /** `Alarm.value`. */
  readonly alarmValue: (t: W, alarm: H) => number
  /** `TimingWheel.add`. */
  readonly add: (t: W, at: number, value: number) => H
  /** `TimingWheel.remove`. */
  readonly remove: (t: W, alarm: H) => void
  /** `TimingWheel.reschedule`. */
  readonly reschedule: (t: W, alarm: H, at: number) => void
  /** `TimingWheel.advanceClock`. */
  readonly advanceClock: (t: W, to: number, handleFired: (alarm: H) => void) => void
  /** `TimingWheel.advanceClockStopAtNextAlarm`. */
  readonly advanceClockStopAtNextAlarm: (t: W, to: number, handleFired: (alarm: H) => void) => void
  /** `TimingWheel.firePastAlarms`. */
  readonly firePastAlarms: (t: W, handleFired: (alarm: H) => void) => void
  /**
   * Called after every command with the alarms of the run that are no longer in the
   * wheel; a place for checks such as `checkGuarantees`. A throw ends the run.
   */
  readonly afterCommand?: (t: W, stale: ReadonlyArray<H>) => void
}

/**
 * {@link WheelOps} for a `TimingWheel<number>`: the package's functions, unchecked.
 *
 * @example
 * const trace = runCommands(timingWheelOps, TimingWheel.create<number>(config), commands)
 */
export const timingWheelOps: WheelOps<TimingWheel.TimingWheel<number>, TimingWheel.Alarm<number>> = {
  now: TimingWheel.now,
  nowIntervalNum: TimingWheel.nowIntervalNum,
  maxAllowedAlarmIntervalNum: TimingWheel.maxAllowedAlarmIntervalNum,
  maxIntervalNum: TimingWheel.maxIntervalNum,
  intervalNumStart: TimingWheel.intervalNumStart,
  alarmUpperBound: TimingWheel.alarmUpperBound,
  nextAlarmFiresAt: TimingWheel.nextAlarmFiresAt,
  toArray: TimingWheel.toArray,
  mem: TimingWheel.mem,
  alarmAt: Alarm.at,
  alarmValue: Alarm.value,
  add: TimingWheel.add,
  remove: TimingWheel.remove,
  reschedule: TimingWheel.reschedule,
  advanceClock: TimingWheel.advanceClock,
  advanceClockStopAtNextAlarm: TimingWheel.advanceClockStopAtNextAlarm,
  firePastAlarms: TimingWheel.firePastAlarms,
}

/**
 * {@link timingWheelOps} with every guarantee checked: the advances are
 * `checkedAdvance`, `checkedAdvanceStopAtNextAlarm` and `checkedFirePastAlarms`, and after
 * each command `checkGuarantees(t, { stale })` runs on the alarms the run added that are
 * gone. A broken guarantee ends the run with a `GuaranteeViolation`.
 *
 * @example
 * runCommands(checkedTimingWheelOps, TimingWheel.create<number>(config), commands)
 */
export const checkedTimingWheelOps: WheelOps<TimingWheel.TimingWheel<number>, TimingWheel.Alarm<number>> = {
  ...timingWheelOps,
  advanceClock: checkedAdvance,
  advanceClockStopAtNextAlarm: checkedAdvanceStopAtNextAlarm,
  firePastAlarms: checkedFirePastAlarms,
  afterCommand: (t, stale) => checkGuarantees(t, { stale }),
}

/**
 * {@link WheelOps} for a `ReferenceWheel<number>`: the model to compare a run against.
 *
 * @example
 * const expected = runCommands(referenceWheelOps, ReferenceWheel.create<number>(config), commands)
 */
export const referenceWheelOps: WheelOps<ReferenceWheel.ReferenceWheel<number>, ReferenceWheel.RefAlarm<number>> = {
  now: ReferenceWheel.now,
  nowIntervalNum: ReferenceWheel.nowIntervalNum,
  maxAllowedAlarmIntervalNum: ReferenceWheel.maxAllowedAlarmIntervalNum,
  maxIntervalNum: ReferenceWheel.maxIntervalNum,
  intervalNumStart: ReferenceWheel.intervalNumStart,
  alarmUpperBound: ReferenceWheel.alarmUpperBound,
  nextAlarmFiresAt: ReferenceWheel.nextAlarmFiresAt,
  toArray: ReferenceWheel.toArray,
  mem: ReferenceWheel.mem,
  alarmAt: ReferenceWheel.alarmAt,
  alarmValue: ReferenceWheel.alarmValue,
  add: ReferenceWheel.add,
  remove: ReferenceWheel.remove,
  reschedule: ReferenceWheel.reschedule,
  advanceClock: ReferenceWheel.advanceClock,
  advanceClockStopAtNextAlarm: ReferenceWheel.advanceClockStopAtNextAlarm,
  firePastAlarms: ReferenceWheel.firePastAlarms,
}

// Times.

const clamp = (x: number, low: number, high: number): number => Math.max(low, Math.min(high, x))

/**
 * The time a {@link TimeChoice} names on `t` now. Exported so that a structure with its
 * own operations can draw times as the commands do.
 *
 * @example
 * resolveTime(timingWheelOps, t, { kind: 'intervalStart', ahead: 3, nudge: -1 })
 * // the double just before the start of the third interval after now's
 */
export const resolveTime = <W, H>(ops: WheelOps<W, H>, t: W, choice: TimeChoice): number => {
  const k = ops.nowIntervalNum(t)
  const maxK = ops.maxAllowedAlarmIntervalNum(t)
  const startOf = (j: number): number => ops.intervalNumStart(t, clamp(j, 0, maxK))
  // The end of the last allowed interval is `alarmUpperBound`, which `intervalNumStart` may refuse.
  const endOf = (j: number): number => (clamp(j, 0, maxK) < maxK ? startOf(j + 1) : ops.alarmUpperBound(t))
  switch (choice.kind) {
    case 'intervalStart':
      return nudge(startOf(k + choice.ahead), choice.nudge)
    case 'withinInterval': {
      const start = startOf(k + choice.ahead)
      const end = endOf(k + choice.ahead)
      return Math.min(start + (end - start) * choice.fraction, nextDown(end))
    }
    case 'inAlarmRange':
      return startOf(k + Math.floor((maxK - k) * choice.fraction))
    case 'now':
      return nudge(ops.now(t), choice.nudge)
    case 'alarmUpperBound':
      return nudge(ops.alarmUpperBound(t), choice.nudge)
    case 'far':
      return ops.intervalNumStart(t, k + Math.floor((ops.maxIntervalNum(t) - k) * choice.fraction))
    case 'notFinite':
      return choice.value
  }
}

// Running.

/**
 * What one command did, in terms that do not depend on the structure it ran on.
 *
 * @example
 * const [step]: Trace = runCommands(timingWheelOps, TimingWheel.create<number>({ alarmPrecision: 1 }), [
 *   { kind: 'add', at: { kind: 'notFinite', value: NaN } },
 * ])
 * step!.outcome // 'TimeOutOfRange'
 */
export interface Step {
  /** The command. */
  readonly command: Command
  /** The time it named (`at` or `to`), resolved; none for the others. */
  readonly time: O.Option<number>
  /**
   * `'ok'`, `'skipped'` (no alarm to pick), the `code` of the `TimingWheelError` the call
   * threw, or the message of an error a handler threw (`'handler 2 threw'`).
   */
  readonly outcome: string
  /** The values of the alarms fired, in order. */
  readonly fired: readonly number[]
  /** The outcome of each handler's action, as `outcome` names them. */
  readonly handlers: readonly string[]
  /** `now` after the command. */
  readonly now: number
  /** `[at, value]` of every alarm after the command, in firing order. */
  readonly alarms: ReadonlyArray<readonly [at: number, value: number]>
  /** `nextAlarmFiresAt` after the command. */
  readonly nextAlarmFiresAt: O.Option<number>
}

/**
 * The steps of a run, one per command.
 *
 * @example
 * const actual: Trace = runCommands(timingWheelOps, TimingWheel.create<number>(config), commands)
 * const expected: Trace = runCommands(referenceWheelOps, ReferenceWheel.create<number>(config), commands)
 * expect(actual).toEqual(expected)
 */
export type Trace = readonly Step[]

interface Run<W, H> {
  readonly ops: WheelOps<W, H>
  readonly t: W
  /** Every alarm this run added, in order: the stale ones are picked from these. */
  readonly added: H[]
  nextValue: number
}

interface StepRecord {
  time: O.Option<number>
  readonly fired: number[]
  readonly handlers: string[]
}

/** The error a `throw` action throws; it is an outcome, not a failure of the run. */
class ScriptedError extends Error {}

/**
 * Runs `f` and names its outcome; lets through every error that is not the wheel
 * refusing a call or a scripted handler throwing, so that broken guarantees end the run.
 */
const outcomeOf = (f: () => 'ok' | 'skipped'): string => {
  try {
    return f()
  } catch (e) {
    if (e instanceof TimingWheelError) return e.code
    if (e instanceof ScriptedError) return e.message
    throw e
  }
}

const stale = <W, H>(run: Run<W, H>): H[] => run.added.filter((a) => !run.ops.mem(run.t, a))

const pick = <H>(alarms: readonly H[], index: number): H | undefined => alarms[index % Math.max(1, alarms.length)]

const pickAlarm = <W, H>(run: Run<W, H>, choice: AlarmChoice): H | undefined =>
  pick(choice.kind === 'live' ? run.ops.toArray(run.t) : stale(run), choice.index)

const timeOf = <W, H>(run: Run<W, H>, choice: TimeChoice, record: StepRecord): number => {
  const time = resolveTime(run.ops, run.t, choice)
  record.time = O.some(time)
  return time
}

const addAlarm = <W, H>(run: Run<W, H>, at: number): 'ok' => {
  run.added.push(run.ops.add(run.t, at, run.nextValue++))
  return 'ok'
}

/** The handler of one advance: records each firing and does the scripted actions in turn. */
const handlerFor = <W, H>(run: Run<W, H>, actions: readonly HandlerAction[], record: StepRecord) => {
  let n = 0
  return (self: H): void => {
    record.fired.push(run.ops.alarmValue(run.t, self))
    const action = actions[n++ % Math.max(1, actions.length)] ?? { kind: 'none' }
    if (action.kind === 'throw') throw new ScriptedError(`handler ${n} threw`)
    record.handlers.push(outcomeOf(() => act(run, self, action)))
  }
}

const act = <W, H>(run: Run<W, H>, self: H, action: HandlerAction): 'ok' | 'skipped' => {
  const { ops, t } = run
  const ignored: StepRecord = { time: O.none, fired: [], handlers: [] }
  switch (action.kind) {
    case 'add':
      return addAlarm(run, timeOf(run, action.at, ignored))
    case 'remove': {
      const alarm = pick(ops.toArray(t), action.index)
      if (alarm === undefined) return 'skipped'
      ops.remove(t, alarm)
      return 'ok'
    }
    case 'reschedule': {
      const alarm = pick(ops.toArray(t), action.index)
      if (alarm === undefined) return 'skipped'
      ops.reschedule(t, alarm, timeOf(run, action.at, ignored))
      return 'ok'
    }
    case 'rescheduleSelf':
      ops.reschedule(t, self, timeOf(run, action.at, ignored))
      return 'ok'
    case 'reenter':
      ops.advanceClock(t, ops.now(t), () => {})
      return 'ok'
    case 'none':
    case 'throw':
      return 'ok'
  }
}

const perform = <W, H>(run: Run<W, H>, command: Command, record: StepRecord): 'ok' | 'skipped' => {
  const { ops, t } = run
  switch (command.kind) {
    case 'add':
      return addAlarm(run, timeOf(run, command.at, record))
    case 'remove': {
      const alarm = pickAlarm(run, command.alarm)
      if (alarm === undefined) return 'skipped'
      ops.remove(t, alarm)
      return 'ok'
    }
    case 'reschedule': {
      const alarm = pickAlarm(run, command.alarm)
      if (alarm === undefined) return 'skipped'
      ops.reschedule(t, alarm, timeOf(run, command.at, record))
      return 'ok'
    }
    case 'advanceClock':
      ops.advanceClock(t, timeOf(run, command.to, record), handlerFor(run, command.handlers, record))
      return 'ok'
    case 'advanceClockStopAtNextAlarm':
      ops.advanceClockStopAtNextAlarm(t, timeOf(run, command.to, record), handlerFor(run, command.handlers, record))
      return 'ok'
    case 'firePastAlarms':
      ops.firePastAlarms(t, handlerFor(run, command.handlers, record))
      return 'ok'
  }
}

const runCommand = <W, H>(run: Run<W, H>, command: Command): Step => {
  const { ops, t } = run
  const record: StepRecord = { time: O.none, fired: [], handlers: [] }
  const outcome = outcomeOf(() => perform(run, command, record))
  const alarms = ops.toArray(t).map((a) => [ops.alarmAt(t, a), ops.alarmValue(t, a)] as const)
  return { command, ...record, outcome, now: ops.now(t), alarms, nextAlarmFiresAt: ops.nextAlarmFiresAt(t) }
}

/**
 * Runs `commands` on `t` in order and returns what each did. A wheel refusing a call
 * (a `TimingWheelError`) and a scripted handler throwing are outcomes recorded in the
 * trace; any other error (a broken guarantee, say) propagates. After each command it
 * calls `ops.afterCommand`, if any. Cost: the commands' own plus, per command, a pass
 * over the wheel's alarms and over the stale ones.
 *
 * Two structures that behave alike give equal traces, so a differential test is one
 * `toEqual`:
 *
 * @example
 * fc.assert(fc.property(configArb(), commandsArb(), (config, commands) => {
 *   const wheel = runCommands(checkedTimingWheelOps, TimingWheel.create<number>(config), commands)
 *   const model = runCommands(referenceWheelOps, ReferenceWheel.create<number>(config), commands)
 *   expect(wheel).toEqual(model)
 * }))
 */
export const runCommands = <W, H>(ops: WheelOps<W, H>, t: W, commands: readonly Command[]): Trace => {
  const run: Run<W, H> = { ops, t, added: [], nextValue: 0 }
  return commands.map((command) => {
    const step = runCommand(run, command)
    ops.afterCommand?.(t, stale(run))
    return step
  })
}
