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
 * The clock is the main thread's CPU time, where Linux reports it: the machines are
 * shared, and wall time would count whatever else ran. It leaves out V8's helper threads
 * (concurrent marking, compilation), not the pauses they stop the main thread for. The
 * kernel adds to it at scheduler ticks, about every 4 ms, so the timed regions last
 * hundreds of ms at full size. The file is read synchronously, so on this thread.
 *
 * Checksum: the number of alarms fired and the sum, mod 2^32, of `mix(id, t)`, `t` the
 * `to` of the advance that fired the alarm (in the hold model, the event's time; on a
 * fake clock, its `now`). The sum does not depend on the order within one advance, which
 * heaps do not keep for equal times, but it changes if any alarm fires in another
 * advance, twice, or not at all.
 */
import { readFileSync } from 'node:fs'
import type { Clock, ClockImpl, GameImpl, QueueImpl, TimerQueue } from './adapter.js'
import {
  type AddRemove,
  type Churn,
  type Game,
  type Hold,
  type Idle,
  type Memory,
  type RunToLast,
  type Spread,
  type Timeouts,
  gameFirings,
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
  readonly checksum: Checksum
  /**
   * What a correct implementation fires, where the length of the play depends on the
   * implementation (the game's frames). Elsewhere the first implementation's checksum is
   * the reference.
   */
  readonly expected?: Checksum
  /** Alarms still outstanding at the end: 0 for every workload but memory. */
  readonly left: number
}

const schedstat = '/proc/thread-self/schedstat'

const threadCpuNanos = (): number => Number(readFileSync(schedstat, 'latin1').split(' ', 1)[0])

const hasSchedstat = ((): boolean => {
  try {
    return threadCpuNanos() > 0
  } catch {
    return false
  }
})()

/** What the timed regions are timed with, as the report says it. */
export const clockName = hasSchedstat
  ? 'CPU time of the main thread (/proc/thread-self/schedstat)'
  : 'wall time (process.hrtime.bigint; there is no /proc/thread-self/schedstat here)'

/** The time a timed region is measured with, in ns. */
export const nanos: () => number = hasSchedstat ? threadCpuNanos : () => Number(process.hrtime.bigint())

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

/** Counts the alarms fired and adds up `mix(id, at)`, `at` the time the driver is advancing to. */
class Tally {
  fired = 0
  hash = 0
  at = 0
  readonly fire = (id: number): void => {
    this.hash = (this.hash + mix(id, this.at)) >>> 0
    this.fired++
  }

  checksum(): Checksum {
    return { fired: this.fired, hash: this.hash }
  }
}

/** How long a load played in steps runs, in ms of CPU time (see `Sizes.minMs`). */
export interface Bounds {
  readonly minMs: number
  readonly maxMs: number
}

/**
 * Calls `step` in batches that double (but do not overrun `maxMs` at the rate so far)
 * until it has run `steps` times and `minMs` have passed, or `maxMs` have, or it has run
 * `most` times; returns how many times it ran and the time that took.
 */
const timedSteps = (step: () => unknown, steps: number, most: number, bounds: Bounds): { steps: number; ns: number } => {
  const [minNs, maxNs] = [bounds.minMs * 1e6, bounds.maxMs * 1e6]
  const t0 = nanos()
  let done = 0
  for (let batch = 1; ; ) {
    const end = Math.min(done + batch, most)
    for (; done < end; done++) step()
    const ns = nanos() - t0
    if (done === most || ns >= maxNs || (done >= steps && ns >= minNs)) return { steps: done, ns }
    batch = ns === 0 ? 2 * batch : Math.max(1, Math.min(2 * batch, Math.floor(((maxNs - ns) * done) / ns)))
  }
}

/**
 * Churn: `ops` = cancel-one-add-one operations. The timed region is the operations and
 * then the drain that fires every alarm, 1 ms at a time: a lazily deleting heap does the
 * work of a cancel when the corpse reaches the top, so leaving the drain out would time
 * only half of what a heap does per timer.
 */
export const churn = (impl: QueueImpl, w: Churn): Run => {
  const tally = new Tally()
  const q = impl.create({ ids: w.outstanding, adds: w.outstanding + w.ops }, tally.fire)
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
  const end = w.maxDelay + 1
  for (let to = 1; to <= end; to++) {
    tally.at = to
    q.advance(to)
  }
  const ns = nanos() - t0
  return { ops, ns, checksum: tally.checksum(), left: q.size() }
}

/**
 * An add followed by a remove of the same alarm, `pairs` times, next to `outstanding`
 * alarms: the constant cost of a timer that is cancelled, in cache. `ops` = pairs. A heap
 * pushes and pops its least (see `adapters/flatqueue.ts`), so which entries are left for
 * the untimed drain differs: only how many fire is compared.
 */
export const addRemove = (impl: QueueImpl, w: AddRemove): Run => {
  const tally = new Tally()
  const q = impl.create({ ids: w.outstanding + 1, adds: w.outstanding + w.pairs }, tally.fire)
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
  const ns = nanos() - t0
  // Untimed: the alarms that stayed put still fire, once.
  for (let to = 1; q.size() > 0; to++) {
    tally.at = to
    q.advance(to)
  }
  return { ops: pairs, ns, checksum: { fired: tally.fired, hash: 0 }, left: q.size() }
}

/** Timeouts: `ops` = timers started; the timed region runs until the last one is done. */
export const timeouts = (impl: QueueImpl, w: Timeouts): Run => {
  const tally = new Tally()
  const q = impl.create({ ids: w.timers, adds: w.timers }, tally.fire)
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
    tally.at = m
    q.advance(m)
    for (let k = stopFirst[m]!, last = stopFirst[m + 1]!; k < last; k++) q.cancel(stopIds[k]!)
    if (m < ms) {
      for (let j = 0; j < perMs; j++, next++) q.add(next, ats[next]!)
    }
  }
  const ns = nanos() - t0
  return { ops: w.timers, ns, checksum: tally.checksum(), left: q.size() }
}

/** Spread: `ops` = alarms, each added and fired; the clock moves `step` ms at a time. */
export const spread = (impl: QueueImpl, w: Spread): Run => {
  const tally = new Tally()
  const q = impl.create({ ids: w.alarms, adds: w.alarms }, tally.fire)
  const times = w.times
  const alarms = w.alarms
  collect()
  const t0 = nanos()
  for (let id = 0; id < alarms; id++) q.add(id, times[id]!)
  for (let to = w.step; ; to += w.step) {
    tally.at = to
    q.advance(to)
    if (to >= w.span) break
  }
  const ns = nanos() - t0
  return { ops: alarms, ns, checksum: tally.checksum(), left: q.size() }
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
  const ns = nanos() - t0
  return { ops: fired, ns, checksum: { fired, hash }, left: q.size() - w.pending }
}

/**
 * The hold load on a fake clock: each event is a `setTimeout` whose callback sets the
 * next one; `clock.next()` fires one timer (the core as a clock, every timer of the next
 * millisecond), until `fired` have fired, then `tick(0)` fires the rest of that
 * millisecond. `ops` = events fired. The hash, and so the next increment, takes the
 * clock's `now` inside the callback, which must be the event's time.
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
  while (fired < target) clock.next()
  // The rest of the last millisecond, which the core fires with it.
  clock.tick(0)
  const ns = nanos() - t0
  return { ops: fired, ns, checksum: { fired, hash }, left: clock.countTimers() - w.pending }
}

/**
 * The idle load: `ops` = calls of `tick(1)`, none of which fires anything, with every
 * timer an hour or more ahead. A clock that looks at every timer on every tick
 * (fake-timers 15.0 and 15.5) pays for all of them each time, and takes fewer ticks
 * within `bounds`; one that finds the next due time directly pays for none of them.
 */
export const clockIdle = (impl: ClockImpl, w: Idle, bounds: Bounds): Run => {
  let fired = 0
  const clock = impl.create()
  const fire = (): void => {
    fired++
  }
  for (let i = 0; i < w.timers; i++) clock.setTimeout(fire, w.delays[i]!)
  collect()
  // Never as far as the first timer: the load is a clock with nothing to do.
  const { steps, ns } = timedSteps(() => clock.tick(1), w.ticks, w.ahead - 1, bounds)
  // The same for every clock, whatever its ticks: nothing fired, `now` moved 1 ms a tick.
  return { ops: steps, ns, checksum: { fired, hash: clock.now - steps }, left: clock.countTimers() - w.timers }
}

/**
 * runToLast: `ops` = timers, all fired by one `runToLast` per clock, each hashed with `now`
 * when it fires. One clock's run is short where fake-timers 15.0's is long, so clocks are
 * set up several at a time (then one collection) until their runs add up to `minMs`.
 */
export const clockRunToLast = (impl: ClockImpl, w: RunToLast, bounds: Bounds): Run => {
  const setUp = (): { clock: Clock; tally: Tally } => {
    const tally = new Tally()
    const clock = impl.create()
    const fire = (id: number): void => {
      tally.at = clock.now
      tally.fire(id)
    }
    for (let id = 0; id < w.timers; id++) clock.setTimeout(fire, w.delays[id]!, id)
    return { clock, tally }
  }
  let ns = 0
  let ops = 0
  let first: Checksum | undefined
  for (let k = 1; ; ) {
    const plays = Array.from({ length: k }, setUp)
    collect()
    const t0 = nanos()
    for (const p of plays) p.clock.runToLast()
    ns += nanos() - t0
    ops += k * w.timers
    for (const { clock, tally } of plays) {
      first ??= tally.checksum()
      // A clock that fired other timers than the first, or left some, is the run's result.
      if (tally.fired !== first.fired || tally.hash !== first.hash || clock.countTimers() > 0) {
        return { ops, ns, checksum: tally.checksum(), left: clock.countTimers() }
      }
    }
    if (ns >= bounds.minMs * 1e6) return { ops, ns, checksum: first!, left: 0 }
    // As many more as the time so far says minMs needs, but at most four times as many again:
    // the clock's readings are coarse.
    const played = ops / w.timers
    k = ns === 0 ? 2 * k : Math.min(4 * played, Math.ceil(((bounds.minMs * 1e6 - ns) * played) / ns))
  }
}

/**
 * The game loop: `ops` = frames, as many as `bounds` ask for, so the checksum is the one
 * the frames played should give (`Workloads.gameFirings`).
 */
export const gameFrames = (impl: GameImpl, w: Game, bounds: Bounds): Run => {
  let fired = 0
  let sum = 0
  const loop = impl.create(w, (due) => {
    fired++
    sum += due
  })
  collect()
  const { steps, ns } = timedSteps(() => loop.frame(), w.frames, Math.floor(w.ahead / w.frameMs) - 1, bounds)
  return { ops: steps, ns, checksum: { fired, hash: Math.round(sum) }, expected: gameFirings(w, steps), left: 0 }
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
