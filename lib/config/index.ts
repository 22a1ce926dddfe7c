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
import * as E from '#fp-ts/Either.js'
import { pipe } from '#fp-ts/function.js'
import * as t from '#io-ts'
import { TimingWheelError } from '../errors.js'
import * as LevelBits from '../level-bits/index.js'
import { type Config, check, describe } from './check.js'

export type { Config } from './check.js'
export { describeError, describeErrors, finiteNumber } from './validation.js'

/**
 * The plain-data form of a configuration, as in a JSON file.
 *
 * @example
 * const json: Config.ConfigJson = Config.codec.encode(TimingWheel.config(t))
 * JSON.stringify(json) // '{"start":0,"alarmPrecision":0.5,"levelBits":[11,10,10,10,10,1]}' for a 0.5 ms wheel
 */
export interface ConfigJson {
  /** The time the clock starts at; default 0. */
  readonly start?: number
  /** The length of an interval. */
  readonly alarmPrecision: number
  /** The level widths; default `[11, 10, 10, 10, 10, 1]`. */
  readonly levelBits?: readonly number[]
  /** How many alarms to make room for up front; an integer in `[0, 2^27 - 1]`. */
  readonly capacity?: number
}

/** `check`'s problems as io-ts errors, each with its path below `c`. */
const validateConfig = (u: unknown, c: t.Context): t.Validation<Config> =>
  pipe(
    check(u),
    E.mapLeft((problems) =>
      problems.map((p) => ({
        value: p.value,
        context: p.key === undefined ? c : t.appendContext(c, p.key, t.unknown, p.value),
        message: p.message,
      })),
    ),
  )

/**
 * The io-ts codec: validates `unknown` into a {@link Config}; encodes back to plain data.
 *
 * @example
 * Config.codec.decode({ alarmPrecision: 0 }) // Left: io-ts errors, alarmPrecision: 0 is not a finite number > 0
 * Config.codec.is(TimingWheel.config(t)) // true
 */
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
    check(u),
    E.mapLeft((problems) => new TimingWheelError('InvalidConfig', describe('config', problems))),
  )
