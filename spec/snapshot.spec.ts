/**
 * Snapshots: a round trip through JSON keeps config, now, every alarm's time and value,
 * and the firing order (checked by firing everything on both); corrupted snapshots are
 * refused with every problem named, and never give a wheel.
 */
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { Alarm, Config, TimingWheel } from '../lib/index.js'

const codec = TimingWheel.snapshotCodec(t.string)

const fireAll = (w: TimingWheel.TimingWheel<string>): Array<[number, string]> => {
  const out: Array<[number, string]> = []
  const end = TimingWheel.alarmUpperBound(w)
  TimingWheel.advanceClock(w, end, (a) => out.push([Alarm.at(w, a), Alarm.value(w, a)]))
  return out
}

const wheelArb = fc
  .record({
    start: fc.oneof(fc.constant(0), fc.double({ min: -1e9, max: 1.8e12, noNaN: true })),
    alarmPrecision: fc.oneof(fc.constantFrom(1, 0.1, 1 / 60, 2 ** -10), fc.double({ min: 1e-2, max: 1e3, noNaN: true })),
    levelBits: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 }),
    advance: fc.nat(50),
    alarms: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.string()), { maxLength: 40 }),
    removals: fc.array(fc.nat(), { maxLength: 10 }),
  })
  .map((spec) => {
    const w = TimingWheel.create<string>({ start: spec.start, alarmPrecision: spec.alarmPrecision, levelBits: spec.levelBits })
    TimingWheel.advanceClock(w, TimingWheel.intervalNumStart(w, spec.advance) + spec.alarmPrecision / 3, () => {})
    const low = TimingWheel.intervalNumStart(w, TimingWheel.nowIntervalNum(w))
    const span = Math.min(TimingWheel.alarmUpperBound(w) - low, 200 * spec.alarmPrecision)
    for (const [f, v] of spec.alarms) {
      const at = low + f * span
      if (at < TimingWheel.alarmUpperBound(w)) TimingWheel.add(w, at, v)
    }
    for (const n of spec.removals) {
      const all = TimingWheel.toArray(w)
      if (all.length > 0) TimingWheel.remove(w, all[n % all.length]!)
    }
    return w
  })

describe('TimingWheel.snapshotCodec', () => {
  it('round-trips config, now, alarms and firing order through JSON', () => {
    fc.assert(
      fc.property(wheelArb, (w) => {
        const json = JSON.parse(JSON.stringify(codec.encode(w)))
        const decoded = codec.decode(json)
        if (E.isLeft(decoded)) throw new Error(Config.describeErrors('snapshot', decoded.left))
        const copy = decoded.right
        TimingWheel.invariant(copy)
        expect(TimingWheel.config(copy)).toEqual(TimingWheel.config(w))
        expect(TimingWheel.now(copy)).toBe(TimingWheel.now(w))
        expect(codec.encode(copy)).toEqual(codec.encode(w))
        expect(fireAll(copy)).toEqual(fireAll(w))
      }),
      { numRuns: 300 },
    )
  })

  const good = () => ({
    config: { start: 0, alarmPrecision: 1, levelBits: [4, 4] },
    now: 10,
    alarms: [
      { at: 12, value: 'a' },
      { at: 11, value: 'b' },
    ],
  })

  const problems = (u: unknown): string => {
    const result = codec.decode(u)
    if (E.isRight(result)) throw new Error('a corrupted snapshot was accepted')
    return Config.describeErrors('snapshot', result.left)
  }

  it('accepts a good snapshot and keeps the listed order within an interval', () => {
    const result = codec.decode(good())
    expect(E.isRight(result)).toBe(true)
    if (E.isRight(result)) expect(fireAll(result.right).map(([, v]) => v)).toEqual(['b', 'a'])
  })

  it('refuses corrupted snapshots, naming each problem with its path', () => {
    expect(problems({ ...good(), now: -1 })).toContain('now: now -1 is before start 0')
    expect(problems({ ...good(), now: Number.NaN })).toContain('now: NaN is not a finite number')
    expect(problems({ ...good(), alarms: [{ at: 5, value: 'x' }] })).toContain('alarms.0.at: TimeOutOfRange: add at 5 is before intervalStart(now) 10')
    expect(problems({ ...good(), alarms: [{ at: 1e9, value: 'x' }] })).toContain('alarms.0.at: TimeOutOfRange: add at 1000000000 is not below alarmUpperBound')
    expect(problems({ ...good(), alarms: [{ at: Number.NaN, value: 'x' }] })).toContain('alarms.0.at: NaN is not a finite number')
    expect(problems({ ...good(), alarms: [{ at: 12, value: 7 }] })).toContain('alarms.0.value')
    expect(problems({ ...good(), alarms: 'none' })).toContain('alarms: "none" is not an array')
    expect(problems({ ...good(), config: { alarmPrecision: 0 } })).toContain('config.alarmPrecision: 0 is not a finite number > 0')
    expect(problems(null)).toContain('is not an object')
    const several = problems({ config: { alarmPrecision: -1 }, now: 'x', alarms: [{ at: 1 }] })
    expect(several).toContain('config.alarmPrecision')
    expect(several).toContain('now: "x"')
    expect(several).toContain('alarms.0.value')
  })

  it('recognises wheels with is', () => {
    expect(codec.is(TimingWheel.create({ alarmPrecision: 1 }))).toBe(true)
    expect(codec.is(good())).toBe(false)
  })
})
