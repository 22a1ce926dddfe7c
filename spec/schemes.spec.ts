/**
 * Every timer scheme of `bench/schemes` fires exactly the timers, at exactly the ticks,
 * that a plainly correct model fires: a map from id to expiry tick, where each tick
 * fires the ids whose expiry equals the new time.
 *
 * Order within one tick is not part of the paper's contract (section 4.2: "timer modules
 * need not meet this restriction"), and the schemes differ in it (Scheme 6 fires in
 * bucket order, the heap in heap order), so each tick's firings are compared as sets:
 * both sides sorted by id.
 *
 * Starting an id that is outstanding restarts it (a STOP_TIMER, then a START_TIMER), in
 * the model and in the scheme alike, since the schemes require a fresh id. After every
 * command the scheme's invariant must hold and its size must equal the model's; at the
 * end every remaining timer must fire on time as the clock runs out the longest interval.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { schemes } from '../bench/schemes/catalog.js'
import type { Config, Scheme } from '../bench/schemes/scheme.js'

type Command =
  | { readonly kind: 'start'; readonly id: number; readonly interval: number }
  | { readonly kind: 'stop'; readonly id: number }
  | { readonly kind: 'tick'; readonly ticks: number }

interface Case {
  readonly label: string
  readonly scheme: Scheme
  readonly config: Config
  /** Intervals at the edges of the representation: 1, MaxInterval - 1, turns of a table or level. */
  readonly edges: readonly number[]
  readonly numRuns: number
  /** Check the invariant after every this many commands (it is linear in the table size). */
  readonly invariantEvery?: number
}

const ids = 48

const byKey = (key: string): Scheme => {
  const scheme = schemes.find((s) => s.key === key)
  if (scheme === undefined) throw new Error(`no scheme ${key}`)
  return scheme
}

const around = (xs: readonly number[], maxInterval: number): number[] =>
  [1, maxInterval - 1, ...xs.flatMap((x) => [x - 1, x, x + 1])].filter((x) => x >= 1 && x < maxInterval)

const unbounded = 400

const cases: readonly Case[] = [
  { label: 'Scheme 1', scheme: byKey('s1'), config: { capacity: ids, maxInterval: unbounded }, edges: around([], unbounded), numRuns: 300 },
  { label: 'Scheme 2', scheme: byKey('s2'), config: { capacity: ids, maxInterval: unbounded }, edges: around([], unbounded), numRuns: 300 },
  { label: 'Scheme 3', scheme: byKey('s3'), config: { capacity: ids, maxInterval: unbounded }, edges: around([], unbounded), numRuns: 300 },
  { label: 'Scheme 4 (MaxInterval 64)', scheme: byKey('s4'), config: { capacity: ids, maxInterval: 64 }, edges: around([32], 64), numRuns: 300 },
  ...[1, 8].flatMap((tableSize) => [
    {
      label: `Scheme 5 (M = ${tableSize})`,
      scheme: byKey('s5'),
      config: { capacity: ids, maxInterval: unbounded, tableSize },
      edges: around([tableSize, 2 * tableSize, 7 * tableSize], unbounded),
      numRuns: 300,
    },
    {
      label: `Scheme 6 (M = ${tableSize})`,
      scheme: byKey('s6'),
      config: { capacity: ids, maxInterval: unbounded, tableSize },
      edges: around([tableSize, 2 * tableSize, 7 * tableSize], unbounded),
      numRuns: 300,
    },
  ]),
  {
    label: 'Scheme 7 (level bits [2, 2, 2, 2, 2])',
    scheme: byKey('s7'),
    config: { capacity: ids, maxInterval: unbounded, levelBits: [2, 2, 2, 2, 2] },
    edges: around([4, 16, 64, 256], unbounded),
    numRuns: 300,
  },
  {
    label: 'Scheme 7 (default level bits)',
    scheme: byKey('s7'),
    config: { capacity: ids, maxInterval: 5000 },
    edges: around([2048], 5000),
    numRuns: 300,
    // 6,146 slots: checking them after every command would take most of the test's time.
    invariantEvery: 16,
  },
]

const commandArb = (c: Case): fc.Arbitrary<Command> => {
  const interval = fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...c.edges) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: c.config.maxInterval - 1 }) },
  )
  const id = fc.integer({ min: 0, max: ids - 1 })
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('start' as const), id, interval }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('stop' as const), id }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('tick' as const),
        // Mostly short steps, so that many timers are outstanding at once.
        ticks: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 8 }) }, { weight: 1, arbitrary: fc.constantFrom(...c.edges) }),
      }),
    },
  )
}

const sorted = (xs: Iterable<number>): number[] => [...xs].sort((a, b) => a - b)

/** The reference: when each outstanding id expires, and which ids expire at each tick. */
class Model {
  now = 0
  readonly expiryOf = new Map<number, number>()
  readonly dueAt = new Map<number, Set<number>>()

  start(id: number, at: number): void {
    this.expiryOf.set(id, at)
    const due = this.dueAt.get(at)
    if (due === undefined) this.dueAt.set(at, new Set([id]))
    else due.add(id)
  }

  stop(id: number): void {
    const at = this.expiryOf.get(id)
    if (at === undefined) return
    this.expiryOf.delete(id)
    this.dueAt.get(at)?.delete(id)
  }

  /** Advances one tick and returns the ids that expire at it. */
  tick(): number[] {
    const due = [...(this.dueAt.get(++this.now) ?? [])]
    this.dueAt.delete(this.now)
    for (const id of due) this.expiryOf.delete(id)
    return due
  }

  lastExpiry(): number {
    return Math.max(this.now, ...this.expiryOf.values())
  }
}

/**
 * Plays `commands` on the scheme and the model side by side; throws at the first
 * difference. Plain comparisons on the hot path: `expect` per tick would dominate the run.
 */
const play = (c: Case, commands: readonly Command[]): void => {
  const fired: number[] = []
  const module = c.scheme.create(c.config, (id) => fired.push(id))
  const model = new Model()
  const tick = (): void => {
    fired.length = 0
    module.perTickBookkeeping()
    const due = model.tick()
    if (fired.length !== due.length || sorted(fired).join() !== sorted(due).join()) {
      expect(sorted(fired), `fired at tick ${model.now}`).toEqual(sorted(due))
    }
  }
  let commandsPlayed = 0
  const check = (): void => {
    if (++commandsPlayed % (c.invariantEvery ?? 1) === 0) module.invariant()
    if (module.size() !== model.expiryOf.size) expect(module.size(), `size at tick ${model.now}`).toBe(model.expiryOf.size)
  }
  for (const command of commands) {
    switch (command.kind) {
      case 'start':
        if (model.expiryOf.has(command.id)) {
          module.stopTimer(command.id)
          model.stop(command.id)
        }
        module.startTimer(command.interval, command.id)
        model.start(command.id, model.now + command.interval)
        break
      case 'stop':
        module.stopTimer(command.id)
        model.stop(command.id)
        break
      case 'tick':
        for (let i = 0; i < command.ticks; i++) tick()
        break
    }
    check()
  }
  // Run the clock past the last expiry, and one turn of a small table further.
  const end = model.lastExpiry() + 17
  while (model.now < end) tick()
  module.invariant()
  check()
  expect(model.expiryOf.size).toBe(0)
}

describe('every scheme fires what the reference model fires, at the same ticks', () => {
  for (const c of cases) {
    it(c.label, () => {
      fc.assert(
        fc.property(fc.array(commandArb(c), { maxLength: 100, size: 'max' }), (commands) => play(c, commands)),
        { numRuns: c.numRuns },
      )
    })
  }
})

describe('the schemes refuse what they cannot represent', () => {
  it('Scheme 4 rejects an interval of MaxInterval or more', () => {
    const module = byKey('s4').create({ capacity: 1, maxInterval: 16 }, () => {})
    expect(() => module.startTimer(16, 0)).toThrow(/maxInterval 16/)
  })

  it('Scheme 7 rejects level bits that cannot reach MaxInterval', () => {
    expect(() => byKey('s7').create({ capacity: 1, maxInterval: 257, levelBits: [4, 4] }, () => {})).toThrow(/2\^8/)
  })

  it('Schemes 5 and 6 reject a table size that is not a power of two', () => {
    for (const key of ['s5', 's6']) {
      expect(() => byKey(key).create({ capacity: 1, maxInterval: 10, tableSize: 12 }, () => {})).toThrow(/power of two/)
    }
  })
})
