/**
 * The wheel, its configuration and its snapshots under attack: every argument that is not
 * what the contract accepts is refused with the right code before anything changes, the
 * reference model refuses the same inputs alike, extreme numbers never hang a call, and
 * untrusted data costs time linear in its size and a few MiB at most.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { Alarm, Config, Elt, PriorityQueue, TimingWheel, TimingWheelError, type TimingWheelErrorCode } from '../lib/index.js'
import { ReferenceWheel } from '../lib/testing/index.js'
import { expectCode } from './support/expect-error.js'

type W = TimingWheel.TimingWheel<string>

const notNumbers: readonly unknown[] = ['106', '', true, false, null, undefined, [], [106], { valueOf: () => 106 }, new Number(106), 106n, Symbol('t')]
const badNumbers: readonly number[] = [Number.NaN, Infinity, -Infinity, 2 ** 53, 1e308, -1e308]
const notFunctions: readonly unknown[] = [undefined, null, 5, 'f', {}, [], Symbol('h')]

const observe = (w: W) => ({
  now: TimingWheel.now(w),
  length: TimingWheel.length(w),
  alarms: TimingWheel.toArray(w).map((a) => [a, Alarm.at(w, a), Alarm.value(w, a)] as const),
})

/** A wheel at now 10 with alarms in several intervals, one due now. */
const sample = (): { w: W; alarms: Array<TimingWheel.Alarm<string>> } => {
  const w = TimingWheel.create<string>({ alarmPrecision: 1 })
  TimingWheel.advanceClock(w, 10, () => {})
  const alarms = [10, 12.5, 300, 5000].map((at, i) => TimingWheel.add(w, at, `v${i}`))
  return { w, alarms }
}

const refusedUnchanged = (w: W, code: TimingWheelErrorCode, f: () => unknown): string => {
  const before = observe(w)
  const message = expectCode(code, f)
  expect(observe(w)).toEqual(before)
  TimingWheel.invariant(w)
  return message
}

/** Every entry that takes a time, with the time in its place. */
const timeEntries: ReadonlyArray<readonly [string, (w: W, a: TimingWheel.Alarm<string>, x: number) => unknown]> = [
  ['add', (w, _, x) => TimingWheel.add(w, x, 'x')],
  ['reschedule', (w, a, x) => TimingWheel.reschedule(w, a, x)],
  ['advanceClock', (w, _, x) => TimingWheel.advanceClock(w, x, () => {})],
  ['advanceClockStopAtNextAlarm', (w, _, x) => TimingWheel.advanceClockStopAtNextAlarm(w, x, () => {})],
  ['intervalNum', (w, _, x) => TimingWheel.intervalNum(w, x)],
  ['intervalStart', (w, _, x) => TimingWheel.intervalStart(w, x)],
  ['intervalNumStart', (w, _, x) => TimingWheel.intervalNumStart(w, x)],
  ['addAtIntervalNum', (w, _, x) => TimingWheel.addAtIntervalNum(w, x, 'x')],
  ['rescheduleAtIntervalNum', (w, a, x) => TimingWheel.rescheduleAtIntervalNum(w, a, x)],
]

describe('TimingWheel refuses what is not a time', () => {
  it.each(timeEntries)('%s: non-numbers and bad numbers are TimeOutOfRange, naming the value', (name, call) => {
    const { w, alarms } = sample()
    // Advancing to a finite time before now is a no-op, as the contract says.
    const bad = name.startsWith('advance') ? badNumbers.filter((x) => x !== -1e308) : badNumbers
    for (const x of [...notNumbers, ...bad]) {
      const message = refusedUnchanged(w, 'TimeOutOfRange', () => call(w, alarms[1]!, x as number))
      if (typeof x === 'number') expect(message).toContain(String(x))
    }
  })

  it('the reference model refuses the same times with the same codes (property)', () => {
    const hostile = fc.oneof(fc.constantFrom(...notNumbers, ...badNumbers), fc.double(), fc.integer({ min: -5, max: 2 ** 20 }))
    const codeOf = (f: () => unknown): string => {
      try {
        f()
        return 'ok'
      } catch (e) {
        return e instanceof TimingWheelError ? e.code : `not a TimingWheelError: ${String(e)}`
      }
    }
    fc.assert(
      fc.property(hostile, fc.constantFrom('add', 'advanceClock', 'intervalNum', 'intervalStart'), (x, entry) => {
        const w = TimingWheel.create<string>({ alarmPrecision: 1 })
        const r = ReferenceWheel.create<string>({ alarmPrecision: 1 })
        const onWheel = {
          add: () => TimingWheel.add(w, x as number, 'x'),
          advanceClock: () => TimingWheel.advanceClock(w, x as number, () => {}),
          intervalNum: () => TimingWheel.intervalNum(w, x as number),
          intervalStart: () => TimingWheel.intervalStart(w, x as number),
        }[entry]
        const onModel = {
          add: () => ReferenceWheel.add(r, x as number, 'x'),
          advanceClock: () => ReferenceWheel.advanceClock(r, x as number, () => {}),
          intervalNum: () => ReferenceWheel.intervalNum(r, x as number),
          intervalStart: () => ReferenceWheel.intervalStart(r, x as number),
        }[entry]
        expect(codeOf(onWheel)).toBe(codeOf(onModel))
      }),
      { numRuns: 500 },
    )
  })

  it('a handle that is not a number is AlarmNotFound, never coerced', () => {
    const { w, alarms } = sample()
    for (const h of alarms) {
      for (const forged of [String(h), [h], { valueOf: () => h }, new Number(h), BigInt(h), h + 0.5 * 2 ** -20]) {
        if (forged === h) continue
        const f = forged as TimingWheel.Alarm<string>
        expect(TimingWheel.mem(w, f)).toBe(false)
        refusedUnchanged(w, 'AlarmNotFound', () => TimingWheel.remove(w, f))
        refusedUnchanged(w, 'AlarmNotFound', () => TimingWheel.reschedule(w, f, 20))
        refusedUnchanged(w, 'AlarmNotFound', () => Alarm.at(w, f))
      }
    }
  })
})

describe('TimingWheel refuses a handler that is not a function, before anything moves', () => {
  const entries: ReadonlyArray<readonly [string, (w: W, f: unknown) => unknown]> = [
    ['advanceClock', (w, f) => TimingWheel.advanceClock(w, 6000, f as () => void)],
    ['advanceClockStopAtNextAlarm', (w, f) => TimingWheel.advanceClockStopAtNextAlarm(w, 6000, f as () => void)],
    ['firePastAlarms', (w, f) => TimingWheel.firePastAlarms(w, f as () => void)],
    ['iter', (w, f) => TimingWheel.iter(w, f as () => void)],
  ]
  it.each(entries)('%s', (name, call) => {
    for (const f of notFunctions) {
      const { w } = sample()
      expect(refusedUnchanged(w, 'InvalidArgument', () => call(w, f))).toContain(`${name}: the handler`)
      const r = ReferenceWheel.create<string>({ alarmPrecision: 1 })
      expectCode('InvalidArgument', () =>
        name === 'iter' ? ReferenceWheel.iter(r, f as () => void) : ReferenceWheel.advanceClock(r, 5, f as () => void),
      )
    }
  })
})

describe('configurations', () => {
  /** Runs `f`, failing the test if it takes more than a second: it must never loop. */
  const promptly = <T>(f: () => T): T => {
    const began = performance.now()
    const result = f()
    expect(performance.now() - began).toBeLessThan(1000)
    return result
  }

  it.each([
    [{ alarmPrecision: 1e308 }, 'too coarse'],
    [{ alarmPrecision: Number.MAX_VALUE }, 'too coarse'],
    [{ alarmPrecision: 1, start: 1e308 }, 'too far from 0'],
    [{ alarmPrecision: 1, start: -1e308 }, 'too far from 0'],
    [{ alarmPrecision: Number.MIN_VALUE, start: 1 }, 'too fine'],
    [{ alarmPrecision: 1e-6, start: 1.7e12 }, 'too fine'],
  ])('refuses %j promptly, saying what would work', (config, words) => {
    expect(promptly(() => expectCode('InvalidConfig', () => TimingWheel.create(config)))).toContain(words)
    const decoded = promptly(() => Config.decode(config))
    expect(E.isLeft(decoded) && decoded.left.message).toContain(words)
    expect(promptly(() => expectCode('InvalidConfig', () => ReferenceWheel.create(config)))).toContain(words)
  })

  it('accepts the extremes that do work', () => {
    const coarse = TimingWheel.create<string>({ alarmPrecision: 2 ** 1020 })
    TimingWheel.add(coarse, 2 ** 1020, 'far')
    TimingWheel.invariant(coarse)
    TimingWheel.create({ alarmPrecision: Number.MIN_VALUE })
  })

  it.each([
    [{ alarmPrecision: 1, start: null }, 'start: null'],
    [{ alarmPrecision: 1, precision: 2 }, 'unknown key "precision"'],
    [{ alarmPrecision: 1, levelbits: [4] }, 'unknown key "levelbits"'],
    [{ alarmPrecision: '1' }, 'alarmPrecision: "1"'],
    [{ alarmPrecision: 1, capacity: 2 ** 27 }, 'capacity: 134217728'],
    [null, 'null is not an object'],
    [[1], 'is not an object'],
  ])('create and Config.decode refuse %j alike', (config, words) => {
    const created = expectCode('InvalidConfig', () => TimingWheel.create(config as unknown as TimingWheel.Config))
    const decoded = Config.decode(config)
    expect(E.isLeft(decoded) && decoded.left.message).toBe(created)
    expect(created).toContain(words)
  })

  it('a capacity the codec accepts never makes create throw, and reserves at most 2 MiB', () => {
    const config = Config.decode({ alarmPrecision: 1, capacity: PriorityQueue.maxCapacity })
    expect(E.isRight(config)).toBe(true)
    if (E.isRight(config)) {
      const w = TimingWheel.create<number>(config.right)
      expect(w.queue.ints.byteLength).toBeLessThanOrEqual(2 ** 21)
    }
  })
})

describe('snapshots from outside', () => {
  const codec = TimingWheel.snapshotCodec(t.number)
  const snapshot = (alarms: number) => ({
    config: { alarmPrecision: 1 },
    now: 0,
    alarms: Array.from({ length: alarms }, (_, i) => ({ at: 1 + ((i * 7919) % 3_600_000), value: i })),
  })

  it('decodes n alarms in time linear in n', () => {
    const timeOf = (n: number): number => {
      const data = snapshot(n)
      let best = Infinity
      for (let i = 0; i < 3; i++) {
        const began = performance.now()
        const decoded = codec.decode(data)
        best = Math.min(best, performance.now() - began)
        expect(E.isRight(decoded) && TimingWheel.length(decoded.right)).toBe(n)
      }
      return best
    }
    timeOf(5_000) // warm up
    const small = timeOf(20_000)
    const large = timeOf(80_000)
    // Four times the alarms: a quadratic decode takes sixteen times as long.
    expect(large / small).toBeLessThan(8)
  })

  it('refuses the 70-byte snapshot that used to hang, promptly', () => {
    const began = performance.now()
    const decoded = codec.decode(JSON.parse('{"config":{"alarmPrecision":1,"start":-1e308},"now":-1e308,"alarms":[]}'))
    expect(E.isLeft(decoded)).toBe(true)
    expect(performance.now() - began).toBeLessThan(1000)
  })

  it('builds the widest levels allowed in a few MiB', () => {
    const decoded = codec.decode({ config: { alarmPrecision: 1, levelBits: [24, 24, 4] }, now: 0, alarms: [{ at: 5, value: 1 }] })
    expect(E.isRight(decoded)).toBe(true)
    if (E.isRight(decoded)) {
      const q = decoded.right.queue
      expect(q.ints.byteLength + q.occupied.byteLength + q.headBase.byteLength).toBeLessThan(9 * 2 ** 20)
    }
  })

  it('refuses holes and unknown keys with a Left, naming the path', () => {
    const holey = { config: { alarmPrecision: 1 }, now: 0, alarms: [{ at: 1, value: 1 }, , { at: 2, value: 2 }] } // eslint-disable-line no-sparse-arrays
    const describe = (u: unknown): string => {
      const decoded = codec.decode(u)
      expect(E.isLeft(decoded)).toBe(true)
      return E.isLeft(decoded) ? Config.describeErrors('snapshot', decoded.left) : ''
    }
    expect(describe(holey)).toContain('alarms.1: undefined is not an object')
    expect(describe({ ...snapshot(1), extra: 1 })).toContain('extra: unknown key "extra"')
    expect(describe({ ...snapshot(0), alarms: [{ at: 1, value: 1, when: 2 }] })).toContain('alarms.0.when: unknown key')
    expect(describe({ ...snapshot(0), config: { alarmPrecision: 1, precision: 1 } })).toContain('config.precision: unknown key')
    expect(describe({ ...snapshot(0), alarms: 5n })).toContain('5')
  })
})

describe('a handle that names no alarm', () => {
  it('is reported by the function called, as row/generation, or as not a handle at all', () => {
    const { w, alarms } = sample()
    const fired = alarms[0]!
    TimingWheel.advanceClock(w, 11, () => {})
    const row = (fired as number) % 2 ** 27
    const message = (f: () => unknown): string => expectCode('AlarmNotFound', f).replace(/^AlarmNotFound: /, '')
    for (const [name, call] of [
      ['reschedule', () => TimingWheel.reschedule(w, fired, 20)],
      ['rescheduleAtIntervalNum', () => TimingWheel.rescheduleAtIntervalNum(w, fired, 20)],
      ['remove', () => TimingWheel.remove(w, fired)],
      ['Alarm.at', () => Alarm.at(w, fired)],
      ['Alarm.value', () => Alarm.value(w, fired)],
      ['Alarm.intervalNum', () => Alarm.intervalNum(w, fired)],
    ] as const) {
      expect(message(call)).toBe(
        `${name}: alarm ${row}/${((fired as number) - row) / 2 ** 27} is not in this timing wheel: it fired or was removed (or cleared), or is another timing wheel's`,
      )
    }
    expect(message(() => TimingWheel.remove(w, 1.5 as TimingWheel.Alarm<string>))).toBe(
      'remove: 1.5 is not an alarm handle (handles are the integers add returns)',
    )
    expect(message(() => TimingWheel.remove(w, (2 ** 27 - 1) as TimingWheel.Alarm<string>))).toMatch(/^remove: alarm 134217727\/0 was never in this timing wheel$/)
    const q = PriorityQueue.create<string>()
    expect(message(() => Elt.key(q, 3 as never))).toBe('Elt.key: element 3/0 was never in this priority queue')
  })
})
