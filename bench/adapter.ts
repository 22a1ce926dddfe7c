/**
 * What every implementation offers the workloads: a set of timers keyed by small integer
 * ids, or a fake clock. One adapter per implementation lives in `adapters/`; each uses its
 * library the way that library's users do.
 */

/** Called with the id of each alarm that fires. */
export type OnFire = (id: number) => void

/** What an adapter may size its bookkeeping for up front, outside the timed code. */
export interface Capacity {
  /** Ids are in `[0, ids)`; an id has at most one outstanding alarm. */
  readonly ids: number
  /** At most this many `add` calls in the adapter's life. */
  readonly adds: number
}

/**
 * Timers on whole-millisecond times. Times passed to `add` are integers, not before the
 * last `advance` target.
 */
export interface TimerQueue {
  /** Schedules alarm `id` at `at`. */
  add(id: number, at: number): void
  /** Cancels the outstanding alarm of `id`. */
  cancel(id: number): void
  /** Fires, in non-decreasing time, every alarm with `at < to`; alarms the handler adds wait. */
  advance(to: number): void
  /** The least `to` at which `advance` fires something, Infinity if nothing is outstanding. */
  nextFiresAt(): number
  /** Outstanding alarms. */
  size(): number
}

export interface QueueImpl {
  /** As the table shows it. */
  readonly name: string
  readonly create: (capacity: Capacity, onFire: OnFire) => TimerQueue
}

/** The part of a fake clock the virtual-clock workload uses (fake-timers' and `timing-wheel/sim`'s). */
export interface Clock {
  readonly now: number
  setTimeout(callback: (...args: number[]) => void, delay: number, ...args: number[]): unknown
  /** Fires the next timer, moving `now` to its time. */
  next(): number
  /** Moves `ms` forward, firing what is due (the idle row needs it). */
  tick?(ms: number): number
  countTimers(): number
}

export interface ClockImpl {
  readonly name: string
  readonly create: () => Clock
}
