import * as O from 'fp-ts/lib/Option.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Elt, LevelBits, PriorityQueue } from '../lib/index.js'
import { expectCode } from './support/expect-error.js'

const drain = <A>(pq: PriorityQueue.PriorityQueue<A>, key: number): A[] => {
  const out: A[] = []
  PriorityQueue.increaseMinAllowedKey(pq, key, (e) => out.push(Elt.value(pq, e)))
  return out
}

/** The indices of `keys` in the order a queue removes them: by key, ties in the order added. */
const removalOrder = (keys: readonly number[]): number[] =>
  keys.map((key, i) => [key, i] as const).sort((a, b) => a[0] - b[0]).map(([, i]) => i)

describe('PriorityQueue.create', () => {
  it('starts empty at key 0 with the default level bits', () => {
    const pq = PriorityQueue.create<string>()
    expect(PriorityQueue.length(pq)).toBe(0)
    expect(PriorityQueue.isEmpty(pq)).toBe(true)
    expect(PriorityQueue.minAllowedKey(pq)).toBe(0)
    expect(PriorityQueue.levelBits(pq)).toEqual(LevelBits.default)
    expect(PriorityQueue.maxAllowedKey(pq)).toBe(PriorityQueue.maxRepresentableKey)
    PriorityQueue.invariant(pq)
  })

  it('takes level bits as validated LevelBits or a plain array', () => {
    expect(PriorityQueue.levelBits(PriorityQueue.create({ levelBits: [4, 4] }))).toEqual([4, 4])
    expect(PriorityQueue.levelBits(PriorityQueue.create({ levelBits: LevelBits.createExn([3]) }))).toEqual([3])
    expectCode('InvalidLevelBits', () => PriorityQueue.create({ levelBits: [0] }))
  })

  it('presizes with capacity and rejects a bad one', () => {
    const pq = PriorityQueue.create<number>({ capacity: 1000 })
    for (let i = 0; i < 5000; i++) PriorityQueue.add(pq, i, i)
    expect(PriorityQueue.length(pq)).toBe(5000)
    PriorityQueue.invariant(pq)
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 27]) {
      expect(expectCode('InvalidConfig', () => PriorityQueue.create({ capacity: bad }))).toContain(String(bad))
    }
  })
})

describe('the key range', () => {
  it('maxAllowedKey covers at least 2^numBits keys from the minimum', () => {
    const pq = PriorityQueue.create<number>({ levelBits: [2, 3] })
    for (const m of [0, 1, 7, 31, 32, 33, 1000, 2 ** 40 + 5]) {
      PriorityQueue.increaseMinAllowedKey(pq, m, () => {})
      expect(PriorityQueue.minAllowedKey(pq)).toBe(m)
      expect(PriorityQueue.maxAllowedKey(pq)).toBeGreaterThanOrEqual(m + 2 ** 5 - 1)
      PriorityQueue.invariant(pq)
    }
  })

  it('maxAllowedKey never passes maxRepresentableKey', () => {
    const pq = PriorityQueue.create<number>({ levelBits: [4] })
    const max = PriorityQueue.maxRepresentableKey
    PriorityQueue.increaseMinAllowedKey(pq, max - 3, () => {})
    expect(PriorityQueue.maxAllowedKey(pq)).toBe(max)
    PriorityQueue.add(pq, max, 1)
    expect(drain(pq, max)).toEqual([])
    PriorityQueue.invariant(pq)
  })
})

describe('add, remove, change, mem', () => {
  it('add returns a handle whose key and value read back', () => {
    const pq = PriorityQueue.create<string>()
    const e = PriorityQueue.add(pq, 42, 'x')
    expect(PriorityQueue.mem(pq, e)).toBe(true)
    expect(Elt.key(pq, e)).toBe(42)
    expect(Elt.value(pq, e)).toBe('x')
    expect(PriorityQueue.length(pq)).toBe(1)
  })

  it('gives back every value exactly, whether the row or the value array keeps it', () => {
    const values: unknown[] = [0, -0, 7, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 1.5, Number.NaN, Infinity, 'x', null, undefined, { a: 1 }, 10n]
    const pq = PriorityQueue.create<unknown>()
    const elts = values.map((v, i) => PriorityQueue.add(pq, i, v))
    elts.forEach((e, i) => expect(Object.is(Elt.value(pq, e), values[i])).toBe(true))
    // Rows are reused: a row that kept an integer now keeps an object, and the reverse.
    for (const e of elts) PriorityQueue.remove(pq, e)
    const again = [...values].reverse()
    const elts2 = again.map((v, i) => PriorityQueue.add(pq, i, v))
    elts2.forEach((e, i) => expect(Object.is(Elt.value(pq, e), again[i])).toBe(true))
    const fired: unknown[] = []
    PriorityQueue.increaseMinAllowedKey(pq, values.length, (e) => fired.push(Elt.value(pq, e)))
    expect(fired.every((v, i) => Object.is(v, again[i]))).toBe(true)
    PriorityQueue.invariant(pq)
  })

  it('keeps values right as the pool grows, and nothing beside the rows while they are all integers', () => {
    const pq = PriorityQueue.create<unknown>()
    const ids = Array.from({ length: 3000 }, (_, id) => PriorityQueue.add(pq, id % 50, id))
    expect(pq.values.length).toBe(0)
    const late = [PriorityQueue.add(pq, 7, 'late'), PriorityQueue.add(pq, 8, { late: true })]
    expect(pq.values.length).toBeGreaterThan(3000)
    ids.forEach((e, id) => expect(Elt.value(pq, e)).toBe(id))
    expect(late.map((e) => Elt.value(pq, e))).toEqual(['late', { late: true }])
    PriorityQueue.invariant(pq)
  })

  it('add rejects keys outside [min, max] and non-integers, changing nothing', () => {
    const pq = PriorityQueue.create<string>({ levelBits: [3, 3] })
    PriorityQueue.increaseMinAllowedKey(pq, 10, () => {})
    const max = PriorityQueue.maxAllowedKey(pq)
    for (const key of [9, max + 1, 10.5, Number.NaN, Infinity, -Infinity]) {
      const message = expectCode('TimeOutOfRange', () => PriorityQueue.add(pq, key, 'bad'))
      expect(message).toContain(String(key))
      expect(message).toContain(`[minAllowedKey 10, maxAllowedKey ${max}]`)
    }
    expect(PriorityQueue.length(pq)).toBe(0)
    PriorityQueue.invariant(pq)
  })

  it('remove takes an element out; a second remove is AlarmNotFound', () => {
    const pq = PriorityQueue.create<string>()
    const a = PriorityQueue.add(pq, 1, 'a')
    PriorityQueue.add(pq, 1, 'b')
    PriorityQueue.remove(pq, a)
    expect(PriorityQueue.mem(pq, a)).toBe(false)
    expect(PriorityQueue.length(pq)).toBe(1)
    expectCode('AlarmNotFound', () => PriorityQueue.remove(pq, a))
    expectCode('AlarmNotFound', () => Elt.key(pq, a))
    expectCode('AlarmNotFound', () => Elt.value(pq, a))
    expectCode('AlarmNotFound', () => PriorityQueue.remove(pq, Elt.null()))
    expect(PriorityQueue.mem(pq, Elt.null())).toBe(false)
    expect(drain(pq, 2)).toEqual(['b'])
  })

  it('refuses handles from another queue where the handle can tell', () => {
    const p = PriorityQueue.create<string>()
    const q = PriorityQueue.create<string>()
    const e = PriorityQueue.add(p, 1, 'p')
    PriorityQueue.add(q, 1, 'q')
    expect(PriorityQueue.mem(q, e)).toBe(false)
    expectCode('AlarmNotFound', () => PriorityQueue.remove(q, e))
  })

  it('change moves an element to a new key, last among its new equals', () => {
    const pq = PriorityQueue.create<string>()
    const a = PriorityQueue.add(pq, 5, 'a')
    PriorityQueue.add(pq, 3, 'b')
    PriorityQueue.change(pq, a, 3)
    expect(Elt.key(pq, a)).toBe(3)
    expect(drain(pq, 4)).toEqual(['b', 'a'])
    expectCode('AlarmNotFound', () => PriorityQueue.change(pq, a, 9))
  })

  it('change with a bad key throws and leaves the element where it was', () => {
    const pq = PriorityQueue.create<string>()
    const a = PriorityQueue.add(pq, 5, 'a')
    expectCode('TimeOutOfRange', () => PriorityQueue.change(pq, a, -1))
    expect(Elt.key(pq, a)).toBe(5)
    PriorityQueue.invariant(pq)
  })

  it('removing most of a slot keeps the rest in order and findable', () => {
    // One slot of level 1 and one of level 0, each losing two elements of every three:
    // the lists close their gaps on the way, and every survivor must still be removable.
    const pq = PriorityQueue.create<number>({ levelBits: [4, 4] })
    const elts = Array.from({ length: 300 }, (_, i) => PriorityQueue.add(pq, i % 2 === 0 ? 40 : 7, i))
    elts.forEach((e, i) => {
      if (i % 3 !== 0) PriorityQueue.remove(pq, e)
      PriorityQueue.invariant(pq)
    })
    const survivors = elts.filter((_, i) => i % 3 === 0)
    PriorityQueue.remove(pq, survivors[5]!)
    PriorityQueue.invariant(pq)
    const expected = [...survivors.filter((_, j) => j !== 5)]
      .map((e) => [Elt.key(pq, e), Elt.value(pq, e)] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, v]) => v)
    expect(drain(pq, 41)).toEqual(expected)
  })

  it('a handle stays dead after its row is reused a million times', () => {
    const pq = PriorityQueue.create<number>({ levelBits: [4, 4] })
    const first = PriorityQueue.add(pq, 1, 0)
    PriorityQueue.remove(pq, first)
    const seen = new Set<number>([first])
    let last = first
    for (let i = 1; i <= 1_000_000; i++) {
      last = PriorityQueue.add(pq, 1, i)
      if (i % 1000 === 0) {
        expect(seen.has(last)).toBe(false)
        seen.add(last)
      }
      if (PriorityQueue.mem(pq, first)) throw new Error(`first handle came back after ${i} reuses`)
      PriorityQueue.remove(pq, last)
    }
    expect(PriorityQueue.mem(pq, first)).toBe(false)
    expectCode('AlarmNotFound', () => PriorityQueue.remove(pq, first))
    expect(PriorityQueue.isEmpty(pq)).toBe(true)
    PriorityQueue.invariant(pq)
  })
})

describe('increaseMinAllowedKey', () => {
  it('removes keys below the new minimum in key order, ties in insertion order', () => {
    const pq = PriorityQueue.create<string>({ levelBits: [2, 2, 2] })
    // Spread over every level, with ties added before and after the minimum moves.
    PriorityQueue.add(pq, 40, 'k40-first')
    PriorityQueue.add(pq, 3, 'k3')
    PriorityQueue.add(pq, 17, 'k17')
    PriorityQueue.add(pq, 40, 'k40-second')
    PriorityQueue.add(pq, 0, 'k0')
    expect(drain(pq, 20)).toEqual(['k0', 'k3', 'k17'])
    PriorityQueue.add(pq, 40, 'k40-third')
    expect(drain(pq, 64)).toEqual(['k40-first', 'k40-second', 'k40-third'])
    expect(PriorityQueue.minAllowedKey(pq)).toBe(64)
    PriorityQueue.invariant(pq)
  })

  it('is a no-op for keys at or below the minimum', () => {
    const pq = PriorityQueue.create<string>()
    PriorityQueue.increaseMinAllowedKey(pq, 10, () => {})
    PriorityQueue.add(pq, 10, 'x')
    expect(drain(pq, 10)).toEqual([])
    expect(drain(pq, 3)).toEqual([])
    expect(PriorityQueue.minAllowedKey(pq)).toBe(10)
  })

  it('jumps across the whole key range at once', () => {
    const pq = PriorityQueue.create<number>()
    const max = PriorityQueue.maxRepresentableKey
    PriorityQueue.add(pq, 2 ** 51, 2)
    PriorityQueue.add(pq, 1, 1)
    PriorityQueue.add(pq, max, 3)
    expect(drain(pq, max)).toEqual([1, 2])
    expect(PriorityQueue.minKey(pq)).toEqual(O.some(max))
    PriorityQueue.invariant(pq)
  })

  it('rejects keys that are not integers up to maxRepresentableKey, changing nothing', () => {
    const pq = PriorityQueue.create<number>()
    PriorityQueue.add(pq, 1, 1)
    for (const key of [2 ** 52, 1.5, Number.NaN, Infinity]) {
      expect(expectCode('TimeOutOfRange', () => PriorityQueue.increaseMinAllowedKey(pq, key, () => {}))).toContain(String(key))
    }
    expect(PriorityQueue.length(pq)).toBe(1)
    expect(PriorityQueue.minAllowedKey(pq)).toBe(0)
  })

  it('lets handlers add, remove and change; what they remove does not fire', () => {
    const pq = PriorityQueue.create<string>({ levelBits: [3, 3] })
    const handles = new Map<string, PriorityQueue.Elt<string>>()
    for (const [key, name] of [[1, 'a'], [2, 'b'], [3, 'c'], [4, 'd']] as const) {
      handles.set(name, PriorityQueue.add(pq, key, name))
    }
    const fired: string[] = []
    PriorityQueue.increaseMinAllowedKey(pq, 5, (e) => {
      const name = Elt.value(pq, e)
      fired.push(name)
      expect(PriorityQueue.minAllowedKey(pq)).toBe(5)
      if (name === 'a') {
        PriorityQueue.remove(pq, handles.get('b')!)
        PriorityQueue.change(pq, handles.get('c')!, 9)
        PriorityQueue.add(pq, 5, 'e')
      }
    })
    expect(fired).toEqual(['a', 'd'])
    expect(PriorityQueue.toArray(pq).map((e) => Elt.value(pq, e)).sort()).toEqual(['c', 'e'])
    PriorityQueue.invariant(pq)
  })

  it('inside its own handler an element is out of the queue but readable; change puts it back', () => {
    const pq = PriorityQueue.create<string>()
    const e = PriorityQueue.add(pq, 1, 'periodic')
    PriorityQueue.increaseMinAllowedKey(pq, 2, (self) => {
      expect(self).toBe(e)
      expect(PriorityQueue.mem(pq, self)).toBe(false)
      expect(PriorityQueue.length(pq)).toBe(0)
      expect(Elt.key(pq, self)).toBe(1)
      expectCode('AlarmNotFound', () => PriorityQueue.remove(pq, self))
      PriorityQueue.change(pq, self, 7)
    })
    expect(PriorityQueue.mem(pq, e)).toBe(true)
    expect(Elt.key(pq, e)).toBe(7)
    let fired: PriorityQueue.Elt<string> | undefined
    PriorityQueue.increaseMinAllowedKey(pq, 8, (self) => (fired = self))
    expect(fired).toBe(e)
    expect(PriorityQueue.mem(pq, e)).toBe(false)
    expectCode('AlarmNotFound', () => Elt.value(pq, e))
  })

  it('rejects reentrant increase and clear from a handler', () => {
    const pq = PriorityQueue.create<string>()
    PriorityQueue.add(pq, 1, 'x')
    PriorityQueue.increaseMinAllowedKey(pq, 2, () => {
      expectCode('Reentrant', () => PriorityQueue.increaseMinAllowedKey(pq, 3, () => {}))
      expectCode('Reentrant', () => PriorityQueue.clear(pq))
    })
    expect(PriorityQueue.minAllowedKey(pq)).toBe(2)
  })

  it('completes when handlers throw, then rethrows the first error', () => {
    const pq = PriorityQueue.create<number>()
    for (let k = 0; k < 5; k++) PriorityQueue.add(pq, k, k)
    const fired: number[] = []
    expect(() =>
      PriorityQueue.increaseMinAllowedKey(pq, 5, (e) => {
        const v = Elt.value(pq, e)
        fired.push(v)
        if (v % 2 === 1) throw new Error(`boom ${v}`)
      }),
    ).toThrow('boom 1')
    expect(fired).toEqual([0, 1, 2, 3, 4])
    expect(PriorityQueue.isEmpty(pq)).toBe(true)
    expect(PriorityQueue.minAllowedKey(pq)).toBe(5)
    PriorityQueue.invariant(pq)
  })
})

describe('minimum, iteration, clear', () => {
  it('minElt and minKey find the least key, first added among equals', () => {
    const pq = PriorityQueue.create<string>({ levelBits: [2, 2] })
    expect(PriorityQueue.minElt(pq)).toEqual(O.none)
    expect(PriorityQueue.minKey(pq)).toEqual(O.none)
    expectCode('Empty', () => PriorityQueue.minEltExn(pq))
    expectCode('Empty', () => PriorityQueue.minKeyExn(pq))
    PriorityQueue.add(pq, 9, 'late')
    const a = PriorityQueue.add(pq, 6, 'a')
    PriorityQueue.add(pq, 6, 'b')
    expect(PriorityQueue.minElt(pq)).toEqual(O.some(a))
    expect(PriorityQueue.minEltExn(pq)).toBe(a)
    expect(PriorityQueue.minKeyExn(pq)).toBe(6)
    PriorityQueue.remove(pq, a)
    expect(Elt.value(pq, PriorityQueue.minEltExn(pq))).toBe('b')
  })

  it('iter and toArray visit every element once', () => {
    const pq = PriorityQueue.create<number>({ levelBits: [3, 3] })
    for (let k = 0; k < 60; k += 3) PriorityQueue.add(pq, k, k)
    const seen: number[] = []
    PriorityQueue.iter(pq, (e) => seen.push(Elt.value(pq, e)))
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => 3 * i))
    expect(PriorityQueue.toArray(pq)).toHaveLength(20)
  })

  it('clear removes everything, kills the handles and keeps the minimum', () => {
    const pq = PriorityQueue.create<number>()
    PriorityQueue.increaseMinAllowedKey(pq, 100, () => {})
    const es = [100, 5000, 2 ** 40].map((k) => PriorityQueue.add(pq, k, k))
    PriorityQueue.clear(pq)
    expect(PriorityQueue.isEmpty(pq)).toBe(true)
    expect(PriorityQueue.minAllowedKey(pq)).toBe(100)
    for (const e of es) expect(PriorityQueue.mem(pq, e)).toBe(false)
    PriorityQueue.invariant(pq)
    PriorityQueue.add(pq, 101, 1)
    expect(drain(pq, 102)).toEqual([1])
  })

  it('invariant notices a corrupted structure', () => {
    const pq = PriorityQueue.create<number>({ levelBits: [3, 3] })
    PriorityQueue.add(pq, 20, 20)
    PriorityQueue.invariant(pq)
    ;(pq as unknown as { length: number }).length = 2
    expect(() => PriorityQueue.invariant(pq)).toThrow(/length/)
  })
})

describe('moving the next slot down', () => {
  it('reads ahead without changing anything: removals and changes at any point of its list', () => {
    // Elements of the level-1 slot after level 0's first block (keys 2048 to 4095) are
    // read ahead, from both ends of the list, while the minimum moves through the block.
    // Removing and changing them meanwhile, wherever the reading stands, changes nothing
    // in what fires, or in what order.
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 2048, max: 4095 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 2047 })), fc.nat(), fc.boolean()), { maxLength: 12 }),
        (keys, edits) => {
          const pq = PriorityQueue.create<number>()
          const model = keys.map((key, i) => ({ key, value: i, elt: PriorityQueue.add(pq, key, i) }))
          const steps = [...edits].sort((a, b) => a[0] - b[0])
          let at = 0
          for (const [step, pick, change] of steps) {
            for (; at < step; at++) {
              expect(drain(pq, at + 1)).toEqual([])
              PriorityQueue.invariant(pq)
            }
            if (model.length === 0) continue
            const [victim] = model.splice(pick % model.length, 1)
            if (change) {
              // Changed to a key of the same slot: it counts as added last.
              const key = 2048 + ((victim!.key * 7) % 2048)
              PriorityQueue.change(pq, victim!.elt, key)
              model.push({ ...victim!, key })
            } else PriorityQueue.remove(pq, victim!.elt)
            PriorityQueue.invariant(pq)
          }
          const expected = [...model].sort((a, b) => a.key - b.key).map((e) => e.value)
          expect(drain(pq, 4096)).toEqual(expected)
          PriorityQueue.invariant(pq)
        },
      ),
    )
  })
})

describe('moving a slot down', () => {
  it('keeps a slot of any length whole and in order, walked from both ends', () => {
    // With levels [3, 3, 3], keys 8 to 63 sit at level 1 and 64 to 511 at level 2; equal
    // keys share a slot, so a slot of n elements moves down n rows, odd or even, past the
    // room the queue keeps for the back half. What fires is the stable sort by key.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 8, max: 200 }), { minLength: 1, maxLength: 120 }), (keys) => {
        const pq = PriorityQueue.create<number>({ levelBits: [3, 3, 3] })
        keys.forEach((key, i) => PriorityQueue.add(pq, key, i))
        const fired: number[] = []
        for (let m = 1; m <= 201; m++) {
          PriorityQueue.increaseMinAllowedKey(pq, m, (e) => fired.push(Elt.value(pq, e)))
          PriorityQueue.invariant(pq)
        }
        expect(fired).toEqual(removalOrder(keys))
      }),
    )
  })

  it('moves a slot of thousands down in order and keeps no large buffer after', () => {
    const pq = PriorityQueue.create<number>({ levelBits: [4, 4] })
    const keys = Array.from({ length: 20_000 }, (_, i) => 16 + ((i * 7919) % 16))
    keys.forEach((key, i) => PriorityQueue.add(pq, key, i))
    expect(drain(pq, 32)).toEqual(removalOrder(keys))
    PriorityQueue.invariant(pq)
    expect((pq as unknown as { moving: Int32Array }).moving.length).toBeLessThanOrEqual(4096)
  })
})
