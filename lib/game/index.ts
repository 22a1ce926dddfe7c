/**
 * `timing-wheel/game`: game clocks on timing wheels. A fixed-timestep driver, a tree of
 * clocks with their own time scale and pause (gameplay paused while the menu's clock runs;
 * slow motion), and timers on any clock, once or every period with an optional count,
 * that can be paused, resumed, cancelled and reset. Timers due in the same step fire in
 * the order of the game time they were due at, ties in the order they were scheduled,
 * across clocks too; a step costs the timers it fires, not the timers waiting; the whole
 * game snapshots to JSON and restores, so a replay is exact.
 *
 * @example
 * import { Game } from 'timing-wheel/game'
 *
 * const game = Game.create({ stepMs: 1000 / 60, handlers: { spawn: (e) => console.log('spawn', e.time) } })
 * Game.every(game, Game.root, 2000, 'spawn', null, { times: 3 })
 * Game.update(game, 7000) // runs at most maxStepsPerUpdate steps: feed it real frame times
 *
 * @module
 */
export * as Game from './namespace.js'
export type { ClockId, GameOptions, Handlers, Json, TimerEvent, TimerId, Update } from './game.js'
export type { ClockJson, Snapshot, TimerJson } from './snapshot.js'
