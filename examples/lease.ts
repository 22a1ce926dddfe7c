/**
 * `npm run example:lease`: a leader lease, broken by the simulation and then fixed.
 *
 * Three nodes ask a lock server for a lease every 150 ms; the server grants it to one node
 * at a time for 500 ms of its own time, renews it for that node, and after a restart waits
 * out a whole lease before granting again (it forgets who held it). A node that holds the
 * lease writes every 50 ms. The invariant, checked by an observer outside the simulation:
 * every write happens while the server still counts the writer's lease.
 *
 * - The buggy node counts its lease on its wall clock from when the grant arrives: the
 *   grant's network delay is added to the lease, and a clock set back extends it.
 * - The fixed node counts it on its monotonic clock from when it sent the request, less the
 *   drift bound (the server's lease started later than that, and neither clock runs more
 *   than 0.1% fast or slow).
 *
 * fast-check draws fault schedules (partitions, holds, crashes, pauses, clock skews) and
 * shrinks the first one that breaks the buggy node to a few faults; the fixed node then
 * passes thousands of runs. Flags: `--runs N` (default 2000), `--seed N` (default 42).
 */
import fc from 'fast-check'
import { type Host, Simulation as S, type SimulationT } from 'timing-wheel/simulation'
import { positiveFlags } from './flags.js'

export const LEASE = 500
const RENEW = 150
const WRITE = 50
export const MAX_DRIFT_PPM = 1000
export const RUN = 3000

type Msg = { readonly kind: 'acquire'; readonly seq: number; readonly sentMono: number } | { readonly kind: 'grant'; readonly seq: number; readonly sentMono: number }

export interface Observer {
  /** When the server's lease for each node ends, in true time. */
  readonly leaseEnds: Map<string, number>
  violation: string | undefined
  /** When the violation happened, true time. */
  violationAt: number
  /** Writes made so far (progress, for a campaign's liveness phase). */
  writes: number
}

/** The lock server: correct, so that only the nodes are on trial. */
const lockServer = (observer: Observer) => (host: Host<Msg>) => {
  let holder: string | undefined
  let expiry = 0
  let ready = false
  S.setTimeout(host, () => (ready = true), LEASE)
  S.onMessage(host, (from, m) => {
    if (m.kind !== 'acquire' || !ready || (holder !== undefined && holder !== from)) return
    holder = from
    S.clearTimeout(host, expiry)
    expiry = S.setTimeout(host, () => (holder = undefined), LEASE)
    observer.leaseEnds.set(from, host.sim.clock.now + LEASE)
    S.send<Msg>(host, from, { kind: 'grant', seq: m.seq, sentMono: m.sentMono })
  })
}

/** A node: asks for the lease, and writes while it believes it holds it. */
const node = (observer: Observer, fixed: boolean) => (host: Host<Msg>) => {
  let seq = 0
  let wallEnd = -Infinity
  let monoEnd = -Infinity
  const holds = (): boolean => (fixed ? S.monotonic(host) < monoEnd : S.now(host) < wallEnd)
  const ask = (): void => S.send<Msg>(host, 'lock', { kind: 'acquire', seq: ++seq, sentMono: S.monotonic(host) })
  ask()
  S.setInterval(host, ask, RENEW)
  S.onMessage(host, (_from, m) => {
    if (m.kind !== 'grant') return
    wallEnd = S.now(host) + LEASE
    monoEnd = Math.max(monoEnd, m.sentMono + LEASE * (1 - (2 * MAX_DRIFT_PPM) / 1e6) - 2)
  })
  S.setInterval(
    host,
    () => {
      if (!holds()) return
      observer.writes++
      const now = host.sim.clock.now
      const end = observer.leaseEnds.get(host.name) ?? -Infinity
      S.event(host, 'write')
      if (now < end || observer.violation !== undefined) return
      observer.violation = `${host.name} wrote at ${now} ms, but the server's lease for it ended at ${end === -Infinity ? 'never began' : `${end} ms`}`
      observer.violationAt = now
    },
    WRITE,
  )
}

export const nodes = ['n1', 'n2', 'n3']

/** The protocol's hosts on a simulation made with `seed`, and the observer that judges them (a campaign runs it: examples/lease.campaign.ts). */
export const build = (seed: number, fixed: boolean): { readonly sim: SimulationT<Msg>; readonly observer: Observer } => {
  const sim: SimulationT<Msg> = S.create<Msg>({ seed, network: { latency: { min: 1, max: 30 }, duplicate: 0.01 } })
  const observer: Observer = { leaseEnds: new Map(), violation: undefined, violationAt: 0, writes: 0 }
  S.addHost(sim, 'lock', lockServer(observer))
  for (const n of nodes) S.addHost(sim, n, node(observer, fixed))
  return { sim, observer }
}

/** One run: the protocol under `schedule`, returning the first violation, if any. */
export const play = (schedule: S.FaultSchedule, fixed: boolean): string | undefined => {
  const { sim, observer } = build(schedule.seed, fixed)
  S.applySchedule(sim, schedule)
  S.run(sim, RUN)
  return observer.violation
}

/** Fault schedules over every host; the lock server's clock is not skewed (it is the reference). */
export const schedules = S.faultScheduleArb({ hosts: ['lock', ...nodes], window: 2500, maxDuration: 1500, maxFaults: 4, maxDriftPpm: MAX_DRIFT_PPM }).filter(
  (s) => !s.faults.some((f) => f.kind === 'skew' && f.host === 'lock'),
)

export const report = (runs: number, seed: number): string[] => {
  const lines: string[] = []
  const buggy = fc.check(fc.property(schedules, (s) => play(s, false) === undefined), { seed, numRuns: runs })
  lines.push('buggy node (lease on its wall clock, from when the grant arrives):')
  if (buggy.failed && buggy.counterexample !== null) {
    const [shrunk] = buggy.counterexample
    lines.push(`  broken in run ${buggy.numRuns} of ${runs}, shrunk in ${buggy.numShrinks} steps to:`)
    lines.push(...S.describeSchedule(shrunk).split('\n').map((l) => `  ${l}`))
    lines.push(`  violation: ${play(shrunk, false)}`)
    lines.push(`  replay: fc.assert(property, { seed: ${seed}, path: ${JSON.stringify(buggy.counterexamplePath)} })`)
  } else lines.push(`  no violation in ${runs} runs`)
  const fixed = fc.check(fc.property(schedules, (s) => play(s, true) === undefined), { seed, numRuns: runs })
  lines.push('fixed node (lease on its monotonic clock, from when it asked, less the drift bound):')
  lines.push(fixed.failed ? `  VIOLATION: ${fc.stringify(fixed.counterexample)}` : `  ${fixed.numRuns} runs of ${RUN} ms with up to 4 faults each: no violation`)
  return lines
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { runs, seed } = positiveFlags({ runs: 2000, seed: 42 })
  for (const line of report(runs, seed)) console.log(line)
}
