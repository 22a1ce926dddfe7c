/**
 * A clock's queue of faked microtasks (`nextTick`, `queueMicrotask`), and the error that
 * ends a run that looks infinite.
 *
 * Jobs run in the order queued, all of them, including those queued while running, each
 * with the clock's time as it is: fake-timers' `runJobs`, which the clocks call before
 * every timer and after every move. A job that throws stops the run and stays queued
 * with those after it (fake-timers clears the queue only when a run finishes). More than
 * `loopLimit` jobs in one run abort it.
 *
 * The loop-limit error names the looping callback and shows where it was queued: when a
 * run comes within one of the limit, the clock starts keeping an `Error` (a stack) for
 * each timer or job created, and the error carries the stack of the one that was next.
 */

import { type Looping, loopError } from '../sim/loop-error.js'

export { type Looping, loopError }

/** A queued microtask. `error` is its creation stack, kept only near the loop limit. */
export interface Job {
  readonly func: (...args: unknown[]) => unknown
  readonly args: readonly unknown[]
  readonly error: Error | undefined
}

/** The part of a clock the queue works on. */
export interface JobQueue {
  jobs: Job[]
  /** Whether a run is within one of the loop limit: creations then keep their stacks. */
  nearLimit: boolean
  readonly loopLimit: number
}

/**
 * Queues `func(...args)`; returns the job.
 *
 * @example
 * enqueue(clock, (x) => log(x), ['a'])
 */
export const enqueue = (q: JobQueue, func: Job['func'], args: readonly unknown[]): Job => {
  const job = { func, args, error: q.nearLimit ? new Error() : undefined }
  q.jobs.push(job)
  return job
}

/**
 * Runs every queued job, and those they queue, in order. Throws what a job throws (the
 * queue then keeps it and the rest), or the loop-limit error past `loopLimit` jobs.
 * `onLoop` builds that error. Time: one call per job.
 *
 * @example
 * runJobs(clock, (job) => loopError(clock.loopLimit, { ...job, type: undefined }, names, true))
 */
export const runJobs = (q: JobQueue, onLoop: (job: Job) => Error): void => {
  if (q.jobs.length === 0) return
  const wasNear = q.nearLimit
  // The queue is read afresh at each step: a job that runs the queue itself (through
  // `runMicrotasks`) empties it, and this run then ends, as in fake-timers.
  for (let i = 0; i < q.jobs.length; i++) {
    const job = q.jobs[i]!
    Reflect.apply(job.func, null, job.args)
    if (q.loopLimit && i === q.loopLimit - 1) q.nearLimit = true
    if (q.loopLimit && i > q.loopLimit) throw onLoop(job)
  }
  if (!wasNear) q.nearLimit = false
  q.jobs = []
}
