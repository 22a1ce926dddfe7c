/**
 * A watchdog that declares a connection dead when no heartbeat arrives for `timeoutMs`.
 * The bug: a timeout of 1.2 heartbeats. On a clock that fires on time the next beat always
 * comes 200 ms early enough; on a loaded event loop a beat that runs 200 ms late loses
 * the race, and a live connection is declared dead. The fix waits two heartbeats and a
 * margin, so one late beat is not a lost one.
 */
import type { Timers } from './timers.js'

export interface Watch {
  readonly stop: () => void
}

export const watchConnection = (
  timers: Timers,
  { heartbeatMs, fixed, onDead }: { heartbeatMs: number; fixed: boolean; onDead: (at: number) => void },
): Watch => {
  const timeoutMs = fixed ? 2.5 * heartbeatMs : 1.2 * heartbeatMs
  let watchdog = timers.setTimeout(() => onDead(timers.now), timeoutMs)
  // The peer's heartbeats, arriving every heartbeatMs.
  const beats = timers.setInterval(() => {
    timers.clearTimeout(watchdog)
    watchdog = timers.setTimeout(() => onDead(timers.now), timeoutMs)
  }, heartbeatMs)
  return {
    stop: () => {
      timers.clearInterval(beats)
      timers.clearTimeout(watchdog)
    },
  }
}
