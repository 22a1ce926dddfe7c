/**
 * VirtualClock against @sinonjs/fake-timers 15 itself: generated programs of timer calls
 * and clock moves (see `support/sim-program.ts`) run on both, and the traces must agree
 * line for line: the same callbacks in the same order, each seeing the same `now`,
 * `countTimers()` and `performance.now()`, the same results and the same errors.
 *
 * SIM_DIFF_RUNS sets the number of programs (default 3000, about 10 s).
 */
import FakeTimers from '@sinonjs/fake-timers'
import fc from 'fast-check'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { VirtualClock } from '../lib/sim/index.js'
import { type ClockLike, firstDifference, programArb, runProgram } from './support/sim-program.js'

const numRuns = Number(process.env.SIM_DIFF_RUNS ?? 3000)

const theirs = (now: number | Date | undefined, loopLimit: number | undefined): ClockLike =>
  FakeTimers.createClock(now, loopLimit) as unknown as ClockLike

const ours = (now: number | Date | undefined, loopLimit: number | undefined): ClockLike => {
  const options = { ...(now === undefined ? {} : { now }), ...(loopLimit === undefined ? {} : { loopLimit }) }
  return VirtualClock.create(options) as unknown as ClockLike
}

const checkInvariant = (clock: ClockLike): void => VirtualClock.invariant(clock as unknown as VirtualClock.VirtualClock)

describe('VirtualClock and fake-timers', () => {
  it(`agree on ${numRuns} generated programs, line by line`, () => {
    // fake-timers warns once when asked to clear an id below its range; programs do that.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    onTestFinished(() => warn.mockRestore())
    fc.assert(
      fc.property(programArb, (program) => {
        const expected = runProgram(theirs, program)
        const actual = runProgram(ours, program, checkInvariant)
        const difference = firstDifference(actual, expected)
        if (difference !== undefined) expect.fail(difference)
      }),
      { numRuns },
    )
  }, Math.max(120_000, numRuns * 40))
})
