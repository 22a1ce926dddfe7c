/**
 * A rate limiter: at most one job starts per `intervalMs`. Jobs queue up; each gets a
 * start time when it arrives, the later of now and the previous start plus the interval,
 * and a timer for it.
 *
 * The bug (`recheck: false`): the start time is planned when the job arrives and never
 * checked when the timer fires. If the first timer runs 1 ms late (a stall; on Node always,
 * since a 0 ms delay is 1 ms there),
 * the second still runs on time, 99 ms after the first: the limit is broken. Two widely
 * used limiters had this shape. The fix (`recheck: true`) looks at the clock when the
 * timer fires and waits for the rest of the interval if the last start was too recent.
 */
export interface Limiter {
  readonly schedule: (job: () => void) => void
}

export const createLimiter = ({ intervalMs, recheck }: { intervalMs: number; recheck: boolean }): Limiter => {
  let plannedStart = -Infinity
  let lastStart = -Infinity
  const start = (job: () => void): void => {
    const wait = lastStart + intervalMs - Date.now()
    if (recheck && wait > 0) {
      setTimeout(() => start(job), wait)
      return
    }
    lastStart = Date.now()
    job()
  }
  return {
    schedule: (job) => {
      plannedStart = Math.max(Date.now(), plannedStart + intervalMs)
      setTimeout(() => start(job), plannedStart - Date.now())
    },
  }
}
