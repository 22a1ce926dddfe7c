/**
 * The one error type of the package. Every misuse throws a `TimingWheelError` whose
 * `code` says what kind of misuse it was and whose message names the offending value and
 * the range that would have been accepted. A call that throws one changes nothing.
 *
 * @module
 */

/**
 * What went wrong.
 *
 * - `InvalidLevelBits`: level bits empty, not positive integers, a level wider than
 *   {@link LevelBits.maxLevelBits}, or summing past {@link LevelBits.maxNumBits}.
 * - `InvalidConfig`: a precision, start or capacity that no wheel can use.
 * - `TimeOutOfRange`: a time or key that is NaN, infinite, too early or too late.
 * - `AlarmNotFound`: an alarm or element that is not in this structure now.
 * - `Empty`: an `...Exn` function called on an empty structure.
 * - `Reentrant`: a call that may not be made from inside a firing handler.
 * - `InvalidArgument`: a handler that is not a function, or an options argument that is
 *   not an object.
 *
 * @example
 * try {
 *   TimingWheel.create({ alarmPrecision: -1 })
 * } catch (e) {
 *   if (e instanceof TimingWheelError) console.log(e.code satisfies TimingWheelErrorCode) // InvalidConfig
 * }
 */
export type TimingWheelErrorCode =
  | 'InvalidLevelBits'
  | 'InvalidConfig'
  | 'TimeOutOfRange'
  | 'AlarmNotFound'
  | 'Empty'
  | 'Reentrant'
  | 'InvalidArgument'

/**
 * Thrown (or returned in a `Left`) for every misuse of the package.
 *
 * What counts, at every entry of the wheel and the queue, checked before anything changes:
 *
 * - A time or key is a primitive finite `number`: strings, booleans, `null`, arrays,
 *   boxed numbers, objects with `valueOf`, bigints and symbols are never coerced.
 * - A handle is exactly one the structure handed out and has not retired: a fraction, a
 *   negative, a non-number, another wheel's or one from before a `clear` is
 *   `AlarmNotFound`. A row is retired after its 2^26 generations, so a handle never comes
 *   back.
 * - A handler is a function. A configuration passes one validation, shared by `create`,
 *   `Config.decode`, the snapshot codec and `ReferenceWheel`; extreme precisions and starts
 *   (`1e308`, a start of `-1e308`) are refused at once with what would work.
 *
 * @example
 * try { PriorityQueue.add(pq, -1, 'x') } catch (e) {
 *   if (e instanceof TimingWheelError && e.code === 'TimeOutOfRange') { ... }
 * }
 */
export class TimingWheelError extends Error {
  /** What kind of misuse it was; branch on this, not on the message. */
  readonly code: TimingWheelErrorCode

  /**
   * `instanceof` by a brand, not by prototype: the ES build and the CommonJS build each
   * define this class, and a Jest environment loaded as CommonJS throws what a test that
   * imported the ES build catches. The brand is keyed by `Symbol.for`, shared by both.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }

  constructor(code: TimingWheelErrorCode, message: string) {
    super(`${code}: ${message}`)
    this.name = 'TimingWheelError'
    this.code = code
  }
}

const brand = Symbol.for('timing-wheel.TimingWheelError')
Object.defineProperty(TimingWheelError.prototype, brand, { value: true })

/** Renders a value for an error message: numbers exactly, everything else briefly. */
export const show = (value: unknown): string => {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`
  if (value === null || value === undefined) return String(value)
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value)
    } catch {
      return Object.prototype.toString.call(value)
    }
  }
  return String(value)
}
