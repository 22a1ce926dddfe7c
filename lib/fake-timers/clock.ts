/**
 * A fake-timers clock on a `VirtualClock`: everything `@sinonjs/fake-timers` 15.5's
 * `createClock` returns, with the timers kept and fired by the virtual clock's schedule.
 *
 * The clock object is assembled here: its timer functions, microtask queue, `Date`,
 * `Intl`, `hrtime` and `performance` over the state of `state.ts`, and its moves from
 * `moves.ts`. Its timers are a `VirtualClock`'s, so ids, handles, coercions, the firing
 * order and the per-timer cost are the virtual clock's.
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
 * - a handle is the virtual clock's timer record (`sim/handle.ts`): an own `key` (the id
 *   less 10^12) makes two never compare deep-equal (fake-timers' differ by their own
 *   closures), `id` is a getter;
 * - `clock.timers` and `uninstall()` describe the pending timers (id, type, callback,
 *   arguments, delay, interval, `createdAt` when last armed, `callAt`), in firing order,
 *   rather than hand out internal records in heap order;
 * - `scheduler.postTask`, which Node 20 lacks, is not faked;
 * - `AbortSignal.timeout(ms)`, which fake-timers leaves on real time, is a clock timer
 *   (`abort-signal.ts`);
 * - async moves settle as Node runs code (`moves.ts`): a job queued during one runs in
 *   Node's own queues, at the time it was queued, not at the next timer.
 *
 * `runToLast` finds the last timer by a pass over the timers, as fake-timers does.
 */
import { type Accessors, put, stateOf, withAccessors } from '../sim/accessors.js'
import type { ScheduleHooks } from '../sim/hooks.js'
import * as Coerce from '../sim/coercion.js'
import * as Schedule from '../sim/schedule.js'
import { argsAfter, firesBefore, noArgs, oneArg } from '../sim/timer.js'
import * as VirtualClock from '../sim/virtual-clock.js'
import { type ClockDate, createDate } from './date.js'
import type { Host } from './host.js'
import { createIntl } from './intl.js'
import { type AbortHost, fakeAbortSignalTimeout } from './abort-signal.js'
import { type TemporalLike, createTemporal } from './temporal.js'
import * as Jobs from './jobs.js'
import * as Moves from './moves.js'
import {
  type State,
  type TimerType,
  I,
  clearTimer,
  describe,
  enqueueJob,
  handleOf,
  hrtime,
  idleTick,
  newTimer,
  nowOf,
  runJobs,
} from './state.js'

export type { TimerType } from './state.js'

/**
 * How the clock moves by itself: not at all, to each timer in turn, or with real time.
 *
 * @example
 * const clock = createClock()
 * clock.setTickMode({ mode: 'interval', delta: 20 }) // 20 ms of clock time every 20 real ms
 * clock.setTickMode({ mode: 'manual' })
 */
export interface TickMode {
  /** `manual`: only moves; `nextAsync`: runs each timer in turn; `interval`: follows real time. */
  readonly mode: 'manual' | 'nextAsync' | 'interval'
  /** For `interval`: how many ms to tick every as many real ms; default 20. */
  readonly delta?: number | undefined
}

type Callback = (...args: never[]) => unknown

/**
 * `process.hrtime` on virtual time: `[seconds, nanoseconds]` since the clock's start.
 *
 * @example
 * const clock = createClock()
 * const start = clock.hrtime!()
 * clock.tick(1500)
 * clock.hrtime!(start) // [1, 500000000]
 */
export interface HrTime {
  (previous?: readonly [number, number]): [number, number]
  /** The same time in nanoseconds. */
  bigint?: () => bigint
}

/**
 * A pending timer as fake-timers shows it (`clock.timers`, `uninstall()`): times are
 * wall-clock ms; `createdAt` is when it was last armed (created, re-armed by its
 * interval, refreshed).
 *
 * @example
 * const clock = createClock()
 * clock.setTimeout(() => {}, 100)
 * const timer: TimerDescription = [...clock.timers.values()][0]!
 * timer.callAt // 100
 */
export interface TimerDescription {
  /** The timer's id. */
  readonly id: number
  /** What made it (`Timeout`, `Interval`, `Immediate`, `AnimationFrame`, `IdleCallback`). */
  readonly type: TimerType
  /** Its callback. */
  readonly func: (...args: unknown[]) => unknown
  /** The arguments its callback gets. */
  readonly args: readonly unknown[] | undefined
  /** The delay it was set with, in ms. */
  readonly delay: number | undefined
  /** Its period, for an interval. */
  readonly interval: number | undefined
  /** When it was last armed. */
  readonly createdAt: number
  /** When it is due. */
  readonly callAt: number
}

/**
 * What `requestIdleCallback` passes its callback.
 *
 * @example
 * clock.requestIdleCallback((deadline: IdleDeadline) => {
 *   if (!deadline.didTimeout) console.log(deadline.timeRemaining(), 'ms to spare')
 * }, { timeout: 100 })
 */
export interface IdleDeadline {
  /** Whether the callback runs because its timeout passed. */
  readonly didTimeout: boolean
  /** Ms left in the idle period. */
  readonly timeRemaining: () => number
}

/**
 * A fake-timers clock. Its functions do not use `this`. Made by `createClock` and
 * `install` of `timing-wheel/fake-timers`.
 *
 * @example
 * const clock = createClock()
 * const { setTimeout, tick } = clock // unbound, as fake-timers' are
 * setTimeout(() => console.log(clock.now), 5)
 * tick(5) // 5
 */
export interface Clock {
  /** The wall-clock time in ms since the epoch; setting it moves the wall clock only. */
  now: number
  /** How many timers `runAll` runs, and jobs one microtask run runs, before giving up. */
  loopLimit: number
  /** Whether a run is one step from the loop limit (creations then record their stacks). */
  readonly isNearInfiniteLimit: boolean
  /** The current tick mode. */
  readonly tickMode: TickMode & {
    /** How many times the mode has been set. */
    readonly counter: number
  }
  /** A `Date` whose current time is this clock's. */
  readonly Date: ClockDate
  /** The host's `Intl`, with `DateTimeFormat` formatting this clock's time by default. */
  readonly Intl?: typeof Intl
  /** `performance` on virtual time: `now()`, and after `install` the rest of `Performance` as no-ops. */
  readonly performance?: {
    /** Ms since the clock's start. */
    now: () => number
    [name: string]: unknown
  }
  /** `process.hrtime` on virtual time (where the host has `process.hrtime`). */
  readonly hrtime?: HrTime
  /** The pending timers by id, as a fresh `Map` of descriptions. */
  readonly timers: Map<number, TimerDescription>

  /** Node's and the browser's `setTimeout` on virtual time. */
  readonly setTimeout: (callback: Callback, delay?: unknown, ...args: unknown[]) => VirtualClock.TimerId
  /** Cancels a timeout. */
  readonly clearTimeout: (id?: unknown) => void
  /** `setInterval` on virtual time. */
  readonly setInterval: (callback: Callback, delay?: unknown, ...args: unknown[]) => VirtualClock.TimerId
  /** Cancels an interval. */
  readonly clearInterval: (id?: unknown) => void
  /** `setImmediate` on virtual time: due now, after the timers already due. */
  readonly setImmediate: (callback: Callback, ...args: unknown[]) => VirtualClock.TimerId
  /** Cancels an immediate. */
  readonly clearImmediate: (id?: unknown) => void
  /** Runs the callback at the next 16 ms frame boundary. */
  readonly requestAnimationFrame: (callback: (time: number) => unknown) => number
  /** Cancels an animation frame callback. */
  readonly cancelAnimationFrame: (id?: unknown) => void
  /** Runs the callback when no other timer is due, or at its timeout. */
  readonly requestIdleCallback: (callback: (deadline: IdleDeadline) => unknown, options?: { timeout?: number }) => number
  /** Cancels an idle callback. */
  readonly cancelIdleCallback: (id?: unknown) => void
  /** Queues a faked microtask; it runs at the clock's next move or `runMicrotasks`, or in Node's own queue during an async move. */
  readonly nextTick: (callback: Callback, ...args: unknown[]) => void
  /** As `nextTick`, without arguments. */
  readonly queueMicrotask: (callback: Callback) => void
  /** Runs the queued microtasks now. */
  readonly runMicrotasks: () => void
  /** Pending timers plus queued microtasks. */
  readonly countTimers: () => number

  /**
   * Moves `ms` forward (a number or "hh:mm:ss"), firing what is due; returns `now`. Sync
   * moves keep fake-timers' semantics: native promise continuations cannot run inside them.
   */
  readonly tick: (ms: number | string) => number
  /** Fires the first timer; returns `now`. */
  readonly next: () => number
  /** Fires timers until none is left, at most `loopLimit`; returns `now`. */
  readonly runAll: () => number
  /** Ticks to the next animation frame; returns `now`. */
  readonly runToFrame: () => number
  /** Ticks to the last pending timer; returns `now`. */
  readonly runToLast: () => number
  /**
   * `tick`, settling as Node runs code: before time moves past a point, faked jobs (in
   * Node's order) and native promise continuations run, over real macrotasks, until none
   * is left (at most `loopLimit` rounds); when it resolves nothing it started is pending.
   */
  readonly tickAsync: (ms: number | string) => Promise<number>
  /** `next`, settling before and after the timer as `tickAsync` does. */
  readonly nextAsync: () => Promise<number>
  /** `runAll`, settling before each timer and at the end as `tickAsync` does. */
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

// The clock.

type Core = VirtualClock.State

const stateAccessors: Accessors<State, 'nearLimit' | 'loopLimit', Core> = {
  // The core's flag: near the limit it keeps timers' creation stacks, and jobs follow it.
  nearLimit: {
    get: (core) => core.nearLimit,
    set: (core, near) => {
      core.nearLimit = near
    },
  },
  loopLimit: { get: (core) => core.loopLimit },
}

type ClockAccessor = 'now' | 'loopLimit' | 'isNearInfiniteLimit' | 'tickMode' | 'timers'

const clockAccessors: Accessors<Clock, ClockAccessor, State> = {
  now: {
    get: nowOf,
    // The wall clock alone moves: fake-timers' timers are due at wall-clock times and
    // would come closer, these are due at elapsed times and keep their distance.
    set: (f, now) => {
      const core = f.core
      core.refNow = now - (core.elapsed - core.refElapsed)
    },
  },
  loopLimit: {
    get: (f) => f.core.loopLimit,
    set: (f, limit) => {
      f.core.loopLimit = limit
    },
  },
  isNearInfiniteLimit: { get: (f) => f.nearLimit },
  tickMode: { get: (f) => f.tickMode },
  timers: {
    get: (f) => {
      const timers = new Map<number, TimerDescription>()
      for (const timer of Schedule.timers(f.core.schedule)) timers.set(timer.id, describe(f, timer))
      return timers
    },
  },
}

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
export const createClock = (host: Host, start?: unknown, loopLimit?: number, hooks?: (core: VirtualClock.State) => ScheduleHooks): Clock => {
  const vc = VirtualClock.create({ now: Coerce.epochOf(start), loopLimit: loopLimit || 1000 })
  const core = I.stateOf(vc)!
  core.hooks = hooks?.(core)
  const ClockDateClass = createDate(host.NativeDate)
  // Data properties first, the accessors after (see accessors.ts): a literal with a getter
  // is a dictionary, whose every read, at every timer, is a hash lookup.
  const f = withAccessors<State, 'nearLimit' | 'loopLimit', Core>({
    host,
    vc,
    core,
    jobs: [],
    idle: new Map(),
    tickMode: { mode: 'manual', counter: 0, delta: undefined },
    asyncMoves: 0,
    slotRuns: 0,
    slotError: undefined,
    attachedInterval: undefined,
    uninstalled: false,
    clock: undefined as unknown as Clock,
  }, core, stateAccessors)
  const clockHrtime: HrTime = (previous) => hrtime(f, previous)
  if (host.present.hrtime && typeof (host.timers.hrtime as { bigint?: unknown }).bigint === 'function') {
    put(clockHrtime, 'bigint', () => {
      const [seconds, nanos] = hrtime(f)
      return BigInt(seconds) * 1_000_000_000n + BigInt(nanos)
    })
  }
  const clock: Clock = withAccessors<Clock, ClockAccessor, State>({
    Date: ClockDateClass,
    // `arguments`, not a rest parameter: a call with one argument makes no array (see the virtual clock's).
    setTimeout: function setTimeout(callback: Callback, delay?: unknown): VirtualClock.TimerId {
      const n = arguments.length
      // eslint-disable-next-line prefer-rest-params
      const args = n === 3 ? oneArg : n < 3 ? noArgs : argsAfter(arguments, 2)
      // eslint-disable-next-line prefer-rest-params
      return handleOf(f, newTimer(f, 'Timeout', callback, args, Coerce.coerceDelay(delay), undefined, arguments[2]))
    },
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
    nextTick: (callback, ...args) => enqueueJob(f, 'tick', callback as Jobs.Job['func'], args),
    queueMicrotask: (callback) => enqueueJob(f, 'microtask', callback as Jobs.Job['func'], []),
    runMicrotasks: () => runJobs(f),
    countTimers: () => Schedule.count(core.schedule) + f.jobs.length,
    tick: (ms) => (idleTick(f, ms) ? nowOf(f) : Moves.doTick(f, ms)!),
    next: () => Moves.next(f),
    runAll: () => Moves.runAll(f),
    runToFrame: () => Moves.doTick(f, I.timeToNextFrame(core))!,
    runToLast: () => Moves.runToLast(f),
    tickAsync: (ms) => Moves.tickAsync(f, ms),
    nextAsync: () => Moves.nextAsync(f),
    runAllAsync: () => Moves.runAllAsync(f),
    runToLastAsync: () => Moves.runToLastAsync(f),
    reset: () => {
      I.reset(core)
      f.jobs = []
      f.idle.clear()
    },
    setSystemTime: (now) => I.setSystemTime(core, now),
    jump: (ms) => Moves.jump(f, ms),
    setTickMode: (mode) => Moves.setTickMode(f, mode),
    uninstall: () => {
      f.uninstalled = true
      Moves.setTickMode(f, { mode: 'manual' })
      // In firing order, as fake-timers' heap mostly has them.
      const pending = Schedule.timers(core.schedule)
      pending.sort((a, b) => (firesBefore(a, b) ? -1 : 1))
      return pending.map((timer) => describe(f, timer))
    },
  }, f, clockAccessors)
  if (host.present.Intl && host.NativeIntl !== undefined) {
    ;(clock as { Intl?: unknown }).Intl = createIntl(host.NativeIntl, clock)
  }
  if (host.present.performance) {
    const performance = Object.create(null) as { now: () => number }
    put(performance, 'now', () => I.performanceNow(core))
    ;(clock as { performance?: unknown }).performance = performance
  }
  if (host.present.hrtime) put(clock, 'hrtime', clockHrtime)
  if (host.present.Temporal) clock['Temporal'] = createTemporal(host.timers.Temporal as TemporalLike, clock, () => core.nanos)
  if (host.present['AbortSignal.timeout']) {
    const g = host.global as { AbortController: typeof AbortController; DOMException?: typeof DOMException }
    put(clock, 'AbortSignal.timeout', fakeAbortSignalTimeout(
      { AbortController: g.AbortController, DOMException: g.DOMException, timeout: host.timers['AbortSignal.timeout'] as AbortHost['timeout'] },
      clock.setTimeout as (callback: () => void, delay: number) => unknown,
    ))
  }
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

/** Each clock's state, for {@link idleTickOf}, {@link immediateNow} and {@link ticking}: the one its accessors read. */
const stateOfClock = (clock: Clock): State | undefined => stateOf<State>(clock, clockAccessors)

/**
 * The clock's idle `tick`: true when it moved the clock by `ms` with nothing to fire or
 * run, in constant time; false, having changed nothing, when `clock.tick(ms)` must go the
 * long way. For a route that ticks many times through layers of its own (`node-test`),
 * which reads it once.
 *
 * @example
 * const idle = idleTickOf(clock)
 * if (!idle(1)) clock.tick(1)
 */
export const idleTickOf = (clock: Clock): ((ms: number) => boolean) => {
  const f = stateOfClock(clock)
  if (f === undefined) throw new TypeError('idleTickOf: not a clock made by createClock')
  const core = f.core
  // `idleTick` spelled out: a call fewer, where the first thousands of ticks are interpreted.
  return (ms) => f.jobs.length === 0 && f.idle.size === 0 && I.idleTick(core, ms)
}

/**
 * @internal Whether `clock` is firing timers (in `tick`, `runAll` and the like): for the
 * simulation's hosts, whose callbacks' microtasks then run right after each of them, as on
 * Node. False for a clock not made here.
 *
 * @example
 * clock.setTimeout(() => console.log(ticking(clock)), 1) // true, when the clock fires it
 */
export const ticking = (clock: Clock): boolean => stateOfClock(clock)?.core.duringTick === true

/**
 * @internal For the simulation's hosts: a callback due in the ms it is called even inside a
 * tick (fake-timers' rule makes a 0 ms timer or an immediate 1 ms later there), after the
 * timers due that ms already armed: Node's check phase, which follows the timers phase of
 * the same loop turn. It is a 0 ms timeout (fake-timers runs an immediate before timers due
 * with it): clear it with `clearTimeout`. undefined for a clock not made here.
 *
 * @example
 * immediateNow(clock)?.(() => console.log(clock.now))
 */
export const immediateNow = (clock: Clock): ((callback: Callback, ...args: unknown[]) => VirtualClock.TimerId) | undefined => {
  const f = stateOfClock(clock)
  if (f === undefined) return undefined
  return (callback, ...args) => {
    const during = f.core.duringTick
    f.core.duringTick = false
    try {
      return handleOf(f, newTimer(f, 'Timeout', callback, args, 0, undefined))
    } finally {
      f.core.duringTick = during
    }
  }
}
