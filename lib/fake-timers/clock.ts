/**
 * A fake-timers clock on a `VirtualClock`: everything `@sinonjs/fake-timers` 15.5's
 * `createClock` returns, with the timers kept and fired by the virtual clock's schedule.
 *
 * Representation.
 *
 * A clock is a `VirtualClock` (its state `core`: elapsed time, wall-clock reference,
 * nanoseconds, schedule, timer table, the `duringTick` flag) plus what fake-timers has
 * and the virtual clock does not: a queue of faked microtasks (`jobs.ts`), the
 * loop-limit bookkeeping, the `Date` and `Intl` that read its time, the tick mode, and
 * which timers are idle callbacks. Timers are created, cleared and fired by the virtual
 * clock's own steps, so ids, handles, coercions, the firing order and the per-timer cost
 * are the virtual clock's; only the loops that move the clock live here, because
 * fake-timers runs the microtask queue before every timer and after every move, and its
 * async variants yield one real macrotask between timers, which needs a loop that can
 * stop after any timer and resume later.
 *
 * Those loops are fake-timers' `doTick`, `next`, `runAll` and their async forms, step
 * for step, in elapsed time (`setSystemTime` moves the wall clock, not the timers; see
 * `virtual-clock.ts`). A callback or job that moves the clock shifts the rest of the
 * range with it; the lower end of the search after each timer lags one timer behind; the
 * first error is rethrown at the end.
 *
 * Differences from fake-timers, all deliberate:
 *
 * - a handle's `refresh()` re-arms its timer after every timer already due then, as
 *   Node does (fake-timers changes the due time before taking the timer out of its heap,
 *   which can leave the heap out of order);
 * - a tick or jump of a non-finite amount throws a `TypeError`, a start or system time
 *   that is not finite a `RangeError` (fake-timers runs every timer and reaches
 *   `Infinity`, or computes NaN);
 * - assigning `clock.now` moves the wall clock and timers keep their distance from now,
 *   as with `setSystemTime` (fake-timers' timers keep their wall-clock due times): here
 *   timers are due at elapsed times, which is what makes `setSystemTime` constant time;
 * - handles carry their id as an own `id` property, so that two never compare
 *   deep-equal (fake-timers' differ by their own closures);
 * - `clock.timers` and `uninstall()` describe the pending timers (id, type, callback,
 *   arguments, delay, interval, `createdAt` when last armed, `callAt`), in firing order,
 *   rather than hand out internal records in heap order;
 * - `Temporal` and `scheduler.postTask`, which Node 20 lacks, are not faked.
 *
 * `runToLast` finds the last timer by a pass over the timers, as fake-timers does.
 */
import * as Coerce from '../sim/coercion.js'
import { TimerHandle } from '../sim/handle.js'
import * as Schedule from '../sim/schedule.js'
import * as TimerTable from '../sim/timer-table.js'
import { type Timer, type TimerKind, firesBefore } from '../sim/timer.js'
import * as VirtualClock from '../sim/virtual-clock.js'
import { type ClockDate, createDate } from './date.js'
import type { Host } from './host.js'
import { createIntl } from './intl.js'
import * as Jobs from './jobs.js'

const I = VirtualClock.internals
type Core = VirtualClock.State

/** What made a timer, as fake-timers names it in errors. */
export type TimerType = TimerKind | 'IdleCallback'

/** How the clock moves by itself: not at all, to each timer in turn, or with real time. */
export interface TickMode {
  readonly mode: 'manual' | 'nextAsync' | 'interval'
  /** For `interval`: how many ms to tick every as many real ms; default 20. */
  readonly delta?: number | undefined
}

type Callback = (...args: never[]) => unknown

/** `process.hrtime` on virtual time: `[seconds, nanoseconds]` since the clock's start. */
export interface HrTime {
  (previous?: readonly [number, number]): [number, number]
  bigint?: () => bigint
}

/**
 * A pending timer as fake-timers shows it (`clock.timers`, `uninstall()`): times are
 * wall-clock ms; `createdAt` is when it was last armed (created, re-armed by its
 * interval, refreshed).
 */
export interface TimerDescription {
  readonly id: number
  readonly type: TimerType
  readonly func: (...args: unknown[]) => unknown
  readonly args: readonly unknown[] | undefined
  readonly delay: number | undefined
  readonly interval: number | undefined
  readonly createdAt: number
  readonly callAt: number
}

/** What `requestIdleCallback` passes its callback. */
export interface IdleDeadline {
  readonly didTimeout: boolean
  readonly timeRemaining: () => number
}

/**
 * A fake-timers clock. Its functions do not use `this`. Made by `createClock` and
 * `install` of `timing-wheel/fake-timers`.
 */
export interface Clock {
  /** The wall-clock time in ms since the epoch; setting it moves the wall clock only. */
  now: number
  /** How many timers `runAll` runs, and jobs one microtask run runs, before giving up. */
  loopLimit: number
  /** Whether a run is one step from the loop limit (creations then record their stacks). */
  readonly isNearInfiniteLimit: boolean
  /** The current tick mode. */
  readonly tickMode: TickMode & { readonly counter: number }
  /** A `Date` whose current time is this clock's. */
  readonly Date: ClockDate
  /** The host's `Intl`, with `DateTimeFormat` formatting this clock's time by default. */
  readonly Intl?: typeof Intl
  /** `performance` on virtual time: `now()`, and after `install` the rest of `Performance` as no-ops. */
  readonly performance?: { now: () => number; [name: string]: unknown }
  /** `process.hrtime` on virtual time (where the host has `process.hrtime`). */
  readonly hrtime?: HrTime
  /** The pending timers by id, as a fresh `Map` of descriptions. */
  readonly timers: Map<number, TimerDescription>

  readonly setTimeout: (callback: Callback, delay?: unknown, ...args: unknown[]) => VirtualClock.TimerId
  readonly clearTimeout: (id?: unknown) => void
  readonly setInterval: (callback: Callback, delay?: unknown, ...args: unknown[]) => VirtualClock.TimerId
  readonly clearInterval: (id?: unknown) => void
  readonly setImmediate: (callback: Callback, ...args: unknown[]) => VirtualClock.TimerId
  readonly clearImmediate: (id?: unknown) => void
  readonly requestAnimationFrame: (callback: (time: number) => unknown) => number
  readonly cancelAnimationFrame: (id?: unknown) => void
  readonly requestIdleCallback: (callback: (deadline: IdleDeadline) => unknown, options?: { timeout?: number }) => number
  readonly cancelIdleCallback: (id?: unknown) => void
  /** Queues a faked microtask; it runs at the clock's next move or `runMicrotasks`. */
  readonly nextTick: (callback: Callback, ...args: unknown[]) => void
  /** As `nextTick`, without arguments. */
  readonly queueMicrotask: (callback: Callback) => void
  /** Runs the queued microtasks now. */
  readonly runMicrotasks: () => void
  /** Pending timers plus queued microtasks. */
  readonly countTimers: () => number

  /** Moves `ms` forward (a number or "hh:mm:ss"), firing what is due; returns `now`. */
  readonly tick: (ms: number | string) => number
  /** Fires the first timer; returns `now`. */
  readonly next: () => number
  /** Fires timers until none is left, at most `loopLimit`; returns `now`. */
  readonly runAll: () => number
  /** Ticks to the next animation frame; returns `now`. */
  readonly runToFrame: () => number
  /** Ticks to the last pending timer; returns `now`. */
  readonly runToLast: () => number
  /** `tick`, yielding one real macrotask after each timer so promise callbacks run between them. */
  readonly tickAsync: (ms: number | string) => Promise<number>
  /** `next`, then one real macrotask. */
  readonly nextAsync: () => Promise<number>
  /** `runAll`, yielding one real macrotask after each timer. */
  readonly runAllAsync: () => Promise<number>
  /** `runToLast` as `tickAsync`. */
  readonly runToLastAsync: () => Promise<number>
  /** Drops every timer and microtask and goes back to the start time. */
  readonly reset: () => void
  /** Sets the wall clock; timers keep their distance from now. */
  readonly setSystemTime: (now?: number | Date) => void
  /** Moves `ms` forward firing each overdue timer once, as after a sleep; returns `now`. */
  readonly jump: (ms: number | string) => number
  /** Sets how the clock moves by itself. */
  readonly setTickMode: (mode: TickMode) => void
  /** Puts back what `install` replaced; returns the pending timers. */
  uninstall: () => TimerDescription[]
  [more: string]: unknown
}

interface State extends Jobs.JobQueue {
  readonly host: Host
  readonly vc: VirtualClock.VirtualClock
  readonly core: Core
  /** Stacks of timers created near the loop limit, for its error. */
  readonly errors: WeakMap<Timer, Error>
  /**
   * The pending idle callbacks: their type (`IdleCallback` without a timeout, `Timeout`
   * with one) and the order they were created in, which decides among idle callbacks due
   * together (their `order` in the schedule changes as they are moved behind others).
   */
  readonly idle: Map<Timer, { readonly type: TimerType; readonly order: number }>
  tickMode: TickMode & { readonly counter: number }
  attachedInterval: unknown
  uninstalled: boolean
  clock: Clock
}

/** One call of fake-timers' `doTick`, in elapsed time. */
interface TickState {
  tickFrom: number
  tickTo: number
  previous: number
  readonly nanosTotal: number
  firstError: unknown
  /** `elapsed` and `now` before the last step that may move the clock. */
  oldElapsed: number
  oldNow: number
}

/** How an async move ends. */
interface Settle {
  readonly resolve: (now: number) => void
  readonly reject: (reason: unknown) => void
}

// Reading the time.

const nowOf = (f: State): number => I.nowOf(f.core)

/** fake-timers' `hrtime`: elapsed time, with the nanoseconds of fractional ticks. */
const hrtime = (f: State, previous?: readonly [number, number]): [number, number] => {
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

const notFinite = (what: string, ms: number): never => {
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

const runJobs = (f: State): void =>
  Jobs.runJobs(f, (job) => loopErrorOf(f, { type: undefined, func: job.func, error: job.error }))

const typeOf = (f: State, timer: Timer): TimerType => f.idle.get(timer)?.type ?? timer.kind

const timerLoopError = (f: State, timer: Timer | undefined): Error =>
  timer === undefined ? noTimer() : loopErrorOf(f, { type: typeOf(f, timer), func: timer.callback, error: f.errors.get(timer) })

const nearLimitAt = (f: State, i: number): void => {
  if (f.core.loopLimit && i === f.core.loopLimit - 1) f.nearLimit = true
}

// Timers.

const isPending = (f: State, timer: Timer): boolean => TimerTable.get(f.core.timers, I.keyOf(timer.id)) === timer

const newTimer = (
  f: State,
  kind: TimerKind,
  callback: unknown,
  args: readonly unknown[] | undefined,
  delay: number | undefined,
  interval: number | undefined,
): Timer => {
  I.checkCallback(callback)
  const timer = I.addTimer(f.core, kind, callback, args, delay, interval)
  if (f.nearLimit) f.errors.set(timer, new Error())
  return timer
}

/**
 * A handle shaped like Node's `Timeout`. Its id is an own property too, so that two
 * handles never compare deep-equal (fake-timers' handles differ by their own closures).
 */
class ClockTimerHandle extends TimerHandle {
  readonly id: number
  constructor(id: number, timer: unknown, refresh: (timer: never) => void) {
    super(id, timer, refresh)
    this.id = id
  }
}

const handleOf = (f: State, timer: Timer): VirtualClock.TimerId =>
  f.host.returnsObjects ? new ClockTimerHandle(timer.id, timer, f.core.refresh) : timer.id

/** fake-timers' `clearTimer`: native ids warn (or are cleared natively), wrong kinds throw. */
const clearTimer = (f: State, id: unknown, asked: TimerType): void => {
  if (!id) return
  const numeric = Number(id)
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
  const timer = TimerTable.get(f.core.timers, I.keyOf(numeric))
  if (timer === undefined) return
  const type = typeOf(f, timer)
  const clearable =
    type === asked ||
    (asked === 'IdleCallback' && f.idle.has(timer)) ||
    (type === 'Timeout' && asked === 'Interval') ||
    (type === 'Interval' && asked === 'Timeout')
  if (!clearable) wrongClear(type, asked)
  f.idle.delete(timer)
  I.clearTimer(f.core, numeric, timer.kind)
}

const fire = (f: State, timer: Timer): void => {
  if (timer.interval === undefined) f.idle.delete(timer)
  else if (f.nearLimit) f.errors.set(timer, new Error())
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
const firstInRange = (f: State, low: number, high: number): Timer | undefined => {
  const s = f.core.schedule
  if (f.idle.size === 0) return Schedule.firstInRange(s, low, high)
  if (Schedule.count(s) === 1) {
    const only = Schedule.first(s)!
    if (f.idle.has(only)) return only
  }
  return idleLast(f, Schedule.firstInRange(s, low, high), () => Schedule.firstInRange(s, low, high))
}

/** fake-timers' `firstTimer`: the first pending timer, idle callbacks last among those due with them. */
const firstTimer = (f: State): Timer | undefined => {
  const s = f.core.schedule
  if (f.idle.size === 0) return Schedule.first(s)
  return idleLast(f, Schedule.first(s), () => Schedule.first(s))
}

/** The latest pending timer, by a pass over them all (the wheel keeps minimums only). */
const lastTimer = (f: State): Timer | undefined => {
  let last: Timer | undefined
  for (const [, timer] of TimerTable.entries(f.core.timers)) if (last === undefined || firesBefore(last, timer)) last = timer
  return last
}

const describe = (f: State, timer: Timer): TimerDescription => {
  const c = f.core
  const wall = (elapsed: number): number => elapsed - c.refElapsed + c.refNow
  const armedFor = timer.interval ?? Coerce.dueOffset(timer.delay, false)
  return {
    id: timer.id,
    type: typeOf(f, timer),
    func: timer.callback,
    args: timer.args,
    delay: timer.delay,
    interval: timer.interval,
    createdAt: wall(timer.due - armedFor),
    callAt: wall(timer.due),
  }
}

// Moving the clock.

/**
 * A callback or job that moved the clock shifts the rest of the range with it. fake-timers
 * shifts in wall-clock time, and after the microtasks that open and close a tick it
 * leaves the lagging lower end where it was: when those microtasks set the system time,
 * which shifts every timer, that end moves against the timers, and so it does here.
 */
const compensate = (f: State, t: TickState, withPrevious: boolean): void => {
  const moved = f.core.elapsed - t.oldElapsed
  t.tickFrom += moved
  t.tickTo += moved
  if (withPrevious) t.previous += moved
  else t.previous -= nowOf(f) - t.oldNow - moved
}

/** Remembers the time before a step that may move the clock, for {@link compensate}. */
const mark = (f: State, t: TickState): void => {
  t.oldElapsed = f.core.elapsed
  t.oldNow = nowOf(f)
}

const keepFirst = (t: TickState, e: unknown): void => {
  if (!t.firstError) t.firstError = e
}

/**
 * fake-timers' `doTick`. Sync, it returns `now`; async (`settle` given), it fires one
 * timer, yields a real macrotask, and goes on from there, settling at the end.
 */
const doTick = (f: State, value: unknown, settle?: Settle): number | undefined => {
  const c = f.core
  const plan = I.planTick(Coerce.tickValueToMs(value), c.elapsed, c.nanos)
  const t: TickState = {
    tickFrom: c.elapsed,
    tickTo: plan.tickTo,
    previous: c.elapsed,
    nanosTotal: plan.nanosTotal,
    firstError: undefined,
    oldElapsed: c.elapsed,
    oldNow: nowOf(f),
  }
  c.nanos = plan.nanosTotal
  c.duringTick = true
  mark(f, t)
  runJobs(f)
  compensate(f, t, false)
  return runRange(f, t, settle)
}

/** Goes on with an async tick after the macrotask it yielded to. */
const resume = (f: State, t: TickState, settle: Settle): void => {
  try {
    compensate(f, t, true)
    t.previous = t.tickFrom
    runRange(f, t, settle)
  } catch (e) {
    settle.reject(e)
  }
}

/** The loop of `doTick`: fires the timers in range; async, one, then it yields. */
const runRange = (f: State, t: TickState, settle: Settle | undefined): number | undefined => {
  const c = f.core
  let timer = firstInRange(f, t.tickFrom, t.tickTo)
  while (timer !== undefined && t.tickFrom <= t.tickTo) {
    if (isPending(f, timer)) {
      t.tickFrom = timer.due
      c.elapsed = timer.due
      mark(f, t)
      try {
        runJobs(f)
        // A job may have cleared the timer; a cleared timer does not fire.
        if (isPending(f, timer)) fire(f, timer)
      } catch (e) {
        keepFirst(t, e)
      }
      if (settle !== undefined) {
        f.host.later(() => resume(f, t, settle))
        return undefined
      }
      compensate(f, t, true)
    }
    timer = firstInRange(f, t.previous, t.tickTo)
    t.previous = t.tickFrom
  }
  mark(f, t)
  runJobs(f)
  compensate(f, t, false)
  c.duringTick = false
  return finishTick(f, t, settle)
}

/** fake-timers' `finalizeTick`: timers the last jobs made due in range get a tick of their own. */
const finishTick = (f: State, t: TickState, settle: Settle | undefined): number | undefined => {
  const c = f.core
  if (firstInRange(f, t.tickFrom, t.tickTo) !== undefined) {
    try {
      doTick(f, t.tickTo - c.elapsed)
    } catch (e) {
      keepFirst(t, e)
    }
  } else {
    c.elapsed = t.tickTo
    c.nanos = t.nanosTotal
  }
  if (t.firstError) throw t.firstError
  if (settle === undefined) return nowOf(f)
  settle.resolve(nowOf(f))
  return undefined
}

const next = (f: State): number => {
  const c = f.core
  runJobs(f)
  const timer = firstTimer(f)
  if (timer === undefined) return nowOf(f)
  c.duringTick = true
  try {
    c.elapsed = timer.due
    fire(f, timer)
    runJobs(f)
    return nowOf(f)
  } finally {
    c.duringTick = false
  }
}

const runAll = (f: State): number => {
  runJobs(f)
  for (let i = 0; i < f.core.loopLimit; i++) {
    if (Schedule.count(f.core.schedule) === 0) {
      f.nearLimit = false
      return nowOf(f)
    }
    nearLimitAt(f, i)
    next(f)
  }
  throw timerLoopError(f, firstTimer(f))
}

const runToLast = (f: State): number => {
  const last = lastTimer(f)
  if (last === undefined) {
    runJobs(f)
    return nowOf(f)
  }
  return doTick(f, last.due - f.core.elapsed)!
}

const jump = (f: State, value: unknown): number => {
  const c = f.core
  const msFloat = Coerce.tickValueToMs(value)
  if (!Number.isFinite(msFloat)) notFinite('jump', msFloat)
  const ms = Math.floor(msFloat)
  Schedule.raiseDueTimes(c.schedule, c.elapsed + ms, c.elapsed)
  doTick(f, ms)
  return nowOf(f)
}

// The async variants: each starts after one real macrotask, as fake-timers' do.

/** While the clock advances itself (`nextAsync` mode), an explicit async move pauses it. */
const pauseAutoTick = <A>(f: State, promise: Promise<A>): Promise<A> => {
  if (f.tickMode.mode !== 'nextAsync') return promise
  setTickMode(f, { mode: 'manual' })
  return promise.finally(() => {
    if (!f.uninstalled) setTickMode(f, { mode: 'nextAsync' })
  })
}

const afterMacrotask = (
  f: State,
  body: (resolve: (now: number | PromiseLike<number>) => void, reject: (e: unknown) => void) => void,
): Promise<number> =>
  pauseAutoTick(
    f,
    new f.host.Promise<number>((resolve, reject) => {
      f.host.later(() => {
        try {
          body(resolve, reject)
        } catch (e) {
          reject(e)
        }
      })
    }),
  )

const nextAsync = (f: State): Promise<number> =>
  afterMacrotask(f, (resolve, reject) => {
    const c = f.core
    runJobs(f)
    const timer = firstTimer(f)
    if (timer === undefined) {
      resolve(nowOf(f))
      return
    }
    let error: unknown
    c.duringTick = true
    c.elapsed = timer.due
    try {
      fire(f, timer)
      runJobs(f)
    } catch (e) {
      error = e
    }
    c.duringTick = false
    f.host.later(() => (error ? reject(error) : resolve(nowOf(f))))
  })

const runAllAsync = (f: State): Promise<number> => {
  let i = 0
  const step = (resolve: (now: number) => void, reject: (e: unknown) => void): void => {
    try {
      runJobs(f)
      if (i < f.core.loopLimit) {
        if (Schedule.count(f.core.schedule) === 0) {
          f.nearLimit = false
          resolve(nowOf(f))
          return
        }
        nearLimitAt(f, i)
        next(f)
        i++
        f.host.later(() => step(resolve, reject))
        return
      }
      reject(timerLoopError(f, firstTimer(f)))
    } catch (e) {
      reject(e)
    }
  }
  return afterMacrotask(f, step)
}

const tickAsync = (f: State, value: unknown): Promise<number> =>
  afterMacrotask(f, (resolve, reject) => {
    doTick(f, value, { resolve, reject })
  })

const runToLastAsync = (f: State): Promise<number> =>
  afterMacrotask(f, (resolve) => {
    const last = lastTimer(f)
    if (last === undefined) {
      runJobs(f)
      resolve(nowOf(f))
      return
    }
    resolve(tickAsync(f, last.due - f.core.elapsed))
  })

// Tick modes.

const setTickMode = (f: State, wanted: TickMode): void => {
  const { mode, delta } = wanted
  const old = f.tickMode
  if (mode === old.mode && delta === old.delta) return
  if (old.mode === 'interval') f.host.clearInterval?.(f.attachedInterval)
  f.tickMode = { counter: old.counter + 1, mode, delta }
  if (mode === 'nextAsync') void advanceUntilModeChanges(f)
  else if (mode === 'interval') {
    const step = delta || 20
    f.attachedInterval = f.host.setInterval?.(() => f.clock.tick(step), step)
  }
}

/** One real macrotask (a message, which browsers do not throttle), then the microtasks after it. */
const realMacrotask = async (f: State): Promise<void> => {
  const channel = new MessageChannel()
  await new Promise<void>((resolve) => {
    ;(channel.port1 as unknown as { onmessage: () => void }).onmessage = () => {
      resolve()
      channel.port1.close()
    }
    channel.port2.postMessage(undefined)
  })
  channel.port1.close()
  channel.port2.close()
  await new Promise<void>((resolve) => f.host.later(resolve))
}

const advanceUntilModeChanges = async (f: State): Promise<void> => {
  const { counter } = f.tickMode
  while (f.tickMode.counter === counter) {
    await realMacrotask(f)
    if (f.tickMode.counter !== counter) return
    next(f)
  }
}

// The clock.

/**
 * A fake-timers clock on `host` at `start` (ms since the epoch, a `Date`, or falsy for
 * 0; floored), giving up after `loopLimit` timers in `runAll` (0 or absent: 1000).
 * Throws a `TypeError` for a start that is not a time, a `RangeError` for one that is
 * not finite.
 *
 * @example
 * const clock = createClock(host, 0)
 * clock.setTimeout(() => console.log(clock.now), 10)
 * clock.tick(10) // logs 10
 */
export const createClock = (host: Host, start?: unknown, loopLimit?: number): Clock => {
  const vc = VirtualClock.create({ now: Coerce.epochOf(start), loopLimit: loopLimit || 1000 })
  const core = I.stateOf(vc)!
  const ClockDateClass = createDate(host.NativeDate)
  const f: State = {
    host,
    vc,
    core,
    jobs: [],
    nearLimit: false,
    get loopLimit() {
      return core.loopLimit
    },
    errors: new WeakMap(),
    idle: new Map(),
    tickMode: { mode: 'manual', counter: 0, delta: undefined },
    attachedInterval: undefined,
    uninstalled: false,
    clock: undefined as unknown as Clock,
  }
  const clockHrtime: HrTime = (previous) => hrtime(f, previous)
  if (host.present.hrtime && typeof (host.timers.hrtime as { bigint?: unknown }).bigint === 'function') {
    clockHrtime.bigint = () => {
      const [seconds, nanos] = hrtime(f)
      return BigInt(seconds) * 1_000_000_000n + BigInt(nanos)
    }
  }
  const clock: Clock = {
    get now() {
      return nowOf(f)
    },
    set now(now: number) {
      // The wall clock alone moves: fake-timers' timers are due at wall-clock times and
      // would come closer, these are due at elapsed times and keep their distance.
      core.refNow = now - (core.elapsed - core.refElapsed)
    },
    get loopLimit() {
      return core.loopLimit
    },
    set loopLimit(limit: number) {
      core.loopLimit = limit
    },
    get isNearInfiniteLimit() {
      return f.nearLimit
    },
    get tickMode() {
      return f.tickMode
    },
    Date: ClockDateClass,
    get timers() {
      const timers = new Map<number, TimerDescription>()
      for (const [, timer] of TimerTable.entries(core.timers)) timers.set(timer.id, describe(f, timer))
      return timers
    },
    setTimeout: (callback, delay, ...args) =>
      handleOf(f, newTimer(f, 'Timeout', callback, args, Coerce.coerceDelay(delay), undefined)),
    clearTimeout: (id) => clearTimer(f, id, 'Timeout'),
    setInterval: (callback, delay, ...args) => {
      const parsed = Coerce.parseIntervalDelay(delay)
      I.checkCallback(callback)
      const interval = Coerce.coerceInterval(parsed)
      return handleOf(f, newTimer(f, 'Interval', callback, args, Coerce.coerceDelay(parsed), interval))
    },
    clearInterval: (id) => clearTimer(f, id, 'Interval'),
    setImmediate: (callback, ...args) => handleOf(f, newTimer(f, 'Immediate', callback, args, undefined, undefined)),
    clearImmediate: (id) => clearTimer(f, id, 'Immediate'),
    requestAnimationFrame: (callback) => {
      I.checkCallback(callback)
      const delay = Coerce.coerceDelay(I.timeToNextFrame(core))
      return newTimer(f, 'AnimationFrame', callback, undefined, delay, undefined).id
    },
    cancelAnimationFrame: (id) => clearTimer(f, id, 'AnimationFrame'),
    requestIdleCallback: (callback, { timeout } = {}) => {
      const deadline: IdleDeadline = {
        didTimeout: true,
        // Idle until the next timer: 50 ms (the longest idle period) while any is pending.
        timeRemaining: () => (clock.countTimers() > 0 ? 50 : 0),
      }
      const delay = Coerce.coerceDelay(timeout)
      const timer = newTimer(f, 'Timeout', callback, [deadline], delay, undefined)
      f.idle.set(timer, { type: delay ? 'Timeout' : 'IdleCallback', order: timer.order })
      return timer.id
    },
    cancelIdleCallback: (id) => clearTimer(f, id, 'IdleCallback'),
    nextTick: (callback, ...args) => Jobs.enqueue(f, callback as Jobs.Job['func'], args),
    queueMicrotask: (callback) => Jobs.enqueue(f, callback as Jobs.Job['func'], []),
    runMicrotasks: () => runJobs(f),
    countTimers: () => Schedule.count(core.schedule) + f.jobs.length,
    tick: (ms) => doTick(f, ms)!,
    next: () => next(f),
    runAll: () => runAll(f),
    runToFrame: () => doTick(f, I.timeToNextFrame(core))!,
    runToLast: () => runToLast(f),
    tickAsync: (ms) => tickAsync(f, ms),
    nextAsync: () => nextAsync(f),
    runAllAsync: () => runAllAsync(f),
    runToLastAsync: () => runToLastAsync(f),
    reset: () => {
      I.reset(core)
      f.jobs = []
      f.idle.clear()
    },
    setSystemTime: (now) => I.setSystemTime(core, now),
    jump: (ms) => jump(f, ms),
    setTickMode: (mode) => setTickMode(f, mode),
    uninstall: () => {
      f.uninstalled = true
      setTickMode(f, { mode: 'manual' })
      // In firing order, as fake-timers' heap mostly has them.
      const pending = TimerTable.entries(core.timers).map(([, timer]) => timer)
      pending.sort((a, b) => (firesBefore(a, b) ? -1 : 1))
      return pending.map((timer) => describe(f, timer))
    },
  }
  if (host.present.Intl && host.NativeIntl !== undefined) {
    ;(clock as { Intl?: unknown }).Intl = createIntl(host.NativeIntl, clock)
  }
  if (host.present.performance) {
    const performance = Object.create(null) as { now: () => number }
    performance.now = () => I.performanceNow(core)
    ;(clock as { performance?: unknown }).performance = performance
  }
  if (host.present.hrtime) (clock as { hrtime?: unknown }).hrtime = clockHrtime
  if (host.promisifyCustom !== undefined) {
    const custom = host.promisifyCustom
    Object.defineProperty(clock.setTimeout, custom, {
      value: (delay: unknown, value: unknown) =>
        new host.Promise((resolve) => newTimer(f, 'Timeout', resolve, [value], Coerce.coerceDelay(delay), undefined)),
      writable: true,
      configurable: true,
    })
    Object.defineProperty(clock.setImmediate, custom, {
      value: (value: unknown) =>
        new host.Promise((resolve) => newTimer(f, 'Immediate', resolve, [value], undefined, undefined)),
      writable: true,
      configurable: true,
    })
  }
  ClockDateClass.clock = clock
  f.clock = clock
  return clock
}
