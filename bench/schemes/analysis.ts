/**
 * From measurements to sentences. Nothing here knows what the answer should be: each
 * verdict is computed from the numbers and the paper's predicted shapes.
 *
 * Growth in n is summarized by the least-squares slope of log(cost) against log(n), the
 * exponent k of a fit cost ~ n^k. A prediction's exponent is the same fit to its shape at
 * the same sizes (O(1) gives 0, O(n) gives 1, O(log n) about 0.1 over four decades, and
 * "O(1) while n < M" whatever its curve gives). The measurement agrees when the two
 * exponents are within `tolerance`.
 */
import type { Measurement, Series, TradeOffCell, TradeOffResult, Variant } from './measure.js'
import { type Prediction, laws } from './paper.js'

/** How far a measured exponent may be from the predicted one and still agree. */
export const tolerance = 0.2

/** Least-squares slope of `ln y` on `ln x`. */
export const logLogSlope = (xs: readonly number[], ys: readonly number[]): number => {
  const lx = xs.map(Math.log)
  const ly = ys.map(Math.log)
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length
  const my = ly.reduce((a, b) => a + b, 0) / ly.length
  let num = 0
  let den = 0
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i]! - mx) * (ly[i]! - my)
    den += (lx[i]! - mx) ** 2
  }
  return num / den
}

export const measured = (points: readonly Measurement[]): Array<{ n: number; ns: number }> =>
  points.flatMap((p) => (p.ns === undefined || p.ns <= 0 ? [] : [{ n: p.n, ns: p.ns }]))

/** How a measurement relates to its prediction. */
export type Agreement = 'agrees' | 'agrees within memory latency' | 'disagrees'

export interface Verdict {
  readonly measuredSlope: number
  readonly predictedSlope: number
  /** Exponent of cost divided by the memory yardstick's read time, if the yardstick was measured. */
  readonly perReadSlope?: number
  readonly agreement: Agreement
  /** Exponent between each pair of neighbouring sizes. */
  readonly stepSlopes: readonly number[]
  readonly sentence: string
}

const fixed = (x: number): string => (Math.abs(x) < 0.005 ? '0.00' : x.toFixed(2))

/** `10^k` for powers of ten, the number otherwise. */
export const showN = (n: number): string => {
  const k = Math.log10(n)
  return Number.isInteger(k) ? `10^${k}` : String(n)
}

const times = (ratio: number): string => (ratio >= 10 ? `×${ratio.toFixed(0)}` : `×${ratio.toFixed(1)}`)

export type Yardstick = ReadonlyArray<{ readonly n: number; readonly ns: number }>

/**
 * Compares one routine's measurements with its prediction; undefined with fewer than two
 * sizes. Cost is work times the time of each memory access, and an access costs between a
 * cache hit (constant) and a random read into the whole working set (`memory`). So a
 * routine doing the predicted work grows at least as the prediction and at most as the
 * prediction times the random read: an exponent above the prediction's but within that
 * band "agrees within memory latency", and the sentence gives both exponents.
 */
export const judge = (s: Series, prediction: Prediction, memory: Yardstick = []): Verdict | undefined => {
  const pts = measured(s.points)
  if (pts.length < 2) return undefined
  const ns = pts.map((p) => p.n)
  const measuredSlope = logLogSlope(ns, pts.map((p) => p.ns))
  const predictedSlope = logLogSlope(ns, ns.map(prediction.shape))
  const stepSlopes = pts.slice(1).map((p, i) => logLogSlope([pts[i]!.n, p.n], [pts[i]!.ns, p.ns]))
  const reads = pts.map((p) => memory.find((m) => m.n === p.n)?.ns)
  const perRead = reads.every((r): r is number => r !== undefined && r > 0)
    ? { slope: logLogSlope(ns, pts.map((p, i) => p.ns / reads[i]!)), readSlope: logLogSlope(ns, reads), readGrowth: reads.at(-1)! / reads[0]! }
    : undefined
  const first = pts[0]!
  const last = pts.at(-1)!
  const range = `n = ${showN(first.n)}..${showN(last.n)}`
  const growth = `cost ${times(last.ns / first.ns)} over ${range}, n^${fixed(measuredSlope)}`
  const expected = `${prediction.label} predicts n^${fixed(predictedSlope)} over these sizes`
  const diff = measuredSlope - predictedSlope
  const memoryNote =
    perRead === undefined
      ? ''
      : ` A random read into 16·n bytes slows ${times(perRead.readGrowth)} (n^${fixed(perRead.readSlope)}) over the same sizes; cost divided by it grows as n^${fixed(perRead.slope)}.`
  let agreement: Agreement
  let sentence: string
  if (Math.abs(diff) <= tolerance) {
    agreement = 'agrees'
    sentence = `Agrees: ${growth}; ${expected}.`
  } else if (perRead !== undefined && diff > 0 && diff <= perRead.readSlope + tolerance) {
    agreement = 'agrees within memory latency'
    sentence =
      `Agrees within memory latency: ${growth}; ${expected}, and no faster than that work times a random memory read ` +
      `(n^${fixed(predictedSlope + perRead.readSlope)}).${memoryNote}`
  } else {
    agreement = 'disagrees'
    const steepest = stepSlopes.reduce((best, k, i) => (k > stepSlopes[best]! ? i : best), 0)
    const nearest = laws.reduce(
      (best, law) => {
        const k = logLogSlope(ns, ns.map(law.shape))
        return Math.abs(k - measuredSlope) < Math.abs(best.k - measuredSlope) ? { label: law.label, k } : best
      },
      { label: '', k: Infinity },
    )
    sentence =
      `${diff > 0 ? 'Grows faster than predicted' : 'Grows slower than predicted'}: ${growth}; ${expected}. ` +
      `Nearest simple law: ${nearest.label}; steepest step ${showN(pts[steepest]!.n)} to ${showN(pts[steepest + 1]!.n)}, n^${fixed(stepSlopes[steepest]!)}.` +
      memoryNote
  }
  return {
    measuredSlope,
    predictedSlope,
    ...(perRead === undefined ? {} : { perReadSlope: perRead.slope }),
    agreement,
    stepSlopes,
    sentence,
  }
}

// T against M.

export const cellOf = (r: TradeOffResult, variant: string, meanInterval: number): TradeOffCell => {
  const cell = r.cells.find((c) => c.variant === variant && c.meanInterval === meanInterval)
  if (cell === undefined) throw new Error(`no cell for ${variant} at T = ${meanInterval}`)
  return cell
}

/** The fixed cost of a tick of `variant`, measured with no timers. */
export const idleOf = (r: TradeOffResult, variant: string): number => r.idle.find((i) => i.variant === variant)?.tickNs ?? 0

/**
 * The work the module does per timer over the timer's life: a tick's cost above the idle
 * tick, times the T ticks a timer lives, over the n timers sharing each tick.
 */
export const perTimerWork = (r: TradeOffResult, variant: string, meanInterval: number): number =>
  (Math.max(0, cellOf(r, variant, meanInterval).tickNs - idleOf(r, variant)) * meanInterval) / r.n

const scheme6Of = (r: TradeOffResult): Variant[] =>
  r.variants.filter((v) => v.scheme.number === 6).sort((a, b) => a.totalSlots - b.totalSlots)

const scheme7Of = (r: TradeOffResult): Variant[] => r.variants.filter((v) => v.scheme.number === 7)

const ns = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(1)} µs` : `${x.toFixed(0)} ns`)

const log2 = (x: number): string => `2^${Math.log2(x)}`

/** The Scheme 7 variant with the cheapest tick at `meanInterval`. */
const best7 = (r: TradeOffResult, meanInterval: number): TradeOffCell =>
  scheme7Of(r)
    .map((v) => cellOf(r, v.label, meanInterval))
    .reduce((a, b) => (b.tickNs < a.tickNs ? b : a))

/** The extremes of the grid, and the two schemes' variants, the claims are checked on. */
interface Grid {
  readonly r: TradeOffResult
  /** Scheme 6 by increasing M; Scheme 7 in the order given. */
  readonly six: readonly Variant[]
  readonly seven: readonly Variant[]
  readonly smallT: number
  readonly largeT: number
}

const verdict = (all: boolean, some: boolean): string => (all ? 'Confirmed' : some ? 'Partly' : 'Not confirmed')

/** Section 6.2: "for small values of T and large values of M, Scheme 6 can be better than Scheme 7 for both". */
const smallTLargeM = ({ r, six, seven, smallT }: Grid): string => {
  const largeM = six.at(-1)!
  const s6 = cellOf(r, largeM.label, smallT)
  const s7 = best7(r, smallT)
  const s7Start = Math.min(...seven.map((v) => cellOf(r, v.label, smallT).startNs))
  const tick = s6.tickNs < s7.tickNs
  const start = s6.startNs < s7Start
  return (
    `${verdict(tick && start, tick || start)}: for small T and large M Scheme 6 is better for both routines. At T = ${log2(smallT)}, ` +
    `${largeM.label} ticks in ${ns(s6.tickNs)} against ${ns(s7.tickNs)} for the best Scheme 7 (${s7.variant}), and starts a timer in ` +
    `${ns(s6.startNs)} against ${ns(s7Start)}.`
  )
}

/** Section 6.2: "for large values of T and small values of M, Scheme 7 will have a better average cost ... but a greater cost for START_TIMER". */
const largeTSmallM = ({ r, six, seven, largeT }: Grid): string => {
  const smallM = six[0]!
  const s6 = cellOf(r, smallM.label, largeT)
  const s7 = seven.map((v) => cellOf(r, v.label, largeT))
  const tickWins = s7.filter((c) => c.tickNs < s6.tickNs).length
  const startLoses = s7.filter((c) => c.startNs > s6.startNs).length
  return (
    `${verdict(tickWins === s7.length && startLoses === s7.length, tickWins + startLoses > 0)}: for large T and small M Scheme 7 ` +
    `has the cheaper tick but the dearer START_TIMER. At T = ${log2(largeT)} against ${smallM.label} (tick ${ns(s6.tickNs)}, ` +
    `START ${ns(s6.startNs)}), ${tickWins} of ${s7.length} Scheme 7 configurations tick cheaper ` +
    `(${s7.map((c) => ns(c.tickNs)).join(', ')}) and ${startLoses} of ${s7.length} start dearer (${s7.map((c) => ns(c.startNs)).join(', ')}).`
  )
}

/** Section 6.1.2: Scheme 6 does n/M work per tick; at the largest T, with few restarts, a tick should get cheaper as M grows. */
const scheme6FallsWithM = ({ r, six, largeT }: Grid): string => {
  const costs = six.map((v) => cellOf(r, v.label, largeT).tickNs)
  const slope = logLogSlope(six.map((v) => v.totalSlots), costs)
  // Each larger table may be at most 10% dearer: past n/M < 1 only noise and cache misses remain.
  const falling = costs.every((c, i) => i === 0 || c <= costs[i - 1]! * 1.1)
  return (
    `${verdict(falling, false)}: Scheme 6's tick costs n/M. At T = ${log2(largeT)} (n/T = ${(r.n / largeT).toFixed(2)} restarts ` +
    `per tick) its tick falls from ${ns(costs[0]!)} at M = ${log2(six[0]!.totalSlots)} to ${ns(costs.at(-1)!)} at ` +
    `M = ${log2(six.at(-1)!.totalSlots)}, cost ~ M^${slope.toFixed(2)} (n/M alone would give M^-1 until the fixed cost of a tick dominates).`
  )
}

/** Section 6.2: over its life a timer costs Scheme 6 c(6)·T/M, Scheme 7 at most c(7)·m, whatever T. */
const workPerTimer = ({ r, six, seven }: Grid): string => {
  const describe = (v: Variant, fitOver: readonly number[]): { slope: number | undefined; text: string } => {
    const work = r.meanIntervals.map((t) => perTimerWork(r, v.label, t))
    const fit = fitOver.filter((t) => perTimerWork(r, v.label, t) > 0)
    const slope = fit.length >= 2 ? logLogSlope(fit, fit.map((t) => perTimerWork(r, v.label, t))) : undefined
    const span = `${ns(work[0]!)} at T = ${log2(r.meanIntervals[0]!)} to ${ns(work.at(-1)!)} at T = ${log2(r.meanIntervals.at(-1)!)}`
    return { slope, text: `${v.label}: ${span}${slope === undefined ? '' : `, ~T^${slope.toFixed(2)}`}` }
  }
  // The T/M term shows once T is well past M; before that each timer is visited about once.
  const sixParts = six.map((v) => describe(v, r.meanIntervals.filter((t) => t >= 4 * v.totalSlots)))
  const sevenParts = seven.map((v) => describe(v, r.meanIntervals))
  // Nearer T^1 than T^0 for Scheme 6, nearer T^0 than T^1 for Scheme 7.
  const sixGrows = sixParts.filter((p) => p.slope !== undefined).every((p) => p.slope! >= 0.5)
  const sevenBounded = sevenParts.every((p) => p.slope !== undefined && p.slope < 0.5)
  return (
    `${verdict(sixGrows && sevenBounded, sixGrows || sevenBounded)}: over its life a timer costs Scheme 6 about T/M visits ` +
    `(work per timer ~T^1 once T is well past M) and Scheme 7 at most m moves (~T^0). Work per timer, (tick − idle tick) × T / n: ` +
    [...sixParts, ...sevenParts].map((p) => p.text).join('; ') +
    '. Scheme 6 exponents are fitted over T ≥ 4M only.'
  )
}

/** Section 6.2: the choice depends on T against M, so the T at which Scheme 7 starts winning should grow with M. */
const crossover = ({ r, six }: Grid): string => {
  const crossings = six.map((v) => ({
    v,
    t: r.meanIntervals.find((mean) => best7(r, mean).tickNs < cellOf(r, v.label, mean).tickNs),
  }))
  // A table that Scheme 7 never beats within the grid counts as crossing beyond it.
  const at = crossings.map((c) => c.t ?? Infinity)
  const grows = at.some(Number.isFinite) && at.every((t, i) => i === 0 || t >= at[i - 1]!)
  return (
    `${verdict(grows, false)}: the choice depends on T against M; the larger the table, the longer the timers must be before ` +
    `Scheme 7 wins. Scheme 7 first ticks cheaper at ` +
    crossings.map((c) => `${c.t === undefined ? `no T up to ${log2(r.meanIntervals.at(-1)!)}` : `T = ${log2(c.t)}`} against M = ${log2(c.v.totalSlots)}`).join(', ') +
    '.'
  )
}

/**
 * The paper's claims about Schemes 6 and 7 (sections 6.1.2 and 6.2), each checked on the
 * grid: one sentence each, starting "Confirmed", "Partly" or "Not confirmed".
 */
export const tradeOffFindings = (r: TradeOffResult): string[] => {
  const six = scheme6Of(r)
  const seven = scheme7Of(r)
  if (six.length === 0 || seven.length === 0) return []
  const grid: Grid = { r, six, seven, smallT: r.meanIntervals[0]!, largeT: r.meanIntervals.at(-1)! }
  return [smallTLargeM, largeTSmallM, scheme6FallsWithM, workPerTimer, crossover].map((claim) => claim(grid))
}
