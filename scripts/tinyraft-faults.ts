/**
 * tinyraft 1.0.1 (unchanged, through the preload) under fault schedules from
 * `faultScheduleArb`: five nodes, faults within the first 2 s, each at most 1 s, runs of 5 s.
 * Checked: election safety (at most one leader per term), without crashes and with them; and
 * stability (no more leaders elected than one plus one per fault); and
 * liveness (faults are over by 3 s; by 4 s every node follows one leader, kept to the end). Prints each
 * property's result: the shrunk schedule of a failure and what broke. Fixed fast-check seeds:
 * the same output every run.
 * Run: `npm run check:tinyraft` (builds; the cluster imports timing-wheel by name).
 */
import fc from 'fast-check'
import { type Fault, type FaultSchedule, Simulation as S } from 'timing-wheel/simulation'
import { type Run, defaults, simulate } from '../examples/tinyraft/cluster.js'

const o = { ...defaults, ms: 5000 }
const window = 2000
const maxDuration = 1000

/** A term with two leaders, as words, or undefined. */
const twoLeaders = (run: Run): string | undefined => {
  const terms = new Map<number, Set<string>>()
  for (const c of run.changes) if (c.state === 'leader') terms.set(c.term, (terms.get(c.term) ?? new Set()).add(c.node))
  const [term, leaders] = [...terms].find(([, l]) => l.size > 1) ?? []
  return term === undefined ? undefined : `term ${term} has leaders ${[...leaders!].join(' and ')}`
}

/** Whether every node ends following one leader that announced itself at least `quiet` ms before the end. */
const unsettled = (run: Run, quiet: number): string | undefined => {
  const last = new Map(run.changes.map((c) => [c.node, c]))
  const leader = [...last.values()].find((c) => c.state === 'leader')
  const ok =
    leader !== undefined &&
    last.size === o.nodes.length &&
    [...last.values()].every((c) => c.term === leader.term && (c.node === leader.node || c.leader === leader.node)) &&
    Math.max(...[...last.values()].map((c) => c.at)) <= o.ms - quiet
  return ok ? undefined : `not settled: ${[...last.values()].map((c) => `${c.node} ${c.state} ${c.term}${c.leader === undefined ? '' : ` (${c.leader})`} @${c.at}`).join(', ')}`
}

/** More elected leaders than one plus one per fault: a leader deposed with no fault to blame. */
const restless = (run: Run, faults: number): string | undefined => {
  const elected = [...new Map(run.changes.filter((c) => c.state === 'leader').map((c) => [c.term, c])).values()]
  return elected.length <= 1 + faults ? undefined : `${elected.length} leaders elected with ${faults} faults: ${elected.map((c) => `${c.node} (term ${c.term}) @${c.at}`).join(', ')}`
}

const check = (name: string, kinds: ReadonlyArray<Fault['kind']>, broken: (run: Run, faults: number) => string | undefined, runs: number): void => {
  const arb = S.faultScheduleArb({ hosts: o.nodes, window, maxDuration, kinds })
  const what = new Map<FaultSchedule, string>()
  const result = fc.check(
    fc.property(arb, (schedule) => {
      const why = broken(simulate(o, schedule.seed, schedule.faults), schedule.faults.length)
      if (why !== undefined) what.set(schedule, why)
      return why === undefined
    }),
    { numRuns: runs, seed: 40 },
  )
  if (!result.failed) return console.log(`${name}: held in ${result.numRuns} runs`)
  const schedule = result.counterexample![0]
  console.log(`${name}: broken in run ${result.numRuns} of ${runs}, shrunk in ${result.numShrinks} steps to:`)
  console.log(
    S.describeSchedule(schedule)
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n'),
  )
  console.log(`  ${what.get(schedule)}`)
}

check('safety without crashes (partition, hold, pause, skew)', ['partition', 'hold', 'pause', 'skew'], twoLeaders, 200)
check('safety with crashes (tinyraft keeps no term or vote across a restart)', ['crash'], twoLeaders, 200)
check('stability: at most one leader elected plus one per fault', ['partition', 'hold', 'pause', 'skew', 'crash'], restless, 200)
check('liveness: settled within 1 s of the last fault, kept to the end', ['partition', 'hold', 'pause', 'skew', 'crash'], (run) => unsettled(run, o.ms - window - maxDuration - 1000), 200)
