/**
 * Level bits: how many key bits each level of a timing wheel distinguishes.
 *
 * Level `i` of a wheel built from `[b0, b1, ...]` is an array of `2^bi` slots, and each of
 * its slots covers `2^(b0 + ... + b(i-1))` consecutive keys. The sum of the bits is how
 * many keys the wheel can hold ahead of its minimum: `2^numBits`. More, narrower levels
 * use less memory; fewer, wider levels move each element down fewer times.
 *
 * @example
 * import { LevelBits, TimingWheel } from 'timing-wheel'
 * const levelBits = LevelBits.createExn([12, 12, 12])
 * LevelBits.durations(levelBits, 1) // [4096, 16777216, 68719476736]
 * const t = TimingWheel.create<string>({ alarmPrecision: 1, levelBits })
 *
 * @module
 */
import * as E from '#fp-ts/Either.js'
import { TimingWheelError, show } from '../errors.js'

declare const levelBitsBrand: unique symbol

/**
 * A validated, immutable list of level widths. Make one with {@link create}.
 *
 * @example
 * const lb: LevelBits.LevelBits = LevelBits.createExn([8, 8, 8])
 * const t = TimingWheel.create<string>({ alarmPrecision: 1, levelBits: lb })
 */
export type LevelBits = readonly number[] & {
  /** Marks arrays that {@link create} validated; no value has it at run time. */
  readonly [levelBitsBrand]: true
}

/**
 * Keys live in `[0, 2^52 - 1]`, so every key computation is exact in a double.
 *
 * @example
 * LevelBits.createExn([24, 24, 5]) // throws InvalidLevelBits: 53 bits > maxNumBits 52
 */
export const maxNumBits = 52

/**
 * The widest level allowed: `2^24` slots. A level is allocated whole when a wheel is
 * created, so wider levels would cost gigabytes before the first alarm.
 *
 * @example
 * LevelBits.createExn([LevelBits.maxLevelBits + 1]) // throws InvalidLevelBits
 */
export const maxLevelBits = 24

/**
 * Options of {@link create}.
 *
 * @example
 * const options: LevelBits.CreateOptions = { extendToMaxNumBits: true }
 * LevelBits.numBits(LevelBits.createExn([8, 8], options)) // 52
 */
export interface CreateOptions {
  /** Append 1-bit levels until the bits sum to {@link maxNumBits}, as Core does. */
  readonly extendToMaxNumBits?: boolean
}

const sum = (bits: readonly number[]): number => bits.reduce((a, b) => a + b, 0)

const invalid = (bits: unknown, why: string): E.Either<TimingWheelError, LevelBits> =>
  E.left(new TimingWheelError('InvalidLevelBits', `level bits ${show(bits)} ${why}`))

/**
 * Validates level widths: a non-empty array of integers in `[1, maxLevelBits]` whose sum
 * is at most `maxNumBits`.
 *
 * @example
 * LevelBits.create([8, 8, 8]) // Right([8, 8, 8])
 * LevelBits.create([])        // Left(TimingWheelError InvalidLevelBits)
 */
export const create = (
  bits: readonly number[],
  opts: CreateOptions = {},
): E.Either<TimingWheelError, LevelBits> => {
  if (!Array.isArray(bits)) return invalid(bits, 'must be an array of level widths')
  if (bits.length === 0) return invalid(bits, 'must name at least one level')
  const bad = bits.findIndex((b) => !Number.isInteger(b) || b < 1 || b > maxLevelBits)
  if (bad >= 0) {
    return invalid(
      bits,
      `has ${show(bits[bad])} at index ${bad}; each level needs an integer number of bits in [1, ${maxLevelBits}]`,
    )
  }
  const total = sum(bits)
  if (total > maxNumBits) {
    return invalid(bits, `sums to ${total}; the sum must be at most maxNumBits ${maxNumBits}`)
  }
  const extended = opts.extendToMaxNumBits
    ? [...bits, ...Array.from({ length: maxNumBits - total }, () => 1)]
    : [...bits]
  return E.right(Object.freeze(extended) as unknown as LevelBits)
}

/**
 * {@link create}, throwing the `TimingWheelError` instead of returning it.
 *
 * @example
 * const lb = LevelBits.createExn([8, 8, 8])
 * LevelBits.createExn([0]) // throws InvalidLevelBits
 */
export const createExn = (bits: readonly number[], opts: CreateOptions = {}): LevelBits => {
  const result = create(bits, opts)
  if (E.isLeft(result)) throw result.left
  return result.right
}

/**
 * `[11, 10, 10, 10, 10, 1]`: 52 bits, 6146 slots in all.
 *
 * @example
 * LevelBits.toArray(LevelBits.default) // [11, 10, 10, 10, 10, 1]
 */
export const defaultLevelBits: LevelBits = createExn([11, 10, 10, 10, 10, 1])

/**
 * The total number of key bits: the wheel holds about `2^numBits` keys ahead.
 *
 * @example
 * LevelBits.numBits(LevelBits.createExn([8, 8, 8])) // 24
 */
export const numBits = (lb: LevelBits): number => sum(lb)

/**
 * The widths as a plain array.
 *
 * @example
 * LevelBits.toArray(LevelBits.createExn([8, 8])) // [8, 8]
 */
export const toArray = (lb: LevelBits): number[] => [...lb]

/**
 * The same levels followed by 1-bit levels up to {@link maxNumBits} bits.
 *
 * @example
 * LevelBits.numBits(LevelBits.extendToMaxNumBits(LevelBits.createExn([10, 10]))) // 52: 32 levels of 1 bit follow
 */
export const extendToMaxNumBits = (lb: LevelBits): LevelBits =>
  createExn(lb, { extendToMaxNumBits: true })

/**
 * The time span each level covers when one key is `alarmPrecision` long: level `i` spans
 * `2^(b0 + ... + bi)` keys. Throws `InvalidConfig` unless `alarmPrecision` is a finite number > 0.
 *
 * @example
 * LevelBits.durations(LevelBits.createExn([10, 10]), 1) // [1024, 1048576]
 */
export const durations = (lb: LevelBits, alarmPrecision: number): readonly number[] => {
  if (typeof alarmPrecision !== 'number' || !(alarmPrecision > 0 && alarmPrecision < Infinity)) {
    throw new TimingWheelError('InvalidConfig', `durations: alarmPrecision ${show(alarmPrecision)} is not a finite number > 0`)
  }
  let bitsSoFar = 0
  return lb.map((bits) => {
    bitsSoFar += bits
    return 2 ** bitsSoFar * alarmPrecision
  })
}

/**
 * Accepts either validated level bits or a plain array, validating the latter.
 *
 * @example
 * LevelBits.fromInput([8, 8]) // LevelBits [8, 8]
 * LevelBits.fromInput(undefined) === LevelBits.default // true
 */
export const fromInput = (input: LevelBits | readonly number[] | undefined): LevelBits =>
  input === undefined ? defaultLevelBits : createExn(input)

export { defaultLevelBits as default }
