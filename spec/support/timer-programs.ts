/**
 * Small random timer programs for `exploreSchedules`' completeness checks: a tree of
 * timers (timeouts, intervals that clear themselves after a few runs, immediates), each
 * logging its label when it runs and arming its children, then a few clock moves. One
 * program runs three ways: on an exploring clock (`runOn`), as the source of a script for
 * real Node (`nodeSource`, with busy-waits standing for stalls), and its order is the
 * labels in run order.
 */
import fc from 'fast-check'
import type { Chooser } from '../../lib/testing/exploring-schedule.js'
import { restart } from '../../lib/testing/clock-arb.js'
import { type ClockArbOptions, type ExploringClock, createExploringClock, exploreSchedules } from '../../lib/testing/index.js'

export interface TimerSpec {
  readonly kind: 'timeout' | 'interval' | 'immediate'
  /** As passed: `undefined` is a missing delay. */
  readonly delay: number | undefined
  /** An interval's runs before it clears itself. */
  readonly runs: number
  /** Busy-wait in the callback on real Node, in ms (ignored by the exploring clock). */
  readonly busy: number
  readonly children: readonly TimerSpec[]
}

export interface Program {
  readonly timers: readonly TimerSpec[]
  /** Armed at rest after the first move. */
  readonly later: readonly TimerSpec[]
  /** The first move, then the second one runs what is left. */
  readonly firstTick: number
}

const count = (ts: readonly TimerSpec[]): number => ts.reduce((n, t) => n + 1 + count(t.children), 0)

/**
 * Programs of at most `maxTimers` timers with delays drawn from `delays`; `busy` draws
 * busy-waits. Without `moves`, everything is armed at the start and runs in one move (as
 * a script on Node: nothing runs before the script ends, so no timer armed later).
 */
export const programArb = (maxTimers: number, delays: readonly (number | undefined)[], busy: fc.Arbitrary<number> = fc.constant(0), moves = true): fc.Arbitrary<Program> => {
  const timerAt = (depth: number): fc.Arbitrary<TimerSpec> =>
    fc.record({
      kind: fc.constantFrom<TimerSpec['kind']>('timeout', 'timeout', 'interval', 'immediate'),
      delay: fc.constantFrom(...delays),
      runs: fc.integer({ min: 1, max: 2 }),
      busy,
      children: depth === 0 ? fc.constant([]) : fc.array(timerAt(depth - 1), { maxLength: 2 }),
    })
  const timer = timerAt(2)
  return fc
    .record({
      timers: fc.array(timer, { minLength: 1, maxLength: 3 }),
      later: moves ? fc.array(timer, { maxLength: 1 }) : fc.constant([]),
      firstTick: moves ? fc.integer({ min: 0, max: 3 }) : fc.constant(0),
    })
    .filter((p) => count(p.timers) + count(p.later) <= maxTimers)
}

/** Runs `program` on `clock`'s own timer functions, returning the labels in run order. */
export const runOn = (clock: ExploringClock, program: Program, end: number): string => {
  const log: string[] = []
  const arm = (t: TimerSpec, label: string): void => {
    const run = (): void => {
      log.push(label)
      t.children.forEach((c, i) => arm(c, `${label}${i}`))
    }
    if (t.kind === 'immediate') clock.setImmediate(run)
    else if (t.kind === 'timeout') clock.setTimeout(run, t.delay)
    else {
      let left = t.runs
      const id = clock.setInterval(() => {
        if (--left === 0) clock.clearInterval(id)
        run()
      }, t.delay)
    }
  }
  program.timers.forEach((t, i) => arm(t, String.fromCharCode(65 + i)))
  if (program.firstTick > 0 || program.later.length > 0) {
    clock.tick(program.firstTick)
    program.later.forEach((t, i) => arm(t, String.fromCharCode(88 + i)))
  }
  clock.tick(end)
  return log.join(' ')
}

/**
 * A script for real Node printing, as JSON, the labels in run order (as `runOn` runs them)
 * and how late each callback started past its due time by Node's rule (armed at, plus the
 * delay made 1 when outside `[1, TIMEOUT_MAX]`), in ms; each callback busy-waits its `busy` ms.
 */
export const nodeSource = (program: Program): string => {
  if (program.firstTick > 0 || program.later.length > 0) throw new Error('nodeSource: a program of one move only')
  const lines: string[] = [
    'const log = []',
    'let late = 0',
    'const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end); }',
    'const ran = (label, due) => { log.push(label); if (due !== undefined) late = Math.max(late, performance.now() - due) }',
    'const after = (d) => performance.now() + (d >= 1 && d <= 2147483647 ? Math.trunc(d) : 1)',
  ]
  const arm = (t: TimerSpec, label: string): string => {
    const body = (due: string): string =>
      `ran('${label}', ${due}); ${t.busy > 0 ? `busy(${t.busy}); ` : ''}${t.children.map((c, i) => arm(c, `${label}${i}`)).join(' ')}`
    const d = t.delay === undefined ? 'undefined' : String(t.delay)
    if (t.kind === 'immediate') return `setImmediate(() => { ${body('undefined')} });`
    if (t.kind === 'timeout') return `{ const due = after(${d}); setTimeout(() => { ${body('due')} }, ${d}); }`
    return `{ let left = ${t.runs}; let due = after(${d}); const id = setInterval(() => { const d0 = due; due = after(${d}); if (--left === 0) clearInterval(id); ${body('d0')} }, ${d}); }`
  }
  program.timers.forEach((t, i) => lines.push(arm(t, String.fromCharCode(65 + i))))
  lines.push("process.on('exit', () => console.log(JSON.stringify({ order: log.join(' '), late })))")
  return lines.join('\n')
}

/** The same program with every busy-wait gone. */
export const withoutBusy = (program: Program): Program => {
  const strip = (t: TimerSpec): TimerSpec => ({ ...t, busy: 0, children: t.children.map(strip) })
  return { ...program, timers: program.timers.map(strip), later: program.later.map(strip) }
}

/**
 * Brute force, independent of `exploreSchedules`' cuts and bound: runs `body` once per
 * plan, every time in range at every stall and every read (not only the search's cut
 * points), every option of every pick; returns the distinct results, the runs made, and
 * whether it ran every plan (it stops after `maxRuns`). `oneClock`: one clock started
 * over for each plan, for a body that does not install it (a fresh clock costs more than
 * a small run).
 */
export const everyResult = (body: (clock: ExploringClock) => string, options: ClockArbOptions, { maxRuns = Infinity, oneClock = false } = {}): { results: Set<string>; runs: number; complete: boolean } => {
  const results = new Set<string>()
  let script: number[] | undefined = []
  let runs = 0
  let clock: ExploringClock | undefined
  while (script !== undefined) {
    if (runs >= maxRuns) return { results, runs, complete: false }
    const points: { n: number; index: number }[] = []
    const follow = script
    const next = (n: number): number => {
      const index = points.length < follow.length ? follow[points.length]! : 0
      points.push({ n, index })
      return index
    }
    const chooser: Chooser = { stall: (first, last) => first + next(last - first + 1), read: (from, to) => from + next(to - from + 1), pick: (n) => next(n) }
    if (clock === undefined || !oneClock) clock = createExploringClock({ stalls: [], picks: [] }, options, chooser)
    else restart(clock, chooser)
    results.add(body(clock))
    runs++
    script = undefined
    for (let i = points.length - 1; i >= 0 && script === undefined; i--) {
      if (points[i]!.index + 1 < points[i]!.n) script = [...points.slice(0, i).map((p) => p.index), points[i]!.index + 1]
    }
  }
  return { results, runs, complete: true }
}

/** What `exploreSchedules` reaches for `body`, by default unbounded but for `maxSchedules`. */
export const searchResults = (body: (clock: ExploringClock) => string, options: ClockArbOptions, maxSchedules = 1e6, maxDepartures = 64): { results: Set<string>; schedules: number; complete: boolean } => {
  const results = new Set<string>()
  const { schedules, complete } = exploreSchedules((clock) => void results.add(body(clock)), { ...options, maxDepartures, maxSchedules, install: false })
  return { results, schedules, complete }
}
