/**
 * Runs the workloads on every implementation: generates each workload once, warms each
 * implementation up on a small instance of it, then times `repeats` runs of each, in an
 * order that rotates from run to run, and keeps the median. Every run's checksum must
 * equal the first implementation's; a mismatch throws.
 *
 * Each implementation is timed through its own copy of `drivers.ts`, imported under a
 * distinct query string: a shared copy would see four adapter classes at every call site
 * and time polymorphic dispatch instead of the libraries.
 */
import type { ClockImpl, QueueImpl } from './adapter.js'
import type * as DriversModule from './drivers.js'
import type { Checksum, Run } from './drivers.js'
import { moduleCopy } from './module-copy.js'
import * as Workloads from './workloads.js'
import type { Sizes } from './workloads.js'

export type Drivers = typeof DriversModule

export type WorkloadId = 'churn' | 'timeouts' | 'spread' | 'hold' | 'virtualClock' | 'idleClock' | 'addRemove' | 'memory'

export const allWorkloads: readonly WorkloadId[] = ['churn', 'timeouts', 'spread', 'hold', 'virtualClock', 'idleClock', 'addRemove', 'memory']

/** One implementation's figures on one workload. */
export interface Cell {
  readonly impl: string
  readonly nsPerOp: number
  /** `nsPerOp` over the first implementation's: how many times faster that one is. */
  readonly ratio: number
  /** ns per op of every timed run, in run order. */
  readonly runs: readonly number[]
  /** The median run's phases, in ns per op. */
  readonly phases: Readonly<Record<string, number>>
  readonly checksum: Checksum
}

export interface Row {
  readonly id: string
  readonly label: string
  readonly description: string
  readonly ops: number
  /** Set instead of `cells` when the row cannot run yet. */
  readonly pending?: string
  readonly cells: readonly Cell[]
}

export interface MemoryCell {
  readonly impl: string
  /** A timer queue measured with alarms, or a fake clock measured with `setTimeout`s. */
  readonly kind: 'queue' | 'clock'
  /** Undefined when node runs without `--expose-gc`. */
  readonly bytesPerAlarm: number | undefined
}

export interface Results {
  readonly seed: number
  readonly rows: readonly Row[]
  readonly memory: {
    readonly alarms: number
    readonly cells: readonly MemoryCell[]
    /** The timing wheel alone at `Sizes.memory.largeAlarms`, where a pool that doubles would show its cliff. */
    readonly large?: { readonly alarms: number; readonly bytesPerAlarm: number | undefined }
  }
}

export interface Options {
  readonly sizes: Sizes
  /** The sizes of the warm-up runs. */
  readonly warmSizes: Sizes
  readonly seed: number
  /** The wheel first: ratios are relative to it. */
  readonly queues: readonly QueueImpl[]
  /** VirtualClock (or why it is missing) first, then the clocks it is compared with. */
  readonly clocks?: readonly [ClockImpl | string, ...ClockImpl[]]
  /**
   * Clocks measured on the idle row only, after `clocks` (fake-timers 15.0, which scans
   * every timer on every move, would take hours on the hold row). The idle row runs only
   * when this is given.
   */
  readonly idleClocks?: readonly ClockImpl[]
  readonly workloads?: readonly WorkloadId[]
  /** Where each implementation's copy of the drivers comes from; see the module comment. */
  readonly loadDrivers?: (key: string) => Promise<Drivers>
  /** Progress, one line at a time. */
  readonly log?: (line: string) => void
}

export class ChecksumMismatch extends Error {
  override readonly name = 'ChecksumMismatch'
}

/** A copy of `drivers.ts` of its own for `key` (see `module-copy.ts`). */
export const separateDrivers = (key: string): Promise<Drivers> =>
  moduleCopy<Drivers>(new URL('./drivers.js', import.meta.url), key)

/** The median of an odd number of runs; of an even number, the lower middle one. */
export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

const sameChecksum = (a: Checksum, b: Checksum): boolean => a.fired === b.fired && a.hash === b.hash

const showChecksum = (c: Checksum): string => `${c.fired} fired, hash ${c.hash.toString(16).padStart(8, '0')}`

interface Subject<I> {
  readonly impl: I
  readonly name: string
  readonly play: (drivers: Drivers, impl: I) => Run
  readonly warm: (drivers: Drivers, impl: I) => Run
}

/**
 * Times every subject on one workload: warm-ups, then `repeats` rounds in rotating order.
 * Checks every checksum against the first subject's first run, and that nothing is left.
 */
const measure = async <I>(
  opts: Options,
  id: string,
  subjects: ReadonlyArray<Subject<I>>,
): Promise<Cell[]> => {
  const load = opts.loadDrivers ?? separateDrivers
  const drivers = await Promise.all(subjects.map((s) => load(s.name)))
  const log = opts.log ?? ((): void => {})
  subjects.forEach((s, i) => {
    for (let k = 0; k < 2; k++) s.warm(drivers[i]!, s.impl)
  })
  const runs: Run[][] = subjects.map(() => [])
  for (let r = 0; r < opts.sizes.repeats; r++) {
    for (let j = 0; j < subjects.length; j++) {
      const i = (j + r) % subjects.length
      const s = subjects[i]!
      const run = s.play(drivers[i]!, s.impl)
      log(`  ${id} ${s.name} run ${r + 1}: ${(run.ns / run.ops).toFixed(1)} ns/op`)
      runs[i]!.push(run)
    }
  }
  const reference = runs[0]![0]!.checksum
  const problems: string[] = []
  subjects.forEach((s, i) => {
    for (const run of runs[i]!) {
      if (!sameChecksum(run.checksum, reference)) {
        problems.push(`${s.name}: ${showChecksum(run.checksum)}, expected ${showChecksum(reference)} (${subjects[0]!.name})`)
      }
      if (run.left !== 0) problems.push(`${s.name}: ${run.left} alarms left over at the end`)
    }
  })
  if (problems.length > 0) {
    throw new ChecksumMismatch(`${id}: the implementations disagree:\n  ${[...new Set(problems)].join('\n  ')}`)
  }
  const cells = subjects.map((s, i) => {
    const all = runs[i]!
    const perOp = all.map((run) => run.ns / run.ops)
    const mid = median(perOp)
    const chosen = all[perOp.indexOf(mid)]!
    const phases: Record<string, number> = {}
    for (const [k, v] of Object.entries(chosen.phases)) phases[k] = v / chosen.ops
    return { impl: s.name, nsPerOp: mid, ratio: 1, runs: perOp, phases, checksum: chosen.checksum }
  })
  const base = cells[0]!.nsPerOp
  return cells.map((c) => ({ ...c, ratio: c.nsPerOp / base }))
}

const queueSubjects = <W>(
  opts: Options,
  data: W,
  warm: W,
  play: (d: Drivers, impl: QueueImpl, w: W) => Run,
  queues: readonly QueueImpl[] = opts.queues,
): Array<Subject<QueueImpl>> =>
  queues.map((impl) => ({
    impl,
    name: impl.name,
    play: (d, i) => play(d, i, data),
    warm: (d, i) => play(d, i, warm),
  }))

/** Runs the chosen workloads and returns every figure. */
export const run = async (opts: Options): Promise<Results> => {
  const chosen = new Set(opts.workloads ?? allWorkloads)
  const log = opts.log ?? ((): void => {})
  const { sizes, warmSizes, seed } = opts
  const rows: Row[] = []
  const row = async <W>(
    id: string,
    label: string,
    description: string,
    data: W,
    warm: W,
    ops: number,
    play: (d: Drivers, impl: QueueImpl, w: W) => Run,
    queues?: readonly QueueImpl[],
  ): Promise<void> => {
    log(`${label}: ${description}`)
    const cells = await measure(opts, id, queueSubjects(opts, data, warm, play, queues))
    rows.push({ id, label, description, ops, cells })
  }

  if (chosen.has('churn')) {
    for (const [k, size] of sizes.churn.entries()) {
      const warmSize = warmSizes.churn[k] ?? warmSizes.churn[0]!
      const data = Workloads.churn(size, sizes.churnMaxDelay, seed)
      const warm = Workloads.churn(warmSize, warmSizes.churnMaxDelay, seed + 1)
      await row(
        `churn-${Workloads.showCount(size.outstanding)}`,
        `churn ${Workloads.showCount(size.outstanding)}`,
        `${Workloads.showCount(size.outstanding)} outstanding, ${Workloads.showCount(size.ops)} ops of cancel one + add one, ` +
          `delays U[1, ${sizes.churnMaxDelay}] ms, then drained 1 ms at a time; ns per op`,
        data,
        warm,
        size.ops,
        (d, impl, w) => d.churn(impl, w),
      )
    }
  }
  if (chosen.has('timeouts')) {
    const t = sizes.timeouts
    const data = Workloads.timeouts(t, seed)
    await row(
      'timeouts',
      'timeouts',
      `${t.perMs} timers/ms for ${Workloads.showCount(t.ms)} ms, delays U[1, ${t.maxDelay}] ms, ` +
        `${Math.round(t.stoppedFraction * 100)}% stopped early; ns per timer started`,
      data,
      Workloads.timeouts(warmSizes.timeouts, seed + 1),
      data.timers,
      (d, impl, w) => d.timeouts(impl, w),
    )
  }
  if (chosen.has('spread')) {
    const s = sizes.spread
    await row(
      'spread',
      'spread',
      `${Workloads.showCount(s.alarms)} alarms U[0, ${s.span / 60_000} min), clock advanced ${s.step} ms at a time; ns per alarm`,
      Workloads.spread(s, seed),
      Workloads.spread(warmSizes.spread, seed + 1),
      s.alarms,
      (d, impl, w) => d.spread(impl, w),
    )
  }
  if (chosen.has('hold')) {
    const h = sizes.hold
    await row(
      'hold',
      'hold',
      `${Workloads.showCount(h.pending)} pending events, ${Workloads.showCount(h.fired)} fired, ` +
        `increments Exp(${h.meanIncrement} ms); next event by nextAlarmFiresAt; ns per event`,
      Workloads.hold(h, seed),
      Workloads.hold(warmSizes.hold, seed + 1),
      h.fired,
      (d, impl, w) => d.hold(impl, w),
    )
  }
  if (chosen.has('virtualClock')) {
    const h = sizes.hold
    const label = 'virtual clock'
    const description =
      `the hold load as setTimeout callbacks, ${Workloads.showCount(h.pending)} pending, ` +
      `${Workloads.showCount(h.fired)} clock.next() calls; ns per event`
    log(`${label}: ${description}`)
    const clocks: readonly [ClockImpl | string, ...ClockImpl[]] = opts.clocks ?? ['pending: no clock given']
    const [first, ...others] = clocks
    if (typeof first === 'string') {
      rows.push({ id: 'virtual-clock', label, description, ops: h.fired, pending: first, cells: [] })
    } else {
      const data = Workloads.hold(h, seed)
      const warm = Workloads.hold(warmSizes.hold, seed + 1)
      const subjects = [first, ...others].map((impl) => ({
        impl,
        name: impl.name,
        play: (d: Drivers, c: ClockImpl) => d.clockHold(c, data),
        warm: (d: Drivers, c: ClockImpl) => d.clockHold(c, warm),
      }))
      rows.push({ id: 'virtual-clock', label, description, ops: h.fired, cells: await measure(opts, 'virtual clock', subjects) })
    }
  }
  if (chosen.has('idleClock') && opts.idleClocks !== undefined) {
    const w = sizes.idle
    const label = 'idle clock'
    const description =
      `${Workloads.showCount(w.timers)} timeouts about ${w.ahead / 60_000} min ahead, ` +
      `${Workloads.showCount(w.ticks)} tick(1) that fire nothing; ns per tick`
    log(`${label}: ${description}`)
    const [first, ...others] = opts.clocks ?? ['pending: no clock given']
    if (typeof first === 'string') {
      rows.push({ id: 'idle-clock', label, description, ops: w.ticks, pending: first, cells: [] })
    } else {
      const subjects = [first, ...others, ...opts.idleClocks].map((impl) => ({
        impl,
        name: impl.name,
        play: (d: Drivers, c: ClockImpl) => d.clockIdle(c, w),
        warm: (d: Drivers, c: ClockImpl) => d.clockIdle(c, warmSizes.idle),
      }))
      rows.push({ id: 'idle-clock', label, description, ops: w.ticks, cells: await measure(opts, 'idle clock', subjects) })
    }
  }
  if (chosen.has('addRemove')) {
    const a = sizes.addRemove
    await row(
      'add-remove',
      'add+remove',
      `one add then one remove of the same alarm, ${a.outstanding} others outstanding (in cache); ns per pair`,
      Workloads.addRemove(a, sizes.churnMaxDelay, seed),
      Workloads.addRemove(warmSizes.addRemove, warmSizes.churnMaxDelay, seed + 1),
      a.pairs,
      (d, impl, w) => d.addRemove(impl, w),
      opts.queues.slice(0, 1),
    )
  }
  const memoryCells: MemoryCell[] = []
  let large: Results['memory']['large']
  if (chosen.has('memory')) {
    log(`memory: ${Workloads.showCount(sizes.memory.alarms)} outstanding alarms`)
    const data = Workloads.memory(sizes.memory, seed)
    const drivers = await (opts.loadDrivers ?? separateDrivers)('memory')
    for (const impl of opts.queues) memoryCells.push({ impl: impl.name, kind: 'queue', bytesPerAlarm: drivers.memory(impl, data) })
    for (const clock of opts.clocks ?? []) {
      if (typeof clock !== 'string') {
        memoryCells.push({ impl: clock.name, kind: 'clock', bytesPerAlarm: drivers.clockMemory(clock, data) })
      }
    }
    const largeAlarms = sizes.memory.largeAlarms
    const wheel = opts.queues[0]
    if (largeAlarms !== undefined && wheel !== undefined) {
      log(`memory: ${Workloads.showCount(largeAlarms)} outstanding alarms, ${wheel.name} alone`)
      const bytesPerAlarm = drivers.memory(wheel, Workloads.memory({ alarms: largeAlarms }, seed))
      large = { alarms: largeAlarms, bytesPerAlarm }
    }
  }
  return { seed, rows, memory: { alarms: sizes.memory.alarms, cells: memoryCells, ...(large === undefined ? {} : { large }) } }
}
