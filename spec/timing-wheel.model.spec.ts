/**
 * The wheel against the reference model, command by command, with arbitrary doubles for
 * start and precision and times aimed at interval boundaries (the boundary itself and the
 * doubles next to it), tiny, exact and huge advances, handlers that add, remove,
 * reschedule (their own alarm too) and throw. After every command both must agree on
 * everything observable, the fired sequences must be equal, and Guarantees 1 to 5 hold.
 */
import fc from 'fast-check'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { Alarm, TimingWheel, TimingWheelError } from '../lib/index.js'
import * as Ref from '../lib/testing/reference-wheel.js'
import { nextDown, nextUp } from './support/float.js'

type W = TimingWheel.TimingWheel<number>
type RA = Ref.RefAlarm<number>
type WA = TimingWheel.Alarm<number>

interface World {
  readonly w: W
  readonly r: Ref.ReferenceWheel<number>
  readonly toRef: Map<WA, RA>
  readonly dead: WA[]
  nextValue: number
}

/** A time relative to the wheel: an interval boundary (nudged), a fraction of the range, or bad. */
const timeArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('boundary' as const), d: fc.nat(70), nudge: fc.constantFrom(-1, 0, 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('within' as const), d: fc.nat(70), f: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('range' as const), f: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('upper' as const), nudge: fc.constantFrom(-1, 0, 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('now' as const), nudge: fc.constantFrom(-1, 0, 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad' as const), v: fc.constantFrom(Number.NaN, Infinity, -Infinity) }) },
)
type TimeChoice = typeof timeArb extends fc.Arbitrary<infer T> ? T : never

const nudge = (x: number, n: number): number => (n < 0 ? nextDown(x) : n > 0 ? nextUp(x) : x)

/** What choosing a time needs to know of a wheel; the wheel and the model must agree on it. */
interface View {
  now(): number
  nowIntervalNum(): number
  maxAllowed(): number
  start(k: number): number
  upper(): number
}
const realView = (w: W): View => ({
  now: () => TimingWheel.now(w),
  nowIntervalNum: () => TimingWheel.nowIntervalNum(w),
  maxAllowed: () => TimingWheel.maxAllowedAlarmIntervalNum(w),
  start: (k) => TimingWheel.start(w) + k * TimingWheel.alarmPrecision(w),
  upper: () => TimingWheel.alarmUpperBound(w),
})
const refView = (r: Ref.ReferenceWheel<number>): View => ({
  now: () => Ref.now(r),
  nowIntervalNum: () => Ref.nowIntervalNum(r),
  maxAllowed: () => Ref.maxAllowedAlarmIntervalNum(r),
  start: (k) => Ref.intervalNumStart(r, k),
  upper: () => Ref.alarmUpperBound(r),
})

const pickTime = (v: View, c: TimeChoice): number => {
  const k = v.nowIntervalNum()
  const maxK = v.maxAllowed()
  switch (c.kind) {
    case 'boundary':
      return nudge(v.start(Math.min(maxK, k + c.d)), c.nudge)
    case 'within': {
      const s = v.start(Math.min(maxK, k + c.d))
      return s + (v.start(Math.min(maxK, k + c.d) + 1) - s) * c.f
    }
    case 'range':
      return v.start(k + Math.floor((maxK - k) * c.f))
    case 'upper':
      return nudge(v.upper(), c.nudge)
    case 'now':
      return nudge(v.now(), c.nudge)
    case 'bad':
      return c.v
  }
}

/** Runs `f` on both; both must throw the same code or both succeed. */
const both = <X, Y>(real: () => X, ref: () => Y): { real?: X; ref?: Y; code?: string } => {
  let realCode: string | undefined
  let refCode: string | undefined
  let x: X | undefined
  let y: Y | undefined
  try {
    x = real()
  } catch (e) {
    if (!(e instanceof TimingWheelError)) throw e
    realCode = e.code
  }
  try {
    y = ref()
  } catch (e) {
    if (!(e instanceof TimingWheelError)) throw e
    refCode = e.code
  }
  expect(realCode, 'the wheel and the model throw alike').toBe(refCode)
  return realCode === undefined ? { real: x as X, ref: y as Y } : { code: realCode }
}

const sameState = (s: World): void => {
  const { w, r } = s
  TimingWheel.invariant(w)
  expect(TimingWheel.now(w)).toBe(Ref.now(r))
  expect(TimingWheel.nowIntervalNum(w)).toBe(Ref.nowIntervalNum(r))
  expect(TimingWheel.length(w)).toBe(Ref.length(r))
  expect(TimingWheel.maxAllowedAlarmIntervalNum(w)).toBe(Ref.maxAllowedAlarmIntervalNum(r))
  expect(TimingWheel.alarmUpperBound(w)).toBe(Ref.alarmUpperBound(r))
  const alarms = TimingWheel.toArray(w)
  expect(alarms.map((a) => s.toRef.get(a))).toEqual(Ref.toArray(r))
  for (const a of alarms) {
    const ra = s.toRef.get(a)!
    expect(Alarm.at(w, a)).toBe(Ref.alarmAt(r, ra))
    expect(Alarm.value(w, a)).toBe(Ref.alarmValue(r, ra))
    expect(Alarm.intervalNum(w, a)).toBe(Ref.alarmIntervalNum(r, ra))
    // Guarantee 2: never late.
    expect(TimingWheel.intervalStart(w, Alarm.at(w, a))).toBeGreaterThanOrEqual(TimingWheel.intervalStart(w, TimingWheel.now(w)))
  }
  expect(TimingWheel.nextAlarmFiresAt(w)).toEqual(Ref.nextAlarmFiresAt(r))
  expect(TimingWheel.minAlarmIntervalNum(w)).toEqual(Ref.minAlarmIntervalNum(r))
  expect(TimingWheel.minAlarmTimeInMinInterval(w)).toEqual(Ref.minAlarmTimeInMinInterval(r))
  expect(TimingWheel.maxAlarmTimeInMinInterval(w)).toEqual(Ref.maxAlarmTimeInMinInterval(r))
  const next = TimingWheel.nextAlarmFiresAt(w)
  if (O.isSome(next)) {
    const min = TimingWheel.minAlarmTimeInMinIntervalExn(w)
    expect(min).toBeLessThan(next.value)
    // `next - precision <= min` holds in real arithmetic; in doubles, up to the rounding
    // of the interval starts (half an ulp each) and of the subtraction.
    const p = TimingWheel.alarmPrecision(w)
    const scale = Math.max(Math.abs(next.value), Math.abs(min), p * (TimingWheel.minAlarmIntervalNumExn(w) + 1))
    expect(next.value - p - min).toBeLessThanOrEqual(2 * Number.EPSILON * scale)
  }
  // Guarantee 5: handles never alias.
  for (const a of s.dead) expect(TimingWheel.mem(w, a)).toBe(false)
}

const pick = <T>(xs: readonly T[], n: number): T | undefined => xs[n % Math.max(1, xs.length)]

class Add implements fc.Command<World, World> {
  constructor(readonly time: TimeChoice, readonly atIntervalNum: number | null) {}
  check = () => true
  run(_: World, s: World): void {
    const v = s.nextValue++
    if (this.atIntervalNum === null) {
      const at = pickTime(refView(s.r), this.time)
      const out = both(() => TimingWheel.add(s.w, at, v), () => Ref.add(s.r, at, v))
      if (out.code === undefined) s.toRef.set(out.real!, out.ref!)
    } else {
      const k = Ref.nowIntervalNum(s.r) + this.atIntervalNum
      const out = both(() => TimingWheel.addAtIntervalNum(s.w, k, v), () => Ref.addAtIntervalNum(s.r, k, v))
      if (out.code === undefined) s.toRef.set(out.real!, out.ref!)
    }
    sameState(s)
  }
  toString = () => `add(${JSON.stringify(this.time)}, ${this.atIntervalNum})`
}

class Remove implements fc.Command<World, World> {
  constructor(readonly n: number) {}
  check = () => true
  run(_: World, s: World): void {
    const a = pick(TimingWheel.toArray(s.w), this.n)
    if (a === undefined) return
    both(() => TimingWheel.remove(s.w, a), () => Ref.remove(s.r, s.toRef.get(a)!))
    s.dead.push(a)
    sameState(s)
  }
  toString = () => `remove(${this.n})`
}

class Reschedule implements fc.Command<World, World> {
  constructor(readonly n: number, readonly time: TimeChoice, readonly atIntervalNum: number | null) {}
  check = () => true
  run(_: World, s: World): void {
    const a = pick(TimingWheel.toArray(s.w), this.n)
    if (a === undefined) return
    const ra = s.toRef.get(a)!
    if (this.atIntervalNum === null) {
      const at = pickTime(refView(s.r), this.time)
      both(() => TimingWheel.reschedule(s.w, a, at), () => Ref.reschedule(s.r, ra, at))
    } else {
      const k = Ref.nowIntervalNum(s.r) + this.atIntervalNum
      both(() => TimingWheel.rescheduleAtIntervalNum(s.w, a, k), () => Ref.rescheduleAtIntervalNum(s.r, ra, k))
    }
    sameState(s)
  }
  toString = () => `reschedule(${this.n}, ${JSON.stringify(this.time)}, ${this.atIntervalNum})`
}

class UseDead implements fc.Command<World, World> {
  constructor(readonly n: number) {}
  check = (m: World) => m.dead.length > 0
  run(_: World, s: World): void {
    const a = pick(s.dead, this.n)!
    for (const f of [
      () => TimingWheel.remove(s.w, a),
      () => TimingWheel.reschedule(s.w, a, TimingWheel.now(s.w)),
      () => Alarm.at(s.w, a),
      () => Alarm.value(s.w, a),
    ]) {
      expect(f).toThrow(/AlarmNotFound/)
    }
    sameState(s)
  }
  toString = () => `useDead(${this.n})`
}

const actionArb = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('add' as const), time: timeArb }),
  fc.record({ kind: fc.constant('remove' as const), n: fc.nat() }),
  fc.record({ kind: fc.constant('reschedule' as const), n: fc.nat(), time: timeArb }),
  fc.record({ kind: fc.constant('rescheduleSelf' as const), time: timeArb }),
  fc.record({ kind: fc.constant('throw' as const) }),
  fc.record({ kind: fc.constant('reenter' as const) }),
)
type Action = typeof actionArb extends fc.Arbitrary<infer T> ? T : never

type Mode = 'advance' | 'stop' | 'firePast'

/**
 * Runs the same handler program on one side: `self` is the fired alarm; alarms and their
 * order come from `list`; every handler does one action, the n-th handler the n-th.
 */
const handlerProgram = <H>(
  actions: readonly Action[],
  side: {
    list: () => readonly H[]
    add: (at: number, v: number) => H
    remove: (a: H) => void
    reschedule: (a: H, at: number) => void
    pickTime: (c: TimeChoice) => number
    reenter: () => void
  },
  record: { fired: H[]; added: Array<H | string>; thrown: number },
) => {
  let n = 0
  let value = 1_000_000
  return (self: H): void => {
    record.fired.push(self)
    const action = actions.length === 0 ? { kind: 'none' as const } : actions[n++ % actions.length]!
    const attempt = (f: () => void): void => {
      try {
        f()
      } catch (e) {
        if (!(e instanceof TimingWheelError)) throw e
        record.added.push(e.code)
      }
    }
    switch (action.kind) {
      case 'add':
        attempt(() => record.added.push(side.add(side.pickTime(action.time), value++)))
        break
      case 'remove': {
        const a = pick(side.list(), action.n)
        if (a !== undefined) side.remove(a)
        break
      }
      case 'reschedule': {
        const a = pick(side.list(), action.n)
        if (a !== undefined) attempt(() => side.reschedule(a, side.pickTime(action.time)))
        break
      }
      case 'rescheduleSelf':
        attempt(() => side.reschedule(self, side.pickTime(action.time)))
        break
      case 'reenter':
        attempt(() => side.reenter())
        break
      case 'throw':
        record.thrown++
        throw new Error(`handler error ${record.thrown}`)
      default:
        break
    }
  }
}

class Advance implements fc.Command<World, World> {
  constructor(readonly mode: Mode, readonly to: TimeChoice | { kind: 'huge'; f: number }, readonly actions: Action[]) {}
  check = () => true
  run(_: World, s: World): void {
    const { w, r } = s
    const k = Ref.nowIntervalNum(r)
    const to =
      this.to.kind === 'huge'
        ? Ref.intervalNumStart(r, k + Math.floor((r.maxIntervalNum - k) * this.to.f))
        : pickTime(refView(r), this.to)
    const realRec = { fired: [] as WA[], added: [] as Array<WA | string>, thrown: 0 }
    const refRec = { fired: [] as RA[], added: [] as Array<RA | string>, thrown: 0 }
    const realHandler = handlerProgram(
      this.actions,
      {
        list: () => TimingWheel.toArray(w),
        add: (at, v) => TimingWheel.add(w, at, v),
        remove: (a) => TimingWheel.remove(w, a),
        reschedule: (a, at) => TimingWheel.reschedule(w, a, at),
        pickTime: (c) => pickTime(realView(w), c),
        reenter: () => TimingWheel.advanceClock(w, TimingWheel.now(w) + 1, () => {}),
      },
      realRec,
    )
    const checkedRealHandler = (a: WA): void => {
      // Guarantee 1 (never early) and 4 (now = to; the alarm is out of the wheel but readable).
      if (this.mode === 'advance') {
        expect(Alarm.at(w, a)).toBeLessThan(to)
        expect(TimingWheel.now(w)).toBe(to)
      } else {
        expect(Alarm.at(w, a)).toBeLessThanOrEqual(TimingWheel.now(w))
      }
      expect(TimingWheel.mem(w, a)).toBe(false)
      realHandler(a)
    }
    const refHandler = handlerProgram(
      this.actions,
      {
        list: () => Ref.toArray(r),
        add: (at, v) => Ref.add(r, at, v),
        remove: (a) => Ref.remove(r, a),
        reschedule: (a, at) => Ref.reschedule(r, a, at),
        pickTime: (c) => pickTime(refView(r), c),
        reenter: () => Ref.advanceClock(r, Ref.now(r) + 1, () => {}),
      },
      refRec,
    )
    const outcome = (advance: () => void): string | undefined => {
      try {
        advance()
        return undefined
      } catch (e) {
        return e instanceof TimingWheelError ? e.code : (e as Error).message
      }
    }
    const realOutcome = outcome(() =>
      this.mode === 'advance'
        ? TimingWheel.advanceClock(w, to, checkedRealHandler)
        : this.mode === 'stop'
          ? TimingWheel.advanceClockStopAtNextAlarm(w, to, checkedRealHandler)
          : TimingWheel.firePastAlarms(w, checkedRealHandler),
    )
    const refOutcome = outcome(() =>
      this.mode === 'advance'
        ? Ref.advanceClock(r, to, refHandler)
        : this.mode === 'stop'
          ? Ref.advanceClockStopAtNextAlarm(r, to, refHandler)
          : Ref.firePastAlarms(r, refHandler),
    )
    expect(realOutcome).toBe(refOutcome)
    // Guarantee 3: the same alarms fired in the same order.
    expect(realRec.fired.map((a) => s.toRef.get(a))).toEqual(refRec.fired)
    expect(realRec.added.map((a) => (typeof a === 'string' ? a : 'added'))).toEqual(
      refRec.added.map((a) => (typeof a === 'string' ? a : 'added')),
    )
    realRec.added.forEach((a, i) => {
      if (typeof a !== 'string') s.toRef.set(a, refRec.added[i] as RA)
    })
    for (const a of realRec.fired) if (!TimingWheel.mem(w, a)) s.dead.push(a)
    sameState(s)
  }
  toString = () => `${this.mode}(${JSON.stringify(this.to)}, ${JSON.stringify(this.actions)})`
}

const configArb = fc.record({
  start: fc.oneof(
    fc.constant(0),
    fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
    fc.double({ min: 1.6e12, max: 1.8e12, noNaN: true }),
    fc.integer({ min: -100, max: 100 }),
  ),
  alarmPrecision: fc.oneof(
    fc.constantFrom(1, 0.1, 1 / 60, 2 ** -10, 1000, 1e-3),
    fc.double({ min: 1e-4, max: 1e4, noNaN: true }),
  ),
  levelBits: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 }),
})

const toArb = fc.oneof(
  { weight: 5, arbitrary: timeArb },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('huge' as const), f: fc.double({ min: 0, max: 1, noNaN: true }) }) },
)

const commandsArb = fc.commands(
  [
    fc.tuple(timeArb, fc.option(fc.integer({ min: -2, max: 80 }), { freq: 4 })).map(([t, k]) => new Add(t, k)),
    fc.tuple(timeArb, fc.constant(null)).map(([t, k]) => new Add(t, k)),
    fc.tuple(timeArb, fc.constant(null)).map(([t, k]) => new Add(t, k)),
    fc.tuple(timeArb, fc.constant(null)).map(([t, k]) => new Add(t, k)),
    fc.nat().map((n) => new Remove(n)),
    fc.tuple(fc.nat(), timeArb, fc.option(fc.integer({ min: -2, max: 80 }), { freq: 4 })).map(([n, t, k]) => new Reschedule(n, t, k)),
    fc.nat().map((n) => new UseDead(n)),
    fc.tuple(toArb, fc.array(actionArb, { maxLength: 4 })).map(([to, a]) => new Advance('advance', to, a)),
    fc.tuple(toArb, fc.constant<Action[]>([])).map(([to, a]) => new Advance('advance', to, a)),
    fc.tuple(toArb, fc.array(actionArb, { maxLength: 3 })).map(([to, a]) => new Advance('stop', to, a)),
    fc.array(actionArb, { maxLength: 3 }).map((a) => new Advance('firePast', { kind: 'now', nudge: 0 }, a)),
  ],
  { maxCommands: 50, size: 'large' },
)

describe('TimingWheel against the reference model', () => {
  it('agrees on every command and keeps Guarantees 1 to 5', () => {
    fc.assert(
      fc.property(configArb, commandsArb, (config, cmds) => {
        const made = both(
          () => TimingWheel.create<number>(config),
          () => Ref.create<number>(config),
        )
        if (made.code !== undefined) return
        const world: World = { w: made.real!, r: made.ref!, toRef: new Map(), dead: [], nextValue: 0 }
        sameState(world)
        fc.modelRun(() => ({ model: world, real: world }), cmds)
      }),
      { numRuns: Number(process.env.WHEEL_RUNS ?? 1000) },
    )
  })
})
