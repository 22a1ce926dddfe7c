/**
 * The one validation of a wheel's configuration, shared by `TimingWheel.create`, the
 * reference model and the io-ts codec: plain code, so that creating a wheel does not
 * load io-ts. It reports every problem at once, each with its path and value, and returns
 * in time bounded by the input whatever the numbers (see `intervals.ts`).
 */
import * as E from '#fp-ts/Either.js'
import { show } from '../errors.js'
import * as LevelBits from '../level-bits/index.js'
import { maxCapacity } from '../priority-queue/index.js'
import * as Intervals from '../timing-wheel/intervals.js'

/**
 * A validated configuration, ready for `TimingWheel.create`.
 *
 * @example
 * const decoded: E.Either<TimingWheelError, Config.Config> = Config.decode({ alarmPrecision: 1 })
 * // Right({ start: 0, alarmPrecision: 1, levelBits: [11, 10, 10, 10, 10, 1] })
 */
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

/** One thing wrong with a configuration: where, what was there, and why it is wrong. */
export interface Problem {
  readonly key: 'start' | 'alarmPrecision' | 'levelBits' | 'capacity' | string | undefined
  readonly value: unknown
  readonly message: string
}

export const knownKeys: readonly string[] = ['start', 'alarmPrecision', 'levelBits', 'capacity']

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

const isFiniteNumber = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u)

/** Validates a configuration from anywhere; a `Left` lists every problem. */
export const check = (u: unknown): E.Either<readonly Problem[], Config> => {
  if (!isRecord(u)) {
    return E.left([
      { key: undefined, value: u, message: `${show(u)} is not an object with alarmPrecision and optional start, levelBits, capacity` },
    ])
  }
  const problems: Problem[] = []
  const problem = (key: string, message: string): void => {
    problems.push({ key, value: u[key], message: `${show(u[key])} ${message}` })
  }
  for (const key of Object.keys(u)) {
    if (!knownKeys.includes(key)) problems.push({ key, value: u[key], message: `unknown key "${key}" (known: ${knownKeys.join(', ')})` })
  }
  const { start = 0, alarmPrecision, levelBits = LevelBits.default, capacity } = u
  if (!isFiniteNumber(start)) problem('start', 'is not a finite number')
  if (!(isFiniteNumber(alarmPrecision) && alarmPrecision > 0)) problem('alarmPrecision', 'is not a finite number > 0')
  const bits = LevelBits.create(levelBits as readonly number[])
  if (E.isLeft(bits)) problems.push({ key: 'levelBits', value: levelBits, message: bits.left.message.replace(/^InvalidLevelBits: /, '') })
  if (capacity !== undefined && !(Number.isInteger(capacity) && (capacity as number) >= 0 && (capacity as number) <= maxCapacity)) {
    problem('capacity', `is not an integer in [0, ${maxCapacity}]`)
  }
  if (problems.length > 0 || E.isLeft(bits)) return E.left(problems)
  const precision = alarmPrecision as number
  const fits = Intervals.check(start as number, precision)
  if (fits !== undefined) return E.left([{ key: 'alarmPrecision', value: precision, message: fits }])
  const valid = { start: (start as number) + 0, alarmPrecision: precision, levelBits: bits.right }
  return E.right(capacity === undefined ? valid : { ...valid, capacity: capacity as number })
}

/** Every problem in one line: `config has 2 problems: alarmPrecision: 0 is not ...; levelBits: ...`. */
export const describe = (what: string, problems: readonly Problem[]): string =>
  `${what} has ${problems.length} problem${problems.length === 1 ? '' : 's'}: ` +
  problems.map((p) => `${p.key ?? '(root)'}: ${p.message}`).join('; ')
