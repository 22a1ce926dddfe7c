/**
 * The timer module of Varghese & Lauck, section 2, as every scheme in this folder offers
 * it: START_TIMER, STOP_TIMER and PER_TICK_BOOKKEEPING, with EXPIRY_PROCESSING as a
 * callback. Time is a count of ticks since the module was made; it moves only when
 * PER_TICK_BOOKKEEPING runs, one tick at a time, as in the paper.
 *
 * A timer is named by a small integer id, so that each scheme can keep its record for
 * `id` at row `id` of its typed arrays: the id is the "pointer to the element" that the
 * paper says makes STOP_TIMER O(1), and starting a timer allocates nothing.
 *
 * The schemes are written for the benchmark and the property test, not for users: the
 * preconditions below are the caller's to keep, and are not checked on the hot path.
 */

/** EXPIRY_PROCESSING: called with the id of each timer that expires. */
export type OnExpiry = (id: number) => void

/** What a module is made for. Each scheme reads the fields it needs. */
export interface Config {
  /** Ids are integers in `[0, capacity)`. */
  readonly capacity: number
  /**
   * The paper's MaxInterval: every interval is an integer in `[1, maxInterval)`. Scheme 4
   * has one slot per value; Scheme 7 needs `2^sum(levelBits) >= maxInterval`.
   */
  readonly maxInterval: number
  /** Schemes 5 and 6: the table size M, a power of two. Default 256, the paper's example. */
  readonly tableSize?: number
  /** Scheme 7: the bits per level (slots per level `2^bits`). Default: the package's. */
  readonly levelBits?: readonly number[]
}

/**
 * One timer module. Between calls, every outstanding timer expires at a tick after the
 * current one; no timer is ever due and unfired.
 */
export interface TimerModule {
  /**
   * START_TIMER: timer `id` expires `interval` ticks from now. Requires `id` not
   * outstanding and `interval` an integer in `[1, maxInterval)`.
   */
  startTimer(interval: number, id: number): void
  /** STOP_TIMER: timer `id` will not expire. A no-op if `id` is not outstanding. */
  stopTimer(id: number): void
  /**
   * PER_TICK_BOOKKEEPING: advances time one tick and calls `onExpiry` on every timer
   * that expires at the new time, in no specified order. `onExpiry` must not call back
   * into the module: it runs while the scheme walks its own lists.
   */
  perTickBookkeeping(): void
  /** Outstanding timers. */
  size(): number
  /** Throws if the representation breaks one of its invariants. Linear time; for tests. */
  invariant(): void
}

/** A scheme of the paper, ready to make modules. */
export interface Scheme {
  /** A short key: `s1` ... `s7`. */
  readonly key: string
  /** The paper's number. */
  readonly number: number
  /** As the report names it. */
  readonly name: string
  readonly create: (config: Config, onExpiry: OnExpiry) => TimerModule
}

/** The default table size of Schemes 5 and 6: the paper's Figure 9 example. */
export const defaultTableSize = 256

/** Throws with `what` in the message: the schemes' cold error path. */
export const broken = (scheme: string, what: string): never => {
  throw new Error(`${scheme} invariant broken: ${what}`)
}

/** Checks a `tableSize` and returns its log2. */
export const tableBits = (scheme: string, tableSize: number): number => {
  const bits = Math.log2(tableSize)
  if (!Number.isInteger(bits) || bits < 0 || bits > 24) {
    throw new RangeError(`${scheme}: tableSize ${tableSize} is not a power of two in [1, 2^24]`)
  }
  return bits
}
