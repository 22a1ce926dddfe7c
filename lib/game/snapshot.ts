/**
 * A game as plain JSON and back: the clocks (scale, pause, time), the timers (clock, name,
 * payload, due time or time left, counts, scheduling order), the steps run and the time
 * accumulated. Handlers are functions, so timers carry their handler's name and
 * `restore` takes the table of handlers by name. A restored game runs exactly as the
 * original from the moment of the snapshot, timer ids included.
 */
import * as E from '#fp-ts/Either.js'
import * as t from '#io-ts'
import { describeErrors, finiteNumber, isRecord } from '../config/validation.js'
import { TimingWheelError, show } from '../errors.js'
import * as TW from '../timing-wheel/timing-wheel.js'
import { type Game, type Handlers, type Json, type Timer, create } from './game.js'

const json: t.Type<Json> = t.recursion('Json', () =>
  t.union([t.null, t.boolean, finiteNumber, t.string, t.readonlyArray(json), t.record(t.string, json)]),
)
const nullableNumber = t.union([t.null, finiteNumber])

/**
 * A clock in a snapshot.
 *
 * @example
 * const clocks: readonly ClockJson[] = Game.snapshot(game).clocks
 * clocks[0] // the root clock: { parent: null, timeScale: 1, paused: false, time: 0 } in a new game
 */
export interface ClockJson {
  /** Its parent's index, or null for the root. */
  readonly parent: number | null
  /** Its time scale. */
  readonly timeScale: number
  /** Whether it is paused itself. */
  readonly paused: boolean
  /** Its time. */
  readonly time: number
}

/**
 * A timer in a snapshot.
 *
 * @example
 * Game.after(game, Game.root, 3000, 'explode', { bomb: 7 })
 * const [timer]: readonly TimerJson[] = Game.snapshot(game).timers
 * timer.name // 'explode'
 */
export interface TimerJson {
  /** Its id, kept by the restored game. */
  readonly id: number
  /** Its clock's index. */
  readonly clock: number
  /** Its handler's name. */
  readonly name: string
  /** What its handler is given. */
  readonly payload: Json
  /** The delay it was made with (and `reset` uses). */
  readonly firstDelay: number
  /** Its period, or null for a timer that fires once. */
  readonly period: number | null
  /** How many times it will fire still; null: until cancelled. */
  readonly left: number | null
  /** How many times it fires in all; null: until cancelled. */
  readonly times: number | null
  /** How many times it has fired. */
  readonly fired: number
  /** Whether it waits or is paused. */
  readonly state: 'waiting' | 'paused'
  /** When it is due, on its clock (if waiting). */
  readonly due: number
  /** The time it had left when paused (if paused). */
  readonly remaining: number
  /** Its place in the scheduling order. */
  readonly seq: number
}

/**
 * A game's snapshot: plain JSON.
 *
 * @example
 * const saved: Snapshot = Game.snapshot(game)
 * localStorage.setItem('save', JSON.stringify(saved))
 */
export interface Snapshot {
  /** The format's version: 1. */
  readonly version: 1
  /** The fixed step. */
  readonly stepMs: number
  /** The cap on steps per update. */
  readonly maxStepsPerUpdate: number
  /** The game time at the start. */
  readonly start: number
  /** How many steps have run. */
  readonly steps: number
  /** Real time fed to `update` and not yet stepped. */
  readonly accumulator: number
  /** The next scheduling number. */
  readonly seq: number
  /** The next timer id. */
  readonly nextTimerId: number
  /** The clocks, by id; the root first. */
  readonly clocks: readonly ClockJson[]
  /** The timers waiting or paused, by id. */
  readonly timers: readonly TimerJson[]
}

const clockCodec = t.strict({ parent: nullableNumber, timeScale: finiteNumber, paused: t.boolean, time: finiteNumber })

const timerCodec = t.strict({
  id: finiteNumber,
  clock: finiteNumber,
  name: t.string,
  payload: json,
  firstDelay: finiteNumber,
  period: nullableNumber,
  left: nullableNumber,
  times: nullableNumber,
  fired: finiteNumber,
  state: t.keyof({ waiting: null, paused: null }),
  due: finiteNumber,
  remaining: finiteNumber,
  seq: finiteNumber,
})

const snapshotType = t.strict({
  version: t.literal(1),
  stepMs: finiteNumber,
  maxStepsPerUpdate: finiteNumber,
  start: finiteNumber,
  steps: finiteNumber,
  accumulator: finiteNumber,
  seq: finiteNumber,
  nextTimerId: finiteNumber,
  clocks: t.readonlyArray(clockCodec),
  timers: t.readonlyArray(timerCodec),
})

/**
 * The io-ts codec of a game's snapshot: plain JSON, checked field by field.
 *
 * @example
 * const saved = Game.snapshotCodec.decode(JSON.parse(localStorage.getItem('save') ?? 'null')) // Either<t.Errors, Snapshot>
 */
export const snapshotCodec: t.Type<Snapshot, Snapshot, unknown> = snapshotType

/**
 * The game as JSON (`JSON.stringify` it as is). Throws `Reentrant` from a handler, where a
 * step is half done. Linear in the clocks and timers.
 *
 * @example
 * const json = JSON.stringify(Game.snapshot(game))
 */
export const snapshot = (g: Game): Snapshot => {
  if (g.stepping) throw new TimingWheelError('Reentrant', 'snapshot from inside a timer handler')
  return {
    version: 1,
    stepMs: g.stepMs,
    maxStepsPerUpdate: g.maxStepsPerUpdate,
    start: g.start,
    steps: g.steps,
    accumulator: g.accumulator,
    seq: g.seq,
    nextTimerId: g.nextTimerId,
    clocks: g.clocks.map((c) => ({ parent: c.parent ?? null, timeScale: c.timeScale, paused: c.paused, time: c.time })),
    timers: [...g.timers.values()].sort((a, b) => a.id - b.id).map((tm) => ({
      id: tm.id,
      clock: tm.clock,
      name: tm.name,
      payload: tm.payload,
      firstDelay: tm.firstDelay,
      period: tm.period ?? null,
      left: tm.left === Infinity ? null : tm.left,
      times: tm.times ?? null,
      fired: tm.fired,
      state: tm.state === 'paused' ? 'paused' : 'waiting',
      due: tm.due,
      remaining: tm.remaining,
      seq: tm.seq,
    })),
  }
}

const keysOf = (codec: { readonly props: object }): readonly string[] => Object.keys(codec.props)

/** io-ts's strict codecs drop unknown keys; a snapshot with any is refused, as `Config.decode` refuses them. */
const unknownKeys = (u: unknown): string | undefined => {
  const extra = (what: string, v: unknown, known: readonly string[]): string | undefined => {
    const key = isRecord(v) ? Object.keys(v).find((k) => !known.includes(k)) : undefined
    return key === undefined ? undefined : `${what}: unknown key ${show(key)} (known: ${known.join(', ')})`
  }
  if (!isRecord(u)) return undefined
  const inList = (name: string, known: readonly string[]): string | undefined =>
    Array.isArray(u[name]) ? (u[name] as unknown[]).map((v, i) => extra(`${name}.${i}`, v, known)).find((m) => m !== undefined) : undefined
  return extra('(root)', u, keysOf(snapshotType.type)) ?? inList('clocks', keysOf(clockCodec.type)) ?? inList('timers', keysOf(timerCodec.type))
}

const invalid = (message: string): E.Either<TimingWheelError, never> => E.left(new TimingWheelError('InvalidConfig', `game snapshot: ${message}`))

/**
 * A game from its snapshot, with `handlers` for the names its timers carry; a `Left`
 * names every problem (a field of the wrong kind, a clock whose parent comes after it, a
 * timer on no clock or naming no handler, a waiting timer due before its clock's time).
 * Linear in the clocks and timers.
 *
 * @example
 * const copy = Game.restore(JSON.parse(JSON.stringify(Game.snapshot(game))), handlers)
 */
export const restore = (u: unknown, handlers: Handlers): E.Either<TimingWheelError, Game> => {
  const unknown = unknownKeys(u)
  if (unknown !== undefined) return invalid(unknown)
  const decoded = snapshotCodec.decode(u)
  if (E.isLeft(decoded)) return E.left(new TimingWheelError('InvalidConfig', describeErrors('game snapshot', decoded.left)))
  const s = decoded.right
  let g: Game
  try {
    g = create({ stepMs: s.stepMs, handlers, maxStepsPerUpdate: s.maxStepsPerUpdate, start: s.start })
  } catch (e) {
    return E.left(e as TimingWheelError)
  }
  if (s.clocks.length === 0 || s.clocks[0]!.parent !== null) return invalid('clock 0 must be the root, with parent null')
  g.clocks.length = 0
  for (const [id, c] of s.clocks.entries()) {
    if (id > 0 && !(Number.isInteger(c.parent) && c.parent! >= 0 && c.parent! < id)) return invalid(`clock ${id}'s parent ${show(c.parent)} is not a clock before it`)
    if (!(c.timeScale >= 0)) return invalid(`clock ${id}'s timeScale ${c.timeScale} is negative`)
    const wheel = TW.create<Timer>({ alarmPrecision: s.stepMs, start: c.time })
    g.clocks.push({ parent: c.parent ?? undefined, timeScale: c.timeScale, paused: c.paused, time: c.time, wheel, stepFrom: c.time, stepRate: 0 })
  }
  const integers = [s.steps, s.seq, s.nextTimerId]
  if (!integers.every((n) => Number.isInteger(n) && n >= 0)) return invalid(`steps, seq and nextTimerId ${show(integers)} must be integers >= 0`)
  g.steps = s.steps
  g.accumulator = s.accumulator
  g.seq = s.seq
  g.nextTimerId = s.nextTimerId
  for (const tm of [...s.timers].sort((a, b) => a.seq - b.seq)) {
    const clock = g.clocks[tm.clock]
    if (clock === undefined) return invalid(`timer ${tm.id} is on clock ${tm.clock}, which is not in the snapshot`)
    if (typeof handlers[tm.name] !== 'function') return invalid(`timer ${tm.id} names handler ${show(tm.name)}, which is not in the table`)
    if (!Number.isInteger(tm.id) || tm.id < 1 || tm.id >= s.nextTimerId || g.timers.has(tm.id)) return invalid(`timer id ${tm.id} is not a distinct id below nextTimerId`)
    if (tm.state === 'waiting' && tm.due < clock.time) return invalid(`timer ${tm.id} is due at ${tm.due}, before its clock's time ${clock.time}`)
    const timer: Timer = {
      id: tm.id,
      clock: tm.clock,
      name: tm.name,
      payload: tm.payload,
      firstDelay: tm.firstDelay,
      period: tm.period ?? undefined,
      times: tm.times ?? undefined,
      left: tm.left ?? Infinity,
      fired: tm.fired,
      state: tm.state,
      due: tm.due,
      remaining: tm.remaining,
      seq: tm.seq,
      gen: 0,
      alarm: TW.nullAlarm(),
    }
    if (tm.state === 'waiting') {
      try {
        timer.alarm = TW.add(clock.wheel, tm.due, timer)
      } catch (e) {
        return invalid(`timer ${tm.id}: ${(e as Error).message}`)
      }
    }
    g.timers.set(timer.id, timer)
  }
  return E.right(g)
}
