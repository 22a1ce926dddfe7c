/**
 * The workloads, generated from a seed into typed arrays before any clock starts.
 *
 * Growth in n (`sweep`). `n` timers, ids `[0, n)`, start at tick 0 with intervals uniform
 * in `[1, maxInterval)`. The intervals are long (`maxInterval = 2^24` in the full run) so
 * that even at n = 10^6 fewer than one timer expires per tick on average: the per-tick
 * figures are bookkeeping, not expiry processing, which every scheme pays alike. The
 * setup starts timers latest-expiry first, so the sorted schemes (2 and 5) insert each at
 * the head of its list and the setup stays O(n) for them too.
 *
 * Steady state (`steady`). `n` timers, each restarted as soon as it expires, intervals
 * uniform in `[1, 2T - 1]` (mean T). To begin in equilibrium rather than with every timer
 * fresh, the setup draws each timer's remaining time from the residual-life distribution
 * of that interval law (the paper's Figure 3 remark): P(r) proportional to P(interval >= r).
 */
import * as Random from './random.js'

export interface Sweep {
  readonly n: number
  /** Intervals are in `[1, maxInterval)`. */
  readonly maxInterval: number
  /** Timer `id`'s interval at setup. */
  readonly fillIntervals: Int32Array
  /** The setup's order: ids by decreasing interval. */
  readonly fillOrder: Int32Array
  /** Timed START_TIMERs and STOP_TIMERs come in segments of this many (`segmentFor`). */
  readonly segment: number
  /** Intervals of the timed START_TIMERs, which use the spare ids `[n, n + segment)`. */
  readonly startIntervals: Int32Array
  /** Ids of the timed STOP_TIMERs, all in `[0, n)`, distinct within each segment. */
  readonly stopIds: Int32Array
  /** Intervals with which stopped timers start again, off the clock. */
  readonly restartIntervals: Int32Array
}

/**
 * How many START or STOP operations a timed segment holds: a tenth of n, so n moves by at
 * most 10%, but at least `minSegment` (and at most n/2). Shorter segments cannot be timed:
 * the clock read's own latency overlaps the few operations between two reads, and no
 * subtraction of a calibrated overhead recovers them (at n = 100 it gave negative times).
 */
export const segmentFor = (n: number, minSegment: number, maxSegment: number): number =>
  Math.max(1, Math.min(maxSegment, Math.floor(n / 2), Math.max(minSegment, Math.floor(n / 10))))

const intervals = (r: Random.Random, count: number, maxInterval: number): Int32Array => {
  const out = new Int32Array(count)
  for (let i = 0; i < count; i++) out[i] = Random.intBetween(r, 1, maxInterval - 1)
  return out
}

/** Ids by decreasing interval (ties by decreasing id), through one numeric sort of packed keys. */
const byDecreasingInterval = (fillIntervals: Int32Array): Int32Array => {
  const n = fillIntervals.length
  const packed = new Float64Array(n)
  for (let id = 0; id < n; id++) packed[id] = fillIntervals[id]! * 2 ** 24 + id
  packed.sort()
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = packed[n - 1 - i]! % 2 ** 24
  return order
}

/** `count` ids from `[0, n)`, distinct within each run of `segment`. */
const distinctPerSegment = (r: Random.Random, n: number, count: number, segment: number): Int32Array => {
  const ids = new Int32Array(count)
  const taken = new Uint8Array(n)
  for (let start = 0; start < count; start += segment) {
    const end = Math.min(count, start + segment)
    for (let i = start; i < end; i++) {
      let id: number
      do id = Random.intBetween(r, 0, n - 1)
      while (taken[id] === 1)
      taken[id] = 1
      ids[i] = id
    }
    for (let i = start; i < end; i++) taken[ids[i]!] = 0
  }
  return ids
}

export const sweep = (n: number, maxInterval: number, maxOps: number, minSegment: number, maxSegment: number, seed: number): Sweep => {
  if (n >= 2 ** 24) throw new RangeError(`sweep: n ${n} must be below 2^24`)
  const r = Random.create(seed ^ Math.imul(n, 0x27d4eb2d))
  const fillIntervals = intervals(r, n, maxInterval)
  const segment = segmentFor(n, minSegment, maxSegment)
  return {
    n,
    maxInterval,
    fillIntervals,
    fillOrder: byDecreasingInterval(fillIntervals),
    segment,
    startIntervals: intervals(r, maxOps, maxInterval),
    stopIds: distinctPerSegment(r, n, maxOps, segment),
    restartIntervals: intervals(r, maxOps, maxInterval),
  }
}

export interface Steady {
  readonly n: number
  /** The mean interval T. */
  readonly meanInterval: number
  /** Remaining ticks of timer `id` at setup: residual lives. */
  readonly fillResiduals: Int32Array
  /** `[0, n)` in order: the setup needs no particular order here. */
  readonly fillOrder: Int32Array
  /** Intervals for restarts, a ring whose length is a power of two. */
  readonly restartIntervals: Int32Array
  /** Intervals of the timed START_TIMERs, in segments as in `Sweep`. */
  readonly segment: number
  readonly startIntervals: Int32Array
}

/** The longest interval of the steady workload with mean `meanInterval`, plus one. */
export const steadyMaxInterval = (meanInterval: number): number => 2 * meanInterval

/**
 * Residual life of an interval uniform on `[1, L]`: density proportional to `L - r + 1`,
 * sampled by inverting the continuous triangular law and rounding up.
 */
const residual = (r: Random.Random, longest: number): number =>
  Math.min(longest, Math.max(1, Math.ceil(longest * (1 - Math.sqrt(1 - Random.uniform(r))))))

export const steady = (
  n: number,
  meanInterval: number,
  ringLength: number,
  maxOps: number,
  minSegment: number,
  maxSegment: number,
  seed: number,
): Steady => {
  const r = Random.create(seed ^ Math.imul(meanInterval, 0x165667b1) ^ n)
  const longest = steadyMaxInterval(meanInterval) - 1
  const fillResiduals = new Int32Array(n)
  for (let id = 0; id < n; id++) fillResiduals[id] = residual(r, longest)
  const fillOrder = new Int32Array(n)
  for (let id = 0; id < n; id++) fillOrder[id] = id
  return {
    n,
    meanInterval,
    fillResiduals,
    fillOrder,
    restartIntervals: intervals(r, ringLength, longest + 1),
    segment: segmentFor(n, minSegment, maxSegment),
    startIntervals: intervals(r, maxOps, longest + 1),
  }
}
