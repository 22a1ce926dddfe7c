/**
 * `timing-wheel/testing`: each export by example, `checkGuarantees` and the checked
 * advances against wheels broken on purpose (they must name the guarantee and the
 * alarm), and the differential property the helpers exist for: generated commands give
 * the same trace on the wheel, with every guarantee checked, as on the reference model.
 */
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { Alarm, Config, LevelBits, TimingWheel } from '../lib/index.js'
import { changeWithAt } from '../lib/priority-queue/internal.js'
import type { Elt } from '../lib/priority-queue/index.js'
import {
  type Command,
  GuaranteeViolation,
  ReferenceWheel,
  checkGuarantees,
  checkedAdvance,
  checkedAdvanceStopAtNextAlarm,
  checkedFirePastAlarms,
  checkedTimingWheelOps,
  commandsArb,
  configArb,
  levelBitsArb,
  referenceWheelOps,
  resolveTime,
  runCommands,
  timingWheelOps,
} from '../lib/testing/index.js'
import { expectCode } from './support/expect-error.js'

const runs = Number(process.env.TESTING_RUNS ?? 300)

type W = TimingWheel.TimingWheel<string>

const wheel = (): W => TimingWheel.create<string>({ alarmPrecision: 1, levelBits: [4, 4] })

/** Runs `f`, expecting a `GuaranteeViolation` of `guarantee`; returns its message. */
const expectViolation = (guarantee: string, f: () => unknown): string => {
  let caught: unknown
  try {
    f()
  } catch (e) {
    caught = e
  }
  expect(caught, `expected a violation of ${guarantee}`).toBeInstanceOf(GuaranteeViolation)
  expect((caught as GuaranteeViolation).guarantee).toBe(guarantee)
  return (caught as GuaranteeViolation).message
}

/** Stores `at` beside `key` as if they agreed: the corruption the checks must catch. */
const corrupt = (t: W, a: TimingWheel.Alarm<string>, key: number, at: number): void =>
  changeWithAt(t.queue, a as unknown as Elt<string>, key, at)

describe('levelBitsArb', () => {
  it('draws valid level bits within the options', () => {
    fc.assert(
      fc.property(levelBitsArb({ minLevels: 2, maxLevels: 3, maxBitsPerLevel: 24 }), (lb) => {
        expect(E.isRight(LevelBits.create(lb))).toBe(true)
        expect(lb.length).toBeGreaterThanOrEqual(2)
        expect(lb.length).toBeLessThanOrEqual(3)
        expect(LevelBits.numBits(lb)).toBeLessThanOrEqual(LevelBits.maxNumBits)
      }),
    )
  })

  it('refuses options no level bits satisfy', () => {
    expect(() => levelBitsArb({ maxBitsPerLevel: 25 })).toThrow(RangeError)
    expect(() => levelBitsArb({ minLevels: 3, maxLevels: 2 })).toThrow(/minLevels 3/)
  })
})

describe('configArb', () => {
  it('draws configurations that Config.decode accepts and the wheel and model build', () => {
    fc.assert(
      fc.property(configArb(), (config) => {
        expect(Config.decode(Config.codec.encode(config))).toEqual(E.right(config))
        // Both turn a start of -0 into 0.
        expect(TimingWheel.now(TimingWheel.create(config))).toBe(config.start + 0)
        expect(ReferenceWheel.now(ReferenceWheel.create(config))).toBe(config.start + 0)
      }),
      { numRuns: runs },
    )
  })

  it('takes an arbitrary per field', () => {
    const configs = fc.sample(configArb({ alarmPrecision: fc.constant(0.25), start: fc.constant(7) }), 20)
    expect(configs.every((c) => c.alarmPrecision === 0.25 && c.start === 7)).toBe(true)
  })
})

describe('commandsArb', () => {
  it('draws only the kinds asked for, at most maxCommands', () => {
    const lists = fc.sample(commandsArb({ kinds: ['add', 'advanceClock'], maxCommands: 5, handlerActions: false }), 50)
    for (const commands of lists) {
      expect(commands.length).toBeLessThanOrEqual(5)
      for (const c of commands) {
        expect(['add', 'advanceClock']).toContain(c.kind)
        if (c.kind === 'advanceClock') expect(c.handlers).toEqual([])
      }
    }
  })

  it('draws only valid times and live alarms when told to', () => {
    const valid = commandsArb({ invalidTimes: false, staleAlarms: false, handlerActions: false })
    fc.assert(
      fc.property(configArb(), valid, (config, commands) => {
        const trace = runCommands(timingWheelOps, TimingWheel.create<number>(config), commands)
        for (const step of trace) expect(['ok', 'skipped']).toContain(step.outcome)
      }),
      { numRuns: runs },
    )
  })

  it('draws invalid times and stale alarms by default', () => {
    const outcomes = new Set(
      fc
        .sample(fc.tuple(configArb(), commandsArb()), { numRuns: 100, seed: 42 })
        .flatMap(([config, commands]) => runCommands(referenceWheelOps, ReferenceWheel.create<number>(config), commands))
        .map((step) => `${step.command.kind} ${step.outcome}`),
    )
    for (const expected of ['add TimeOutOfRange', 'remove AlarmNotFound', 'reschedule AlarmNotFound', 'advanceClock TimeOutOfRange']) {
      expect(outcomes).toContain(expected)
    }
  })

  it('refuses bad options', () => {
    expect(() => commandsArb({ kinds: [] })).toThrow(RangeError)
    expect(() => commandsArb({ minCommands: 3, maxCommands: 2 })).toThrow(RangeError)
  })
})

describe('runCommands', () => {
  const commands: Command[] = [
    { kind: 'add', at: { kind: 'intervalStart', ahead: 5, nudge: 0 } },
    { kind: 'add', at: { kind: 'intervalStart', ahead: 2, nudge: 0 } },
    { kind: 'add', at: { kind: 'notFinite', value: Number.NaN } },
    {
      kind: 'advanceClock',
      to: { kind: 'intervalStart', ahead: 3, nudge: 0 },
      handlers: [{ kind: 'rescheduleSelf', at: { kind: 'intervalStart', ahead: 4, nudge: 0 } }],
    },
    { kind: 'remove', alarm: { kind: 'stale', index: 0 } },
    { kind: 'remove', alarm: { kind: 'live', index: 0 } },
    { kind: 'remove', alarm: { kind: 'stale', index: 0 } },
  ]

  it('runs plain-data commands and records what each did', () => {
    const trace = runCommands(timingWheelOps, TimingWheel.create<number>({ alarmPrecision: 1 }), commands)
    expect(trace.map((s) => s.outcome)).toEqual(['ok', 'ok', 'TimeOutOfRange', 'ok', 'skipped', 'ok', 'AlarmNotFound'])
    expect(trace.map((s) => s.time)).toEqual([O.some(5), O.some(2), O.some(Number.NaN), O.some(3), O.none, O.none, O.none])
    // Values number the adds; alarm 1 fired at 3 and put itself back at 7.
    expect(trace[1]!.alarms).toEqual([[2, 1], [5, 0]])
    expect(trace[3]).toMatchObject({ fired: [1], handlers: ['ok'], now: 3, alarms: [[5, 0], [7, 1]], nextAlarmFiresAt: O.some(6) })
    expect(trace[5]!.alarms).toEqual([[7, 1]])
  })

  it('gives the same trace on the reference model', () => {
    const config = { alarmPrecision: 1 }
    expect(runCommands(referenceWheelOps, ReferenceWheel.create<number>(config), commands)).toEqual(
      runCommands(checkedTimingWheelOps, TimingWheel.create<number>(config), commands),
    )
  })

  it('resolves times relative to the wheel', () => {
    const t = TimingWheel.create<number>({ start: 10, alarmPrecision: 0.5, levelBits: [2] })
    TimingWheel.advanceClock(t, 11.2, () => {})
    expect(resolveTime(timingWheelOps, t, { kind: 'intervalStart', ahead: 1, nudge: 0 })).toBe(11.5)
    expect(resolveTime(timingWheelOps, t, { kind: 'alarmUpperBound', nudge: 0 })).toBe(TimingWheel.alarmUpperBound(t))
    expect(resolveTime(timingWheelOps, t, { kind: 'withinInterval', ahead: 0, fraction: 0.5 })).toBe(11.25)
    expect(resolveTime(timingWheelOps, t, { kind: 'now', nudge: -1 })).toBeLessThan(11.2)
  })
})

describe('ReferenceWheel', () => {
  it('fires by interval, then in the order of adding, a reschedule counting as adding', () => {
    const r = ReferenceWheel.create<string>({ alarmPrecision: 1 })
    const a = ReferenceWheel.add(r, 2.5, 'a')
    ReferenceWheel.add(r, 2, 'b')
    ReferenceWheel.add(r, 1, 'c')
    ReferenceWheel.reschedule(r, a, 2.75)
    const fired: string[] = []
    ReferenceWheel.advanceClock(r, 3, (x) => fired.push(ReferenceWheel.alarmValue(r, x)))
    expect(fired).toEqual(['c', 'b', 'a'])
    expect(ReferenceWheel.mem(r, a)).toBe(false)
    expectCode('AlarmNotFound', () => ReferenceWheel.alarmAt(r, a))
  })

  it('has the accessors and Exn twins of TimingWheel', () => {
    const config = { start: 1, alarmPrecision: 0.5, levelBits: [3, 2] }
    const r = ReferenceWheel.create<string>(config)
    const t = TimingWheel.create<string>(config)
    expect([ReferenceWheel.start(r), ReferenceWheel.alarmPrecision(r), ReferenceWheel.levelBits(r)]).toEqual([1, 0.5, [3, 2]])
    expect(ReferenceWheel.maxIntervalNum(r)).toBe(TimingWheel.maxIntervalNum(t))
    expect(ReferenceWheel.alarmUpperBound(r)).toBe(TimingWheel.alarmUpperBound(t))
    expectCode('Empty', () => ReferenceWheel.nextAlarmFiresAtExn(r))
    ReferenceWheel.add(r, 3.2, 'x')
    expect(ReferenceWheel.nextAlarmFiresAtExn(r)).toBe(3.5)
    expect(ReferenceWheel.minAlarmTimeInMinIntervalExn(r)).toBe(3.2)
  })
})

describe('checkGuarantees', () => {
  it('passes on a wheel used correctly', () => {
    const t = wheel()
    const gone = TimingWheel.add(t, 3, 'gone')
    TimingWheel.add(t, 40, 'far')
    TimingWheel.add(t, 4.5, 'near')
    TimingWheel.remove(t, gone)
    TimingWheel.advanceClock(t, 4, () => {})
    checkGuarantees(t, { stale: [gone] })
  })

  it('names Guarantee 2 and the alarm when an alarm is left behind', () => {
    const t = wheel()
    const a = TimingWheel.add(t, 5, 'x')
    t.now = 20 // the clock moves on without firing: what a lost advance would leave
    expect(expectViolation('never late', () => checkGuarantees(t))).toBe(
      `never late (Guarantee 2) broken for alarm ${a} (at 5, value "x"): its interval starts at 5, ` +
        'before the interval of now 20 (at 20); it should have fired',
    )
  })

  it('names an alarm whose interval is not its time', () => {
    const t = wheel()
    const a = TimingWheel.add(t, 9, 'x')
    corrupt(t, a, 2, 9)
    expect(expectViolation('handles consistent', () => checkGuarantees(t))).toContain(
      `alarm ${a} (at 9, value "x"): Alarm.intervalNum is 2, but its time is in interval 9`,
    )
  })

  it('names Guarantee 5 for a stale handle the wheel still holds', () => {
    const t = wheel()
    const a = TimingWheel.add(t, 5, 'x')
    expect(expectViolation('handles never alias', () => checkGuarantees(t, { stale: [a] }))).toBe(
      `handles never alias (Guarantee 5) broken for alarm ${a}: it was removed or fired, yet mem is true`,
    )
  })

  it('refuses to run inside a handler', () => {
    const t = wheel()
    TimingWheel.add(t, 1, 'x')
    let error: unknown
    TimingWheel.advanceClock(t, 5, () => {
      try {
        checkGuarantees(t)
      } catch (e) {
        error = e
      }
    })
    expect(String(error)).toContain('inside a handler')
  })
})

describe('checkedAdvance and its siblings', () => {
  it('pass the firings through, in order', () => {
    const t = wheel()
    for (const [at, v] of [[3, 'a'], [1, 'b'], [3, 'c'], [30, 'd']] as const) TimingWheel.add(t, at, v)
    const fired: string[] = []
    const log = (a: TimingWheel.Alarm<string>): void => {
      fired.push(Alarm.value(t, a))
    }
    checkedAdvance(t, 4, log)
    checkedAdvanceStopAtNextAlarm(t, 100, log)
    expect(TimingWheel.now(t)).toBe(30)
    TimingWheel.add(t, 30, 'e')
    checkedFirePastAlarms(t, log)
    expect(fired).toEqual(['b', 'a', 'c', 'd', 'e'])
  })

  it('name Guarantee 1 and the alarm when an alarm fires early', () => {
    const t = wheel()
    const a = TimingWheel.add(t, 50, 'late')
    corrupt(t, a, 2, 50) // kept in interval 2, so it fires at the advance to 10
    expect(expectViolation('never early', () => checkedAdvance(t, 10, () => {}))).toBe(
      `never early (Guarantee 1) broken for alarm ${a} (at 50, value "late"): it fired in advanceClock to 10, but 50 is not before 10`,
    )
  })

  it('name Guarantee 3 and the alarm when alarms fire out of order', () => {
    const t = wheel()
    const a = TimingWheel.add(t, 3, 'a')
    const b = TimingWheel.add(t, 7, 'b')
    corrupt(t, b, 1, 7) // b now fires first, though its time is later
    expect(expectViolation('order', () => checkedAdvance(t, 10, () => {}))).toBe(
      `order (Guarantee 3) broken for alarm ${a} (at 3, value "a"): it fired in advanceClock to 10 after ` +
        `alarm ${b} (at 7, value "b"), of a later interval`,
    )
  })

  it('finish the advance and rethrow a handler error, as the wheel does', () => {
    const t = wheel()
    TimingWheel.add(t, 1, 'a')
    TimingWheel.add(t, 2, 'b')
    let calls = 0
    expect(() =>
      checkedAdvance(t, 5, () => {
        calls++
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect([calls, TimingWheel.now(t), TimingWheel.length(t)]).toEqual([2, 5, 0])
  })

  it('let the wheel refuse a reentrant advance', () => {
    const t = wheel()
    TimingWheel.add(t, 1, 'a')
    checkedAdvance(t, 5, () => {
      expectCode('Reentrant', () => checkedAdvance(t, 6, () => {}))
    })
  })
})

describe('the wheel against the reference model', () => {
  it('gives the same trace for every command list, with every guarantee checked', () => {
    fc.assert(
      fc.property(configArb(), commandsArb(), (config, commands) => {
        const wheel = runCommands(checkedTimingWheelOps, TimingWheel.create<number>(config), commands)
        const model = runCommands(referenceWheelOps, ReferenceWheel.create<number>(config), commands)
        expect(wheel).toEqual(model)
      }),
      { numRuns: runs },
    )
  })
})
