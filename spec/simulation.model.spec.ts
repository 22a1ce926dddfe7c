/**
 * `timing-wheel/simulation` against plain models:
 *
 * - fc.commands over sends, clock moves, link latencies, partitions, holds, crashes,
 *   restarts, pauses and resumes, checked after every command against a model that is a sorted list of
 *   pending arrivals: the log (order, times, outcomes, reasons) and what is in flight.
 * - Latency bounds, FIFO links and accounting under random latency ranges, loss,
 *   duplication and reordering.
 * - The same seed and program give the same delivery log, over random programs with
 *   replies, host timers, crashes, pauses, skews and faulty links.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Simulation as S } from '../lib/simulation/index.js'
import type { Host, MessageEntry, SimulationT } from '../lib/simulation/index.js'

const names = ['a', 'b', 'c'] as const
type Name = (typeof names)[number]
const nameArb = fc.constantFrom(...names)

interface Msg {
  readonly id: number
  readonly from: Name
  readonly to: Name
  readonly fromInc: number
  readonly toInc: number
  readonly sentAt: number
}
type Entry = readonly [id: number, from: string, to: string, sentAt: number, at: number, outcome: string, reason: string]

/** The plain model: links as maps, arrivals as a list sorted by (time, order set). */
class Model {
  now = 0
  sent = 0
  order = 0
  readonly latency = new Map<string, number>()
  readonly partitioned = new Set<string>()
  readonly held = new Map<string, Msg[]>()
  readonly fifoAt = new Map<string, number>()
  readonly up = new Map<Name, boolean>(names.map((n) => [n, true]))
  readonly inc = new Map<Name, number>(names.map((n) => [n, 0]))
  /** What reached a paused host, in order, by host. */
  readonly stalled = new Map<Name, Msg[]>()
  pending: Array<{ at: number; order: number; m: Msg }> = []
  readonly log: Entry[] = []

  static key = (from: Name, to: Name): string => `${from}>${to}`
  links = (a: Name, b: Name, oneWay: boolean): string[] => (oneWay || a === b ? [Model.key(a, b)] : [Model.key(a, b), Model.key(b, a)])
  record = (m: Msg, outcome: string, reason = ''): void => {
    this.log.push([m.id, m.from, m.to, m.sentAt, this.now, outcome, reason])
  }
  enqueue = (m: Msg, at: number): void => {
    this.pending.push({ at, order: this.order++, m })
  }
  send(from: Name, to: Name): void {
    const m: Msg = { id: ++this.sent, from, to, fromInc: this.inc.get(from)!, toInc: this.inc.get(to)!, sentAt: this.now }
    if (!this.up.get(from)) return this.record(m, 'dropped', 'stale')
    const key = Model.key(from, to)
    if (this.partitioned.has(key)) return this.record(m, 'dropped', 'partition')
    const at = Math.max(this.now + (this.latency.get(key) ?? 1), this.fifoAt.get(key) ?? -Infinity)
    this.fifoAt.set(key, at)
    this.enqueue(m, at)
  }
  advance(ms: number): void {
    const end = this.now + ms
    for (;;) {
      this.pending.sort((x, y) => x.at - y.at || x.order - y.order)
      const next = this.pending[0]
      if (next === undefined || next.at > end) break
      this.pending.shift()
      this.now = next.at
      const { m } = next
      const key = Model.key(m.from, m.to)
      if (this.partitioned.has(key)) this.record(m, 'dropped', 'partition')
      else if (this.inc.get(m.from) !== m.fromInc || this.inc.get(m.to) !== m.toInc || !this.up.get(m.to)) this.record(m, 'dropped', 'crash')
      else if (this.held.has(key)) this.held.get(key)!.push(m)
      else if (this.stalled.has(m.to)) this.stalled.get(m.to)!.push(m)
      else this.record(m, 'delivered')
    }
    this.now = end
  }
  /**
   * Puts messages that reached their links back on them now (release, resume). Each gets an
   * arrival now, but a link stays FIFO: its arrivals, in their order, carry its messages
   * oldest first, those put back ahead of those still on the wire. A message sent over a
   * 0 ms link before the release is due now too, and arrives after them.
   */
  putBack(ms: readonly Msg[]): void {
    for (const m of ms) this.enqueue(m, this.now)
    const keyOf = (m: Msg): string => Model.key(m.from, m.to)
    for (const key of new Set(ms.map(keyOf))) {
      const back = ms.filter((m) => keyOf(m) === key)
      const arrivals = this.pending.filter((p) => keyOf(p.m) === key).sort((x, y) => x.at - y.at || x.order - y.order)
      const wire = arrivals.map((p) => p.m).filter((m) => !back.includes(m))
      ;[...back, ...wire].forEach((m, i) => (arrivals[i]!.m = m))
    }
  }
  release(a: Name, b: Name, oneWay: boolean): void {
    for (const key of this.links(a, b, oneWay)) {
      this.putBack(this.held.get(key) ?? [])
      this.held.delete(key)
    }
  }
  crash(h: Name): void {
    if (!this.up.get(h)) return
    this.up.set(h, false)
    this.inc.set(h, this.inc.get(h)! + 1)
    for (const m of this.stalled.get(h) ?? []) this.record(m, 'dropped', 'crash')
    this.stalled.delete(h)
  }
  pause(h: Name): void {
    if (this.up.get(h) && !this.stalled.has(h)) this.stalled.set(h, [])
  }
  /** What was stalled arrives again now, but on a held link it goes ahead of what is held there (links stay FIFO). */
  resume(h: Name): void {
    const stalled = this.stalled.get(h) ?? []
    this.stalled.delete(h)
    const ahead = new Map<string, Msg[]>()
    for (const m of stalled) {
      const key = Model.key(m.from, m.to)
      if (this.held.has(key)) ahead.set(key, [...(ahead.get(key) ?? []), m])
    }
    this.putBack(stalled.filter((m) => !this.held.has(Model.key(m.from, m.to))))
    for (const [key, ms] of ahead) this.held.set(key, [...ms, ...this.held.get(key)!])
  }
  inFlight = (): number => [...this.held.values(), ...this.stalled.values()].reduce((n, q) => n + q.length, this.pending.length)
}

interface Real {
  readonly sim: SimulationT<number>
  readonly contexts: Map<string, Host<number>>
}

const entries = (log: ReadonlyArray<MessageEntry<number>>): Entry[] =>
  log.map((e) => [e.id, e.from, e.to, e.sentAt, e.at, e.outcome, e.reason ?? ''] as const)

type Cmd = fc.Command<Model, Real>

const command = (label: string, onModel: (m: Model) => void, onReal: (r: Real) => void): Cmd => ({
  check: () => true,
  run(model, real) {
    onModel(model)
    onReal(real)
    expect(entries(S.messages(real.sim))).toEqual(model.log)
    expect(S.inFlight(real.sim)).toBe(model.inFlight())
  },
  toString: () => label,
})

// Two hosts in the model, so that sends, holds and partitions often meet on one link.
const modelNameArb = fc.constantFrom<Name>('a', 'b')
const pairArb = fc.tuple(modelNameArb, modelNameArb, fc.boolean())

/** The commands, by name: the arbitraries below draw them, the examples list them. */
const cmd = {
  send: (from: Name, to: Name, n: number): Cmd =>
    command(
      `send ${n} ${from}->${to}`,
      (m) => Array.from({ length: n }, () => m.send(from, to)),
      (r) => Array.from({ length: n }, () => S.send(r.contexts.get(from)!, to, 0)),
    ),
  run: (ms: number): Cmd => command(`run ${ms}`, (m) => m.advance(ms), (r) => S.run(r.sim, ms)),
  link: (a: Name, b: Name, oneWay: boolean, ms: number): Cmd =>
    command(
      `link ${a} ${b} ${oneWay} latency ${ms}`,
      (m) => m.links(a, b, oneWay).forEach((k) => m.latency.set(k, ms)),
      (r) => S.link(r.sim, a, b, { latency: ms }, { oneWay }),
    ),
  partition: (a: Name, b: Name, oneWay: boolean): Cmd =>
    command(`partition ${a} ${b} ${oneWay}`, (m) => m.links(a, b, oneWay).forEach((k) => m.partitioned.add(k)), (r) => S.partition(r.sim, a, b, { oneWay })),
  heal: (a: Name, b: Name, oneWay: boolean): Cmd =>
    command(`heal ${a} ${b} ${oneWay}`, (m) => m.links(a, b, oneWay).forEach((k) => m.partitioned.delete(k)), (r) => S.heal(r.sim, a, b, { oneWay })),
  hold: (a: Name, b: Name, oneWay: boolean): Cmd =>
    command(
      `hold ${a} ${b} ${oneWay}`,
      (m) => m.links(a, b, oneWay).forEach((k) => m.held.has(k) || m.held.set(k, [])),
      (r) => S.hold(r.sim, a, b, { oneWay }),
    ),
  release: (a: Name, b: Name, oneWay: boolean): Cmd =>
    command(`release ${a} ${b} ${oneWay}`, (m) => m.release(a, b, oneWay), (r) => S.release(r.sim, a, b, { oneWay })),
  crash: (h: Name): Cmd => command(`crash ${h}`, (m) => m.crash(h), (r) => S.crash(r.sim, h)),
  pause: (h: Name): Cmd => command(`pause ${h}`, (m) => m.pause(h), (r) => S.pause(r.sim, h)),
  resume: (h: Name): Cmd => command(`resume ${h}`, (m) => m.resume(h), (r) => S.resume(r.sim, h)),
  restart: (h: Name): Cmd =>
    command(
      `restart ${h}`,
      (m) => {
        m.crash(h)
        m.up.set(h, true)
      },
      (r) => S.restart(r.sim, h),
    ),
}

const commands: Array<fc.Arbitrary<Cmd>> = [
  fc.tuple(modelNameArb, modelNameArb, fc.integer({ min: 1, max: 3 })).map(([from, to, n]) => cmd.send(from, to, n)),
  fc.integer({ min: 0, max: 10 }).map(cmd.run),
  fc.tuple(pairArb, fc.integer({ min: 0, max: 20 })).map(([[a, b, oneWay], ms]) => cmd.link(a, b, oneWay, ms)),
  pairArb.map((p) => cmd.partition(...p)),
  pairArb.map((p) => cmd.heal(...p)),
  fc.constant(command('heal all', (m) => m.partitioned.clear(), (r) => S.heal(r.sim))),
  pairArb.map((p) => cmd.hold(...p)),
  pairArb.map((p) => cmd.release(...p)),
  modelNameArb.map(cmd.crash),
  modelNameArb.map(cmd.pause),
  modelNameArb.map(cmd.resume),
  modelNameArb.map(cmd.restart),
]

const setup = (batch: boolean) => (): { model: Model; real: Real } => {
  const sim = S.create<number>({ seed: 0, batch })
  const contexts = new Map<string, Host<number>>()
  for (const n of names) {
    S.addHost(sim, n, (host) => {
      contexts.set(n, host)
      S.onMessage(host, () => undefined)
    })
  }
  return { model: new Model(), real: { sim, contexts } }
}

// Each message a clock timer, and (batch) the messages of one ms delivered by one.
describe.each([false, true])('the network against a plain model (batch: %s)', (batch) => {
  it('delivers, drops, holds and stalls as the model says: order, latency, FIFO, partitions, holds, crashes, pauses', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 50, size: 'max' }), (cmds) => {
        fc.modelRun(setup(batch), cmds)
      }),
      { numRuns: Number(process.env.MODEL_RUNS ?? 400) },
    )
  })

  // Seed 1362691761 (run 306) shrinks to the first: message 1 waits on a held link (or at a
  // paused host) while message 2 is sent over the same 0 ms link, due now; the release (or
  // resume) puts 1 back ahead of 2, as the contract says (FIFO per link, also across
  // hold/release and pause/resume and on 0 ms links). A model that queued 1 behind 2 failed here.
  it.each([
    ['release', [cmd.hold('a', 'b', false), cmd.release('a', 'b', false)]],
    ['resume', [cmd.pause('b'), cmd.resume('b')]],
  ] as const)('a %s puts a message back ahead of one sent later over a 0 ms link', (_, [fault, undo]) => {
    const cmds = [cmd.link('a', 'b', false, 0), fault, cmd.send('a', 'b', 1), cmd.run(0), cmd.send('a', 'b', 1), undo, cmd.run(0)]
    let sim: SimulationT<number> | undefined
    fc.modelRun(() => {
      const s = setup(batch)()
      sim = s.real.sim
      return s
    }, cmds)
    expect(S.messages(sim!).map((e) => [e.id, e.at, e.outcome])).toEqual([
      [1, 0, 'delivered'],
      [2, 0, 'delivered'],
    ])
  })
})

describe.each([false, true])('links with random latency, loss, duplication and reordering (batch: %s)', (batch) => {
  it('keeps latency within its bounds, links FIFO without reordering, and accounts for every copy', () => {
    const linkArb = fc
      .record({
        min: fc.integer({ min: 0, max: 50 }),
        span: fc.integer({ min: 0, max: 50 }),
        loss: fc.double({ min: 0, max: 1, noNaN: true }),
        duplicate: fc.double({ min: 0, max: 1, noNaN: true }),
        reorder: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
      })
      .map(({ min, span, ...rest }) => ({ latency: { min, max: min + span }, ...rest }))
    const sendsArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.boolean()), { maxLength: 80 })
    fc.assert(
      fc.property(fc.integer(), linkArb, sendsArb, (seed, link, sends) => {
        const sim = S.create<number>({ seed, network: link, batch })
        const a = S.addHost(sim, 'a', (h) => S.onMessage(h, () => undefined))
        const b = S.addHost(sim, 'b', (h) => S.onMessage(h, () => undefined))
        sends.forEach(([wait, fromA], i) => {
          S.run(sim, wait)
          S.send(fromA ? a : b, fromA ? 'b' : 'a', i)
        })
        const log = S.messages(sim)
        const dups = log.filter((e) => e.duplicate).length + 0
        expect(log.length + S.inFlight(sim)).toBeGreaterThanOrEqual(sends.length)
        S.run(sim, 2 * link.latency.max + 1)
        expect(S.inFlight(sim)).toBe(0)
        const copies = S.messages(sim).filter((e) => e.duplicate).length
        expect(S.messages(sim).length).toBe(sends.length + copies)
        expect(copies).toBeGreaterThanOrEqual(dups)
        const lastOn = new Map<string, number>()
        for (const e of S.messages(sim)) {
          if (e.outcome !== 'delivered') {
            expect(e.reason).toBe('loss')
            continue
          }
          const latency = e.at - e.sentAt
          expect(latency).toBeGreaterThanOrEqual(link.latency.min)
          expect(latency).toBeLessThanOrEqual(link.reorder === 0 ? link.latency.max : 2 * link.latency.max)
          if (link.reorder === 0) {
            expect(e.id).toBeGreaterThanOrEqual(lastOn.get(e.from) ?? 0)
            lastOn.set(e.from, e.id)
          }
        }
      }),
      { numRuns: 150 },
    )
  })
})

describe.each([false, true])('determinism (batch: %s)', (batch) => {
  type Op =
    | { op: 'send'; from: Name; to: Name; payload: number }
    | { op: 'run'; ms: number }
    | { op: 'crash' | 'restart' | 'pause' | 'resume'; host: Name }
    | { op: 'partition' | 'heal'; a: Name; b: Name; oneWay: boolean }
    | { op: 'skew'; host: Name; offset: number; ppm: number }
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constant('send' as const), from: nameArb, to: nameArb, payload: fc.integer({ min: 0, max: 99 }) }),
    fc.record({ op: fc.constant('run' as const), ms: fc.integer({ min: 0, max: 50 }) }),
    fc.record({ op: fc.constantFrom('crash' as const, 'restart' as const, 'pause' as const, 'resume' as const), host: nameArb }),
    fc.record({ op: fc.constantFrom('partition' as const, 'heal' as const), a: nameArb, b: nameArb, oneWay: fc.boolean() }),
    fc.record({ op: fc.constant('skew' as const), host: nameArb, offset: fc.integer({ min: -500, max: 500 }), ppm: fc.integer({ min: -5000, max: 5000 }) }),
  )

  /** A program: hosts that reply, forward and set timers by the simulation's random draws. */
  const play = (seed: number, ops: readonly Op[]): string => {
    const sim = S.create<number>({
      seed,
      network: { latency: { min: 1, max: 40 }, loss: 0.1, duplicate: 0.1, reorder: 0.1 },
      buggify: true,
      batch,
    })
    const contexts = new Map<string, Host<number>>()
    const trace: string[] = []
    for (const n of names) {
      S.addHost(sim, n, (host) => {
        contexts.set(n, host)
        S.onMessage(host, (from, m) => {
          trace.push(`${n}@${S.now(host)} got ${m} from ${from}`)
          if (m > 0 && S.random(host) < 0.7) S.send(host, names[S.integer(host, 0, 2)]!, m - 1)
          if (S.buggify(host, 'slow reply')) S.setTimeout(host, () => S.send(host, from, m >> 1), S.integer(host, 1, 30))
        })
        S.setInterval(host, () => trace.push(`${n} tick ${S.now(host)}`), 25)
      })
    }
    for (const o of ops) {
      if (o.op === 'send') S.send(contexts.get(o.from)!, o.to, o.payload)
      else if (o.op === 'run') S.run(sim, o.ms)
      else if (o.op === 'partition' || o.op === 'heal') S[o.op](sim, o.a, o.b, { oneWay: o.oneWay })
      else if (o.op === 'skew') S.skew(sim, o.host, { offset: o.offset, drift: o.ppm / 1e6 })
      else S[o.op](sim, (o as { host: Name }).host)
    }
    S.run(sim, 200)
    return JSON.stringify([S.log(sim), trace])
  }

  it('the same seed and program give the same delivery log, bit for bit', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(opArb, { maxLength: 40 }), (seed, ops) => {
        expect(play(seed, ops)).toBe(play(seed, ops))
      }),
      { numRuns: 60 },
    )
    const ops: Op[] = [{ op: 'send', from: 'a', to: 'b', payload: 9 }, { op: 'run', ms: 100 }]
    expect(play(1, ops)).not.toBe(play(2, ops))
  })
})

/**
 * Faults done and undone from timers (as `applySchedule` does), sends from host timers
 * (so 0 ms links inside a tick), and host timers under drifts near -1, against a model of
 * the clock: pending entries ordered by (time, when set), a 0 ms timer set during a tick
 * due 1 ms later (fake-timers' rule), and each link's arrivals as tokens that deliver its
 * oldest in-order message. Default mode against the model exactly; batch mode (one clock
 * timer a ms, so its order with fault timers differs) against what both must keep: links
 * FIFO, nothing arriving before it was sent, every message once in the log.
 */
namespace Timed {
  type Pending =
    | { readonly kind: 'token'; readonly key: string }
    | { readonly kind: 'action'; readonly run: (m: TimedModel) => void }
    | { readonly kind: 'timer'; readonly host: Name; readonly inc: number; readonly to: Name }
  type Stalled = { readonly msg: Msg } | { readonly timer: { readonly host: Name; readonly inc: number; readonly to: Name } }

  export class TimedModel {
    now = 0
    sent = 0
    order = 0
    inTick = false
    readonly latency = new Map<string, number>()
    readonly drift = new Map<Name, number>([['a', 0], ['b', 0]])
    readonly partitioned = new Set<string>()
    readonly held = new Map<string, Msg[]>()
    readonly queue = new Map<string, Msg[]>()
    readonly fifoAt = new Map<string, number>()
    readonly up = new Map<Name, boolean>([['a', true], ['b', true]])
    readonly inc = new Map<Name, number>([['a', 0], ['b', 0]])
    readonly stalled = new Map<Name, Stalled[]>()
    pending: Array<{ at: number; order: number; p: Pending }> = []
    readonly log: Entry[] = []

    links = (a: Name, b: Name, oneWay: boolean): string[] => (oneWay || a === b ? [Model.key(a, b)] : [Model.key(a, b), Model.key(b, a)])
    record = (m: Msg, outcome: string, reason = ''): void => void this.log.push([m.id, m.from, m.to, m.sentAt, this.now, outcome, reason])
    /** A clock timer `delay` ms from now: 0 during a tick is 1 (fake-timers). */
    later = (delay: number, p: Pending): void => {
      this.pending.push({ at: this.now + (delay === 0 && this.inTick ? 1 : delay), order: this.order++, p })
    }
    send(from: Name, to: Name): void {
      const m: Msg = { id: ++this.sent, from, to, fromInc: this.inc.get(from)!, toInc: this.inc.get(to)!, sentAt: this.now }
      if (!this.up.get(from)) return this.record(m, 'dropped', 'stale')
      const key = Model.key(from, to)
      if (this.partitioned.has(key)) return this.record(m, 'dropped', 'partition')
      const at = Math.max(this.now + (this.latency.get(key) ?? 1), this.fifoAt.get(key) ?? -Infinity)
      this.fifoAt.set(key, at)
      this.queueOf(key).push(m)
      this.later(at - this.now, { kind: 'token', key })
    }
    queueOf = (key: string): Msg[] => {
      let q = this.queue.get(key)
      if (q === undefined) this.queue.set(key, (q = []))
      return q
    }
    setTimer(host: Name, ms: number, to: Name): void {
      if (!this.up.get(host)) return
      this.later(Math.max(0, Math.ceil(ms / (1 + this.drift.get(host)!))), { kind: 'timer', host, inc: this.inc.get(host)!, to })
    }
    arrive(m: Msg): void {
      const key = Model.key(m.from, m.to)
      if (this.partitioned.has(key)) this.record(m, 'dropped', 'partition')
      else if (this.inc.get(m.from) !== m.fromInc || this.inc.get(m.to) !== m.toInc || !this.up.get(m.to)) this.record(m, 'dropped', 'crash')
      else if (this.held.has(key)) this.held.get(key)!.push(m)
      else if (this.stalled.has(m.to)) this.stalled.get(m.to)!.push({ msg: m })
      else this.record(m, 'delivered')
    }
    fire(t: { host: Name; inc: number; to: Name }): void {
      if (this.inc.get(t.host) !== t.inc || !this.up.get(t.host)) return
      if (this.stalled.has(t.host)) this.stalled.get(t.host)!.push({ timer: t })
      else this.send(t.host, t.to)
    }
    advance(ms: number): void {
      const end = this.now + ms
      this.inTick = true
      for (;;) {
        this.pending.sort((x, y) => x.at - y.at || x.order - y.order)
        const next = this.pending[0]
        if (next === undefined || next.at > end) break
        this.pending.shift()
        this.now = next.at
        const p = next.p
        if (p.kind === 'token') this.arrive(this.queue.get(p.key)!.shift()!)
        else if (p.kind === 'action') p.run(this)
        else this.fire(p)
      }
      this.inTick = false
      this.now = end
    }
    release(a: Name, b: Name, oneWay: boolean): void {
      for (const key of this.links(a, b, oneWay)) {
        const held = this.held.get(key) ?? []
        this.held.delete(key)
        this.queue.set(key, [...held, ...this.queueOf(key)])
        for (const _ of held) this.later(0, { kind: 'token', key })
      }
    }
    crash(h: Name): void {
      if (!this.up.get(h)) return
      this.up.set(h, false)
      this.inc.set(h, this.inc.get(h)! + 1)
      for (const s of this.stalled.get(h) ?? []) if ('msg' in s) this.record(s.msg, 'dropped', 'crash')
      this.stalled.delete(h)
    }
    pause(h: Name): void {
      if (this.up.get(h) && !this.stalled.has(h)) this.stalled.set(h, [])
    }
    resume(h: Name): void {
      const stalled = this.stalled.get(h)
      if (stalled === undefined) return
      this.stalled.delete(h)
      const byKey = new Map<string, Msg[]>()
      for (const s of stalled) if ('msg' in s) byKey.set(Model.key(s.msg.from, s.msg.to), [...(byKey.get(Model.key(s.msg.from, s.msg.to)) ?? []), s.msg])
      for (const [key, ms] of byKey) {
        if (this.held.has(key)) this.held.set(key, [...ms, ...this.held.get(key)!])
        else this.queue.set(key, [...ms, ...this.queueOf(key)])
      }
      for (const s of stalled) {
        if ('timer' in s) this.later(0, { kind: 'action', run: (m) => m.inc.get(s.timer.host) === s.timer.inc && m.up.get(s.timer.host) && (m.stalled.has(s.timer.host) ? m.stalled.get(s.timer.host)!.push(s) : m.send(s.timer.host, s.timer.to)) })
        else if (!this.held.has(Model.key(s.msg.from, s.msg.to))) this.later(0, { kind: 'token', key: Model.key(s.msg.from, s.msg.to) })
      }
    }
    inFlight = (): number =>
      [...this.queue.values(), ...this.held.values()].reduce((n, q) => n + q.length, 0) +
      [...this.stalled.values()].reduce((n, q) => n + q.filter((s) => 'msg' in s).length, 0)
  }
}

interface TimedReal {
  readonly sim: SimulationT<number>
  readonly contexts: Map<string, Host<number>>
}
type TimedCmd = fc.Command<Timed.TimedModel, TimedReal>

const timedCommand = (exact: boolean, label: string, onModel: (m: Timed.TimedModel) => void, onReal: (r: TimedReal) => void): TimedCmd => ({
  check: () => true,
  run(model, real) {
    onModel(model)
    onReal(real)
    if (exact) {
      expect(entries(S.messages(real.sim))).toEqual(model.log)
      expect(S.inFlight(real.sim)).toBe(model.inFlight())
    }
  },
  toString: () => label,
})

/** A fault and its undoing: what a command may do now or from a clock timer. */
const faultArb = fc.oneof(
  pairArb.map(([a, b, oneWay]) => ({ label: `partition ${a} ${b} ${oneWay}`, model: (m: Timed.TimedModel) => m.links(a, b, oneWay).forEach((k) => m.partitioned.add(k)), real: (r: TimedReal) => S.partition(r.sim, a, b, { oneWay }) })),
  pairArb.map(([a, b, oneWay]) => ({ label: `heal ${a} ${b} ${oneWay}`, model: (m: Timed.TimedModel) => m.links(a, b, oneWay).forEach((k) => m.partitioned.delete(k)), real: (r: TimedReal) => S.heal(r.sim, a, b, { oneWay }) })),
  pairArb.map(([a, b, oneWay]) => ({ label: `hold ${a} ${b} ${oneWay}`, model: (m: Timed.TimedModel) => m.links(a, b, oneWay).forEach((k) => m.held.has(k) || m.held.set(k, [])), real: (r: TimedReal) => S.hold(r.sim, a, b, { oneWay }) })),
  pairArb.map(([a, b, oneWay]) => ({ label: `release ${a} ${b} ${oneWay}`, model: (m: Timed.TimedModel) => m.release(a, b, oneWay), real: (r: TimedReal) => S.release(r.sim, a, b, { oneWay }) })),
  modelNameArb.map((h) => ({ label: `crash ${h}`, model: (m: Timed.TimedModel) => m.crash(h), real: (r: TimedReal) => S.crash(r.sim, h) })),
  modelNameArb.map((h) => ({ label: `restart ${h}`, model: (m: Timed.TimedModel) => (m.crash(h), m.up.set(h, true)), real: (r: TimedReal) => S.restart(r.sim, h) })),
  modelNameArb.map((h) => ({ label: `pause ${h}`, model: (m: Timed.TimedModel) => m.pause(h), real: (r: TimedReal) => S.pause(r.sim, h) })),
  modelNameArb.map((h) => ({ label: `resume ${h}`, model: (m: Timed.TimedModel) => m.resume(h), real: (r: TimedReal) => S.resume(r.sim, h) })),
)

const driftArb = fc.constantFrom(0, -0.5, -0.999999, -(1 - 2 ** -20), 0.5)

const timedCommands = (exact: boolean): Array<fc.Arbitrary<TimedCmd>> => [
  fc.tuple(modelNameArb, modelNameArb, fc.integer({ min: 1, max: 3 })).map(([from, to, n]) =>
    timedCommand(exact, `send ${n} ${from}->${to}`, (m) => Array.from({ length: n }, () => m.send(from, to)), (r) => Array.from({ length: n }, () => S.send(r.contexts.get(from)!, to, 0))),
  ),
  fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 2 ** 31 })).map((ms) => timedCommand(exact, `run ${ms}`, (m) => m.advance(ms), (r) => S.run(r.sim, ms))),
  fc.tuple(pairArb, fc.constantFrom(0, 0, 1, 5, 20)).map(([[a, b, oneWay], ms]) =>
    timedCommand(exact, `link ${a} ${b} ${oneWay} latency ${ms}`, (m) => m.links(a, b, oneWay).forEach((k) => m.latency.set(k, ms)), (r) => S.link(r.sim, a, b, { latency: ms }, { oneWay })),
  ),
  fc.tuple(faultArb, fc.integer({ min: 0, max: 12 })).map(([f, k]) =>
    timedCommand(exact, `from a timer in ${k} ms: ${f.label}`, (m) => m.later(k, { kind: 'action', run: f.model }), (r) => void r.sim.clock.setTimeout(() => f.real(r), k)),
  ),
  faultArb.map((f) => timedCommand(exact, f.label, f.model, f.real)),
  fc.tuple(modelNameArb, modelNameArb, fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 2000 }))).map(([h, to, ms]) =>
    timedCommand(exact, `${h} sends to ${to} from a host timer in ${ms} host ms`, (m) => m.setTimer(h, ms, to), (r) => void S.setTimeout(r.contexts.get(h)!, () => S.send(r.contexts.get(h)!, to, 0), ms)),
  ),
  fc.tuple(modelNameArb, modelNameArb, fc.integer({ min: 1, max: 15 })).map(([h, to, n]) =>
    timedCommand(
      exact,
      `${h} sends to ${to} every host ms for ${n} ms`,
      (m) => Array.from({ length: n }, (_, i) => m.setTimer(h, i + 1, to)),
      (r) => Array.from({ length: n }, (_, i) => S.setTimeout(r.contexts.get(h)!, () => S.send(r.contexts.get(h)!, to, 0), i + 1)),
    ),
  ),
  fc.tuple(modelNameArb, driftArb).map(([h, drift]) =>
    timedCommand(exact, `skew ${h} drift ${drift}`, (m) => void m.drift.set(h, drift), (r) => S.skew(r.sim, h, { drift })),
  ),
]

const timedSetup = (batch: boolean) => (): { model: Timed.TimedModel; real: TimedReal } => {
  const sim = S.create<number>({ seed: 0, batch })
  const contexts = new Map<string, Host<number>>()
  for (const n of ['a', 'b'] as const) {
    S.addHost(sim, n, (host) => {
      contexts.set(n, host)
      S.onMessage(host, () => undefined)
    })
  }
  return { model: new Timed.TimedModel(), real: { sim, contexts } }
}

describe('faults undone from timers, 0 ms links and drifts near -1 against a model of the clock', () => {
  it('default mode: the log and what is in flight, exactly, after every command', () => {
    fc.assert(
      fc.property(fc.commands(timedCommands(true), { maxCommands: 40, size: 'max' }), (cmds) => {
        fc.modelRun(timedSetup(false), cmds)
      }),
      { numRuns: Number(process.env.MODEL_RUNS ?? 300) },
    )
  })

  it.each([false, true])('batch %s: links FIFO, nothing arrives before it was sent, every message in the log once', (batch) => {
    fc.assert(
      fc.property(fc.commands(timedCommands(false), { maxCommands: 40, size: 'max' }), (cmds) => {
        const { real } = timedSetup(batch)()
        fc.modelRun(() => ({ model: new Timed.TimedModel(), real }), cmds)
        S.run(real.sim, 2 ** 31)
        for (const h of ['a', 'b']) S.resume(real.sim, h)
        S.heal(real.sim)
        for (const [x, y] of [['a', 'a'], ['a', 'b'], ['b', 'b']] as const) S.release(real.sim, x, y)
        S.run(real.sim, 100)
        const log = S.messages(real.sim)
        expect(S.inFlight(real.sim)).toBe(0)
        expect(new Set(log.map((e) => e.id)).size).toBe(log.length)
        const last = new Map<string, number>()
        for (const e of log) {
          expect(e.at).toBeGreaterThanOrEqual(e.sentAt)
          if (e.reason === 'stale' || e.outcome === 'dropped') continue
          const key = `${e.from}>${e.to}`
          expect(e.id).toBeGreaterThan(last.get(key) ?? 0)
          last.set(key, e.id)
        }
      }),
      { numRuns: 150 },
    )
  })
})
