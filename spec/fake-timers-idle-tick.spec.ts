/**
 * The idle tick (`idleTick` in `lib/fake-timers/state.ts`): a `tick` with nothing due takes
 * a path with no search, guarded by the schedule's lower bound on its least due time,
 * which a clear leaves stale until the next search. Against @sinonjs/fake-timers 15.5 on
 * programs made to hit that bound: timeouts, clears of the earliest pending ones (the
 * bound goes stale), many small ticks (mostly idle), some fractional or with a queued
 * microtask (the long way), reading `now`, `performance.now()`, the count and what fired
 * after every step.
 */
import FakeTimers from '@sinonjs/fake-timers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createClock } from '../lib/fake-timers/index.js'

type Step =
  | { readonly kind: 'arm'; readonly delay: number }
  | { readonly kind: 'clearEarliest' }
  | { readonly kind: 'tick'; readonly ms: number }
  | { readonly kind: 'microtaskThenTick'; readonly ms: number }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('arm' as const), delay: fc.integer({ min: 0, max: 60 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'clearEarliest' as const }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constantFrom(0.5, 1.25, 2 ** 31, 2 ** 31 - 1)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('microtaskThenTick' as const), ms: fc.integer({ min: 0, max: 8 }) }) },
)

interface Clockish {
  readonly now: number
  setTimeout(callback: () => void, delay: number): unknown
  clearTimeout(id: unknown): void
  queueMicrotask(callback: () => void): void
  tick(ms: number): number
  countTimers(): number
  readonly performance: { now(): number }
}

/** Runs the steps on a clock; the trace after each step. */
const run = (clock: Clockish, steps: readonly Step[]): string[] => {
  const trace: string[] = []
  // Pending timeouts by due time, then arming order: the earliest is the first.
  const pending: { id: unknown; due: number; n: number }[] = []
  let armed = 0
  for (const step of steps) {
    switch (step.kind) {
      case 'arm': {
        const n = armed++
        const entry = { id: undefined as unknown, due: clock.now + step.delay, n }
        entry.id = clock.setTimeout(() => {
          trace.push(`fired ${n} at ${clock.now}`)
          pending.splice(pending.indexOf(entry), 1)
        }, step.delay)
        pending.push(entry)
        pending.sort((a, b) => a.due - b.due || a.n - b.n)
        break
      }
      case 'clearEarliest': {
        const first = pending.shift()
        if (first !== undefined) clock.clearTimeout(first.id)
        break
      }
      case 'tick':
        clock.tick(step.ms)
        break
      case 'microtaskThenTick':
        clock.queueMicrotask(() => trace.push(`microtask at ${clock.now}`))
        clock.tick(step.ms)
        break
    }
    trace.push(`${step.kind}: now ${clock.now}, performance ${clock.performance.now()}, ${clock.countTimers()} pending`)
  }
  return trace
}

describe('the idle tick', () => {
  it('agrees with fake-timers 15.5 step by step, with the bound made stale by clears (property)', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 80 }), (steps) => {
        const theirs = FakeTimers.createClock(0) as unknown as Clockish
        const ours = createClock(0) as unknown as Clockish
        expect(run(ours, steps)).toEqual(run(theirs, steps))
      }),
      { numRuns: 500 },
    )
  })

  it('fires a timer behind a cleared earlier one at its own time, after idle ticks past the cleared one', () => {
    const clock = createClock(0)
    const fired: number[] = []
    const early = clock.setTimeout(() => fired.push(clock.now), 10)
    clock.setTimeout(() => fired.push(clock.now), 20)
    clock.clearTimeout(early)
    for (let i = 0; i < 19; i++) clock.tick(1)
    expect(fired).toEqual([])
    clock.tick(1)
    expect(fired).toEqual([20])
  })
})

describe('the idle tick on what is not a number', () => {
  it('leaves an object with a valueOf to the long way, untouched, as fake-timers does', () => {
    const outcome = (tick: (ms: unknown) => unknown, now: () => number): unknown[] => {
      let reads = 0
      const ms = { valueOf: () => (reads++, 5) }
      let thrown: unknown
      try {
        tick(ms)
      } catch (e) {
        thrown = (e as Error).message
      }
      return [thrown, reads, now()]
    }
    const ours = createClock(0)
    const theirs = FakeTimers.createClock(0)
    expect(outcome((ms) => ours.tick(ms as number), () => ours.now)).toEqual(
      outcome((ms) => theirs.tick(ms as number), () => theirs.now),
    )
  })
})
