/**
 * timing-wheel/campaign in one thread: seeds and shards (against a model: the range
 * itself), a seed's trial (shrunk, replayable, the same on every call), the liveness phase,
 * the determinism self-check on a planted `Math.random`, and hostile input.
 */
import fc from 'fast-check'
import { Campaign } from 'timing-wheel/campaign'
import { describe, expect, it } from 'vitest'
import ping, { stuck, unseeded } from './support/campaigns/ping.campaign.js'

const invalid = (f: () => unknown, pattern: RegExp): void => {
  expect(f).toThrow(pattern)
  try {
    f()
  } catch (e) {
    expect((e as { code?: string }).code).toBe('InvalidArgument')
  }
}

describe('seeds and shards', () => {
  it('shards 1/n … n/n of a range run every seed of it exactly once, and shardSize counts them', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(300), fc.integer({ min: 1, max: 12 }), (first, length, count) => {
        const range = { first, last: first + length }
        const all = Array.from({ length: count }, (_, i) => {
          const shard = { index: i + 1, count }
          const seeds = [...Campaign.shardSeeds(range, shard)]
          expect(Campaign.shardSize(range, shard)).toBe(seeds.length)
          return seeds
        }).flat()
        expect(all.length).toBe(length + 1)
        expect([...all].sort((a, b) => a - b)).toEqual(Array.from({ length: length + 1 }, (_, i) => first + i))
      }),
    )
  })

  it('reads the command line forms', () => {
    expect(Campaign.parseSeeds('0..999')).toEqual({ first: 0, last: 999 })
    expect(Campaign.parseSeeds('42')).toEqual({ first: 42, last: 42 })
    expect(Campaign.parseSeeds('5..')).toEqual({ first: 5 })
    expect(Campaign.parseShard('2/3')).toEqual({ index: 2, count: 3 })
    expect(Campaign.parseDuration('10m')).toBe(600_000)
    expect(Campaign.parseDuration('1h30m')).toBe(5_400_000)
    expect(Campaign.parseDuration('250ms')).toBe(250)
    const unbounded = Campaign.shardSeeds({ first: 10 }, { index: 3, count: 4 })
    expect([unbounded.next().value, unbounded.next().value, unbounded.next().value]).toEqual([12, 16, 20])
    expect(Campaign.shardSize({ first: 10 }, { index: 3, count: 4 })).toBeUndefined()
  })

  it('refuses bad seeds, shards and durations, naming the value and the range', () => {
    for (const bad of ['5..2', '-1..3', 'a..b', '1.5', '', '..', '2147483648', ' 1', '1..2..3', undefined, 7]) invalid(() => Campaign.parseSeeds(bad), /seed/)
    for (const bad of ['0/3', '4/3', '1/0', 'x', '1/', '/2', '-1/2', '1.5/2', ' 1/2', 3]) invalid(() => Campaign.parseShard(bad), /shard .* (is not|"i\/n")/)
    for (const bad of ['10', '10x', '0s', '-1m', 'm', '10m ', '169h', '', null]) invalid(() => Campaign.parseDuration(bad), /duration from 1ms to 168h/)
  })
})

describe('a seed\'s trial', () => {
  it('fails on the seeds whose partitions meet traffic, shrinks them, and says the same every call', () => {
    const trials = Array.from({ length: 30 }, (_, seed) => Campaign.trial(ping, seed))
    const failures = trials.flatMap((t) => (t.failure === undefined ? [] : [t.failure]))
    expect(failures.length).toBeGreaterThan(0)
    expect(failures.length).toBeLessThan(30)
    // The model: a draw fails iff its log has a message dropped by a partition, at that drop's time.
    const cut = (seed: number) => {
      const [draw] = fc.sample(ping.arbitrary, { seed, numRuns: 1 })
      const drop = Campaign.play(ping, draw!).log.find((e) => e.kind === 'message' && e.reason === 'partition')
      return drop === undefined ? undefined : drop.at
    }
    for (const t of trials) expect(t.failure?.at).toBe(cut(t.seed))
    for (const f of failures) {
      expect(f.failure).toMatch(/^\w -> \w cut by a partition$/)
      expect(f.kinds).toContain('partition')
      expect(f.nondeterminism).toBeUndefined()
      expect(f.shrunk!.faults).toEqual([expect.stringMatching(/partition/)])
      expect(f.shrunk!.failure).toMatch(/cut by a partition/)
    }
    expect(Array.from({ length: 30 }, (_, seed) => Campaign.trial(ping, seed).failure)).toEqual(trials.map((t) => t.failure))
  })

  it('replays a shrunk failure from fast-check\'s seed and path', () => {
    const failure = Array.from({ length: 30 }, (_, seed) => Campaign.trial(ping, seed).failure).find((f) => f !== undefined)!
    const replay = fc.check(
      fc.property(ping.arbitrary, (draw) => Campaign.play(ping, draw).failure === undefined),
      { seed: failure.seed, path: failure.shrunk!.path, numRuns: 1, endOnFailure: true },
    )
    expect(replay.failed).toBe(true)
    expect(replay.counterexample![0].schedule).toEqual(failure.shrunk!.schedule)
  })

  it('tells liveness from safety: b, once restarted, never answers, and only the liveness phase sees it', () => {
    const failures = Array.from({ length: 20 }, (_, seed) => Campaign.trial(stuck, seed).failure).filter((f) => f !== undefined)
    expect(failures.length).toBeGreaterThan(0)
    for (const f of failures) {
      expect(f.phase).toBe('liveness')
      expect(f.failure).toMatch(/^no progress within 200 ms after every fault was healed \(progress stayed at \d+\)$/)
      expect(f.schedule.faults.some((x) => x.kind === 'crash')).toBe(true)
      expect(f.shrunk!.faults).toEqual([expect.stringMatching(/crash b for \d+ ms/)])
    }
    // A seed whose schedule has no crash is live: pauses are healed and b answers again.
    const live = Array.from({ length: 20 }, (_, seed) => seed).filter((seed) => Campaign.trial(stuck, seed).failure === undefined)
    expect(live.length).toBeGreaterThan(0)
  })

  it('names a planted Math.random and the first log entry where the two runs part', () => {
    const { failure } = Campaign.trial(unseeded, 3)
    expect(failure!.failure).toBe('fails every time')
    const n = failure!.nondeterminism!
    expect(n.outside).toEqual([expect.stringMatching(/^Math\.random \(\d+ calls\)$/)])
    expect(n.first).not.toBe(n.second)
    expect(n.first).toMatch(/^at \d+ ms: message #\d+ \w -> \w "p[io]ng", sent at \d+ ms, delivered$/)
    // The entries before the one named are the same in both runs: it is the first.
    expect(n.index).toBeGreaterThan(0)
    // The same campaign with the seeded generator instead replays: no difference.
    expect(Campaign.trial(ping, 3).failure?.nondeterminism).toBeUndefined()
  })

  it('reports what setup or check throws as the failure, in words', () => {
    const throwing = Campaign.define({
      faults: { hosts: ['a'], window: 10, kinds: ['crash'] },
      duration: 10,
      setup: () => {
        throw new Error('no such host')
      },
    })
    const { failure } = Campaign.trial(throwing, 0)
    expect(failure!.failure).toBe('threw Error: no such host')
    expect(failure!.at).toBe(0)
  })
})

describe('hostile input', () => {
  const setup = ping.options.setup
  const faults = { hosts: ['a', 'b'], window: 10 }
  it('define refuses bad options before making anything', () => {
    invalid(() => Campaign.define(null as never), /campaign options null is not an object/)
    invalid(() => Campaign.define({ faults, duration: 10, setup: 'x' as never }), /setup "x" is not a function/)
    for (const duration of [0, -1, 1.5, NaN, Infinity, '10', 2 ** 31]) invalid(() => Campaign.define({ faults, duration: duration as never, setup }), /duration .* is not a whole number of ms in \[1, 2147483647\]/)
    invalid(() => Campaign.define({ faults, duration: 10, setup, checkEvery: 0 }), /checkEvery 0/)
    invalid(() => Campaign.define({ faults, duration: 10, setup, liveness: { within: -5 } }), /liveness.within -5/)
    invalid(() => Campaign.define({ faults, duration: 10, setup, liveness: 3 as never }), /liveness 3 is not \{ within \}/)
    invalid(() => Campaign.define({ faults, duration: 10, setup, swarm: 'yes' as never }), /swarm "yes" is not a boolean/)
    invalid(() => Campaign.define({ faults, duration: 10, setup, accept: 1 as never }), /accept 1 is not a function/)
    invalid(() => Campaign.define({ faults, duration: 10, setup, panels: [{ title: 't', html: 3 as never }] }), /panels .* is not an array of \{ title, html \}/)
    invalid(() => Campaign.define({ faults: { hosts: [], window: 10 }, duration: 10, setup }), /hosts \[\] is not a non-empty array/)
    invalid(() => Campaign.define({ faults: { hosts: ['a'], window: 10, kinds: ['partition'] }, duration: 10, setup }), /need two hosts/)
    invalid(() => Campaign.define({ faults: undefined as never, duration: 10, setup }), /faults undefined/)
  })

  it('trial refuses a bad seed or a campaign define did not make', () => {
    for (const seed of [-1, 1.5, 2 ** 31, NaN, '3']) invalid(() => Campaign.trial(ping, seed as never), /seed .* is not an integer in \[0, 2147483647\]/)
    invalid(() => Campaign.trial({ options: ping.options, arbitrary: ping.arbitrary } as never, 0), /is not one made by define/)
  })

  it('a liveness phase without progress is a failure in words, not a crash of the runner', () => {
    const noProgress = Campaign.define({ ...ping.options, liveness: { within: 10 }, setup: (s) => ({ ...ping.options.setup(s), check: () => undefined }) })
    expect(Campaign.trial(noProgress, 0).failure!.failure).toMatch(/^threw TimingWheelError: InvalidArgument: progress undefined is not a function/)
  })
})
