/**
 * The wire's lists by arrival ms (arrivals.ts, and network.ts with `batch`) find a ms less
 * than 1024 ms ahead in an array slot and any other in a map; and they reuse emptied lists,
 * message records and buckets. Against a plain model, with latencies on both sides of that
 * bound and runs that carry messages across it: every message arrives at
 * `max(sent + latency, the link's last arrival)`, in the order of those times and then of
 * the sends, in both modes; and a clock reset drops what was on the wire.
 * With `batch`, a flush that steps the clock through the ms of a sync tick (network.ts
 * `stepTo`) gives the trace of the same program on @sinonjs/fake-timers' clock, where nothing steps.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import FakeTimers from '@sinonjs/fake-timers'
import { Simulation as S } from '../lib/simulation/index.js'
import type { Host, SimulationClock } from '../lib/simulation/index.js'

const names = ['a', 'b', 'c'] as const
type Name = (typeof names)[number]
const nameArb = fc.constantFrom(...names)
const latencyArb = fc.oneof(fc.constantFrom(0, 1, 1022, 1023, 1024, 1025, 2047, 2048, 2049), fc.integer({ min: 0, max: 5000 }))

type Cmd =
  | { readonly op: 'send'; readonly from: Name; readonly to: Name; readonly n: number }
  | { readonly op: 'run'; readonly ms: number }
  | { readonly op: 'latency'; readonly from: Name; readonly to: Name; readonly ms: number }

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ op: fc.constant('send' as const), from: nameArb, to: nameArb, n: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant('run' as const), ms: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 3 }), weight: 4 }, { arbitrary: fc.integer({ min: 0, max: 3000 }), weight: 1 }) }),
  fc.record({ op: fc.constant('latency' as const), from: nameArb, to: nameArb, ms: latencyArb }),
)

/** Plays `cmds` on a simulation; returns each delivery as `id@at`, in the order delivered. */
const play = (batch: boolean, cmds: readonly Cmd[]): string[] => {
  const sim = S.create<number>({ seed: 1, batch })
  const got: string[] = []
  const hosts = new Map<Name, Host<number>>()
  for (const n of names) hosts.set(n, S.addHost(sim, n, (h) => S.onMessage(h, (_from, id) => void got.push(`${id}@${sim.clock.now}`))))
  let id = 0
  for (const c of cmds) {
    if (c.op === 'send') for (let k = 0; k < c.n; k++) S.send(hosts.get(c.from)!, c.to, ++id)
    else if (c.op === 'run') S.run(sim, c.ms)
    else S.link(sim, c.from, c.to, { latency: c.ms }, { oneWay: true })
  }
  S.run(sim, 2 ** 20)
  expect(S.inFlight(sim)).toBe(0)
  return got
}

/** The model: a link's message arrives at `max(now + latency, its last arrival)`; arrivals by time, then by send. */
const model = (cmds: readonly Cmd[]): string[] => {
  const latency = new Map<string, number>()
  const last = new Map<string, number>()
  const arrivals: Array<{ id: number; at: number }> = []
  let now = 0
  let id = 0
  for (const c of cmds) {
    if (c.op === 'send') {
      const key = `${c.from}${c.to}`
      for (let k = 0; k < c.n; k++) {
        const at = Math.max(now + (latency.get(key) ?? 1), last.get(key) ?? -Infinity)
        last.set(key, at)
        arrivals.push({ id: ++id, at })
      }
    } else if (c.op === 'run') now += c.ms
    else latency.set(`${c.from}${c.to}`, c.ms)
  }
  return arrivals.sort((x, y) => x.at - y.at || x.id - y.id).map((a) => `${a.id}@${a.at}`)
}

describe.each([false, true])('arrival lists near and far (batch %s)', (batch) => {
  it('keeps apart two ms 1024 ms apart, which share a slot: one near, one far', () => {
    const cmds: Cmd[] = [
      { op: 'latency', from: 'a', to: 'b', ms: 1025 },
      { op: 'send', from: 'a', to: 'c', n: 1 },
      { op: 'send', from: 'a', to: 'b', n: 1 },
      { op: 'run', ms: 1 },
      { op: 'send', from: 'c', to: 'a', n: 1 },
    ]
    expect(play(batch, cmds)).toEqual(['1@1', '3@2', '2@1025'])
    expect(model(cmds)).toEqual(['1@1', '3@2', '2@1025'])
  })

  it('delivers at the model times and in its order, with latencies around 1024 ms and runs across them', () => {
    fc.assert(
      fc.property(fc.array(cmdArb, { maxLength: 60 }), (cmds) => {
        expect(play(batch, cmds)).toEqual(model(cmds))
      }),
      { numRuns: 200 },
    )
  })

  it('drops what was on the wire at a clock reset, logged with reason reset, and delivers what is sent after it', () => {
    const sim = S.create<number>({ seed: 1, batch, network: { latency: 1500 } })
    const got: string[] = []
    const a = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) => S.onMessage(h, (_from, m) => void got.push(`${m}@${sim.clock.now}`)))
    for (let k = 0; k < 5; k++) S.send(a, 'b', k)
    S.link(sim, 'a', 'b', { latency: 10 }, { oneWay: true })
    S.send(a, 'b', 5)
    S.link(sim, 'b', 'a', { latency: 3, reorder: 1 }, { oneWay: true })
    S.send(S.host(sim, 'b'), 'a', 50)
    const c = S.addHost(sim, 'c', () => undefined)
    S.link(sim, 'c', 'b', { latency: 1 }, { oneWay: true })
    S.hold(sim, 'c', 'b')
    S.send(c, 'b', 7)
    S.run(sim, 2)
    expect(S.inFlight(sim)).toBe(8)
    ;(sim.clock as unknown as { reset(): void }).reset()
    // The reset took the tokens; the held message is not on the wire.
    expect(S.inFlight(sim)).toBe(1)
    S.release(sim, 'c', 'b')
    S.send(a, 'b', 6)
    S.run(sim, 5000)
    // Time starts again: no arrival floor left from before the reset.
    expect(got).toEqual(['7@0', '6@10'])
    expect(S.inFlight(sim)).toBe(0)
    const dropped = S.messages(sim).filter((e) => e.outcome === 'dropped')
    expect(dropped.map((e) => `${e.message}:${e.reason ?? ''}`)).toEqual(['0:reset', '1:reset', '2:reset', '3:reset', '4:reset', '5:reset', '50:reset'])
  })
})

// With batch on the package's own clock, a flush fired by a sync tick steps the clock
// through the next ms itself when the tick's loop would run nothing before firing it
// again. The reference: the same program on @sinonjs/fake-timers' clock, where each
// flush is a clock timer of its own and nothing steps.
describe('batch: a flush stepping through the ms of a tick, against the same run on @sinonjs/fake-timers', () => {
  interface Act {
    readonly to: Name | undefined
    readonly timer: number | undefined
    readonly job: boolean
    readonly idle: boolean
    readonly nested: number | undefined
  }
  interface Program {
    readonly latency: readonly number[]
    readonly starts: ReadonlyArray<{ readonly from: Name; readonly to: Name }>
    readonly timers: ReadonlyArray<{ readonly host: Name; readonly at: number; readonly to: Name }>
    readonly acts: readonly Act[]
    readonly budget: number
    readonly runs: readonly number[]
  }
  const actArb: fc.Arbitrary<Act> = fc.record({
    to: fc.option(nameArb, { nil: undefined }),
    timer: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    job: fc.boolean(),
    idle: fc.boolean(),
    nested: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined, freq: 8 }),
  })
  const programArb: fc.Arbitrary<Program> = fc.record({
    latency: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 9, maxLength: 9 }),
    starts: fc.array(fc.record({ from: nameArb, to: nameArb }), { minLength: 1, maxLength: 8 }),
    timers: fc.array(fc.record({ host: nameArb, at: fc.integer({ min: 0, max: 12 }), to: nameArb }), { maxLength: 4 }),
    acts: fc.array(actArb, { minLength: 1, maxLength: 8 }),
    budget: fc.integer({ min: 0, max: 60 }),
    runs: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 3 }),
  })

  /** What happens, at what time, in what order; `sinon` plays it on @sinonjs/fake-timers' clock. */
  const trace = (p: Program, sinon: boolean): string[] => {
    const clock = sinon ? (FakeTimers.createClock(0) as unknown as SimulationClock) : undefined
    const sim = S.create<number>({ seed: 1, batch: true, ...(clock === undefined ? {} : { clock }) })
    const c = sim.clock as unknown as { now: number; nextTick(f: () => void): void; requestIdleCallback(f: () => void): void; tick(ms: number): number }
    const out: string[] = []
    const hosts = new Map<Name, Host<number>>()
    let sent = 0
    const send = (h: Host<number>, to: Name): void => {
      if (sent < p.budget) S.send(h, to, ++sent)
    }
    for (const n of names) {
      hosts.set(
        n,
        S.addHost(sim, n, (h) =>
          S.onMessage(h, (_from, id) => {
            out.push(`${c.now} ${n} got ${id}`)
            const act = p.acts[id % p.acts.length]!
            if (act.to !== undefined) send(h, act.to)
            if (act.timer !== undefined) S.setTimeout(h, () => void out.push(`${c.now} ${n} timer of ${id}`), act.timer)
            if (act.job) c.nextTick(() => void out.push(`${c.now} ${n} job of ${id}`))
            if (act.idle) c.requestIdleCallback(() => void out.push(`${c.now} ${n} idle of ${id}`))
            if (act.nested !== undefined) out.push(`${c.now} ${n} moved to ${c.tick(act.nested)}`)
          }),
        ),
      )
    }
    names.forEach((a, i) => names.forEach((b, j) => S.link(sim, a, b, { latency: p.latency[3 * i + j]! }, { oneWay: true })))
    for (const t of p.timers) {
      const h = hosts.get(t.host)!
      S.setTimeout(h, () => {
        out.push(`${c.now} ${t.host} timer`)
        send(h, t.to)
      }, t.at)
    }
    for (const s of p.starts) send(hosts.get(s.from)!, s.to)
    for (const ms of [...p.runs, 200]) {
      S.run(sim, ms)
      out.push(`run to ${c.now}`)
    }
    return out
  }

  it('gives the same trace: arrivals, host timers, jobs, idle callbacks and moves inside handlers, at the same times and in the same order', () => {
    fc.assert(
      fc.property(programArb, (p) => {
        expect(trace(p, false)).toEqual(trace(p, true))
      }),
      { numRuns: 300 },
    )
  })

  it('steps: a run over ms that each deliver a message, with a host timer between', () => {
    const p: Program = {
      latency: [1, 1, 1, 1, 1, 1, 1, 1, 1],
      starts: [{ from: 'a', to: 'b' }],
      timers: [{ host: 'c', at: 5, to: 'a' }],
      acts: [{ to: 'a', timer: undefined, job: false, idle: false, nested: undefined }],
      budget: 10,
      runs: [8],
    }
    const t = trace(p, false)
    expect(t).toEqual(trace(p, true))
    expect(t.slice(0, 7)).toEqual(['1 b got 1', '2 a got 2', '3 a got 3', '4 a got 4', '5 c timer', '5 a got 5', '6 a got 6'])
  })
})
