import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { LevelBits } from '../lib/index.js'
import { expectCode } from './support/expect-error.js'

describe('LevelBits', () => {
  it('create accepts positive integer widths summing to at most 52', () => {
    expect(LevelBits.create([1])).toEqual(E.right([1]))
    expect(LevelBits.create([11, 10, 10, 10, 10, 1])).toEqual(E.right([11, 10, 10, 10, 10, 1]))
    expect(LevelBits.create([24, 24, 4])).toEqual(E.right([24, 24, 4]))
  })

  it.each([
    [[], 'at least one level'],
    [[0], 'index 0'],
    [[3, -1], 'index 1'],
    [[2.5], '2.5'],
    [[Number.NaN], 'NaN'],
    [[25], 'in [1, 24]'],
    [[24, 24, 5], 'sums to 53'],
  ])('create rejects %j with InvalidLevelBits naming the problem', (bits, words) => {
    const result = LevelBits.create(bits)
    expect(E.isLeft(result)).toBe(true)
    if (E.isLeft(result)) {
      expect(result.left.code).toBe('InvalidLevelBits')
      expect(result.left.message).toContain(words)
    }
    expectCode('InvalidLevelBits', () => LevelBits.createExn(bits))
  })

  it('rejects input that is not an array', () => {
    expectCode('InvalidLevelBits', () => LevelBits.createExn('8,8' as unknown as number[]))
  })

  it('default is [11, 10, 10, 10, 10, 1], all 52 bits', () => {
    expect(LevelBits.toArray(LevelBits.default)).toEqual([11, 10, 10, 10, 10, 1])
    expect(LevelBits.numBits(LevelBits.default)).toBe(LevelBits.maxNumBits)
    expect(LevelBits.maxNumBits).toBe(52)
  })

  it('extendToMaxNumBits appends 1-bit levels up to 52 bits', () => {
    const lb = LevelBits.createExn([20, 20], { extendToMaxNumBits: true })
    expect(LevelBits.toArray(lb)).toEqual([20, 20, ...Array(12).fill(1)])
    expect(LevelBits.toArray(LevelBits.extendToMaxNumBits(LevelBits.createExn([24, 24])))).toEqual([24, 24, 1, 1, 1, 1])
    expect(LevelBits.toArray(LevelBits.extendToMaxNumBits(LevelBits.default))).toEqual([11, 10, 10, 10, 10, 1])
  })

  it('numBits sums and toArray copies', () => {
    const lb = LevelBits.createExn([3, 4, 5])
    expect(LevelBits.numBits(lb)).toBe(12)
    const copy = LevelBits.toArray(lb)
    copy.push(9)
    expect(LevelBits.toArray(lb)).toEqual([3, 4, 5])
  })

  it('durations are the cumulative spans of the levels', () => {
    expect(LevelBits.durations(LevelBits.createExn([10, 10]), 1)).toEqual([1024, 1048576])
    expect(LevelBits.durations(LevelBits.createExn([2, 3, 1]), 0.5)).toEqual([2, 16, 32])
  })
})
