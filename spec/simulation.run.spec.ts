/**
 * Running a simulation as a new user would: the current host by name, `run` refusing async
 * host code (naming `runAsync`), and runs bounded by a predicate or by quiet.
 */
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { TimingWheelError } from '../lib/errors.js'
import { Simulation as S } from '../lib/simulation/index.js'

describe.each([false, true])('running (batch %s)', (batch) => {
  it("host(sim, name) is the running incarnation's context, and sends through it after a restart", () => {
    const sim = S.create<string>({ seed: 1, batch })
    const got: string[] = []
    const first = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) => S.onMessage(h, (_f, m) => void got.push(m)))
    expect(S.host(sim, 'a')).toBe(first)
    S.restart(sim, 'a')
    expect(S.host(sim, 'a')).not.toBe(first)
    S.send(first, 'b', 'stale')
    S.send(S.host(sim, 'a'), 'b', 'current')
    S.run(sim, 5)
    expect(got).toEqual(['current'])
    expect(() => S.host(sim, 'c')).toThrow(TimingWheelError)
  })

  it('run refuses an async message handler or timer callback, naming runAsync; runAsync runs them', async () => {
    const sim = S.create<string>({ seed: 1, batch })
    const a = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) => S.onMessage(h, async () => undefined))
    S.send(a, 'b', 'x')
    expect(() => S.run(sim, 5)).toThrow(/"b"'s message handler returned a promise under run.*use runAsync/)
    S.setTimeout(a, async () => undefined, 1)
    expect(() => S.run(sim, 5)).toThrow(/"a"'s timer callback returned a promise under run/)
    const seen: number[] = []
    S.addHost(sim, 'c', (h) => S.onMessage(h, async (_f, m) => {
      await Promise.resolve()
      seen.push(sim.clock.now)
      void m
    }))
    S.send(a, 'c', 'y')
    await S.runAsync(sim, 5)
    expect(seen).toEqual([sim.clock.now - 4])
  })

  it('runUntil stops when the predicate holds, or gives none at its bound', () => {
    const sim = S.create<string>({ seed: 1, batch, network: { latency: 30 } })
    let got = 0
    const a = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) => S.onMessage(h, () => void got++))
    S.send(a, 'b', 'x')
    expect(S.runUntil(sim, () => got === 1, 100)).toEqual(O.some(30))
    expect(sim.clock.now).toBe(30)
    expect(S.runUntil(sim, () => got === 2, 50)).toEqual(O.none)
    expect(sim.clock.now).toBe(80)
    expect(() => S.runUntil(sim, 5 as never, 1)).toThrow(TimingWheelError)
    expect(() => S.runUntil(sim, () => true, -1)).toThrow(TimingWheelError)
  })

  it('runUntilQuiet runs until nothing is in flight and no host timer is pending', () => {
    const sim = S.create<string>({ seed: 1, batch, network: { latency: 7 } })
    const a = S.addHost(sim, 'a', (h) => S.onMessage(h, (from, m) => m.length < 3 && S.send(h, from, `${m}!`)))
    S.addHost(sim, 'b', (h) => S.onMessage(h, (from, m) => S.send(h, from, `${m}!`)))
    S.setTimeout(a, () => S.send(a, 'b', 'x'), 10)
    expect(S.runUntilQuiet(sim, 1000)).toEqual(O.some(10 + 4 * 7))
    S.setInterval(a, () => undefined, 10)
    expect(S.runUntilQuiet(sim, 100)).toEqual(O.none)
  })
})

describe.each([false, true])('errors thrown by host code, under a policy (batch %s)', (batch) => {
  const world = (onError?: 'fail' | 'crash' | 'record') => {
    const sim = S.create<string>({ seed: 1, batch, ...(onError === undefined ? {} : { onError }) })
    const got: string[] = []
    const a = S.addHost(sim, 'a', (h) => void S.setTimeout(h, () => { throw new Error('timer of a') }, 3))
    S.addHost(sim, 'b', (h) =>
      S.onMessage(h, (_f, m) => {
        if (m === 'boom') throw new Error('handler of b')
        got.push(m)
      }),
    )
    S.send(a, 'b', 'boom')
    S.send(a, 'b', 'after')
    return { sim, got }
  }
  const uncaught = (sim: ReturnType<typeof world>['sim']) =>
    S.log(sim).flatMap((e) => (e.kind === 'event' ? [`${e.at} ${e.host} ${e.name} ${(e.data as Error).message}`] : e.kind === 'fault' ? [`${e.at} ${e.action} ${e.hosts.join()}`] : []))

  it("'fail' (the default) lets the first error out of run", () => {
    expect(() => S.run(world().sim, 5)).toThrow('handler of b')
  })

  it("'record' logs each as its host's event 'uncaught' and goes on", () => {
    const { sim, got } = world('record')
    S.run(sim, 5)
    expect(got).toEqual(['after'])
    expect(uncaught(sim)).toEqual(['1 b uncaught handler of b', '3 a uncaught timer of a'])
  })

  it("'crash' logs it and crashes that host, as Node would end its process", () => {
    const { sim, got } = world('crash')
    S.run(sim, 5)
    expect(got).toEqual([])
    expect(uncaught(sim)).toEqual(['1 b uncaught handler of b', '1 crash b', '3 a uncaught timer of a', '3 crash a'])
    expect([S.status(sim, 'a').up, S.status(sim, 'b').up]).toEqual([false, false])
  })

  it('a boot that throws, and a policy that is not one', () => {
    const sim = S.create<string>({ seed: 1, batch, onError: 'crash' })
    S.addHost(sim, 'c', () => {
      throw new Error('boot of c')
    })
    expect(S.status(sim, 'c').up).toBe(false)
    expect(uncaught(sim)).toEqual(['0 c uncaught boot of c', '0 crash c'])
    expect(() => S.create({ seed: 1, onError: 'ignore' as never })).toThrow(TimingWheelError)
  })
})
