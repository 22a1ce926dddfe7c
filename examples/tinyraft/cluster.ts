/**
 * A cluster of `tinyraft` 1.0.1 (a third-party Raft leader election from npm, unchanged)
 * run twice by the same code: as simulation hosts (`simulate`) and on Node's real timers
 * with an in-process network of the same latency (`onNode`). tinyraft takes `setTimeout`
 * and `setInterval` when it loads (`TinyRaft.setTimeout = setTimeout`), so the simulation
 * needs the one documented line: `node --import timing-wheel/simulation/preload`.
 *
 * Run: `node --import tsx --import timing-wheel/simulation/preload examples/tinyraft/cluster.ts sim`
 * (or `real`): prints the run as JSON: each node's state changes and each heartbeat sent.
 */
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { type Fault, Simulation as S } from 'timing-wheel/simulation'

/** tinyraft's message, as its own `.d.ts` says. */
export interface RaftMessage {
  readonly type: string
  readonly term: number
  readonly leader?: string | number
  readonly priority?: number
}

interface TinyRaft {
  start(): void
  stop(): void
  onReceive(from: string, msg: RaftMessage): void
  on(event: 'change', f: (st: { state: string; term: number; leader?: string }) => void): void
}

type TinyRaftClass = new (config: {
  nodes: string[]
  nodeId: string
  electionTimeout: number
  heartbeatTimeout: number
  leadershipTimeout?: number
  send: (to: string, msg: RaftMessage) => void
}) => TinyRaft

// Loaded with this module, as a program loads its libraries, after the preload and before any
// simulation: loaded inside an installed simulation, it would take that simulation's timers
// (the installed globals) for good, and its timers in the next simulation would be dead.
const TinyRaft = createRequire(import.meta.url)('tinyraft') as TinyRaftClass

/** A state change of one node: when (ms from the start), which node, and tinyraft's `change` event. */
export interface Change {
  readonly at: number
  readonly node: string
  readonly state: string
  readonly term: number
  readonly leader: string | undefined
}

/** A heartbeat (PING) sent: when (ms from the start), by whom, to whom, in which term. */
export interface Ping {
  readonly at: number
  readonly from: string
  readonly to: string
  readonly term: number
}

/** What a run gives: every change and every heartbeat, in order. */
export interface Run {
  readonly changes: Change[]
  readonly pings: Ping[]
}

/** The cluster's shape and timers, the same for both runs. */
export interface ClusterOptions {
  /** The node ids. */
  readonly nodes: readonly string[]
  /** tinyraft's `electionTimeout`, ms. */
  readonly electionTimeout: number
  /** tinyraft's `heartbeatTimeout` (the leader's ping period), ms. */
  readonly heartbeatTimeout: number
  /** tinyraft's `leadershipTimeout` (0: off), ms. */
  readonly leadershipTimeout?: number
  /** One-way message latency, ms. */
  readonly latency: number
  /** How long to run, ms. */
  readonly ms: number
}

/** Defaults: 5 nodes, tinyraft's README timeouts scaled down 20 times, 5 ms links, 3 s. */
export const defaults: ClusterOptions = { nodes: ['n1', 'n2', 'n3', 'n4', 'n5'], electionTimeout: 250, heartbeatTimeout: 50, latency: 5, ms: 3000 }

/** One tinyraft node reporting to `run`; `clock` reads ms from the start. */
const node = (o: ClusterOptions, id: string, send: (to: string, m: RaftMessage) => void, run: Run, clock: () => number): TinyRaft => {
  const raft = new TinyRaft({
    nodes: [...o.nodes],
    nodeId: id,
    electionTimeout: o.electionTimeout,
    heartbeatTimeout: o.heartbeatTimeout,
    ...(o.leadershipTimeout === undefined ? {} : { leadershipTimeout: o.leadershipTimeout }),
    send: (to, m) => {
      if (m.type === 'ping') run.pings.push({ at: clock(), from: id, to, term: m.term })
      send(to, m)
    },
  })
  raft.on('change', (st) => run.changes.push({ at: clock(), node: id, state: st.state, term: st.term, leader: st.leader }))
  return raft
}

/**
 * The cluster as hosts of an installed simulation with `seed`, each node booted with
 * `start()` in a microtask (once all are up), and `faults` applied from the start.
 *
 * @example
 * const { changes } = simulate(defaults, 1)
 * console.log(changes.filter((c) => c.state === 'leader').length)
 */
export const simulate = (o: ClusterOptions, seed: number, faults: readonly Fault[] = []): Run => {
  const sim = S.install<RaftMessage>({ seed, network: { latency: o.latency } })
  const run: Run = { changes: [], pings: [] }
  try {
    const t0 = performance.now()
    for (const id of o.nodes) {
      S.addHost(sim, id, (host) => {
        const raft = node(o, id, (to, m) => S.send(host, to, m), run, () => performance.now() - t0)
        S.onMessage(host, (from, m) => raft.onReceive(from, m))
        // Once every host is up (its peers must exist to be sent to), as on Node below.
        queueMicrotask(() => raft.start())
      })
    }
    S.applySchedule(sim, { seed, faults })
    S.run(sim, o.ms)
  } finally {
    S.uninstall(sim)
  }
  return run
}

/**
 * The same cluster on Node's real timers: each message is a `setTimeout` of the latency.
 *
 * @example
 * onNode(defaults).then((run) => console.log(run.pings.length))
 */
export const onNode = (o: ClusterOptions): Promise<Run> => {
  const run: Run = { changes: [], pings: [] }
  const t0 = performance.now()
  const rafts = new Map<string, TinyRaft>()
  let stopped = false
  // Nothing is delivered after stop(): a message received then would start a node again.
  const deliver = (from: string, to: string, m: RaftMessage): void => void (stopped || rafts.get(to)?.onReceive(from, m))
  for (const id of o.nodes) rafts.set(id, node(o, id, (to, m) => void setTimeout(() => deliver(id, to, m), o.latency), run, () => performance.now() - t0))
  for (const raft of rafts.values()) queueMicrotask(() => raft.start())
  return new Promise((resolve) =>
    setTimeout(() => {
      stopped = true
      for (const raft of rafts.values()) raft.stop()
      resolve(run)
    }, o.ms),
  )
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const mode = process.argv[2] ?? 'sim'
  const ms = Number(process.argv[3] ?? defaults.ms)
  const o = { ...defaults, ms }
  if (mode === 'real') console.log(JSON.stringify(await onNode(o)))
  else console.log(JSON.stringify(simulate(o, Number(process.argv[4] ?? 1))))
}
