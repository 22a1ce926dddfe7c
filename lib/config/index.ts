/**
 * Timing-wheel configuration from outside: an io-ts codec that turns `unknown` (a parsed
 * JSON file, say) into a validated {@link Config}, reporting every problem at once with
 * its path and value.
 *
 * @example
 * import { Config, TimingWheel } from 'timing-wheel'
 * const config = Config.decode(JSON.parse(text)) // Either<TimingWheelError, Config>
 * if (E.isRight(config)) TimingWheel.create(config.right)
 *
 * @module
 */
import * as A from 'fp-ts/lib/Apply.js'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import { TimingWheelError, show } from '../errors.js'
import * as LevelBits from '../level-bits/index.js'
import * as Intervals from '../timing-wheel/intervals.js'
import { collectingErrors, describeErrors, field, finiteNumber, isRecord, numberWhere } from './validation.js'

export { describeError, describeErrors, finiteNumber } from './validation.js'

/** A validated configuration, ready for `TimingWheel.create`. */
export interface Config {
  /** The time the clock starts at (0 if the input had none). */
  readonly start: number
  /** The length of an interval: a finite number > 0, coarse enough for doubles at `start`. */
  readonly alarmPrecision: number
  /** The level widths (`LevelBits.default` if the input had none). */
  readonly levelBits: LevelBits.LevelBits
  /** How many alarms to make room for up front, if the input said. */
  readonly capacity?: number
}

/** The plain-data form of a configuration, as in a JSON file. */
export interface ConfigJson {
  /** The time the clock starts at; default 0. */
  readonly start?: number
  /** The length of an interval. */
  readonly alarmPrecision: number
  /** The level widths; default `[11, 10, 10, 10, 10, 1]`. */
  readonly levelBits?: readonly number[]
  /** How many alarms to make room for up front; an integer in `[0, 2^27)`. */
  readonly capacity?: number
}

const positiveNumber = numberWhere('PositiveNumber', 'is not a finite number > 0', (n) => Number.isFinite(n) && n > 0)
const capacityNumber = numberWhere(
  'Capacity',
  `is not an integer in [0, ${2 ** 27 - 1}]`,
  (n) => Number.isInteger(n) && n >= 0 && n < 2 ** 27,
)

const levelBitsType = new t.Type<LevelBits.LevelBits, readonly number[], unknown>(
  'LevelBits',
  (u): u is LevelBits.LevelBits => Array.isArray(u) && E.isRight(LevelBits.create(u)),
  (u, c) =>
    pipe(
      LevelBits.create(u as readonly number[]),
      E.match(
        (e) => t.failure(u, c, e.message.replace(/^InvalidLevelBits: /, '')),
        (lb) => t.success(lb),
      ),
    ),
  (lb) => LevelBits.toArray(lb),
)

const known = new Set(['start', 'alarmPrecision', 'levelBits', 'capacity'])
const optional = <T, F>(type: t.Type<T, unknown, unknown>, fallback: F): t.Type<T | F, unknown, unknown> =>
  new t.Type<T | F, unknown, unknown>(
    type.name,
    (u): u is T | F => u === fallback || type.is(u),
    (u, c) => (u === undefined ? t.success(fallback) : type.validate(u, c)),
    t.identity,
  )

const validateConfig = (u: unknown, c: t.Context): t.Validation<Config> => {
  if (!isRecord(u)) {
    return t.failure(u, c, `${show(u)} is not an object with alarmPrecision and optional start, levelBits, capacity`)
  }
  const record = u as Record<string, unknown>
  const unknownKeys: ReadonlyArray<t.ValidationError> = Object.keys(record)
    .filter((key) => !known.has(key))
    .map((key) => ({
      value: record[key],
      context: t.appendContext(c, key, t.unknown, record[key]),
      message: `unknown key "${key}" (known: ${[...known].join(', ')})`,
    }))
  const fields = A.sequenceS(collectingErrors)({
    start: field(record, 'start', optional(finiteNumber, 0), c),
    alarmPrecision: field(record, 'alarmPrecision', positiveNumber, c),
    levelBits: field(record, 'levelBits', optional(levelBitsType, LevelBits.default), c),
    capacity: field(record, 'capacity', optional(capacityNumber, undefined), c),
  })
  const checked = pipe(
    fields,
    E.mapLeft((errors) => [...unknownKeys, ...errors]),
    E.chain((f) => (unknownKeys.length > 0 ? E.left([...unknownKeys]) : E.right(f))),
    E.chain((f) => precisionWorksAtStart(f, record, c)),
  )
  return pipe(
    checked,
    E.map(({ start, alarmPrecision, levelBits, capacity }) =>
      capacity === undefined ? { start, alarmPrecision, levelBits } : { start, alarmPrecision, levelBits, capacity },
    ),
    E.mapLeft((errors) => [...errors]),
  )
}

/** The one check across fields: doubles must keep the intervals apart from `start` on. */
const precisionWorksAtStart = <F extends { start: number; alarmPrecision: number }>(
  f: F,
  record: Record<string, unknown>,
  c: t.Context,
): E.Either<ReadonlyArray<t.ValidationError>, F> => {
  try {
    Intervals.create(f.start, f.alarmPrecision)
    return E.right(f)
  } catch (e) {
    const context = t.appendContext(c, 'alarmPrecision', positiveNumber, record['alarmPrecision'])
    return E.left([{ value: f.alarmPrecision, context, message: (e as Error).message.replace(/^InvalidConfig: /, '') }])
  }
}

/** The io-ts codec: validates `unknown` into a {@link Config}; encodes back to plain data. */
export const codec: t.Type<Config, ConfigJson, unknown> = new t.Type<Config, ConfigJson, unknown>(
  'TimingWheelConfig',
  (u): u is Config => E.isRight(validateConfig(u, [])),
  validateConfig,
  (config) => ({
    start: config.start,
    alarmPrecision: config.alarmPrecision,
    levelBits: LevelBits.toArray(config.levelBits),
    ...(config.capacity === undefined ? {} : { capacity: config.capacity }),
  }),
)

/**
 * Validates unknown input into a {@link Config}; a `Left` lists every problem with its
 * path and value in one `InvalidConfig` message.
 *
 * @example
 * Config.decode({ alarmPrecision: 0, levelBits: [0] })
 * // Left(InvalidConfig: config has 2 problems: alarmPrecision: 0 is not a finite number > 0; levelBits: ...)
 */
export const decode = (u: unknown): E.Either<TimingWheelError, Config> =>
  pipe(
    codec.decode(u),
    E.mapLeft((errors) => new TimingWheelError('InvalidConfig', describeErrors('config', errors))),
  )
