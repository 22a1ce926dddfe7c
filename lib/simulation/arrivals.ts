/**
 * The default delivery mode's wire on the package's own clock: every arrival a macrotask
 * of its own, in the place a clock timer of its own would have, for the cost of an entry
 * in a list.
 *
 * Representation.
 *
 * - `buckets` maps a due time (the clock's elapsed ms) to the tokens arriving then (a
 *   bucket less than `near.length` ms ahead when made is in `near`, at its due time modulo
 *   that, unless the slot holds a live bucket; so most sends find theirs by an array read), in
 *   the order they were put on the wire, each with the `order` the clock handed out for
 *   it then (`core.nextOrder`, the counter its timers' orders come from): so a token has
 *   the place among the clock's timers that a timer armed at its send would have had.
 * - One clock timer a bucket, its `pump`, armed by the bucket's first token (its order is
 *   that token's). Firing, it re-arms itself for the next token in the same ms with that
 *   token's order (`rearmOrdered`), then delivers its token: one token a firing, so
 *   microtasks, `await`s and the clock's jobs run between two arrivals, and a host timer
 *   due in that ms fires between the tokens sent before and after it was set, as when
 *   each token was a timer.
 * - A bucket whose last token is taken leaves `buckets` for `spare`, where a later ms's
 *   first token takes it (its pump fired for the last time: nothing else refers to it).
 * - Fired by a sync `tick` (the clock's `tickFiring`), once its token is delivered the pump
 *   looks at what that loop would do next: if the re-armed pump is the schedule's first
 *   timer, no clock job is queued, no timer fired inside the delivery and time has not
 *   moved, the loop would only fire it again; so it delivers the next token at once,
 *   re-armed with that token's order in place (`reorderFirst`) when it stays first. The order and everything a handler can see are those of a firing
 *   a token (it is re-armed during each delivery), for one clock firing a ms instead of
 *   one a message. Other moves (`tickAsync`, `next`, `runAll`...) fire it once a token.
 * - A token's due time is the clock's own for its delay (`coerceDelay`, then `dueOffset`:
 *   a 0 ms delay from inside a tick is 1 ms), so it falls in the bucket its timer's due
 *   time would have.
 *
 * Only a `timing-wheel/fake-timers` clock without schedule hooks (the one `create` and
 * `install` make, or one passed as `clock`) has such a counter to share; on any other
 * clock (`@sinonjs/fake-timers`, clockArb's exploring clock) a token is a clock timer.
 *
 * Invariants: a bucket holds at least one token from `head` (to `size`) and its pump is pending (unless
 * the clock was reset since: the bucket is then dropped at the next token for its ms), due
 * at the bucket's due time with the order of the token at `head`; `orders` increases.
 */
import * as Coerce from '../sim/coercion.js'
import { stateOf } from '../sim/accessors.js'
import * as VirtualClock from '../sim/virtual-clock.js'
import { type Timer, oneArg } from '../sim/timer.js'
import type { SimulationClock, Token } from './state.js'

const I = VirtualClock.internals

/** @internal What the pumps and the batch's flush read of a `timing-wheel/fake-timers` clock's state (fake-timers/state.ts). */
export interface FakeTimersState {
  readonly vc?: VirtualClock.VirtualClock
  readonly core?: VirtualClock.State
  readonly jobs: readonly unknown[]
  readonly idle: ReadonlyMap<unknown, unknown>
}

/** @internal The state of a clock whose timers the simulation arms through its `core` ({@link fakeTimersOf}). */
export type OwnClock = FakeTimersState & { readonly core: VirtualClock.State }

/** @internal The tokens arriving in one ms. */
export interface Bucket<M> {
  due: number
  /** The tokens from `head` to `size` (the arrays are longer when reused: see `put`). */
  readonly tokens: Array<Token<M> | undefined>
  readonly orders: number[]
  head: number
  size: number
  pump: Timer | undefined
  /** The clock's `home` when the pump was armed: another after a reset, which dropped it. */
  home: unknown
}

/** @internal See the module comment. */
export interface Arrivals<M> {
  readonly core: VirtualClock.State
  readonly buckets: Map<number, Bucket<M>>
  readonly near: Array<Bucket<M> | undefined>
  /** Buckets emptied, their pumps fired for the last time, for later ms to reuse. */
  readonly spare: Array<Bucket<M>>
  /** The pumps' callback, bound to the simulation's delivery once. */
  readonly pump: (b: Bucket<M>) => void
  /** The clock's `home` when the wire was last found whole: another after a reset (network.ts `afterReset`). */
  home: unknown
}

/**
 * @internal The wire of arrivals on `clock` when it is a `timing-wheel/fake-timers` clock
 * without hooks, delivering each token with `land`; otherwise undefined.
 */
export const arrivalsOn = <M>(clock: SimulationClock, land: (t: Token<M>) => void): Arrivals<M> | undefined => {
  const f = fakeTimersOf(clock)
  if (f === undefined) return undefined
  const core = f.core
  const idle = f.idle
  const schedule = core.schedule
  const buckets = new Map<number, Bucket<M>>()
  const near = new Array<Bucket<M> | undefined>(nearMask + 1).fill(undefined)
  const spare: Array<Bucket<M>> = []
  const pump = (b: Bucket<M>): void => {
    const inline = core.tickFiring === b.pump
    core.tickFiring = undefined
    // Whether the pump is pending: not when it has just fired; when it goes on here, yes.
    let pending = false
    for (;;) {
      const t = b.tokens[b.head]!
      b.tokens[b.head++] = undefined
      const more = b.head < b.size
      if (more) {
        // Going on, it is the first timer: its order moves on in place, if nothing comes between.
        const order = b.orders[b.head]!
        if (!pending || !I.reorderFirst(core, b.pump!, order)) {
          if (pending) I.removeTimer(core, b.pump!)
          I.rearmOrdered(core, b.pump!, order)
        }
      } else {
        if (pending) I.removeTimer(core, b.pump!)
        const slot = b.due & nearMask
        // Done: nothing reads it from here on (its pump is not re-armed), so a put may reuse it.
        if (near[slot] === b) {
          near[slot] = undefined
          if (spare.length < spareBuckets) spare.push(b)
        } else if (buckets.get(b.due) === b) {
          buckets.delete(b.due)
          if (spare.length < spareBuckets) spare.push(b)
        }
      }
      if (!inline) return land(t)
      const fired = core.fired
      land(t)
      // Re-armed, the pump is the clock's next timer if it is the first late one (late
      // timers come before the wheel's); then the sync tick would only run the jobs
      // (none queued) and fire it: deliver the next token here instead.
      if (!more || schedule.late[0] !== b.pump || core.fired !== fired || core.elapsed !== b.due || f.jobs.length !== 0 || idle.size !== 0) return
      pending = true
    }
  }
  return { core, buckets, near, spare, pump, home: core.home }
}

/**
 * @internal The state of `clock` when it is a `timing-wheel/fake-timers` clock without
 * hooks, whose timers the simulation may arm through its internals (its `core`);
 * otherwise undefined.
 */
export const fakeTimersOf = (clock: SimulationClock): OwnClock | undefined => {
  const f = stateOf<FakeTimersState>(clock)
  const core = f?.core
  return core === undefined || f?.vc === undefined || I.stateOf(f.vc) !== core || core.hooks !== undefined ? undefined : (f as OwnClock)
}

/**
 * @internal The ms less than `nearMask + 1` ahead are found by their ms modulo that (an
 * array read; no two of them share a slot), the others in a map: the arrivals' `near`
 * buckets, and with `batch` the chains of the window (network.ts).
 */
export const nearMask = 1023

/** How many emptied buckets are kept: a few ms' worth, reused as the clock moves on. */
const spareBuckets = 64

/** @internal The clock's `now`, as its getter reads it, without the getter. */
export const nowOn = <M>(a: Arrivals<M>): number => I.nowOf(a.core)

/** @internal Puts `t` on the wire, arriving `delay` ms from now. Constant time. */
export const put = <M>(a: Arrivals<M>, t: Token<M>, delay: number): void => {
  const core = a.core
  const coerced = Coerce.coerceDelay(delay)
  const due = core.elapsed + Coerce.dueOffset(coerced, core.duringTick)
  const n = a.near[due & nearMask]
  const b = n !== undefined && n.due === due ? n : a.buckets.size === 0 ? undefined : a.buckets.get(due)
  // A pump is pending while its bucket exists (re-armed before each delivery but the
  // last, when the bucket leaves), unless the clock was reset (its timers dropped, as each
  // token's timer would have been): then the bucket starts afresh.
  if (b !== undefined && b.home === core.home) {
    b.tokens[b.size] = t
    b.orders[b.size++] = core.nextOrder++
    return
  }
  // Reusing buckets with their arrays as long as they grew (slots past `size` are stale,
  // overwritten before they are read) is for V8: a ms's arrivals then allocate nothing but
  // the pump's timer, where emptying an array gives its store back.
  let fresh = a.spare.pop()
  if (fresh === undefined) fresh = { due, tokens: [t], orders: [core.nextOrder], head: 0, size: 1, pump: undefined, home: core.home }
  else {
    fresh.due = due
    fresh.tokens[0] = t
    fresh.orders[0] = core.nextOrder
    fresh.head = 0
    fresh.size = 1
    fresh.home = core.home
  }
  fresh.pump = I.addTimer(core, 'Timeout', a.pump as Timer['callback'], oneArg, fresh, coerced, undefined)
  const slot = due & nearMask
  const held = a.near[slot]
  if (due - core.elapsed <= nearMask && (held === undefined || held === b || held.home !== core.home)) a.near[slot] = fresh
  else a.buckets.set(due, fresh)
}
