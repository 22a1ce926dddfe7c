/**
 * A handle stays dead through every one of its row's 2^26 generations, reused for real (the
 * hostile spec ages a row instead): 2^26 adds and removes, 15 to 90 s on a shared 2-core
 * machine, so not in `npm test`: `npm run test:heavy` runs it, and CI does.
 */
import { describe, expect, it } from 'vitest'
import { PriorityQueue } from '../../lib/index.js'
import { expectCode } from '../support/expect-error.js'

describe('PriorityQueue handles', () => {
  it('keeps a handle dead through 2^26 real reuses of its row', () => {
    const pq = PriorityQueue.create<number>({ levelBits: [8] })
    const h0 = PriorityQueue.add(pq, 5, 0)
    PriorityQueue.remove(pq, h0)
    const rowOf = (h: number): number => h % 2 ** 27
    let reusedRow = 0
    for (let i = 0; i < 2 ** 26; i++) {
      const h = PriorityQueue.add(pq, 5, i)
      if (rowOf(h) === rowOf(h0)) reusedRow++
      PriorityQueue.remove(pq, h)
    }
    expect(reusedRow).toBe(2 ** 26 - 1) // every generation but h0's own, then retired
    expect(PriorityQueue.mem(pq, h0)).toBe(false)
    expectCode('AlarmNotFound', () => PriorityQueue.change(pq, h0 as PriorityQueue.Elt<number>, 10))
    expect(PriorityQueue.length(pq)).toBe(0)
    PriorityQueue.invariant(pq)
  }, 300_000)
})
