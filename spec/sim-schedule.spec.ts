/**
 * The schedule of a virtual clock (`lib/sim/schedule.ts`) on its own: examples of the
 * operations a schedule other than FIFO on time uses (`peek`, `lateUpTo`, `replaceFront`),
 * and fc.commands against a model, a list of the pending timers in firing order, with the
 * schedule's invariants checked after every command.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Schedule from '../lib/sim/schedule.js'
import { type Home, Timer, type TimerKind, firesBefore, noArgs } from '../lib/sim/timer.js'

const home: Home = { refresh: () => {} }
let order = 0
const timer = (due: number, kind: TimerKind = 'Timeout'): Timer =>
  new Timer(order, kind, () => {}, noArgs, undefined, 0, undefined, due, order++, home)

const scheduleOf = (...timers: Timer[]): Schedule.Schedule => {
  const s = Schedule.create()
  for (const t of timers) Schedule.add(s, t)
  return s
}

describe('peek', () => {
  it('is the timer that fires first, and takes nothing out', () => {
    const a = timer(5)
    const b = timer(3)
    const c = timer(3, 'Immediate')
    const s = scheduleOf(a, b, c)
    expect(Schedule.peek(s)).toBe(c) // at equal due times immediates first
    expect(Schedule.peek(s)).toBe(c)
    expect(Schedule.count(s)).toBe(3)
    expect(Schedule.first(s)).toBe(c)
    Schedule.invariant(s)
  })

  it('is undefined for an empty schedule', () => {
    expect(Schedule.peek(Schedule.create())).toBeUndefined()
  })
})

describe('lateUpTo', () => {
  it('makes every timer due by a time late, in firing order, and counts them', () => {
    const [a, b, c, d] = [timer(7), timer(2), timer(4), timer(4)]
    const s = scheduleOf(a!, b!, c!, d!)
    expect(Schedule.lateUpTo(s, 4)).toBe(3)
    expect(s.late.slice(0, 3)).toEqual([b, c, d])
    expect([b, c, d].map((t) => Schedule.lateIndex(s, t!))).toEqual([0, 1, 2])
    expect(Schedule.count(s)).toBe(4)
    Schedule.invariant(s)
    // Asked again for less, it counts what is due by then.
    expect(Schedule.lateUpTo(s, 2)).toBe(1)
    expect(Schedule.first(s)).toBe(b)
  })
})

describe('replaceFront', () => {
  it('puts a batch back in front in a new order, leaving some out', () => {
    const [a, b, c, d] = [timer(2), timer(3), timer(3), timer(9)]
    const s = scheduleOf(a!, b!, c!, d!)
    const n = Schedule.lateUpTo(s, 3)
    for (const t of [c!, a!]) {
      t.due = 3
      t.order = order++
    }
    Schedule.replaceFront(s, n, [c!, a!])
    expect(Schedule.count(s)).toBe(3)
    expect(b!.place).toBeUndefined()
    Schedule.invariant(s)
    b!.due = 4
    b!.order = order++
    Schedule.add(s, b!)
    Schedule.invariant(s)
    const fired: Timer[] = []
    for (let t = Schedule.first(s); t !== undefined; t = Schedule.first(s)) {
      fired.push(t)
      Schedule.remove(s, t)
    }
    expect(fired).toEqual([c, a, b, d])
  })
})

// The model: the pending timers, sorted by `firesBefore`.

interface Model {
  pending: Timer[]
  /** The schedule's now: nothing may be added before it but at it. */
  now: number
}
interface Real {
  s: Schedule.Schedule
}
const sorted = (ts: readonly Timer[]): Timer[] => [...ts].sort((x, y) => (firesBefore(x, y) ? -1 : 1))
const check = (m: Model, r: Real): void => {
  Schedule.invariant(r.s)
  expect(Schedule.count(r.s)).toBe(m.pending.length)
  expect(Schedule.peek(r.s)).toBe(sorted(m.pending)[0])
}

class Add implements fc.Command<Model, Real> {
  constructor(readonly offset: number, readonly immediate: boolean) {}
  check = (): boolean => true
  run(m: Model, r: Real): void {
    const t = timer(m.now + this.offset, this.immediate ? 'Immediate' : 'Timeout')
    Schedule.add(r.s, t)
    m.pending.push(t)
    check(m, r)
  }
  toString = (): string => `add(+${this.offset}${this.immediate ? ', immediate' : ''})`
}

class Remove implements fc.Command<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => m.pending.length > 0
  run(m: Model, r: Real): void {
    const t = m.pending.splice(this.pick % m.pending.length, 1)[0]!
    Schedule.remove(r.s, t)
    check(m, r)
  }
  toString = (): string => `remove(${this.pick})`
}

/** Fires the first timer, as a clock does: the schedule's now moves to its due time. */
class Fire implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>): boolean => m.pending.length > 0
  run(m: Model, r: Real): void {
    const expected = sorted(m.pending)[0]!
    const t = Schedule.first(r.s)!
    expect(t).toBe(expected)
    Schedule.remove(r.s, t)
    m.pending.splice(m.pending.indexOf(t), 1)
    m.now = t.due
    check(m, r)
  }
  toString = (): string => 'fire'
}

/** A batch as the exploring schedule runs one: every timer due within `span` of the first, reordered and run at one time, some deferred a ms. */
class Batch implements fc.Command<Model, Real> {
  constructor(readonly span: number, readonly stall: number, readonly shuffle: number, readonly defer: boolean) {}
  check = (m: Readonly<Model>): boolean => m.pending.length > 0
  run(m: Model, r: Real): void {
    const first = Schedule.peek(r.s)!.due
    const at = first + this.stall
    const by = Math.max(at, first + this.span)
    const n = Schedule.lateUpTo(r.s, by)
    const due = sorted(m.pending).filter((t) => t.due <= by)
    expect(r.s.late.slice(0, n)).toEqual(due)
    const members = due.filter((t) => t.due <= at)
    const k = Schedule.lateUpTo(r.s, at)
    expect(k).toBe(members.length)
    // A rotation as the new order; the last member deferred a ms if asked (and not the only one).
    const placed = members.map((_, i) => members[(i + this.shuffle) % members.length]!)
    const deferred = this.defer && placed.length > 1 ? placed.pop() : undefined
    for (const t of placed) {
      t.due = at
      t.order = order++
    }
    const front = [...placed].sort((x, y) => (x.kind === 'Immediate' ? 0 : 1) - (y.kind === 'Immediate' ? 0 : 1))
    Schedule.replaceFront(r.s, k, front)
    if (deferred !== undefined) {
      deferred.due = at + 1
      deferred.order = order++
      Schedule.add(r.s, deferred)
    }
    check(m, r)
    expect(Schedule.first(r.s)).toBe(front[0] ?? deferred)
    m.now = Schedule.first(r.s)!.due
  }
  toString = (): string => `batch(span ${this.span}, stall ${this.stall}, shuffle ${this.shuffle}${this.defer ? ', defer' : ''})`
}

describe('the schedule against a model', () => {
  it('adds, removes, fires and reorders batches as a sorted list would, its invariants holding', () => {
    const commands = [
      fc.tuple(fc.integer({ min: 0, max: 40 }), fc.boolean()).map(([o, i]) => new Add(o, i)),
      fc.nat().map((p) => new Remove(p)),
      fc.constant(new Fire()),
      fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 10 }), fc.nat({ max: 5 }), fc.boolean()).map(([sp, st, sh, d]) => new Batch(sp, st, sh, d)),
    ]
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        fc.modelRun(() => ({ model: { pending: [], now: 0 }, real: { s: Schedule.create() } }), cmds)
      }),
      { numRuns: 300 },
    )
  })
})
