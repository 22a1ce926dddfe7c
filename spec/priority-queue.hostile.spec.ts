/**
 * The queue under attack: every argument that is not exactly what the contract accepts is
 * refused with the right code and changes nothing; handles never alias, whatever is made
 * of them; resources stay bounded by what is put in; the minimum is found without walking
 * a slot again and again.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { Alarm, Elt, PriorityQueue, TimingWheel, TimingWheelError, type TimingWheelErrorCode } from '../lib/index.js'
import { ageRow } from '../lib/priority-queue/pool.js'
import { expectCode } from './support/expect-error.js'

type PQ = PriorityQueue.PriorityQueue<string>
type H = PriorityQueue.Elt<string>

/** Everything a user can observe of a queue. */
const observe = (pq: PQ) => ({
  length: PriorityQueue.length(pq),
  minAllowedKey: PriorityQueue.minAllowedKey(pq),
  maxAllowedKey: PriorityQueue.maxAllowedKey(pq),
  elements: PriorityQueue.toArray(pq)
    .map((e) => [e, Elt.key(pq, e), Elt.value(pq, e)] as const)
    .sort((a, b) => a[0] - b[0]),
})

const notNumbers: readonly unknown[] = [
  '106',
  '',
  true,
  false,
  null,
  undefined,
  [],
  [106],
  { valueOf: () => 106 },
  new Number(106),
  106n,
  Symbol('t'),
]
const badNumbers: readonly number[] = [Number.NaN, Infinity, -Infinity, 2 ** 53, 1e308, -1e308, -1, 0.5]

/** A queue with a few elements at several levels, one removed, and the handles. */
const sample = (): { pq: PQ; live: H[]; dead: H } => {
  const pq = PriorityQueue.create<string>({ levelBits: [3, 3, 3] })
  const live = [1, 5, 9, 70, 300, 300].map((k, i) => PriorityQueue.add(pq, k, `v${i}`))
  const dead = PriorityQueue.add(pq, 40, 'dead')
  PriorityQueue.remove(pq, dead)
  return { pq, live, dead }
}

/** The numbers near a live handle that a forger would try. */
const forgeriesOf = (h: number): number[] => [
  h + 0.125,
  h + 0.25,
  h + 0.5,
  h - 0.5,
  (h % 2 ** 27) + 0.125,
  -h,
  h + 2 ** 27, // the row's next generation
  h - 2 ** 27,
  h + 2 ** 53,
  h % 2 ** 27, // the row at generation 0
]

const refusedUnchanged = (pq: PQ, code: TimingWheelErrorCode, f: () => unknown, names?: string): void => {
  const before = observe(pq)
  const message = expectCode(code, f)
  if (names !== undefined) expect(message).toContain(names)
  expect(observe(pq)).toEqual(before)
  PriorityQueue.invariant(pq)
}

describe('PriorityQueue refuses what is not exactly a handle', () => {
  it('refuses fractions, negatives, other generations and non-numbers near a live handle', () => {
    const { pq, live } = sample()
    for (const h of live) {
      // Handles are near 2^52, where `h + 0.125` may round back to `h` or to a neighbour:
      // only numbers that are no live handle are forgeries.
      const forged: unknown[] = [...forgeriesOf(h).filter((f) => !live.includes(f as H)), String(h), [h], { valueOf: () => h }, new Number(h), BigInt(h)]
      for (const f of forged) {
        const e = f as H
        expect(PriorityQueue.mem(pq, e)).toBe(false)
        refusedUnchanged(pq, 'AlarmNotFound', () => PriorityQueue.remove(pq, e))
        refusedUnchanged(pq, 'AlarmNotFound', () => PriorityQueue.change(pq, e, 100))
        refusedUnchanged(pq, 'AlarmNotFound', () => Elt.key(pq, e))
        refusedUnchanged(pq, 'AlarmNotFound', () => Elt.value(pq, e))
      }
    }
    // The forgeries changed nothing: every element still drains, in order.
    const out: string[] = []
    PriorityQueue.increaseMinAllowedKey(pq, 400, (e) => out.push(Elt.value(pq, e)))
    expect(out).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5'])
  })

  it('refuses every number that names a head row or a row never handed out', () => {
    const { pq } = sample()
    const used = pq.used
    for (let row = 0; row < used + 40; row++) {
      for (const gen of [0, 1, pq.salt, pq.salt + 1, 2 ** 26 - 1]) {
        const h = (gen * 2 ** 27 + row) as H
        if (PriorityQueue.toArray(pq).includes(h)) continue
        expect(PriorityQueue.mem(pq, h)).toBe(false)
        refusedUnchanged(pq, 'AlarmNotFound', () => Elt.key(pq, h))
        refusedUnchanged(pq, 'AlarmNotFound', () => PriorityQueue.change(pq, h, 3))
      }
    }
  })

  it('refuses removed handles, handles from before a clear, and another queue’s', () => {
    const { pq, live, dead } = sample()
    refusedUnchanged(pq, 'AlarmNotFound', () => PriorityQueue.change(pq, dead, 3))
    const other = PriorityQueue.create<string>({ levelBits: [3, 3, 3] })
    const foreign = PriorityQueue.add(other, 1, 'foreign')
    expect(PriorityQueue.mem(pq, foreign)).toBe(false)
    refusedUnchanged(pq, 'AlarmNotFound', () => PriorityQueue.remove(pq, foreign))
    PriorityQueue.clear(pq)
    for (const h of live) {
      expect(PriorityQueue.mem(pq, h)).toBe(false)
      refusedUnchanged(pq, 'AlarmNotFound', () => Elt.value(pq, h))
    }
  })

  it('never brings a handle back once its row has had every generation (the row retires)', () => {
    const pq = PriorityQueue.create<string>()
    const h0 = PriorityQueue.add(pq, 5, 'first')
    PriorityQueue.remove(pq, h0)
    // The row of h0 is reused by every add; make its next release its last.
    const h1 = PriorityQueue.add(pq, 6, 'second')
    const row = h1 % 2 ** 27
    expect(row).toBe(h0 % 2 ** 27)
    ageRow(pq, row)
    const aged = PriorityQueue.toArray(pq)[0]!
    PriorityQueue.remove(pq, aged)
    // The row is retired at the generation h0 had: h0 must stay dead.
    expect(PriorityQueue.mem(pq, h0)).toBe(false)
    refusedUnchanged(pq, 'AlarmNotFound', () => Elt.key(pq, h0))
    refusedUnchanged(pq, 'AlarmNotFound', () => PriorityQueue.change(pq, h0, 10))
    const h2 = PriorityQueue.add(pq, 7, 'third')
    expect(h2 % 2 ** 27).not.toBe(row)
    PriorityQueue.invariant(pq)
  })
  // Through 2^26 real reuses, rather than an aged row: spec/heavy/handle-generations.spec.ts.
})

describe('PriorityQueue refuses what is not a key or a handler', () => {
  const codeFor = (pq: PQ, key: unknown): TimingWheelErrorCode | 'ok' => {
    const k = key as number
    const valid = typeof k === 'number' && Number.isInteger(k) && k >= PriorityQueue.minAllowedKey(pq) && k <= PriorityQueue.maxAllowedKey(pq)
    return valid ? 'ok' : 'TimeOutOfRange'
  }

  it('refuses non-numbers and bad numbers as keys of add, change and increaseMinAllowedKey', () => {
    const { pq, live } = sample()
    for (const key of [...notNumbers, ...badNumbers]) {
      expect(codeFor(pq, key)).toBe('TimeOutOfRange')
      refusedUnchanged(pq, 'TimeOutOfRange', () => PriorityQueue.add(pq, key as number, 'x'))
      refusedUnchanged(pq, 'TimeOutOfRange', () => PriorityQueue.change(pq, live[0]!, key as number))
      if (typeof key !== 'number' || !Number.isInteger(key) || key > PriorityQueue.maxRepresentableKey) {
        refusedUnchanged(pq, 'TimeOutOfRange', () => PriorityQueue.increaseMinAllowedKey(pq, key as number, () => {}))
      }
    }
  })

  it('refuses a handler that is not a function before removing anything', () => {
    const { pq } = sample()
    for (const handler of [undefined, null, 5, 'f', {}, [], Symbol('h')]) {
      const message = expectCode('InvalidArgument', () =>
        PriorityQueue.increaseMinAllowedKey(pq, 1000, handler as unknown as (e: H) => void),
      )
      expect(message).toContain('not a function')
      expect(PriorityQueue.length(pq)).toBe(6)
      expect(PriorityQueue.minAllowedKey(pq)).toBe(0)
    }
    PriorityQueue.invariant(pq)
  })

  it('refuses options that are not an object, or have keys it does not know', () => {
    for (const opts of [null, 5, 'x', [], true]) {
      expectCode('InvalidArgument', () => PriorityQueue.create(opts as unknown as PriorityQueue.CreateOptions))
    }
    const typo = { levelbits: [4] } as unknown as PriorityQueue.CreateOptions
    expect(expectCode('InvalidArgument', () => PriorityQueue.create(typo))).toContain('levelbits')
    for (const capacity of [...notNumbers.filter((x) => x !== undefined), -1, 0.5, 2 ** 27, Number.NaN]) {
      expectCode('InvalidConfig', () => PriorityQueue.create({ capacity: capacity as number }))
    }
  })

  it('agrees with a plain rule on random hostile keys (property)', () => {
    const hostile = fc.oneof(
      fc.constantFrom(...notNumbers, ...badNumbers),
      fc.double(),
      fc.integer({ min: -5, max: 2 ** 20 }),
    )
    fc.assert(
      fc.property(hostile, (key) => {
        const { pq } = sample()
        const expected = codeFor(pq, key)
        if (expected === 'ok') {
          const h = PriorityQueue.add(pq, key as number, 'k')
          expect(Elt.key(pq, h)).toBe(key)
        } else refusedUnchanged(pq, expected, () => PriorityQueue.add(pq, key as number, 'k'))
        PriorityQueue.invariant(pq)
      }),
      { numRuns: 300 },
    )
  })
})

describe('PriorityQueue resources', () => {
  /** Bytes a queue holds in its typed arrays (the pool and the levels). */
  const bytes = (pq: PriorityQueue.PriorityQueue<unknown>): number =>
    pq.ints.byteLength + pq.occupied.byteLength + pq.headBase.byteLength

  it('costs a few KiB empty, whatever its level bits, and heads only for the slots used', () => {
    expect(bytes(PriorityQueue.create())).toBeLessThan(8 * 1024)
    const widest = PriorityQueue.create<number>({ levelBits: [24, 24, 4] })
    expect(bytes(widest)).toBeLessThan(9 * 2 ** 20)
    PriorityQueue.add(widest, 12345, 1)
    PriorityQueue.add(widest, 2 ** 30, 2)
    expect(bytes(widest)).toBeLessThan(9 * 2 ** 20)
    PriorityQueue.invariant(widest)
    // A capacity from outside reserves at most 2 MiB up front.
    expect(bytes(PriorityQueue.create({ capacity: PriorityQueue.maxCapacity }))).toBeLessThanOrEqual(2 ** 21 + 8 * 1024)
  })

  it('grows by an eighth past 2^20 rows, so a large queue has few spare rows', () => {
    const pq = PriorityQueue.create<number>()
    const n = 1_300_000
    for (let i = 0; i < n; i++) PriorityQueue.add(pq, i * 7919 % 4_000_000, i)
    expect(pq.used).toBeGreaterThan(n)
    expect(pq.capacity).toBeLessThanOrEqual(Math.ceil(pq.used * 1.125) + 1)
    expect(pq.ints.byteLength / n).toBeLessThan(40)
  })
})

describe('the least key of a slot', () => {
  it('is found without walking the slot again when its least element is removed again and again', () => {
    const pq = PriorityQueue.create<number>()
    // 40,000 distinct keys 35 to 70 minutes ahead in ms: one slot of level 2.
    const base = 35 * 60_000
    const keys = Array.from({ length: 40_000 }, (_, i) => base + ((i * 7919) % 2_100_000))
    const handles = new Map<number, PriorityQueue.Elt<number>>()
    for (const k of keys) handles.set(k, PriorityQueue.add(pq, k, k))
    const sorted = [...handles.keys()].sort((a, b) => a - b)
    expect(PriorityQueue.minKeyExn(pq)).toBe(sorted[0])
    expect(pq.rowsWalked).toBe(0) // adding keeps the least key
    // Removing the least makes it unknown: the next query sorts the slot, once.
    PriorityQueue.remove(pq, handles.get(sorted[0]!)!)
    expect(PriorityQueue.minKeyExn(pq)).toBe(sorted[1])
    const afterFirst = pq.rowsWalked
    expect(afterFirst).toBeGreaterThan(39_000) // the slot of the least key (a few keys are in the next slot)
    expect(afterFirst).toBeLessThan(40_000)
    for (let i = 1; i < 2_000; i++) {
      PriorityQueue.remove(pq, handles.get(sorted[i]!)!)
      expect(PriorityQueue.minKeyExn(pq)).toBe(sorted[i + 1])
      expect(Elt.key(pq, PriorityQueue.minEltExn(pq))).toBe(sorted[i + 1])
    }
    expect(pq.rowsWalked).toBe(afterFirst)
    // Timeouts added in order keep the slot sorted; one out of order costs one more sort.
    for (let i = 0; i < 100; i++) PriorityQueue.add(pq, base + 2_100_000 + i, i)
    PriorityQueue.remove(pq, PriorityQueue.minEltExn(pq))
    expect(PriorityQueue.minKeyExn(pq)).toBe(sorted[2_001])
    expect(pq.rowsWalked).toBe(afterFirst)
    PriorityQueue.invariant(pq)
  })

  it('is found by nextAlarmFiresAt without a walk when an event loop cancels its soonest timeout', () => {
    // The reproduction: 40,000 alarms at distinct times 35 to 70 minutes ahead.
    const t = TimingWheel.create<number>({ alarmPrecision: 1 })
    const times = Array.from({ length: 40_000 }, (_, i) => 35 * 60_000 + ((i * 104_729) % (35 * 60_000)) + 0.5)
    const alarms = times.map((at, i) => [at, TimingWheel.add(t, at, i)] as const).sort((a, b) => a[0] - b[0])
    let walkedBefore = -1
    for (let i = 0; i < 1_000; i++) {
      TimingWheel.remove(t, alarms[i]![1])
      const next = alarms[i + 1]![0]
      expect(TimingWheel.nextAlarmFiresAt(t)).toEqual(O.some(Math.floor(next) + 1))
      expect(TimingWheel.minAlarmTimeInMinInterval(t)).toEqual(O.some(next))
      expect(Alarm.at(t, alarms[i + 1]![1])).toBe(next)
      // The first query sorts the slot; no later one walks it.
      if (i === 0) walkedBefore = t.queue.rowsWalked
      expect(t.queue.rowsWalked).toBe(walkedBefore)
    }
    expect(walkedBefore).toBeLessThanOrEqual(40_000)
    TimingWheel.invariant(t)
  })

  it('errors name the queue and the value (a TimingWheelError, never a TypeError)', () => {
    const pq = PriorityQueue.create<string>()
    for (const key of notNumbers) {
      let caught: unknown
      try {
        PriorityQueue.add(pq, key as number, 'x')
      } catch (e) {
        caught = e
      }
      expect(caught).toBeInstanceOf(TimingWheelError)
    }
  })
})
