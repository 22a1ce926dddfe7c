/**
 * Hostile input at every public entry of `timing-wheel/simulation`: each bad value is
 * refused with a `TimingWheelError` of the position's code whose message names the value,
 * and the simulation is left exactly as it was: a twin that never saw the bad call runs the
 * same program afterwards to the same log and the same random draws.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TimingWheelError, show } from '../lib/errors.js'
import { Simulation as S } from '../lib/simulation/index.js'
import type { Host, SimulationT } from '../lib/simulation/index.js'

const notUndefined = (x: unknown): boolean => x !== undefined
const nonNumber = fc.anything().filter((x) => typeof x !== 'number' && notUndefined(x))
const badProbability = fc.oneof(fc.double().filter((x) => !(x >= 0 && x <= 1)), nonNumber)
const badWholeMs = fc.oneof(
  fc.double().filter((x) => !(Number.isInteger(x) && x >= 0 && x <= 2 ** 31 - 1)),
  fc.integer({ min: 2 ** 31, max: 2 ** 40 }),
  nonNumber,
)
const badDelay = fc.oneof(fc.double().filter((x) => !(x >= 0 && x <= 2 ** 31 - 1)), nonNumber)
const badName = fc.oneof(fc.string(), nonNumber).filter((s) => s !== 'a' && s !== 'b')
const badDrift = fc.oneof(fc.double().filter((x) => !(x > -1 && x < 1)), nonNumber)
const badOffset = fc.oneof(fc.double().filter((x) => !(Math.abs(x) <= 8.64e15)), nonNumber)

interface World {
  readonly sim: SimulationT<number>
  readonly a: Host<number>
}

/** Two hosts with traffic on faulty links, part way through a run. */
const world = (): World => {
  const sim = S.create<number>({ seed: 3, network: { latency: { min: 1, max: 9 }, loss: 0.2, duplicate: 0.2 } })
  const a = S.addHost(sim, 'a', (h) => S.onMessage(h, (from, m) => S.send(h, from, m + 1)))
  S.addHost(sim, 'b', (h) => S.onMessage(h, (from, m) => m < 20 && S.send(h, from, m + 1)))
  S.send(a, 'b', 0)
  S.run(sim, 5)
  return { sim, a }
}

/** The rest of a program, from which two simulations must come out the same. */
const rest = (w: World): string => {
  S.send(w.a, 'b', 100)
  S.run(w.sim, 200)
  return JSON.stringify([S.log(w.sim), S.inFlight(w.sim), S.hosts(w.sim), S.random(w.sim), S.status(w.sim, 'a'), S.status(w.sim, 'b')])
}

type Row = readonly [name: string, code: string, bad: fc.Arbitrary<unknown>, call: (w: World, bad: unknown) => unknown]

const rows: Row[] = [
  ['create: seed', 'InvalidArgument', fc.oneof(fc.double().filter((x) => !Number.isInteger(x) || Math.abs(x) > 2 ** 31), nonNumber), (_w, v) => S.create({ seed: v as number })],
  ['create: now', 'TimeOutOfRange', badOffset, (_w, v) => S.create({ seed: 1, now: v as number })],
  ['create: network.loss', 'InvalidArgument', badProbability, (_w, v) => S.create({ seed: 1, network: { loss: v as number } })],
  ['create: network.latency', 'TimeOutOfRange', badWholeMs, (_w, v) => S.create({ seed: 1, network: { latency: v as number } })],
  ['create: batch', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'boolean'), (_w, v) => S.create({ seed: 1, batch: v as boolean })],
  ['create: log', 'InvalidArgument', fc.oneof(fc.double(), nonNumber.filter((x) => typeof x !== 'boolean')), (_w, v) => S.create({ seed: 1, log: v as boolean })],
  ['create: buggify.fire', 'InvalidArgument', badProbability, (_w, v) => S.create({ seed: 1, buggify: { fire: v as number } })],
  ['addHost: name', 'InvalidArgument', fc.oneof(fc.constantFrom('a', 'b', ''), nonNumber.filter((x) => typeof x !== 'string')), (w, v) => S.addHost(w.sim, v as string, () => 0)],
  ['addHost: boot', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'function'), (w, v) => S.addHost(w.sim, 'c', v as never)],
  ['addHost: drift', 'InvalidArgument', badDrift, (w, v) => S.addHost(w.sim, 'c', () => 0, { drift: v as number })],
  ['addHost: offset', 'TimeOutOfRange', badOffset, (w, v) => S.addHost(w.sim, 'c', () => 0, { offset: v as number })],
  ['send: to', 'InvalidArgument', badName, (w, v) => S.send(w.a, v as string, 1)],
  ['send: host', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'object' || x === null), (_w, v) => S.send(v as Host<number>, 'b', 1)],
  ['setTimeout: delay', 'TimeOutOfRange', badDelay, (w, v) => S.setTimeout(w.a, () => undefined, v as number)],
  ['setInterval: period', 'TimeOutOfRange', badDelay, (w, v) => S.setInterval(w.a, () => undefined, v as number)],
  ['setTimeout: callback', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'function'), (w, v) => S.setTimeout(w.a, v as never, 1)],
  ['onMessage: handler', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'function'), (w, v) => S.onMessage(w.a, v as never)],
  ['link: latency', 'TimeOutOfRange', badWholeMs, (w, v) => S.link(w.sim, 'a', 'b', { latency: v as number })],
  ['link: latency.max', 'TimeOutOfRange', badWholeMs, (w, v) => S.link(w.sim, 'a', 'b', { latency: { min: 0, max: v as number } })],
  ['link: loss', 'InvalidArgument', badProbability, (w, v) => S.link(w.sim, 'a', 'b', { latency: 3, loss: v as number })],
  ['link: duplicate', 'InvalidArgument', badProbability, (w, v) => S.link(w.sim, 'a', 'b', { duplicate: v as number })],
  ['link: reorder', 'InvalidArgument', badProbability, (w, v) => S.link(w.sim, 'a', 'b', { reorder: v as number })],
  ['link: host', 'InvalidArgument', badName, (w, v) => S.link(w.sim, 'a', v as string, { latency: 3 })],
  ['partition: host', 'InvalidArgument', badName, (w, v) => S.partition(w.sim, v as string, 'b')],
  ['heal: host', 'InvalidArgument', badName, (w, v) => S.heal(w.sim, 'a', v as string)],
  ['hold: host', 'InvalidArgument', badName, (w, v) => S.hold(w.sim, 'b', v as string)],
  ['release: host', 'InvalidArgument', badName, (w, v) => S.release(w.sim, v as string, 'a')],
  ['crash: host', 'InvalidArgument', badName, (w, v) => S.crash(w.sim, v as string)],
  ['restart: host', 'InvalidArgument', badName, (w, v) => S.restart(w.sim, v as string)],
  ['pause: host', 'InvalidArgument', badName, (w, v) => S.pause(w.sim, v as string)],
  ['resume: host', 'InvalidArgument', badName, (w, v) => S.resume(w.sim, v as string)],
  ['state: host', 'InvalidArgument', badName, (w, v) => S.state(w.sim, v as string)],
  ['status: host', 'InvalidArgument', badName, (w, v) => S.status(w.sim, v as string)],
  ['skew: drift', 'InvalidArgument', badDrift, (w, v) => S.skew(w.sim, 'a', { offset: 5, drift: v as number })],
  ['skew: offset', 'TimeOutOfRange', badOffset, (w, v) => S.skew(w.sim, 'a', { offset: v as number })],
  ['integer: min', 'InvalidArgument', fc.oneof(fc.double().filter((x) => !Number.isSafeInteger(x) || x > 5), nonNumber), (w, v) => S.integer(w.sim, v as number, 5)],
  ['buggify: name', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'string'), (w, v) => S.buggify(w.sim, v as string)],
  ['setFault: chance', 'InvalidArgument', badProbability, (w, v) => S.setFault(w.sim, 'disk', v as number)],
  ['run: ms', 'TimeOutOfRange', fc.oneof(fc.double().filter((x) => !(x >= 0 && x <= 8.64e15)), nonNumber), (w, v) => S.run(w.sim, v as number)],
  ['faultScheduleArb: window', 'InvalidArgument', badWholeMs, (_w, v) => S.faultScheduleArb({ hosts: ['a'], window: v as number, kinds: ['crash'] })],
  ['faultScheduleArb: hosts', 'InvalidArgument', fc.oneof(fc.constant([]), nonNumber.filter((x) => !Array.isArray(x))), (_w, v) => S.faultScheduleArb({ hosts: v as string[], window: 10 })],
  ['create: clock', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'object' || x === null || !('tick' in x)), (_w, v) => S.create({ seed: 1, clock: v as never })],
  ['event: name', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'string'), (w, v) => S.event(w.sim, v as string)],
  ['event: name from a host', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'string'), (w, v) => S.event(w.a, v as string)],
  ['event: source', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'object' || x === null), (_w, v) => S.event(v as Host<number>, 'e')],
  ['clearTimeout: host', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'object' || x === null), (_w, v) => S.clearTimeout(v as Host<number>, 1)],
  ['applySchedule: schedule', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'object' || x === null), (w, v) => S.applySchedule(w.sim, v as never)],
  ['applySchedule: seed', 'InvalidArgument', fc.oneof(fc.double().filter((x) => !Number.isInteger(x) || Math.abs(x) > 2 ** 31), nonNumber), (w, v) => S.applySchedule(w.sim, { seed: v as number, faults: [] })],
  ['applySchedule: faults', 'InvalidArgument', nonNumber.filter((x) => !Array.isArray(x)), (w, v) => S.applySchedule(w.sim, { seed: 1, faults: v as never })],
  ['applySchedule: a fault', 'InvalidArgument', nonNumber.filter((x) => typeof x !== 'object' || x === null), (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [v as never] })],
  ['applySchedule: kind', 'InvalidArgument', fc.oneof(fc.string(), nonNumber).filter((x) => !['partition', 'hold', 'crash', 'pause', 'skew'].includes(x as string)), (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: v as never, at: 1, duration: 1, host: 'a' }] })],
  [
    'applySchedule: duration',
    'TimeOutOfRange',
    fc.oneof(fc.double().filter((x) => !(x > 0 && x <= 2 ** 31 - 1)), nonNumber),
    (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: 'crash', at: 1, duration: v as number, host: 'a' }] }),
  ],
  ['applySchedule: from', 'InvalidArgument', badName, (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: 'hold', at: 1, duration: 1, from: v as string, to: 'b', oneWay: true }] })],
  ['applySchedule: to', 'InvalidArgument', badName, (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: 'partition', at: 1, duration: 1, from: 'a', to: v as string, oneWay: false }] })],
  [
    'applySchedule: oneWay',
    'InvalidArgument',
    nonNumber.filter((x) => typeof x !== 'boolean'),
    (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: 'hold', at: 1, duration: 1, from: 'a', to: 'b', oneWay: v as boolean }] }),
  ],
  [
    'applySchedule: skew offset',
    'TimeOutOfRange',
    badOffset,
    (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: 'skew', at: 1, duration: 1, host: 'a', offset: v as number, driftPpm: 0 }] }),
  ],
  [
    'applySchedule: skew driftPpm',
    'InvalidArgument',
    fc.oneof(fc.double().filter((x) => !(x > -1e6 && x < 1e6)), nonNumber),
    (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: 'skew', at: 1, duration: 1, host: 'b', offset: 0, driftPpm: v as number }] }),
  ],
  [
    'applySchedule: host',
    'InvalidArgument',
    badName.filter((x) => typeof x === 'string'),
    (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: 'pause', at: 1, duration: 1, host: 'a' }, { kind: 'crash', at: 1, duration: 1, host: v as string }] }),
  ],
  [
    'applySchedule: at',
    'TimeOutOfRange',
    badDelay,
    (w, v) => S.applySchedule(w.sim, { seed: 1, faults: [{ kind: 'pause', at: 1, duration: 1, host: 'a' }, { kind: 'crash', at: v as number, duration: 1, host: 'b' }] }),
  ],
]

describe('every entry refuses bad input, naming it, and changes nothing', () => {
  it.each(rows.map((r) => [r[0], r] as const))('%s', (_name, [, code, bad, call]) => {
    fc.assert(
      fc.property(bad, (v) => {
        const w = world()
        let error: unknown
        try {
          call(w, v)
        } catch (e) {
          error = e
        }
        expect(error).toBeInstanceOf(TimingWheelError)
        expect((error as TimingWheelError).code).toBe(code)
        expect((error as Error).message).toContain(show(v))
        expect(rest(w)).toBe(rest(world()))
      }),
      { numRuns: 25 },
    )
  })

  it('runAsync refuses as run does', async () => {
    await expect(S.runAsync(world().sim, -1)).rejects.toThrow('TimeOutOfRange: run -1 is not a number of ms')
  })
})
