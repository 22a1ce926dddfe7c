/**
 * The virtual clock's table of timers by key: examples for each function, and a
 * model-based test against a `Map` on key patterns that stress linear probing (runs of
 * consecutive keys, keys that share a home slot, keys near 2^53).
 */
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as TimerTable from '../lib/sim/timer-table.js'
import type { Timer } from '../lib/sim/timer.js'

/** A stand-in timer: the table stores and returns it, never reads it. */
const timer = (id: number): Timer => ({ id }) as unknown as Timer

const sorted = (table: TimerTable.TimerTable): Array<[number, number]> =>
  TimerTable.entries(table)
    .map(([key, t]): [number, number] => [key, t.id])
    .sort((a, b) => a[0] - b[0])

describe('TimerTable', () => {
  it('gets what was set, replaces on a second set, and forgets what was removed', () => {
    const table = new TimerTable.TimerTable()
    expect(TimerTable.get(table, 0)).toBeUndefined()
    TimerTable.set(table, 0, timer(10))
    TimerTable.set(table, 1, timer(11))
    TimerTable.set(table, 1, timer(12))
    expect(table.size).toBe(2)
    expect(TimerTable.get(table, 1)?.id).toBe(12)
    expect(TimerTable.has(table, 0)).toBe(true)
    TimerTable.remove(table, 0)
    TimerTable.remove(table, 0) // a no-op
    expect(TimerTable.has(table, 0)).toBe(false)
    expect(table.size).toBe(1)
    expect(sorted(table)).toEqual([[1, 12]])
  })

  it('grows past its first capacity and keeps every entry', () => {
    const table = new TimerTable.TimerTable()
    for (let key = 0; key < 1000; key++) TimerTable.set(table, key, timer(key))
    expect(table.size).toBe(1000)
    expect(table.mask + 1).toBeGreaterThanOrEqual(2000)
    for (let key = 0; key < 1000; key++) expect(TimerTable.get(table, key)?.id).toBe(key)
  })

  it('clear empties it', () => {
    const table = new TimerTable.TimerTable()
    for (let key = 0; key < 40; key++) TimerTable.set(table, key, timer(key))
    TimerTable.clear(table)
    expect(table.size).toBe(0)
    expect(TimerTable.entries(table)).toEqual([])
    expect(TimerTable.get(table, 3)).toBeUndefined()
  })

  it('takes keys up to 2^53 - 1', () => {
    const table = new TimerTable.TimerTable()
    const big = [2 ** 53 - 1, 2 ** 53 - 2, 2 ** 32, 2 ** 32 + 16, 2 ** 31 - 1]
    big.forEach((key, i) => TimerTable.set(table, key, timer(i)))
    big.forEach((key, i) => expect(TimerTable.get(table, key)?.id).toBe(i))
  })

  it('keeps removing from the middle of a run of collisions correct (model: a Map)', () => {
    // Keys that differ by a multiple of 2^32 share a home slot at every capacity.
    const colliding = fc.integer({ min: 0, max: 3 }).map((k) => 5 + k * 2 ** 32)
    const consecutive = fc.integer({ min: 0, max: 100 })
    const nearTop = fc.integer({ min: 0, max: 20 }).map((k) => 2 ** 53 - 1 - k)
    const key = fc.oneof(colliding, consecutive, nearTop)
    const op = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), key, id: fc.nat() }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('remove' as const), key }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300, size: 'max' }), (ops) => {
        const table = new TimerTable.TimerTable()
        const model = new Map<number, number>()
        for (const o of ops) {
          if (o.kind === 'set') {
            TimerTable.set(table, o.key, timer(o.id))
            model.set(o.key, o.id)
          } else if (o.kind === 'remove') {
            TimerTable.remove(table, o.key)
            model.delete(o.key)
          } else {
            TimerTable.clear(table)
            model.clear()
          }
          expect(table.size).toBe(model.size)
          expect((table.mask + 1) >= 2 * table.size).toBe(true)
        }
        for (const [k, id] of model) expect(TimerTable.get(table, k)?.id).toBe(id)
        expect(sorted(table)).toEqual([...model].sort((a, b) => a[0] - b[0]))
      }),
      { numRuns: 500 },
    )
  })
})
