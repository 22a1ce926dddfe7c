/**
 * The pieces the configuration and snapshot codecs share: field validation that keeps
 * the path, number refinements, and one-message error reports.
 */
import type * as E from '#fp-ts/Either.js'
import * as t from '#io-ts'
import { show } from '../errors.js'

/** Validates `record[key]` with `type`, extending the context with the key so errors carry the path. */
export const field = <T>(
  record: Record<string, unknown>,
  key: string,
  type: t.Type<T, unknown, unknown>,
  c: t.Context,
): E.Either<ReadonlyArray<t.ValidationError>, T> =>
  type.validate(record[key], t.appendContext(c, key, type, record[key]))

/** An io-ts type for numbers that satisfy `ok`, failing with `${value} ${what}`. */
export const numberWhere = (name: string, what: string, ok: (n: number) => boolean): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    name,
    (u): u is number => typeof u === 'number' && ok(u),
    (u, c) => (typeof u === 'number' && ok(u) ? t.success(u) : t.failure(u, c, `${show(u)} ${what}`)),
    t.identity,
  )

/**
 * The io-ts codec of finite numbers (not NaN or an infinity), for building codecs of
 * alarm values or configurations that report problems the way `Config.decode` does.
 *
 * @example
 * finiteNumber.decode(Infinity) // Left: "Infinity is not a finite number"
 */
export const finiteNumber = numberWhere('FiniteNumber', 'is not a finite number', Number.isFinite)

export const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * `path: message` for one io-ts error, the path as dotted keys from the root.
 *
 * @example
 * const decoded = Config.codec.decode({ alarmPrecision: 0 })
 * if (E.isLeft(decoded)) Config.describeError(decoded.left[0]!) // 'alarmPrecision: 0 is not a finite number > 0'
 */
export const describeError = (error: t.ValidationError): string => {
  const path = error.context
    .map((entry) => entry.key)
    .filter((key) => key !== '')
    .join('.')
  const message = error.message ?? `${show(error.value)} is not a valid ${error.context[error.context.length - 1]?.type.name}`
  return `${path === '' ? '(root)' : path}: ${message}`
}

/**
 * Every problem of a failed validation in one message.
 *
 * @example
 * const decoded = Config.codec.decode({ alarmPrecision: 0, levelBits: [] })
 * if (E.isLeft(decoded)) Config.describeErrors('config', decoded.left)
 * // 'config has 2 problems: alarmPrecision: 0 is not a finite number > 0; levelBits: level bits [] must name at least one level'
 */
export const describeErrors = (what: string, errors: t.Errors): string =>
  `${what} has ${errors.length} problem${errors.length === 1 ? '' : 's'}: ${errors.map(describeError).join('; ')}`
