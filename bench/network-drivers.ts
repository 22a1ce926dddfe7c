/**
 * The network row's timed plays: the same network played by `timing-wheel/simulation` and
 * written by hand as a user would without it, one `setTimeout` per message on a fake
 * clock (`@sinonjs/fake-timers`, or `timing-wheel/fake-timers` to show what the
 * simulation adds to its clock), and on a kernel written for speed (`network-kernel.ts`,
 * the ceiling). `network.ts` loads a bundle of this module and the package per
 * implementation.
 *
 * The workload: `hosts` hosts, a fixed latency per directed link (1 to 1000 ms). At time 0,
 * `inFlight` messages are sent; each delivery sends one more message, from the receiver to
 * a host its id picks, until `extra` more have been sent; the clock runs until every
 * message is delivered. Each message is a send and a delivery. Checksum: the deliveries
 * and the sum of `mix(id, time delivered)`.
 *
 * With `bytes`, a play stops once the first `inFlight` messages are sent, untimed, and
 * returns the heap's growth over them a message: what a message in flight costs (its
 * record, token, timer, queue entries), the network's fixed cost (hosts, links) left out.
 */
import { createClock as wheelClock } from '../lib/fake-timers/index.js'
import { Simulation as S } from '../lib/simulation/index.js'
import type { Host } from '../lib/simulation/index.js'
import { type Checksum, type Run, collect, nanos } from './drivers.js'
import { createKernel } from './network-kernel.js'
import { mix } from './workloads.js'

export interface NetworkLoad {
  readonly hosts: number
  /** `latency[from * hosts + to]`, ms. */
  readonly latency: Uint16Array
  readonly inFlight: number
  readonly extra: number
  /** The first messages' ends. */
  readonly from: Uint8Array
  readonly to: Uint8Array
}

/** Where message `id`, delivered at `at`, sends the next one. */
const nextHost = (load: NetworkLoad, at: number, id: number): number => (at + 1 + (id % (load.hosts - 1))) % load.hosts

interface FakeClock {
  readonly now: number
  setTimeout(f: (...args: never[]) => void, ms: number, ...args: unknown[]): unknown
  tick(ms: number): unknown
}

const horizon = (load: NetworkLoad): number => 1000 * (2 + Math.ceil((load.inFlight + load.extra) / load.inFlight))

const heap = (): number => {
  collect()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

/** The simulation: hosts, links with their latencies, `send` and `onMessage`; no log; `batch` as given. */
export const simulation = (load: NetworkLoad, batch: boolean, bytes = false): NetworkRun => {
  const sim = S.create<number>({ seed: 1, log: false, batch })
  const hosts: Array<Host<number>> = []
  const names = Array.from({ length: load.hosts }, (_, i) => `h${i}`)
  let hash = 0
  let delivered = 0
  let sent = 0
  names.forEach((name, i) =>
    S.addHost(sim, name, (host) => {
      hosts[i] = host
      S.onMessage(host, (_from, id) => {
        hash = (hash + mix(id, sim.clock.now)) >>> 0
        delivered++
        if (sent < load.inFlight + load.extra) S.send(host, names[nextHost(load, i, id)]!, sent++)
      })
    }),
  )
  for (let a = 0; a < load.hosts; a++) {
    for (let b = 0; b < load.hosts; b++) S.link(sim, names[a]!, names[b]!, { latency: load.latency[a * load.hosts + b]! }, { oneWay: true })
  }
  if (bytes) {
    const before = heap()
    for (let k = 0; k < load.inFlight; k++) S.send(hosts[load.from[k]!]!, names[load.to[k]!]!, sent++)
    return { ...result(load, 0, { fired: 0, hash: 0 }, 0), bytes: (heap() - before) / load.inFlight }
  }
  collect()
  const start = nanos()
  for (let k = 0; k < load.inFlight; k++) S.send(hosts[load.from[k]!]!, names[load.to[k]!]!, sent++)
  sim.clock.tick(horizon(load))
  const ns = nanos() - start
  return result(load, ns, { fired: delivered, hash }, S.inFlight(sim))
}

/** The network by hand on a fake clock: a `setTimeout` per message, the latency looked up. */
export const handWritten = (load: NetworkLoad, createClock: () => FakeClock, bytes = false): NetworkRun => {
  const clock = createClock()
  const n = load.hosts
  let hash = 0
  let delivered = 0
  let sent = 0
  let pending = 0
  const deliver = (to: number, id: number): void => {
    pending--
    hash = (hash + mix(id, clock.now)) >>> 0
    delivered++
    if (sent < load.inFlight + load.extra) send(to, nextHost(load, to, id), sent++)
  }
  const send = (from: number, to: number, id: number): void => {
    pending++
    clock.setTimeout(deliver, load.latency[from * n + to]!, to, id)
  }
  if (bytes) {
    const before = heap()
    for (let k = 0; k < load.inFlight; k++) send(load.from[k]!, load.to[k]!, sent++)
    return { ...result(load, 0, { fired: 0, hash: 0 }, 0), bytes: (heap() - before) / load.inFlight }
  }
  collect()
  const start = nanos()
  for (let k = 0; k < load.inFlight; k++) send(load.from[k]!, load.to[k]!, sent++)
  clock.tick(horizon(load))
  const ns = nanos() - start
  return result(load, ns, { fired: delivered, hash }, pending)
}

/** The same network on the bench-only kernel (network-kernel.ts): the ceiling, not the package. */
export const kernel = (load: NetworkLoad, bytes = false): NetworkRun => {
  const names = Array.from({ length: load.hosts }, (_, i) => `h${i}`)
  const k = createKernel<number>(names, load.latency)
  let hash = 0
  let delivered = 0
  let sent = 0
  k.hosts.forEach((host, i) =>
    k.onMessage(host, (_from, id) => {
      hash = (hash + mix(id, k.now())) >>> 0
      delivered++
      if (sent < load.inFlight + load.extra) k.send(host, names[nextHost(load, i, id)]!, sent++)
    }),
  )
  if (bytes) {
    const before = heap()
    for (let j = 0; j < load.inFlight; j++) k.send(k.hosts[load.from[j]!]!, names[load.to[j]!]!, sent++)
    return { ...result(load, 0, { fired: 0, hash: 0 }, 0), bytes: (heap() - before) / load.inFlight }
  }
  collect()
  const start = nanos()
  for (let j = 0; j < load.inFlight; j++) k.send(k.hosts[load.from[j]!]!, names[load.to[j]!]!, sent++)
  k.tick(horizon(load))
  const ns = nanos() - start
  return result(load, ns, { fired: delivered, hash }, k.inFlight())
}

/** A play's result; `bytes` a message in flight when asked for, otherwise NaN. */
export interface NetworkRun extends Run {
  readonly left: number
  readonly bytes: number
}

const result = (load: NetworkLoad, ns: number, checksum: Checksum, left: number): NetworkRun => ({
  ops: load.inFlight + load.extra,
  ns,
  checksum,
  left,
  bytes: Number.NaN,
})

/** `timing-wheel/fake-timers`' clock, for the hand-written network. */
export const wheelFakeTimers = (): FakeClock => wheelClock(0)
