/**
 * Every exported function of the main entry, at every argument position the contract's
 * "What counts" governs (times, keys, interval numbers, handles, handlers, configs, level
 * bits, untrusted data), fed hostile values by fast-check: each is refused with a
 * `TimingWheelError` of the position's code, naming the value, and the structure is left
 * exactly as it was (or, where the contract says the value is harmless, nothing changes).
 * The tables below name every function the entry exports, so a new export fails the
 * coverage test until its positions are listed. Positions typed as the structure itself,
 * a value or a codec take whatever the types allow and are not swept.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Main from '../lib/index.js'
import { Alarm, Config, Elt, LevelBits, PriorityQueue, TimingWheel, TimingWheelError, type TimingWheelErrorCode } from '../lib/index.js'

/** What a position holds; the swept kinds map to the code that refuses them. */
type Kind =
  | 'wheel' | 'queue' | 'levelBits' | 'value' | 'codec' | 'errors' // typed, not swept
  | 'time' | 'target' | 'key' | 'minKey' | 'intervalNum' | 'handle' | 'handleQuery' | 'handler' | 'precision'
  | 'config' | 'queueOptions' | 'bits' | 'bitsEither' | 'untrusted'

type Signatures = Readonly<Record<string, readonly Kind[]>>

const signatures: Readonly<Record<'TimingWheel' | 'Alarm' | 'PriorityQueue' | 'Elt' | 'LevelBits' | 'Config', Signatures>> = {
  TimingWheel: {
    create: ['config'],
    now: ['wheel'], start: ['wheel'], alarmPrecision: ['wheel'], levelBits: ['wheel'], length: ['wheel'],
    isEmpty: ['wheel'], config: ['wheel'], maxIntervalNum: ['wheel'], nowIntervalNum: ['wheel'],
    minAllowedAlarmIntervalNum: ['wheel'], maxAllowedAlarmIntervalNum: ['wheel'], alarmUpperBound: ['wheel'],
    clear: ['wheel'], toArray: ['wheel'], invariant: ['wheel'],
    minAlarmIntervalNum: ['wheel'], minAlarmIntervalNumExn: ['wheel'],
    minAlarmTimeInMinInterval: ['wheel'], minAlarmTimeInMinIntervalExn: ['wheel'],
    maxAlarmTimeInMinInterval: ['wheel'], maxAlarmTimeInMinIntervalExn: ['wheel'],
    nextAlarmFiresAt: ['wheel'], nextAlarmFiresAtExn: ['wheel'],
    intervalNum: ['wheel', 'time'], intervalStart: ['wheel', 'time'], intervalNumStart: ['wheel', 'intervalNum'],
    add: ['wheel', 'time', 'value'], addAtIntervalNum: ['wheel', 'intervalNum', 'value'],
    remove: ['wheel', 'handle'], reschedule: ['wheel', 'handle', 'time'],
    rescheduleAtIntervalNum: ['wheel', 'handle', 'intervalNum'], mem: ['wheel', 'handleQuery'],
    iter: ['wheel', 'handler'], firePastAlarms: ['wheel', 'handler'],
    advanceClock: ['wheel', 'target', 'handler'], advanceClockStopAtNextAlarm: ['wheel', 'target', 'handler'],
    snapshotCodec: ['codec'],
  },
  Alarm: { at: ['wheel', 'handle'], intervalNum: ['wheel', 'handle'], value: ['wheel', 'handle'], null: [] },
  PriorityQueue: {
    create: ['queueOptions'],
    length: ['queue'], isEmpty: ['queue'], minAllowedKey: ['queue'], maxAllowedKey: ['queue'], levelBits: ['queue'],
    minElt: ['queue'], minEltExn: ['queue'], minKey: ['queue'], minKeyExn: ['queue'], toArray: ['queue'],
    clear: ['queue'], invariant: ['queue'],
    add: ['queue', 'key', 'value'], remove: ['queue', 'handle'], change: ['queue', 'handle', 'key'],
    mem: ['queue', 'handleQuery'], iter: ['queue', 'handler'], increaseMinAllowedKey: ['queue', 'minKey', 'handler'],
  },
  Elt: { key: ['queue', 'handle'], value: ['queue', 'handle'], null: [] },
  LevelBits: {
    create: ['bitsEither'], createExn: ['bits'], fromInput: ['bits'], numBits: ['levelBits'], toArray: ['levelBits'],
    extendToMaxNumBits: ['levelBits'], durations: ['levelBits', 'precision'],
  },
  Config: { decode: ['untrusted'], describeError: ['errors'], describeErrors: ['errors'] },
}

const exportedFunctions = (ns: object): string[] =>
  Object.entries(ns).filter(([, v]) => typeof v === 'function').map(([k]) => k).sort()

it('the tables list every function the main entry exports', () => {
  const namespaces = Object.keys(Main).filter((k) => k !== 'TimingWheelError').sort()
  expect(namespaces).toEqual(Object.keys(signatures).sort())
  for (const [name, table] of Object.entries(signatures)) {
    expect(exportedFunctions(Main[name as keyof typeof signatures]), name).toEqual(Object.keys(table).sort())
  }
})

// ---- hostile values, by kind ----

const notNumbers: readonly unknown[] = ['106', '', true, false, null, undefined, [], [106], { valueOf: () => 106 }, new Number(106), 106n, Symbol('t')]
const badNumbers: readonly number[] = [Number.NaN, Infinity, -Infinity, 2 ** 53, 1e308, -1e308, Number.MAX_VALUE]
/** Values an optional field may not hold (undefined there means absent). */
const notOptionalNumbers = notNumbers.filter((x) => x !== undefined)
const notFunctions: readonly unknown[] = [undefined, null, 5, 'f', {}, [], Symbol('h'), 1n]
const notTimes: readonly unknown[] = [...notNumbers, ...badNumbers, 2 ** 52, 2 ** 60, -(2 ** 60)]
const notKeys: readonly unknown[] = [...notTimes, -1, -0.5, 0.5, 400.25, 2 ** 52 - 0.5, 2 ** 52]
const notConfigs = fc.oneof(
  fc.constantFrom(null, undefined, 5, 'x', [], [1]),
  fc.record({ alarmPrecision: fc.constantFrom(...notNumbers, Number.NaN, Infinity, -Infinity, 1e308, Number.MAX_VALUE, 0, -1, -1e308) }),
  fc.record({ alarmPrecision: fc.constant(1), start: fc.constantFrom(...notOptionalNumbers, ...badNumbers, 1e300) }),
  fc.record({ alarmPrecision: fc.constant(1), levelBits: fc.constantFrom(...notOptionalNumbers, [0], [25], [1.5], [30, 30], [-1], [Number.NaN], [, 1]) }),
  fc.record({ alarmPrecision: fc.constant(1), capacity: fc.constantFrom(...notOptionalNumbers, ...badNumbers, -1, 1.5, 2 ** 27) }),
  fc.constantFrom({ alarmPrecision: 1, precision: 2 }, { alarmPrecision: 1, levelbits: [10] }),
)
const notBits = fc.constantFrom(...notNumbers, [0], [25], [1.5], [30, 30], [-1], [Number.NaN], ['3'], [null], [, 1], { length: 1, 0: 3 })

// ---- structures, with a record of everything observable ----

type W = TimingWheel.TimingWheel<string>
type Q = PriorityQueue.PriorityQueue<string>

const wheel = () => {
  const w = TimingWheel.create<string>({ alarmPrecision: 1 })
  TimingWheel.advanceClock(w, 10, () => {})
  const removed = TimingWheel.add(w, 11, 'gone')
  TimingWheel.remove(w, removed)
  const handles = [10, 12.5, 300, 5000].map((at, i) => TimingWheel.add(w, at, `v${i}`))
  return { w, handles, removed }
}
const observeWheel = (w: W) => {
  TimingWheel.invariant(w)
  return { now: TimingWheel.now(w), length: TimingWheel.length(w), alarms: TimingWheel.toArray(w).map((a) => [a, Alarm.at(w, a), Alarm.value(w, a)]) }
}

const queue = () => {
  const q = PriorityQueue.create<string>()
  PriorityQueue.increaseMinAllowedKey(q, 10, () => {})
  const removed = PriorityQueue.add(q, 11, 'gone')
  PriorityQueue.remove(q, removed)
  const handles = [10, 12, 300, 5000].map((k, i) => PriorityQueue.add(q, k, `v${i}`))
  return { q, handles, removed }
}
const observeQueue = (q: Q) => {
  PriorityQueue.invariant(q)
  return { min: PriorityQueue.minAllowedKey(q), length: PriorityQueue.length(q), elts: PriorityQueue.toArray(q).map((e) => [e, Elt.key(q, e), Elt.value(q, e)]) }
}

/**
 * Numbers and other values that look like a handle of this structure but are not a live
 * one. A handle is generation * 2^27 + row with a random salt in the generation, so they
 * are computed from the handles of the very structure under test; below 2^52 a fraction
 * survives, so fractions of live handles are forged where they differ from them.
 */
const forgedHandles = (live: readonly number[], removed: number, foreign: number): unknown[] => {
  const near = live.flatMap((h) => [h + 0.5, h - 0.5, h + 0.125, (h % 2 ** 27) + 0.5, h + 2 ** 27, h - 2 ** 27, -h])
  const forged = [removed, foreign, -1, 2 ** 53, 2 ** 27, ...near].filter((x) => !live.includes(x))
  return [...notNumbers, ...badNumbers, ...forged, ...live.map(String), ...live.map((x) => ({ valueOf: () => x }))]
}

const outcome = (f: () => unknown): { code: TimingWheelErrorCode | 'ok'; message: string; result?: unknown } => {
  try {
    return { code: 'ok', message: '', result: f() }
  } catch (e) {
    if (!(e instanceof TimingWheelError)) throw new Error(`not a TimingWheelError: ${String(e)}`)
    return { code: e.code, message: e.message }
  }
}

/** The code refusing `kind`, and whether a refusal must quote the value. */
const codeOf: Partial<Record<Kind, TimingWheelErrorCode>> = {
  time: 'TimeOutOfRange', target: 'TimeOutOfRange', key: 'TimeOutOfRange', minKey: 'TimeOutOfRange',
  intervalNum: 'TimeOutOfRange', handle: 'AlarmNotFound', handler: 'InvalidArgument',
}

/** The hostile values of a kind; `pick` chooses one, as the structure's handles are known only per run. */
const hostileFor = (kind: Kind, live: readonly number[], removed: number, foreign: number): readonly unknown[] => {
  switch (kind) {
    case 'time': case 'target': return notTimes
    case 'key': case 'minKey': case 'intervalNum': return notKeys
    case 'handle': case 'handleQuery': return forgedHandles(live, removed, foreign)
    case 'handler': return notFunctions
    default: throw new Error(`no hostile values for ${kind}`)
  }
}

/** A valid argument for every other position. */
const validFor = (kind: Kind, live: readonly number[], structure: unknown): unknown => {
  switch (kind) {
    case 'wheel': case 'queue': return structure
    case 'time': case 'target': return 400
    case 'key': case 'minKey': case 'intervalNum': return 400
    case 'handle': case 'handleQuery': return live[1]
    case 'handler': return () => {}
    case 'value': return 'x'
    default: throw new Error(`no valid value for ${kind}`)
  }
}

/**
 * The check at one position: refused with the kind's code and the value quoted; a target
 * or minimum key below the current one is the contract's harmless no-op; `mem` answers false.
 */
const sweep = <S>(
  ns: Record<string, (...args: never[]) => unknown>,
  table: Signatures,
  make: () => { s: S; handles: readonly number[]; removed: number },
  observe: (s: S) => unknown,
  foreign: number,
) => {
  const positions = Object.entries(table).flatMap(([name, kinds]) =>
    kinds.flatMap((kind, at) => (codeOf[kind] !== undefined || kind === 'handleQuery' ? [{ name, kinds, at }] : [])),
  )
  fc.assert(
    fc.property(fc.constantFrom(...positions), fc.nat(), ({ name, kinds, at }, pick) => {
      const { s, handles, removed } = make()
      const values = hostileFor(kinds[at]!, handles, removed, foreign)
      const bad = values[pick % values.length]
      const args = kinds.map((k, i) => (i === at ? bad : validFor(k, handles, s)))
      const before = observe(s)
      const got = outcome(() => (ns[name] as (...a: unknown[]) => unknown)(...args))
      expect(observe(s), `${name} left the structure as it was`).toEqual(before)
      const kind = kinds[at]!
      if (kind === 'handleQuery') {
        expect(got).toEqual({ code: 'ok', message: '', result: false })
        return
      }
      const harmless = (kind === 'target' || kind === 'minKey') && typeof bad === 'number' && bad < 10
      if (harmless && got.code === 'ok') return
      expect(got.code, `${name}(${kinds.join(', ')}) at ${kind} given ${String(bad)}`).toBe(codeOf[kind])
      if (kind === 'handler') expect(got.message).toMatch(/handler/)
      else if (typeof bad === 'number' && kind !== 'handle') expect(got.message).toContain(String(bad))
    }),
    { numRuns: 1500 },
  )
}

describe('every time, key, interval number, handle and handler position refuses hostile values and changes nothing', () => {
  const other = wheel()
  const otherQueue = queue()
  const foreignAlarm = other.handles[3]! as number
  const foreignElt = otherQueue.handles[3]! as number

  it('TimingWheel and Alarm', () => {
    const make = () => {
      const { w, handles, removed } = wheel()
      return { s: w, handles: handles as number[], removed: removed as number }
    }
    sweep(TimingWheel as never, signatures.TimingWheel, make, observeWheel, foreignAlarm)
    sweep(Alarm as never, signatures.Alarm, make, observeWheel, foreignAlarm)
  })

  it('PriorityQueue and Elt', () => {
    const make = () => {
      const { q, handles, removed } = queue()
      return { s: q, handles: handles as number[], removed: removed as number }
    }
    sweep(PriorityQueue as never, signatures.PriorityQueue, make, observeQueue, foreignElt)
    sweep(Elt as never, signatures.Elt, make, observeQueue, foreignElt)
  })
})

describe('configurations, level bits and untrusted data', () => {
  it('create refuses every bad config with InvalidConfig or InvalidLevelBits, and Config.decode agrees', () => {
    fc.assert(
      fc.property(notConfigs, (config) => {
        const onWheel = outcome(() => TimingWheel.create(config as never))
        expect(['InvalidConfig', 'InvalidLevelBits']).toContain(onWheel.code)
        const decoded = Config.decode(config)
        expect(E.isLeft(decoded), 'Config.decode refuses what create refuses').toBe(true)
      }),
    )
  })

  it('PriorityQueue.create refuses bad options', () => {
    const notOptions = fc.oneof(
      fc.constantFrom(null, 5, 'x', [], { levelbits: [10] }),
      fc.record({ levelBits: notBits.filter((b) => b !== undefined) }),
      fc.record({ capacity: fc.constantFrom(...notOptionalNumbers, ...badNumbers, -1, 1.5, 2 ** 27) }),
    )
    fc.assert(
      fc.property(notOptions, (opts) => {
        expect(['InvalidArgument', 'InvalidConfig', 'InvalidLevelBits']).toContain(outcome(() => PriorityQueue.create(opts as never)).code)
      }),
    )
  })

  it('LevelBits refuses bad bits: create with a Left, createExn and fromInput with InvalidLevelBits', () => {
    fc.assert(
      fc.property(notBits, (bits) => {
        const either = outcome(() => LevelBits.create(bits as never))
        expect(either.code).toBe('ok')
        expect(E.isLeft(either.result as E.Either<unknown, unknown>)).toBe(true)
        expect(outcome(() => LevelBits.createExn(bits as never)).code).toBe('InvalidLevelBits')
        if (bits !== undefined) expect(outcome(() => LevelBits.fromInput(bits as never)).code).toBe('InvalidLevelBits')
      }),
    )
  })

  it('LevelBits.durations refuses a precision that is not a finite number > 0', () => {
    fc.assert(
      fc.property(fc.constantFrom(...notNumbers, ...badNumbers.filter((x) => !(x > 0 && x < Infinity)), 0, -1), (precision) => {
        expect(outcome(() => LevelBits.durations(LevelBits.defaultLevelBits, precision as never)).code).toBe('InvalidConfig')
      }),
    )
  })

  it('Config.decode and the snapshot codec never throw on untrusted data', () => {
    const codec = TimingWheel.snapshotCodec(Config.finiteNumber)
    const untrusted = fc.oneof(fc.anything(), notConfigs, fc.record({ config: notConfigs, now: fc.anything(), alarms: fc.anything() }))
    fc.assert(
      fc.property(untrusted, (u) => {
        expect(outcome(() => Config.decode(u)).code).toBe('ok')
        expect(outcome(() => codec.decode(u)).code).toBe('ok')
      }),
    )
  })
})
