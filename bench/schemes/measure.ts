/**
 * The two experiments, run on the schemes through `drivers.ts`.
 *
 * Growth in n (`sweep`): for each scheme and each n, a fresh module holds n timers; the
 * harness times START_TIMER, STOP_TIMER and PER_TICK_BOOKKEEPING on it, `reps` times,
 * and keeps the median ns per operation. How many operations a measurement times is
 * planned from the previous size's result scaled by the paper's predicted shape, so each
 * takes about `budgetNs`; a measurement projected to take over `skipAboveNs` (the O(n)
 * routines at large n) is skipped and reported with its projection.
 *
 * T against M (`tradeOff`): Schemes 6 and 7 in a steady state of n timers whose mean
 * interval is T, each restarted when it expires, for several table sizes M (Scheme 6) and
 * slots per level (Scheme 7). It times whole ticks (bookkeeping, expiries and restarts)
 * and, separately, START_TIMER.
 *
 * Before its measurements each scheme is warmed up on a small program whose firings
 * (count and an order-free hash) must equal every other scheme's: a cheap cross-check
 * that the schemes being timed are the ones the property test checks.
 */
import type * as DriversModule from './drivers.js'
import { moduleCopy } from '../module-copy.js'
import * as Memory from './memory.js'
import type { Op } from './paper.js'
import { ops, predictions } from './paper.js'
import type { Config, Scheme, TimerModule } from './scheme.js'
import * as Workloads from './workloads.js'

export type Drivers = typeof DriversModule

/** Loads the copy of `drivers.ts` that scheme `key` is timed with. */
export type LoadDrivers = (key: string) => Promise<Drivers>

/** A copy of `drivers.ts` of its own per key: see that module's comment and `module-copy.ts`. */
export const separateDrivers: LoadDrivers = (key) => moduleCopy<Drivers>(new URL('./drivers.js', import.meta.url), key)

const gc = (globalThis as { gc?: () => void }).gc

/** A full collection, so that garbage from the setup is not collected on the clock. */
export const collect = (): void => {
  gc?.()
}

export const canCollect = (): boolean => gc !== undefined

export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const clamp = (x: number, low: number, high: number): number => Math.max(low, Math.min(high, x))

const nowNs = (): number => Number(process.hrtime.bigint())

// Growth in n.

export interface SweepOptions {
  readonly schemes: readonly Scheme[]
  readonly sizes: readonly number[]
  /** Intervals are uniform in `[1, maxInterval)`; Scheme 4 gets this many slots. */
  readonly maxInterval: number
  /** M of Schemes 5 and 6. */
  readonly tableSize: number
  readonly reps: number
  /** The timed time one measurement aims at. */
  readonly budgetNs: number
  /** Fewest and most operations one measurement times. */
  readonly minOps: number
  readonly maxOps: number
  readonly maxTicks: number
  readonly minSegment: number
  readonly maxSegment: number
  /** A measurement projected to take longer than this (timed and untimed) is skipped. */
  readonly skipAboveNs: number
  /** Dependent reads per rep of the memory yardstick (`memory.ts`). */
  readonly memorySteps: number
  readonly seed: number
}

export interface Measurement {
  readonly n: number
  /** Median ns per operation; absent when skipped. */
  readonly ns?: number
  /** ns per operation of each rep. */
  readonly runs: readonly number[]
  /** Operations timed per rep. */
  readonly ops: number
  /**
   * Set when skipped: the projected ns per operation, per untimed operation that undoes
   * it (a STOP's restart), and for the whole measurement, all runs.
   */
  readonly skipped?: { readonly nsPerOp: number; readonly restoreNs: number; readonly measurementNs: number }
}

export interface Series {
  readonly scheme: Scheme
  readonly op: Op
  readonly points: readonly Measurement[]
}

export interface Firings {
  readonly scheme: string
  readonly fired: number
  readonly hash: number
}

export interface SweepResult {
  readonly series: readonly Series[]
  /** The memory yardstick at each n: ns per dependent random read in 16·n bytes. */
  readonly memory: ReadonlyArray<{ readonly n: number; readonly ns: number }>
  /** What each scheme fired in the warm-up program; all equal, or `sweep` throws. */
  readonly firings: readonly Firings[]
}

export class FiringMismatch extends Error {
  override readonly name = 'FiringMismatch'
}

/** Ns per operation measured in one rep, by routine. */
type Rep = Partial<Record<Op, number>>

/** How many operations to time for each routine at one size; absent: skip it. */
type Plan = Partial<Record<Op, number>>

/**
 * One rep at size `n`: a fresh module filled with the workload, then each planned
 * routine timed, with a full collection before each.
 */
const runRep = (scheme: Scheme, drivers: Drivers, wl: Workloads.Sweep, opts: SweepOptions, plan: Plan, overhead: number): Rep => {
  const tally = new drivers.Tally()
  const config: Config = { capacity: wl.n + wl.segment, maxInterval: wl.maxInterval, tableSize: opts.tableSize }
  const m = scheme.create(config, tally.onExpiry)
  drivers.fill(m, wl.fillIntervals, wl.fillOrder)
  const rep: Rep = {}
  if (plan.start !== undefined) {
    collect()
    rep.start = drivers.timeStarts(m, wl.startIntervals, plan.start, wl.segment, wl.n, overhead) / plan.start
  }
  if (plan.stop !== undefined) {
    collect()
    rep.stop = drivers.timeStops(m, wl.stopIds, wl.restartIntervals, plan.stop, wl.segment, overhead) / plan.stop
  }
  if (plan.tick !== undefined) {
    collect()
    rep.tick = drivers.timeTicks(m, tally, plan.tick, Math.min(plan.tick, 1024), overhead) / plan.tick
  }
  return rep
}

/**
 * The warm-up program: short intervals, so that every timer fires within it, and every
 * routine runs thousands of times before anything is timed.
 */
const warmUp = (scheme: Scheme, drivers: Drivers, seed: number, overhead: number): Firings => {
  const maxInterval = 4096
  const wl = Workloads.sweep(2000, maxInterval, 5000, 50, 200, seed)
  let firings: Firings | undefined
  for (let round = 0; round < 3; round++) {
    const tally = new drivers.Tally()
    const m = scheme.create({ capacity: wl.n + wl.segment, maxInterval, tableSize: 64 }, tally.onExpiry)
    drivers.fill(m, wl.fillIntervals, wl.fillOrder)
    drivers.timeStarts(m, wl.startIntervals, 5000, wl.segment, wl.n, overhead)
    drivers.timeStops(m, wl.stopIds, wl.restartIntervals, 5000, wl.segment, overhead)
    drivers.timeTicks(m, tally, 2 * maxInterval, 256, overhead)
    if (m.size() !== 0) throw new FiringMismatch(`${scheme.name}: ${m.size()} timers left after the warm-up program`)
    firings = { scheme: scheme.name, fired: tally.fired, hash: tally.hash }
  }
  return firings!
}

/** Operations the pilot run times at the first size, to plan the real runs from. */
const pilotOps: Readonly<Record<Op, number>> = { start: 1000, stop: 1000, tick: 256 }

export interface Projection {
  readonly nsPerOp: number
  /** Untimed ns per timed op: the work that puts n back. */
  readonly restoreNs: number
}

/**
 * How many operations to time for each routine, or which to skip: a routine is timed for
 * about `budgetNs` per rep (at least `minOps`, at most the cap), so a measurement only
 * exceeds `budgetNs * reps` when `minOps` operations cost more; it is skipped if it would
 * take over `skipAboveNs`, and once skipped, at every larger size.
 */
export const planFor = (
  projections: Readonly<Record<Op, Projection>>,
  opts: SweepOptions,
  skippedBefore: ReadonlySet<Op>,
): { plan: Plan; skipped: Partial<Record<Op, Measurement['skipped']>> } => {
  const plan: Plan = {}
  const skipped: Partial<Record<Op, Measurement['skipped']>> = {}
  for (const op of ops) {
    const { nsPerOp, restoreNs } = projections[op]
    const cap = op === 'tick' ? opts.maxTicks : opts.maxOps
    const count = Math.round(clamp(opts.budgetNs / (nsPerOp + restoreNs), opts.minOps, cap))
    const measurementNs = count * (nsPerOp + restoreNs) * opts.reps
    if (skippedBefore.has(op) || measurementNs > opts.skipAboveNs) skipped[op] = { nsPerOp, restoreNs, measurementNs }
    else plan[op] = count
  }
  return { plan, skipped }
}

/**
 * Scales the last measured cost to `n` by the predicted shape or by the last step's
 * measured growth, whichever is steeper (caches make the O(n) walks superlinear); never
 * below 1 ns, so that a noisy small figure cannot shrink the next measurement to nothing.
 */
const project = (points: readonly Measurement[], shape: (n: number) => number, n: number): number => {
  const last = points.at(-1)
  const lastNs = last === undefined ? undefined : costOf(last)
  if (last === undefined || lastNs === undefined) return NaN
  const before = points.at(-2)
  const beforeNs = before === undefined ? undefined : costOf(before)
  let growth = shape(n) / shape(last.n)
  if (before !== undefined && beforeNs !== undefined && beforeNs > 0 && lastNs > 0) {
    const k = Math.log(lastNs / beforeNs) / Math.log(last.n / before.n)
    growth = Math.max(growth, (n / last.n) ** k)
  }
  return Math.max(1, lastNs * Math.max(1, growth))
}

/**
 * What a point says a routine costs: its measurement, or for a skipped one the projection
 * it was skipped on, so that later sizes (and the routines whose segments it undoes) are
 * projected from it rather than from nothing.
 */
const costOf = (p: Measurement): number | undefined => p.ns ?? p.skipped?.nsPerOp

/** What each routine will cost at `n`: from a pilot run at the first size, from the last sizes after. */
const projectionsAt = (
  n: number,
  points: Readonly<Record<Op, readonly Measurement[]>>,
  scheme: Scheme,
  pilot: () => Rep,
  tableSize: number,
): Record<Op, Projection> => {
  let start: number
  let stop: number
  let tick: number
  if (points.start.length === 0) {
    const r = pilot()
    const floor = (ns: number | undefined): number => Math.max(1, ns ?? 1)
    start = floor(r.start)
    stop = floor(r.stop)
    tick = floor(r.tick)
  } else {
    const predicted = predictions(scheme.number, tableSize)
    start = project(points.start, predicted.start.shape, n)
    stop = project(points.stop, predicted.stop.shape, n)
    tick = project(points.tick, predicted.tick.shape, n)
  }
  return projectionsOf({ start, stop, tick })
}

/** Each routine's projection from what each costs an operation. */
const projectionsOf = (cost: Readonly<Record<Op, number>>): Record<Op, Projection> => ({
  // A START segment is undone by STOPs, a STOP segment by STARTs; ticks need no undoing.
  start: { nsPerOp: cost.start, restoreNs: cost.stop },
  stop: { nsPerOp: cost.stop, restoreNs: cost.start },
  tick: { nsPerOp: cost.tick, restoreNs: 0 },
})

/**
 * The plan at this size, with each skip first confirmed here. A skip projected from the
 * sizes before stands only if `minOps` operations, timed here (the faster of two tries),
 * cost as much: one measurement slowed by the machine's load at a smaller size would
 * otherwise project a constant-time routine past the line.
 */
export const confirmedPlan = (
  projections: Record<Op, Projection>,
  opts: SweepOptions,
  skippedBefore: ReadonlySet<Op>,
  probe: (plan: Plan) => Rep,
): ReturnType<typeof planFor> => {
  const first = planFor(projections, opts, skippedBefore)
  const unconfirmed = ops.filter((op) => first.skipped[op] !== undefined && !skippedBefore.has(op))
  if (unconfirmed.length === 0) return first
  const plan: Plan = Object.fromEntries(unconfirmed.map((op) => [op, opts.minOps]))
  const [a, b] = [probe(plan), probe(plan)]
  const cost = { start: projections.start.nsPerOp, stop: projections.stop.nsPerOp, tick: projections.tick.nsPerOp }
  for (const op of unconfirmed) cost[op] = Math.min(a[op]!, b[op]!)
  return planFor(projectionsOf(cost), opts, skippedBefore)
}

/** Measures every routine of one scheme at one size, or records why not; appends to `points`. */
const measureSize = (
  scheme: Scheme,
  drivers: Drivers,
  wl: Workloads.Sweep,
  opts: SweepOptions,
  overhead: number,
  points: Record<Op, Measurement[]>,
  skippedBefore: Set<Op>,
): void => {
  const projections = projectionsAt(wl.n, points, scheme, () => runRep(scheme, drivers, wl, opts, pilotOps, overhead), opts.tableSize)
  const { plan, skipped } = confirmedPlan(projections, opts, skippedBefore, (probe) => runRep(scheme, drivers, wl, opts, probe, overhead))
  const runs: Record<Op, number[]> = { start: [], stop: [], tick: [] }
  if (Object.keys(plan).length > 0) {
    // The first rep is discarded: even after the warm-up program, it runs partly unoptimized code.
    for (let rep = -1; rep < opts.reps; rep++) {
      const r = runRep(scheme, drivers, wl, opts, plan, overhead)
      if (rep >= 0) for (const op of ops) if (r[op] !== undefined) runs[op].push(r[op])
    }
  }
  for (const op of ops) {
    const skip = skipped[op]
    if (skip !== undefined) {
      skippedBefore.add(op)
      points[op].push({ n: wl.n, runs: [], ops: 0, skipped: skip })
    } else {
      points[op].push({ n: wl.n, ns: median(runs[op]), runs: runs[op], ops: plan[op]! })
    }
  }
}

/** The memory yardstick at every size: `memory.ts`. */
const measureMemory = (opts: SweepOptions, log: (line: string) => void): SweepResult['memory'] => {
  Memory.timeChase(Memory.chain(64, opts.seed), opts.memorySteps) // the loop's JIT warm-up
  return opts.sizes.map((n) => {
    const next = Memory.chain(n, opts.seed)
    Memory.timeChase(next, opts.memorySteps)
    const ns = median(Array.from({ length: opts.reps }, () => Memory.timeChase(next, opts.memorySteps)))
    log(`memory yardstick n=${String(n).padEnd(8)} ${ns.toFixed(1)} ns per random read`)
    return { n, ns }
  })
}

export const sweep = async (opts: SweepOptions, loadDrivers: LoadDrivers, log: (line: string) => void): Promise<SweepResult> => {
  const workloads = new Map<number, Workloads.Sweep>()
  const workload = (n: number): Workloads.Sweep => {
    let wl = workloads.get(n)
    if (wl === undefined) {
      wl = Workloads.sweep(n, opts.maxInterval, Math.max(opts.maxOps, pilotOps.start), opts.minSegment, opts.maxSegment, opts.seed)
      workloads.set(n, wl)
    }
    return wl
  }
  const series: Series[] = []
  const firings: Firings[] = []
  for (const scheme of opts.schemes) {
    const drivers = await loadDrivers(scheme.key)
    const f = warmUp(scheme, drivers, opts.seed, drivers.segmentOverhead())
    const first = firings[0] ?? f
    if (f.fired !== first.fired || f.hash !== first.hash) {
      throw new FiringMismatch(`${f.scheme} fired ${f.fired} (hash ${f.hash}) in the warm-up, ${first.scheme} ${first.fired} (hash ${first.hash})`)
    }
    firings.push(f)
    const overhead = drivers.segmentOverhead()
    const points: Record<Op, Measurement[]> = { start: [], stop: [], tick: [] }
    const skippedBefore = new Set<Op>()
    for (const n of opts.sizes) {
      const began = nowNs()
      measureSize(scheme, drivers, workload(n), opts, overhead, points, skippedBefore)
      const show = (op: Op): string => {
        const p = points[op].at(-1)!
        return p.ns === undefined ? `${op} skipped` : `${op} ${p.ns.toFixed(1)} ns`
      }
      log(`${scheme.name.padEnd(44)} n=${String(n).padEnd(8)} ${ops.map(show).join(', ')} (${((nowNs() - began) / 1e9).toFixed(1)} s)`)
    }
    for (const op of ops) series.push({ scheme, op, points: points[op] })
  }
  return { series, memory: measureMemory(opts, log), firings }
}

// T against M.

export interface Variant {
  readonly label: string
  readonly scheme: Scheme
  /** Scheme 6: M. */
  readonly tableSize?: number
  /** Scheme 7: bits per level. */
  readonly levelBits?: readonly number[]
  /** Array elements in all: M for Scheme 6, the sum of the levels' slots for Scheme 7. */
  readonly totalSlots: number
  /** Levels in the hierarchy: 1 for Scheme 6. */
  readonly levels: number
}

export interface TradeOffOptions {
  readonly n: number
  readonly meanIntervals: readonly number[]
  readonly variants: readonly Variant[]
  readonly reps: number
  readonly budgetNs: number
  readonly minTicks: number
  readonly maxTicks: number
  readonly maxOps: number
  readonly minSegment: number
  readonly maxSegment: number
  /** Pre-generated restart intervals per T, a power of two. */
  readonly ringLength: number
  readonly seed: number
}

export interface TradeOffCell {
  readonly variant: string
  readonly meanInterval: number
  /** Median ns per tick in the steady state, expiries and restarts included. */
  readonly tickNs: number
  readonly tickRuns: readonly number[]
  readonly ticks: number
  /** Median ns per START_TIMER in that state. */
  readonly startNs: number
  readonly startRuns: readonly number[]
  readonly starts: number
}

export interface TradeOffResult {
  readonly n: number
  readonly meanIntervals: readonly number[]
  readonly variants: readonly Variant[]
  readonly cells: readonly TradeOffCell[]
  /** Ns per tick of each variant holding no timer: the fixed cost of a tick. */
  readonly idle: ReadonlyArray<{ readonly variant: string; readonly tickNs: number }>
}

/** A variant's module configuration, sized once for the largest T. */
const configOf = (variant: Variant, capacity: number, maxInterval: number): Config => ({
  capacity,
  maxInterval,
  ...(variant.tableSize === undefined ? {} : { tableSize: variant.tableSize }),
  ...(variant.levelBits === undefined ? {} : { levelBits: variant.levelBits }),
})

/**
 * Ticks a filled module for two whole budgets and returns ns per tick in the second. The
 * first ticks after the setup run colder code and cost several times the steady state; a
 * short pilot taken there would shrink every timed window into that transient.
 */
const warmSteady = (drivers: Drivers, m: TimerModule, ring: DriversModule.Restarts, opts: TradeOffOptions, overhead: number): number => {
  const chunk = 64
  let perTick = 0
  for (let round = 0; round < 2; round++) {
    let ticks = 0
    let ns = 0
    while (ns < opts.budgetNs || ticks < opts.minTicks) {
      ns += drivers.timeSteadyTicks(m, ring, chunk, chunk, overhead)
      ticks += chunk
    }
    perTick = ns / ticks
  }
  return perTick
}

/** `reps` timed runs of `run`, each after a full collection; ns per op of each. */
const timedRuns = (reps: number, count: number, run: () => number): number[] =>
  Array.from({ length: reps }, () => {
    collect()
    return run() / count
  })

const measureCell = (variant: Variant, drivers: Drivers, wl: Workloads.Steady, maxInterval: number, opts: TradeOffOptions, overhead: number): TradeOffCell => {
  const ring = new drivers.Restarts(wl.n + wl.segment, wl.restartIntervals)
  const m = variant.scheme.create(configOf(variant, wl.n + wl.segment, maxInterval), ring.onExpiry)
  drivers.fill(m, wl.fillResiduals, wl.fillOrder)
  const perTick = warmSteady(drivers, m, ring, opts, overhead)
  const ticks = Math.round(clamp(opts.budgetNs / Math.max(perTick, 1), opts.minTicks, opts.maxTicks))
  const tickRuns = timedRuns(opts.reps, ticks, () => drivers.timeSteadyTicks(m, ring, ticks, Math.min(ticks, 1024), overhead))
  const perStart = drivers.timeStarts(m, wl.startIntervals, 1000, wl.segment, wl.n, overhead) / 1000
  const starts = Math.round(clamp(opts.budgetNs / Math.max(perStart, 1), 1000, opts.maxOps))
  const startRuns = timedRuns(opts.reps, starts, () => drivers.timeStarts(m, wl.startIntervals, starts, wl.segment, wl.n, overhead))
  if (m.size() !== wl.n) throw new Error(`${variant.label}: ${m.size()} timers outstanding, not ${wl.n}`)
  return {
    variant: variant.label,
    meanInterval: wl.meanInterval,
    tickNs: median(tickRuns),
    tickRuns,
    ticks,
    startNs: median(startRuns),
    startRuns,
    starts,
  }
}

/** The fixed cost of a tick: the variant's module with no timer, ticking. */
const idleTick = (variant: Variant, drivers: Drivers, maxInterval: number, opts: TradeOffOptions, overhead: number): number => {
  const tally = new drivers.Tally()
  const m = variant.scheme.create(configOf(variant, 1, maxInterval), tally.onExpiry)
  const ticks = Math.min(opts.maxTicks, 2 ** 18)
  drivers.timeTicks(m, tally, ticks, 1024, overhead)
  return median(timedRuns(opts.reps, ticks, () => drivers.timeTicks(m, tally, ticks, 1024, overhead)))
}

export const tradeOff = async (opts: TradeOffOptions, loadDrivers: LoadDrivers, log: (line: string) => void): Promise<TradeOffResult> => {
  // One configuration per variant for every T, as a user would size a wheel once.
  const maxInterval = Workloads.steadyMaxInterval(Math.max(...opts.meanIntervals))
  const cells: TradeOffCell[] = []
  for (const meanInterval of opts.meanIntervals) {
    const wl = Workloads.steady(opts.n, meanInterval, opts.ringLength, Math.max(opts.maxOps, 1000), opts.minSegment, opts.maxSegment, opts.seed)
    for (const variant of opts.variants) {
      const drivers = await loadDrivers(variant.scheme.key)
      const cell = measureCell(variant, drivers, wl, maxInterval, opts, drivers.segmentOverhead())
      cells.push(cell)
      log(`T=${String(meanInterval).padEnd(8)} ${variant.label.padEnd(28)} tick ${cell.tickNs.toFixed(1)} ns, START ${cell.startNs.toFixed(1)} ns`)
    }
  }
  const idle: Array<{ variant: string; tickNs: number }> = []
  for (const variant of opts.variants) {
    const drivers = await loadDrivers(variant.scheme.key)
    const tickNs = idleTick(variant, drivers, maxInterval, opts, drivers.segmentOverhead())
    idle.push({ variant: variant.label, tickNs })
    log(`idle ${variant.label.padEnd(28)} tick ${tickNs.toFixed(1)} ns`)
  }
  return { n: opts.n, meanIntervals: opts.meanIntervals, variants: opts.variants, cells, idle }
}
