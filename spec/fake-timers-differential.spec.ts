/**
 * timing-wheel/fake-timers against @sinonjs/fake-timers 15.5 itself, on generated
 * programs whose traces must agree line for line:
 *
 * - the timer programs of `support/sim-program.ts` (the VirtualClock's differential),
 *   run on whole fake-timers clocks;
 * - the programs of `support/fake-timers-program.ts`: microtasks, promise callbacks,
 *   idle callbacks, the async moves, the `nextAsync` tick mode, and reads of `Date`,
 *   `hrtime` and `performance.now()` inside callbacks and between commands.
 *
 * Async moves settle as Node runs code, where fake-timers does not (issue 39): a job
 * queued during one runs in its native slot, at the time it was queued. So a program with
 * an async move or the tick mode has its jobs taken out here: those are compared with real
 * Node in `microtasks-node.spec.ts` instead.
 *
 * FT_DIFF_RUNS sets the number of programs of each kind (default 3000, about 5 s in all).
 */
import FakeTimers from '@sinonjs/fake-timers'
import fc from 'fast-check'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { createClock } from '../lib/fake-timers/index.js'
import * as Full from './support/fake-timers-program.js'
import { type ClockLike, firstDifference, programArb, runProgram } from './support/sim-program.js'

const runs = process.env['FT_DIFF_RUNS'] === undefined ? undefined : Number(process.env['FT_DIFF_RUNS'])
const timerRuns = runs ?? 3000
const fullRuns = runs ?? 3000

const realSetTimeout = globalThis.setTimeout

const isAsync = (command: Full.Command): boolean =>
  command.kind !== 'action' || hasAsync([command.action])

const hasAsync = (actions: readonly Full.Action[]): boolean =>
  actions.some((a) =>
    a.kind === 'startAsync' || (a.kind === 'schedule' ? hasAsync(a.timer.actions) : (a.kind === 'job' || a.kind === 'promise') && hasAsync(a.actions)),
  )

const withoutJobs = (actions: readonly Full.Action[]): Full.Action[] =>
  actions.flatMap((a): Full.Action[] => {
    if (a.kind === 'job') return []
    if (a.kind === 'promise') return [{ ...a, actions: withoutJobs(a.actions) }]
    if (a.kind === 'schedule') return [{ ...a, timer: { ...a.timer, actions: withoutJobs(a.timer.actions) } }]
    return [a]
  })

/** The program as fake-timers' semantics still cover it: no jobs when anything moves the clock asynchronously. */
const comparable = (program: Full.Program): Full.Program =>
  program.commands.some(isAsync)
    ? { ...program, commands: program.commands.map((c) => (c.kind === 'action' ? { ...c, action: withoutJobs([c.action])[0] ?? { kind: 'read' } } : c)) }
    : program

/** A program that never ends is a failure with its counterexample, not a test timeout. */
const withinSeconds = <A>(seconds: number, work: Promise<A>): Promise<A> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = realSetTimeout(() => reject(new Error(`a program ran for more than ${seconds} s`)), seconds * 1000)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

const quietWarnings = (): void => {
  // fake-timers warns once when asked to clear an id below its range; programs do that.
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  onTestFinished(() => warn.mockRestore())
}

describe('timing-wheel/fake-timers and @sinonjs/fake-timers', () => {
  it(`agree on ${timerRuns} timer programs, line by line`, () => {
    quietWarnings()
    const theirs = (now: number | Date | undefined, loopLimit: number | undefined): ClockLike =>
      FakeTimers.createClock(now, loopLimit) as unknown as ClockLike
    const ours = (now: number | Date | undefined, loopLimit: number | undefined): ClockLike =>
      createClock(now, loopLimit) as unknown as ClockLike
    fc.assert(
      fc.property(programArb, (program) => {
        const difference = firstDifference(runProgram(ours, program), runProgram(theirs, program))
        if (difference !== undefined) expect.fail(difference)
      }),
      { numRuns: timerRuns },
    )
  }, 120_000)

  it(`agree on ${fullRuns} programs with microtasks, promises, idle callbacks, async moves, Date and hrtime`, async () => {
    quietWarnings()
    const theirs = (now: number | Date | undefined, loopLimit: number | undefined): Full.FullClockLike =>
      FakeTimers.createClock(now, loopLimit) as unknown as Full.FullClockLike
    const ours = (now: number | Date | undefined, loopLimit: number | undefined): Full.FullClockLike =>
      createClock(now, loopLimit) as unknown as Full.FullClockLike
    await fc.assert(
      fc.asyncProperty(Full.programArb.map(comparable), async (program) => {
        const expected = await withinSeconds(5, Full.runProgram(theirs, program))
        const actual = await withinSeconds(5, Full.runProgram(ours, program))
        const difference = firstDifference(actual, expected)
        if (difference !== undefined) expect.fail(difference)
      }),
      { numRuns: fullRuns },
    )
  }, 160_000)
})
