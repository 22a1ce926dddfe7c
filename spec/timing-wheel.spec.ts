import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { Alarm, LevelBits, TimingWheel } from '../lib/index.js'
import { expectCode } from './support/expect-error.js'
import { nextDown, nextUp } from './support/float.js'

type W = TimingWheel.TimingWheel<string>

const fire = (t: W, to: number): string[] => {
  const out: string[] = []
  TimingWheel.advanceClock(t, to, (a) => out.push(Alarm.value(t, a)))
  return out
}

describe('TimingWheel.create and accessors', () => {
  it('starts at start with no alarms', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    expect(TimingWheel.now(t)).toBe(0)
    expect(TimingWheel.start(t)).toBe(0)
    expect(TimingWheel.alarmPrecision(t)).toBe(1)
    expect(TimingWheel.levelBits(t)).toEqual(LevelBits.default)
    expect(TimingWheel.length(t)).toBe(0)
    expect(TimingWheel.isEmpty(t)).toBe(true)
    expect(TimingWheel.maxIntervalNum(t)).toBe(2 ** 52 - 2)
    expect(TimingWheel.config(t)).toEqual({ start: 0, alarmPrecision: 1, levelBits: LevelBits.default })
    const u = TimingWheel.create<string>({ start: 5, alarmPrecision: 0.5, levelBits: [4, 4], capacity: 10 })
    expect(TimingWheel.now(u)).toBe(5)
    expect(TimingWheel.config(u)).toEqual({ start: 5, alarmPrecision: 0.5, levelBits: [4, 4], capacity: 10 })
    TimingWheel.invariant(u)
  })

  it('trims its range to the intervals doubles keep apart', () => {
    const t = TimingWheel.create<string>({ start: 1.7e12, alarmPrecision: 1 / 60 })
    const last = TimingWheel.maxIntervalNum(t)
    expect(last).toBeLessThan(2 ** 52)
    expect(last).toBeGreaterThanOrEqual(2 ** 51)
    expect(TimingWheel.intervalNumStart(t, last)).toBeLessThan(TimingWheel.start(t) + (last + 1) / 60)
    expect(TimingWheel.intervalNum(t, TimingWheel.intervalNumStart(t, last))).toBe(last)
    expectCode('TimeOutOfRange', () => TimingWheel.advanceClock(t, TimingWheel.start(t) + (last + 2) / 60, () => {}))
    TimingWheel.advanceClock(t, TimingWheel.intervalNumStart(t, last - 5), () => {})
    expect(TimingWheel.maxAllowedAlarmIntervalNum(t)).toBe(last)
    TimingWheel.invariant(t)
  })

  it.each([
    [{ alarmPrecision: 0 }, 'alarmPrecision: 0'],
    [{ alarmPrecision: -1 }, 'alarmPrecision: -1'],
    [{ alarmPrecision: Number.NaN }, 'alarmPrecision: NaN'],
    [{ alarmPrecision: Infinity }, 'alarmPrecision: Infinity'],
    [{ alarmPrecision: 1, start: Number.NaN }, 'start: NaN'],
    [{ alarmPrecision: 1, start: -Infinity }, 'start: -Infinity'],
    [{ alarmPrecision: 1, capacity: -1 }, 'capacity: -1'],
    [{ alarmPrecision: 1, capacity: 0.5 }, 'capacity: 0.5'],
  ])('rejects %j with InvalidConfig naming the value', (config, words) => {
    expect(expectCode('InvalidConfig', () => TimingWheel.create(config))).toContain(words)
  })

  it('rejects bad level bits with InvalidLevelBits', () => {
    expectCode('InvalidLevelBits', () => TimingWheel.create({ alarmPrecision: 1, levelBits: [] }))
  })

  it('rejects a precision too fine for doubles at start, naming what would work', () => {
    const message = expectCode('InvalidConfig', () => TimingWheel.create({ start: 1.7e12, alarmPrecision: 1e-6 }))
    expect(message).toContain('alarmPrecision 0.000001 is too fine for start 1700000000000')
    expect(message).toMatch(/use alarmPrecision >= [\d.e-]+ or a start with \|start\| < \d+/)
    const suggested = Number(/alarmPrecision >= ([\d.e-]+)/.exec(message)![1])
    TimingWheel.create({ start: 1.7e12, alarmPrecision: suggested })
  })
})

describe('intervals', () => {
  it.each([
    [0, 1],
    [0, 0.1],
    [0, 1 / 60],
    [1.7e12, 2 ** -10],
    [1.7e12, 1 / 60],
    [-12.5, 0.3],
  ])('bracket every time exactly (start %d, precision %d)', (start, alarmPrecision) => {
    const t = TimingWheel.create<string>({ start, alarmPrecision })
    for (let k = 0; k < 2000; k += 7) {
      const s = TimingWheel.intervalNumStart(t, k)
      for (const x of [s, nextUp(s), nextDown(TimingWheel.intervalNumStart(t, k + 1))]) {
        const n = TimingWheel.intervalNum(t, x)
        expect(n).toBe(k)
        expect(TimingWheel.intervalNumStart(t, n)).toBeLessThanOrEqual(x)
        expect(x).toBeLessThan(TimingWheel.intervalNumStart(t, n + 1))
        expect(TimingWheel.intervalStart(t, x)).toBe(s)
      }
    }
  })

  it('refuses times before start, not finite or past the range', () => {
    const t = TimingWheel.create<string>({ start: 10, alarmPrecision: 1 })
    for (const x of [9, Number.NaN, Infinity, 2 ** 60]) {
      expect(expectCode('TimeOutOfRange', () => TimingWheel.intervalNum(t, x))).toContain(String(x))
    }
    for (const k of [-1, 0.5, 2 ** 52]) {
      expectCode('TimeOutOfRange', () => TimingWheel.intervalNumStart(t, k))
    }
  })

  it('nowIntervalNum, the allowed interval numbers and alarmUpperBound move with now', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1, levelBits: [3, 2] })
    expect(TimingWheel.nowIntervalNum(t)).toBe(0)
    expect(TimingWheel.minAllowedAlarmIntervalNum(t)).toBe(0)
    const before = TimingWheel.alarmUpperBound(t)
    expect(before).toBeGreaterThanOrEqual(2 ** 5)
    expect(TimingWheel.maxAllowedAlarmIntervalNum(t)).toBe(before - 1)
    fire(t, 100.5)
    expect(TimingWheel.nowIntervalNum(t)).toBe(100)
    expect(TimingWheel.alarmUpperBound(t)).toBeGreaterThanOrEqual(100 + 2 ** 5)
  })
})

describe('adding and removing alarms', () => {
  it('add accepts times from the start of the current interval up to alarmUpperBound', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1, levelBits: [10] })
    fire(t, 5.5)
    const a = TimingWheel.add(t, 5, 'in the current interval, before now')
    expect(Alarm.at(t, a)).toBe(5)
    expect(Alarm.intervalNum(t, a)).toBe(5)
    expect(Alarm.value(t, a)).toBe('in the current interval, before now')
    TimingWheel.add(t, nextDown(TimingWheel.alarmUpperBound(t)), 'last')
    expect(TimingWheel.length(t)).toBe(2)
  })

  it('add names the value and the range when it refuses a time, and changes nothing', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1, levelBits: [10] })
    expect(expectCode('TimeOutOfRange', () => TimingWheel.add(t, 1024, 'x'))).toBe(
      'TimeOutOfRange: add at 1024 is not below alarmUpperBound 1024 (now 0, alarmPrecision 1)',
    )
    fire(t, 3)
    expect(expectCode('TimeOutOfRange', () => TimingWheel.add(t, 2.5, 'x'))).toBe(
      'TimeOutOfRange: add at 2.5 is before intervalStart(now) 3 (now 3, alarmPrecision 1)',
    )
    expect(expectCode('TimeOutOfRange', () => TimingWheel.add(t, Number.NaN, 'x'))).toContain('add at NaN is not a finite time')
    expect(TimingWheel.isEmpty(t)).toBe(true)
    TimingWheel.invariant(t)
  })

  it('addAtIntervalNum adds at the start of the interval', () => {
    const t = TimingWheel.create<string>({ start: 1, alarmPrecision: 0.25 })
    const a = TimingWheel.addAtIntervalNum(t, 8, 'k8')
    expect(Alarm.at(t, a)).toBe(3)
    expect(Alarm.intervalNum(t, a)).toBe(8)
    expectCode('TimeOutOfRange', () => TimingWheel.addAtIntervalNum(t, -1, 'x'))
    expectCode('TimeOutOfRange', () => TimingWheel.addAtIntervalNum(t, 1.5, 'x'))
  })

  it('remove, mem, and the AlarmNotFound of dead and foreign alarms', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    const u = TimingWheel.create<string>({ alarmPrecision: 1 })
    const a = TimingWheel.add(t, 3, 'a')
    expect(TimingWheel.mem(t, a)).toBe(true)
    expect(TimingWheel.mem(u, a)).toBe(false)
    TimingWheel.remove(t, a)
    expect(TimingWheel.mem(t, a)).toBe(false)
    expect(expectCode('AlarmNotFound', () => TimingWheel.remove(t, a))).toContain('not in this timing wheel')
    expectCode('AlarmNotFound', () => Alarm.at(t, a))
    expectCode('AlarmNotFound', () => Alarm.value(t, a))
    expectCode('AlarmNotFound', () => Alarm.intervalNum(t, a))
    expectCode('AlarmNotFound', () => TimingWheel.reschedule(t, a, 5))
    expectCode('AlarmNotFound', () => TimingWheel.rescheduleAtIntervalNum(t, a, 5))
    expect(TimingWheel.mem(t, Alarm.null())).toBe(false)
    expectCode('AlarmNotFound', () => TimingWheel.remove(t, Alarm.null()))
  })

  it('reschedule moves an alarm and makes it last in its interval', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    const a = TimingWheel.add(t, 2.1, 'a')
    TimingWheel.add(t, 2.9, 'b')
    TimingWheel.reschedule(t, a, 2.5)
    expect(Alarm.at(t, a)).toBe(2.5)
    const c = TimingWheel.add(t, 9, 'c')
    TimingWheel.rescheduleAtIntervalNum(t, c, 2)
    expect(Alarm.at(t, c)).toBe(2)
    expect(TimingWheel.toArray(t).map((x) => Alarm.value(t, x))).toEqual(['b', 'a', 'c'])
    expect(fire(t, 3)).toEqual(['b', 'a', 'c'])
    const d = TimingWheel.add(t, 4, 'd')
    expectCode('TimeOutOfRange', () => TimingWheel.reschedule(t, d, 1))
    expect(Alarm.at(t, d)).toBe(4)
  })

  it('clear removes every alarm and kills the handles', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    const as = [1, 100, 1e9].map((at) => TimingWheel.add(t, at, String(at)))
    TimingWheel.clear(t)
    expect(TimingWheel.isEmpty(t)).toBe(true)
    for (const a of as) expect(TimingWheel.mem(t, a)).toBe(false)
    expect(fire(t, 2e9)).toEqual([])
  })

  it('iter and toArray list the alarms in firing order', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 10, levelBits: [2, 2, 2] })
    for (const [at, v] of [[500, 'e'], [15, 'b'], [11, 'a'], [19, 'c'], [60, 'd']] as const) TimingWheel.add(t, at, v)
    const seen: string[] = []
    TimingWheel.iter(t, (a) => seen.push(Alarm.value(t, a)))
    expect(seen).toEqual(['b', 'a', 'c', 'd', 'e'])
    expect(fire(t, 1000)).toEqual(seen)
  })
})

describe('advancing the clock', () => {
  it('fires alarms before the start of the interval of `to`, never early', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    TimingWheel.add(t, 1.5, 'a')
    TimingWheel.add(t, 2, 'b')
    TimingWheel.add(t, 2.9, 'c')
    expect(fire(t, 2.99)).toEqual(['a'])
    expect(TimingWheel.now(t)).toBe(2.99)
    expect(fire(t, 3)).toEqual(['b', 'c'])
  })

  it('fires in interval order, then in the order added', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1, levelBits: [1, 1, 1] })
    TimingWheel.add(t, 6.9, 'late in 6')
    TimingWheel.add(t, 3, 'three')
    TimingWheel.add(t, 6.1, 'early in 6, added later')
    expect(fire(t, 100)).toEqual(['three', 'late in 6', 'early in 6, added later'])
  })

  it('is a no-op for times at or before now', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    fire(t, 10)
    TimingWheel.add(t, 10, 'x')
    expect(fire(t, 10)).toEqual([])
    expect(fire(t, 3)).toEqual([])
    expect(TimingWheel.now(t)).toBe(10)
  })

  it('refuses times that are not finite or past the range, changing nothing', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    TimingWheel.add(t, 1, 'x')
    for (const to of [Number.NaN, Infinity, -Infinity, 2 ** 53]) {
      expect(expectCode('TimeOutOfRange', () => TimingWheel.advanceClock(t, to, () => {}))).toContain(String(to))
    }
    expect(TimingWheel.now(t)).toBe(0)
    expect(TimingWheel.length(t)).toBe(1)
  })

  it('runs handlers with now = to; they may add, remove and reschedule', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    const b = TimingWheel.add(t, 2, 'b')
    const c = TimingWheel.add(t, 3, 'c')
    TimingWheel.add(t, 1, 'a')
    const fired: string[] = []
    TimingWheel.advanceClock(t, 5, (alarm) => {
      fired.push(Alarm.value(t, alarm))
      expect(TimingWheel.now(t)).toBe(5)
      if (Alarm.value(t, alarm) === 'a') {
        TimingWheel.remove(t, b)
        TimingWheel.reschedule(t, c, 7)
        TimingWheel.add(t, 5, 'new')
      }
    })
    expect(fired).toEqual(['a'])
    expect(TimingWheel.toArray(t).map((x) => Alarm.value(t, x))).toEqual(['new', 'c'])
  })

  it('lets a handler reschedule its own alarm: a periodic alarm under one handle', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    const tick = TimingWheel.add(t, 10, 'tick')
    const times: number[] = []
    const every10 = (a: TimingWheel.Alarm<string>): void => {
      expect(TimingWheel.mem(t, a)).toBe(false)
      expect(TimingWheel.length(t)).toBe(0)
      times.push(Alarm.at(t, a))
      TimingWheel.reschedule(t, a, Alarm.at(t, a) + 10)
    }
    for (let to = 5; to <= 45; to += 5) TimingWheel.advanceClock(t, to, every10)
    expect(times).toEqual([10, 20, 30, 40])
    expect(TimingWheel.mem(t, tick)).toBe(true)
    expect(Alarm.at(t, tick)).toBe(50)
  })

  it('refuses reentrant advances and clears', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    TimingWheel.add(t, 1, 'x')
    TimingWheel.advanceClock(t, 2, () => {
      expectCode('Reentrant', () => TimingWheel.advanceClock(t, 3, () => {}))
      expectCode('Reentrant', () => TimingWheel.advanceClockStopAtNextAlarm(t, 3, () => {}))
      expectCode('Reentrant', () => TimingWheel.firePastAlarms(t, () => {}))
      expectCode('Reentrant', () => TimingWheel.clear(t))
    })
    expect(TimingWheel.now(t)).toBe(2)
  })

  it('completes the advance when handlers throw, then rethrows the first error', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    for (const v of ['a', 'b', 'c']) TimingWheel.add(t, 1, v)
    const fired: string[] = []
    expect(() =>
      TimingWheel.advanceClock(t, 2, (a) => {
        fired.push(Alarm.value(t, a))
        throw new Error(`failed ${Alarm.value(t, a)}`)
      }),
    ).toThrow('failed a')
    expect(fired).toEqual(['a', 'b', 'c'])
    expect(TimingWheel.now(t)).toBe(2)
    expect(TimingWheel.isEmpty(t)).toBe(true)
  })

  it('advanceClockStopAtNextAlarm stops at the next alarm and fires it', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    TimingWheel.add(t, 3.25, 'a')
    TimingWheel.add(t, 3.25, 'a2')
    TimingWheel.add(t, 3.75, 'b')
    TimingWheel.add(t, 8, 'c')
    const fired: string[] = []
    const record = (a: TimingWheel.Alarm<string>): void => {
      fired.push(Alarm.value(t, a))
    }
    TimingWheel.advanceClockStopAtNextAlarm(t, 3, record)
    expect([TimingWheel.now(t), fired]).toEqual([3, []])
    TimingWheel.advanceClockStopAtNextAlarm(t, 100, record)
    expect([TimingWheel.now(t), fired]).toEqual([3.25, ['a', 'a2']])
    TimingWheel.advanceClockStopAtNextAlarm(t, 100, record)
    expect([TimingWheel.now(t), fired]).toEqual([3.75, ['a', 'a2', 'b']])
    TimingWheel.advanceClockStopAtNextAlarm(t, 100, record)
    expect([TimingWheel.now(t), fired.length]).toEqual([8, 4])
    TimingWheel.advanceClockStopAtNextAlarm(t, 100, record)
    expect(TimingWheel.now(t)).toBe(100)
  })

  it('firePastAlarms fires the current interval up to now, in the order added', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 10 })
    fire(t, 15)
    TimingWheel.add(t, 16, 'after now')
    TimingWheel.add(t, 12, 'b')
    TimingWheel.add(t, 10, 'a')
    TimingWheel.add(t, 15, 'c')
    const fired: string[] = []
    TimingWheel.firePastAlarms(t, (a) => {
      fired.push(Alarm.value(t, a))
      TimingWheel.add(t, 11, 'added during')
    })
    expect(fired).toEqual(['b', 'a', 'c'])
    expect(TimingWheel.toArray(t).map((a) => Alarm.value(t, a))).toEqual([
      'after now',
      'added during',
      'added during',
      'added during',
    ])
  })
})

describe('the next alarm', () => {
  it('nextAlarmFiresAt is the least time that fires an alarm', () => {
    const t = TimingWheel.create<string>({ start: 0.5, alarmPrecision: 2 })
    expect(TimingWheel.nextAlarmFiresAt(t)).toEqual(O.none)
    expectCode('Empty', () => TimingWheel.nextAlarmFiresAtExn(t))
    TimingWheel.add(t, 7.5, 'x')
    const next = TimingWheel.nextAlarmFiresAtExn(t)
    expect(next).toBe(8.5)
    expect(fire(t, nextDown(next))).toEqual([])
    expect(fire(t, next)).toEqual(['x'])
  })

  it('is none when the earliest alarm is in the last representable interval', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1, levelBits: [4] })
    const last = TimingWheel.maxIntervalNum(t)
    TimingWheel.advanceClock(t, last, () => {})
    TimingWheel.add(t, last, 'x')
    expect(TimingWheel.nextAlarmFiresAt(t)).toEqual(O.none)
    expectCode('TimeOutOfRange', () => TimingWheel.nextAlarmFiresAtExn(t))
  })

  it('min and max alarm times of the earliest interval, and its number', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    expect(TimingWheel.minAlarmTimeInMinInterval(t)).toEqual(O.none)
    expect(TimingWheel.maxAlarmTimeInMinInterval(t)).toEqual(O.none)
    expect(TimingWheel.minAlarmIntervalNum(t)).toEqual(O.none)
    expectCode('Empty', () => TimingWheel.minAlarmTimeInMinIntervalExn(t))
    expectCode('Empty', () => TimingWheel.maxAlarmTimeInMinIntervalExn(t))
    expectCode('Empty', () => TimingWheel.minAlarmIntervalNumExn(t))
    for (const at of [5000.7, 5000.2, 5000.9, 9000]) TimingWheel.add(t, at, String(at))
    expect(TimingWheel.minAlarmTimeInMinIntervalExn(t)).toBe(5000.2)
    expect(TimingWheel.maxAlarmTimeInMinIntervalExn(t)).toBe(5000.9)
    expect(TimingWheel.minAlarmIntervalNumExn(t)).toBe(5000)
  })

  it('invariant notices a corrupted wheel', () => {
    const t = TimingWheel.create<string>({ alarmPrecision: 1 })
    TimingWheel.add(t, 3, 'x')
    TimingWheel.invariant(t)
    ;(t as unknown as { now: number }).now = 1e6
    expect(() => TimingWheel.invariant(t)).toThrow(/nowIntervalNum/)
  })
})
