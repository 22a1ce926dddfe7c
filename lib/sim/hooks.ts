/**
 * The one seam through which a schedule other than FIFO-on-time can steer a clock: the
 * clock tells its hooks when it arms a timer, when it is about to choose the next timer
 * to fire, and when it fires one. `timing-wheel/testing`'s exploring schedule is the only
 * user (`lib/testing/exploring-schedule.ts`); a clock without hooks pays one `undefined`
 * test per arming, choice and firing.
 *
 * The hooks may move a pending timer only through the schedule's own operations (`remove`
 * and `add`; `lateUpTo` and `replaceFront` for a whole batch), and only later than it is
 * due (never early), so the clock's invariants hold whatever they do. A timer's `hooked`
 * field is theirs.
 */
import type { Timer } from './timer.js'

export interface ScheduleHooks {
  /**
   * `timer` was armed at elapsed `armedAt` (created, re-armed by its interval, refreshed)
   * and is about to enter the schedule with its `due` and `order` set; `inCallback` is
   * whether a clock move was running callbacks then. The hook may set `due` later.
   */
  readonly armed: (timer: Timer, armedAt: number, inCallback: boolean) => void
  /** The clock is about to choose the first timer due in `[low, high]` (and fire it). */
  readonly choosing: (low: number, high: number) => void
  /** `timer` is about to run, at elapsed `at`; an interval re-arms right after this. */
  readonly firing: (timer: Timer, at: number) => void
}
