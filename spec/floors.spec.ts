/**
 * The kernels of `npm run bench:floors` do the work they stand for: the bare wheel fires
 * the same alarms at the same times as the package's wheel under the bench's drivers, and
 * every step kernel runs its loops, keeping its rows. No timing is asserted.
 */
import { describe, expect, it } from 'vitest'
import { wheel } from '../bench/adapters/wheel.js'
import { churnKernel, kernel, packageQueue, packageQueueChurn, steps } from '../bench/add-remove-steps.js'
import { type BareRun, bareWheelChurn, bareWheelHold, bareWheelSpread, bareWheelTimeouts } from '../bench/bare-wheel.js'
import { guardedChurn, guardedHold } from '../bench/guarded-wheel.js'
import * as Drivers from '../bench/drivers.js'
import * as Workloads from '../bench/workloads.js'

const seed = 11

/** That a kernel fired what the package's wheel fired under the bench's driver. */
const expectSameAlarms = (run: BareRun, expected: Drivers.Checksum): void => {
  expect({ fired: run.fired, hash: run.hash }).toEqual(expected)
}

describe('the bare wheel', () => {
  it('fires the hold load as the package does', () => {
    const hold = Workloads.hold(Workloads.quick.hold, seed)
    const expected = Drivers.hold(wheel, hold).checksum
    expect(expected.fired).toBeGreaterThanOrEqual(hold.fired)
    expectSameAlarms(bareWheelHold(hold), expected)
  })

  it('fires the churn load as the package does, cancelled alarms not at all', () => {
    for (const size of Workloads.tiny.churn) {
      const churn = Workloads.churn(size, Workloads.tiny.churnMaxDelay, seed)
      const expected = Drivers.churn(wheel, churn).checksum
      expect(expected.fired).toBe(size.outstanding)
      expectSameAlarms(bareWheelChurn(churn), expected)
    }
  })

  it('fires the timeouts load as the package does, stopped timers not at all', () => {
    const timeouts = Workloads.timeouts(Workloads.quick.timeouts, seed)
    const expected = Drivers.timeouts(wheel, timeouts).checksum
    expect(expected.fired).toBe(timeouts.timers - timeouts.stopped)
    expectSameAlarms(bareWheelTimeouts(timeouts), expected)
  })

  it('fires the spread load as the package does, every alarm once', () => {
    const spread = Workloads.spread(Workloads.quick.spread, seed)
    const expected = Drivers.spread(wheel, spread).checksum
    expect(expected.fired).toBe(spread.alarms)
    expectSameAlarms(bareWheelSpread(spread), expected)
  })

  it('refuses a key beyond its two levels rather than misplace it', () => {
    const churn = Workloads.churn({ outstanding: 2, ops: 1 }, 10, seed)
    const far = { ...churn, times: Float64Array.from([1, 2 ** 21, 3]) }
    expect(() => bareWheelChurn(far)).toThrow(/beyond its two levels/)
  })
})

describe('the wheel with the guarantees', () => {
  it('fires the hold load as the package does, at two sizes', () => {
    for (const [sizes, s] of [[Workloads.quick, seed], [Workloads.tiny, seed + 1]] as const) {
      const hold = Workloads.hold(sizes.hold, s)
      const expected = Drivers.hold(wheel, hold).checksum
      expectSameAlarms(guardedHold(hold), expected)
    }
  })

  it('fires the churn load as the package does, cancelled alarms not at all, timing the drain apart', () => {
    for (const size of Workloads.tiny.churn) {
      const churn = Workloads.churn(size, Workloads.tiny.churnMaxDelay, seed)
      const run = guardedChurn(churn)
      expectSameAlarms(run, Drivers.churn(wheel, churn).checksum)
      expect(run.drainPerOp).toBeGreaterThan(0)
      expect(run.drainPerOp).toBeLessThan(run.nsPerOp)
    }
  })
})

describe('the step kernels', () => {
  const pairs = Workloads.addRemove({ outstanding: 100, pairs: 10_000 }, 60_000, seed)

  it('run with every set of guarantees, and so does the package queue, keeping every element', () => {
    for (const step of steps) expect(kernel(step)(pairs), step).toBeGreaterThan(0)
    expect(packageQueue(pairs)).toBeGreaterThan(0)
  })

  it('run the churn operations with every set of guarantees, and so does the package queue', () => {
    const churn = Workloads.churn({ outstanding: 500, ops: 5_000 }, 60_000, seed)
    for (const step of steps) expect(churnKernel(step)(churn), step).toBeGreaterThan(0)
    expect(packageQueueChurn(churn)).toBeGreaterThan(0)
  })

  it('refuse a bad key once keys are checked', () => {
    // A key past what the levels hold is refused by a kernel that checks keys.
    const bad = { ...pairs, times: Float64Array.from(pairs.times, (t, i) => (i === 100 ? 2 ** 53 : t)) }
    expect(() => kernel('handles')(bad)).toThrow('key')
    expect(() => kernel('links')(bad)).not.toThrow()
  })
})
