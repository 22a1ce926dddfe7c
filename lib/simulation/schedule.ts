/**
 * Fault schedules: what Jepsen's nemesis does to a run, as a value fast-check generates,
 * shrinks and replays. A schedule is a simulation seed and a list of faults, each a
 * partition, hold, crash, pause or skew starting `at` ms after the schedule is applied
 * and undone `duration` ms later (healed, released, restarted, resumed, unskewed).
 *
 * Shrinking goes toward fewer faults (the list shrinks first), then toward shorter ones
 * starting earlier, smaller skews and the first hosts; the seed does not shrink, so a
 * shrunk schedule is the same run with less done to it. A failure replays from fast-check's
 * seed and path; a schedule prints as words (`describeSchedule`): who, what, when.
 *
 * The seam with clockArb's order exploration is the clock: `create({ seed, clock })` runs the
 * simulation on an exploring clock, and a property draws both arbitraries.
 */
import { createRequire } from 'node:module'
import type * as FastCheck from 'fast-check'
import { TimingWheelError, show } from '../errors.js'
import { fail, maxDelay, maxOffset } from './checks.js'
import { type Simulation, checkDelay, crash, heal, hold, partition, pause, release, restart, resume, skew } from './simulation.js'

/**
 * One fault, undone `duration` ms after it starts `at`.
 *
 * @example
 * const faults: Fault[] = [
 *   { kind: 'partition', at: 100, duration: 500, from: 'a', to: 'b', oneWay: false },
 *   { kind: 'crash', at: 200, duration: 300, host: 'c' },
 * ]
 */
export type Fault = LinkFault | HostFault | SkewFault

/** What every fault has: when it starts, ms after the schedule is applied, and how long it lasts. */
interface Timing {
  /** When it starts, ms from when the schedule is applied. */
  readonly at: number
  /** How long until it is undone, ms (at least 1). */
  readonly duration: number
}

/**
 * A partition or hold of the link from `from` to `to`, and back unless `oneWay`.
 *
 * @example
 * const f: LinkFault = { kind: 'hold', at: 100, duration: 500, from: 'a', to: 'b', oneWay: true }
 */
export interface LinkFault extends Timing {
  /** Cut the link, or hold what arrives on it. */
  readonly kind: 'partition' | 'hold'
  /** One end. */
  readonly from: string
  /** The other end. */
  readonly to: string
  /** From `from` to `to` only. */
  readonly oneWay: boolean
}

/**
 * A crash (restarted after) or a pause (resumed after) of `host`.
 *
 * @example
 * const f: HostFault = { kind: 'pause', at: 100, duration: 2000, host: 'leader' }
 */
export interface HostFault extends Timing {
  /** Crash or pause. */
  readonly kind: 'crash' | 'pause'
  /** The host. */
  readonly host: string
}

/**
 * `host`'s clock moved by `offset` ms and drifting by `driftPpm`, restored after.
 *
 * @example
 * const f: SkewFault = { kind: 'skew', at: 0, duration: 1000, host: 'a', offset: -5000, driftPpm: 100 }
 */
export interface SkewFault extends Timing {
  /** Skew. */
  readonly kind: 'skew'
  /** The host. */
  readonly host: string
  /** ms added to the host's clock offset (negative: set back). */
  readonly offset: number
  /** The host's drift meanwhile, in parts per million. */
  readonly driftPpm: number
}

/**
 * A simulation seed and the faults to apply.
 *
 * @example
 * const schedule: FaultSchedule = { seed: 1, faults: [{ kind: 'crash', at: 100, duration: 50, host: 'a' }] }
 * const sim = create({ seed: schedule.seed })
 */
export interface FaultSchedule {
  /** The seed to make the simulation with. */
  readonly seed: number
  /** The faults, in the order they start. */
  readonly faults: readonly Fault[]
}

/**
 * What `faultScheduleArb` draws from.
 *
 * @example
 * const opts: FaultScheduleOptions = { hosts: ['a', 'b', 'c'], window: 5000, maxFaults: 2, kinds: ['partition', 'crash'] }
 * const schedules = faultScheduleArb(opts)
 */
export interface FaultScheduleOptions {
  /** The hosts faults may strike (at least one; two for partitions and holds). */
  readonly hosts: readonly string[]
  /** Faults start within [0, window] ms of the schedule's start. */
  readonly window: number
  /** At most this many faults; default 4. */
  readonly maxFaults?: number
  /** The longest fault, in ms; default `window`. */
  readonly maxDuration?: number
  /** Which kinds; default all five. */
  readonly kinds?: ReadonlyArray<Fault['kind']>
  /** The largest skew offset, in ms; default 1000. */
  readonly maxOffset?: number
  /** The largest drift, in parts per million; default 1000 (1 ms a second). */
  readonly maxDriftPpm?: number
}

/**
 * fast-check, loaded when `faultScheduleArb` is first called: it is an optional peer, and
 * the rest of the entry (create, install, applySchedule, describeSchedule) imports and runs
 * without it, as ES module and as CommonJS.
 */
let loaded: typeof FastCheck | undefined
const fastCheck = (): typeof FastCheck => {
  if (loaded !== undefined) return loaded
  const load = typeof require === 'function' ? require : createRequire(import.meta.url)
  try {
    const m = load('fast-check') as typeof FastCheck & { default?: typeof FastCheck }
    loaded = m.default ?? m
  } catch (cause) {
    throw new Error('faultScheduleArb needs fast-check, an optional peer of timing-wheel: npm install --save-dev fast-check', { cause })
  }
  return loaded
}

const allKinds: ReadonlyArray<Fault['kind']> = ['partition', 'hold', 'crash', 'pause', 'skew']

const bad = (message: string): never => {
  throw new TimingWheelError('InvalidArgument', message)
}

const count = (what: string, n: unknown, max: number): number =>
  typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= max ? n : bad(`${what} ${show(n)} is not an integer in [0, ${max}]`)

/**
 * An arbitrary of fault schedules over `hosts`. Throws `InvalidArgument` for no hosts, a
 * window or duration that is not a whole number of ms in [0, 2^31 - 1], an unknown kind, or
 * partitions and holds asked for with fewer than two hosts.
 *
 * @example
 * fc.assert(fc.property(faultScheduleArb({ hosts: ['a', 'b', 'c'], window: 5000 }), (schedule) => {
 *   const sim = create({ seed: schedule.seed }); ...; applySchedule(sim, schedule); ...
 * }))
 */
export const faultScheduleArb = (opts: FaultScheduleOptions): FastCheck.Arbitrary<FaultSchedule> => {
  const fc = fastCheck()
  if (typeof opts !== 'object' || opts === null) bad(`fault schedule options ${show(opts)} is not an object`)
  const hosts = opts.hosts
  if (!Array.isArray(hosts) || hosts.length === 0 || !hosts.every((h) => typeof h === 'string')) {
    bad(`hosts ${show(hosts)} is not a non-empty array of host names`)
  }
  const window = count('window', opts.window, 2 ** 31 - 1)
  const maxDuration = Math.max(1, count('maxDuration', opts.maxDuration ?? window, 2 ** 31 - 1))
  const maxFaults = count('maxFaults', opts.maxFaults ?? 4, 1000)
  const maxOffset = count('maxOffset', opts.maxOffset ?? 1000, 8.64e15)
  const maxDriftPpm = count('maxDriftPpm', opts.maxDriftPpm ?? 1000, 999_999)
  const kinds = opts.kinds ?? allKinds
  if (!Array.isArray(kinds) || kinds.length === 0 || !kinds.every((k) => allKinds.includes(k))) {
    bad(`kinds ${show(kinds)} is not a non-empty array of ${allKinds.map(show).join(', ')}`)
  }
  const pairwise = kinds.filter((k) => k === 'partition' || k === 'hold')
  if (pairwise.length > 0 && hosts.length < 2) bad(`kinds ${show(pairwise)} need two hosts; hosts are ${show(hosts)}`)
  const host = fc.constantFrom(...hosts)
  const at = fc.integer({ min: 0, max: window })
  const duration = fc.integer({ min: 1, max: maxDuration })
  const pair = fc
    .tuple(fc.nat(hosts.length - 1), fc.nat(Math.max(0, hosts.length - 2)))
    .map(([i, j]) => [hosts[i]!, hosts[j >= i ? j + 1 : j]!] as const)
  const faultOf = (kind: Fault['kind']): FastCheck.Arbitrary<Fault> => {
    switch (kind) {
      case 'partition':
      case 'hold':
        return fc.record({ at, duration, pair, oneWay: fc.boolean() }).map(({ pair: [from, to], ...f }) => ({ kind, ...f, from, to }))
      case 'crash':
      case 'pause':
        return fc.record({ at, duration, host }).map((f) => ({ kind, ...f }))
      case 'skew':
        return fc
          .record({ at, duration, host, offset: fc.integer({ min: -maxOffset, max: maxOffset }), driftPpm: fc.integer({ min: -maxDriftPpm, max: maxDriftPpm }) })
          .map((f) => ({ kind, ...f }))
    }
  }
  return fc
    .record({
      seed: fc.noShrink(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
      faults: fc.array(fc.oneof(...kinds.map(faultOf)), { maxLength: maxFaults }),
    })
    .map((s) => withDescription({ seed: s.seed, faults: [...s.faults].sort((x, y) => x.at - y.at) }))
}

/** The schedule, printing as its description in fast-check's reports. */
const withDescription = (s: FaultSchedule): FaultSchedule =>
  Object.defineProperty(s, fastCheck().toStringMethod, { value: () => describeSchedule(s), enumerable: false })

const arrow = (f: { from: string; to: string; oneWay: boolean }): string => `${f.from} ${f.oneWay ? '->' : '<->'} ${f.to}`

/**
 * One fault in words: who, what, when.
 *
 * @example
 * describeFault({ kind: 'crash', at: 100, duration: 50, host: 'a' })
 * // 'at 100 ms: crash a for 50 ms, restarted at 150 ms'
 */
export const describeFault = (f: Fault): string => {
  const end = f.at + f.duration
  switch (f.kind) {
    case 'partition':
      return `at ${f.at} ms: partition ${arrow(f)}${f.oneWay ? ' (one way)' : ''} for ${f.duration} ms, healed at ${end} ms`
    case 'hold':
      return `at ${f.at} ms: hold ${arrow(f)} for ${f.duration} ms, released at ${end} ms`
    case 'crash':
      return `at ${f.at} ms: crash ${f.host} for ${f.duration} ms, restarted at ${end} ms`
    case 'pause':
      return `at ${f.at} ms: pause ${f.host} (stop the world) for ${f.duration} ms, resumed at ${end} ms`
    case 'skew': {
      const ahead = f.offset >= 0 ? `${f.offset} ms ahead` : `${-f.offset} ms behind`
      return `at ${f.at} ms: skew ${f.host}'s clock ${ahead}, drifting ${f.driftPpm >= 0 ? '+' : ''}${f.driftPpm} ppm, for ${f.duration} ms, restored at ${end} ms`
    }
  }
}

/**
 * The schedule in words, a line a fault, times from when it was applied.
 *
 * @example
 * describeSchedule({ seed: 1, faults: [{ kind: 'crash', at: 100, duration: 50, host: 'a' }] })
 * // 'seed 1, 1 fault:\n  at 100 ms: crash a for 50 ms, restarted at 150 ms'
 */
export const describeSchedule = (s: FaultSchedule): string =>
  [`seed ${s.seed}, ${s.faults.length} fault${s.faults.length === 1 ? '' : 's'}${s.faults.length === 0 ? '' : ':'}`, ...s.faults.map((f) => `  ${describeFault(f)}`)].join('\n')

const linkKinds: ReadonlyArray<Fault['kind']> = ['partition', 'hold']

/** `at`, `duration`, and their end within a timer's range; a refusal names the value. */
const timing = (f: Partial<Timing>): void => {
  checkDelay('fault at', f.at)
  const d = f.duration
  if (!(typeof d === 'number' && d > 0 && d <= maxDelay)) {
    fail('TimeOutOfRange', `fault duration ${show(d)} is not a number of ms in (0, ${maxDelay}]`)
  }
  checkDelay('fault end (at + duration)', (f.at as number) + (d as number))
}

/**
 * Checks a whole schedule against the simulation before anything is armed: the schedule's
 * shape, every fault's kind and fields, its hosts, and that a skew keeps the host's time in
 * `Date`'s range.
 */
const checkSchedule = <M>(sim: Simulation<M>, schedule: unknown): readonly Fault[] => {
  if (typeof schedule !== 'object' || schedule === null) bad(`fault schedule ${show(schedule)} is not an object with a seed and faults`)
  const { seed, faults } = schedule as Partial<FaultSchedule>
  if (!(typeof seed === 'number' && Number.isInteger(seed) && seed >= -(2 ** 31) && seed <= 2 ** 31 - 1)) {
    bad(`fault schedule seed ${show(seed)} is not an integer in [-2147483648, 2147483647]`)
  }
  if (!Array.isArray(faults)) bad(`fault schedule faults ${show(faults)} is not an array`)
  const names = new Set(sim.order.map((h) => h.name))
  const known = (h: unknown): string =>
    typeof h === 'string' && names.has(h) ? h : bad(`fault on ${show(h)}: not a host of this simulation (hosts: ${[...names].map(show).join(', ')})`)
  for (const f of faults as unknown[]) {
    if (typeof f !== 'object' || f === null) bad(`fault ${show(f)} is not an object`)
    const g = f as Partial<Record<string, unknown>>
    if (!allKinds.includes(g['kind'] as Fault['kind'])) bad(`fault kind ${show(g['kind'])} is not one of ${allKinds.map(show).join(', ')}`)
    timing(g as Partial<Timing>)
    if (linkKinds.includes(g['kind'] as Fault['kind'])) {
      known(g['from'])
      known(g['to'])
      if (g['oneWay'] !== undefined && typeof g['oneWay'] !== 'boolean') bad(`fault oneWay ${show(g['oneWay'])} is not a boolean`)
      continue
    }
    const h = sim.hosts[known(g['host'])]!
    if (g['kind'] !== 'skew') continue
    const offset = g['offset']
    const current = h.base + (sim.clock.now - h.anchor) * h.rate - sim.clock.now
    if (!(typeof offset === 'number' && Math.abs(current + offset) <= maxOffset)) {
      fail('TimeOutOfRange', `skew offset ${show(offset)} takes ${show(h.name)}'s offset out of [-${maxOffset}, ${maxOffset}] ms (now ${current})`)
    }
    const ppm = g['driftPpm']
    if (!(typeof ppm === 'number' && ppm > -1e6 && ppm < 1e6)) bad(`skew driftPpm ${show(ppm)} is not a drift in (-1000000, 1000000) ppm`)
  }
  return faults as readonly Fault[]
}

/**
 * Arms the schedule's faults on the simulation's clock, from now: each starts `at` ms from
 * now and is undone `duration` ms later. Throws, before arming any, `InvalidArgument` for a
 * schedule or fault that is not one (unknown kind, a host the simulation does not have, a
 * drift out of (-1, 1)) and `TimeOutOfRange` for a time outside [0, 2^31 - 1], a duration
 * of 0 or less, or a skew taking a host's offset out of `Date`'s range.
 * The seed is not used here: make the simulation with `create({ seed: schedule.seed })`.
 *
 * @example
 * applySchedule(sim, { seed: 1, faults: [{ kind: 'crash', at: 100, duration: 50, host: 'a' }] })
 */
export const applySchedule = <M>(sim: Simulation<M>, schedule: FaultSchedule): void => {
  const steps: Array<readonly [number, () => void]> = []
  for (const f of checkSchedule(sim, schedule)) {
    switch (f.kind) {
      case 'partition':
      case 'hold': {
        const [from, to, dir] = [f.from, f.to, { oneWay: f.oneWay === true }]
        const [start, stop] = f.kind === 'partition' ? [partition, heal] : [hold, release]
        steps.push([f.at, () => start(sim, from, to, dir)], [f.at + f.duration, () => stop(sim, from, to, dir)])
        break
      }
      case 'crash': {
        const host = f.host
        steps.push([f.at, () => crash(sim, host)], [f.at + f.duration, () => restart(sim, host)])
        break
      }
      case 'pause': {
        const host = f.host
        steps.push([f.at, () => pause(sim, host)], [f.at + f.duration, () => resume(sim, host)])
        break
      }
      case 'skew': {
        const h = sim.hosts[f.host]!
        let before: { offset: number; drift: number } | undefined
        steps.push(
          [
            f.at,
            () => {
              const t = sim.clock.now
              before = { offset: h.base + (t - h.anchor) * h.rate - t, drift: h.drift }
              skew(sim, f.host, { offset: before.offset + f.offset, drift: f.driftPpm / 1e6 })
            },
          ],
          [f.at + f.duration, () => skew(sim, f.host, before!)],
        )
        break
      }
    }
  }
  for (const [at, step] of steps) sim.clock.setTimeout(step, at)
}
