/**
 * The queue against a sorted-list model, command by command: every add, remove, change
 * and increase of the minimum gives the same result as the model (the same elements
 * removed, in the same order), errors change nothing, and `invariant` holds after each
 * step. Level bits come from small configurations so that moves between levels and the
 * edges of the key range are hit often; the minimum may start next to 2^52.
 */
import fc from 'fast-check'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { Elt, PriorityQueue, TimingWheelError } from '../lib/index.js'
import { QueueModel } from './support/queue-model.js'

type PQ = PriorityQueue.PriorityQueue<number>
type H = PriorityQueue.Elt<number>

interface World {
  readonly pq: PQ
  readonly model: QueueModel<H>
  readonly dead: H[]
  nextValue: number
}

const MAX_KEY = PriorityQueue.maxRepresentableKey

/** A key offset, as a fraction of the allowed range or a small distance from one end. */
const keyChoiceArb = fc.oneof(
  fc.record({ from: fc.constant('min' as const), by: fc.nat(40) }),
  fc.record({ from: fc.constant('max' as const), by: fc.nat(40) }),
  fc.record({ from: fc.constant('frac' as const), by: fc.double({ min: 0, max: 1, noNaN: true }) }),
)
type KeyChoice = typeof keyChoiceArb extends fc.Arbitrary<infer T> ? T : never

const pickKey = (pq: PQ, choice: KeyChoice): number => {
  const lo = PriorityQueue.minAllowedKey(pq)
  const hi = PriorityQueue.maxAllowedKey(pq)
  switch (choice.from) {
    case 'min':
      return Math.min(hi, lo + choice.by)
    case 'max':
      return Math.max(lo, hi - choice.by)
    case 'frac':
      return lo + Math.floor((hi - lo) * choice.by)
  }
}

const badKeyArb = fc.constantFrom('below', 'above', 'nan', 'fraction', 'infinite')
const badKey = (pq: PQ, which: string): number => {
  switch (which) {
    case 'below':
      return PriorityQueue.minAllowedKey(pq) - 1
    case 'above':
      return PriorityQueue.maxAllowedKey(pq) + 1
    case 'nan':
      return Number.NaN
    case 'fraction':
      return PriorityQueue.minAllowedKey(pq) + 0.5
    default:
      return Infinity
  }
}

/** What a handler does to the queue when it runs (reentrant calls). */
const handlerActionArb = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('add' as const), key: keyChoiceArb }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('change' as const), pick: fc.nat(), key: keyChoiceArb }),
  fc.record({ kind: fc.constant('changeSelf' as const), key: keyChoiceArb }),
  fc.record({ kind: fc.constant('throw' as const) }),
)
type HandlerAction = typeof handlerActionArb extends fc.Arbitrary<infer T> ? T : never

const sameState = (w: World): void => {
  PriorityQueue.invariant(w.pq)
  expect(PriorityQueue.length(w.pq)).toBe(w.model.length)
  expect(PriorityQueue.minAllowedKey(w.pq)).toBe(w.model.minAllowedKey)
  const min = w.model.min()
  expect(PriorityQueue.minKey(w.pq)).toEqual(min === undefined ? O.none : O.some(min.key))
  expect(PriorityQueue.minElt(w.pq)).toEqual(min === undefined ? O.none : O.some(min.handle))
  for (const e of w.model.entries) expect(Elt.key(w.pq, e.handle)).toBe(e.key)
}

const expectUnchangedAfterError = (w: World, code: string, f: () => void): void => {
  const before = PriorityQueue.toArray(w.pq).map((e) => [e, Elt.key(w.pq, e)])
  expect(f).toThrow(TimingWheelError)
  try {
    f()
  } catch (e) {
    expect((e as TimingWheelError).code).toBe(code)
  }
  expect(PriorityQueue.toArray(w.pq).map((e) => [e, Elt.key(w.pq, e)])).toEqual(before)
}

class Add implements fc.Command<World, World> {
  constructor(readonly key: KeyChoice) {}
  check = () => true
  run(_: World, w: World): void {
    const key = pickKey(w.pq, this.key)
    const value = w.nextValue++
    const e = PriorityQueue.add(w.pq, key, value)
    expect(Elt.value(w.pq, e)).toBe(value)
    w.model.add(e, key)
    sameState(w)
  }
  toString = () => `add(${JSON.stringify(this.key)})`
}

class AddBad implements fc.Command<World, World> {
  constructor(readonly which: string) {}
  check = () => true
  run(_: World, w: World): void {
    const key = badKey(w.pq, this.which)
    expectUnchangedAfterError(w, 'TimeOutOfRange', () => PriorityQueue.add(w.pq, key, -1))
    sameState(w)
  }
  toString = () => `addBad(${this.which})`
}

class Remove implements fc.Command<World, World> {
  constructor(readonly pick: number) {}
  check = (m: World) => m.model.length > 0
  run(_: World, w: World): void {
    const e = w.model.entries[this.pick % w.model.length]!.handle
    PriorityQueue.remove(w.pq, e)
    w.model.remove(e)
    w.dead.push(e)
    expect(PriorityQueue.mem(w.pq, e)).toBe(false)
    sameState(w)
  }
  toString = () => `remove(${this.pick})`
}

class Change implements fc.Command<World, World> {
  constructor(readonly pick: number, readonly key: KeyChoice, readonly bad: string | null) {}
  check = (m: World) => m.model.length > 0
  run(_: World, w: World): void {
    const e = w.model.entries[this.pick % w.model.length]!.handle
    if (this.bad !== null) {
      const key = badKey(w.pq, this.bad)
      expectUnchangedAfterError(w, 'TimeOutOfRange', () => PriorityQueue.change(w.pq, e, key))
    } else {
      const key = pickKey(w.pq, this.key)
      PriorityQueue.change(w.pq, e, key)
      w.model.change(e, key)
    }
    sameState(w)
  }
  toString = () => `change(${this.pick}, ${JSON.stringify(this.key)}, ${this.bad})`
}

class UseDead implements fc.Command<World, World> {
  constructor(readonly pick: number) {}
  check = (m: World) => m.dead.length > 0
  run(_: World, w: World): void {
    const e = w.dead[this.pick % w.dead.length]!
    expect(PriorityQueue.mem(w.pq, e)).toBe(false)
    expectUnchangedAfterError(w, 'AlarmNotFound', () => PriorityQueue.remove(w.pq, e))
    expectUnchangedAfterError(w, 'AlarmNotFound', () => PriorityQueue.change(w.pq, e, PriorityQueue.minAllowedKey(w.pq)))
    expectUnchangedAfterError(w, 'AlarmNotFound', () => Elt.key(w.pq, e))
    expectUnchangedAfterError(w, 'AlarmNotFound', () => Elt.value(w.pq, e))
    sameState(w)
  }
  toString = () => `useDead(${this.pick})`
}

/** How far to raise the minimum: a little, to a level edge, to the max allowed key or past it. */
const advanceArb = fc.oneof(
  fc.record({ to: fc.constant('by' as const), n: fc.integer({ min: 0, max: 70 }) }),
  fc.record({ to: fc.constant('key' as const), key: keyChoiceArb }),
  fc.record({ to: fc.constant('pastMax' as const), n: fc.integer({ min: 1, max: 2 ** 20 }) }),
  fc.record({ to: fc.constant('huge' as const), n: fc.double({ min: 0, max: 1, noNaN: true }) }),
)
type Advance = typeof advanceArb extends fc.Arbitrary<infer T> ? T : never

const advanceTarget = (pq: PQ, a: Advance): number => {
  const m = PriorityQueue.minAllowedKey(pq)
  switch (a.to) {
    case 'by':
      return Math.min(MAX_KEY, m + a.n)
    case 'key':
      return Math.min(MAX_KEY, pickKey(pq, a.key) + 1)
    case 'pastMax':
      return Math.min(MAX_KEY, PriorityQueue.maxAllowedKey(pq) + a.n)
    case 'huge':
      return m + Math.floor((MAX_KEY - m) * a.n)
  }
}

class Increase implements fc.Command<World, World> {
  constructor(readonly advance: Advance, readonly actions: HandlerAction[]) {}
  check = () => true
  run(_: World, w: World): void {
    const key = Math.min(MAX_KEY, advanceTarget(w.pq, this.advance))
    const fired: H[] = []
    let thrown = 0
    let error: unknown
    const raisesMinimum = key > w.model.minAllowedKey
    if (raisesMinimum) w.model.minAllowedKey = key
    try {
      PriorityQueue.increaseMinAllowedKey(w.pq, key, (self) => {
        // The model takes the same step: its least entry must be the one handled.
        const expected = w.model.entries[0]
        expect(expected !== undefined && expected.key < key).toBe(true)
        w.model.entries.shift()
        expect(self).toBe(expected!.handle)
        expect(PriorityQueue.minAllowedKey(w.pq)).toBe(key)
        expect(PriorityQueue.mem(w.pq, self)).toBe(false)
        expect(Elt.key(w.pq, self)).toBe(expected!.key)
        expect(PriorityQueue.length(w.pq)).toBe(w.model.length)
        fired.push(self)
        const action = this.actions[(fired.length - 1) % Math.max(1, this.actions.length)] ?? { kind: 'none' }
        const entries = w.model.entries
        const pick = (n: number): H | undefined => entries[n % Math.max(1, entries.length)]?.handle
        switch (action.kind) {
          case 'add': {
            const k = pickKey(w.pq, action.key)
            w.model.add(PriorityQueue.add(w.pq, k, w.nextValue++), k)
            break
          }
          case 'remove': {
            const e = pick(action.pick)
            if (e !== undefined) {
              PriorityQueue.remove(w.pq, e)
              w.model.remove(e)
              w.dead.push(e)
            }
            break
          }
          case 'change': {
            const e = pick(action.pick)
            if (e !== undefined) {
              const k = pickKey(w.pq, action.key)
              PriorityQueue.change(w.pq, e, k)
              w.model.change(e, k)
            }
            break
          }
          case 'changeSelf': {
            const k = pickKey(w.pq, action.key)
            PriorityQueue.change(w.pq, self, k)
            w.model.add(self, k)
            expect(PriorityQueue.mem(w.pq, self)).toBe(true)
            break
          }
          case 'throw':
            thrown++
            throw new Error(`handler ${thrown}`)
          default:
            break
        }
        PriorityQueue.invariant(w.pq)
      })
    } catch (e) {
      error = e
    }
    if (thrown > 0) expect((error as Error).message).toBe('handler 1')
    else expect(error).toBeUndefined()
    // Nothing the model would still remove is left behind.
    expect(w.model.entries.every((e) => e.key >= w.model.minAllowedKey)).toBe(true)
    for (const e of fired) if (!w.model.find(e)) w.dead.push(e)
    sameState(w)
  }
  toString = () => `increase(${JSON.stringify(this.advance)}, ${JSON.stringify(this.actions)})`
}

const levelBitsArb = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 6 })
const startArb = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 0, max: 5000 }),
  fc.integer({ min: 0, max: 40 }).map((k) => MAX_KEY - 2 ** k),
  fc.double({ min: 0, max: 1, noNaN: true }).map((f) => Math.floor(f * MAX_KEY)),
)

const commandsArb = fc.commands(
  [
    keyChoiceArb.map((k) => new Add(k)),
    keyChoiceArb.map((k) => new Add(k)),
    badKeyArb.map((b) => new AddBad(b)),
    fc.nat().map((p) => new Remove(p)),
    fc.tuple(fc.nat(), keyChoiceArb, fc.option(badKeyArb, { freq: 5 })).map(([p, k, b]) => new Change(p, k, b)),
    fc.nat().map((p) => new UseDead(p)),
    fc.tuple(advanceArb, fc.array(handlerActionArb, { maxLength: 4 })).map(([a, h]) => new Increase(a, h)),
    fc.tuple(advanceArb, fc.constant<HandlerAction[]>([])).map(([a, h]) => new Increase(a, h)),
  ],
  { maxCommands: 60, size: 'large' },
)

describe('PriorityQueue against a sorted-list model', () => {
  it('agrees on every command, with invariant after each', () => {
    fc.assert(
      fc.property(levelBitsArb, startArb, commandsArb, (bits, start, cmds) => {
        const pq = PriorityQueue.create<number>({ levelBits: bits })
        const model = new QueueModel<H>()
        PriorityQueue.increaseMinAllowedKey(pq, start, () => {})
        model.minAllowedKey = start
        const world: World = { pq, model, dead: [], nextValue: 0 }
        fc.modelRun(() => ({ model: world, real: world }), cmds)
      }),
      { numRuns: Number(process.env.PQ_RUNS ?? 2000) },
    )
  })
})
