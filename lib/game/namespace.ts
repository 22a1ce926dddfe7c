/**
 * The `Game` namespace: the functions of game.ts and snapshot.ts.
 *
 * @module
 */
export {
  type Game,
  type ClockId,
  type TimerId,
  type TimerEvent,
  type Handlers,
  type GameOptions,
  type Update,
  type Json,
  create,
  root,
  addClock,
  clockTime,
  timeScale,
  setTimeScale,
  pauseClock,
  resumeClock,
  isClockPaused,
  after,
  every,
  cancel,
  pause,
  resume,
  reset,
  remaining,
  timesFired,
  isPaused,
  isActive,
  timerCount,
  step,
  update,
  now,
  steps,
  stepMs,
  invariant,
} from './game.js'
export { snapshot, restore, snapshotCodec, type Snapshot, type ClockJson, type TimerJson } from './snapshot.js'
