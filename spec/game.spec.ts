/**
 * `timing-wheel/game`: example tests of every function; a model-based test against a
 * per-step scan of one list (spec/support/game-model.ts) with pauses, time scales,
 * repeats and handlers that cancel, pause, reset and create timers; snapshot round trips
 * as a property; and bad input refused before anything changes. That a step costs what it
 * fires, not what waits, is the bench's game row.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Game, type Handlers, type TimerEvent } from '../lib/game/index.js'
import { ModelGame } from './support/game-model.js'
import { expectCode } from './support/expect-error.js'

const logging = (log: string[]): Handlers => ({
  say: (e: TimerEvent) => log.push(`${String(e.payload)}@${Game.now(e.game)} t=${e.time} #${e.fired}`),
})

describe('the game, function by function', () => {
  it('create, step, now, steps, stepMs; after fires once, at the step its due time falls in', () => {
    const log: string[] = []
    const game = Game.create({ stepMs: 10, handlers: logging(log), start: 100 })
    const a = Game.after(game, Game.root, 25, 'say', 'a')
    expect(Game.isActive(game, a)).toBe(true)
    Game.step(game)
    Game.step(game)
    expect(log).toEqual([])
    Game.step(game)
    expect(log).toEqual(['a@130 t=125 #1'])
    expect([Game.now(game), Game.steps(game), Game.stepMs(game), Game.isActive(game, a)]).toEqual([130, 3, 10, false])
    Game.invariant(game)
  })

  it('every fires each period without drift, `times` times, several times in a step if the period is shorter', () => {
    const log: string[] = []
    const game = Game.create({ stepMs: 10, handlers: logging(log) })
    Game.every(game, Game.root, 4, 'say', 'p', { times: 4, delayMs: 1 })
    Game.step(game)
    Game.step(game)
    expect(log).toEqual(['p@10 t=1 #1', 'p@10 t=5 #2', 'p@10 t=9 #3', 'p@20 t=13 #4'])
    expect(Game.timerCount(game)).toBe(0)
  })

  it('update runs the steps that have accumulated, caps them, and gives the fraction left', () => {
    const game = Game.create({ stepMs: 10, handlers: {}, maxStepsPerUpdate: 3 })
    expect(Game.update(game, 25)).toEqual({ steps: 2, droppedMs: 0, alpha: 0.5 })
    expect(Game.update(game, 100)).toEqual({ steps: 3, droppedMs: 70, alpha: 0.5 })
    expect(Game.now(game)).toBe(50)
  })

  it('pause, resume, remaining, timesFired, isPaused, reset, cancel', () => {
    const log: string[] = []
    const game = Game.create({ stepMs: 10, handlers: logging(log) })
    const t = Game.every(game, Game.root, 30, 'say', 't')
    Game.update(game, 40)
    expect([Game.timesFired(game, t), Game.remaining(game, t)]).toEqual([1, 20])
    Game.pause(game, t)
    expect(Game.isPaused(game, t)).toBe(true)
    Game.update(game, 100)
    expect(Game.remaining(game, t)).toBe(20)
    Game.resume(game, t)
    Game.update(game, 20)
    expect(log).toEqual(['t@30 t=30 #1', 't@110 t=110 #2']) // update(100) ran 5 steps, the most it may
    Game.reset(game, t)
    expect([Game.timesFired(game, t), Game.remaining(game, t)]).toEqual([0, 30])
    Game.cancel(game, t)
    expect(Game.isActive(game, t)).toBe(false)
    expectCode('AlarmNotFound', () => Game.remaining(game, t))
  })

  it('child clocks: time scale, pause, nesting; timers follow their clock’s time', () => {
    const log: string[] = []
    const game = Game.create({ stepMs: 10, handlers: logging(log) })
    const world = Game.addClock(game, Game.root)
    const slow = Game.addClock(game, world, { timeScale: 0.5 })
    const menu = Game.addClock(game, Game.root, { paused: true })
    Game.after(game, slow, 20, 'say', 'slow')
    Game.after(game, menu, 10, 'say', 'menu')
    Game.update(game, 30)
    expect([Game.clockTime(game, world), Game.clockTime(game, slow), Game.clockTime(game, menu)]).toEqual([30, 15, 0])
    Game.pauseClock(game, world)
    Game.resumeClock(game, menu)
    expect([Game.isClockPaused(game, world), Game.timeScale(game, slow)]).toEqual([true, 0.5])
    Game.update(game, 30)
    expect(log).toEqual(['menu@40 t=10 #1'])
    Game.resumeClock(game, world)
    Game.setTimeScale(game, slow, 2)
    Game.update(game, 10)
    expect(log).toEqual(['menu@40 t=10 #1', 'slow@70 t=20 #1'])
  })

  it('timers due in the same step fire in game-time order across clocks, ties in the order scheduled', () => {
    const log: string[] = []
    const game = Game.create({ stepMs: 100, handlers: logging(log) })
    const fast = Game.addClock(game, Game.root, { timeScale: 4 })
    Game.after(game, Game.root, 60, 'say', 'root60')
    Game.after(game, fast, 120, 'say', 'fast120') // game time 30
    Game.after(game, Game.root, 30, 'say', 'root30')
    Game.step(game)
    expect(log.map((l) => l.split('@')[0])).toEqual(['fast120', 'root30', 'root60'])
  })

  it('a handler error completes the step and is rethrown; moving from a handler is Reentrant', () => {
    const seen: string[] = []
    const game = Game.create({
      stepMs: 10,
      handlers: {
        boom: () => {
          throw new Error('boom')
        },
        after: () => seen.push('after'),
        reenter: (e) => seen.push(expectCode('Reentrant', () => Game.step(e.game))),
      },
    })
    Game.after(game, Game.root, 1, 'boom')
    Game.after(game, Game.root, 2, 'after')
    Game.after(game, Game.root, 3, 'reenter')
    expect(() => Game.step(game)).toThrow('boom')
    expect(seen[0]).toBe('after')
    expect(seen[1]).toContain('step from inside a timer handler')
    Game.invariant(game)
  })

  it('snapshot and restore: the restored game runs as the original', () => {
    const log: string[] = []
    const game = Game.create({ stepMs: 10, handlers: logging(log) })
    const slow = Game.addClock(game, Game.root, { timeScale: 0.25 })
    Game.every(game, slow, 5, 'say', 's', { times: 3 })
    const p = Game.after(game, Game.root, 50, 'say', 'paused')
    Game.pause(game, p)
    Game.update(game, 35)
    const copyLog: string[] = []
    const copy = Game.restore(JSON.parse(JSON.stringify(Game.snapshot(game))), logging(copyLog))
    expect(E.isRight(copy)).toBe(true)
    if (E.isLeft(copy)) return
    const before = log.length
    for (const g of [game, copy.right]) {
      Game.resume(g, p)
      Game.update(g, 200)
    }
    expect(copyLog).toEqual(log.slice(before))
    expect(Game.snapshot(copy.right)).toEqual(Game.snapshot(game))
    Game.invariant(copy.right)
  })
})

describe('bad input', () => {
  it('is refused with a coded error, naming the value, and changes nothing', () => {
    const game = Game.create({ stepMs: 10, handlers: { h: () => {} } })
    const t = Game.after(game, Game.root, 5, 'h')
    const before = JSON.stringify(Game.snapshot(game))
    for (const [code, f] of [
      ['InvalidConfig', () => Game.create({ stepMs: 0, handlers: {} })],
      ['InvalidConfig', () => Game.create({ stepMs: Number.NaN, handlers: {} })],
      ['InvalidArgument', () => Game.create({ stepMs: 1, handlers: { h: 5 as never } })],
      ['InvalidArgument', () => Game.create(null as never)],
      ['TimeOutOfRange', () => Game.after(game, Game.root, -1, 'h')],
      ['TimeOutOfRange', () => Game.after(game, Game.root, '5' as never, 'h')],
      ['TimeOutOfRange', () => Game.every(game, Game.root, 0, 'h')],
      ['TimeOutOfRange', () => Game.every(game, Game.root, 5, 'h', null, { times: 1.5 })],
      ['InvalidArgument', () => Game.after(game, Game.root, 5, 'nope')],
      ['AlarmNotFound', () => Game.after(game, 7, 5, 'h')],
      ['AlarmNotFound', () => Game.cancel(game, t + 0.5)],
      ['AlarmNotFound', () => Game.pause(game, 99)],
      ['TimeOutOfRange', () => Game.setTimeScale(game, Game.root, -1)],
      ['TimeOutOfRange', () => Game.setTimeScale(game, Game.root, Infinity)],
      ['TimeOutOfRange', () => Game.update(game, Number.NaN)],
      ['TimeOutOfRange', () => Game.addClock(game, Game.root, { timeScale: Number.NaN })],
    ] as const) {
      expectCode(code, f)
    }
    expect(JSON.stringify(Game.snapshot(game))).toBe(before)
  })

  it('a snapshot from outside is a Left when it is wrong, never a throw', () => {
    const good = Game.snapshot(Game.create({ stepMs: 10, handlers: { h: () => {} } }))
    const bad: unknown[] = [
      null,
      { ...good, version: 2 },
      { ...good, extra: 1 },
      { ...good, clocks: [] },
      { ...good, clocks: [...good.clocks, { parent: 5, timeScale: 1, paused: false, time: 0 }] },
      { ...good, timers: [{ id: 1, clock: 3, name: 'h', payload: null, firstDelay: 1, period: null, left: 1, times: null, fired: 0, state: 'waiting', due: 1, remaining: 0, seq: 0 }] },
    ]
    for (const u of bad) {
      const r = Game.restore(u, { h: () => {} })
      expect(E.isLeft(r)).toBe(true)
    }
    fc.assert(fc.property(fc.anything(), (u) => E.isLeft(Game.restore(u, {}))))
  })
})

// ---- the model-based test ----

type Action = 'log' | 'cancel' | 'pause' | 'reset' | 'spawn' | 'slow' | 'stop'

/** What both systems offer, driven alike. */
interface Sys {
  readonly log: string[]
  readonly call: (f: string, ...args: number[]) => unknown
}

const actionHandlers = (log: string[], sys: () => Sys): Record<Action, (e: Omit<TimerEvent, 'game'>) => void> => {
  const record = (e: Omit<TimerEvent, 'game'>): void => void log.push(`${e.timer}:${e.name}@${String(sys().call('now'))} t=${e.time} #${e.fired}`)
  const target = (e: Omit<TimerEvent, 'game'>): number => Number(e.payload)
  const onLive = (e: Omit<TimerEvent, 'game'>, f: string): void => {
    if (sys().call('isActive', target(e))) sys().call(f, target(e))
  }
  return {
    log: record,
    cancel: (e) => (record(e), onLive(e, 'cancel')),
    pause: (e) => (record(e), onLive(e, 'pause')),
    reset: (e) => (record(e), onLive(e, 'reset')),
    spawn: (e) => (record(e), sys().call('after', e.clock, Number(e.payload))),
    slow: (e) => (record(e), sys().call('setTimeScale', e.clock % 2, 0.5)),
    stop: (e) => (record(e), sys().call('pauseClock', Number(e.payload))),
  }
}

const real = (stepMs: number): Sys => {
  const log: string[] = []
  let sys: Sys
  const handlers = actionHandlers(log, () => sys) as unknown as Handlers
  const g = Game.create({ stepMs, handlers, maxStepsPerUpdate: 4 })
  let clockCount = 1
  const clocks = (): number => clockCount
  sys = {
    log,
    call: (f, ...a) => {
      switch (f) {
        case 'now': return Game.now(g)
        case 'isActive': return Game.isActive(g, a[0]!)
        case 'cancel': return Game.cancel(g, a[0]!)
        case 'pause': return Game.pause(g, a[0]!)
        case 'resume': return Game.resume(g, a[0]!)
        case 'reset': return Game.reset(g, a[0]!)
        case 'after': return Game.after(g, a[0]!, a[1]!, a[2] === undefined ? 'log' : (['log', 'cancel', 'pause', 'reset', 'spawn', 'slow', 'stop'] as const)[a[2]]!, a[3] ?? 7)
        case 'every': return Game.every(g, a[0]!, a[1]!, (['log', 'cancel', 'pause', 'reset', 'spawn', 'slow', 'stop'] as const)[a[2]!]!, a[3]!, { delayMs: a[4]!, ...(a[5]! > 0 ? { times: a[5]! } : {}) })
        case 'setTimeScale': return a[0]! < clocks() ? Game.setTimeScale(g, a[0]!, a[1]!) : undefined
        case 'pauseClock': return a[0]! < clocks() ? Game.pauseClock(g, a[0]!) : undefined
        case 'resumeClock': return Game.resumeClock(g, a[0]!)
        case 'addClock':
          clockCount++
          return Game.addClock(g, a[0]!, { timeScale: a[1]!, paused: a[2] === 1 })
        case 'update': return JSON.stringify(Game.update(g, a[0]!))
        case 'state': {
          Game.invariant(g)
          const s = Game.snapshot(g)
          return JSON.stringify([s.clocks.map((c) => [c.time, c.paused, c.timeScale]), s.timers.map((t) => [t.id, Game.remaining(g, t.id), t.fired, t.state]).sort((x, y) => Number(x[0]) - Number(y[0]))])
        }
        default: throw new Error(f)
      }
    },
  }
  return sys
}

const model = (stepMs: number): Sys => {
  const log: string[] = []
  let sys: Sys
  const m = new ModelGame(stepMs, 4, actionHandlers(log, () => sys))
  const names = ['log', 'cancel', 'pause', 'reset', 'spawn', 'slow', 'stop'] as const
  sys = {
    log,
    call: (f, ...a) => {
      switch (f) {
        case 'now': return m.now()
        case 'isActive': return m.find(a[0]!) !== undefined
        case 'cancel': return m.cancel(a[0]!)
        case 'pause': return m.pause(a[0]!)
        case 'resume': return m.resume(a[0]!)
        case 'reset': return m.reset(a[0]!)
        case 'after': return m.after(a[0]!, a[1]!, a[2] === undefined ? 'log' : names[a[2]]!, a[3] ?? 7)
        case 'every': return m.every(a[0]!, a[1]!, names[a[2]!]!, a[3]!, a[4]!, a[5]! > 0 ? a[5]! : undefined)
        case 'setTimeScale': return a[0]! < m.clocks.length ? void (m.clocks[a[0]!]!.timeScale = a[1]!) : undefined
        case 'pauseClock': return a[0]! < m.clocks.length ? void (m.clocks[a[0]!]!.paused = true) : undefined
        case 'resumeClock': return void (m.clocks[a[0]!]!.paused = false)
        case 'addClock': return m.addClock(a[0]!, a[1]!, a[2] === 1)
        case 'update': return JSON.stringify(m.update(a[0]!))
        case 'state':
          return JSON.stringify([
            m.clocks.map((c) => [c.time, c.paused, c.timeScale]),
            m.timers.map((t) => [t.id, m.remaining(t.id), t.fired, t.state === 'paused' ? 'paused' : 'waiting']).sort((x, y) => Number(x[0]) - Number(y[0])),
          ])
        default: throw new Error(f)
      }
    },
  }
  return sys
}

interface Pair {
  readonly model: Sys
  readonly real: Sys
  clocks: number
  timers: number
}

const both = (name: string, f: (s: Sys, p: Pair) => unknown, after?: (p: Pair, out: unknown) => void): fc.Command<Pair, Pair> => ({
  check: () => true,
  run: (p) => {
    const outcome = (s: Sys): unknown => {
      try {
        return f(s, p)
      } catch (e) {
        return `threw ${(e as Error).message}`
      }
    }
    const m = outcome(p.model)
    const r = outcome(p.real)
    expect(r).toEqual(m)
    expect(p.real.log).toEqual(p.model.log)
    expect(p.real.call('state')).toEqual(p.model.call('state'))
    after?.(p, r)
  },
  toString: () => name,
})

const gameCommands = fc.commands(
  [
    fc.tuple(fc.nat(), fc.constantFrom(0, 0.5, 1, 2, 3), fc.constantFrom(0, 1)).map(([parent, scale, paused]) =>
      both(`addClock(${parent}, ${scale}, ${paused})`, (s, p) => s.call('addClock', parent % p.clocks, scale, paused), (p) => void p.clocks++),
    ),
    fc.tuple(fc.nat(), fc.integer({ min: 0, max: 60 }), fc.nat({ max: 6 }), fc.nat({ max: 8 })).map(([clock, delay, action, target]) =>
      both(`after(${clock}, ${delay}, ${action}, ${target})`, (s, p) => s.call('after', clock % p.clocks, delay, action, target + 1), (p) => void p.timers++),
    ),
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 40 }), fc.nat({ max: 6 }), fc.nat({ max: 8 }), fc.integer({ min: 0, max: 40 }), fc.nat({ max: 4 })).map(
      ([clock, period, action, target, delay, times]) =>
        both(`every(${clock}, ${period}, ${action}, ${target}, ${delay}, ${times})`, (s, p) => s.call('every', clock % p.clocks, period, action, target + 1, delay, times), (p) => void p.timers++),
    ),
    fc.tuple(fc.constantFrom('cancel', 'pause', 'resume', 'reset'), fc.nat()).map(([f, i]) =>
      both(`${f}(${i})`, (s, p) => (p.timers > 0 && s.call('isActive', (i % p.timers) + 1) ? s.call(f, (i % p.timers) + 1) : undefined)),
    ),
    fc.tuple(fc.constantFrom('setTimeScale', 'pauseClock', 'resumeClock'), fc.nat(), fc.constantFrom(0, 0.5, 1, 2)).map(([f, c, x]) =>
      both(`${f}(${c}, ${x})`, (s, p) => s.call(f, c % p.clocks, x)),
    ),
    fc.integer({ min: 0, max: 45 }).map((ms) => both(`update(${ms})`, (s) => s.call('update', ms))),
  ],
  { size: '+1' },
)

describe('against a per-step scan of every timer (model-based)', () => {
  it('agrees on every firing, its order and time, every count, remaining time and clock', () => {
    fc.assert(
      fc.property(fc.constantFrom(10, 1000 / 60), gameCommands, (stepMs, commands) => {
        const pair: Pair = { model: model(stepMs), real: real(stepMs), clocks: 1, timers: 0 }
        fc.modelRun(() => ({ model: pair, real: pair }), commands)
      }),
      { numRuns: 300 },
    )
  })
})

describe('snapshots (property)', () => {
  type Op =
    | { readonly kind: 'clock'; readonly parent: number; readonly scale: number }
    | { readonly kind: 'after'; readonly clock: number; readonly delay: number; readonly spawn: number }
    | { readonly kind: 'every'; readonly clock: number; readonly period: number; readonly times: number }
    | { readonly kind: 'pause' | 'resume' | 'cancel'; readonly timer: number }
    | { readonly kind: 'update'; readonly ms: number }
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('clock' as const), parent: fc.nat(), scale: fc.constantFrom(0, 0.25, 1, 3) }),
    fc.record({ kind: fc.constant('after' as const), clock: fc.nat(), delay: fc.integer({ min: 0, max: 80 }), spawn: fc.integer({ min: 0, max: 30 }) }),
    fc.record({ kind: fc.constant('every' as const), clock: fc.nat(), period: fc.integer({ min: 1, max: 30 }), times: fc.integer({ min: 1, max: 5 }) }),
    fc.record({ kind: fc.constantFrom('pause' as const, 'resume' as const, 'cancel' as const), timer: fc.nat() }),
    fc.record({ kind: fc.constant('update' as const), ms: fc.integer({ min: 0, max: 45 }) }),
  )

  it('a game restored from its JSON at any point runs on as the original', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.array(op, { maxLength: 40 }), (before, after) => {
        const log: string[] = []
        const handlers: Handlers = {
          log: (e) => void log.push(`${e.timer}@${Game.now(e.game)} t=${e.time} #${e.fired}`),
          spawn: (e) => {
            log.push(`${e.timer} spawns@${Game.now(e.game)}`)
            Game.after(e.game, e.clock, Number(e.payload), 'log')
          },
        }
        const apply = (g: Game.Game, o: Op): void => {
          const clocks = Game.snapshot(g).clocks.length
          const timer = (i: number): number => (i % Math.max(1, Game.snapshot(g).nextTimerId - 1)) + 1
          switch (o.kind) {
            case 'clock': return void Game.addClock(g, o.parent % clocks, { timeScale: o.scale })
            case 'after': return void Game.after(g, o.clock % clocks, o.delay, 'spawn', o.spawn)
            case 'every': return void Game.every(g, o.clock % clocks, o.period, 'log', null, { times: o.times })
            case 'update': return void Game.update(g, o.ms)
            default:
              if (Game.isActive(g, timer(o.timer))) Game[o.kind](g, timer(o.timer))
          }
        }
        const g = Game.create({ stepMs: 10, handlers })
        for (const o of before) apply(g, o)
        const copy = Game.restore(JSON.parse(JSON.stringify(Game.snapshot(g))), handlers)
        expect(E.isRight(copy)).toBe(true)
        if (E.isLeft(copy)) return
        Game.invariant(copy.right)
        const from = log.length
        for (const o of after) apply(g, o)
        const original = log.splice(from)
        for (const o of after) apply(copy.right, o)
        expect(log.splice(from)).toEqual(original)
        expect(Game.snapshot(copy.right)).toEqual(Game.snapshot(g))
      }),
      { numRuns: 300 },
    )
  })
})
