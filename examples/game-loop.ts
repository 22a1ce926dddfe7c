/**
 * `npm run example:game-loop`: a fixed-timestep game loop at 60 Hz on virtual time.
 *
 * The world steps once per frame of exactly 1/60 s; everything that happens later is an
 * alarm on a `TimingWheel` whose precision is one frame: ability cooldowns, enemy spawns
 * (periodic alarms that reschedule themselves), and status effects that expire. Nothing
 * reads the real clock and the only randomness comes from a seeded generator, so the same
 * seed gives the same log, line for line: the program plays the game twice and checks.
 */
import { Alarm, TimingWheel } from 'timing-wheel'

const FRAME = 1 / 60

/** A small seeded generator (mulberry32), so that runs replay exactly. */
const seeded = (seed: number): (() => number) => {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = Math.imul(s ^ (s >>> 15), 1 | s)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

type GameEvent =
  | { readonly kind: 'spawn' }
  | { readonly kind: 'cooldown'; readonly ability: string }
  | { readonly kind: 'expire'; readonly enemy: number; readonly effect: string }

interface World {
  readonly wheel: TimingWheel.TimingWheel<GameEvent>
  readonly random: () => number
  readonly log: string[]
  readonly enemies: Map<number, { hp: number; poisoned: boolean }>
  readonly ready: Set<string>
  nextEnemy: number
  frame: number
}

const say = (w: World, line: string): void => {
  w.log.push(`frame ${String(w.frame).padStart(4)}  t=${(w.frame * FRAME).toFixed(3)}s  ${line}`)
}

/** What happens when an alarm goes off; spawns reschedule themselves. */
const onAlarm = (w: World) => (alarm: TimingWheel.Alarm<GameEvent>): void => {
  const event = Alarm.value(w.wheel, alarm)
  switch (event.kind) {
    case 'spawn': {
      const id = w.nextEnemy++
      w.enemies.set(id, { hp: 3, poisoned: false })
      say(w, `enemy ${id} spawns (${w.enemies.size} alive)`)
      // A periodic alarm: back in the wheel under the same handle, 1 to 3 s later.
      TimingWheel.reschedule(w.wheel, alarm, Alarm.at(w.wheel, alarm) + 1 + 2 * w.random())
      break
    }
    case 'cooldown':
      w.ready.add(event.ability)
      say(w, `${event.ability} is ready`)
      break
    case 'expire': {
      const enemy = w.enemies.get(event.enemy)
      if (enemy !== undefined) enemy.poisoned = false
      say(w, `${event.effect} on enemy ${event.enemy} wears off`)
      break
    }
  }
}

/** The player's turn each frame: use what is ready on a random enemy. */
const act = (w: World): void => {
  const alive = [...w.enemies.keys()]
  if (alive.length === 0) return
  const target = alive[Math.floor(w.random() * alive.length)]!
  const enemy = w.enemies.get(target)!
  const now = TimingWheel.now(w.wheel)
  if (w.ready.has('strike')) {
    w.ready.delete('strike')
    enemy.hp -= 1
    say(w, `strike hits enemy ${target} (hp ${enemy.hp})`)
    TimingWheel.add(w.wheel, now + 0.75, { kind: 'cooldown', ability: 'strike' })
  }
  if (w.ready.has('poison') && !enemy.poisoned) {
    w.ready.delete('poison')
    enemy.poisoned = true
    say(w, `poison on enemy ${target}`)
    TimingWheel.add(w.wheel, now + 3, { kind: 'expire', enemy: target, effect: 'poison' })
    TimingWheel.add(w.wheel, now + 5, { kind: 'cooldown', ability: 'poison' })
  }
  if (enemy.hp <= 0) {
    w.enemies.delete(target)
    say(w, `enemy ${target} is defeated`)
  }
}

/** Once a second, poison takes one hit point. */
const poisonTicks = (w: World): void => {
  for (const [id, enemy] of w.enemies) {
    if (!enemy.poisoned) continue
    enemy.hp -= 1
    say(w, `poison ticks on enemy ${id} (hp ${enemy.hp})`)
  }
}

/** Plays `seconds` of the game from `seed` and returns the log. */
export const play = (seed: number, seconds: number): string[] => {
  const w: World = {
    wheel: TimingWheel.create<GameEvent>({ alarmPrecision: FRAME }),
    random: seeded(seed),
    log: [],
    enemies: new Map(),
    ready: new Set(['strike', 'poison']),
    nextEnemy: 1,
    frame: 0,
  }
  TimingWheel.add(w.wheel, 0.5, { kind: 'spawn' })
  const fire = onAlarm(w)
  for (w.frame = 1; w.frame <= seconds * 60; w.frame++) {
    // Alarms due in frames before this one fire now, in time order; then the world steps.
    TimingWheel.advanceClock(w.wheel, w.frame * FRAME, fire)
    act(w)
    if (w.frame % 60 === 0) poisonTicks(w)
  }
  w.log.push(`after ${seconds} s: ${w.nextEnemy - 1} spawned, ${w.enemies.size} alive, ${TimingWheel.length(w.wheel)} alarms pending`)
  return w.log
}

const main = (): void => {
  const seed = Number(process.argv[2] ?? 42)
  const first = play(seed, 20)
  const second = play(seed, 20)
  console.log(first.join('\n'))
  const same = first.length === second.length && first.every((line, i) => line === second[i])
  console.log(`\nreplayed seed ${seed}: ${same ? 'identical' : 'DIFFERENT'} logs (${first.length} lines)`)
  if (!same) process.exitCode = 1
}

if (import.meta.url === `file://${process.argv[1]}`) main()
