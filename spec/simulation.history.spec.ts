/**
 * Histories recorded in the simulation (lib/simulation/history.ts): `invoke`/`complete` from
 * a host's context and from outside land in the log as 'history' events at true time;
 * `history` pairs them (a call never answered is `info`); `assertLinearizable` passes a
 * linearizable run and, on one that is not, throws the schedule and the failing operation
 * in words and writes the picture.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { TimingWheelError } from '../lib/errors.js'
import { register } from '../lib/linearizability/index.js'
import { Simulation as S } from '../lib/simulation/index.js'

const dir = mkdtempSync(join(tmpdir(), 'simulation-history-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A register server; `stale` makes it answer reads with the first value it ever held. */
const run = (stale: boolean) => {
  const sim = S.create<{ f: string; value?: number | null }>({ seed: 3, network: { latency: { min: 5, max: 5 } } })
  S.addHost(sim, 'server', (host) => {
    let value: number | null = null
    let first: number | null = null
    S.onMessage(host, (from, m) => {
      if (m.f === 'write') {
        value = m.value!
        first ??= value
      }
      S.send(host, from, { f: m.f, value: m.f === 'read' && stale ? first : value })
    })
  })
  S.addHost(sim, 'client', (host) => {
    const ops = [{ f: 'write', value: 1 }, { f: 'write', value: 2 }, { f: 'read' }]
    const next = (): void => {
      const op = ops.shift()
      if (op === undefined) return
      S.invoke(host, 'client', op)
      S.send(host, 'server', op)
    }
    S.onMessage(host, (_from, m) => {
      S.complete(host, 'client', 'ok', { f: m.f, value: m.value ?? null })
      S.setTimeout(host, next, 1)
    })
    next()
  })
  // A client outside the hosts whose call is never answered.
  S.invoke(sim, 'outsider', { f: 'write', value: 9 })
  S.run(sim, 100)
  return sim
}

describe('histories in the simulation', () => {
  it('records calls and answers at true time, from hosts and from outside', () => {
    const h = S.history(run(false))
    expect(h.map((op) => [op.process, op.outcome, op.call, op.return])).toEqual([
      ['client', 'ok', 0, 10],
      ['outsider', 'info', 0, undefined],
      ['client', 'ok', 11, 21],
      ['client', 'ok', 22, 32],
    ])
    expect(S.log(run(false)).filter((e) => e.kind === 'event' && e.name === 'history')).toHaveLength(7)
  })

  it('assertLinearizable passes a linearizable run and names the stale read of another, writing the picture', () => {
    expect(S.assertLinearizable(run(false), register()).kind).toBe('ok')
    const picture = join(dir, 'stale.html')
    const schedule = { seed: 3, faults: [] }
    expect(() => S.assertLinearizable(run(true), register(), { schedule, picture })).toThrow(
      /not linearizable \(4 operations\)\nfault schedule: seed 3, 0 faults\n.*read\(\) → 1 by "client" \[22, 32\] cannot be placed.*\nthe operation that cannot be placed: "client" called \{"f":"read"\} at 22 and got ok \{"f":"read","value":1\} at 32\npicture: /,
    )
    expect(readFileSync(picture, 'utf8')).toContain('class="op-key"')
  })

  it('refuses a bad process or outcome, logging nothing', () => {
    const sim = S.create({ seed: 1 })
    expect(() => S.invoke(sim, 1.5, {})).toThrow(TimingWheelError)
    expect(() => S.complete(sim, 'a', 'done' as never)).toThrow(/outcome must be 'ok', 'fail' or 'info', got "done"/)
    expect(S.log(sim)).toEqual([])
    S.event(sim, 'history', 'not a record')
    expect(() => S.history(sim)).toThrow(/a 'history' event at 0 must hold \{ type, process, value \}, got "not a record"/)
  })
})
