/**
 * Snapshots: a timing wheel as plain JSON data and back.
 *
 * A snapshot holds the configuration, `now`, and the alarms (time and encoded value) in
 * firing order. Decoding validates everything and rebuilds the wheel by adding the alarms
 * in that order, which reproduces the firing order; handles do not carry over. A snapshot
 * that fails anywhere yields every problem found and no wheel.
 */
import * as E from '#fp-ts/Either.js'
import { pipe } from '#fp-ts/function.js'
import * as t from '#io-ts'
import * as Config from '../config/index.js'
import { show } from '../errors.js'
import { field, finiteNumber, isRecord } from '../config/validation.js'
import * as TW from './timing-wheel.js'

/**
 * The plain-data form of a wheel.
 *
 * @example
 * const snapshot: TimingWheel.Snapshot<string> = TimingWheel.snapshotCodec(t.string).encode(wheel)
 * snapshot.alarms.length === TimingWheel.length(wheel) // true
 */
export interface Snapshot<O> {
  /** The configuration that rebuilds the wheel. */
  readonly config: Config.ConfigJson
  /** The clock's time. */
  readonly now: number
  /** Every alarm, in firing order. */
  readonly alarms: ReadonlyArray<{
    /** The alarm's time. */
    readonly at: number
    /** Its value, encoded by the value codec. */
    readonly value: O
  }>
}

const failure = (value: unknown, c: t.Context, message: string): ReadonlyArray<t.ValidationError> => [
  { value, context: c, message },
]

/** Keys of `record` that are not `known`, as errors: a snapshot is refused as `Config.decode` refuses a config. */
const unknownKeys = (record: Record<string, unknown>, known: readonly string[], c: t.Context): t.ValidationError[] =>
  Object.keys(record)
    .filter((key) => !known.includes(key))
    .map((key) => ({
      value: record[key],
      context: t.appendContext(c, key, t.unknown, record[key]),
      message: `unknown key "${key}" (known: ${known.join(', ')})`,
    }))

/**
 * The alarms' structure: an array of `{ at, value }` with finite times and valid values.
 * One pass that appends to two arrays: linear in the alarms (a fold through the
 * applicative would copy the results at every step), and holes are alarms that are missing.
 */
const alarmsType = <T>(valueCodec: t.Type<T, unknown, unknown>) =>
  new t.Type<ReadonlyArray<{ at: number; value: T }>, unknown, unknown>(
    'Alarms',
    (u): u is ReadonlyArray<{ at: number; value: T }> => Array.isArray(u),
    (u, c) => {
      if (!Array.isArray(u)) return t.failure(u, c, `${show(u)} is not an array of { at, value }`)
      const alarms: Array<{ at: number; value: T }> = []
      const errors: t.ValidationError[] = []
      for (let i = 0; i < u.length; i++) {
        const alarm: unknown = u[i]
        const ci = t.appendContext(c, String(i), t.unknown, alarm)
        if (!isRecord(alarm)) {
          errors.push(...failure(alarm, ci, `${show(alarm)} is not an object { at, value }`))
          continue
        }
        errors.push(...unknownKeys(alarm, ['at', 'value'], ci))
        const at = field(alarm, 'at', finiteNumber, ci)
        const value = field(alarm, 'value', valueCodec, ci)
        if (E.isLeft(at)) errors.push(...at.left)
        if (E.isLeft(value)) errors.push(...value.left)
        if (E.isRight(at) && E.isRight(value)) alarms.push({ at: at.right, value: value.right })
      }
      return errors.length > 0 ? t.failures(errors) : t.success(alarms)
    },
    t.identity,
  )

/** Builds the wheel, turning every refusal of `create`, `advanceClock` or `add` into an error. */
const rebuild = <T>(
  config: Config.Config,
  now: number,
  alarms: ReadonlyArray<{ at: number; value: T }>,
  record: Record<string, unknown>,
  c: t.Context,
): E.Either<ReadonlyArray<t.ValidationError>, TW.TimingWheel<T>> => {
  const nowContext = t.appendContext(c, 'now', finiteNumber, now)
  let wheel: TW.TimingWheel<T>
  try {
    wheel = TW.create<T>(config)
  } catch (e) {
    return E.left(failure(record['config'], t.appendContext(c, 'config', Config.codec, record['config']), (e as Error).message))
  }
  if (now < config.start) return E.left(failure(now, nowContext, `now ${now} is before start ${config.start}`))
  try {
    TW.advanceClock(wheel, now, () => {})
  } catch (e) {
    return E.left(failure(now, nowContext, (e as Error).message))
  }
  const errors: t.ValidationError[] = []
  alarms.forEach((alarm, i) => {
    try {
      TW.add(wheel, alarm.at, alarm.value)
    } catch (e) {
      const ci = t.appendContext(t.appendContext(c, 'alarms', t.unknown, record['alarms']), String(i), t.unknown, alarm)
      errors.push(...failure(alarm.at, t.appendContext(ci, 'at', finiteNumber, alarm.at), (e as Error).message))
    }
  })
  return errors.length > 0 ? E.left(errors) : E.right(wheel)
}

/**
 * An io-ts codec between a wheel holding values that `valueCodec` encodes and its plain
 * JSON {@link Snapshot}. Decoding refuses (with every problem, its path and value) a bad
 * config, a `now` before `start` or not finite, and alarms that are not finite, in an
 * interval before `now`'s or beyond the wheel's range.
 *
 * @example
 * const codec = TimingWheel.snapshotCodec(t.string)
 * const json = JSON.stringify(codec.encode(wheel))
 * const copy = codec.decode(JSON.parse(json)) // Either<t.Errors, TimingWheel<string>>
 */
export const snapshotCodec = <T, O>(valueCodec: t.Type<T, O, unknown>): t.Type<TW.TimingWheel<T>, Snapshot<O>, unknown> =>
  new t.Type<TW.TimingWheel<T>, Snapshot<O>, unknown>(
    `TimingWheelSnapshot<${valueCodec.name}>`,
    (u): u is TW.TimingWheel<T> => u instanceof TW.TimingWheel,
    (u, c) => {
      if (!isRecord(u)) return t.failure(u, c, `${show(u)} is not an object { config, now, alarms }`)
      const unknown = unknownKeys(u, ['config', 'now', 'alarms'], c)
      if (unknown.length > 0) return t.failures(unknown)
      const config = field(u, 'config', Config.codec, c)
      const now = field(u, 'now', finiteNumber, c)
      const alarms = field(u, 'alarms', alarmsType(valueCodec as t.Type<T, unknown, unknown>), c)
      // Every field's problems at once, as `alarmsType` collects every alarm's.
      if (E.isLeft(config) || E.isLeft(now) || E.isLeft(alarms)) {
        return t.failures([config, now, alarms].flatMap((r) => (E.isLeft(r) ? r.left : [])))
      }
      return pipe(
        rebuild(config.right, now.right, alarms.right, u, c),
        E.mapLeft((errors) => [...errors]),
      )
    },
    (wheel) => ({
      config: Config.codec.encode(TW.config(wheel)),
      now: TW.now(wheel),
      alarms: TW.toArray(wheel).map((alarm) => ({
        at: TW.alarmAt(wheel, alarm),
        value: valueCodec.encode(TW.alarmValue(wheel, alarm)),
      })),
    }),
  )
