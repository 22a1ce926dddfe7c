/**
 * The refusals of the test-runner routes (`timing-wheel/vitest/setup`,
 * `timing-wheel/jest-environment`): a refused call is named as the user wrote it,
 * `vi.advanceTimersByTime(NaN)`, never by the clock method under it (`tick`, which a `vi`
 * user never called), and its stack starts at the user's line. Each check takes `route`,
 * the function the user called: `Error.captureStackTrace` cuts its frame and every one
 * above it, as Vitest's and Jest's own errors do.
 *
 * The arguments are checked before the clock is called because, once it runs, an error may
 * be a timer callback's, which must pass unchanged. What is refused is only what the wheel
 * refuses where fake-timers would make the clock NaN or move it back; other values go on to
 * the clock as before (a string `'01:00'`, a `Temporal.Duration` under Jest).
 *
 * @module
 */
import { TimingWheelError, show } from '../errors.js'

/** The function the user called; its identity is all `captureStackTrace` needs. */
type Route = (...args: never[]) => unknown

/** A value as the user wrote it: a `Date` as `new Date(ms)`, which JSON would print as null. */
const shown = (value: unknown): string => (value instanceof Date ? `new Date(${show(value.getTime())})` : show(value))

/**
 * `error` with its stack recaptured from here, starting at the caller of `route`, less any
 * leading frames matching `skip` (Jest's runtime calls the route from a closure of its own).
 *
 * @example
 * function advance(ms: number) {
 *   try { check(ms) } catch (e) { throw fromRoute(e, advance) }
 * }
 */
export const fromRoute = <E>(error: E, route: Route, skip?: RegExp): E => {
  if (!(error instanceof Error)) return error
  Error.captureStackTrace(error, route)
  if (skip !== undefined && typeof error.stack === 'string') {
    const lines = error.stack.split('\n')
    // The message may span lines; frames are the lines that start with "    at ".
    const first = lines.findIndex((line) => /^\s+at /.test(line))
    let end = first
    while (end !== -1 && end < lines.length - 1 && skip.test(lines[end]!)) end++
    if (first !== -1 && end > first) error.stack = [...lines.slice(0, first), ...lines.slice(end)].join('\n')
  }
  return error
}

/**
 * Refuses an advance by `ms` that is a number but not a finite one of 0 or more: named
 * `${method}(${ms})`, from the user's line.
 *
 * @example
 * function advanceTimersByTime(ms: number) {
 *   checkAdvance('vi.advanceTimersByTime', ms, advanceTimersByTime)
 *   clock.tick(ms)
 * }
 */
export const checkAdvance = (method: string, ms: unknown, route: Route, skip?: RegExp): void => {
  if (typeof ms === 'number' && !(Number.isFinite(ms) && ms >= 0)) {
    throw fromRoute(
      new TimingWheelError('TimeOutOfRange', `${method}(${shown(ms)}) needs a finite number of milliseconds, 0 or more`),
      route,
      skip,
    )
  }
}

/** What `new Date(t).getTime()` can be: ±100,000,000 days from the epoch. */
const maxDate = 8.64e15

/**
 * Refuses a system time that is no valid date: a number that is not finite (or, with
 * `asDate`, not within a `Date`'s ±8.64e15 ms), or an invalid `Date`. With `asDate` the
 * value is what the route turns into a `Date` (Vitest does), so a string that is no date is
 * refused too.
 *
 * @example
 * function setSystemTime(time?: number | Date) {
 *   checkSystemTime('jest.setSystemTime', time, setSystemTime, false)
 *   clock.setSystemTime(time)
 * }
 */
export const checkSystemTime = (method: string, time: unknown, route: Route, asDate: boolean, skip?: RegExp): void => {
  const invalid =
    time instanceof Date
      ? Number.isNaN(time.getTime())
      : typeof time === 'number'
        ? !Number.isFinite(time) || (asDate && Math.abs(time) > maxDate)
        : asDate && time !== undefined && Number.isNaN(new Date(time as string).getTime())
  if (invalid) {
    const range = asDate ? `a time a Date can hold (milliseconds in [-${maxDate}, ${maxDate}], a date string or a valid Date)` : 'a finite number of milliseconds or a valid Date'
    throw fromRoute(new TimingWheelError('TimeOutOfRange', `${method}(${shown(time)}) needs ${range}`), route, skip)
  }
}
