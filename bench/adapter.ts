/**
 * What every implementation offers the workloads: a set of timers keyed by small integer
 * ids, a fake clock, or a game clock. One adapter per implementation lives in `adapters/`;
 * each uses its library the way that library's users do.
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

/** The part of a fake clock the clock rows use (fake-timers' and `timing-wheel/sim`'s). */
export interface Clock {
  readonly now: number
  setTimeout(callback: (...args: number[]) => void, delay: number, ...args: number[]): unknown
  /** Fires the next timer, moving `now` to its time. */
  next(): number
  /** Moves `ms` forward, firing what is due. */
  tick(ms: number): number
  /** Moves to the latest due time of the waiting timers, firing everything due by then. */
  runToLast(): number
  countTimers(): number
}

export interface ClockImpl {
  readonly name: string
  readonly create: () => Clock
}

/** The game row's load: timers waiting far ahead, and a few that fire every period. */
export interface GameLoad {
  /** The delays of the timers that wait, in ms. */
  readonly far: Float64Array
  /** Timer `i < busy` fires first at `(i + 0.5) * period / busy` ms, then every `period` ms. */
  readonly busy: number
  readonly period: number
  readonly frameMs: number
}

/** A game loop on one library: its timers set up, then moved one frame at a time. */
export interface GameImpl {
  readonly name: string
  /** Sets the load up; `onBusy` is told the due time of each busy firing. */
  readonly create: (load: GameLoad, onBusy: (due: number) => void) => { frame(): void }
}
