/**
 * `timing-wheel/simulation`, function by function: an example of each, with what it
 * guarantees checked on the example's log.
 */
import * as O from 'fp-ts/lib/Option.js'
import FakeTimers from '@sinonjs/fake-timers'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { createClock } from '../lib/fake-timers/index.js'
import { Simulation as S } from '../lib/simulation/index.js'
import { clockArb } from '../lib/testing/index.js'
import type { Host, SimulationT } from '../lib/simulation/index.js'

/** `a` and `b`, each recording what it receives as `from:message@host-time`. */
const pair = (options: Partial<Parameters<typeof S.create>[0]> = {}): { sim: SimulationT<string>; got: string[]; a: Host<string>; b: Host<string> } => {
  const sim = S.create<string>({ seed: 1, ...options })
  const got: string[] = []
  const boot = (host: Host<string>): void => S.onMessage(host, (from, m) => got.push(`${host.name}<-${from}:${m}@${S.now(host)}`))
  const a = S.addHost(sim, 'a', boot)
  const b = S.addHost(sim, 'b', boot)
  return { sim, got, a, b }
}

const brief = (sim: SimulationT<string>): string[] =>
  S.messages(sim).map((e) => `${e.at} ${e.from}->${e.to} ${e.message} ${e.outcome}${e.reason === undefined ? '' : ` (${e.reason})`}${e.duplicate ? ' dup' : ''}`)

describe('create, addHost, send, onMessage, run, log', () => {
  it('delivers after the link latency, in send order, and logs each delivery', () => {
    const { sim, got, a } = pair({ network: { latency: 10 } })
    S.send(a, 'b', 'x')
    S.send(a, 'b', 'y')
    S.run(sim, 9)
    expect(got).toEqual([])
    expect(S.inFlight(sim)).toBe(2)
    S.run(sim, 1)
    expect(got).toEqual(['b<-a:x@10', 'b<-a:y@10'])
    expect(brief(sim)).toEqual(['10 a->b x delivered', '10 a->b y delivered'])
    expect(S.log(sim)[2]).toMatchObject({ kind: 'message', id: 1, sentAt: 0, duplicate: false })
    expect(S.inFlight(sim)).toBe(0)
  })

  it('hosts, state and status report the hosts and what boot returned', () => {
    const sim = S.create({ seed: 2 })
    S.addHost(sim, 'n1', () => ({ role: 'leader' }))
    S.addHost(sim, 'n2', () => 7)
    expect(S.hosts(sim)).toEqual(['n1', 'n2'])
    expect(S.state(sim, 'n1')).toEqual(O.some({ role: 'leader' }))
    expect(S.status(sim, 'n2')).toEqual({ up: true, paused: false })
  })

  it('a message to a host without a handler is dropped as "no handler"', () => {
    const sim = S.create<string>({ seed: 1 })
    const a = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', () => undefined)
    S.send(a, 'b', 'x')
    S.run(sim, 5)
    expect(brief(sim)).toEqual(['1 a->b x dropped (no handler)'])
  })

  it('delivers each message in a macrotask of its own: microtasks run between two deliveries', async () => {
    const sim = S.create<string>({ seed: 1 })
    const seen: string[] = []
    const a = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (host) =>
      S.onMessage(host, (_from, m) => {
        seen.push(m)
        void Promise.resolve().then(() => seen.push(`after ${m}`))
      }),
    )
    S.send(a, 'b', '1')
    S.send(a, 'b', '2')
    await S.runAsync(sim, 5)
    expect(seen).toEqual(['1', 'after 1', '2', 'after 2'])
  })

  it('with batch: true delivers the messages of one ms in one timer, microtasks after them all, and keeps going past a throwing handler', async () => {
    const sim = S.create<string>({ seed: 1, batch: true })
    const seen: string[] = []
    const a = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (host) =>
      S.onMessage(host, (_from, m) => {
        seen.push(m)
        void Promise.resolve().then(() => seen.push(`after ${m}`))
        if (m === '2') throw new Error('handler failed')
        if (m === '3') S.send(host, 'b', 'at once')
      }),
    )
    S.link(sim, 'b', 'b', { latency: 0 })
    for (const m of ['1', '2', '3']) S.send(a, 'b', m)
    S.send(a, 'a', 'no handler')
    await expect(S.runAsync(sim, 5)).rejects.toThrow('handler failed')
    expect(seen).toEqual(['1', '2', '3', 'at once', 'after 1', 'after 2', 'after 3', 'after at once'])
    expect(brief(sim)).toEqual(['1 a->b 1 delivered', '1 a->b 2 delivered', '1 a->b 3 delivered', '1 a->a no handler dropped (no handler)', '1 b->b at once delivered'])
    expect(S.inFlight(sim)).toBe(0)
  })

  it('runs on a clock it is given (the seam for exploring clocks)', () => {
    const clock = createClock(500)
    const sim = S.create<string>({ seed: 1, clock })
    expect(sim.clock).toBe(clock)
    const a = S.addHost(sim, 'a', (h) => S.onMessage(h, () => undefined))
    S.send(a, 'a', 'self')
    clock.tick(1)
    expect(brief(sim)).toEqual(['501 a->a self delivered'])
  })

  it("composes with clockArb: on an exploring clock, ties between arrivals run in the clock's orders", () => {
    // Arrivals due together over links of different latencies: two timer lists in Node, run
    // either way (one latency would be one list, in arming order, as on Node).
    const orders = new Set<string>()
    fc.assert(
      fc.property(clockArb(), (clock) => {
        const sim = S.create<string>({ seed: 1, clock, network: { latency: 5 } })
        const got: string[] = []
        const a = S.addHost(sim, 'a', () => undefined)
        const b = S.addHost(sim, 'b', () => undefined)
        S.addHost(sim, 'c', (h) => S.onMessage(h, (from) => got.push(from)))
        S.link(sim, 'b', 'c', { latency: 3 }, { oneWay: true })
        S.send(a, 'c', 'x')
        clock.tick(2)
        S.send(b, 'c', 'y')
        // Long enough for a send at rest that read a later time (up to maxStall, 20 ms) and a stall.
        clock.tick(60)
        orders.add(got.join())
        return got.length === 2
      }),
      { seed: 1, numRuns: 40 },
    )
    expect([...orders].sort()).toEqual(['a,b', 'b,a'])
  })

  it('keeps a link FIFO on an exploring clock when two of its arrivals due together are in different timer lists', () => {
    fc.assert(
      fc.property(clockArb(), (clock) => {
        const sim = S.create<string>({ seed: 1, clock })
        const got: string[] = []
        const a = S.addHost(sim, 'a', () => undefined)
        S.addHost(sim, 'b', (h) => S.onMessage(h, (_from, m) => got.push(m)))
        S.link(sim, 'a', 'b', { latency: 5 }, { oneWay: true })
        S.send(a, 'b', 'x')
        clock.tick(2)
        // Due at 5 too (FIFO holds it back to x's arrival), armed with a delay of 3: another list.
        S.link(sim, 'a', 'b', { latency: 1 }, { oneWay: true })
        S.send(a, 'b', 'y')
        clock.tick(60)
        expect(got).toEqual(['x', 'y'])
      }),
      { seed: 1, numRuns: 40 },
    )
  })

  it('keeps no log with log: false', () => {
    const { sim, a, got } = pair({ log: false })
    S.send(a, 'b', 'x')
    S.run(sim, 1)
    expect(got).toHaveLength(1)
    expect(S.log(sim)).toEqual([])
  })
})

describe('link', () => {
  it('loses, duplicates and reorders as its chances say, drawing from the seed', () => {
    const { sim, a } = pair()
    S.link(sim, 'a', 'b', { latency: { min: 5, max: 15 }, loss: 0.2, duplicate: 0.2, reorder: 0.2 }, { oneWay: true })
    for (let i = 0; i < 200; i++) S.send(a, 'b', String(i))
    S.run(sim, 100)
    const log = S.messages(sim)
    const lost = log.filter((e) => e.reason === 'loss').length
    const dups = log.filter((e) => e.duplicate).length
    expect(lost).toBeGreaterThan(20)
    expect(lost).toBeLessThan(70)
    expect(dups).toBeGreaterThan(15)
    const delivered = log.filter((e) => e.outcome === 'delivered')
    expect(delivered.some((e, i) => i > 0 && e.id < delivered[i - 1]!.id)).toBe(true)
    for (const e of delivered) expect(e.at - e.sentAt).toBeGreaterThanOrEqual(5)
    for (const e of delivered) expect(e.at - e.sentAt).toBeLessThanOrEqual(30)
  })

  it('changes one direction only with oneWay', () => {
    const { sim, a, b } = pair()
    S.link(sim, 'a', 'b', { latency: 50 }, { oneWay: true })
    S.send(a, 'b', 'slow')
    S.send(b, 'a', 'fast')
    S.run(sim, 60)
    expect(brief(sim)).toEqual(['1 b->a fast delivered', '50 a->b slow delivered'])
  })
})

describe('partition and heal', () => {
  it('drops what is sent or arrives while cut, one way or both', () => {
    const { sim, a, b } = pair({ network: { latency: 10 } })
    S.send(a, 'b', 'in flight')
    S.partition(sim, 'a', 'b', { oneWay: true })
    S.send(a, 'b', 'sent while cut')
    S.send(b, 'a', 'other way')
    S.run(sim, 10)
    S.heal(sim, 'a', 'b', { oneWay: true })
    S.send(a, 'b', 'healed')
    S.partition(sim, 'a', 'b')
    S.send(b, 'a', 'both ways cut')
    S.heal(sim)
    S.run(sim, 10)
    expect(brief(sim)).toEqual([
      '0 a->b sent while cut dropped (partition)',
      '10 a->b in flight dropped (partition)',
      '10 b->a other way delivered',
      '10 b->a both ways cut dropped (partition)',
      '20 a->b healed delivered',
    ])
  })
})

describe('hold and release', () => {
  it('keeps what arrives on a held link and delivers it, in order, at release', () => {
    const { sim, a, got } = pair({ network: { latency: 10 } })
    S.hold(sim, 'a', 'b')
    S.send(a, 'b', '1')
    S.send(a, 'b', '2')
    S.run(sim, 50)
    expect(got).toEqual([])
    expect(S.inFlight(sim)).toBe(2)
    S.release(sim, 'a', 'b')
    S.run(sim, 0)
    expect(got).toEqual(['b<-a:1@50', 'b<-a:2@50'])
  })
})

describe('crash and restart', () => {
  it('clears the host timers, drops its messages in flight both ways, and boots it again', () => {
    const sim = S.create<string>({ seed: 1, network: { latency: 10 } })
    const boots: number[] = []
    const fired: string[] = []
    const a = S.addHost(sim, 'a', (h) => S.onMessage(h, (_from, m) => fired.push(`a got ${m}`)))
    S.addHost(sim, 'b', (h) => {
      boots.push(sim.clock.now)
      S.onMessage(h, (_from, m) => fired.push(`b got ${m}`))
      S.setTimeout(h, () => fired.push('b timer'), 5)
      S.send(h, 'a', 'hello from b')
      return { boots: boots.length }
    })
    S.send(a, 'b', 'to b')
    S.crash(sim, 'b')
    expect(S.state(sim, 'b')).toEqual(O.none)
    expect(S.status(sim, 'b')).toEqual({ up: false, paused: false })
    S.run(sim, 20)
    expect(fired).toEqual([])
    S.restart(sim, 'b')
    expect(S.state(sim, 'b')).toEqual(O.some({ boots: 2 }))
    S.run(sim, 20)
    expect(fired).toEqual(['b timer', 'a got hello from b'])
    expect(boots).toEqual([0, 20])
    expect(brief(sim).slice(0, 2)).toEqual(['10 b->a hello from b dropped (crash)', '10 a->b to b dropped (crash)'])
  })

  it('a crashed incarnation context does nothing', () => {
    const { sim, a } = pair()
    S.crash(sim, 'a')
    S.restart(sim, 'a')
    S.send(a, 'b', 'from the dead')
    expect(S.setTimeout(a, () => undefined, 1)).toBe(0)
    S.run(sim, 5)
    expect(brief(sim)).toEqual(['0 a->b from the dead dropped (stale)'])
  })
})

describe('pause and resume', () => {
  it('runs nothing of a paused host until it resumes, then what came due, in order', () => {
    const { sim, a, got } = pair({ network: { latency: 10 } })
    const ticks: number[] = []
    const b = S.addHost(sim, 'c', (h) => S.setInterval(h, () => ticks.push(sim.clock.now), 20))
    S.pause(sim, 'b')
    S.pause(sim, 'c')
    S.send(a, 'b', 'x')
    S.run(sim, 100)
    expect(got).toEqual([])
    expect(ticks).toEqual([])
    expect(S.status(sim, 'b')).toEqual({ up: true, paused: true })
    S.resume(sim, 'b')
    S.resume(sim, 'c')
    S.run(sim, 40)
    expect(got).toEqual(['b<-a:x@100'])
    expect(ticks).toEqual([100, 120, 140])
    void b
  })
})

describe('now, skew, setTimeout, setInterval, clearTimeout', () => {
  it('a host reads its offset and drifting clock, and its timers measure its own time', () => {
    const sim = S.create({ seed: 1, now: 1_000_000 })
    const seen: number[] = []
    const fast = S.addHost(sim, 'fast', () => undefined, { offset: 500, drift: 0.25 })
    expect(S.now(fast)).toBe(1_000_500)
    S.setTimeout(fast, () => seen.push(sim.clock.now, S.now(fast)), 100)
    S.run(sim, 100)
    expect(seen).toEqual([1_000_080, 1_000_600])
    S.skew(sim, 'fast', { offset: -1000 })
    expect(S.now(fast)).toBe(1_000_100 - 1000)
    S.skew(sim, 'fast', { drift: 0 })
    S.run(sim, 10)
    expect(S.now(fast)).toBe(999_110)
  })

  it('monotonic runs at the host drift and ignores offset changes', () => {
    const sim = S.create({ seed: 1 })
    const h = S.addHost(sim, 'h', () => undefined, { offset: 1000, drift: 0.5 })
    S.run(sim, 10)
    expect([S.now(h), S.monotonic(h)]).toEqual([1015, 15])
    S.skew(sim, 'h', { offset: -5000, drift: 0 })
    S.run(sim, 10)
    expect([S.now(h), S.monotonic(h)]).toEqual([-4980, 25])
  })

  it('clearTimeout cancels a timeout and an interval; an unknown id is a no-op', () => {
    const sim = S.create({ seed: 1 })
    const seen: string[] = []
    const h = S.addHost(sim, 'h', () => undefined)
    const t = S.setTimeout(h, () => seen.push('timeout'), 10)
    const i = S.setInterval(h, () => seen.push('interval'), 3)
    S.run(sim, 7)
    S.clearTimeout(h, t)
    S.clearTimeout(h, i)
    S.clearTimeout(h, 12345)
    S.run(sim, 20)
    expect(seen).toEqual(['interval', 'interval'])
  })
})

describe('random, integer, buggify, setFault', () => {
  it('draws the same numbers from the same seed, from the simulation or a host', () => {
    const draws = (seed: number): number[] => {
      const sim = S.create({ seed })
      const h = S.addHost(sim, 'h', () => undefined)
      return [S.random(sim), S.integer(h, 1, 6), S.random(h), S.integer(sim, -5, 5)]
    }
    expect(draws(9)).toEqual(draws(9))
    expect(draws(9)).not.toEqual(draws(10))
    for (const x of draws(9)) expect(Number.isFinite(x)).toBe(true)
  })

  it('buggify is false when off, fires at its chances when on, and setFault forces a point', () => {
    const off = S.create({ seed: 1 })
    expect(Array.from({ length: 100 }, () => S.buggify(off, 'slow disk')).some(Boolean)).toBe(false)
    S.setFault(off, 'slow disk', 1)
    expect(S.buggify(off, 'slow disk')).toBe(true)
    const on = S.create({ seed: 1, buggify: { activate: 1, fire: 0.5 } })
    const fired = Array.from({ length: 400 }, () => S.buggify(on, 'p')).filter(Boolean).length
    expect(fired).toBeGreaterThan(150)
    expect(fired).toBeLessThan(250)
    const never = S.create({ seed: 1, buggify: { activate: 0 } })
    expect(Array.from({ length: 50 }, () => S.buggify(never, 'q')).some(Boolean)).toBe(false)
  })
})

describe('install and uninstall', () => {
  let sim: SimulationT | undefined
  afterEach(() => {
    if (sim !== undefined) S.uninstall(sim)
    sim = undefined
  })

  it('makes Math.random, crypto and the timers deterministic, Date the running host time, and puts the originals back', async () => {
    const originals = [Math.random, crypto.getRandomValues, crypto.randomUUID, Date, setTimeout]
    const runOnce = async (): Promise<string[]> => {
      const out: string[] = []
      sim = S.install({ seed: 5, now: Date.UTC(2024, 0, 1) })
      out.push(String(Math.random()), crypto.randomUUID(), Array.from(crypto.getRandomValues(new Uint16Array(3))).join())
      S.addHost(sim, 'skewed', () => {
        setTimeout(async () => {
          await Promise.resolve()
          out.push(`after await: ${new Date().toISOString()} ${Date.now()}`)
        }, 10)
      }, { offset: 60_000 })
      out.push(`outside: ${new Date().toISOString()}`)
      await S.runAsync(sim, 10)
      S.uninstall(sim)
      sim = undefined
      return out
    }
    const first = await runOnce()
    expect(await runOnce()).toEqual(first)
    expect(first[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(first.slice(3)).toEqual(['outside: 2024-01-01T00:00:00.000Z', `after await: 2024-01-01T00:01:00.010Z ${Date.UTC(2024, 0, 1, 0, 1, 0, 10)}`])
    expect([Math.random, crypto.getRandomValues, crypto.randomUUID, Date, setTimeout]).toEqual(originals)
  })

  it("host code's global timers belong to its host: its drift, its pauses, its crash", () => {
    sim = S.install({ seed: 1 })
    const ran: string[] = []
    S.addHost(sim, 'fast', () => {
      setTimeout(() => ran.push(`fast timeout at ${Date.now()} (true ${sim!.clock.now})`), 100)
      setInterval(() => ran.push(`fast interval at true ${sim!.clock.now}`), 200)
    }, { drift: 0.5 })
    S.addHost(sim, 'doomed', () => {
      setTimeout(() => ran.push('doomed timeout'), 10)
      queueMicrotask(() => ran.push('doomed microtask'))
    })
    setTimeout(() => ran.push(`outside at ${Date.now()}`), 100)
    S.crash(sim, 'doomed')
    S.run(sim, 60)
    S.pause(sim, 'fast')
    S.run(sim, 150)
    S.resume(sim, 'fast')
    S.run(sim, 0)
    expect(ran).toEqual(['outside at 100', 'fast timeout at 315 (true 210)', 'fast interval at true 210'])
  })

  it('getRandomValues refuses what the original refuses, with its error', () => {
    sim = S.install({ seed: 1 })
    expect(() => crypto.getRandomValues(new Float64Array(2) as never)).toThrow(/Float64Array|type|integer/i)
    expect(() => crypto.getRandomValues(new Uint8Array(65537))).toThrow(/65,?536|quota/i)
  })

  it('install refuses a clock of its own and bad options, installing nothing', () => {
    expect(() => S.install({ seed: 1, clock: createClock() } as never)).toThrow(/InvalidArgument: install makes its own clock/)
    expect(() => S.install({ seed: 0.5 })).toThrow(/seed 0.5 is not an integer/)
    expect(Date.now()).toBeGreaterThan(1e12)
  })
})

describe('fault schedules', () => {
  it('describes a schedule in words, and applySchedule arms each fault and its end', () => {
    const { sim, a } = pair({ network: { latency: 1 } })
    const schedule = {
      seed: 3,
      faults: [
        { kind: 'partition', at: 10, duration: 5, from: 'a', to: 'b', oneWay: true },
        { kind: 'crash', at: 20, duration: 10, host: 'b' },
        { kind: 'pause', at: 40, duration: 5, host: 'a' },
        { kind: 'hold', at: 50, duration: 5, from: 'a', to: 'b', oneWay: false },
        { kind: 'skew', at: 60, duration: 5, host: 'a', offset: -250, driftPpm: 1000 },
      ],
    } as const
    expect(S.describeSchedule(schedule).split('\n')).toEqual([
      'seed 3, 5 faults:',
      '  at 10 ms: partition a -> b (one way) for 5 ms, healed at 15 ms',
      '  at 20 ms: crash b for 10 ms, restarted at 30 ms',
      '  at 40 ms: pause a (stop the world) for 5 ms, resumed at 45 ms',
      '  at 50 ms: hold a <-> b for 5 ms, released at 55 ms',
      "  at 60 ms: skew a's clock 250 ms behind, drifting +1000 ppm, for 5 ms, restored at 65 ms",
    ])
    S.applySchedule(sim, schedule)
    const probe: string[] = []
    for (const t of [12, 16, 25, 32, 42, 52, 62, 66]) {
      S.run(sim, t - sim.clock.now)
      const { up, paused } = S.status(sim, 'b')
      probe.push(`${t}:${up ? 'up' : 'down'}${S.status(sim, 'a').paused ? ' a-paused' : ''}${paused ? ' b-paused' : ''} a=${S.now(a)}`)
    }
    expect(probe).toEqual(['12:up a=12', '16:up a=16', '25:down a=25', '32:up a=32', '42:up a-paused a=42', '52:up a=52', '62:up a=-188', '66:up a=66'])
  })

  it('the arbitrary shrinks a failing schedule to the fewest, shortest faults and prints it in words', () => {
    const arb = S.faultScheduleArb({ hosts: ['a', 'b', 'c'], window: 1000, maxFaults: 6 })
    // "No crash may last 100 ms or more": the smallest counterexample is one crash of 100 ms at 0.
    const result = fc.check(
      fc.property(arb, (s) => s.faults.every((f) => f.kind !== 'crash' || f.duration < 100)),
      { seed: 42, numRuns: 200 },
    )
    expect(result.failed).toBe(true)
    const shrunk = result.counterexample![0]
    expect(shrunk.faults).toEqual([{ kind: 'crash', at: 0, duration: 100, host: 'a' }])
    expect(fc.stringify(shrunk)).toBe(`seed ${shrunk.seed}, 1 fault:\n  at 0 ms: crash a for 100 ms, restarted at 100 ms`)
    // The same seed and path replay it.
    const replay = fc.check(fc.property(arb, (s) => s.faults.every((f) => f.kind !== 'crash' || f.duration < 100)), {
      seed: 42,
      path: result.counterexamplePath!,
      numRuns: 200,
    })
    expect(replay.counterexample![0]).toEqual(shrunk)
  })

  it('describeFault says who, what and when', () => {
    expect(S.describeFault({ kind: 'pause', at: 5, duration: 7, host: 'db' })).toBe('at 5 ms: pause db (stop the world) for 7 ms, resumed at 12 ms')
  })
})

// An in-order message is its own token while nothing waits on its link; these put older
// messages there (a resumed one, then those whose tokens it took) while it is on the wire.
describe.each([
  ['default', {}],
  ['batch', { batch: true }],
  ['fake-timers 15.5', { clock: FakeTimers.createClock(0) as never }],
])('a link stays FIFO when messages are put back on it while others are on the wire (%s)', (_name, options) => {
  it('delivers a resumed message, then the older of those on the wire first, whichever token fires', () => {
    const sim = S.create<string>({ seed: 1, ...options })
    const got: string[] = []
    S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) => S.onMessage(h, (_from, m) => void got.push(`${m}@${sim.clock.now}`)))
    S.link(sim, 'a', 'b', { latency: 10 }, { oneWay: true })
    S.pause(sim, 'b')
    S.send(S.host(sim, 'a'), 'b', 'first')
    S.send(S.host(sim, 'a'), 'b', 'second')
    // Drawn to be reordered, it passes both and stalls at the paused host, then is put back
    // at the head of the link by a resume from a timer: its token is due after theirs.
    S.link(sim, 'a', 'b', { latency: 1, reorder: 1 }, { oneWay: true })
    S.send(S.host(sim, 'a'), 'b', 'resumed')
    S.setTimeout(S.host(sim, 'a'), () => S.resume(sim, 'b'), 9)
    S.run(sim, 20)
    expect(got).toEqual(['resumed@10', 'first@10', 'second@10'])
  })
})

describe('batch: true', () => {
  // A 0 ms send from a timer arms the batch's clock timer for now, which fake-timers runs
  // 1 ms later: then the arrivals of two ms are due at once, and go in the order of their ms.
  it('delivers the arrivals of two ms due at once in the order of their ms', () => {
    const sim = S.create<string>({ seed: 1, batch: true })
    const got: string[] = []
    S.addHost(sim, 'a', (h) =>
      S.setTimeout(h, () => {
        S.link(sim, 'a', 'b', { latency: 0 }, { oneWay: true })
        S.send(h, 'b', 'first')
        S.link(sim, 'a', 'b', { latency: 1 }, { oneWay: true })
        S.send(h, 'b', 'second')
      }, 5),
    )
    S.addHost(sim, 'b', (h) => S.onMessage(h, (_from, m) => void got.push(`${m}@${sim.clock.now}`)))
    S.run(sim, 10)
    expect(got).toEqual(['first@6', 'second@6'])
  })
})
