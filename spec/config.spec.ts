import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { Config, LevelBits, TimingWheel } from '../lib/index.js'

describe('Config', () => {
  it('decode fills in defaults and gives a config TimingWheel.create takes', () => {
    const result = Config.decode(JSON.parse('{"alarmPrecision": 0.5}'))
    expect(result).toEqual(E.right({ start: 0, alarmPrecision: 0.5, levelBits: LevelBits.default }))
    if (E.isRight(result)) expect(TimingWheel.alarmPrecision(TimingWheel.create(result.right))).toBe(0.5)
  })

  it('decode keeps every field given', () => {
    const input = { start: 1.7e12, alarmPrecision: 1, levelBits: [8, 8], capacity: 100 }
    expect(Config.decode(input)).toEqual(E.right(input))
  })

  it('lists every problem with its path and value in one message', () => {
    const result = Config.decode({ alarmPrecision: 0, start: 'soon', levelBits: [8, 0], capacity: -2, extra: true })
    expect(E.isLeft(result)).toBe(true)
    if (E.isLeft(result)) {
      expect(result.left.code).toBe('InvalidConfig')
      const message = result.left.message
      expect(message).toContain('config has 5 problems')
      expect(message).toContain('extra: unknown key "extra"')
      expect(message).toContain('alarmPrecision: 0 is not a finite number > 0')
      expect(message).toContain('start: "soon" is not a finite number')
      expect(message).toContain('levelBits: level bits [8, 0] has 0 at index 1')
      expect(message).toContain('capacity: -2 is not an integer')
    }
  })

  it('refuses a precision too fine for the start, at alarmPrecision', () => {
    const result = Config.decode({ start: 1.7e12, alarmPrecision: 1e-9 })
    expect(E.isLeft(result) && result.left.message).toMatch(/alarmPrecision: alarmPrecision 1e-9 is too fine/)
  })

  it('refuses what is not an object', () => {
    for (const u of [null, 3, 'x', [1]]) {
      const result = Config.decode(u)
      expect(E.isLeft(result) && result.left.message).toMatch(/\(root\): .* is not an object/)
    }
  })

  it('the codec encodes back to plain data and recognises configs', () => {
    const config = { start: 2, alarmPrecision: 3, levelBits: LevelBits.createExn([5]) }
    expect(Config.codec.encode(config)).toEqual({ start: 2, alarmPrecision: 3, levelBits: [5] })
    expect(Config.codec.is(config)).toBe(true)
    expect(Config.codec.is({ alarmPrecision: -1 })).toBe(false)
    expect(Config.decode(JSON.parse(JSON.stringify(Config.codec.encode(config))))).toEqual(E.right(config))
  })
})
