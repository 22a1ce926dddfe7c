import { expect } from 'vitest'
import { TimingWheelError, type TimingWheelErrorCode } from '../../lib/index.js'

/** Runs `f`, expecting a `TimingWheelError` with `code`; returns its message. */
export const expectCode = (code: TimingWheelErrorCode, f: () => unknown): string => {
  let caught: unknown
  try {
    f()
  } catch (e) {
    caught = e
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(TimingWheelError)
  expect((caught as TimingWheelError).code).toBe(code)
  return (caught as TimingWheelError).message
}
