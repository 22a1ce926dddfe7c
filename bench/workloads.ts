/**
 * The workloads, generated from a seed into typed arrays before any clock starts, so that
 * every implementation plays the same alarms and the timed loops only read numbers.
 *
 * Time is in milliseconds, alarm times are whole milliseconds and the wheel's precision
 * is 1 ms, so "fires every alarm with `at < to`" means the same thing for the wheel (whose
 * intervals then start at whole numbers) and for a heap popping while `min < to`.
 */
import type { GameLoad } from './adapter.js'
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
  readonly hold: HoldSize
  /** The hold model on the fake clocks, whose events cost more. */
  readonly clockHold: HoldSize
  /** A discrete-event simulation on the clocks: the hold model, a million events at full size. */
  readonly simulation: HoldSize
  /** `timers` timeouts `ahead + U[0, span)` ms away, then at least `ticks` calls of `tick(1)` that fire nothing. */
  readonly idle: { readonly timers: number; readonly ahead: number; readonly span: number; readonly ticks: number }
  /** `timers` timeouts U[1, span] ms away, then one `runToLast`. */
  readonly runToLast: { readonly timers: number; readonly span: number }
  /** A 60 Hz game loop with each count of timers waiting, at least `frames` frames. */
  readonly game: { readonly pending: readonly number[]; readonly frames: number }
  /** Outstanding alarms whose memory is measured (and, for the timing wheel alone, a larger count). */
  readonly memory: { readonly alarms: number; readonly largeAlarms?: number }
  /** Timed rounds; the median is reported. */
  readonly repeats: number
  /**
   * The CPU time, in ms, each timed region takes at least: a shorter play is played again
   * (its setup untimed), and the loads played in steps (idle ticks, game frames) take
   * more steps. Those take fewer steps (never none) from `maxMs` on, where an
   * implementation that scans every timer would take minutes.
   */
  readonly minMs: number
  readonly maxMs: number
}

export interface HoldSize {
  readonly pending: number
  readonly fired: number
  readonly meanIncrement: number
}

/**
 * The sizes the issue asks for. The hold model's mean increment equals the number of
 * pending events in ms, so events arrive about one per 1 ms interval: the wheel cannot
 * amortize its search for the next event over many alarms per interval, and a heap pops
 * them one by one, as in a continuous-time simulation. runToLast has 10k timers because
 * fake-timers 15.0 takes time quadratic in their number (about 15 s at 10k).
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
  clockHold: { pending: 100_000, fired: 300_000, meanIncrement: 100_000 },
  simulation: { pending: 10_000, fired: 1_000_000, meanIncrement: 10_000 },
  idle: { timers: 100_000, ahead: 3_600_000, span: 3_600_000, ticks: 2_000 },
  runToLast: { timers: 10_000, span: 3_600_000 },
  game: { pending: [10_000, 100_000, 1_000_000], frames: 600 },
  memory: { alarms: 1_000_000, largeAlarms: 5_000_000 },
  repeats: 5,
  minMs: 300,
  maxMs: 2_000,
}

/** `npm run bench -- --quick`: the same shapes a tenth (or less) of the size, one timed round. */
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
  clockHold: { pending: 10_000, fired: 30_000, meanIncrement: 10_000 },
  simulation: { pending: 1_000, fired: 100_000, meanIncrement: 1_000 },
  idle: { timers: 10_000, ahead: 3_600_000, span: 3_600_000, ticks: 200 },
  runToLast: { timers: 2_000, span: 3_600_000 },
  game: { pending: [10_000, 100_000], frames: 60 },
  memory: { alarms: 100_000 },
  repeats: 1,
  minMs: 20,
  maxMs: 200,
}

/** For the tests and for warming up before `quick`: runs in milliseconds. */
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
  clockHold: { pending: 200, fired: 2_000, meanIncrement: 200 },
  simulation: { pending: 100, fired: 2_000, meanIncrement: 100 },
  idle: { timers: 200, ahead: 60_000, span: 60_000, ticks: 50 },
  runToLast: { timers: 200, span: 60_000 },
  game: { pending: [200], frames: 10 },
  memory: { alarms: 1_000 },
  repeats: 1,
  minMs: 1,
  maxMs: 20,
}

// Each workload draws from its own stream, so adding one never changes another.
const stream = (seed: number, salt: number): Random.Random => Random.create(Math.imul(seed ^ salt, 0x9e3779b1))

/** `count` whole numbers U[low, high], from the stream of `salt`. */
const uniformInts = (count: number, low: number, high: number, seed: number, salt: number): Float64Array => {
  const r = stream(seed, salt)
  const xs = new Float64Array(count)
  for (let i = 0; i < count; i++) xs[i] = Random.intBetween(r, low, high)
  return xs
}

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
 * `outstanding` is added at `times[outstanding + (j & timesMask)]` and removed, `pairs`
 * times. Every time is U[1, maxDelay], so the pair lands among the others, as a timer
 * set and cancelled mostly does.
 */
export interface AddRemove {
  readonly kind: 'addRemove'
  readonly outstanding: number
  readonly pairs: number
  readonly times: Float64Array
  readonly timesMask: number
}

export const addRemove = (size: Sizes['addRemove'], maxDelay: number, seed: number): AddRemove => {
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
  const times = uniformInts(size.alarms, 0, size.span - 1, seed, 0x5b7ead)
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

export const hold = (size: HoldSize, seed: number): Hold => {
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
  const times = uniformInts(size.alarms, 1, 3_600_000, seed, 0x3e3)
  return { kind: 'memory', alarms: size.alarms, times }
}

// The clock loads.

/** Timer `i` of a fake clock is set `delays[i]` ms from 0, all before the timed region. */
export interface ClockTimers {
  readonly timers: number
  readonly delays: Float64Array
}

/** The idle load: every timer waits `ahead + U[0, span)` ms; the clock ticks 1 ms at a time, at least `ticks` times. */
export interface Idle extends ClockTimers {
  readonly kind: 'idle'
  readonly ahead: number
  readonly ticks: number
}

export const idle = (size: Sizes['idle'], seed: number): Idle => {
  const delays = uniformInts(size.timers, size.ahead, size.ahead + size.span - 1, seed, 0x1d1e)
  return { kind: 'idle', timers: size.timers, ahead: size.ahead, ticks: size.ticks, delays }
}

/** The runToLast load: every timer U[1, span] ms away, then one `runToLast` fires them all. */
export interface RunToLast extends ClockTimers {
  readonly kind: 'runToLast'
}

export const runToLast = (size: Sizes['runToLast'], seed: number): RunToLast => {
  const delays = uniformInts(size.timers, 1, size.span, seed, 0x7a57)
  return { kind: 'runToLast', timers: size.timers, delays }
}

// The game loop.

/**
 * 60 Hz frames; `pending` timers wait `ahead` to twice that and never come due in the run;
 * 120 busy timers fire every 2 s, offset by half a frame from each other and from the
 * frame boundaries, so every library's arithmetic agrees on the frame: one fires a frame.
 */
export interface Game extends GameLoad {
  readonly kind: 'game'
  readonly pending: number
  readonly ahead: number
  readonly frames: number
}

export const game = (pending: number, frames: number, seed: number): Game => {
  const ahead = 3_600_000
  const far = uniformInts(pending, ahead, 2 * ahead - 1, seed, 0x6a3e)
  return { kind: 'game', pending, ahead, frames, far, busy: 120, period: 2_000, frameMs: 1000 / 60 }
}

/** What `frames` frames of the game load fire: the count of busy firings and the sum of their due times. */
export const gameFirings = (w: GameLoad, frames: number): { readonly fired: number; readonly hash: number } => {
  let fired = 0
  let sum = 0
  const end = frames * w.frameMs
  for (let i = 0; i < w.busy; i++) {
    for (let due = ((i + 0.5) * w.period) / w.busy; due <= end; due += w.period) {
      fired++
      sum += due
    }
  }
  return { fired, hash: Math.round(sum) }
}
