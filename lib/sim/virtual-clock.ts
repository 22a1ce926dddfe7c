/**
 * A virtual clock: timers on virtual time that run only when the clock is told to move,
 * behaving exactly as `@sinonjs/fake-timers` 15's clock does, at constant cost per timer.
 *
 * Representation.
 *
 * Time is `elapsed`: whole milliseconds since the clock was created (fake-timers'
 * "millisSinceStart"), an integer, since every delay and every move is whole. The wall
 * clock is derived from it, `now = refNow + (elapsed - refElapsed)`, where
 * `(refNow, refElapsed)` is the last time the wall clock was set (creation,
 * `setSystemTime`, `reset`). Timers are due at elapsed times, in a schedule
 * (`schedule.ts`) that keeps them in firing order. So `setSystemTime`, which fake-timers
 * implements by shifting every timer, only moves the reference point, in constant time,
 * and cannot change the order; animation frames and `performance.now()`, which
 * fake-timers computes from elapsed time anyway, read `elapsed` directly.
 *
 * `nanos` and `adjustedNanos` are fake-timers' `nanos` and `adjustedSystemTime[1]`: the
 * sub-millisecond part of fractional ticks, which only `performance.now()` shows.
 *
 * Timer ids come from one counter shared by all clocks, as in fake-timers, so that an id
 * kept from an old clock never clears a timer of a new one. A handle is its timer record
 * (`timer.ts`), so `clearTimeout(handle)` reaches the timer directly: it is pending here
 * if the schedule holds it and its `home` is the clock's current one (`reset` makes a new
 * one). Numeric ids (browser-like hosts, `clearTimeout(Number(handle))`) are resolved
 * through `index` (`timer-table.ts`), keyed by id less `firstTimerId`: consecutive
 * integers, which its multiplicative hash scatters over the slots. It is built at the
 * first numeric lookup and kept from then on: until then a timer costs no table entry.
 *
 * Invariants (`invariant` checks them): the schedule holds exactly the pending timers,
 * each with the clock's `home`; `index`, once built, holds each of them under its key
 * and nothing else; `elapsed` is an integer; between calls no timer in the wheel part of
 * the schedule is due before `elapsed`.
 *
 * Moving the clock follows fake-timers' algorithm step by step, because its quirks are
 * observable: the lower end of the range searched after each timer lags one timer behind,
 * a callback that moves the clock shifts the rest of the tick's range with it, a zero
 * delay scheduled by a callback means 1 ms, the first error thrown is rethrown only at
 * the end (and a falsy one is forgotten). Only the search for the next timer differs:
 * fake-timers looks at its heap's top and scans all timers when that is not in range;
 * here the schedule answers directly.
 *
 * `runToLast` needs the latest due time, which fake-timers finds by a scan and which a
 * wheel does not keep. Instead it runs with no upper bound while a watch counts down the
 * timers that were pending at the start; when the last of them has fired or gone, their
 * latest due time is known and becomes the bound. Until then every timer that fires is
 * due no later than some timer still counted, so the outcome is the same.
 */
import { TimingWheelError } from '../errors.js'
import { type Accessors, stateOf, withAccessors } from './accessors.js'
import * as Coerce from './coercion.js'
import { type TimerId, hostReturnsObjects } from './handle.js'
import * as Install from './install.js'
import type { ScheduleHooks } from './hooks.js'
import { loopError } from './loop-error.js'
import * as Schedule from './schedule.js'
import * as TimerTable from './timer-table.js'
import { type Home, Timer, type TimerKind, argsAfter, clearName, clearableAs, noArgs, oneArg, scheduleName } from './timer.js'

export { TimerHandle, type TimerId } from './handle.js'
export type { FakeableName, InstallOptions, TimerFunctionName } from './install.js'

/**
 * Options of {@link create}.
 *
 * @example
 * const options: VirtualClock.CreateOptions = { now: new Date('2024-01-01T00:00:00Z'), loopLimit: 100 }
 * const clock = VirtualClock.create(options)
 * clock.now // 1704067200000
 */
export interface CreateOptions {
  /** The wall-clock time to start at, ms since the epoch or a `Date`; floored; default 0. */
  readonly now?: number | Date
  /** How many timers `runAll` runs before it gives up; 0 or absent means 1000. */
  readonly loopLimit?: number
}

/**
 * A virtual clock. Its functions do not use `this`, so they can be passed around and
 * installed as globals. Make one with {@link create}.
 *
 * @example
 * const clock = VirtualClock.create()
 * const { setTimeout } = clock
 * setTimeout(() => console.log(clock.now), 30)
 * clock.next() // logs 30
 */
export interface VirtualClock {
  /** The wall-clock time in ms since the epoch: what `Date.now()` returns when installed. */
  readonly now: number
  /** How many timers `runAll` runs before it throws. */
  loopLimit: number
  /** `performance.now()`: elapsed virtual ms since creation, with the fractions of fractional ticks. */
  readonly performance: {
    /** Elapsed virtual ms since the clock was created; constant time. */
    readonly now: () => number
  }

  /**
   * Calls `callback(...args)` once, `delay` ms from now. The delay is coerced as browsers
   * and fake-timers do: missing, NaN, infinite, negative or non-numeric means 0, above
   * 2^31 - 1 means 1, fractions are truncated (through `parseInt(String(delay))`, so 1e-7
   * means 1); 0 from inside a callback means 1.
   * Throws an `Error` if `callback` is missing, a `TypeError` if it is not a function,
   * a `RangeError` if the timer would be due 2^52 ms or more after the clock's start.
   * Constant time.
   */
  readonly setTimeout: <A extends unknown[]>(callback: (...args: A) => unknown, delay?: number, ...args: A) => TimerId
  /**
   * Cancels a timeout or interval; unknown, falsy or already fired ids are ignored.
   * Throws an `Error` if `id` is an immediate or a frame. Constant time.
   */
  readonly clearTimeout: (id?: TimerId | null) => void
  /**
   * Calls `callback(...args)` every `delay` ms, first after `delay` (coerced as for
   * `setTimeout`). The period is `parseInt(delay)`: NaN or above 2^31 - 1 means 1, while 0
   * and negative periods are kept, as fake-timers keeps them (0 fires again at the same
   * time; negative re-arms in the past). Each re-arm counts as scheduling anew for the
   * order among timers due together. Throws as `setTimeout`. Constant time.
   */
  readonly setInterval: <A extends unknown[]>(callback: (...args: A) => unknown, delay?: number, ...args: A) => TimerId
  /** Cancels an interval or timeout; as {@link VirtualClock.clearTimeout}. */
  readonly clearInterval: (id?: TimerId | null) => void
  /**
   * Calls `callback(...args)` now (on the next move of the clock), or 1 ms later when
   * called from a callback; before any timeout due at the same time. Throws as
   * `setTimeout`. Constant time.
   */
  readonly setImmediate: <A extends unknown[]>(callback: (...args: A) => unknown, ...args: A) => TimerId
  /** Cancels an immediate; throws if `id` is another kind of timer. Constant time. */
  readonly clearImmediate: (id?: TimerId | null) => void
  /**
   * Calls `callback(performance.now())` at the next 16 ms boundary of elapsed time
   * (16 ms later if on one). Returns a numeric id. Constant time.
   */
  readonly requestAnimationFrame: (callback: (time: number) => unknown) => number
  /** Cancels a frame; throws if `id` is another kind of timer. Constant time. */
  readonly cancelAnimationFrame: (id?: number | null) => void

  /**
   * Moves the clock `ms` forward (a number, or `"mm:ss"` / `"hh:mm:ss"`), firing every
   * timer due up to then in order, with `now` at each timer's due time inside its
   * callback; timers those callbacks schedule fire too if due in time. If callbacks throw,
   * the rest still run and the first error is rethrown at the end. A fractional amount
   * moves whole milliseconds and carries the fraction (visible in `performance.now()`).
   * Returns `now`. Throws a `TypeError` for a negative or non-finite amount, changing
   * nothing. Time: constant per timer fired plus the wheel slots passed.
   */
  readonly tick: (ms: number | string) => number
  /**
   * Moves to the first pending timer and fires it alone; returns `now`. A callback's error
   * propagates. Amortized constant time.
   */
  readonly next: () => number
  /**
   * Fires timers one by one, as `next`, until none is left; returns `now`. Throws
   * "Aborting after running N timers, assuming an infinite loop!" after `loopLimit`
   * timers, and a callback's error at once. Constant time per timer fired.
   */
  readonly runAll: () => number
  /**
   * Ticks to the latest due time among the pending timers (new ones due by then fire
   * too); returns `now`. Throws as `tick`. Constant time per timer fired: it does not
   * search for the latest timer, it runs until every timer pending at the start has fired
   * or gone. A callback that moves the clock back (a nested `next` of an interval re-armed
   * in the past) moves the end back too, as in fake-timers; the end must then be known,
   * which costs one pass over the pending timers.
   */
  readonly runToLast: () => number
  /** Ticks to the next 16 ms frame boundary of elapsed time; returns `now`. Throws as `tick`. */
  readonly runToFrame: () => number
  /** The number of pending timers. Constant time. */
  readonly countTimers: () => number
  /** Drops every timer and goes back to the start time, as if just created. Constant time. */
  readonly reset: () => void
  /**
   * Sets the wall clock (`now`) without firing anything; pending timers keep their
   * distance from now. Takes ms since the epoch or a `Date`; missing means 0. Throws a
   * `RangeError` for a time that is not finite. Constant time.
   */
  readonly setSystemTime: (now?: number | Date) => void
  /**
   * Moves `ms` (floored) forward as if the process had been asleep: every timer due
   * before then fires once, at the end, in its order; then ticks as `tick(ms)` does.
   * Returns `now`. Throws as `tick` (a negative jump first raises any timers due before
   * the target, as fake-timers does). Time: the overdue timers times the log of their
   * number (they are merged), then as `tick`.
   */
  readonly jump: (ms: number | string) => number
  /**
   * Replaces `target`'s timer functions, `Date.now` and `performance.now` with this
   * clock's (by default those the target has; see {@link Install.InstallOptions}), until
   * {@link VirtualClock.uninstall}. Throws an `Error` if this clock is already installed,
   * a `TypeError` if a property cannot be replaced (then nothing is). Constant time.
   */
  readonly install: (target?: object, options?: Install.InstallOptions) => void
  /** Puts back exactly what `install` replaced, attributes included. A no-op if not installed. */
  readonly uninstall: () => void
}

interface State {
  readonly start: number
  elapsed: number
  refNow: number
  refElapsed: number
  nanos: number
  adjustedNanos: number
  loopLimit: number
  /** Whether callbacks are being run: a zero delay then means 1 ms. */
  duringTick: boolean
  readonly schedule: Schedule.Schedule
  /** Pending timers by key (id - firstTimerId), from the first numeric lookup on. */
  index: TimerTable.TimerTable | undefined
  /** The home of the timers armed since the last reset. */
  home: Home
  nextOrder: number
  /** Whether timer functions return {@link TimerHandle}s rather than numbers. */
  readonly handles: boolean
  /** What this clock's handles call to refresh their timer. */
  readonly refresh: (timer: Timer) => void
  installation: Install.Installation | undefined
  /**
   * Whether a run is within one of its loop limit: timers made (or intervals re-armed)
   * then keep their creation stack in `stacks`, for the loop-limit error. `runAll` sets
   * it, and the fake-timers clocks' own loops.
   */
  nearLimit: boolean
  readonly stacks: WeakMap<Timer, Error>
  /** The clock's method names, which a loop error's stack starts after. */
  methods: readonly string[]
  /** A schedule steering this clock (`hooks.ts`); undefined for FIFO on time. */
  hooks: ScheduleHooks | undefined
  /** How many timers have fired: a callback that sees it change knows a move ran inside it. */
  fired: number
  /**
   * The timer a sync `tick` of a fake-timers clock is firing (set by its loop, read and
   * cleared by the callback): between it and the next timer that loop runs nothing but
   * the queued jobs, so a callback standing for several timers of this ms (a simulation's
   * arrivals) may run the next itself when no job is queued, no move ran, and no other
   * timer comes first.
   */
  tickFiring: Timer | undefined
  /** With `tickFiring`: the elapsed ms that tick runs to. */
  tickTo: number
  /**
   * A step of the callback of `tickFiring` (`stepTick`): that timer, and the elapsed ms it
   * stepped the clock to. The tick's loop takes it after the firing, as the time it fired
   * at, not a move to shift its range by.
   */
  stepped: Timer | undefined
  steppedTo: number
}

/**
 * One call of fake-timers' `tick`, in elapsed time: the range still to run,
 * `[tickFrom, tickTo]`, the lagging lower end `previous`, the nanoseconds to keep at the
 * end, and the first error. `pending` is set while a `runToLast` does not know its end.
 */
interface Tick {
  tickFrom: number
  tickTo: number
  previous: number
  nanosTotal: number
  firstError: unknown
  pending: Pending | undefined
}

interface Pending {
  readonly watch: Schedule.Watch
  /** `elapsed` and `nanos` when the `runToLast` started. */
  readonly from: number
  readonly nanos: number
  /** How far callbacks have moved the clock since, which moves the end with it. */
  shift: number
}

// Reading the time.

const nowOf = (c: State): number => c.refNow + (c.elapsed - c.refElapsed)

/** fake-timers' `performance.now()`, from its `hrtime()`, operation for operation. */
const performanceNow = (c: State): number => {
  const seconds = Math.floor(c.elapsed / 1000)
  const nanosInSecond = (c.elapsed - seconds * 1e3) * 1e6 + c.nanos - c.adjustedNanos
  return seconds * 1000 + nanosInSecond / 1e6
}

const timeToNextFrame = (c: State): number => Coerce.frameMs - (c.elapsed % Coerce.frameMs)

// Cold error paths.

const tooLate = (c: State, due: number): never => {
  throw new RangeError(
    `VirtualClock: a timer due ${due} ms after the clock's start is out of range; ` +
      `timers can be due at most ${2 ** 52 - 1} ms after it (now ${nowOf(c)})`,
  )
}

/**
 * The clock's range: it moves at most this far, in ms, from its start (about 142,000
 * years). A timer is due at most 2^31 ms after the time it is set at, so every timer set
 * or re-armed within the range fits the schedule, whose keys end at 2^52 - 1: nothing can
 * be refused halfway through a move. A move past the range is refused before it starts.
 *
 * @example
 * const clock = VirtualClock.create()
 * clock.tick(VirtualClock.lastElapsed + 1) // throws TimeOutOfRange before the clock moves
 */
export const lastElapsed = 2 ** 52 - 2 ** 32

const outOfRange = (what: string, from: number, to: number): never => {
  throw new TimingWheelError(
    'TimeOutOfRange',
    `VirtualClock: ${what} would move the clock to ${to} ms after its start (from ${from}); ` +
      `its range is [0, ${lastElapsed}] ms after its start`,
  )
}

/** Refuses a move of the clock to `to` ms after its start if that is past its range. */
const checkMove = (what: string, from: number, to: number): void => {
  if (to > lastElapsed) outOfRange(what, from, to)
}

const notFinite = (what: string, ms: number): never => {
  throw new TypeError(`VirtualClock: ${what} needs a finite number of milliseconds, not ${ms}`)
}

const checkCallback = (callback: unknown): void => {
  if (callback === undefined) throw new Error('Callback must be provided to timer calls')
  if (typeof callback !== 'function') {
    throw new TypeError(
      `[ERR_INVALID_CALLBACK]: Callback must be a function. Received ${callback as string} of type ${typeof callback}`,
    )
  }
}

// Starting and stopping timers.

/** The key of a timer id; ids wrap around before MAX_SAFE_INTEGER, as in fake-timers. */
const keyOf = (id: unknown): number => Number(id) - Coerce.firstTimerId

const maxKey = Number.MAX_SAFE_INTEGER - Coerce.firstTimerId

/** The key of the next id to hand out, for every clock. */
let nextKey = 0
/** Whether the keys have wrapped around: only then can the next one be taken. */
let keysWrapped = false

const freshKey = (c: State): number => {
  if (keysWrapped) while (TimerTable.has(indexOf(c), nextKey)) nextKey = nextKey + 1 >= maxKey ? 0 : nextKey + 1
  const key = nextKey
  if (key + 1 < maxKey) nextKey = key + 1
  else {
    nextKey = 0
    keysWrapped = true
  }
  return key
}

const addTimer = (
  c: State,
  kind: TimerKind,
  callback: unknown,
  args: readonly unknown[] | undefined,
  arg: unknown,
  delay: number | undefined,
  interval: number | undefined,
): Timer => {
  const due = c.elapsed + Coerce.dueOffset(delay, c.duringTick)
  if (!Schedule.fits(c.schedule, due)) tooLate(c, due)
  const key = freshKey(c)
  const timer = new Timer(key, kind, callback as Timer['callback'], args, arg, delay, interval, due, c.nextOrder++, c.home)
  if (c.nearLimit) c.stacks.set(timer, new Error())
  if (c.hooks !== undefined) c.hooks.armed(timer, c.elapsed, c.duringTick)
  if (c.index !== undefined) TimerTable.set(c.index, key, timer)
  Schedule.add(c.schedule, timer)
  return timer
}

/** The handle is the timer itself. */
const handleOf = (c: State, timer: Timer): TimerId => (c.handles ? timer : timer.id)

/** Whether `timer` is pending on this clock (not fired, cleared, of an earlier generation or of another clock). */
const isPending = (c: State, timer: Timer): boolean => timer.place !== undefined && timer.home === c.home

/** The index of numeric ids, built from the schedule at its first use. Linear then, constant after. */
const indexOf = (c: State): TimerTable.TimerTable => {
  if (c.index === undefined) {
    const index = new TimerTable.TimerTable()
    for (const timer of Schedule.timers(c.schedule)) TimerTable.set(index, timer.key, timer)
    c.index = index
  }
  return c.index
}

/** The pending timer a handle or an id names, if any. */
const pendingTimer = (c: State, id: unknown): Timer | undefined => {
  if (id instanceof Timer) return isPending(c, id) ? id : undefined
  return TimerTable.get(indexOf(c), keyOf(id))
}

/** Takes a pending timer out. */
const removeTimer = (c: State, timer: Timer): void => {
  if (c.index !== undefined) TimerTable.remove(c.index, timer.key)
  Schedule.remove(c.schedule, timer)
}

/** Node's `refresh`: due its first delay from now, armed anew; revives a fired or cleared timer. */
const refresh = (c: State, timer: Timer): void => rearmAfter(c, timer, timer.delay)

/**
 * `refresh` with another delay (coerced): the timer armed anew as a `setTimeout` of
 * `delay` would be, with the same callback, in the same object. For a timer of the
 * package's own that fires again and again (the simulation's batch), no timer made a firing.
 */
const rearmAfter = (c: State, timer: Timer, delay: number | undefined): void => {
  const due = c.elapsed + Coerce.dueOffset(delay, c.duringTick)
  if (!Schedule.fits(c.schedule, due)) tooLate(c, due)
  if (isPending(c, timer)) Schedule.remove(c.schedule, timer)
  timer.due = due
  timer.order = c.nextOrder++
  timer.home = c.home
  if (c.hooks !== undefined) c.hooks.armed(timer, c.elapsed, c.duringTick)
  if (c.index !== undefined) TimerTable.set(c.index, timer.key, timer)
  Schedule.add(c.schedule, timer)
}

const clearTimer = (c: State, id: unknown, asked: TimerKind): void => {
  if (!id) return
  const timer = pendingTimer(c, id)
  if (timer === undefined) return
  if (!clearableAs(timer.kind, asked)) {
    throw new Error(
      `Cannot clear timer: timer created with ${scheduleName(timer.kind)}() but cleared with ${clearName(asked)}()`,
    )
  }
  removeTimer(c, timer)
}

/**
 * fake-timers' `callTimer`: an interval re-arms before its callback runs (so the callback
 * can clear it), anything else is gone before its callback runs.
 */
const fire = (c: State, timer: Timer): void => {
  c.fired++
  if (c.hooks !== undefined) c.hooks.firing(timer, c.elapsed)
  if (timer.interval !== undefined) {
    const due = timer.due + timer.interval
    if (!Schedule.fits(c.schedule, due)) tooLate(c, due)
    // Re-armed near the loop limit, an interval is created anew, as fake-timers counts it.
    if (c.nearLimit) c.stacks.set(timer, new Error())
    Schedule.remove(c.schedule, timer)
    timer.due = due
    timer.order = c.nextOrder++
    if (c.hooks !== undefined) c.hooks.armed(timer, c.elapsed, true)
    Schedule.add(c.schedule, timer)
  } else {
    removeTimer(c, timer)
  }
  const args = timer.args
  if (args === oneArg) timer.callback.call(null, timer.arg)
  else call(timer.callback, args ?? [performanceNow(c)])
}

/**
 * `callback.apply(null, args)`, as fake-timers calls it; spelled out for the common
 * lengths, because a call through an array of arguments costs as much as the rest of
 * firing a timer.
 */
const call = (callback: Timer['callback'], args: readonly unknown[]): void => {
  switch (args.length) {
    case 0:
      callback.call(null)
      return
    case 1:
      callback.call(null, args[0])
      return
    case 2:
      callback.call(null, args[0], args[1])
      return
    default:
      Reflect.apply(callback, null, args)
  }
}

// Moving the clock.

/** fake-timers' `createTickState`, in elapsed time. Throws before changing anything. */
const planTick = (msFloat: number, from: number, nanos: number): { tickTo: number; nanosTotal: number } => {
  if (!Number.isFinite(msFloat)) notFinite('tick', msFloat)
  const ms = Math.floor(msFloat)
  let nanosTotal = nanos + Coerce.nanoRemainder(msFloat)
  let tickTo = from + ms
  if (msFloat < 0) throw new TypeError('Negative ticks are not supported')
  if (nanosTotal >= 1e6) {
    tickTo += 1
    nanosTotal -= 1e6
  }
  checkMove('tick', from, tickTo)
  return { tickTo, nanosTotal }
}

/**
 * Once a `runToLast` knows its end, it becomes an ordinary tick to there. fake-timers
 * sets `nanos` when a tick starts; a span of whole milliseconds leaves it as it was, so
 * only the value to restore at the end is set here. (A span so long that `ms * 1e6`
 * rounds, over 5.7e11 ms, would have changed it at the start, which is past.)
 */
const settle = (c: State, tick: Tick): void => {
  const pending = tick.pending
  if (pending === undefined || pending.watch.left > 0) return
  tick.pending = undefined
  Schedule.unwatch(c.schedule, pending.watch)
  const plan = planTick(pending.watch.latestDue - pending.from, pending.from, pending.nanos)
  tick.tickTo = plan.tickTo + pending.shift
  tick.nanosTotal = plan.nanosTotal
}

/** The first timer due in `[low, tickTo]`. */
const select = (c: State, tick: Tick, low: number): Timer | undefined => {
  settle(c, tick)
  const timer = Schedule.firstInRange(c.schedule, low, tick.tickTo)
  if (tick.pending === undefined) return timer
  settle(c, tick)
  return timer !== undefined && timer.due <= tick.tickTo ? timer : undefined
}

/** fake-timers' `doTick` after its state is made: the loop, then `finalizeTick`. */
const runTick = (c: State, tick: Tick): number => {
  c.duringTick = true
  let timer = select(c, tick, tick.tickFrom)
  while (timer !== undefined && tick.tickFrom <= tick.tickTo) {
    const due = timer.due
    checkMove('runToLast', c.elapsed, due)
    tick.tickFrom = due
    c.elapsed = due
    try {
      fire(c, timer)
    } catch (e) {
      if (!tick.firstError) tick.firstError = e
    }
    const moved = c.elapsed - due
    if (moved !== 0) {
      tick.tickFrom += moved
      tick.tickTo += moved
      tick.previous += moved
      const pending = tick.pending
      if (pending !== undefined) {
        pending.shift += moved
        // Moved back, the end may now come before timers of the watch, which must then
        // not fire: the end has to be known from here on.
        if (moved < 0) Schedule.closeWatch(c.schedule, pending.watch)
      }
    }
    timer = select(c, tick, tick.previous)
    tick.previous = tick.tickFrom
  }
  c.duringTick = false
  settle(c, tick)
  if (select(c, tick, tick.tickFrom) !== undefined) {
    try {
      doTick(c, tick.tickTo - c.elapsed)
    } catch (e) {
      if (!tick.firstError) tick.firstError = e
    }
  } else {
    c.elapsed = tick.tickTo
    c.nanos = tick.nanosTotal
  }
  if (tick.firstError) throw tick.firstError
  return nowOf(c)
}

/**
 * A tick that nothing can notice, in constant time: true when done, false where it does
 * not apply (then nothing changed). It applies to a whole number of ms below 2^31 (no
 * nanoseconds to carry), with no hooks steering the search and no timer due up to the
 * target by the schedule's bound alone (a stale bound sends the tick the long way, whose
 * search makes it exact again). The long way would fire nothing and end at the target
 * with the tick flag down, which is all this does.
 */
const idleTick = (c: State, ms: unknown): boolean => {
  // A number in [0, 2^31) that is whole is its own int32; other numbers are not. Anything
  // else goes the long way untouched (`|` would call an object's valueOf).
  if (typeof ms !== 'number' || (ms | 0) !== ms || ms < 0 || c.hooks !== undefined) return false
  const tickTo = c.elapsed + ms
  if (tickTo > lastElapsed || !Schedule.idleUpTo(c.schedule, tickTo)) return false
  c.elapsed = tickTo
  c.duringTick = false
  return true
}

const doTick = (c: State, msFloat: number): number => {
  const plan = planTick(msFloat, c.elapsed, c.nanos)
  c.nanos = plan.nanosTotal
  const from = c.elapsed
  return runTick(c, {
    tickFrom: from,
    tickTo: plan.tickTo,
    previous: from,
    nanosTotal: plan.nanosTotal,
    firstError: undefined,
    pending: undefined,
  })
}

const next = (c: State): number => {
  const timer = Schedule.first(c.schedule)
  if (timer === undefined) return nowOf(c)
  checkMove('next', c.elapsed, timer.due)
  c.duringTick = true
  try {
    c.elapsed = timer.due
    fire(c, timer)
    return nowOf(c)
  } finally {
    c.duringTick = false
  }
}

const runAll = (c: State): number => {
  try {
    for (let i = 0; i < c.loopLimit; i++) {
      if (Schedule.count(c.schedule) === 0) return nowOf(c)
      if (i === c.loopLimit - 1) c.nearLimit = true
      next(c)
    }
  } finally {
    c.nearLimit = false
  }
  // fake-timers builds its error from the next timer and fails on its absence.
  const looping = Schedule.first(c.schedule)
  if (looping === undefined) throw new TypeError("Cannot read properties of null (reading 'error')")
  throw loopError(c.loopLimit, { type: looping.kind, func: looping.callback, error: c.stacks.get(looping) }, c.methods, c.handles)
}

const runToLast = (c: State): number => {
  const s = c.schedule
  if (Schedule.count(s) === 0) return nowOf(c)
  if (Schedule.wheelCount(s) === 0) return doTick(c, Schedule.lastLateDue(s)! - c.elapsed)
  const from = c.elapsed
  const pending: Pending = { watch: Schedule.watchWheel(s), from, nanos: c.nanos, shift: 0 }
  try {
    const tick = { tickFrom: from, tickTo: Infinity, previous: from, nanosTotal: c.nanos, firstError: undefined, pending }
    return runTick(c, tick)
  } finally {
    Schedule.unwatch(s, pending.watch)
  }
}

const jump = (c: State, value: number | string): number => {
  const msFloat = Coerce.tickValueToMs(value)
  if (!Number.isFinite(msFloat)) notFinite('jump', msFloat)
  const ms = Math.floor(msFloat)
  checkMove('jump', c.elapsed, c.elapsed + ms)
  Schedule.raiseDueTimes(c.schedule, c.elapsed + ms, c.elapsed)
  doTick(c, ms)
  return nowOf(c)
}

const setSystemTime = (c: State, value: unknown): void => {
  const now = Coerce.epochOf(value)
  c.adjustedNanos += c.nanos
  c.nanos = 0
  c.refNow = now
  c.refElapsed = c.elapsed
}

const reset = (c: State): void => {
  c.nanos = 0
  c.adjustedNanos = 0
  c.index = undefined
  c.home = { refresh: c.refresh }
  Schedule.clear(c.schedule)
  c.elapsed = 0
  c.refNow = c.start
  c.refElapsed = 0
}

// The clock.

/**
 * A clock's `setTimeout`: the callback's arguments read from `arguments` rather than a
 * rest parameter, so that a call with one argument makes no array (the timer keeps it).
 */
const timeoutSetter = (c: State): VirtualClock['setTimeout'] =>
  function setTimeout(callback: unknown, delay?: unknown): TimerId {
    checkCallback(callback)
    // Only the length and one element read, so V8 makes no arguments object for up to one argument.
    const n = arguments.length
    // eslint-disable-next-line prefer-rest-params
    const args = n === 3 ? oneArg : n < 3 ? noArgs : argsAfter(arguments, 2)
    // eslint-disable-next-line prefer-rest-params
    return handleOf(c, addTimer(c, 'Timeout', callback, args, arguments[2], Coerce.coerceDelay(delay), undefined))
  } as VirtualClock['setTimeout']

/**
 * A virtual clock at `now` (ms since the epoch, floored; default 0), with no timers.
 *
 * Behaves as `FakeTimers.createClock(now, loopLimit)` of `@sinonjs/fake-timers` 15 for
 * timers: the same callbacks in the same order, each seeing the same `now`, the same
 * errors, the same `countTimers()` and `now` after every call. Starting, clearing and
 * firing a timer take constant time (fake-timers: a heap, and scans in `tick` and
 * `runToLast`). Throws a `RangeError` if `now` is not finite.
 *
 * @example
 * const clock = VirtualClock.create({ now: Date.UTC(2024, 0, 1) })
 * const seen: number[] = []
 * clock.setTimeout(() => seen.push(clock.now), 100)
 * clock.setInterval(() => seen.push(clock.now), 40)
 * clock.tick(100) // seen: [+40, +80, +100] after the start
 */
export const create = (options: CreateOptions = {}): VirtualClock => {
  const start = Math.floor(Coerce.epochOf(options.now))
  const refreshHere = (timer: Timer): void => refresh(c, timer)
  const c: State = {
    start,
    elapsed: 0,
    refNow: start,
    refElapsed: 0,
    nanos: 0,
    adjustedNanos: 0,
    loopLimit: options.loopLimit || 1000,
    duringTick: false,
    schedule: Schedule.create(),
    index: undefined,
    home: { refresh: refreshHere },
    nextOrder: 0,
    handles: hostReturnsObjects(),
    refresh: refreshHere,
    installation: undefined,
    nearLimit: false,
    stacks: new WeakMap(),
    methods: [],
    hooks: undefined,
    fired: 0,
    tickFiring: undefined,
    tickTo: 0,
    stepped: undefined,
    steppedTo: 0,
  }
  const clock: VirtualClock = withAccessors<VirtualClock, 'now' | 'loopLimit', State>({
    performance: { now: () => performanceNow(c) },
    setTimeout: timeoutSetter(c),
    clearTimeout: (id) => clearTimer(c, id, 'Timeout'),
    setInterval: (callback, delay, ...args) => {
      const parsed = Coerce.parseIntervalDelay(delay)
      checkCallback(callback)
      const interval = Coerce.coerceInterval(parsed)
      return handleOf(c, addTimer(c, 'Interval', callback, args, undefined, Coerce.coerceDelay(parsed), interval))
    },
    clearInterval: (id) => clearTimer(c, id, 'Interval'),
    setImmediate: (callback, ...args) => {
      checkCallback(callback)
      return handleOf(c, addTimer(c, 'Immediate', callback, args, undefined, undefined, undefined))
    },
    clearImmediate: (id) => clearTimer(c, id, 'Immediate'),
    requestAnimationFrame: (callback) => {
      checkCallback(callback)
      const delay = Coerce.coerceDelay(timeToNextFrame(c))
      return addTimer(c, 'AnimationFrame', callback, undefined, undefined, delay, undefined).id
    },
    cancelAnimationFrame: (id) => clearTimer(c, id, 'AnimationFrame'),
    tick: (ms) => (idleTick(c, ms) ? nowOf(c) : doTick(c, Coerce.tickValueToMs(ms))),
    next: () => next(c),
    runAll: () => runAll(c),
    runToLast: () => runToLast(c),
    runToFrame: () => doTick(c, timeToNextFrame(c)),
    countTimers: () => Schedule.count(c.schedule),
    reset: () => reset(c),
    setSystemTime: (now) => setSystemTime(c, now),
    jump: (ms) => jump(c, ms),
    install: (target = globalThis, installOptions = {}) => {
      if (c.installation !== undefined) {
        throw new Error('VirtualClock.install: this clock is already installed; call uninstall() first')
      }
      c.installation = Install.install(clock, target, installOptions)
    },
    uninstall: () => {
      const installation = c.installation
      c.installation = undefined
      installation?.restore()
    },
  }, c, clockAccessors)
  c.methods = Object.keys(clock)
  return clock
}

/** A clock's state: the one its accessors read (`accessors.ts`), for clocks this module made. */
const stateOfClock = (clock: VirtualClock): State | undefined => stateOf<State>(clock, clockAccessors)

const clockAccessors: Accessors<VirtualClock, 'now' | 'loopLimit', State> = {
  now: { get: nowOf },
  loopLimit: {
    get: (c) => c.loopLimit,
    set: (c, limit) => {
      c.loopLimit = limit
    },
  },
}

/**
 * Checks a clock's invariants: its timers are exactly those in its schedule, the
 * schedule's own invariants (and its wheel's) hold. Linear time; meant for tests.
 * Throws an `Error` naming the first broken one, or a `TypeError` for a clock not made
 * by {@link create}.
 *
 * @example
 * VirtualClock.invariant(clock)
 */
export const invariant = (clock: VirtualClock): void => {
  const c = stateOfClock(clock)
  if (c === undefined) throw new TypeError('VirtualClock.invariant: not a clock made by VirtualClock.create')
  Schedule.invariant(c.schedule)
  const fail = (what: string): never => {
    throw new Error(`VirtualClock invariant broken: ${what}`)
  }
  if (!Number.isInteger(c.elapsed)) fail(`elapsed ${c.elapsed} is not an integer`)
  const least = Schedule.leastWheelDue(c.schedule)
  if (least !== undefined && least < c.elapsed) fail(`a wheel timer is due at ${least}, before elapsed ${c.elapsed}`)
  const count = Schedule.count(c.schedule)
  const pending = Schedule.timers(c.schedule)
  if (pending.length !== count) fail(`${pending.length} timers in the schedule, but it counts ${count}`)
  for (const timer of pending) if (timer.home !== c.home) fail(`timer ${timer.id} is of another generation`)
  if (c.index !== undefined) {
    if (c.index.size !== count) fail(`${c.index.size} ids for ${count} timers`)
    for (const [key, timer] of TimerTable.entries(c.index)) {
      if (timer.key !== key || !isPending(c, timer)) fail(`timer ${timer.id} is not scheduled under its key`)
    }
  }
}

/**
 * The state behind a clock and the steps that move it, for `timing-wheel/fake-timers`:
 * its clocks are these clocks, moved step by step so that they can run queued microtasks
 * between timers and yield to the host's event loop between them, as fake-timers' clocks
 * do. Not in the `VirtualClock` namespace (see namespace.ts).
 */
/**
 * Re-arms a timeout that has just fired, due in the same ms again, with an `order` handed
 * out earlier (taken from `nextOrder` when what it stands for was armed): so one timer
 * can stand for several that would have fired in that ms, in their place among the
 * others. The timer's callback calls it before anything else. Linear in the late timers.
 */
const rearmOrdered = (c: State, timer: Timer, order: number): void => {
  timer.order = order
  timer.home = c.home
  if (c.index !== undefined) TimerTable.set(c.index, timer.key, timer)
  Schedule.addAmongDue(c.schedule, timer)
}

/**
 * Gives a pending timer that fires first a later `order`, as `removeTimer` then
 * `rearmOrdered` would, when it still fires first (true); otherwise nothing (false).
 * Constant time.
 */
const reorderFirst = (c: State, timer: Timer, order: number): boolean => Schedule.reorderFirst(c.schedule, timer, order)

/**
 * From the callback of `tickFiring`: the clock at `to` (after now, at most `tickTo`), as
 * the tick's loop would put it before firing a timer due then. The caller stands for
 * that timer: it has checked that no other timer is due by `to` and no job is queued, so
 * the loop would run nothing in between.
 */
const stepTick = (c: State, timer: Timer, to: number): void => {
  c.elapsed = to
  c.stepped = timer
  c.steppedTo = to
}

export const internals = {
  stateOf: stateOfClock,
  rearmAfter,
  rearmOrdered,
  reorderFirst,
  stepTick,
  removeTimer,
  nowOf,
  performanceNow,
  timeToNextFrame,
  checkCallback,
  addTimer,
  handleOf,
  isPending,
  pendingTimer,
  clearTimer,
  fire,
  planTick,
  idleTick,
  checkMove,
  setSystemTime,
  reset,
}

/** The state of a clock, for {@link internals}. */
export type { State }
