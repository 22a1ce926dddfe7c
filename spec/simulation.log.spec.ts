/**
 * The log contract: one union of messages, events, faults and hosts, in the order they
 * happened, each with its kind and true time; nothing kept with `log: false`.
 */
import { describe, expect, it } from 'vitest'
import { Simulation as S } from '../lib/simulation/index.js'
import type { Host, LogEntry } from '../lib/simulation/index.js'
import { TimingWheelError } from '../lib/errors.js'

const without = (log: ReadonlyArray<LogEntry<string>>, kind: LogEntry<string>['kind']): Array<LogEntry<string>> => log.filter((e) => e.kind !== kind)

describe.each([false, true])('the log (batch %s)', (batch) => {
  it('keeps hosts, events, faults and messages in the order they happened', () => {
    const sim = S.create<string>({ seed: 3, batch, network: { latency: 5 } })
    const boot = (host: Host<string>): void => {
      S.onMessage(host, (from, m) => S.event(host, 'got', { from, m }))
      S.event(host, 'booted')
    }
    const a = S.addHost(sim, 'a', boot, { offset: 7, drift: 0.25 })
    S.addHost(sim, 'b', boot)
    S.send(a, 'b', 'x')
    S.event(sim, 'outside', 0)
    S.run(sim, 5)
    expect(S.log(sim)).toEqual([
      { kind: 'host', at: 0, host: 'a', offset: 7, drift: 0.25 },
      { kind: 'event', at: 0, host: 'a', name: 'booted' },
      { kind: 'host', at: 0, host: 'b', offset: 0, drift: 0 },
      { kind: 'event', at: 0, host: 'b', name: 'booted' },
      { kind: 'event', at: 0, name: 'outside', data: 0 },
      { kind: 'message', id: 1, from: 'a', to: 'b', message: 'x', sentAt: 0, at: 5, duplicate: false, outcome: 'delivered' },
      { kind: 'event', at: 5, host: 'b', name: 'got', data: { from: 'a', m: 'x' } },
    ])
  })

  it('logs every fault call with its hosts, direction and skew', () => {
    const sim = S.create<string>({ seed: 3, batch })
    for (const name of ['a', 'b']) S.addHost(sim, name, () => undefined)
    S.partition(sim, 'a', 'b', { oneWay: true })
    S.heal(sim, 'a', 'b')
    S.partition(sim, 'b', 'a')
    S.heal(sim)
    S.run(sim, 1)
    S.hold(sim, 'a', 'b')
    S.release(sim, 'a', 'b', { oneWay: true })
    S.link(sim, 'a', 'b', { latency: 3 })
    S.crash(sim, 'a')
    S.crash(sim, 'a')
    S.restart(sim, 'a')
    S.pause(sim, 'b')
    S.resume(sim, 'b')
    S.skew(sim, 'b', { offset: 12 })
    S.skew(sim, 'b', { drift: 0.1 })
    expect(without(S.log(sim), 'host')).toEqual([
      { kind: 'fault', at: 0, action: 'partition', hosts: ['a', 'b'], oneWay: true },
      { kind: 'fault', at: 0, action: 'heal', hosts: ['a', 'b'], oneWay: false },
      { kind: 'fault', at: 0, action: 'partition', hosts: ['b', 'a'], oneWay: false },
      { kind: 'fault', at: 0, action: 'heal', hosts: [] },
      { kind: 'fault', at: 1, action: 'hold', hosts: ['a', 'b'], oneWay: false },
      { kind: 'fault', at: 1, action: 'release', hosts: ['a', 'b'], oneWay: true },
      { kind: 'fault', at: 1, action: 'link', hosts: ['a', 'b'], oneWay: false },
      { kind: 'fault', at: 1, action: 'crash', hosts: ['a'] },
      { kind: 'fault', at: 1, action: 'crash', hosts: ['a'] },
      { kind: 'fault', at: 1, action: 'restart', hosts: ['a'] },
      { kind: 'fault', at: 1, action: 'pause', hosts: ['b'] },
      { kind: 'fault', at: 1, action: 'resume', hosts: ['b'] },
      { kind: 'fault', at: 1, action: 'skew', hosts: ['b'], offset: 12, drift: 0 },
      { kind: 'fault', at: 1, action: 'skew', hosts: ['b'], offset: 12, drift: 0.1 },
    ])
  })

  it("logs applySchedule's faults and their undoing at their times", () => {
    const sim = S.create<string>({ seed: 3, batch })
    for (const name of ['a', 'b']) S.addHost(sim, name, () => undefined)
    S.applySchedule(sim, {
      seed: 3,
      faults: [
        { kind: 'crash', at: 2, duration: 3, host: 'a' },
        { kind: 'skew', at: 4, duration: 1, host: 'b', offset: 9, driftPpm: -300 },
      ],
    })
    S.run(sim, 10)
    expect(without(S.log(sim), 'host')).toEqual([
      { kind: 'fault', at: 2, action: 'crash', hosts: ['a'] },
      { kind: 'fault', at: 4, action: 'skew', hosts: ['b'], offset: 9, drift: -300e-6 },
      { kind: 'fault', at: 5, action: 'restart', hosts: ['a'] },
      { kind: 'fault', at: 5, action: 'skew', hosts: ['b'], offset: 0, drift: 0 },
    ])
  })

  it('logs a send through a crashed incarnation as dropped, stale, and sends nothing', () => {
    const sim = S.create<string>({ seed: 3, batch })
    const got: string[] = []
    const a = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) => S.onMessage(h, (_f, m) => got.push(m)))
    S.crash(sim, 'a')
    S.send(a, 'b', 'ghost')
    S.restart(sim, 'a')
    S.send(a, 'b', 'ghost again')
    S.run(sim, 5)
    expect(got).toEqual([])
    expect(S.messages(sim).map((e) => [e.id, e.message, e.at, e.outcome, e.reason])).toEqual([
      [1, 'ghost', 0, 'dropped', 'stale'],
      [2, 'ghost again', 0, 'dropped', 'stale'],
    ])
    expect(S.inFlight(sim)).toBe(0)
  })

  it('keeps nothing with log: false', () => {
    const sim = S.create<string>({ seed: 3, batch, log: false })
    const a = S.addHost(sim, 'a', (h) => S.event(h, 'booted'))
    S.addHost(sim, 'b', (h) => S.onMessage(h, () => undefined))
    S.send(a, 'b', 'x')
    S.crash(sim, 'a')
    S.send(a, 'b', 'y')
    S.event(sim, 'e')
    S.run(sim, 5)
    expect(S.log(sim)).toEqual([])
  })

  it('refuses an event name that is not a string, and a source that is neither', () => {
    const sim = S.create<string>({ seed: 3, batch })
    for (const bad of [undefined, 1, null, {}, Symbol('s')]) {
      expect(() => S.event(sim, bad as string)).toThrow(TimingWheelError)
    }
    expect(() => S.event({} as S.Simulation<string>, 'x')).toThrow(/not a host context/)
    expect(S.log(sim)).toEqual([])
  })
})
