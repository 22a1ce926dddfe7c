/**
 * Moving a fake-timers clock: `tick`, `next`, `runAll`, `runToLast`, `jump`, their async
 * variants, and the tick modes, as fake-timers' loops, step for step, in elapsed time
 * (`setSystemTime` moves the wall clock, not the timers; see `virtual-clock.ts`).
 *
 * fake-timers runs the microtask queue before every timer and after every move, and its
 * async variants yield one real macrotask between timers, so these loops can stop after
 * any timer and resume later; that is why they are not the virtual clock's own. A
 * callback or job that moves the clock shifts the rest of the range with it; the lower
 * end of the search after each timer lags one timer behind; the first error is rethrown
 * at the end. Constant time per timer fired plus the schedule's search, except
 * `runToLast`, which finds the last timer by a pass over them all, as fake-timers does.
 *
 * Async moves go further than fake-timers, to run code as Node does: before time moves
 * past a point they settle ({@link settleThen}): faked jobs run in native slots (see
 * `state.ts`) or from the queue, real macrotasks let native promise continuations run,
 * and this repeats until a macrotask finds no job queued, at most `loopLimit` rounds. A
 * job queued from a native continuation therefore runs at the time it was queued, and
 * when an async move returns nothing it started is pending. Sync moves cannot run native
 * continuations and keep fake-timers' semantics.
 */
import * as Coerce from '../sim/coercion.js'
import * as Schedule from '../sim/schedule.js'
import type { Timer } from '../sim/timer.js'
import type { TickMode } from './clock.js'
import {
  type State,
  I,
  fire,
  firstInRange,
  firstTimer,
  isPending,
  jobLoopError,
  lastTimer,
  nearLimitAt,
  notFinite,
  nowOf,
  runJobs,
  timerLoopError,
} from './state.js'

// Moving the clock.

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
  /** Whether a job threw while settling: the queue keeps it, so settling again would loop. */
  jobsFailed: boolean
}

/** How an async move ends. */
interface Settle {
  readonly resolve: (now: number) => void
  readonly reject: (reason: unknown) => void
}

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

const keepJob =
  (t: TickState) =>
  (e: unknown): void => {
    keepFirst(t, e)
    t.jobsFailed = true
  }

/** The first error a job threw in a native slot, taken. */
const takeSlotError = (f: State): unknown => {
  const error = f.slotError?.error
  f.slotError = undefined
  return error
}

// Settling, for the async moves.

/**
 * Yields one real macrotask (native continuations and the jobs' native slots run then),
 * runs the faked jobs still queued, and repeats until a macrotask leaves no job queued;
 * then `k`. A job that throws ends the settling: `keep` gets the error (the queue keeps
 * the job, as fake-timers' does). More than `loopLimit` rounds fail with the loop error.
 */
const settleThen = (f: State, k: () => void, keep: (e: unknown) => void, fail: (e: unknown) => void, rounds = 0): void => {
  f.host.later(() => {
    try {
      f.slotRuns = 0
      if (f.jobs.length === 0) {
        k()
        return
      }
      if (rounds >= f.core.loopLimit) throw jobLoopError(f)
      try {
        runJobs(f)
      } catch (e) {
        keep(e)
        k()
        return
      }
      settleThen(f, k, keep, fail, rounds + 1)
    } catch (e) {
      fail(e)
    }
  })
}

/** Runs the queued jobs and settles after them if there were any; else `k` at once. */
const settleJobs = (f: State, k: () => void, keep: (e: unknown) => void, fail: (e: unknown) => void): void => {
  if (f.jobs.length === 0) return k()
  try {
    runJobs(f)
  } catch (e) {
    keep(e)
    return k()
  }
  settleThen(f, k, keep, fail)
}

/**
 * fake-timers' `doTick`. Sync, it returns `now`; async (`settle` given), it fires one
 * timer, yields a real macrotask, and goes on from there, settling at the end.
 */
export const doTick = (f: State, value: unknown, settle?: Settle): number | undefined => {
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
    jobsFailed: false,
  }
  c.nanos = plan.nanosTotal
  c.duringTick = true
  mark(f, t)
  if (settle !== undefined) {
    // A job that throws before the first timer fails the tick at once, as fake-timers' does.
    let failed: { readonly e: unknown } | undefined
    const go = (): void => {
      if (failed !== undefined) return settle.reject(failed.e)
      compensate(f, t, false)
      runRange(f, t, settle)
    }
    settleJobs(f, go, (e) => (failed ??= { e }), settle.reject)
    return undefined
  }
  runJobs(f)
  compensate(f, t, false)
  return runRange(f, t, settle)
}

/** Goes on with an async tick after it settled. */
const resume = (f: State, t: TickState, settle: Settle, afterTimer = true): void => {
  try {
    compensate(f, t, afterTimer)
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
      I.checkMove('tick', c.elapsed, timer.due)
      t.tickFrom = timer.due
      c.elapsed = timer.due
      mark(f, t)
      try {
        runJobs(f)
        // A job may have cleared the timer; a cleared timer does not fire.
        if (isPending(f, timer)) {
          if (settle === undefined) {
            c.tickFiring = timer
            c.tickTo = t.tickTo
          }
          fire(f, timer)
        }
      } catch (e) {
        keepFirst(t, e)
      }
      c.tickFiring = undefined
      if (c.stepped === timer) {
        // The callback fired as the timers of later ms too (`stepTick`): it ran at the last.
        t.tickFrom = t.oldElapsed = c.steppedTo
        c.stepped = undefined
      }
      if (settle !== undefined) {
        settleThen(f, () => resume(f, t, settle), keepJob(t), settle.reject)
        return undefined
      }
      compensate(f, t, true)
    }
    timer = firstInRange(f, t.previous, t.tickTo)
    t.previous = t.tickFrom
  }
  mark(f, t)
  if (settle !== undefined && f.jobs.length !== 0 && !t.jobsFailed) {
    // What the last jobs start may arm timers in range: settle, then look again.
    settleJobs(f, () => resume(f, t, settle, false), keepJob(t), settle.reject)
    return undefined
  }
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
  if (settle !== undefined && f.slotError !== undefined) keepFirst(t, takeSlotError(f))
  if (t.firstError) throw t.firstError
  if (settle === undefined) return nowOf(f)
  settle.resolve(nowOf(f))
  return undefined
}

export const next = (f: State): number => {
  const c = f.core
  runJobs(f)
  const timer = firstTimer(f)
  if (timer === undefined) return nowOf(f)
  c.duringTick = true
  try {
    I.checkMove('next', c.elapsed, timer.due)
    c.elapsed = timer.due
    fire(f, timer)
    runJobs(f)
    return nowOf(f)
  } finally {
    c.duringTick = false
  }
}

export const runAll = (f: State): number => {
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

export const runToLast = (f: State): number => {
  const last = lastTimer(f)
  if (last === undefined) {
    runJobs(f)
    return nowOf(f)
  }
  return doTick(f, last.due - f.core.elapsed)!
}

export const jump = (f: State, value: unknown): number => {
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

/**
 * Runs `body` after one real macrotask, as fake-timers' async moves start. While it runs
 * jobs take native slots; when it ends, a job that threw in one is its error.
 */
const afterMacrotask = (
  f: State,
  body: (resolve: (now: number | PromiseLike<number>) => void, reject: (e: unknown) => void) => void,
): Promise<number> =>
  pauseAutoTick(
    f,
    new f.host.Promise<number>((resolve, reject) => {
      f.host.later(() => {
        f.asyncMoves++
        let ended = false
        const end = (): boolean => {
          if (ended) return false
          ended = true
          f.asyncMoves--
          return true
        }
        const fail = (e: unknown): void => {
          if (end()) reject(e)
        }
        const done = (now: number | PromiseLike<number>): void => {
          if (!end()) return
          if (f.slotError !== undefined) reject(takeSlotError(f))
          else resolve(now)
        }
        try {
          body(done, fail)
        } catch (e) {
          fail(e)
        }
      })
    }),
  )

/** The first timer fired, as `next` does, without the jobs after it: their slots run them. */
const fireFirst = (f: State, timer: Timer): void => {
  const c = f.core
  c.duringTick = true
  try {
    I.checkMove('next', c.elapsed, timer.due)
    c.elapsed = timer.due
    fire(f, timer)
  } finally {
    c.duringTick = false
  }
}

export const nextAsync = (f: State): Promise<number> =>
  afterMacrotask(f, (resolve, reject) => {
    let error: unknown
    const keep = (e: unknown): void => {
      error ??= e
    }
    settleJobs(
      f,
      () => {
        if (error !== undefined) return reject(error)
        const timer = firstTimer(f)
        if (timer === undefined) return resolve(nowOf(f))
        try {
          fireFirst(f, timer)
        } catch (e) {
          error = e
        }
        settleThen(f, () => (error !== undefined ? reject(error) : resolve(nowOf(f))), keep, reject)
      },
      keep,
      reject,
    )
  })

export const runAllAsync = (f: State): Promise<number> => {
  let i = 0
  // A job that throws ends the run with its error, as in fake-timers (where `next` throws it).
  let error: { readonly e: unknown } | undefined
  const keep = (e: unknown): void => {
    error ??= { e }
  }
  const step = (resolve: (now: number) => void, reject: (e: unknown) => void): void => {
    settleJobs(
      f,
      () => {
        try {
          if (error === undefined && f.slotError !== undefined) error = { e: takeSlotError(f) }
          if (error !== undefined) return reject(error.e)
          if (i < f.core.loopLimit) {
            if (Schedule.count(f.core.schedule) === 0) {
              f.nearLimit = false
              resolve(nowOf(f))
              return
            }
            nearLimitAt(f, i)
            const timer = firstTimer(f)!
            i++
            fireFirst(f, timer)
            settleThen(f, () => step(resolve, reject), keep, reject)
            return
          }
          reject(timerLoopError(f, firstTimer(f)))
        } catch (e) {
          reject(e)
        }
      },
      keep,
      reject,
    )
  }
  return afterMacrotask(f, step)
}

export const tickAsync = (f: State, value: unknown): Promise<number> =>
  afterMacrotask(f, (resolve, reject) => {
    doTick(f, value, { resolve, reject })
  })

export const runToLastAsync = (f: State): Promise<number> =>
  afterMacrotask(f, (resolve, reject) => {
    const last = lastTimer(f)
    if (last !== undefined) return resolve(tickAsync(f, last.due - f.core.elapsed))
    let error: { readonly e: unknown } | undefined
    settleJobs(f, () => (error === undefined ? resolve(nowOf(f)) : reject(error.e)), (e) => (error ??= { e }), reject)
  })

// Tick modes.

export const setTickMode = (f: State, wanted: TickMode): void => {
  const { mode, delta } = wanted
  const old = f.tickMode
  if (mode === old.mode && delta === old.delta) return
  if (old.mode === 'interval') f.host.clearInterval?.(f.attachedInterval)
  f.tickMode = { counter: old.counter + 1, mode, delta }
  // The clock moves by itself: jobs take native slots, as in an async move.
  if (old.mode === 'nextAsync') f.asyncMoves--
  if (mode === 'nextAsync') {
    f.asyncMoves++
    void advanceUntilModeChanges(f)
  }
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
    f.slotRuns = 0
    // Jobs still queued run at this time, and what they start settles, before time moves.
    if (f.jobs.length !== 0) runJobs(f)
    else next(f)
  }
}
