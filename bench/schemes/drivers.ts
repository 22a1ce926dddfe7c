/**
 * The timed loops. Each one plays pre-generated typed arrays on one timer module and
 * returns nanoseconds spent inside the timed regions, nothing else.
 *
 * The harness imports a separate copy of this module for each scheme (`measure.ts`), so
 * that each call site here sees one scheme and the JIT can inline it, as it would in a
 * program that uses one timer scheme. Loops are timed in segments, with
 * `process.hrtime.bigint()` around each and the cost of an empty segment subtracted:
 * segments let the untimed work that keeps `n` steady (stopping what a START segment
 * started, restarting what a STOP segment stopped) stay off the clock.
 */
import type { TimerModule } from './scheme.js'

const nanos = (): number => Number(process.hrtime.bigint())

/**
 * The mean cost of an empty timed segment: two clock reads. The mean, not the median,
 * because the timed segments are summed and the clock's cost has a long tail (the BigInt
 * it allocates is sometimes collected). Call it warm: the first calls run interpreted
 * and cost twice as much.
 */
export const segmentOverhead = (samples = 20_000): number => {
  let total = 0
  for (let round = 0; round < 2; round++) {
    total = 0
    for (let i = 0; i < samples; i++) {
      const t0 = nanos()
      total += nanos() - t0
    }
  }
  return total / samples
}

/**
 * What fired: a count, and a hash of (id, tick) pairs that does not depend on the order
 * within a tick, so that schemes that fire a tick's timers in different orders agree.
 */
export class Tally {
  now = 0
  fired = 0
  hash = 0
  readonly onExpiry = (id: number): void => {
    this.fired++
    this.hash = (this.hash + Math.imul(id + 1, 0x9e3779b1) + Math.imul(this.now, 0x85ebca6b)) | 0
  }
}

/** Starts timer `order[i]` with `intervals[order[i]]` for every i: the untimed setup. */
export const fill = (m: TimerModule, intervals: Int32Array, order: Int32Array): void => {
  for (let i = 0; i < order.length; i++) {
    const id = order[i]!
    m.startTimer(intervals[id]!, id)
  }
}

/**
 * Times `ops` START_TIMERs, `segment` at a time, on ids `spare, spare + 1, ...`; after each
 * segment, stops them again off the clock, so the module holds its `n` timers throughout.
 */
export const timeStarts = (
  m: TimerModule,
  intervals: Int32Array,
  ops: number,
  segment: number,
  spare: number,
  overhead: number,
): number => {
  let ns = 0
  for (let done = 0; done < ops; done += segment) {
    const count = Math.min(segment, ops - done)
    const t0 = nanos()
    for (let j = 0; j < count; j++) m.startTimer(intervals[done + j]!, spare + j)
    ns += nanos() - t0 - overhead
    for (let j = 0; j < count; j++) m.stopTimer(spare + j)
  }
  return ns
}

/**
 * Times `ops` STOP_TIMERs of outstanding timers `ids[i]` (distinct within a segment), then
 * restarts each off the clock with `restartIntervals[i]`.
 */
export const timeStops = (
  m: TimerModule,
  ids: Int32Array,
  restartIntervals: Int32Array,
  ops: number,
  segment: number,
  overhead: number,
): number => {
  let ns = 0
  for (let done = 0; done < ops; done += segment) {
    const count = Math.min(segment, ops - done)
    const t0 = nanos()
    for (let j = 0; j < count; j++) m.stopTimer(ids[done + j]!)
    ns += nanos() - t0 - overhead
    for (let j = 0; j < count; j++) m.startTimer(restartIntervals[done + j]!, ids[done + j]!)
  }
  return ns
}

/** Times `ops` PER_TICK_BOOKKEEPINGs; `tally` must be the module's `onExpiry`. */
export const timeTicks = (m: TimerModule, tally: Tally, ops: number, segment: number, overhead: number): number => {
  let ns = 0
  for (let done = 0; done < ops; done += segment) {
    const count = Math.min(segment, ops - done)
    const t0 = nanos()
    for (let j = 0; j < count; j++) {
      tally.now++
      m.perTickBookkeeping()
    }
    ns += nanos() - t0 - overhead
  }
  return ns
}

/**
 * A steady state: every timer that expires is started again at once, with the next
 * interval of a ring of pre-generated ones, so `n` stays fixed and `n / T` timers start
 * per tick (Little's law). `onExpiry` of the module must be `expired.onExpiry`.
 */
export class Restarts {
  readonly buffer: Int32Array
  length = 0
  next = 0
  readonly onExpiry = (id: number): void => {
    this.buffer[this.length++] = id
  }

  constructor(capacity: number, readonly intervals: Int32Array) {
    this.buffer = new Int32Array(capacity)
  }
}

/**
 * Times `ticks` PER_TICK_BOOKKEEPINGs in the steady state, each with its expiries and the
 * restarts they cause: the whole cost per unit time of the timer module, the quantity the
 * paper compares between Schemes 6 and 7. `ring.intervals.length` is a power of two.
 */
export const timeSteadyTicks = (m: TimerModule, ring: Restarts, ticks: number, segment: number, overhead: number): number => {
  const intervals = ring.intervals
  const mask = intervals.length - 1
  let ns = 0
  for (let done = 0; done < ticks; done += segment) {
    const count = Math.min(segment, ticks - done)
    const t0 = nanos()
    for (let j = 0; j < count; j++) {
      ring.length = 0
      m.perTickBookkeeping()
      const buffer = ring.buffer
      for (let i = 0; i < ring.length; i++) {
        m.startTimer(intervals[ring.next]!, buffer[i]!)
        ring.next = (ring.next + 1) & mask
      }
    }
    ns += nanos() - t0 - overhead
  }
  return ns
}
