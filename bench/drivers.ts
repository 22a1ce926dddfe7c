/**
 * The timed loops: each plays one workload on one implementation and returns the time it
 * took and a checksum of what fired.
 *
 * The runner imports a separate copy of this module for each implementation (see
 * `runner.ts`), so that every call site here sees one adapter class and the JIT can
 * inline it, as it would in a program that uses one library. Inside the timed regions
 * the harness only reads typed arrays and calls the adapter: everything it needs is made
 * before the clock starts, and a full GC runs just before, when `--expose-gc` allows.
 *
 * Checksum: the number of alarms fired and the sum, mod 2^32, of `mix(id, t)`, `t` the
 * `to` of the advance that fired the alarm (in the hold model, the event's time). The
 * sum does not depend on the order within one advance, which heaps do not keep for equal
 * times, but it changes if any alarm fires in another advance, twice, or not at all.
 */
import type { ClockImpl, QueueImpl, TimerQueue } from './adapter.js'
import {
  type AddRemove,
  type Churn,
  type Hold,
  type Memory,
  type Spread,
  type Timeouts,
  mix,
} from './workloads.js'

export interface Checksum {
  readonly fired: number
  readonly hash: number
}

export interface Run {
  /** The operations the time is divided by (see each driver). */
  readonly ops: number
  /** Nanoseconds in the timed region. */
  readonly ns: number
  /** The timed region in parts, in ns. */
  readonly phases: Readonly<Record<string, number>>
  readonly checksum: Checksum
  /** Alarms still outstanding at the end: 0 for every workload but memory. */
  readonly left: number
}

const nanos = (): number => Number(process.hrtime.bigint())

const gc = (globalThis as { gc?: () => void }).gc

/** A full collection, so that garbage from the setup (or an earlier run) is not collected on the clock. */
export const collect = (): void => {
  if (gc !== undefined) {
    gc()
    gc()
  }
}

export const canMeasureMemory = (): boolean => gc !== undefined

const noFire = (): void => {}

/**
 * Churn: `ops` = cancel-one-add-one operations. The timed region is the operations and
 * then the drain that fires every alarm, 1 ms at a time: a lazily deleting heap does the
 * work of a cancel when the corpse reaches the top, so leaving the drain out would time
 * only half of what a heap does per timer.
 */
export const churn = (impl: QueueImpl, w: Churn): Run => {
  let step = 0
  let hash = 0
  let fired = 0
  const q = impl.create({ ids: w.outstanding, adds: w.outstanding + w.ops }, (id) => {
    hash = (hash + mix(id, step)) >>> 0
    fired++
  })
  const times = w.times
  const victims = w.victims
  const n = w.outstanding
  const ops = w.ops
  for (let id = 0; id < n; id++) q.add(id, times[id]!)
  collect()
  const t0 = nanos()
  for (let j = 0; j < ops; j++) {
    const id = victims[j]!
    q.cancel(id)
    q.add(id, times[n + j]!)
  }
  const t1 = nanos()
  const end = w.maxDelay + 1
  for (let to = 1; to <= end; to++) {
    step = to
    q.advance(to)
  }
  const t2 = nanos()
  return { ops, ns: t2 - t0, phases: { ops: t1 - t0, drain: t2 - t1 }, checksum: { fired, hash }, left: q.size() }
}

/**
 * An add followed by a remove of the same alarm, `pairs` times, next to `outstanding`
 * alarms: the constant cost of a timer that is cancelled, in cache. `ops` = pairs. Only
 * meaningful for the wheel; a lazily deleting heap would grow by one corpse per pair.
 */
export const addRemove = (impl: QueueImpl, w: AddRemove): Run => {
  let step = 0
  let hash = 0
  let fired = 0
  const q = impl.create({ ids: w.outstanding + 1, adds: w.outstanding + w.pairs }, (id) => {
    hash = (hash + mix(id, step)) >>> 0
    fired++
  })
  const times = w.times
  const n = w.outstanding
  const mask = w.timesMask
  const pairs = w.pairs
  for (let id = 0; id < n; id++) q.add(id, times[id]!)
  collect()
  const t0 = nanos()
  for (let j = 0; j < pairs; j++) {
    q.add(n, times[n + (j & mask)]!)
    q.cancel(n)
  }
  const t1 = nanos()
  // Untimed: the alarms that stayed put still fire, once, at their times.
  for (let to = 1; q.size() > 0; to++) {
    step = to
    q.advance(to)
  }
  return { ops: pairs, ns: t1 - t0, phases: {}, checksum: { fired, hash }, left: q.size() }
}

/** Timeouts: `ops` = timers started; the timed region runs until the last one is done. */
export const timeouts = (impl: QueueImpl, w: Timeouts): Run => {
  let step = 0
  let hash = 0
  let fired = 0
  const q = impl.create({ ids: w.timers, adds: w.timers }, (id) => {
    hash = (hash + mix(id, step)) >>> 0
    fired++
  })
  const ats = w.ats
  const stopFirst = w.stopFirst
  const stopIds = w.stopIds
  const perMs = w.perMs
  const ms = w.ms
  const end = w.end
  let next = 0
  collect()
  const t0 = nanos()
  for (let m = 0; m <= end; m++) {
    step = m
    q.advance(m)
    for (let k = stopFirst[m]!, last = stopFirst[m + 1]!; k < last; k++) q.cancel(stopIds[k]!)
    if (m < ms) {
      for (let j = 0; j < perMs; j++, next++) q.add(next, ats[next]!)
    }
  }
  const t1 = nanos()
  return { ops: w.timers, ns: t1 - t0, phases: {}, checksum: { fired, hash }, left: q.size() }
}

/** Spread: `ops` = alarms, each added and fired; the clock moves `step` ms at a time. */
export const spread = (impl: QueueImpl, w: Spread): Run => {
  let step = 0
  let hash = 0
  let fired = 0
  const q = impl.create({ ids: w.alarms, adds: w.alarms }, (id) => {
    hash = (hash + mix(id, step)) >>> 0
    fired++
  })
  const times = w.times
  const alarms = w.alarms
  collect()
  const t0 = nanos()
  for (let id = 0; id < alarms; id++) q.add(id, times[id]!)
  const t1 = nanos()
  for (let to = w.step; ; to += w.step) {
    step = to
    q.advance(to)
    if (to >= w.span) break
  }
  const t2 = nanos()
  return { ops: alarms, ns: t2 - t0, phases: { add: t1 - t0, advance: t2 - t1 }, checksum: { fired, hash }, left: q.size() }
}

/**
 * Hold: `ops` = events fired. Each round asks for the next firing time and advances to
 * it, which fires the events of the ms before; each schedules its entity's next event. Rounds
 * go on until `fired` events have fired, so every implementation stops after the same ms.
 */
export const hold = (impl: QueueImpl, w: Hold): Run => {
  let step = 0
  let hash = 0
  let fired = 0
  const increments = w.increments
  const mask = w.mask
  const holder: { q: TimerQueue | undefined } = { q: undefined }
  const q = impl.create({ ids: w.pending, adds: 2 * w.pending + w.fired }, (id) => {
    // Every event fired in this round is at `step - 1`.
    const h = mix(id, step - 1)
    hash = (hash + h) >>> 0
    fired++
    holder.q!.add(id, step - 1 + increments[h & mask]!)
  })
  holder.q = q
  for (let id = 0; id < w.pending; id++) q.add(id, increments[mix(id, 0) & mask]!)
  const target = w.fired
  collect()
  const t0 = nanos()
  while (fired < target) {
    const to = q.nextFiresAt()
    if (to === Infinity) break
    step = to
    q.advance(to)
  }
  const t1 = nanos()
  return { ops: fired, ns: t1 - t0, phases: {}, checksum: { fired, hash }, left: q.size() - w.pending }
}

/**
 * The hold load on a fake clock: each event is a `setTimeout` whose callback sets the
 * next one; `clock.next()` fires one timer. `ops` = events fired. The hash, and so the
 * next increment, takes the clock's `now` inside the callback, which must be the event's time.
 */
export const clockHold = (impl: ClockImpl, w: Hold): Run => {
  let hash = 0
  let fired = 0
  const increments = w.increments
  const mask = w.mask
  const clock = impl.create()
  const fire = (id: number): void => {
    const h = mix(id, clock.now)
    hash = (hash + h) >>> 0
    fired++
    clock.setTimeout(fire, increments[h & mask]!, id)
  }
  for (let id = 0; id < w.pending; id++) clock.setTimeout(fire, increments[mix(id, 0) & mask]!, id)
  const target = w.fired
  collect()
  const t0 = nanos()
  for (let i = 0; i < target; i++) clock.next()
  const t1 = nanos()
  return { ops: fired, ns: t1 - t0, phases: {}, checksum: { fired, hash }, left: clock.countTimers() - w.pending }
}

/**
 * The idle load: `timers` timeouts spread over the second `ahead` ms from now, then
 * `ticks` calls of `tick(1)`, none of which fires anything, timed; ns per tick. A clock
 * that looks at every timer on every tick (fake-timers 15.0) pays for all of them each
 * time; one that finds the next due time directly pays for nothing.
 */
export const clockIdle = (impl: ClockImpl, w: { readonly timers: number; readonly ticks: number; readonly ahead: number }): Run => {
  let fired = 0
  const clock = impl.create()
  const fire = (): void => {
    fired++
  }
  for (let i = 0; i < w.timers; i++) clock.setTimeout(fire, w.ahead + (i % 1000))
  collect()
  const t0 = nanos()
  for (let i = 0; i < w.ticks; i++) clock.tick!(1)
  const t1 = nanos()
  return { ops: w.ticks, ns: t1 - t0, phases: {}, checksum: { fired, hash: clock.now >>> 0 }, left: clock.countTimers() - w.timers }
}

const usedBytes = (): number => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

/**
 * Bytes per outstanding alarm: the growth of `heapUsed + arrayBuffers`, after full
 * collections, from an empty structure to one holding `alarms` alarms. The adapter's own
 * bookkeeping (handles, tokens) is made by its constructor, before the first reading, so
 * only the structure is counted. Undefined without `--expose-gc`.
 */
export const memory = (impl: QueueImpl, w: Memory): number | undefined => {
  if (!canMeasureMemory()) return undefined
  const q = impl.create({ ids: w.alarms, adds: w.alarms }, noFire)
  const times = w.times
  collect()
  const before = usedBytes()
  for (let id = 0; id < w.alarms; id++) q.add(id, times[id]!)
  collect()
  const after = usedBytes()
  if (q.size() !== w.alarms) throw new Error(`${impl.name} holds ${q.size()} alarms, not ${w.alarms}`)
  return (after - before) / w.alarms
}

/** Bytes per pending `setTimeout(callback, delay)` of a fake clock, measured as `memory` does. */
export const clockMemory = (impl: ClockImpl, w: Memory): number | undefined => {
  if (!canMeasureMemory()) return undefined
  const clock = impl.create()
  const times = w.times
  collect()
  const before = usedBytes()
  for (let i = 0; i < w.alarms; i++) clock.setTimeout(noFire, times[i]!)
  collect()
  const after = usedBytes()
  if (clock.countTimers() !== w.alarms) throw new Error(`${impl.name} holds ${clock.countTimers()} timers, not ${w.alarms}`)
  return (after - before) / w.alarms
}
