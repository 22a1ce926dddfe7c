/**
 * The campaign's progress: seeds per second, failures so far and time left, as a bar
 * redrawn in place on a terminal, or a plain line every few seconds otherwise (a CI log).
 * Time left is the seeds left at the rate so far, or the time budget left.
 */

/**
 * How progress shows: `auto` is a bar on a terminal and lines elsewhere.
 *
 * @example
 * const mode: ProgressMode = process.env.CI ? 'lines' : 'auto'
 * await Campaign.runCampaign({ file: 'lease.campaign.ts', progress: mode })
 */
export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none'

/**
 * Where progress goes: a stream, with `isTTY` when it is a terminal.
 *
 * @example
 * const lines: string[] = []
 * const stream: ProgressStream = { write: (text) => lines.push(text) } // no isTTY: `auto` writes lines
 * Campaign.reporter('auto', stream, { total: 100 }).finish(100, 0) // lines: ['100/100 seeds, … seeds/s, 0 failures, …\n']
 */
export interface ProgressStream {
  /** Writes text. */
  write(text: string): unknown
  /** Whether it is a terminal. */
  readonly isTTY?: boolean
}

/**
 * What the runner tells the reporter.
 *
 * @example
 * const progress: Progress = Campaign.reporter('lines', process.stderr, { total: 1000 })
 * progress.update(250, 1) // at most one line every 5 s
 * progress.finish(1000, 1)
 */
export interface Progress {
  /** Seeds done and failures so far. */
  update(done: number, failures: number): void
  /** The last line. */
  finish(done: number, failures: number): void
}

const seconds = (ms: number): string => {
  const s = Math.max(0, Math.round(ms / 1000))
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

/**
 * A reporter for `total` seeds (or, without one, a time budget ending at `deadline`, ms
 * since the epoch), writing to `stream`.
 *
 * @example
 * const progress = reporter('auto', process.stderr, { total: 1000 })
 * progress.update(10, 0)
 */
export const reporter = (
  mode: ProgressMode,
  stream: ProgressStream,
  budget: { readonly total?: number | undefined; readonly deadline?: number | undefined },
  clock: () => number = Date.now,
): Progress => {
  const started = clock()
  const kind = mode === 'auto' ? (stream.isTTY === true ? 'bar' : 'lines') : mode
  let last = -Infinity
  const line = (done: number, failures: number): string => {
    const elapsed = clock() - started
    const rate = elapsed > 0 ? (done * 1000) / elapsed : 0
    const left =
      budget.total !== undefined ? (rate > 0 ? ((budget.total - done) / rate) * 1000 : Infinity) : budget.deadline !== undefined ? budget.deadline - clock() : Infinity
    const of = budget.total === undefined ? `${done} seeds` : `${done}/${budget.total} seeds`
    const failed = `${failures} failure${failures === 1 ? '' : 's'}`
    return `${of}, ${rate.toFixed(rate < 10 ? 1 : 0)} seeds/s, ${failed}, ${Number.isFinite(left) ? `${seconds(left)} left` : 'time left unknown'}`
  }
  const bar = (done: number): string => {
    const fraction =
      budget.total !== undefined ? done / Math.max(1, budget.total) : budget.deadline !== undefined ? (clock() - started) / Math.max(1, budget.deadline - started) : 0
    const filled = Math.round(Math.min(1, fraction) * 24)
    return `[${'#'.repeat(filled)}${'-'.repeat(24 - filled)}] `
  }
  return {
    update(done, failures) {
      const now = clock()
      if (kind === 'none' || now - last < (kind === 'bar' ? 100 : 5000)) return
      last = now
      stream.write(kind === 'bar' ? `\r${bar(done)}${line(done, failures)}\u001b[K` : `${line(done, failures)}\n`)
    },
    finish(done, failures) {
      if (kind === 'none') return
      stream.write(kind === 'bar' ? `\r${bar(done)}${line(done, failures)}\u001b[K\n` : `${line(done, failures)}\n`)
    },
  }
}
