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

/** A queued microtask. `error` is its creation stack, kept only near the loop limit. */
export interface Job {
  readonly func: (...args: unknown[]) => unknown
  readonly args: readonly unknown[]
  readonly error: Error | undefined
}

/** Something that ran too often: a job (no `type`) or a timer (its kind). */
export interface Looping {
  readonly type: string | undefined
  readonly func: { readonly name: string }
  readonly error: Error | undefined
}

/** The part of a clock the queue works on. */
export interface JobQueue {
  jobs: Job[]
  /** Whether a run is within one of the loop limit: creations then keep their stacks. */
  nearLimit: boolean
  readonly loopLimit: number
}

const clockMethodLine = (names: readonly string[], returnsObjects: boolean): RegExp =>
  returnsObjects ? new RegExp(`\\s+at (Object\\.)?(?:${names.join('|')})\\s+`) : new RegExp(names.join('|'))

/**
 * fake-timers' loop-limit error: "Aborting after running N timers, assuming an infinite
 * loop!", and, if `looping` kept a creation stack, that stack from the first frame
 * outside the clock's own methods (`clockMethods`), headed by its kind and name.
 *
 * @example
 * throw loopError(1000, job, Object.keys(clock), true)
 */
export const loopError = (
  loopLimit: number,
  looping: Looping,
  clockMethods: readonly string[],
  returnsObjects: boolean,
): Error => {
  const error = new Error(`Aborting after running ${loopLimit} timers, assuming an infinite loop!`)
  if (!looping.error) return error
  const methodLine = clockMethodLine(clockMethods, returnsObjects)
  const lines = (looping.error.stack ?? '').split('\n')
  let matched = -1
  for (let i = 0; i < lines.length; i++) {
    if (methodLine.test(lines[i]!)) matched = i
    else if (matched >= 0) break
  }
  const stack = `${String(error)}\n${looping.type ?? 'Microtask'} - ${looping.func.name || 'anonymous'}\n${lines
    .slice(matched + 1)
    .join('\n')}`
  try {
    Object.defineProperty(error, 'stack', { value: stack })
  } catch {
    // A host whose errors refuse a new stack keeps the plain message.
  }
  return error
}

/**
 * Queues `func(...args)`.
 *
 * @example
 * enqueue(clock, (x) => log(x), ['a'])
 */
export const enqueue = (q: JobQueue, func: Job['func'], args: readonly unknown[]): void => {
  q.jobs.push({ func, args, error: q.nearLimit ? new Error() : undefined })
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
