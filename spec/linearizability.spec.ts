/**
 * `timing-wheel/linearizability` against a brute force: on random small histories of a
 * register, a compare-and-set register, a key-value map, a FIFO queue and a
 * nondeterministic model, with overlapping calls, ties, `fail`s and `info`s, the checker's
 * verdict equals that of trying every order of every subset of the `info` operations
 * (an `info` may or may not take effect) against real-time order. The brute force shares
 * only the models' `step` with the checker: no list, no memo, no partitions, no "open to
 * the end". On `illegal`, the reported prefix must itself be a linearizable prefix.
 * Then examples, the readers, the JSON form and hostile input.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TimingWheelError } from '../lib/errors.js'
import {
  type History,
  type JepsenOp,
  type Model,
  type Operation,
  Jepsen,
  casRegister,
  checkLinearizable,
  decode,
  encode,
  fromEvents,
  keyValue,
  picture,
  queue,
  register,
  set,
} from '../lib/linearizability/index.js'

type Op = Operation<JepsenOp, JepsenOp>

/** Runs per model (LINEARIZABILITY_RUNS, LINEARIZABILITY_SEED for a longer or another sweep). */
const RUNS = Number(process.env['LINEARIZABILITY_RUNS'] ?? 400)
const SEED = Number(process.env['LINEARIZABILITY_SEED'] ?? 42)

/** Whether `h` has a linearization: every order of every subset of its `info` operations. */
const bruteForce = <S>(h: readonly Op[], model: Model<S, JepsenOp, JepsenOp>): boolean => {
  const equal = model.equal ?? ((a: S, b: S) => JSON.stringify(a) === JSON.stringify(b))
  const returnOf = (op: Op): number => (op.outcome === 'info' ? Infinity : op.return!)
  const must = h.filter((op) => op.outcome !== 'info')
  const maybe = h.filter((op) => op.outcome === 'info')
  for (let mask = 0; mask < 1 << maybe.length; mask++) {
    const chosen = [...must, ...maybe.filter((_, k) => (mask >> k) & 1)]
    const used = new Array<boolean>(chosen.length).fill(false)
    // Depth-first over orders: `a` may come next only if nothing unused returned before its call.
    const extend = (states: readonly S[], placed: number): boolean => {
      if (placed === chosen.length) return true
      for (let i = 0; i < chosen.length; i++) {
        const a = chosen[i]!
        if (used[i] || chosen.some((b, j) => !used[j] && j !== i && returnOf(b) < a.call)) continue
        const after: S[] = []
        for (const s of states) for (const t of model.step(s, a.input, a.output, a.outcome)) if (!after.some((u) => equal(u, t))) after.push(t)
        if (after.length === 0) continue
        used[i] = true
        const ok = extend(after, placed + 1)
        used[i] = false
        if (ok) return true
      }
      return false
    }
    if (extend([model.init], 0)) return true
  }
  return false
}

/** A model with its state type forgotten, so that the kinds share one list. */
const erase = <S>(m: Model<S, JepsenOp, JepsenOp>): Model<unknown, JepsenOp, JepsenOp> => m as unknown as Model<unknown, JepsenOp, JepsenOp>

/** A real object to run operations on: what a correct server answers. */
interface Kind {
  readonly name: string
  readonly model: Model<unknown, JepsenOp, JepsenOp>
  /** The model for the brute force, which does not partition: the key-value map as one map. */
  readonly whole?: Model<unknown, JepsenOp, JepsenOp>
  readonly input: (f: number, key: number, value: number) => JepsenOp
  /** The new state and the answer (`fail` when it did not happen). */
  readonly apply: (state: unknown, input: JepsenOp) => readonly [unknown, unknown, 'ok' | 'fail']
  readonly init: unknown
}

const kinds: readonly Kind[] = [
  {
    name: 'register',
    model: erase(register()),
    init: null,
    input: (f, _, value) => (f % 2 === 0 ? { f: 'read' } : { f: 'write', value }),
    apply: (s, i) => (i.f === 'read' ? [s, s, 'ok'] : [i.value, i.value, 'ok']),
  },
  {
    name: 'cas register',
    model: erase(casRegister()),
    init: null,
    input: (f, key, value) => (f === 0 ? { f: 'read' } : f === 1 ? { f: 'write', value } : { f: 'cas', value: [key === 0 ? null : value - 1, value] }),
    apply: (s, i) => {
      if (i.f === 'read') return [s, s, 'ok']
      if (i.f === 'write') return [i.value, i.value, 'ok']
      const [from, to] = i.value as [unknown, unknown]
      return from === s ? [to, i.value, 'ok'] : [s, i.value, 'fail']
    },
  },
  {
    name: 'key-value map',
    model: erase(keyValue()),
    whole: erase({
      init: {},
      step: (m: Readonly<Record<string, unknown>>, i: JepsenOp, o: JepsenOp | undefined, outcome) =>
        keyValue()
          .step(m[i.key as string] ?? null, i, o, outcome)
          .map((v) => ({ ...m, [i.key as string]: v })),
      equal: (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) =>
        [...new Set([...Object.keys(a), ...Object.keys(b)])].every((k) => (a[k] ?? null) === (b[k] ?? null)),
    }),
    init: {},
    input: (f, key, value) => (f === 0 ? { f: 'get', key: `k${key}` } : f === 1 ? { f: 'put', key: `k${key}`, value: `${value}` } : { f: 'append', key: `k${key}`, value: `${value}` }),
    apply: (s, i) => {
      const m = s as Record<string, string | null>
      const k = i.key as string
      if (i.f === 'get') return [m, m[k] ?? null, 'ok']
      const v = i.f === 'put' ? (i.value as string) : `${m[k] ?? ''}${i.value as string}`
      return [{ ...m, [k]: v }, i.value, 'ok']
    },
  },
  {
    name: 'queue',
    model: erase(queue()),
    init: [],
    input: (f, _, value) => (f % 2 === 0 ? { f: 'dequeue' } : { f: 'enqueue', value }),
    apply: (s, i) => {
      const q = s as readonly unknown[]
      if (i.f === 'enqueue') return [[...q, i.value], i.value, 'ok']
      return q.length === 0 ? [q, null, 'ok'] : [q.slice(1), q[0], 'ok']
    },
  },
  {
    // A register whose writes may be lost (a nondeterministic model): a write leaves the
    // new value or the old one.
    name: 'lossy register',
    model: erase<unknown>({
      init: null,
      step: (s, i, o, outcome) =>
        i.f === 'read' ? (outcome !== 'ok' || (o?.value ?? null) === s ? [s] : []) : outcome === 'fail' ? [s] : s === i.value ? [s] : [s, i.value],
    }),
    init: null,
    input: (f, _, value) => (f % 2 === 0 ? { f: 'read' } : { f: 'write', value }),
    apply: (s, i) => (i.f === 'read' ? [s, s, 'ok'] : [i.value, i.value, 'ok']),
  },
]

const opArb = fc.record({
  process: fc.nat(2),
  f: fc.nat(2),
  key: fc.nat(1),
  value: fc.nat(2),
  call: fc.nat(12),
  length: fc.nat(6),
  point: fc.double({ min: 0, max: 1, noNaN: true }),
  fate: fc.constantFrom('ok', 'ok', 'ok', 'info-applied', 'info-lost', 'fail', 'corrupt', 'corrupt'),
  wrong: fc.nat(3),
})

type Spec = typeof opArb extends fc.Arbitrary<infer T> ? T : never

/** A history made by running the operations at random instants within their intervals, some answers then corrupted. */
const historyOf = (kind: Kind, specs: readonly Spec[]) => {
  const order = specs.map((s, i) => ({ s, i, at: s.call + s.point * s.length })).sort((a, b) => a.at - b.at || a.i - b.i)
  let state = kind.init
  const ops = new Array<Op>(specs.length)
  let corrupted = false
  for (const { s, i } of order) {
    const input = kind.input(s.f, s.key, s.value)
    const [next, answer, outcome] = kind.apply(state, input)
    const base = { process: s.process, input, call: s.call, return: s.call + s.length }
    if (s.fate === 'info-applied' || s.fate === 'info-lost') {
      if (s.fate === 'info-applied') state = next
      ops[i] = { ...base, output: undefined, outcome: 'info' }
    } else if (s.fate === 'fail' && input.f !== 'cas') {
      ops[i] = { ...base, output: { f: input.f, value: null }, outcome: 'fail' }
    } else {
      state = outcome === 'ok' ? next : state
      const value = s.fate === 'corrupt' ? (s.wrong === 3 ? null : kind.name === 'key-value map' ? `${s.wrong}` : s.wrong) : answer
      corrupted ||= s.fate === 'corrupt'
      ops[i] = { ...base, output: { f: input.f, value }, outcome }
    }
  }
  return { history: ops as History<JepsenOp, JepsenOp>, corrupted }
}

/** Whether `prefix` (indices) is a linearizable prefix of `h`: real-time order and the model's steps. */
const isLinearizablePrefix = <S>(h: History<JepsenOp, JepsenOp>, model: Model<S, JepsenOp, JepsenOp>, prefix: readonly number[]): boolean => {
  const placed = new Set<number>()
  let states: readonly S[] = [model.init]
  for (const i of prefix) {
    const a = h[i]!
    if (h.some((b, j) => !placed.has(j) && j !== i && b.outcome !== 'info' && b.return! < a.call)) return false
    states = states.flatMap((s) => model.step(s, a.input, a.output, a.outcome))
    if (states.length === 0) return false
    placed.add(i)
  }
  return true
}

describe('checkLinearizable agrees with a brute force over all orders', () => {
  for (const kind of kinds) {
    it(`${kind.name}: random small histories with ties, fails, infos and wrong answers`, () => {
      let illegal = 0
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 1, maxLength: 6 }), (specs) => {
          const { history, corrupted } = historyOf(kind, specs)
          const expected = bruteForce(history, kind.whole ?? kind.model)
          const r = checkLinearizable(history, kind.model)
          expect(r.kind).toBe(expected ? 'ok' : 'illegal')
          if (!corrupted) expect(r.kind).toBe('ok')
          if (r.kind === 'ok') {
            // The linearization found is one: every operation once, in real-time order, each step allowed.
            expect(r.linearization.flat().sort((a, b) => a - b)).toEqual(history.map((_, i) => i))
            for (const order of r.linearization) {
              const part = [...order].sort((a, b) => a - b)
              expect(isLinearizablePrefix(part.map((i) => history[i]!), kind.model, order.map((i) => part.indexOf(i)))).toBe(true)
            }
          }
          if (r.kind === 'illegal') {
            illegal++
            const failure = r.failures[0]!
            const part = kind.model.partition === undefined ? history.map((_, i) => i) : history.map((_, i) => i).filter((i) => String(history[i]!.input.key) === String(history[failure.failing]!.input.key))
            const sub = part.map((i) => history[i]!)
            expect(isLinearizablePrefix(sub, kind.model, failure.prefix.map((i) => part.indexOf(i)))).toBe(true)
            expect(failure.prefix).not.toContain(failure.failing)
            expect(failure.words).toContain('cannot be placed')
          }
        }),
        { numRuns: RUNS, seed: SEED },
      )
      // The property is not vacuous: both verdicts came up.
      expect(illegal).toBeGreaterThan(RUNS / 20)
    })
  }
})

const op = (process: number, input: JepsenOp, output: JepsenOp | undefined, call: number, ret: number | undefined, outcome: 'ok' | 'fail' | 'info' = 'ok'): Op =>
  ret === undefined ? { process, input, output, outcome, call } : { process, input, output, outcome, call, return: ret }

describe('checkLinearizable examples', () => {
  it('intervals are closed: an operation returning at 2 overlaps one called at 2 (Porcupine)', () => {
    const h = [op(0, { f: 'write', value: 'y' }, undefined, 1, 2), op(1, { f: 'read' }, { f: 'read', value: null }, 2, 3)]
    expect(checkLinearizable(h, register()).kind).toBe('ok')
    expect(checkLinearizable([h[0]!, { ...h[1]!, call: 2.5 }], register()).kind).toBe('illegal')
  })

  it('a failed cas means its compare failed: it cannot be placed where the value matched', () => {
    const h = [op(0, { f: 'write', value: 1 }, undefined, 0, 1), op(1, { f: 'cas', value: [1, 2] }, { f: 'cas' }, 2, 3, 'fail'), op(0, { f: 'read' }, { f: 'read', value: 1 }, 4, 5)]
    const r = checkLinearizable(h, casRegister())
    expect(r.kind).toBe('illegal')
    if (r.kind === 'illegal') {
      expect(r.failures[0]!.failing).toBe(1)
      expect(r.failures[0]!.prefix).toEqual([0])
      expect(r.failures[0]!.words).toBe(
        'after 1 operation in a linearizable order (ending write(1) by 0), state 1, cas(1, 2) → fail by 1 [2, 3] cannot be placed: no order of the operations overlapping it explains its answer',
      )
    }
  })

  it('an info write may take effect late, or never', () => {
    const w = op(0, { f: 'write', value: 1 }, undefined, 0, 1, 'info')
    const read = (value: unknown, at: number) => op(1, { f: 'read' }, { f: 'read', value }, at, at + 1)
    expect(checkLinearizable([w, read(null, 5), read(1, 10)], register()).kind).toBe('ok')
    expect(checkLinearizable([w, read(null, 5), read(null, 10)], register()).kind).toBe('ok')
    expect(checkLinearizable([w, read(1, 5), read(null, 10)], register()).kind).toBe('illegal')
  })

  it('a key-value history is checked per key, and the failure names its part', () => {
    const h = [
      op(0, { f: 'put', key: 'a', value: 'x' }, undefined, 0, 1),
      op(1, { f: 'put', key: 'b', value: 'y' }, undefined, 0, 1),
      op(0, { f: 'get', key: 'b' }, { f: 'get', value: 'z' }, 2, 3),
    ]
    const r = checkLinearizable(h, keyValue())
    expect(r.kind === 'illegal' && r.failures[0]).toMatchObject({ part: 1, parts: 2, failing: 2, prefix: [1] })
  })

  it('allFailures reports every failing part, in part order', () => {
    const h = [
      op(0, { f: 'put', key: 'a', value: 'x' }, undefined, 0, 1),
      op(1, { f: 'get', key: 'b' }, { f: 'get', value: 'z' }, 0, 1),
      op(0, { f: 'get', key: 'a' }, { f: 'get', value: 'y' }, 2, 3),
    ]
    const r = checkLinearizable(h, keyValue(), { allFailures: true })
    expect(r.kind === 'illegal' && r.failures.map((f) => [f.part, f.failing])).toEqual([
      [0, 2],
      [1, 1],
    ])
    const first = checkLinearizable(h, keyValue())
    expect(first.kind === 'illegal' && first.failures).toHaveLength(1)
  })

  it('a set: reads see every add that returned before them', () => {
    const h = [op(0, { f: 'add', value: 1 }, undefined, 0, 1), op(1, { f: 'add', value: 2 }, undefined, 0, 4), op(2, { f: 'read' }, { f: 'read', value: [1] }, 2, 3)]
    expect(checkLinearizable(h, set()).kind).toBe('ok')
    expect(checkLinearizable([...h, op(2, { f: 'read' }, { f: 'read', value: [2] }, 5, 6)], set()).kind).toBe('illegal')
  })

  it('a timeout gives unknown, never a guess', () => {
    const h = Array.from({ length: 200 }, (_, i) => op(i, { f: 'write', value: i }, undefined, 0, 100))
    expect(checkLinearizable(h, register(), { timeout: 0 })).toEqual({ kind: 'unknown', reason: 'no answer within the 0 ms timeout' })
  })
})

describe('readers and the JSON form', () => {
  it('reads jepsen.util lines: :fail, :info and never-answered calls', () => {
    const h = Jepsen.readUtilLog(
      [
        'INFO  jepsen.core - relative time begins now',
        'INFO  jepsen.util - 0\t:invoke\t:write\t1',
        'INFO  jepsen.util - 1   :invoke :cas    [1 2]',
        'INFO  jepsen.util - 0\t:info\t:write\t:timed-out',
        'INFO  jepsen.util - 1\t:fail\t:cas\t[1 2]',
        'INFO  jepsen.util - 2\t:invoke\t:read\tnil',
      ].join('\n'),
    )
    expect(h).toEqual([
      { process: 0, input: { f: 'write', value: 1 }, output: undefined, outcome: 'info', call: 1, return: 3 },
      { process: 1, input: { f: 'cas', value: [1, 2] }, output: { f: 'cas', value: [1, 2] }, outcome: 'fail', call: 2, return: 4 },
      { process: 2, input: { f: 'read', value: null }, output: undefined, outcome: 'info', call: 5 },
    ])
  })

  it('reads EDN maps, skipping the nemesis, with :time as the stamp', () => {
    const h = Jepsen.readEdn(
      [
        '{:type :invoke, :f :read, :value nil, :process 0, :time 10}',
        '{:type :info, :f :start, :value nil, :process :nemesis, :time 11}',
        '{:type :ok, :f :read, :value 3, :process 0, :time 20}',
      ].join('\n'),
    )
    expect(h).toEqual([{ process: 0, input: { f: 'read', value: null }, output: { f: 'read', value: 3 }, outcome: 'ok', call: 10, return: 20 }])
  })

  it('round-trips the plain JSON form', () => {
    const h = [op(0, { f: 'write', value: 1 }, undefined, 0, 1), op(1, { f: 'read' }, undefined, 0, undefined, 'info')]
    const back = decode(JSON.parse(encode(h)))
    expect(back._tag).toBe('Right')
    if (back._tag === 'Right') expect(checkLinearizable(back.right as History<JepsenOp, JepsenOp>, register())).toEqual(checkLinearizable(h, register()))
  })

  it('pairs events by process; a second invoke leaves the first open', () => {
    expect(
      fromEvents([
        { type: 'invoke', process: 'a', value: 1, time: 0 },
        { type: 'invoke', process: 'a', value: 2, time: 1 },
        { type: 'ok', process: 'a', value: 3, time: 2 },
      ]),
    ).toEqual([
      { process: 'a', input: 1, output: undefined, outcome: 'info', call: 0 },
      { process: 'a', input: 2, output: 3, outcome: 'ok', call: 1, return: 2 },
    ])
  })
})

describe('hostile input: a TimingWheelError naming the value, nothing checked', () => {
  const good = op(0, { f: 'read' }, { f: 'read', value: null }, 0, 1)
  const cases: readonly [string, () => unknown, RegExp][] = [
    ['a history that is not an array', () => checkLinearizable('x' as never, register()), /array of operations, got "x"/],
    ['a NaN call', () => checkLinearizable([{ ...good, call: NaN }], register()), /operation 0's call must be a finite number, got NaN/],
    ['a return before its call', () => checkLinearizable([{ ...good, call: 5 }], register()), /return 1 is before its call 5/],
    ['an ok without a return', () => checkLinearizable([op(0, { f: 'read' }, undefined, 0, undefined)], register()), /is 'ok' but has no return/],
    ['an unknown outcome', () => checkLinearizable([{ ...good, outcome: 'maybe' as never }], register()), /outcome must be 'ok', 'fail' or 'info', got "maybe"/],
    ['a fractional process', () => checkLinearizable([{ ...good, process: 1.5 }], register()), /process must be a string or a safe integer, got 1.5/],
    ['a model without step', () => checkLinearizable([good], { init: 0 } as never), /a model must be an object with a step function/],
    ['a step that returns no array', () => checkLinearizable([good], { init: 0, step: () => 0 } as never), /step must return an array of states, got 0/],
    ['an unknown f', () => checkLinearizable([op(0, { f: 'frob' }, undefined, 0, 1)], register()), /f must be 'read' or 'write', got "frob"/],
    ['a negative timeout', () => checkLinearizable([good], register(), { timeout: -1 }), /timeout must be a number of ms in \[0, Infinity\], got -1/],
    ['a cut EDN line', () => Jepsen.readEdn('{:type :invoke, :process 0'), /line 1 must be an EDN map, got "{:type :invoke, :process 0"/],
    ['an EDN line with a bad type', () => Jepsen.readEdn('{:type :done, :process 0}'), /line 1's :type must be :invoke, :ok, :fail or :info, got "done"/],
    ['a picture of something not checked', () => picture([good], register(), { kind: 'maybe' } as never), /result must be what checkLinearizable returned, got \{"kind":"maybe"\}/],
        ['a completion with no call', () => Jepsen.readUtilLog('INFO  jepsen.util - 3\t:ok\t:read\t1'), /event 0 is a 'ok' of process 3, which has no open call/],
  ]
  for (const [name, run, message] of cases) {
    it(name, () => {
      let thrown: unknown
      try {
        run()
      } catch (e) {
        thrown = e
      }
      expect(thrown).toBeInstanceOf(TimingWheelError)
      expect((thrown as Error).message).toMatch(message)
    })
  }

  it('decode says where the JSON is not a history', () => {
    const r = decode([{ process: 0, input: null, output: null, outcome: 'ok', call: 'soon', return: 1 }])
    expect(r._tag === 'Left' && r.left.message).toMatch(/not a history: at 0.*call.*"soon"/)
  })
})
