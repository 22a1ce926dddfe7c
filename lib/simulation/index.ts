/**
 * `timing-wheel/simulation`: deterministic simulation of a distributed or networked
 * program, in the manner of FoundationDB's simulator, tokio's turmoil and madsim, on one
 * `timing-wheel/fake-timers` clock and one seeded generator (pure-rand). Named hosts with
 * skewed clocks exchange messages over links with latency, loss, duplication and
 * reordering; partitions (one way too), holds, crashes with restarts, stop-the-world pauses
 * and named fault points (BUGGIFY) break them; a fast-check arbitrary of fault schedules
 * finds the breaks and shrinks them to a few faults, told in words. The same seed and
 * program give the same delivery log, bit for bit. Messages in flight are alarms on a
 * timing wheel: constant time each, a million in flight is fine.
 *
 * @example
 * import { Simulation } from 'timing-wheel/simulation'
 *
 * const sim = Simulation.create<string>({ seed: 1, network: { latency: { min: 10, max: 30 } } })
 * Simulation.addHost(sim, 'server', (host) => Simulation.onMessage(host, (from, m) => Simulation.send(host, from, m.toUpperCase())))
 * Simulation.addHost(sim, 'client', (host) => Simulation.send(host, 'server', 'ping'))
 * Simulation.run(sim, 100)
 * Simulation.messages(sim).map((e) => `${e.at} ${e.from}->${e.to} ${e.message} ${e.outcome}`)
 * // ['20 client->server ping delivered', '45 server->client PING dropped'] (the client has no handler)
 *
 * @module
 */
export * as Simulation from './namespace.js'
export type {
  Boot,
  BuggifyOptions,
  Direction,
  DropReason,
  ErrorPolicy,
  Host,
  Latency,
  LinkOptions,
  LogEntry,
  MessageEntry,
  EventEntry,
  FaultEntry,
  FaultAction,
  HostEntry,
  Simulation as SimulationT,
  SimulationClock,
  SimulationOptions,
  Skew,
} from './simulation.js'
export type { InstallOptions } from './install.js'
export type { Fault, FaultSchedule, FaultScheduleOptions, HostFault, LinkFault, SkewFault } from './schedule.js'
export type { AssertLinearizableOptions, HistoryRecord } from './history.js'
