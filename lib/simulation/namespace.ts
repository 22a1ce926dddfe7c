/**
 * The `Simulation` namespace: the functions of simulation.ts, install.ts and schedule.ts.
 *
 * @example
 * import { Simulation } from 'timing-wheel/simulation'
 *
 * const sim = Simulation.create<string>({ seed: 1 })
 * Simulation.addHost(sim, 'client', (host) => Simulation.send(host, 'server', 'ping'))
 *
 * @module
 */
export {
  type Simulation,
  type SimulationOptions,
  type SimulationClock,
  type Host,
  type Boot,
  type LinkOptions,
  type Latency,
  type Skew,
  type Direction,
  type BuggifyOptions,
  type LogEntry,
  type MessageEntry,
  type EventEntry,
  type FaultEntry,
  type FaultAction,
  type HostEntry,
  type DropReason,
  type ErrorPolicy,
  create,
  addHost,
  hosts,
  host,
  state,
  status,
  onMessage,
  now,
  monotonic,
  setTimeout,
  setInterval,
  clearTimeout,
  send,
  inFlight,
  log,
  messages,
  event,
  link,
  partition,
  heal,
  hold,
  release,
  crash,
  restart,
  pause,
  resume,
  skew,
  random,
  integer,
  buggify,
  setFault,
  run,
  runAsync,
  runUntil,
  runUntilQuiet,
} from './simulation.js'
export { type InstallOptions, install, uninstall } from './install.js'
export {
  type Fault,
  type LinkFault,
  type HostFault,
  type SkewFault,
  type FaultSchedule,
  type FaultScheduleOptions,
  faultScheduleArb,
  describeFault,
  describeSchedule,
  applySchedule,
} from './schedule.js'
export { type HistoryRecord, type AssertLinearizableOptions, invoke, complete, history, assertLinearizable } from './history.js'
