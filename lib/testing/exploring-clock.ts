/**
 * A fake clock that runs timers in an order a real event loop might, chosen by a plan:
 * timers due in the same millisecond in any order, and each timer up to some milliseconds
 * late (never early). With the empty plan it runs timers exactly as the virtual clock
 * does, first in, first out, on time. `clockArb` (arbitraries.ts) draws the plans, so
 * fast-check explores orders and shrinks a failure toward FIFO.
 *
 * Representation.
 *
 * - Timers wait in a `PriorityQueue` keyed by when they run:
 *   `runMs * 1024 + (immediate ? 0 : 1) + 2 * rank`, where `runMs` is the elapsed
 *   millisecond the timer runs at (its due time plus its lateness) and `rank` in
 *   `[0, 511]` orders the timers that run in the same millisecond. Equal keys run in the
 *   order armed. With rank 0 everywhere this is the virtual clock's order: by due time,
 *   immediates first, then as armed.
 * - The plan is a list of `[rank, lateness]`, one per arming (a timer's creation, an
 *   interval's every re-arming, in the order they happen); armings past its end take
 *   `[0, 0]`. So the same plan always makes the same choices.
 * - Keys span `2^52`, so the clock runs `2^42` ms (about 139 years) from its start.
 *
 * Invariants: every waiting timer is in the queue under its key, which is at least the
 * queue's minimum allowed key; `runMs >= due`; `timers` maps each waiting timer's id to it.
 *
 * Cost: an arming, a clear and a firing each cost the queue's constant time, as on the
 * virtual clock; `runToLast` passes over the waiting timers once to find the last. To
 * describe its departures the clock keeps the timers that ran in milliseconds where one
 * departed, and nothing of the others.
 */
import { TimingWheelError, show } from '../errors.js'
import * as PQ from '../priority-queue/priority-queue.js'
import { withAccessors } from '../sim/accessors.js'
import * as Coerce from '../sim/coercion.js'
import { TimerHandle, type TimerId, hostReturnsObjects } from '../sim/handle.js'
import * as Install from '../sim/install.js'
import { type TimerKind, clearName, clearableAs, scheduleName } from '../sim/timer.js'

/** One arming's freedom: a rank among timers running in the same millisecond, and a lateness in ms. */
export type Choice = readonly [rank: number, lateness: number]

/** Options of an exploring clock. */
export interface ExploringClockOptions {
  /** Wall-clock time to start at, ms since the epoch or a `Date`; default 0. */
  readonly now?: number | Date
  /** How many timers `runAll` runs before it gives up; default 1000, as fake-timers. */
  readonly loopLimit?: number
}

/** A handle of this clock: `refresh()` re-arms its timer with the next plan entry. */
class ExploringHandle extends TimerHandle {
  readonly #rearm: () => void

  constructor(id: number, rearm: () => void) {
    super(id)
    this.#rearm = rearm
  }

  override rearm(): void {
    this.#rearm()
  }
}

/** A timer as the clock keeps it. */
interface Timer {
  readonly id: number
  readonly kind: TimerKind
  readonly callback: (...args: unknown[]) => unknown
  readonly args: readonly unknown[]
  /** The delay it was set with, which `refresh` arms it with again. */
  readonly delay: number
  readonly period: number
  /** Which arming this is, counting from 0: its plan entry. */
  arming: number
  /** Whether that entry departs from FIFO (a rank or a lateness). */
  departed: boolean
  due: number
  runMs: number
  elt: PQ.Elt<Timer>
}

/** A timer that ran, for describing the run. */
interface Ran {
  readonly id: number
  readonly kind: Timer['kind']
  readonly arming: number
  readonly due: number
  readonly runMs: number
  readonly immediate: boolean
  /** Whether its plan entry departed from FIFO (a rank or a lateness). */
  readonly departed: boolean
}

const keysPerMs = 1024
const maxRank = 511
/** The last elapsed ms a key can hold. */
export const lastElapsed = Math.floor(PQ.maxRepresentableKey / keysPerMs) - 1

/**
 * A clock with fake-timers' timer API whose order departs from FIFO as `plan` says.
 * `describe()` lists the departures it made, in words.
 */
export interface ExploringClock {
  /** Wall-clock time, ms since the epoch. */
  readonly now: number
  /** How many timers `runAll` runs before it gives up. */
  readonly loopLimit: number
  /** `performance` on virtual time. */
  readonly performance: {
    /** Ms since the clock's start. */
    readonly now: () => number
  }
  /** `setTimeout` on virtual time; the delay coerced as fake-timers does. */
  readonly setTimeout: (callback: (...args: never[]) => unknown, delay?: unknown, ...args: unknown[]) => TimerId
  /** Cancels a timeout (or an interval). */
  readonly clearTimeout: (id?: unknown) => void
  /** `setInterval` on virtual time; a period below 1 ms is 1 ms. */
  readonly setInterval: (callback: (...args: never[]) => unknown, delay?: unknown, ...args: unknown[]) => TimerId
  /** Cancels an interval (or a timeout). */
  readonly clearInterval: (id?: unknown) => void
  /** Due now; with FIFO ties, before the timeouts due now. */
  readonly setImmediate: (callback: (...args: never[]) => unknown, ...args: unknown[]) => TimerId
  /** Cancels an immediate. */
  readonly clearImmediate: (id?: unknown) => void
  /** Runs the callback at the next 16 ms frame boundary. */
  readonly requestAnimationFrame: (callback: (time: number) => unknown) => TimerId
  /** Cancels an animation frame callback. */
  readonly cancelAnimationFrame: (id?: unknown) => void
  /** Runs what is due in the next `ms` (a number or `'mm:ss'`); returns `now`. */
  readonly tick: (ms: number | string) => number
  /** Runs the first waiting timer, moving to when it runs; returns `now`. */
  readonly next: () => number
  /** Runs timers until none waits (at most `loopLimit`); returns `now`. */
  readonly runAll: () => number
  /** Runs the timers up to the time the last waiting one runs; returns `now`. */
  readonly runToLast: () => number
  /** `tick`, yielding a real macrotask before each timer so promise callbacks run between them. */
  readonly tickAsync: (ms: number | string) => Promise<number>
  /** `next`, after a real macrotask. */
  readonly nextAsync: () => Promise<number>
  /** `runAll`, yielding a real macrotask before each timer. */
  readonly runAllAsync: () => Promise<number>
  /** `runToLast`, yielding a real macrotask before each timer. */
  readonly runToLastAsync: () => Promise<number>
  /** How many timers wait. */
  readonly countTimers: () => number
  /** Puts the clock's timer functions, `Date.now` and `performance.now` on `target` (default `globalThis`). */
  readonly install: (target?: object, options?: Install.InstallOptions) => ExploringClock
  /** Takes out what `install` put in, exactly. */
  readonly uninstall: () => void
  /** The departures from FIFO this clock has made so far, in words. */
  readonly describe: () => readonly string[]
  /** The plan the clock follows. */
  readonly plan: readonly Choice[]
}

const fail = (code: ConstructorParameters<typeof TimingWheelError>[0], message: string): never => {
  throw new TimingWheelError(code, message)
}

/** Checks a plan, so that a hand-written one is refused as clearly as bad options. */
const checkPlan = (plan: readonly Choice[]): void => {
  if (!Array.isArray(plan)) fail('InvalidArgument', `exploring clock: the plan ${show(plan)} is not an array`)
  plan.forEach((choice, i) => {
    const ok =
      Array.isArray(choice) &&
      Number.isInteger(choice[0]) && choice[0] >= 0 && choice[0] <= maxRank &&
      Number.isInteger(choice[1]) && choice[1] >= 0 && choice[1] <= Coerce.maxTimeout
    if (!ok) fail('InvalidArgument', `exploring clock: plan entry ${i}, ${show(choice)}, is not [rank in [0, ${maxRank}], lateness in [0, ${Coerce.maxTimeout}]]`)
  })
}

/**
 * A clock following `plan`. Fresh clocks with the same plan make the same choices.
 *
 * @example
 * const clock = createExploringClock([[1, 0]]) // the first timer armed runs after its ties
 * const seen: string[] = []
 * clock.setTimeout(() => seen.push('a'), 10)
 * clock.setTimeout(() => seen.push('b'), 10)
 * clock.tick(10) // seen: ['b', 'a']
 */
export const createExploringClock = (plan: readonly Choice[], options: ExploringClockOptions = {}): ExploringClock => {
  checkPlan(plan)
  const start = Coerce.epochOf(options.now)
  const loopLimit = options.loopLimit ?? 1000
  if (!Number.isInteger(loopLimit) || loopLimit < 1) fail('InvalidArgument', `exploring clock: loopLimit ${show(loopLimit)} is not an integer >= 1`)
  const objects = hostReturnsObjects()
  // Real macrotasks for the async moves, taken before any install replaces them.
  const host = globalThis as { setImmediate?: (f: () => void) => unknown; setTimeout: (f: () => void, ms: number) => unknown }
  const realLater = host.setImmediate?.bind(globalThis) ?? ((f: () => void) => host.setTimeout.call(globalThis, f, 0))

  const queue = PQ.create<Timer>()
  const timers = new Map<number, Timer>()
  // What ran in the current millisecond, and the milliseconds kept because something in
  // them departed from FIFO: enough to describe the departures, bounded by them.
  let group: Ran[] = []
  const kept: Ran[] = []
  let elapsed = 0
  let nanos = 0
  let armings = 0
  let nextId = Coerce.firstTimerId
  let firing = false
  let installation: Install.Installation | undefined

  const choiceOf = (arming: number): Choice => plan[arming] ?? [0, 0]

  /** Files `timer`, due at elapsed `due`, under the key its next plan entry gives it. */
  const arm = (timer: Timer, due: number): void => {
    const [rank, lateness] = choiceOf(armings)
    timer.arming = armings++
    timer.departed = rank !== 0 || lateness !== 0
    timer.due = due
    timer.runMs = due + lateness
    if (timer.runMs > lastElapsed) fail('TimeOutOfRange', `exploring clock: a timer would run at elapsed ${timer.runMs}, past the clock's range ${lastElapsed}`)
    const key = timer.runMs * keysPerMs + (timer.kind === 'Immediate' ? 0 : 1) + 2 * rank
    timer.elt = PQ.add(queue, Math.max(key, PQ.minAllowedKey(queue)), timer)
    timers.set(timer.id, timer)
  }

  const schedule = (kind: Timer['kind'], callback: unknown, delay: number, period: number, args: readonly unknown[]): TimerId => {
    if (typeof callback !== 'function') {
      throw new TypeError(`[ERR_INVALID_ARG_TYPE]: The "callback" argument must be of type function. Received ${show(callback)}`)
    }
    const id = nextId++
    const timer: Timer = { id, kind, callback: callback as Timer['callback'], args, delay, period, arming: 0, departed: false, due: 0, runMs: 0, elt: PQ.nullElt() }
    arm(timer, elapsed + Coerce.dueOffset(delay, firing))
    return objects ? new ExploringHandle(id - Coerce.firstTimerId, () => rearm(timer)) : id
  }

  const rearm = (timer: Timer): void => {
    drop(timer)
    arm(timer, elapsed + Coerce.dueOffset(timer.delay, firing))
  }

  const drop = (timer: Timer): void => {
    if (timers.get(timer.id) !== timer) return
    PQ.remove(queue, timer.elt)
    timers.delete(timer.id)
  }

  /** Clears as fake-timers does: a timeout and an interval clear each other, other kinds only their own. */
  const clear = (asked: TimerKind) => (id?: unknown): void => {
    if (id === undefined || id === null) return
    const timer = timers.get(Number(id))
    if (timer === undefined) return
    if (!clearableAs(timer.kind, asked)) {
      throw new Error(`Cannot clear timer: timer created with ${scheduleName(timer.kind)}() but cleared with ${clearName(asked)}()`)
    }
    drop(timer)
  }

  /** Takes the first waiting timer out, moves to when it runs, and runs it; an interval re-arms first. */
  const fireFirst = (): void => {
    const elt = PQ.minEltExn(queue)
    const timer = PQ.eltValue(queue, elt)
    // Up to the start of its millisecond only: an immediate set now still goes first.
    PQ.increaseMinAllowedKey(queue, timer.runMs * keysPerMs, () => {})
    PQ.remove(queue, elt)
    timers.delete(timer.id)
    elapsed = timer.runMs
    record(timer)
    if (timer.kind === 'Interval') arm(timer, Math.max(elapsed, timer.due + timer.period))
    firing = true
    try {
      const args = timer.kind === 'AnimationFrame' ? [elapsed] : timer.args
      timer.callback(...args)
    } finally {
      firing = false
    }
  }

  const record = (timer: Timer): void => {
    if (group.length > 0 && group[0]!.runMs !== timer.runMs) {
      if (group.some((r) => r.departed)) kept.push(...group)
      group = []
    }
    group.push({ id: timer.id, kind: timer.kind, arming: timer.arming, due: timer.due, runMs: timer.runMs, immediate: timer.kind === 'Immediate', departed: timer.departed })
  }

  /** The elapsed ms the first waiting timer runs at, or Infinity. */
  // From the least key, which the queue knows without finding its element: an idle tick is O(1).
  const firstRunMs = (): number => (PQ.isEmpty(queue) ? Infinity : Math.floor(PQ.minKeyExn(queue) / keysPerMs))

  const notInCallback = (what: string): void => {
    if (firing) fail('Reentrant', `exploring clock: ${what} from inside a timer callback`)
  }

  /** Runs every timer that runs by elapsed `to`, then rests at `to`; the first error is rethrown at the end. */
  const runUntil = (to: number, yieldFirst?: () => Promise<void>): number | Promise<number> => {
    if (to > lastElapsed) fail('TimeOutOfRange', `exploring clock: elapsed ${to} is past the clock's range ${lastElapsed}`)
    let error: { e: unknown } | undefined
    const step = (): boolean => {
      if (firstRunMs() > to) return false
      try {
        fireFirst()
      } catch (e) {
        error ??= { e }
      }
      return true
    }
    const finish = (): number => {
      elapsed = Math.max(elapsed, to)
      if (error !== undefined) throw error.e
      return start + elapsed
    }
    if (yieldFirst === undefined) {
      while (step());
      return finish()
    }
    return (async () => {
      do {
        await yieldFirst()
      } while (step())
      return finish()
    })()
  }

  const tickTarget = (value: unknown): number => {
    const ms = Coerce.tickValueToMs(value)
    if (!Number.isFinite(ms) || ms < 0) throw new TypeError(`exploring clock: tick needs a finite number of ms >= 0, not ${show(value)}`)
    const total = nanos + Coerce.nanoRemainder(ms)
    nanos = total % 1e6
    return elapsed + Math.floor(ms) + (total >= 1e6 ? 1 : 0)
  }

  const lastRunMs = (): number => {
    let last = -Infinity
    for (const timer of timers.values()) last = Math.max(last, timer.runMs)
    return last
  }

  const loopError = (): never => {
    throw new Error(`Aborting after running ${loopLimit} timers, assuming an infinite loop!`)
  }

  const realMacrotask = (): Promise<void> => new Promise((resolve) => realLater(resolve))

  const clock: ExploringClock = withAccessors<ExploringClock, 'now', undefined>({
    loopLimit,
    performance: { now: () => elapsed + nanos / 1e6 },
    setTimeout: (callback, delay, ...args) => schedule('Timeout', callback, Coerce.coerceDelay(delay), 0, args),
    clearTimeout: clear('Timeout'),
    setInterval: (callback, delay, ...args) => {
      const parsed = Coerce.parseIntervalDelay(delay)
      // A period of 0 or less would run in place forever: an interval runs at least 1 ms apart.
      return schedule('Interval', callback, Coerce.coerceDelay(parsed), Math.max(1, Coerce.coerceInterval(parsed)), args)
    },
    clearInterval: clear('Interval'),
    setImmediate: (callback, ...args) => schedule('Immediate', callback, 0, 0, args),
    clearImmediate: clear('Immediate'),
    requestAnimationFrame: (callback) => {
      const delay = Coerce.frameMs - (elapsed % Coerce.frameMs) || Coerce.frameMs
      return schedule('AnimationFrame', callback, delay, 0, [])
    },
    cancelAnimationFrame: clear('AnimationFrame'),
    tick: (ms) => {
      notInCallback('tick')
      return runUntil(tickTarget(ms)) as number
    },
    next: () => {
      notInCallback('next')
      if (PQ.isEmpty(queue)) return start + elapsed
      fireFirst()
      return start + elapsed
    },
    runAll: () => {
      notInCallback('runAll')
      for (let i = 0; i < loopLimit; i++) {
        if (PQ.isEmpty(queue)) return start + elapsed
        fireFirst()
      }
      return PQ.isEmpty(queue) ? start + elapsed : loopError()
    },
    runToLast: () => {
      notInCallback('runToLast')
      return timers.size === 0 ? start + elapsed : (runUntil(lastRunMs()) as number)
    },
    tickAsync: async (ms) => {
      notInCallback('tickAsync')
      return runUntil(tickTarget(ms), realMacrotask)
    },
    nextAsync: async () => {
      notInCallback('nextAsync')
      await realMacrotask()
      return clock.next()
    },
    runAllAsync: async () => {
      notInCallback('runAllAsync')
      for (let i = 0; i < loopLimit; i++) {
        await realMacrotask()
        if (PQ.isEmpty(queue)) return start + elapsed
        fireFirst()
      }
      return PQ.isEmpty(queue) ? start + elapsed : loopError()
    },
    runToLastAsync: async () => {
      notInCallback('runToLastAsync')
      return timers.size === 0 ? start + elapsed : runUntil(lastRunMs(), realMacrotask)
    },
    countTimers: () => timers.size,
    install: (target = globalThis, installOptions = {}) => {
      if (installation !== undefined) fail('InvalidArgument', 'exploring clock: already installed; uninstall it first')
      installation = Install.install(clock, target, installOptions)
      return clock
    },
    uninstall: () => {
      installation?.restore()
      installation = undefined
    },
    describe: () => describeRun(group.some((r) => r.departed) ? [...kept, ...group] : kept),
    plan,
  }, undefined, { now: { get: () => start + elapsed } })
  return clock
}

/** A timer as a person reads it in a departure. */
const nameOf = (r: Ran): string => `${scheduleName(r.kind)} #${r.arming + 1}`

/**
 * The departures from FIFO in a run: each timer that ran late, and each pair that ran in
 * the same millisecond in the other order than FIFO's (by kind, then as armed).
 */
const describeRun = (ran: readonly Ran[]): string[] => {
  const out: string[] = []
  for (const r of ran) if (r.runMs > r.due) out.push(`${nameOf(r)} (due at ${r.due} ms) ran ${r.runMs - r.due} ms late, at ${r.runMs} ms`)
  const fifo = (a: Ran, b: Ran): boolean => (a.immediate !== b.immediate ? a.immediate : a.arming < b.arming)
  for (let i = 0; i < ran.length; i++) {
    for (let j = i + 1; j < ran.length && ran[j]!.runMs === ran[i]!.runMs; j++) {
      if (fifo(ran[j]!, ran[i]!)) out.push(`${nameOf(ran[i]!)} ran before ${nameOf(ran[j]!)}, both at ${ran[i]!.runMs} ms`)
    }
  }
  return out
}
