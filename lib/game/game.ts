/**
 * Game clocks: a fixed-timestep driver, a tree of clocks with their own time scale and
 * pause, and timers on any clock (once, or every period with an optional count) that can
 * be paused, resumed, cancelled and reset, all snapshotted and restored as plain JSON.
 *
 * Representation.
 *
 * - The game's time advances in fixed steps of `stepMs`: after `k` steps it is
 *   `start + k * stepMs`, computed, not summed, so it never drifts.
 * - Clocks form a tree, stored by id in creation order, so a parent comes before its
 *   children. Each has its own time, which a step advances by `stepMs * rate`, where the
 *   rate is the product of the time scales from the root down to it, or 0 if it or an
 *   ancestor is paused. Each clock has a `TimingWheel` over its own time (precision one
 *   step) holding its waiting timers, so a step costs the timers it fires and a constant
 *   per clock, never the timers waiting.
 * - A timer waits (in its clock's wheel, under its due time), is due (taken out by the
 *   running step), is paused (out of the wheel, with the time it had left), or is gone
 *   (fired its last time, or cancelled). `gen`
 *   changes whenever it leaves the wheel or re-enters it, so a firing collected before a
 *   handler cancelled or moved it is recognised and skipped. `seq` is handed out each time
 *   it is armed, from one counter for the whole game.
 *
 * A step. Every clock's wheel advances to the clock's new time and hands over the timers
 * due by then (at or before: `advanceClock`, then `firePastAlarms` for those due exactly
 * then). Each gets the game time it was due at, `stepStart + (due - clockFrom) / rate`,
 * so timers of different clocks compare; they run in that order, ties in `seq` order. A
 * periodic timer re-arms before its handler runs; if its next due time is still within
 * the step it joins the ones to run now, else its wheel. A timer a handler creates runs
 * in a later step at the earliest, so a handler cannot keep a step from ending. Time
 * scales and pauses set by handlers take effect from the next step. If a handler throws,
 * the step completes and the first error is rethrown.
 */
import { TimingWheelError, show } from '../errors.js'
import * as TW from '../timing-wheel/timing-wheel.js'

/**
 * A JSON value: what a timer's payload may be, so that a snapshot can hold it.
 *
 * @example
 * Game.after(game, Game.root, 1000, 'explode', { bomb: 7, at: [3, 4] }) // the payload is a Json
 */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json }

/**
 * Which clock: the root is 0; `addClock` hands out the others.
 *
 * @example
 * const menu: ClockId = Game.addClock(game, Game.root)
 */
export type ClockId = number
/**
 * Which timer: handed out by `after` and `every`, never reused in a game.
 *
 * @example
 * const bomb: TimerId = Game.after(game, Game.root, 3000, 'explode')
 * Game.isActive(game, bomb) // true
 */
export type TimerId = number

/**
 * What a handler is told when its timer fires.
 *
 * @example
 * const handlers: Handlers = {
 *   explode: (e: TimerEvent) => console.log(e.name, e.payload, 'due at', e.time, 'on clock', e.clock),
 * }
 */
export interface TimerEvent {
  /** The game. */
  readonly game: Game
  /** The timer. */
  readonly timer: TimerId
  /** Its clock. */
  readonly clock: ClockId
  /** Its handler's name. */
  readonly name: string
  /** The payload it was made with. */
  readonly payload: Json
  /** The time on the timer's clock it was due at. */
  readonly time: number
  /** How many times it has fired, this time included. */
  readonly fired: number
}

/**
 * Handlers by name: timers name their handler, so that a snapshot can be restored.
 *
 * @example
 * const handlers: Handlers = { spawn: (e) => console.log('spawn', e.fired) }
 * const game = Game.create({ stepMs: 10, handlers })
 */
export type Handlers = Readonly<Record<string, (event: TimerEvent) => void>>

/**
 * Options of {@link create}.
 *
 * @example
 * const options: GameOptions = { stepMs: 1000 / 60, handlers: {}, maxStepsPerUpdate: 3, start: 0 }
 * const game = Game.create(options)
 */
export interface GameOptions {
  /** The fixed step, in ms of game time (1000 / 60 for 60 Hz). */
  readonly stepMs: number
  /** The handlers timers can name. */
  readonly handlers: Handlers
  /** Most steps one `update` runs; the time beyond is dropped and reported. Default 5. */
  readonly maxStepsPerUpdate?: number
  /** The game time at the start; default 0. */
  readonly start?: number
}

/**
 * What `update` did.
 *
 * @example
 * const game = Game.create({ stepMs: 10, handlers: {} })
 * const u: Update = Game.update(game, 25) // { steps: 2, droppedMs: 0, alpha: 0.5 }
 */
export interface Update {
  /** How many fixed steps it ran. */
  readonly steps: number
  /** Real time it dropped rather than run more than `maxStepsPerUpdate` steps. */
  readonly droppedMs: number
  /** How far the time left over is into the next step, in `[0, 1)`: for drawing between steps. */
  readonly alpha: number
}

/** @internal A clock. */
export interface Clock {
  readonly parent: ClockId | undefined
  timeScale: number
  paused: boolean
  time: number
  readonly wheel: TW.TimingWheel<Timer>
  /** Set by each step: where the clock's time was, and its rate, during the step. */
  stepFrom: number
  stepRate: number
}

/** @internal A timer. */
export interface Timer {
  readonly id: TimerId
  readonly clock: ClockId
  readonly name: string
  readonly payload: Json
  readonly firstDelay: number
  readonly period: number | undefined
  readonly times: number | undefined
  left: number
  fired: number
  /** Waiting in its wheel; paused; or due, collected by the running step. */
  state: 'waiting' | 'paused' | 'due'
  due: number
  remaining: number
  seq: number
  gen: number
  alarm: TW.Alarm<Timer>
}

/**
 * A game: see the module comment.
 *
 * @example
 * const game: Game.Game = Game.create({ stepMs: 1000 / 60, handlers: {} })
 */
export interface Game {
  /** @internal */ readonly stepMs: number
  /** @internal */ readonly maxStepsPerUpdate: number
  /** @internal */ readonly start: number
  /** @internal */ readonly handlers: Handlers
  /** @internal */ readonly clocks: Clock[]
  /** @internal */ readonly timers: Map<TimerId, Timer>
  /** @internal */ steps: number
  /** @internal */ accumulator: number
  /** @internal */ seq: number
  /** @internal */ nextTimerId: number
  /** @internal */ stepping: boolean
}

// ---- errors, checked before anything changes ----

const fail = (code: ConstructorParameters<typeof TimingWheelError>[0], message: string): never => {
  throw new TimingWheelError(code, message)
}
const checkNumber = (what: string, x: unknown, ok: (n: number) => boolean, range: string): void => {
  if (typeof x !== 'number' || !ok(x)) fail('TimeOutOfRange', `${what} ${show(x)} is not ${range}`)
}
const finiteAtLeast0 = (n: number): boolean => n >= 0 && n < Infinity
const clockOf = (g: Game, id: unknown, what: string): Clock => {
  const clock = typeof id === 'number' && Number.isInteger(id) ? g.clocks[id] : undefined
  return clock ?? fail('AlarmNotFound', `${what}: ${show(id)} is not a clock of this game (0 to ${g.clocks.length - 1})`)
}
const timerOf = (g: Game, id: unknown, what: string): Timer =>
  (typeof id === 'number' ? g.timers.get(id) : undefined) ??
  fail('AlarmNotFound', `${what}: ${show(id)} is not a timer of this game (it fired its last time, was cancelled, or never was)`)
const checkName = (g: Game, name: unknown, what: string): void => {
  if (typeof name !== 'string' || typeof g.handlers[name] !== 'function') {
    fail('InvalidArgument', `${what}: ${show(name)} names no handler (known: ${Object.keys(g.handlers).join(', ')})`)
  }
}
const notStepping = (g: Game, what: string): void => {
  if (g.stepping) fail('Reentrant', `${what} from inside a timer handler`)
}

// ---- creating ----

const newClock = (g: Game, parent: ClockId | undefined, time: number, timeScale: number, paused: boolean): ClockId => {
  const wheel = TW.create<Timer>({ alarmPrecision: g.stepMs, start: time })
  g.clocks.push({ parent, timeScale, paused, time, wheel, stepFrom: time, stepRate: 0 })
  return g.clocks.length - 1
}

/**
 * A game at time `start`, with its root clock (id 0). Throws `InvalidConfig` for a step
 * that is not a finite number > 0, `InvalidArgument` for handlers that are not functions.
 *
 * @example
 * const game = Game.create({ stepMs: 1000 / 60, handlers: { spawn: () => {} } })
 */
export const create = (options: GameOptions): Game => {
  if (typeof options !== 'object' || options === null) fail('InvalidArgument', `Game.create: options ${show(options)} are not an object`)
  const { stepMs, handlers, maxStepsPerUpdate = 5, start = 0 } = options
  if (typeof stepMs !== 'number' || !(stepMs > 0 && stepMs < Infinity)) fail('InvalidConfig', `Game.create: stepMs ${show(stepMs)} is not a finite number > 0`)
  if (!Number.isInteger(maxStepsPerUpdate) || maxStepsPerUpdate < 1) fail('InvalidConfig', `Game.create: maxStepsPerUpdate ${show(maxStepsPerUpdate)} is not an integer >= 1`)
  checkNumber('Game.create: start', start, (n) => Math.abs(n) < 2 ** 40, 'a number of ms within ±2^40')
  if (typeof handlers !== 'object' || handlers === null) fail('InvalidArgument', `Game.create: handlers ${show(handlers)} are not an object of functions`)
  for (const [name, f] of Object.entries(handlers)) {
    if (typeof f !== 'function') fail('InvalidArgument', `Game.create: handler ${name} is ${show(f)}, not a function`)
  }
  const g: Game = { stepMs, maxStepsPerUpdate, start, handlers, clocks: [], timers: new Map(), steps: 0, accumulator: 0, seq: 0, nextTimerId: 1, stepping: false }
  newClock(g, undefined, start, 1, false)
  return g
}

/**
 * The root clock's id.
 *
 * @example
 * const slowMotion = Game.addClock(game, Game.root, { timeScale: 0.5 })
 */
export const root: ClockId = 0

/**
 * A clock under `parent`, at time 0, running at `timeScale` times its parent (default 1),
 * paused if `paused`. Throws `TimeOutOfRange` for a scale that is not finite and >= 0.
 *
 * @example
 * const gameplay = Game.addClock(game, Game.root)
 * const bullets = Game.addClock(game, gameplay, { timeScale: 0.25 }) // a quarter of gameplay's rate
 * Game.pauseClock(game, gameplay) // bullets' time stops too
 */
export const addClock = (g: Game, parent: ClockId, options: { readonly timeScale?: number; readonly paused?: boolean } = {}): ClockId => {
  clockOf(g, parent, 'addClock')
  const { timeScale = 1, paused = false } = options
  checkNumber('addClock: timeScale', timeScale, finiteAtLeast0, 'a finite number >= 0')
  return newClock(g, parent, 0, timeScale, paused === true)
}

// ---- clocks ----

/**
 * The time on a clock.
 *
 * @example
 * const game = Game.create({ stepMs: 10, handlers: {} })
 * const half = Game.addClock(game, Game.root, { timeScale: 0.5 })
 * Game.update(game, 40)
 * Game.clockTime(game, half) // 20
 */
export const clockTime = (g: Game, clock: ClockId): number => clockOf(g, clock, 'clockTime').time

/**
 * A clock's time scale.
 *
 * @example
 * Game.timeScale(game, Game.addClock(game, Game.root, { timeScale: 2 })) // 2
 */
export const timeScale = (g: Game, clock: ClockId): number => clockOf(g, clock, 'timeScale').timeScale

/**
 * Sets a clock's time scale (0 stops it, 0.5 is slow motion), from the next step on.
 *
 * @example
 * Game.setTimeScale(game, gameplay, 0.5) // slow motion from the next step
 */
export const setTimeScale = (g: Game, clock: ClockId, scale: number): void => {
  const c = clockOf(g, clock, 'setTimeScale')
  checkNumber('setTimeScale: scale', scale, finiteAtLeast0, 'a finite number >= 0')
  c.timeScale = scale
}

/**
 * Pauses a clock and every clock under it, from the next step on.
 *
 * @example
 * Game.pauseClock(game, gameplay)
 * Game.isClockPaused(game, gameplay) // true
 */
export const pauseClock = (g: Game, clock: ClockId): void => {
  clockOf(g, clock, 'pauseClock').paused = true
}

/**
 * Resumes a paused clock (those under it run again unless paused themselves).
 *
 * @example
 * Game.resumeClock(game, gameplay)
 * Game.isClockPaused(game, gameplay) // false
 */
export const resumeClock = (g: Game, clock: ClockId): void => {
  clockOf(g, clock, 'resumeClock').paused = false
}

/**
 * Whether a clock itself is paused (an ancestor may pause it too).
 *
 * @example
 * Game.isClockPaused(game, Game.addClock(game, Game.root, { paused: true })) // true
 */
export const isClockPaused = (g: Game, clock: ClockId): boolean => clockOf(g, clock, 'isClockPaused').paused

// ---- timers ----

const arm = (g: Game, t: Timer, due: number): void => {
  const c = g.clocks[t.clock]!
  t.due = due
  t.state = 'waiting'
  t.seq = g.seq++
  t.gen++
  t.alarm = TW.add(c.wheel, due, t)
}

const disarm = (g: Game, t: Timer): void => {
  if (t.state === 'waiting') TW.remove(g.clocks[t.clock]!.wheel, t.alarm)
  t.gen++
}

const newTimer = (g: Game, clock: ClockId, delay: number, name: string, payload: Json, period: number | undefined, times: number | undefined): TimerId => {
  const c = g.clocks[clock]!
  const t: Timer = {
    id: g.nextTimerId++,
    clock,
    name,
    payload,
    firstDelay: delay,
    period,
    times,
    left: times ?? Infinity,
    fired: 0,
    state: 'waiting',
    due: 0,
    remaining: 0,
    seq: 0,
    gen: 0,
    alarm: TW.nullAlarm(),
  }
  arm(g, t, c.time + delay)
  g.timers.set(t.id, t)
  return t.id
}

const maxDelay = 2 ** 40

/**
 * A timer on `clock` that calls handler `name` with `payload` once, `delayMs` of that
 * clock's time from now. Throws `AlarmNotFound` for an unknown clock, `TimeOutOfRange` for
 * a delay that is not a finite number in [0, 2^40], `InvalidArgument` for an unknown name.
 *
 * @example
 * Game.after(game, Game.root, 3000, 'explode', { bomb: 7 })
 */
export const after = (g: Game, clock: ClockId, delayMs: number, name: string, payload: Json = null): TimerId => {
  clockOf(g, clock, 'after')
  checkNumber('after: delayMs', delayMs, (n) => n >= 0 && n <= maxDelay, 'a number of ms in [0, 2^40]')
  checkName(g, name, 'after')
  return newTimer(g, clock, delayMs, name, payload, undefined, undefined)
}

/**
 * A timer on `clock` that calls handler `name` every `periodMs` of that clock's time,
 * first after `delayMs` (default one period), `times` times in all (default: until
 * cancelled). Its due times are exact multiples of the period from the first: a late
 * step does not make it drift. Throws as {@link after}; a period must be > 0.
 *
 * @example
 * Game.every(game, Game.root, 2000, 'spawn', null, { times: 5 })
 */
export const every = (
  g: Game,
  clock: ClockId,
  periodMs: number,
  name: string,
  payload: Json = null,
  options: { readonly delayMs?: number; readonly times?: number } = {},
): TimerId => {
  clockOf(g, clock, 'every')
  checkNumber('every: periodMs', periodMs, (n) => n > 0 && n <= maxDelay, 'a number of ms in (0, 2^40]')
  const { delayMs = periodMs, times } = options
  checkNumber('every: delayMs', delayMs, (n) => n >= 0 && n <= maxDelay, 'a number of ms in [0, 2^40]')
  if (times !== undefined) checkNumber('every: times', times, (n) => Number.isInteger(n) && n >= 1, 'an integer >= 1')
  checkName(g, name, 'every')
  return newTimer(g, clock, delayMs, name, payload, periodMs, times)
}

/**
 * Cancels a timer: it never fires again and its id is gone. Constant time.
 *
 * @example
 * const bomb = Game.after(game, Game.root, 3000, 'explode')
 * Game.cancel(game, bomb)
 * Game.isActive(game, bomb) // false
 */
export const cancel = (g: Game, timer: TimerId): void => {
  const t = timerOf(g, timer, 'cancel')
  disarm(g, t)
  g.timers.delete(t.id)
}

/**
 * Pauses a timer, keeping the time it has left; a no-op if paused. Constant time.
 *
 * @example
 * const bomb = Game.after(game, Game.root, 3000, 'explode')
 * Game.pause(game, bomb)
 * Game.isPaused(game, bomb) // true
 */
export const pause = (g: Game, timer: TimerId): void => {
  const t = timerOf(g, timer, 'pause')
  if (t.state === 'paused') return
  t.remaining = Math.max(0, t.due - g.clocks[t.clock]!.time)
  disarm(g, t)
  t.state = 'paused'
}

/**
 * Resumes a paused timer with the time it had left; a no-op if waiting. Constant time.
 *
 * @example
 * Game.resume(game, bomb) // fires after the time it had left when paused
 */
export const resume = (g: Game, timer: TimerId): void => {
  const t = timerOf(g, timer, 'resume')
  if (t.state !== 'paused') return
  arm(g, t, g.clocks[t.clock]!.time + t.remaining)
}

/**
 * Starts a timer over: its first delay from now, its count from zero, waiting. Constant time.
 *
 * @example
 * Game.reset(game, bomb) // 3000 ms from now again
 */
export const reset = (g: Game, timer: TimerId): void => {
  const t = timerOf(g, timer, 'reset')
  disarm(g, t)
  t.fired = 0
  t.left = t.times ?? Infinity
  arm(g, t, g.clocks[t.clock]!.time + t.firstDelay)
}

/**
 * Time on its clock until a timer fires next (what it has left, if paused).
 *
 * @example
 * const game = Game.create({ stepMs: 10, handlers: { explode: () => {} } })
 * const bomb = Game.after(game, Game.root, 3000, 'explode')
 * Game.update(game, 20)
 * Game.remaining(game, bomb) // 2980
 */
export const remaining = (g: Game, timer: TimerId): number => {
  const t = timerOf(g, timer, 'remaining')
  return t.state === 'paused' ? t.remaining : Math.max(0, t.due - g.clocks[t.clock]!.time)
}

/**
 * How many times a timer has fired since it was made or reset.
 *
 * @example
 * const game = Game.create({ stepMs: 10, handlers: { tick: () => {} } })
 * const tick = Game.every(game, Game.root, 20, 'tick')
 * Game.update(game, 50)
 * Game.timesFired(game, tick) // 2
 */
export const timesFired = (g: Game, timer: TimerId): number => timerOf(g, timer, 'timesFired').fired

/**
 * Whether a timer is paused.
 *
 * @example
 * Game.isPaused(game, Game.after(game, Game.root, 100, 'explode')) // false
 */
export const isPaused = (g: Game, timer: TimerId): boolean => timerOf(g, timer, 'isPaused').state === 'paused'

/**
 * Whether `timer` is a timer of this game still: waiting or paused.
 *
 * @example
 * const bomb = Game.after(game, Game.root, 10, 'explode')
 * Game.update(game, 20)
 * Game.isActive(game, bomb) // false: it fired its only time
 */
export const isActive = (g: Game, timer: TimerId): boolean => g.timers.has(timer)

/**
 * How many timers wait or are paused.
 *
 * @example
 * Game.after(game, Game.root, 100, 'explode')
 * Game.timerCount(game) // 1 in a new game
 */
export const timerCount = (g: Game): number => g.timers.size

// ---- stepping ----

/** A firing collected in a step: the game time it was due at, then `seq`. */
interface Due {
  readonly at: number
  readonly seq: number
  readonly gen: number
  readonly timer: Timer
}

const before = (a: Due, b: Due): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq)

/** A binary heap of the step's firings: the step costs what it fires, times a log. */
const push = (heap: Due[], d: Due): void => {
  let i = heap.push(d) - 1
  while (i > 0) {
    const p = (i - 1) >> 1
    if (!before(heap[i]!, heap[p]!)) break
    ;[heap[i], heap[p]] = [heap[p]!, heap[i]!]
    i = p
  }
}
const pop = (heap: Due[]): Due => {
  const top = heap[0]!
  const last = heap.pop()!
  if (heap.length > 0) {
    heap[0] = last
    for (let i = 0; ; ) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r
      if (m === i) break
      ;[heap[i], heap[m]] = [heap[m]!, heap[i]!]
      i = m
    }
  }
  return top
}

/** The game time a step starting at `stepStart` reaches local time `due` of clock `c`. */
const gameTimeOf = (c: Clock, stepStart: number, due: number): number => stepStart + (due - c.stepFrom) / c.stepRate

/**
 * Runs one fixed step: see the module comment. Throws `Reentrant` from a handler.
 *
 * @example
 * const game = Game.create({ stepMs: 10, handlers: {} })
 * Game.step(game)
 * Game.now(game) // 10
 */
export const step = (g: Game): void => {
  notStepping(g, 'step')
  g.stepping = true
  const stepStart = now(g)
  g.steps++
  const heap: Due[] = []
  for (const c of g.clocks) {
    const parentRate = c.parent === undefined ? 1 : g.clocks[c.parent]!.stepRate
    c.stepFrom = c.time
    c.stepRate = c.paused ? 0 : parentRate * c.timeScale
    if (c.stepRate === 0) continue
    c.time += g.stepMs * c.stepRate
    const collect = (alarm: TW.Alarm<Timer>): void => {
      const t = TW.alarmValue(c.wheel, alarm)
      t.state = 'due'
      push(heap, { at: gameTimeOf(c, stepStart, t.due), seq: t.seq, gen: t.gen, timer: t })
    }
    TW.advanceClock(c.wheel, c.time, collect)
    TW.firePastAlarms(c.wheel, collect)
  }
  let error: { e: unknown } | undefined
  try {
    while (heap.length > 0) {
      const d = pop(heap)
      const t = d.timer
      if (t.gen !== d.gen || !g.timers.has(t.id)) continue
      const c = g.clocks[t.clock]!
      const time = t.due
      t.fired++
      t.left--
      if (t.period !== undefined && t.left > 0) {
        t.due += t.period
        t.seq = g.seq++
        t.gen++
        if (t.due <= c.time && c.stepRate > 0) {
          push(heap, { at: gameTimeOf(c, stepStart, t.due), seq: t.seq, gen: t.gen, timer: t })
        } else {
          t.state = 'waiting'
          t.alarm = TW.add(c.wheel, t.due, t)
        }
      } else {
        g.timers.delete(t.id)
      }
      try {
        g.handlers[t.name]!({ game: g, timer: t.id, clock: t.clock, name: t.name, payload: t.payload, time, fired: t.fired })
      } catch (e) {
        error ??= { e }
      }
    }
  } finally {
    // A periodic timer still due within the step when a handler threw stays waiting.
    for (const d of heap) if (d.gen === d.timer.gen && g.timers.has(d.timer.id)) settle(g, d.timer)
    g.stepping = false
  }
  if (error !== undefined) throw error.e
}

const settle = (g: Game, t: Timer): void => {
  const c = g.clocks[t.clock]!
  t.state = 'waiting'
  t.alarm = TW.add(c.wheel, Math.max(t.due, c.time), t)
}

/**
 * Feeds `realMs` of real time to the fixed-step driver: runs as many steps as have
 * accumulated, at most `maxStepsPerUpdate` (dropping the time beyond, and reporting it),
 * and returns how far the remainder is into the next step, for drawing between steps.
 * Throws `TimeOutOfRange` for a time that is not a finite number >= 0.
 *
 * @example
 * let last = performance.now()
 * const frame = (t: number): void => {
 *   const { alpha } = Game.update(game, t - last)
 *   last = t
 *   draw(alpha)
 *   requestAnimationFrame(frame)
 * }
 */
export const update = (g: Game, realMs: number): Update => {
  notStepping(g, 'update')
  checkNumber('update: realMs', realMs, finiteAtLeast0, 'a finite number of ms >= 0')
  g.accumulator += realMs
  let due = Math.floor(g.accumulator / g.stepMs)
  let droppedMs = 0
  if (due > g.maxStepsPerUpdate) {
    droppedMs = (due - g.maxStepsPerUpdate) * g.stepMs
    g.accumulator -= droppedMs
    due = g.maxStepsPerUpdate
  }
  for (let i = 0; i < due; i++) {
    g.accumulator -= g.stepMs
    step(g)
  }
  return { steps: due, droppedMs, alpha: Math.min(Math.max(g.accumulator / g.stepMs, 0), 1 - Number.EPSILON) }
}

/**
 * The game time: `start + steps * stepMs`.
 *
 * @example
 * const game = Game.create({ stepMs: 10, handlers: {}, start: 100 })
 * Game.update(game, 30)
 * Game.now(game) // 130
 */
export const now = (g: Game): number => g.start + g.steps * g.stepMs

/**
 * How many steps have run.
 *
 * @example
 * Game.update(game, 30)
 * Game.steps(game) // 3 in a new game of 10 ms steps
 */
export const steps = (g: Game): number => g.steps

/**
 * The fixed step.
 *
 * @example
 * Game.stepMs(Game.create({ stepMs: 10, handlers: {} })) // 10
 */
export const stepMs = (g: Game): number => g.stepMs

/**
 * Checks the representation; throws on a violation. For tests.
 *
 * @example
 * Game.update(game, 1000 / 60)
 * Game.invariant(game) // throws only if the game's clocks and timers disagree
 */
export const invariant = (g: Game): void => {
  const check = (ok: boolean, what: string): void => {
    if (!ok) throw new Error(`Game invariant: ${what}`)
  }
  g.clocks.forEach((c, id) => {
    check(c.parent === undefined ? id === 0 : c.parent < id, `clock ${id}'s parent comes first`)
    check(TW.now(c.wheel) === c.time, `clock ${id}'s wheel is at its time`)
    TW.invariant(c.wheel)
  })
  let waiting = 0
  for (const t of g.timers.values()) {
    const c = g.clocks[t.clock]!
    if (t.state === 'waiting') {
      waiting++
      check(TW.mem(c.wheel, t.alarm) && TW.alarmValue(c.wheel, t.alarm) === t, `timer ${t.id} is in its clock's wheel`)
      check(t.due >= c.time, `timer ${t.id} is not overdue`)
    }
  }
  check(waiting === g.clocks.reduce((n, c) => n + TW.length(c.wheel), 0), 'the wheels hold the waiting timers and nothing else')
}
