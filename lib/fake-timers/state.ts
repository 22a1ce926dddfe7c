/**
 * The state of a fake-timers clock and its steps on timers: what `createClock` builds
 * and the loops of `moves.ts` drive.
 *
 * Representation.
 *
 * A clock is a `VirtualClock` (its state `core`: elapsed time, wall-clock reference,
 * nanoseconds, schedule, timer table, the `duringTick` flag) plus what fake-timers has
 * and the virtual clock does not: a queue of faked microtasks (`jobs.ts`), the
 * loop-limit bookkeeping, the tick mode, and which timers are idle callbacks. Timers are
 * created, cleared and fired by the virtual clock's own steps, so ids, handles,
 * coercions, the firing order and the per-timer cost are the virtual clock's; what is
 * here adds fake-timers' rules on top: clearing by the wrong function or a native id,
 * idle callbacks after the other timers due with them. Near the loop limit the core
 * keeps timers' creation stacks (its `nearLimit`, which this clock's loops set).
 *
 * While an async move is under way (`asyncMoves` > 0), a job queued also takes a slot in
 * the host's own queue of its kind (Node's `nextTick` queue or the microtask queue) and
 * runs there, at the clock's time, among native promise continuations exactly where Node
 * would run it; a job already run by a move's `runJobs` leaves its slot empty.
 *
 * Invariants: `idle` holds exactly the pending idle callbacks; `jobs` is empty unless a
 * run of them threw or has not happened yet, or their slots have not come; the virtual
 * clock's own invariants hold.
 */
import * as Coerce from '../sim/coercion.js'
import * as Schedule from '../sim/schedule.js'
import { Timer, type TimerKind, argsOf, firesBefore } from '../sim/timer.js'
import * as VirtualClock from '../sim/virtual-clock.js'
import type { Clock, TickMode, TimerDescription } from './clock.js'
import type { Host, JobKind } from './host.js'
import * as Jobs from './jobs.js'

export const I = VirtualClock.internals
type Core = VirtualClock.State

/**
 * What made a timer, as fake-timers names it in errors.
 *
 * @example
 * const clock = createClock()
 * clock.setInterval(() => {}, 100)
 * const type: TimerType = [...clock.timers.values()][0]!.type // 'Interval'
 */
export type TimerType = TimerKind | 'IdleCallback'

export interface State extends Jobs.JobQueue {
  readonly host: Host
  readonly vc: VirtualClock.VirtualClock
  readonly core: Core
  /**
   * The pending idle callbacks: their type (`IdleCallback` without a timeout, `Timeout`
   * with one) and the order they were created in, which decides among idle callbacks due
   * together (their `order` in the schedule changes as they are moved behind others).
   */
  readonly idle: Map<Timer, { readonly type: TimerType; readonly order: number }>
  tickMode: TickMode & { readonly counter: number }
  /** How many async moves (and the `nextAsync` tick mode) are under way: while any is, jobs get native slots. */
  asyncMoves: number
  /** Jobs run from native slots since the last real macrotask, against the loop limit. */
  slotRuns: number
  /** The first error a job threw in a native slot, for the async move to reject with. */
  slotError: { readonly error: unknown } | undefined
  attachedInterval: unknown
  uninstalled: boolean
  clock: Clock
}

// Reading the time.

export const nowOf = (f: State): number => I.nowOf(f.core)

/** fake-timers' `hrtime`: elapsed time, with the nanoseconds of fractional ticks. */
export const hrtime = (f: State, previous?: readonly [number, number]): [number, number] => {
  const c = f.core
  const seconds = Math.floor(c.elapsed / 1000)
  const nanos = (c.elapsed - seconds * 1e3) * 1e6 + c.nanos - c.adjustedNanos
  if (!Array.isArray(previous)) return [seconds, nanos]
  if (previous[1] > 1e9) throw new TypeError("Number of nanoseconds can't exceed a billion")
  let nanoDiff = nanos - previous[1]
  let secDiff = seconds - previous[0]
  if (nanoDiff < 0) {
    nanoDiff += 1e9
    secDiff -= 1
  }
  return [secDiff, nanoDiff]
}

// Cold error paths.

export const notFinite = (what: string, ms: number): never => {
  throw new TypeError(`fake-timers clock: ${what} needs a finite number of milliseconds, not ${ms}`)
}

/** fake-timers reads `.error` of the next timer, and fails so when there is none. */
const noTimer = (): never => {
  throw new TypeError("Cannot read properties of null (reading 'error')")
}

const wrongClear = (type: TimerType, asked: TimerType): never => {
  throw new Error(`Cannot clear timer: timer created with ${scheduleName(type)}() but cleared with ${clearName(asked)}()`)
}

const scheduleName = (type: TimerType): string =>
  type === 'AnimationFrame' || type === 'IdleCallback' ? `request${type}` : `set${type}`

const clearName = (type: TimerType): string =>
  type === 'AnimationFrame' || type === 'IdleCallback' ? `cancel${type}` : `clear${type}`

// Microtasks and the loop limit.

const loopErrorOf = (f: State, looping: Jobs.Looping): Error =>
  Jobs.loopError(f.core.loopLimit, looping, Object.keys(f.clock), f.host.returnsObjects)

/** Runs the queued microtasks; with none (at most moves), nothing is made. */
export const runJobs = (f: State): void => {
  if (f.jobs.length !== 0) Jobs.runJobs(f, (job) => loopErrorOf(f, { type: undefined, func: job.func, error: job.error }))
}

/**
 * Queues a faked job (`nextTick`, `queueMicrotask`); during an async move it also takes a
 * native slot. Slots past `loopLimit` since the last real macrotask stay empty: the job
 * waits in the queue, and the move's next `runJobs` runs it under the loop limit.
 */
export const enqueueJob = (f: State, kind: JobKind, func: Jobs.Job['func'], args: readonly unknown[]): void => {
  const job = Jobs.enqueue(f, func, args)
  if (f.asyncMoves !== 0) f.host.native(kind, () => runSlot(f, job))
}

const runSlot = (f: State, job: Jobs.Job): void => {
  if (f.asyncMoves === 0 || f.slotRuns >= f.core.loopLimit) return
  if (f.jobs[0] !== job && !f.jobs.includes(job)) return
  f.slotRuns++
  // Queued while it runs, as in fake-timers' runs (`countTimers` counts it).
  try {
    Reflect.apply(job.func, null, job.args)
  } catch (e) {
    f.slotError ??= { error: e }
  }
  const jobs = f.jobs
  const at = jobs[0] === job ? 0 : jobs.indexOf(job)
  if (at >= 0) jobs.splice(at, 1)
}

/** The error to rethrow from a job of the loop in the queue now. */
export const jobLoopError = (f: State): Error => {
  const job = f.jobs[0]!
  return loopErrorOf(f, { type: undefined, func: job.func, error: job.error })
}

const typeOf = (f: State, timer: Timer): TimerType => f.idle.get(timer)?.type ?? timer.kind

export const timerLoopError = (f: State, timer: Timer | undefined): Error =>
  timer === undefined ? noTimer() : loopErrorOf(f, { type: typeOf(f, timer), func: timer.callback, error: f.core.stacks.get(timer) })

export const nearLimitAt = (f: State, i: number): void => {
  if (f.core.loopLimit && i === f.core.loopLimit - 1) f.nearLimit = true
}

// Timers.

export const isPending = (f: State, timer: Timer): boolean => I.isPending(f.core, timer)

export const newTimer = (
  f: State,
  kind: TimerKind,
  callback: unknown,
  args: readonly unknown[] | undefined,
  delay: number | undefined,
  interval: number | undefined,
  arg?: unknown,
): Timer => {
  I.checkCallback(callback)
  return I.addTimer(f.core, kind, callback, args, arg, delay, interval)
}

/** The handle is the timer itself, as on the virtual clock. */
export const handleOf = (f: State, timer: Timer): VirtualClock.TimerId => (f.host.returnsObjects ? timer : timer.id)

/** fake-timers' `clearTimer`: native ids warn (or are cleared natively), wrong kinds throw. */
export const clearTimer = (f: State, id: unknown, asked: TimerType): void => {
  if (!id) return
  // A handle is its timer: no id to check or look up.
  const numeric = id instanceof Timer ? id.id : Number(id)
  if (Number.isNaN(numeric) || numeric < Coerce.firstTimerId) {
    const name = clearName(asked)
    if (f.clock['shouldClearNativeTimers'] === true) {
      const native = f.clock[`_${name}`]
      if (typeof native === 'function') (native as (id: unknown) => void)(id)
      return
    }
    f.host.warnOnce(
      `FakeTimers: ${name} was invoked to clear a native timer instead of one created by this library.` +
        '\nTo automatically clean-up native timers, use `shouldClearNativeTimers`.' +
        `\n${(new Error().stack ?? '').split('\n').slice(1).join('\n')}`,
    )
  }
  const timer = I.pendingTimer(f.core, id instanceof Timer ? id : numeric)
  if (timer === undefined) return
  const type = typeOf(f, timer)
  const clearable =
    type === asked ||
    (asked === 'IdleCallback' && f.idle.has(timer)) ||
    (type === 'Timeout' && asked === 'Interval') ||
    (type === 'Interval' && asked === 'Timeout')
  if (!clearable) wrongClear(type, asked)
  f.idle.delete(timer)
  I.clearTimer(f.core, timer, timer.kind)
}

/**
 * A `tick` that nothing can notice, in constant time: true when done, false where it does
 * not apply (then nothing changed). The virtual clock's idle tick (see there), which this
 * clock may take only with no microtask queued and no idle callback (the only timer left,
 * it fires whatever its due time): fake-timers' loop would then run no job either.
 *
 * @example
 * const now = idleTick(f, 1) ? nowOf(f) : Moves.doTick(f, 1)
 */
export const idleTick = (f: State, ms: unknown): boolean =>
  f.jobs.length === 0 && f.idle.size === 0 && I.idleTick(f.core, ms)

export const fire = (f: State, timer: Timer): void => {
  if (timer.interval === undefined && f.idle.size !== 0) f.idle.delete(timer)
  I.fire(f.core, timer)
}

/**
 * fake-timers fires idle callbacks (without a timeout) after every other timer due at the
 * same time, whenever that was scheduled, and among themselves in the order they were
 * created. The schedule orders by arming order, so an idle callback found first is
 * re-armed at the same time, behind the others, until a timer that is not one comes
 * first, or every one due then has gone round once: then the one created first is the
 * answer. Time: the idle callbacks due then.
 */
const idleLast = (f: State, found: Timer | undefined, again: () => Timer | undefined): Timer | undefined => {
  let timer = found
  let firstMoved: Timer | undefined
  let earliest: Timer | undefined
  while (timer !== undefined && timer !== firstMoved) {
    const idle = f.idle.get(timer)
    if (idle?.type !== 'IdleCallback') return timer
    firstMoved ??= timer
    if (earliest === undefined || idle.order < f.idle.get(earliest)!.order) earliest = timer
    const c = f.core
    Schedule.remove(c.schedule, timer)
    timer.order = c.nextOrder++
    Schedule.add(c.schedule, timer)
    timer = again()
  }
  // Only idle callbacks are due then: the one created first.
  return earliest ?? timer
}

/**
 * fake-timers' `firstTimerInRange`: an idle callback that is the only timer left is
 * taken whatever its due time (the host is idle); otherwise the schedule answers.
 */
export const firstInRange = (f: State, low: number, high: number): Timer | undefined => {
  f.core.hooks?.choosing(low, high)
  const s = f.core.schedule
  if (f.idle.size === 0) return Schedule.firstInRange(s, low, high)
  if (Schedule.count(s) === 1) {
    const only = Schedule.first(s)!
    if (f.idle.has(only)) return only
  }
  return idleLast(f, Schedule.firstInRange(s, low, high), () => Schedule.firstInRange(s, low, high))
}

/** fake-timers' `firstTimer`: the first pending timer, idle callbacks last among those due with them. */
export const firstTimer = (f: State): Timer | undefined => {
  f.core.hooks?.choosing(-Infinity, Infinity)
  const s = f.core.schedule
  if (f.idle.size === 0) return Schedule.first(s)
  return idleLast(f, Schedule.first(s), () => Schedule.first(s))
}

/** The latest pending timer, by a pass over them all (the wheel keeps minimums only). */
export const lastTimer = (f: State): Timer | undefined => {
  let last: Timer | undefined
  for (const timer of Schedule.timers(f.core.schedule)) if (last === undefined || firesBefore(last, timer)) last = timer
  return last
}

export const describe = (f: State, timer: Timer): TimerDescription => {
  const c = f.core
  const wall = (elapsed: number): number => elapsed - c.refElapsed + c.refNow
  const armedFor = timer.interval ?? Coerce.dueOffset(timer.delay, false)
  return {
    id: timer.id,
    type: typeOf(f, timer),
    func: timer.callback,
    args: argsOf(timer),
    delay: timer.delay,
    interval: timer.interval,
    createdAt: wall(timer.due - armedFor),
    callAt: wall(timer.due),
  }
}
