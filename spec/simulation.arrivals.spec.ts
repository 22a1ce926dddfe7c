/**
 * The default mode's arrivals on the package's own clock (lib/simulation/arrivals.ts: one
 * clock timer a ms, re-armed with each arrival's reserved order) against the same program
 * on `@sinonjs/fake-timers` 15.5, where the simulation gives every message a clock timer of
 * its own: the order of deliveries and host timers, and their times, must be the same. Also
 * that microtasks run between two arrivals of one ms under `runAsync`, and that the
 * clock's schedule keeps its invariants.
 */
import FakeTimers from '@sinonjs/fake-timers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stateOf } from '../lib/sim/accessors.js'
import * as Schedule from '../lib/sim/schedule.js'
import type * as VirtualClock from '../lib/sim/virtual-clock.js'
import { Simulation as S } from '../lib/simulation/index.js'
import type { SimulationT } from '../lib/simulation/index.js'

const names = ['a', 'b', 'c'] as const

/** What a step does: a send, or a host timer whose callback sends (or does nothing). */
type Step =
  | { readonly kind: 'send'; readonly from: number; readonly to: number }
  | { readonly kind: 'timer'; readonly host: number; readonly ms: number; readonly sendTo: number | undefined }
  | { readonly kind: 'run'; readonly ms: number }

const hostArb = fc.integer({ min: 0, max: names.length - 1 })
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), from: hostArb, to: hostArb }),
  fc.record({ kind: fc.constant('timer' as const), host: hostArb, ms: fc.integer({ min: 0, max: 4 }), sendTo: fc.option(hostArb, { nil: undefined }) }),
  fc.record({ kind: fc.constant('run' as const), ms: fc.integer({ min: 0, max: 3 }) }),
)

/** Plays `steps` (then runs 20 ms) and returns what happened, in order, with the clock's time. */
const play = (sim: SimulationT<number>, latencies: readonly number[], steps: readonly Step[], replies: boolean): string[] => {
  const seen: string[] = []
  let id = 0
  names.forEach((name) =>
    S.addHost(sim, name, (h) =>
      S.onMessage(h, (from, m) => {
        seen.push(`${from}>${name}:${m}@${sim.clock.now}`)
        if (replies && m % 3 === 0) S.send(h, from, ++id)
      }),
    ),
  )
  names.forEach((a, i) => names.forEach((b, j) => S.link(sim, a, b, { latency: latencies[(i * names.length + j) % latencies.length]! }, { oneWay: true })))
  for (const step of steps) {
    if (step.kind === 'run') S.run(sim, step.ms)
    else if (step.kind === 'send') S.send(S.host(sim, names[step.from]!), names[step.to]!, ++id)
    else {
      const h = S.host(sim, names[step.host]!)
      const tag = ++id
      S.setTimeout(h, () => {
        seen.push(`timer ${tag}@${sim.clock.now}`)
        if (step.sendTo !== undefined) S.send(h, names[step.sendTo]!, ++id)
      }, step.ms)
    }
  }
  S.run(sim, 20)
  return seen
}

const coreOf = (sim: SimulationT<number>): VirtualClock.State => stateOf<{ core: VirtualClock.State }>(sim.clock)!.core

describe('arrivals: one clock timer a ms on the package clock', () => {
  it('delivers and fires in the order and at the times of a clock timer a message (fake-timers 15.5)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 9 }), fc.array(stepArb, { maxLength: 40 }), fc.boolean(), (latencies, steps, replies) => {
        const ours = S.create<number>({ seed: 1, log: false })
        const reference = S.create<number>({ seed: 1, log: false, clock: FakeTimers.createClock(0) as never })
        expect(play(ours, latencies, steps, replies)).toEqual(play(reference, latencies, steps, replies))
        Schedule.invariant(coreOf(ours).schedule)
        expect(S.inFlight(ours)).toBe(S.inFlight(reference))
      }),
      { numRuns: 300 },
    )
  })

  // A sync tick delivers the next arrival of the ms from the pump itself when nothing
  // could come between: these handlers put something there (a clock job, a nested tick).
  it('delivers in the same order as a clock timer a message when handlers queue clock jobs or tick the clock', () => {
    interface Clock {
      nextTick(f: () => void): void
      tick(ms: number): unknown
    }
    const program = (sim: SimulationT<number>, actions: readonly number[], sends: readonly (readonly [number, number])[]): string[] => {
      const clock = sim.clock as unknown as Clock
      const seen: string[] = []
      names.forEach((name) =>
        S.addHost(sim, name, (h) =>
          S.onMessage(h, (from, m) => {
            seen.push(`${from}>${name}:${m}@${sim.clock.now}`)
            const action = actions[m % actions.length]!
            if (action === 1) clock.nextTick(() => seen.push(`job ${m}@${sim.clock.now}`))
            else if (action === 2) clock.tick(0)
            else if (action === 3) S.setTimeout(h, () => seen.push(`timer ${m}@${sim.clock.now}`), 0)
            seen.push(`done ${m}`)
          }),
        ),
      )
      sends.forEach(([a, b], i) => S.send(S.host(sim, names[a]!), names[b]!, i))
      S.run(sim, 10)
      return seen
    }
    const sendArb = fc.array(fc.tuple(hostArb, hostArb), { minLength: 2, maxLength: 12 })
    const actionsArb = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 5 })
    fc.assert(
      fc.property(actionsArb, sendArb, (actions, sends) => {
        const ours = S.create<number>({ seed: 1, log: false })
        const reference = S.create<number>({ seed: 1, log: false, clock: FakeTimers.createClock(0) as never })
        expect(program(ours, actions, sends)).toEqual(program(reference, actions, sends))
        Schedule.invariant(coreOf(ours).schedule)
      }),
      { numRuns: 200 },
    )
  })

  it('keeps one clock timer for the messages due in one ms', () => {
    const sim = S.create<number>({ seed: 1 })
    S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) => S.onMessage(h, () => undefined))
    for (let i = 0; i < 100; i++) S.send(S.host(sim, 'a'), 'b', i)
    expect(Schedule.count(coreOf(sim).schedule)).toBe(1)
    expect(S.inFlight(sim)).toBe(100)
    S.run(sim, 1)
    expect(S.inFlight(sim)).toBe(0)
    expect(Schedule.count(coreOf(sim).schedule)).toBe(0)
  })

  it('runs microtasks between two arrivals of one ms under runAsync', async () => {
    const sim = S.create<string>({ seed: 1 })
    const seen: string[] = []
    S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) =>
      S.onMessage(h, (_from, m) => {
        seen.push(m)
        void Promise.resolve().then(() => seen.push(`after ${m}`))
      }),
    )
    for (const m of ['x', 'y', 'z']) S.send(S.host(sim, 'a'), 'b', m)
    await S.runAsync(sim, 1)
    expect(seen).toEqual(['x', 'after x', 'y', 'after y', 'z', 'after z'])
  })

  it('after the clock is reset (its timers dropped), a message due in the ms of a dropped one still arrives', () => {
    const sim = S.create<string>({ seed: 1 })
    const got: string[] = []
    S.addHost(sim, 'a', (h) => S.onMessage(h, (_from, m) => void got.push(`${m}@${sim.clock.now}`)))
    S.addHost(sim, 'b', (h) => S.onMessage(h, (_from, m) => void got.push(`${m}@${sim.clock.now}`)))
    S.link(sim, 'a', 'b', { latency: 5 })
    S.send(S.host(sim, 'a'), 'b', 'lost 1')
    S.send(S.host(sim, 'a'), 'b', 'lost 2')
    ;(sim.clock as unknown as { reset(): void }).reset()
    S.send(S.host(sim, 'b'), 'a', 'after reset')
    S.run(sim, 10)
    expect(got).toEqual(['after reset@5'])
  })
})
