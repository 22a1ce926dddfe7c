/**
 * `npm run example:kv-store`: a replicated key-value store with a stale-leader read, found by
 * the simulation and named by the linearizability checker; then fixed.
 *
 * Three replicas elect a leader by terms and votes (Raft's rule: a vote only for a
 * candidate whose data is at least as new). The leader serves clients one request at a
 * time. A write makes a new version of the whole map (term, sequence number), sends it to
 * the followers, and answers once a majority, itself included, holds it. Followers take
 * any newer version from a leader of the current term. Term, vote and data are on "disk":
 * they survive a crash.
 *
 * - The buggy leader answers a read from its own map at once. A leader paused (stop the
 *   world) or cut off while the others elect a new one and take writes still believes it
 *   leads when it comes back, and answers old values: a stale read.
 * - The fixed leader answers a read only after a majority has acknowledged its current
 *   version in its term: if they have, no newer leader can have committed anything.
 *
 * Three clients (hosts outside the replicas) record their operations (`invoke`, then `ok`,
 * `fail` for a redirect, `info` for a timeout) into the log; each run ends with
 * `assertLinearizable` against the key-value model. fast-check draws fault schedules over
 * the replicas and shrinks the first failure; the error names the schedule and the
 * operation that cannot be linearized, and the picture goes to kv-store.html (in the
 * system's temporary folder unless `--out` says where). The fixed store then passes
 * thousands of runs. Flags: `--runs N` (default 2000), `--seed N` (default 42).
 */
import fc from 'fast-check'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { keyValue } from 'timing-wheel/linearizability'
import { type Host, Simulation as S, type SimulationT } from 'timing-wheel/simulation'

const replicas = ['n1', 'n2', 'n3'] as const
const clients = ['c1', 'c2', 'c3'] as const
const MAJORITY = 2
const HEARTBEAT = 50
const ELECTION = { min: 150, max: 300 }
const CLIENT_TIMEOUT = 250
const RUN = 2000
const LAST_CALL = 1800

/** A version of the map: later terms win, then later writes. */
interface Version {
  readonly term: number
  readonly seq: number
}
const newer = (a: Version, b: Version): boolean => a.term > b.term || (a.term === b.term && a.seq > b.seq)

type Request = { readonly f: 'get'; readonly key: string } | { readonly f: 'put'; readonly key: string; readonly value: string }
type Msg =
  | { readonly kind: 'vote?'; readonly term: number; readonly version: Version }
  | { readonly kind: 'vote'; readonly term: number; readonly granted: boolean }
  | { readonly kind: 'append'; readonly term: number; readonly version: Version; readonly map: Readonly<Record<string, string>> }
  | { readonly kind: 'appended'; readonly term: number; readonly version: Version; readonly ok: boolean }
  | { readonly kind: 'request'; readonly id: number; readonly op: Request }
  | { readonly kind: 'reply'; readonly id: number; readonly value: string | null }
  | { readonly kind: 'redirect'; readonly id: number; readonly leader: string | undefined }

/** What survives a crash. */
interface Disk {
  term: number
  votedFor: string | undefined
  version: Version
  map: Readonly<Record<string, string>>
}

/** A replica; `disks` holds every replica's disk across restarts. */
const replica = (disks: Map<string, Disk>, fixed: boolean) => (host: Host<Msg>) => {
  const disk = disks.get(host.name) ?? { term: 0, votedFor: undefined, version: { term: 0, seq: 0 }, map: {} }
  disks.set(host.name, disk)
  let role: 'follower' | 'candidate' | 'leader' = 'follower'
  let leader: string | undefined
  let votes = new Set<string>()
  let electionTimer = 0
  /** The request being served and who acknowledged the version it waits for. */
  let serving: { readonly from: string; readonly id: number; readonly op: Request; readonly version: Version; readonly acks: Set<string> } | undefined
  const queue: { from: string; id: number; op: Request }[] = []
  const others = replicas.filter((r) => r !== host.name)

  const resetElection = (): void => {
    S.clearTimeout(host, electionTimer)
    // n1 is the preferred leader: it stands first.
    const [min, max] = host.name === 'n1' ? [ELECTION.min / 2, ELECTION.min] : [ELECTION.min, ELECTION.max]
    electionTimer = S.setTimeout(host, startElection, S.integer(host, min, max))
  }
  const stepDown = (term: number): void => {
    if (term > disk.term) {
      disk.term = term
      disk.votedFor = undefined
    }
    if (role === 'leader') {
      serving = undefined
      queue.length = 0
    }
    role = 'follower'
  }
  const startElection = (): void => {
    role = 'candidate'
    disk.term++
    disk.votedFor = host.name
    votes = new Set([host.name])
    leader = undefined
    for (const r of others) S.send<Msg>(host, r, { kind: 'vote?', term: disk.term, version: disk.version })
    resetElection()
  }
  const broadcast = (): void => {
    for (const r of others) S.send<Msg>(host, r, { kind: 'append', term: disk.term, version: disk.version, map: disk.map })
  }
  const serveNext = (): void => {
    if (role !== 'leader' || serving !== undefined) return
    const next = queue.shift()
    if (next === undefined) return
    if (next.op.f === 'put') {
      disk.version = { term: disk.term, seq: disk.version.term === disk.term ? disk.version.seq + 1 : 1 }
      disk.map = { ...disk.map, [next.op.key]: next.op.value }
    }
    serving = { ...next, version: disk.version, acks: new Set([host.name]) }
    broadcast()
  }

  resetElection()
  S.setInterval(
    host,
    () => {
      if (role === 'leader') broadcast()
    },
    HEARTBEAT,
  )
  S.onMessage(host, (from, m) => {
    if ('term' in m && m.term > disk.term) stepDown(m.term)
    switch (m.kind) {
      case 'vote?': {
        const granted = m.term === disk.term && (disk.votedFor === undefined || disk.votedFor === from) && !newer(disk.version, m.version)
        if (granted) {
          disk.votedFor = from
          resetElection()
        }
        S.send<Msg>(host, from, { kind: 'vote', term: disk.term, granted })
        break
      }
      case 'vote':
        if (role !== 'candidate' || m.term !== disk.term || !m.granted) break
        votes.add(from)
        if (votes.size >= MAJORITY) {
          role = 'leader'
          leader = host.name
          // A version of its own term, so that followers take its map over any older one.
          disk.version = { term: disk.term, seq: 0 }
          broadcast()
        }
        break
      case 'append': {
        if (m.term < disk.term) {
          S.send<Msg>(host, from, { kind: 'appended', term: disk.term, version: m.version, ok: false })
          break
        }
        stepDown(m.term)
        leader = from
        resetElection()
        if (newer(m.version, disk.version)) {
          disk.version = m.version
          disk.map = m.map
        }
        S.send<Msg>(host, from, { kind: 'appended', term: disk.term, version: m.version, ok: !newer(disk.version, m.version) })
        break
      }
      case 'appended':
        if (role !== 'leader' || m.term !== disk.term || !m.ok || serving === undefined || newer(serving.version, m.version)) break
        serving.acks.add(from)
        if (serving.acks.size >= MAJORITY) {
          const { from: client, id, op } = serving
          serving = undefined
          S.send<Msg>(host, client, { kind: 'reply', id, value: op.f === 'get' ? (disk.map[op.key] ?? null) : null })
          serveNext()
        }
        break
      case 'request':
        if (role !== 'leader') {
          S.send<Msg>(host, from, { kind: 'redirect', id: m.id, leader })
          break
        }
        if (m.op.f === 'get' && !fixed) {
          // The bug: no one else is asked whether this is still the leader.
          S.send<Msg>(host, from, { kind: 'reply', id: m.id, value: disk.map[m.op.key] ?? null })
          break
        }
        queue.push({ from, id: m.id, op: m.op })
        serveNext()
        break
    }
  })
}

/** A client: one operation at a time, mostly reads, mostly of x, recorded in the log as a history. */
const client = (host: Host<Msg>) => {
  let id = 0
  let target: string = replicas[0]
  let pending: { readonly id: number; readonly op: Request; readonly timer: number } | undefined
  const next = (): void => {
    if (host.sim.clock.now > LAST_CALL) return
    const key = S.integer(host, 0, 3) === 0 ? 'y' : 'x'
    const op: Request = S.integer(host, 0, 2) > 0 ? { f: 'get', key } : { f: 'put', key, value: `${host.name}.${id + 1}` }
    id++
    S.invoke(host, host.name, op)
    const timer = S.setTimeout(
      host,
      () => {
        pending = undefined
        S.complete(host, host.name, 'info')
        target = replicas[(replicas.indexOf(target as never) + 1) % replicas.length]!
        next()
      },
      CLIENT_TIMEOUT,
    )
    pending = { id, op, timer }
    S.send<Msg>(host, target, { kind: 'request', id, op })
  }
  S.onMessage(host, (_from, m) => {
    if ((m.kind !== 'reply' && m.kind !== 'redirect') || pending === undefined || m.id !== pending.id) return
    S.clearTimeout(host, pending.timer)
    const { op } = pending
    pending = undefined
    if (m.kind === 'redirect') {
      S.complete(host, host.name, 'fail')
      target = m.leader ?? replicas[(replicas.indexOf(target as never) + 1) % replicas.length]!
    } else S.complete(host, host.name, 'ok', { f: op.f, value: op.f === 'get' ? m.value : op.value })
    S.setTimeout(host, next, S.integer(host, 5, 40))
  })
  S.setTimeout(host, next, S.integer(host, 0, 20))
}

/** One run of the store under `schedule`. */
export const play = (schedule: S.FaultSchedule, fixed: boolean): SimulationT<Msg> => {
  const sim = S.create<Msg>({ seed: schedule.seed, network: { latency: { min: 1, max: 20 } } })
  const disks = new Map<string, Disk>()
  for (const r of replicas) S.addHost(sim, r, replica(disks, fixed))
  for (const c of clients) S.addHost(sim, c, client)
  S.applySchedule(sim, schedule)
  S.run(sim, RUN)
  return sim
}

/** Faults on the replicas (the clients are the observers). */
export const schedules = S.faultScheduleArb({ hosts: [...replicas], window: 1500, maxDuration: 1000, maxFaults: 4, kinds: ['partition', 'crash', 'pause'] })

export const report = (runs: number, seed: number, picture: string): string[] => {
  const model = keyValue()
  const lines: string[] = []
  const buggy = fc.check(
    fc.property(schedules, (s) => {
      S.assertLinearizable(play(s, false), model)
    }),
    { seed, numRuns: runs },
  )
  lines.push('buggy store (the leader answers reads from its own map at once):')
  if (buggy.failed && buggy.counterexample !== null) {
    const [shrunk] = buggy.counterexample
    lines.push(`  not linearizable in run ${buggy.numRuns} of ${runs}, shrunk in ${buggy.numShrinks} steps; the shrunk run says:`)
    try {
      S.assertLinearizable(play(shrunk, false), model, { schedule: shrunk, picture })
    } catch (e) {
      lines.push(...(e as Error).message.split('\n').map((l) => `  ${l}`))
    }
  } else lines.push(`  linearizable in all ${runs} runs`)
  const fixedRun = fc.check(
    fc.property(schedules, (s) => {
      S.assertLinearizable(play(s, true), model)
    }),
    { seed, numRuns: runs },
  )
  lines.push("fixed store (a read waits for a majority to acknowledge the leader's version in its term):")
  lines.push(fixedRun.failed ? `  NOT LINEARIZABLE: ${fc.stringify(fixedRun.counterexample)}` : `  ${fixedRun.numRuns} runs of ${RUN} ms with up to 4 faults each: linearizable every time`)
  return lines
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '2000' }, seed: { type: 'string', default: '42' }, out: { type: 'string' } } })
  const out = values.out ?? join(tmpdir(), 'kv-store.html')
  const t0 = performance.now()
  for (const line of report(Number(values.runs), Number(values.seed), out).map((l) => l.replace(out, 'kv-store.html'))) console.log(line)
  console.error(`(${((performance.now() - t0) / 1000).toFixed(1)} s; the picture is at ${out})`)
}
