/**
 * The workloads, generated from a seed into typed arrays before any clock starts, so that
 * every implementation plays the same alarms and the timed loops only read numbers.
 *
 * Time is in milliseconds, alarm times are whole milliseconds and the wheel's precision
 * is 1 ms, so "fires every alarm with `at < to`" means the same thing for the wheel (whose
 * intervals then start at whole numbers) and for a heap popping while `min < to`.
 */
import * as Random from './random.js'

/** How big each workload is. */
export interface Sizes {
  /** Outstanding alarms and cancel-one-add-one operations; delays U[1, maxDelay] ms. */
  readonly churn: ReadonlyArray<{ readonly outstanding: number; readonly ops: number }>
  readonly churnMaxDelay: number
  /** One add followed by one remove, repeated, next to a few outstanding alarms. */
  readonly addRemove: { readonly outstanding: number; readonly pairs: number }
  /** Every ms for `ms` ms, `perMs` timers start with delays U[1, maxDelay]; a fraction is stopped. */
  readonly timeouts: { readonly ms: number; readonly perMs: number; readonly maxDelay: number; readonly stoppedFraction: number }
  /** `alarms` alarms U[0, span) ms, then the clock advances in `step` ms steps. */
  readonly spread: { readonly alarms: number; readonly span: number; readonly step: number }
  /** The hold model: `pending` events, `fired` events fired, increments Exp(meanIncrement) ms. */
  readonly hold: { readonly pending: number; readonly fired: number; readonly meanIncrement: number }
  /** A fake clock holding `timers` timeouts `ahead` ms away, then `ticks` calls of `tick(1)` that fire nothing. */
  readonly idle: { readonly timers: number; readonly ticks: number; readonly ahead: number }
  /** Outstanding alarms whose memory is measured (and, for the timing wheel alone, a larger count). */
  readonly memory: { readonly alarms: number; readonly largeAlarms?: number }
  /** Timed runs of each implementation; the median is reported. */
  readonly repeats: number
}

/**
 * The sizes the issue asks for. The hold model's mean increment equals the number of
 * pending events in ms, so events arrive about one per 1 ms interval: the wheel cannot
 * amortize its search for the next event over many alarms per interval, and a heap pops
 * them one by one, as in a continuous-time simulation.
 */
export const full: Sizes = {
  churn: [
    { outstanding: 100_000, ops: 1_000_000 },
    { outstanding: 1_000_000, ops: 1_000_000 },
  ],
  churnMaxDelay: 60_000,
  addRemove: { outstanding: 1_000, pairs: 10_000_000 },
  timeouts: { ms: 60_000, perMs: 50, maxDelay: 10_000, stoppedFraction: 0.9 },
  spread: { alarms: 1_000_000, span: 3_600_000, step: 1_000 },
  hold: { pending: 100_000, fired: 1_000_000, meanIncrement: 100_000 },
  idle: { timers: 50_000, ticks: 500, ahead: 3_600_000 },
  memory: { alarms: 1_000_000, largeAlarms: 5_000_000 },
  repeats: 5,
}

/** `npm run bench -- --quick`: the same shapes a tenth (or less) of the size, one timed run. */
export const quick: Sizes = {
  churn: [
    { outstanding: 10_000, ops: 100_000 },
    { outstanding: 100_000, ops: 100_000 },
  ],
  churnMaxDelay: 60_000,
  addRemove: { outstanding: 1_000, pairs: 1_000_000 },
  timeouts: { ms: 5_000, perMs: 50, maxDelay: 10_000, stoppedFraction: 0.9 },
  spread: { alarms: 100_000, span: 3_600_000, step: 1_000 },
  hold: { pending: 10_000, fired: 100_000, meanIncrement: 10_000 },
  idle: { timers: 5_000, ticks: 500, ahead: 3_600_000 },
  memory: { alarms: 100_000 },
  repeats: 1,
}

/** For the test and for warming up before `quick`: runs in milliseconds. */
export const tiny: Sizes = {
  churn: [
    { outstanding: 200, ops: 2_000 },
    { outstanding: 1_000, ops: 1_000 },
  ],
  churnMaxDelay: 5_000,
  addRemove: { outstanding: 10, pairs: 1_000 },
  timeouts: { ms: 300, perMs: 5, maxDelay: 1_000, stoppedFraction: 0.9 },
  spread: { alarms: 2_000, span: 60_000, step: 1_000 },
  hold: { pending: 200, fired: 2_000, meanIncrement: 200 },
  idle: { timers: 200, ticks: 50, ahead: 60_000 },
  memory: { alarms: 1_000 },
  repeats: 1,
}

// Each workload draws from its own stream, so adding one never changes another.
const stream = (seed: number, salt: number): Random.Random => Random.create(Math.imul(seed ^ salt, 0x9e3779b1))

/** A count in words the table can show: 100k, 1M. */
export const showCount = (n: number): string =>
  n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n)

// Churn.

/**
 * Alarm `i < outstanding` starts at `times[i]`; operation `j` cancels the alarm of id
 * `victims[j]` and adds one with the same id at `times[outstanding + j]`. The clock stays
 * at 0 during the operations; afterwards it advances 1 ms at a time past `maxDelay`, so
 * every alarm fires and a heap pops every entry it was given, cancelled or not.
 */
export interface Churn {
  readonly kind: 'churn'
  readonly outstanding: number
  readonly ops: number
  readonly maxDelay: number
  readonly times: Float64Array
  readonly victims: Int32Array
}

export const churn = (size: { outstanding: number; ops: number }, maxDelay: number, seed: number): Churn => {
  const r = stream(seed, 0x1c4a2e)
  const times = new Float64Array(size.outstanding + size.ops)
  for (let i = 0; i < times.length; i++) times[i] = Random.intBetween(r, 1, maxDelay)
  const victims = new Int32Array(size.ops)
  for (let j = 0; j < size.ops; j++) victims[j] = Random.intBetween(r, 0, size.outstanding - 1)
  return { kind: 'churn', outstanding: size.outstanding, ops: size.ops, maxDelay, times, victims }
}

// Add then remove, in cache.

/**
 * `outstanding` alarms stay put (ids `0 .. outstanding - 1` at `times[id]`); then alarm id
 * `outstanding` is added at `times[outstanding + (j & timesMask)]` and removed, `pairs` times.
 */
export interface AddRemove {
  readonly kind: 'addRemove'
  readonly outstanding: number
  readonly pairs: number
  readonly times: Float64Array
  readonly timesMask: number
}

export const addRemove = (size: { outstanding: number; pairs: number }, maxDelay: number, seed: number): AddRemove => {
  const r = stream(seed, 0xadd5e7)
  const timesMask = 1023
  const times = new Float64Array(size.outstanding + timesMask + 1)
  for (let i = 0; i < times.length; i++) times[i] = Random.intBetween(r, 1, maxDelay)
  return { kind: 'addRemove', outstanding: size.outstanding, pairs: size.pairs, times, timesMask }
}

// Timeouts.

/**
 * Varghese & Lauck's retransmission load. In ms `m` (from 0 to `ms - 1`) timers
 * `m * perMs .. (m + 1) * perMs - 1` start, timer `i` due at `ats[i]` (its delay
 * U[1, maxDelay] after `m`). A fraction of them is stopped before it expires, at a
 * whole ms U[m + 1, at]: the ids stopped in ms `u` are `stopIds[stopFirst[u] ..
 * stopFirst[u + 1] - 1]`. Each ms the clock first advances to `u`, then the stops of `u`
 * run, then the starts. The run goes on to `end`, when every timer has fired or stopped.
 */
export interface Timeouts {
  readonly kind: 'timeouts'
  readonly ms: number
  readonly perMs: number
  readonly timers: number
  readonly stopped: number
  readonly end: number
  readonly ats: Float64Array
  readonly stopFirst: Int32Array
  readonly stopIds: Int32Array
}

export const timeouts = (size: Sizes['timeouts'], seed: number): Timeouts => {
  const r = stream(seed, 0x7103e5)
  const timers = size.ms * size.perMs
  const end = size.ms + size.maxDelay + 1
  const ats = new Float64Array(timers)
  const stopAt = new Int32Array(timers).fill(-1)
  const perStopMs = new Int32Array(end + 1)
  let stopped = 0
  for (let i = 0; i < timers; i++) {
    const started = Math.floor(i / size.perMs)
    const delay = Random.intBetween(r, 1, size.maxDelay)
    ats[i] = started + delay
    if (Random.uniform(r) < size.stoppedFraction) {
      const u = Random.intBetween(r, started + 1, started + delay)
      stopAt[i] = u
      perStopMs[u]!++
      stopped++
    }
  }
  const stopFirst = new Int32Array(end + 2)
  for (let u = 0; u <= end; u++) stopFirst[u + 1] = stopFirst[u]! + perStopMs[u]!
  const fill = stopFirst.slice(0, end + 1)
  const stopIds = new Int32Array(stopped)
  for (let i = 0; i < timers; i++) {
    const u = stopAt[i]!
    if (u >= 0) stopIds[fill[u]!++] = i
  }
  return { kind: 'timeouts', ms: size.ms, perMs: size.perMs, timers, stopped, end, ats, stopFirst, stopIds }
}

// Spread.

/** Alarm `i` at `times[i]` in `[0, span)`; then advances to `step, 2 step, ...` up to `span`. */
export interface Spread {
  readonly kind: 'spread'
  readonly alarms: number
  readonly span: number
  readonly step: number
  readonly times: Float64Array
}

export const spread = (size: Sizes['spread'], seed: number): Spread => {
  const r = stream(seed, 0x5b7ead)
  const times = new Float64Array(size.alarms)
  for (let i = 0; i < size.alarms; i++) times[i] = Random.intBetween(r, 0, size.span - 1)
  return { kind: 'spread', alarms: size.alarms, span: size.span, step: size.step, times }
}

// Hold.

/**
 * The hold model: `pending` entities, each with one pending event; when the event of
 * entity `s` at time `t` fires, it schedules the entity's next one at
 * `t + increments[mix(s, t) & mask]` (whole ms >= 1 drawn from Exp(meanIncrement)); the
 * first one is at `increments[mix(s, 0) & mask]`. An increment chosen by entity and time,
 * not by firing order, makes the events the same whatever order an implementation fires
 * simultaneous ones in; and the table is small enough to stay in cache, so that the
 * harness's own memory traffic does not weigh on the figures.
 */
export interface Hold {
  readonly kind: 'hold'
  readonly pending: number
  readonly fired: number
  readonly meanIncrement: number
  readonly increments: Int32Array
  readonly mask: number
}

export const hold = (size: Sizes['hold'], seed: number): Hold => {
  const r = stream(seed, 0x401d)
  const length = 2 ** 14
  const increments = new Int32Array(length)
  for (let i = 0; i < length; i++) increments[i] = Math.max(1, Math.ceil(Random.exponential(r, size.meanIncrement)))
  return { kind: 'hold', pending: size.pending, fired: size.fired, meanIncrement: size.meanIncrement, increments, mask: length - 1 }
}

/**
 * A 32-bit hash of an alarm id and a time (a whole number below 2^31): the checksums
 * add it up for each alarm fired, and the hold model draws increments with it.
 */
export const mix = (id: number, time: number): number => {
  let x = Math.imul(id, 0x9e3779b1) ^ Math.imul(time | 0, 0x85ebca6b)
  x ^= x >>> 16
  x = Math.imul(x, 0x7feb352d)
  x ^= x >>> 15
  x = Math.imul(x, 0x846ca68b)
  x ^= x >>> 16
  return x >>> 0
}

// Memory.

/** Alarm `i` at `times[i]`, U[1, 1 hour] ms, all outstanding when memory is measured. */
export interface Memory {
  readonly kind: 'memory'
  readonly alarms: number
  readonly times: Float64Array
}

export const memory = (size: Sizes['memory'], seed: number): Memory => {
  const r = stream(seed, 0x3e3)
  const times = new Float64Array(size.alarms)
  for (let i = 0; i < size.alarms; i++) times[i] = Random.intBetween(r, 1, 3_600_000)
  return { kind: 'memory', alarms: size.alarms, times }
}
