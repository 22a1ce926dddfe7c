/**
 * Issue 40's broken promises, each reproduced from outside as a user would, in both
 * delivery modes: FIFO links when a fault is undone from a timer and on 0 ms links, host
 * timers under a drift near -1, stale contexts, `state` after a restart from `boot`,
 * refusals that were `TypeError`s, and errors thrown in one batch.
 */
import { describe, expect, it } from 'vitest'
import { TimingWheelError } from '../lib/errors.js'
import { Simulation as S } from '../lib/simulation/index.js'
import type { FaultSchedule, Host, SimulationT } from '../lib/simulation/index.js'

/** `a` sends its `now` to `b` every ms over a 10 ms link; what `b` receives, in order. */
const ticker = (batch: boolean): { sim: SimulationT<number>; got: number[] } => {
  const sim = S.create<number>({ seed: 1, batch, network: { latency: 10 } })
  const got: number[] = []
  S.addHost(sim, 'a', (h) => void S.setInterval(h, () => S.send(h, 'b', S.now(h)), 1))
  S.addHost(sim, 'b', (h) => S.onMessage(h, (_from, m) => void got.push(m)))
  return { sim, got }
}

const isSorted = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1]! <= x)

describe.each([false, true])('broken promises, kept (batch %s)', (batch) => {
  it.each([
    ['a hold', { kind: 'hold', at: 5, duration: 20, from: 'a', to: 'b', oneWay: true }],
    ['a pause of the receiver', { kind: 'pause', at: 5, duration: 20, host: 'b' }],
  ] as const)('1. a link stays FIFO when %s is undone from a timer (applySchedule)', (_name, fault) => {
    const { sim, got } = ticker(batch)
    S.applySchedule(sim, { seed: 1, faults: [fault] })
    S.run(sim, 80)
    expect(isSorted(got)).toBe(true)
    expect(got.slice(0, 3)).toEqual([1, 2, 3])
    expect(got.length).toBeGreaterThanOrEqual(69)
  })

  it('1. the same with release and resume called from a host timer, and a message never arrives early', () => {
    const { sim, got } = ticker(batch)
    S.hold(sim, 'a', 'b')
    S.addHost(sim, 'ops', (h) => {
      S.setTimeout(h, () => S.release(sim, 'a', 'b'), 20)
      S.setTimeout(h, () => S.pause(sim, 'b'), 30)
      S.setTimeout(h, () => S.resume(sim, 'b'), 40)
    })
    S.run(sim, 80)
    expect(isSorted(got)).toBe(true)
    for (const e of S.messages(sim)) expect(e.at - e.sentAt).toBeGreaterThanOrEqual(10)
  })

  it('2. a 0 ms link stays FIFO between a send from a timer and one from outside in the same ms', () => {
    const sim = S.create<string>({ seed: 1, batch, network: { latency: 0 } })
    const got: string[] = []
    const a = S.addHost(sim, 'a', (h) => void S.setTimeout(h, () => S.send(h, 'b', 'first'), 5))
    S.addHost(sim, 'b', (h) => S.onMessage(h, (_from, m) => void got.push(`${m}@${sim.clock.now}`)))
    S.run(sim, 5)
    S.send(a, 'b', 'second')
    S.run(sim, 5)
    expect(got.map((g) => g.split('@')[0])).toEqual(['first', 'second'])
    // Default mode: the token of 'second', due at 5, delivers the link's oldest message;
    // batched, the one clock timer armed from the host timer fires 1 ms later for both.
    expect(got[0]).toBe(batch ? 'first@6' : 'first@5')
  })

  it('3. a host timer never fires early under a drift near -1 (its true delay past 2^31 - 1 ms)', () => {
    const sim = S.create<string>({ seed: 1, batch })
    const fired: number[] = []
    const a = S.addHost(sim, 'a', () => undefined, { drift: -0.5 })
    S.setTimeout(a, () => void fired.push(S.now(a)), 2 ** 31 - 1)
    const every = S.setInterval(a, () => void fired.push(-S.now(a)), 2 ** 31 - 1)
    S.run(sim, 1000)
    expect(fired).toEqual([])
    S.run(sim, 2 ** 32 - 1000 - 3)
    expect(fired).toEqual([])
    S.run(sim, 1)
    expect(fired).toEqual([2 ** 31 - 1, -(2 ** 31 - 1)])
    S.clearTimeout(a, every)
    S.run(sim, 2 ** 33)
    expect(fired).toHaveLength(2)
  })

  it('3. the same for the global setTimeout and setInterval of host code once installed, and clearTimeout cancels them', () => {
    const sim = S.install<string>({ seed: 1, batch })
    try {
      const fired: string[] = []
      let every: unknown
      S.addHost(sim, 'a', () => {
        setTimeout(() => void fired.push(`timeout ${Date.now()}`), 2 ** 31 - 1)
        every = setInterval(() => void fired.push(`interval ${Date.now()}`), 2 ** 31 - 1)
        clearTimeout(setTimeout(() => void fired.push('cancelled'), 2 ** 31 - 1))
      }, { drift: -0.5 })
      S.run(sim, 2 ** 32 - 3)
      expect(fired).toEqual([])
      S.run(sim, 1)
      expect(fired).toEqual([`timeout ${2 ** 31 - 1}`, `interval ${2 ** 31 - 1}`])
      S.run(sim, 2 ** 32 - 2)
      expect(fired).toHaveLength(3)
      clearInterval(every as NodeJS.Timeout)
      S.run(sim, 2 ** 33)
      expect(fired).toHaveLength(3)
    } finally {
      S.uninstall(sim)
    }
  })

  it("4. a crashed incarnation's context cannot cancel the new incarnation's timers", () => {
    const sim = S.create<string>({ seed: 1, batch })
    const ids: number[] = []
    let fired = 0
    const old = S.addHost(sim, 'a', (h) => void ids.push(S.setTimeout(h, () => void fired++, 10)))
    S.restart(sim, 'a')
    S.clearTimeout(old, ids[1]!)
    S.run(sim, 10)
    expect(fired).toBe(1)
  })

  it('5. state after a restart from inside boot is the new incarnation\'s', () => {
    const sim = S.create<string>({ seed: 1, batch })
    let boots = 0
    S.addHost(sim, 'a', () => {
      const mine = ++boots
      if (mine === 1) S.restart(sim, 'a')
      return mine
    })
    expect(S.state(sim, 'a')).toEqual({ _tag: 'Some', value: 2 })
    let crashes = 0
    S.addHost(sim, 'b', () => {
      if (crashes++ === 0) S.crash(sim, 'b')
      return 'value of a crashed incarnation'
    })
    expect(S.state(sim, 'b')).toEqual({ _tag: 'None' })
  })

  it('7. an Error thrown after an undefined in the same ms is not lost', () => {
    const sim = S.create<string>({ seed: 1, batch })
    const a = S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', (h) =>
      S.onMessage(h, (_from, m) => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        if (m === 'one') throw undefined
        throw new Error(`handler of ${m}`)
      }),
    )
    S.send(a, 'b', 'one')
    S.send(a, 'b', 'two')
    expect(() => S.run(sim, 5)).toThrow('handler of two')
  })
})

describe('6. refusals are TimingWheelErrors, and nothing changes', () => {
  const refused = (f: () => unknown): TimingWheelError => {
    try {
      f()
    } catch (e) {
      expect(e).toBeInstanceOf(TimingWheelError)
      return e as TimingWheelError
    }
    throw new Error('not refused')
  }

  it('create with a clock that is not one', () => {
    for (const clock of [null, 5, 'clock', {}, { setTimeout: () => 0 }]) {
      expect(refused(() => S.create({ seed: 1, clock: clock as never })).message).toContain('is not a fake-timers clock')
    }
  })

  it('applySchedule with a schedule or a fault that is not one', () => {
    const sim = S.create<string>({ seed: 1 })
    S.addHost(sim, 'a', () => undefined)
    S.addHost(sim, 'b', () => undefined)
    const good = { kind: 'crash', at: 1, duration: 5, host: 'a' }
    const bad: Array<readonly [unknown, string]> = [
      [null, 'null is not an object'],
      [5, '5 is not an object'],
      [{}, 'seed undefined'],
      [{ seed: 1, faults: null }, 'faults null is not an array'],
      [{ seed: 1, faults: [good, null] }, 'fault null is not an object'],
      [{ seed: 1, faults: [{ ...good, kind: 'explode' }] }, 'fault kind "explode"'],
      [{ seed: 1, faults: [{ ...good, duration: 0 }] }, 'fault duration 0'],
      [{ seed: 1, faults: [{ ...good, duration: -5 }] }, 'fault duration -5'],
      [{ seed: 1, faults: [{ ...good, at: 2 ** 31 - 3 }] }, 'fault end'],
      [{ seed: 1, faults: [{ kind: 'hold', at: 1, duration: 1, from: 'a', to: 'b', oneWay: 'yes' }] }, 'oneWay "yes"'],
      [{ seed: 1, faults: [{ kind: 'skew', at: 1, duration: 1, host: 'a', offset: 8.7e15, driftPpm: 0 }] }, 'skew offset 8700000000000000'],
      [{ seed: 1, faults: [{ kind: 'skew', at: 1, duration: 1, host: 'a', offset: 0, driftPpm: -1e6 }] }, 'driftPpm -1000000'],
      [{ seed: 1, faults: [{ kind: 'skew', at: 1, duration: 1, host: 'a', offset: Number.NaN, driftPpm: 0 }] }, 'skew offset NaN'],
    ]
    for (const [schedule, message] of bad) {
      expect(refused(() => S.applySchedule(sim, schedule as FaultSchedule)).message, message).toContain(message)
    }
    S.run(sim, 10)
    expect(S.log(sim).filter((e) => e.kind === 'fault')).toEqual([])
  })

  it('a skew schedule that would restore its host keeps it in range, and a good one still runs', () => {
    const sim = S.create<string>({ seed: 1 })
    const a: Host<string> = S.addHost(sim, 'a', () => undefined, { offset: 8e15 })
    expect(refused(() => S.applySchedule(sim, { seed: 1, faults: [{ kind: 'skew', at: 1, duration: 1, host: 'a', offset: 7e14, driftPpm: 0 }] })).code).toBe('TimeOutOfRange')
    S.applySchedule(sim, { seed: 1, faults: [{ kind: 'skew', at: 1, duration: 1, host: 'a', offset: -1e15, driftPpm: 0 }] })
    S.run(sim, 1)
    expect(S.now(a)).toBe(7e15 + 1)
  })
})
