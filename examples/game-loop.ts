/**
 * `npm run example:game-loop`: a 60 Hz fixed-timestep game on `timing-wheel/game`.
 *
 * Frames arrive with jitter, as a browser's do; `Game.update` turns them into fixed steps.
 * On the world's clock: enemies spawn every 1.5 s, eight times; abilities cool down;
 * poison ticks three times and wears off. At 6 s the player opens the pause menu: the
 * world's clock stops while the menu's own clock blinks a cursor; at 12 s a slow-motion
 * power halves the world's time scale for three seconds of game time. Halfway through the
 * game is snapshotted (the clocks and timers with `Game.snapshot`, the world as JSON),
 * played to the end, restored, and played to the end again: the two logs are the same.
 */
import * as E from 'fp-ts/lib/Either.js'
import { Game, type Handlers, type TimerEvent } from 'timing-wheel/game'

const FRAME = 1000 / 60

/** A small seeded generator (mulberry32) whose state is a number, so that it snapshots. */
const nextRandom = (w: World): number => {
  w.rng = (w.rng + 0x6d2b79f5) >>> 0
  let x = Math.imul(w.rng ^ (w.rng >>> 15), 1 | w.rng)
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296
}

/** Everything the game's own code keeps: plain data, so that it snapshots as JSON. */
interface World {
  rng: number
  enemies: Record<string, { hp: number; poisoned: boolean }>
  ready: string[]
  spawned: number
  world: number
  menu: number
  log: string[]
}

const say = (w: World, game: Game.Game, line: string): void => {
  const ms = Game.now(game)
  w.log.push(`frame ${String(Math.round(ms / FRAME)).padStart(4)}  t=${(ms / 1000).toFixed(3)}s  ${line}`)
}

/** The handlers, by name; each finds the world through the table it is made with. */
const handlers = (w: World): Handlers => ({
  spawn: (e: TimerEvent) => {
    const id = String(++w.spawned)
    w.enemies[id] = { hp: 3, poisoned: false }
    say(w, e.game, `enemy ${id} spawns (${Object.keys(w.enemies).length} alive, spawn ${e.fired} of 8)`)
  },
  cooldown: (e) => {
    w.ready.push(String(e.payload))
    say(w, e.game, `${String(e.payload)} is ready`)
  },
  poisonTick: (e) => {
    const enemy = w.enemies[String(e.payload)]
    if (enemy === undefined) return
    enemy.hp -= 1
    say(w, e.game, `poison ticks on enemy ${String(e.payload)} (hp ${enemy.hp})`)
    if (e.fired === 3) {
      enemy.poisoned = false
      say(w, e.game, `poison on enemy ${String(e.payload)} wears off`)
    }
  },
  blink: (e) => say(w, e.game, `menu cursor blinks (${e.fired})`),
  closeMenu: (e) => {
    Game.resumeClock(e.game, w.world)
    say(w, e.game, 'menu closes, the world runs again')
  },
  slowMotion: (e) => {
    Game.setTimeScale(e.game, w.world, e.payload === 'on' ? 0.5 : 1)
    say(w, e.game, `slow motion ${String(e.payload)}`)
    if (e.payload === 'on') Game.after(e.game, Game.root, 3000, 'slowMotion', 'off')
  },
  openMenu: (e) => {
    Game.pauseClock(e.game, w.world)
    say(w, e.game, 'menu opens, the world stops')
    Game.every(e.game, w.menu, 500, 'blink', null, { times: 4 })
    Game.after(e.game, w.menu, 2000, 'closeMenu')
  },
})

/** The player's move each frame: use what is ready on a random enemy. */
const act = (w: World, game: Game.Game): void => {
  const alive = Object.keys(w.enemies)
  if (alive.length === 0 || Game.isClockPaused(game, w.world)) return
  const target = alive[Math.floor(nextRandom(w) * alive.length)]!
  const enemy = w.enemies[target]!
  if (w.ready.includes('strike')) {
    w.ready = w.ready.filter((a) => a !== 'strike')
    enemy.hp -= 1
    say(w, game, `strike hits enemy ${target} (hp ${enemy.hp})`)
    Game.after(game, w.world, 750, 'cooldown', 'strike')
  }
  if (w.ready.includes('poison') && !enemy.poisoned) {
    w.ready = w.ready.filter((a) => a !== 'poison')
    enemy.poisoned = true
    say(w, game, `poison on enemy ${target}`)
    Game.every(game, w.world, 1000, 'poisonTick', target, { times: 3 })
    Game.after(game, w.world, 5000, 'cooldown', 'poison')
  }
  if (enemy.hp <= 0) {
    delete w.enemies[target]
    say(w, game, `enemy ${target} is defeated`)
  }
}

interface Session {
  readonly game: Game.Game
  readonly w: World
}

const start = (seed: number): Session => {
  const w: World = { rng: seed >>> 0, enemies: {}, ready: ['strike', 'poison'], spawned: 0, world: 0, menu: 0, log: [] }
  const game = Game.create({ stepMs: FRAME, handlers: handlers(w), maxStepsPerUpdate: 4 })
  w.world = Game.addClock(game, Game.root)
  w.menu = Game.addClock(game, Game.root)
  Game.every(game, w.world, 1500, 'spawn', null, { times: 8, delayMs: 500 })
  Game.after(game, Game.root, 6000, 'openMenu')
  Game.after(game, Game.root, 12000, 'slowMotion', 'on')
  return { game, w }
}

/** Runs frames until game time `untilMs`: frames 14 to 20 ms apart, each a fixed step or few. */
const run = ({ game, w }: Session, untilMs: number): void => {
  while (Game.now(game) < untilMs) {
    const frameMs = 14 + 6 * nextRandom(w)
    const { steps } = Game.update(game, frameMs)
    for (let i = 0; i < steps; i++) act(w, game)
  }
}

const finish = ({ game, w }: Session, seconds: number): string[] => [
  ...w.log,
  `after ${seconds} s: ${w.spawned} spawned, ${Object.keys(w.enemies).length} alive, ${Game.timerCount(game)} timers pending`,
]

/** Plays `seconds` of the game from `seed` and returns the log. */
export const play = (seed: number, seconds: number): string[] => {
  const s = start(seed)
  run(s, seconds * 1000)
  return finish(s, seconds)
}

/**
 * Plays to `atSeconds`, snapshots, plays on to `seconds`; then restores the snapshot and
 * plays on again. Returns both logs from the snapshot on.
 */
export const replayFromSnapshot = (seed: number, atSeconds: number, seconds: number): { played: string[]; replayed: string[] } => {
  const s = start(seed)
  run(s, atSeconds * 1000)
  const saved = JSON.stringify({ game: Game.snapshot(s.game), world: { ...s.w, log: [] } })
  const from = s.w.log.length
  run(s, seconds * 1000)
  const played = finish(s, seconds).slice(from)

  const { game: snapshot, world } = JSON.parse(saved) as { game: unknown; world: World }
  const restored = Game.restore(snapshot, handlers(world))
  if (E.isLeft(restored)) throw restored.left
  const again = { game: restored.right, w: world }
  run(again, seconds * 1000)
  return { played, replayed: finish(again, seconds) }
}

const main = (): void => {
  const seed = Number(process.argv[2] ?? 42)
  console.log(play(seed, 20).join('\n'))
  const { played, replayed } = replayFromSnapshot(seed, 10, 20)
  const same = played.length === replayed.length && played.every((line, i) => line === replayed[i])
  console.log(`\nsnapshot at 10 s, restored and replayed to 20 s: ${same ? 'identical' : 'DIFFERENT'} logs (${played.length} lines)`)
  if (!same) process.exitCode = 1
}

if (import.meta.url === `file://${process.argv[1]}`) main()
