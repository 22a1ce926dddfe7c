/**
 * The `Game` namespace: the functions of game.ts and snapshot.ts.
 *
 * @example
 * import { Game } from 'timing-wheel/game'
 * const game = Game.create({ stepMs: 10, handlers: { explode: (e) => console.log('boom at', e.time) } })
 * Game.after(game, Game.root, 30, 'explode')
 * Game.update(game, 40) // boom at 30
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
