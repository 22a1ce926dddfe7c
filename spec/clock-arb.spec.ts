/**
 * `clockArb` and the exploring clock: example tests of every function; a model-based test
 * against the virtual clock (with the empty plan, first in, first out and on time, they
 * agree on everything); the departures' own properties (never early, lateness bounded,
 * every order of a tie reachable, shrinking to one swapped pair, replay from a seed); bad
 * options refused; and a property exploring promise interleavings and timer orders at once.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VirtualClock } from '../lib/sim/index.js'
import { type Choice, type ExploringClock, clockArb, createExploringClock } from '../lib/testing/index.js'
import { expectCode } from './support/expect-error.js'

describe('the exploring clock, function by function', () => {
  it('setTimeout and clearTimeout; tick runs what is due, at its time, and rests at the end', () => {
    const clock = createExploringClock([], { now: 1000 })
    const seen: string[] = []
    clock.setTimeout((x: string) => seen.push(`${x}@${clock.now}`), 10, 'a')
    const b = clock.setTimeout(() => seen.push('b'), 5)
    clock.clearTimeout(b)
    expect(clock.countTimers()).toBe(1)
    expect(clock.tick(20)).toBe(1020)
    expect(seen).toEqual(['a@1010'])
    expect(clock.performance.now()).toBe(20)
  })

  it('setInterval and clearInterval; setImmediate and clearImmediate; animation frames', () => {
    const clock = createExploringClock([])
    const seen: string[] = []
    const every = clock.setInterval(() => seen.push(`i@${clock.now}`), 10)
    clock.setImmediate(() => seen.push(`imm@${clock.now}`))
    clock.clearImmediate(clock.setImmediate(() => seen.push('never')))
    clock.requestAnimationFrame((t) => seen.push(`frame@${t}`))
    clock.cancelAnimationFrame(clock.requestAnimationFrame(() => seen.push('never')))
    clock.tick(25)
    clock.clearInterval(every)
    clock.tick(100)
    expect(seen).toEqual(['imm@0', 'i@10', 'frame@16', 'i@20'])
  })

  it('next runs one timer; runAll runs until none waits, up to loopLimit; runToLast stops at the last', () => {
    const clock = createExploringClock([], { loopLimit: 5 })
    const seen: number[] = []
    clock.setTimeout(() => seen.push(clock.now), 30)
    clock.setTimeout(() => {
      seen.push(clock.now)
      clock.setTimeout(() => seen.push(clock.now), 100)
    }, 10)
    expect(clock.next()).toBe(10)
    clock.setTimeout(() => seen.push(clock.now), 500) // armed after runToLast's start: not waited for
    expect(clock.runToLast()).toBe(510)
    expect(seen).toEqual([10, 30, 110, 510])
    expect(clock.runAll()).toBe(510)
    clock.setInterval(() => {}, 1)
    expect(() => clock.runAll()).toThrow('Aborting after running 5 timers, assuming an infinite loop!')
  })

  it('the async moves let promise callbacks run between timers', async () => {
    const clock = createExploringClock([])
    const attempts: number[] = []
    const wait = (ms: number) => new Promise((resolve) => clock.setTimeout(resolve, ms))
    const retry = async (): Promise<void> => {
      for (let i = 0; i < 3; i++) {
        attempts.push(clock.now)
        await wait(1000)
      }
    }
    const done = retry()
    await clock.tickAsync(3000)
    await done
    expect(attempts).toEqual([0, 1000, 2000])
    void wait(5).then(() => wait(5))
    expect(await clock.nextAsync()).toBe(3005)
    expect(await clock.runAllAsync()).toBe(3010)
    clock.setTimeout(() => {}, 7)
    expect(await clock.runToLastAsync()).toBe(3017)
  })

  it('install puts its functions on a target and uninstall takes them out', () => {
    const target: { setTimeout: (f: () => void, ms: number) => unknown; clearTimeout: (id: unknown) => void; Date: { now: () => number } } = {
      setTimeout: () => 0,
      clearTimeout: () => {},
      Date: Object.assign(function Date() {}, { now: () => 5 }),
    }
    const original = target.setTimeout
    const clock = createExploringClock([], { now: 100 }).install(target)
    expect(target.setTimeout).not.toBe(original)
    expect(target.Date.now()).toBe(100)
    const seen: number[] = []
    target.setTimeout(() => seen.push(clock.now), 10)
    clock.tick(10)
    expect(seen).toEqual([110])
    clock.uninstall()
    expect(target.setTimeout).toBe(original)
    expect(target.Date.now()).toBe(5)
  })

  it('describe lists the departures it made, in words', () => {
    const clock = createExploringClock([[3, 0], [0, 4], [1, 0]])
    clock.setTimeout(() => {}, 10) // #1: ranked 3
    clock.setTimeout(() => {}, 6) // #2: 4 ms late, at 10
    clock.setTimeout(() => {}, 10) // #3: ranked 1
    clock.tick(10)
    expect(clock.describe()).toEqual([
      'setTimeout #2 (due at 6 ms) ran 4 ms late, at 10 ms',
      'setTimeout #2 ran before setTimeout #1, both at 10 ms',
      'setTimeout #3 ran before setTimeout #1, both at 10 ms',
    ])
    expect(clock.plan).toEqual([[3, 0], [0, 4], [1, 0]])
  })

  it('refuses to move from inside a callback, and moves past its range', () => {
    const clock = createExploringClock([])
    clock.setTimeout(() => expectCode('Reentrant', () => clock.tick(1)), 1)
    clock.tick(1)
    expectCode('TimeOutOfRange', () => clock.tick(2 ** 43))
    expect(clock.now).toBe(1)
  })
})

// ---- the model: the virtual clock, which the exploring clock must match with the empty plan ----

/** What both clocks offer, as the commands use it. */
interface ClockLike {
  readonly now: number
  setTimeout(callback: () => void, delay: number): unknown
  setInterval(callback: () => void, delay: number): unknown
  setImmediate(callback: () => void): unknown
  clearTimeout(id: unknown): void
  tick(ms: number): number
  next(): number
  runAll(): number
  runToLast(): number
  countTimers(): number
}

interface Sys {
  readonly clock: ClockLike
  readonly log: string[]
  readonly handles: unknown[]
}

/** A timer a command starts: its kind, delay, and what its callback does. */
interface Spec {
  readonly kind: 'setTimeout' | 'setInterval' | 'setImmediate'
  readonly delay: number
  readonly child?: { readonly delay: number } | undefined
  readonly clears?: number | undefined
}

const start = (sys: Sys, spec: Spec, label: string): void => {
  const { clock, log, handles } = sys
  const callback = (): void => {
    log.push(`${label}@${clock.now}`)
    if (spec.child !== undefined) clock.setTimeout(() => log.push(`${label}.child@${clock.now}`), spec.child.delay)
    if (spec.clears !== undefined) clock.clearTimeout(handles[spec.clears % handles.length])
  }
  // An interval of period 0 runs in place forever on the virtual clock (as on fake-timers);
  // the exploring clock makes it 1 ms: the programs keep periods of 1 ms or more.
  const delay = spec.kind === 'setInterval' ? Math.max(1, spec.delay) : spec.delay
  handles.push(spec.kind === 'setImmediate' ? clock.setImmediate(callback) : clock[spec.kind](callback, delay))
}

const attempt = (sys: Sys, what: string, f: () => unknown): void => {
  try {
    sys.log.push(`${what} -> ${String(f())}`)
  } catch (e) {
    sys.log.push(`${what} threw ${(e as Error).message}`)
  }
  sys.log.push(`count ${sys.clock.countTimers()} now ${sys.clock.now}`)
}

const commandsOn = (): fc.Arbitrary<Iterable<fc.Command<Sys, Sys>>> => {
  let labels = 0
  const spec: fc.Arbitrary<Spec> = fc.record(
    {
      kind: fc.constantFrom('setTimeout', 'setInterval', 'setImmediate'),
      // Half the delays tie, where the orders differ.
      delay: fc.oneof(fc.constantFrom(0, 10), fc.integer({ min: 0, max: 40 })),
      child: fc.option(fc.record({ delay: fc.integer({ min: 0, max: 20 }) }), { nil: undefined }),
      clears: fc.option(fc.nat(), { nil: undefined }),
    },
    { requiredKeys: ['kind', 'delay'] },
  )
  const both = (name: string, f: (sys: Sys) => void): fc.Command<Sys, Sys> => ({
    check: () => true,
    run: (model, real) => {
      f(model)
      f(real)
      expect(real.log).toEqual(model.log)
    },
    toString: () => name,
  })
  return fc.commands([
    spec.map((s) => {
      const label = `t${labels++}`
      return both(`${s.kind}(${s.delay}) ${label}`, (sys) => start(sys, s, label))
    }),
    fc.nat().map((i) =>
      both(`clear ${i}`, (sys) => sys.handles.length > 0 && attempt(sys, `clear ${i}`, () => sys.clock.clearTimeout(sys.handles[i % sys.handles.length]))),
    ),
    fc.integer({ min: 0, max: 60 }).map((ms) => both(`tick(${ms})`, (sys) => attempt(sys, `tick(${ms})`, () => sys.clock.tick(ms)))),
    fc.constantFrom('next', 'runAll', 'runToLast').map((m) => both(m, (sys) => attempt(sys, m, () => sys.clock[m]()))),
  ])
}

describe('with the empty plan, the exploring clock is the virtual clock (model-based)', () => {
  it('agrees on every callback, time, count and error', () => {
    fc.assert(
      fc.property(commandsOn(), (commands) => {
        const sys = (clock: ClockLike): Sys => ({ clock, log: [], handles: [] })
        fc.modelRun(() => ({ model: sys(VirtualClock.create({ loopLimit: 50 })), real: sys(createExploringClock([], { loopLimit: 50 })) }), commands)
      }),
      { numRuns: 1000 },
    )
  })

  it('as is every clock clockArb draws with ties fifo and no lateness', () => {
    fc.assert(
      fc.property(clockArb({ ties: 'fifo', loopLimit: 50 }), commandsOn(), (clock, commands) => {
        const sys = (c: ClockLike): Sys => ({ clock: c, log: [], handles: [] })
        fc.modelRun(() => ({ model: sys(VirtualClock.create({ loopLimit: 50 })), real: sys(clock) }), commands)
      }),
      { numRuns: 500 },
    )
  })
})

describe('departures', () => {
  /** Timers with random delays, some nested; every callback checks when it runs against its due time. */
  const program = fc.array(fc.record({ delay: fc.integer({ min: 0, max: 50 }), nested: fc.integer({ min: -1, max: 30 }) }), { maxLength: 30 })

  it('are never early, and late by at most maxLateness', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.constantFrom('fifo', 'any' as const), program, (maxLateness, ties, timers) => {
        const [clock] = fc.sample(clockArb({ maxLateness, ties }), { numRuns: 1, seed: maxLateness })
        const lateness: number[] = []
        const set = (delay: number, then?: () => void): void => {
          const due = clock!.now + delay
          clock!.setTimeout(() => {
            lateness.push(clock!.now - due)
            then?.()
          }, delay)
        }
        for (const t of timers) set(t.delay, t.nested < 0 ? undefined : () => set(t.nested + 1))
        clock!.runAll()
        expect(lateness).toHaveLength(timers.length + timers.filter((t) => t.nested >= 0).length)
        for (const late of lateness) {
          expect(late).toBeGreaterThanOrEqual(0)
          expect(late).toBeLessThanOrEqual(maxLateness)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('reach every order of three timers due together', () => {
    const orders = new Set<string>()
    for (const clock of fc.sample(clockArb(), { numRuns: 300, seed: 42 })) {
      const seen: string[] = []
      for (const name of ['a', 'b', 'c']) clock.setTimeout(() => seen.push(name), 10)
      clock.tick(10)
      orders.add(seen.join(''))
    }
    expect([...orders].sort()).toEqual(['abc', 'acb', 'bac', 'bca', 'cab', 'cba'])
  })

  it('shrink a tie bug to a single swapped pair', () => {
    const details = fc.check(
      fc.property(clockArb(), (clock) => {
        const seen: string[] = []
        clock.setTimeout(() => seen.push('expire'), 100)
        clock.setTimeout(() => seen.push('refresh'), 100)
        clock.setTimeout(() => seen.push('unrelated'), 200)
        clock.tick(300)
        return seen[0] === 'expire'
      }),
    )
    expect(details.failed).toBe(true)
    expect(details.counterexample![0].describe()).toEqual(['setTimeout #2 ran before setTimeout #1, both at 100 ms'])
    expect(fc.stringify(details.counterexample![0])).toBe('clockArb(setTimeout #2 ran before setTimeout #1, both at 100 ms; plan [[1,0]])')
  })

  it('replay from fast-check’s seed and path', () => {
    const property = fc.property(clockArb({ maxLateness: 30 }), (clock) => {
      const seen: number[] = []
      for (let i = 0; i < 5; i++) clock.setTimeout(() => seen.push(i), 10 * i)
      clock.runAll()
      return seen.join() === '0,1,2,3,4'
    })
    const first = fc.check(property, { seed: 7 })
    expect(first.failed).toBe(true)
    const again = fc.check(property, { seed: 7, path: first.counterexamplePath! })
    expect(String(again.counterexample![0])).toBe(String(first.counterexample![0]))
    // A fresh clock with the same plan makes the same choices.
    const replay = createExploringClock(first.counterexample![0].plan)
    const seen: number[] = []
    for (let i = 0; i < 5; i++) replay.setTimeout(() => seen.push(i), 10 * i)
    replay.runAll()
    expect(replay.describe()).toEqual(first.counterexample![0].describe())
  })
})

describe('bad options and plans', () => {
  it('are refused with InvalidArgument, naming the value', () => {
    for (const options of [{ ties: 'lifo' }, { maxLateness: -1 }, { maxLateness: 1.5 }, { maxLateness: Number.NaN }, { maxArmings: -1 }, { loopLimit: 0 }]) {
      expect(expectCode('InvalidArgument', () => clockArb(options as never))).toContain(String(Object.values(options)[0]))
    }
    for (const plan of [null, [[512, 0]], [[0, -1]], [[0.5, 0]], [['1', 0]], [[0]]]) {
      expectCode('InvalidArgument', () => createExploringClock(plan as unknown as Choice[]))
    }
    expect(() => createExploringClock([], { now: Number.NaN })).toThrow(RangeError)
  })
})

describe('with fc.scheduler', () => {
  /**
   * Fetches until it succeeds, waiting 100 ms between attempts, until a deadline. The bug:
   * the deadline is a timer whose flag the loop reads after each wait, and the wait that
   * ends at the deadline ties with it; on a FIFO clock the deadline (armed first) always
   * wins, elsewhere one more attempt starts. The fix reads the time instead.
   */
  const retryUntil = async (clock: ExploringClock, fetch: () => Promise<boolean>, deadlineMs: number, fixed: boolean): Promise<number> => {
    let expired = false
    const deadline = clock.setTimeout(() => (expired = true), deadlineMs)
    let attempts = 0
    for (;;) {
      attempts++
      if (await fetch()) break
      await new Promise((resolve) => clock.setTimeout(resolve, 100))
      if (fixed ? clock.now >= deadlineMs : expired) break
    }
    clock.clearTimeout(deadline)
    return attempts
  }

  const attemptsBeforeDeadline = (ties: 'fifo' | 'any', fixed: boolean) =>
    fc.asyncProperty(fc.scheduler(), clockArb({ ties }), fc.integer({ min: 1, max: 4 }), async (s, clock, k) => {
      const fetch = s.scheduleFunction(async () => false)
      let attempts: number | undefined
      void retryUntil(clock, fetch, 100 * k, fixed).then((n) => (attempts = n))
      while (attempts === undefined) {
        await s.waitAll()
        await clock.nextAsync()
      }
      return attempts === k
    })

  it('explores promise interleavings and timer orders in one property', async () => {
    await fc.assert(attemptsBeforeDeadline('fifo', false), { numRuns: 100 })
    const details = await fc.check(attemptsBeforeDeadline('any', false), { numRuns: 100 })
    expect(details.failed).toBe(true)
    expect(details.counterexample![1].describe()).toEqual([expect.stringMatching(/^setTimeout #\d+ ran before setTimeout #1, both at \d+ ms$/)])
    await fc.assert(attemptsBeforeDeadline('any', true), { numRuns: 200 })
  })
})
