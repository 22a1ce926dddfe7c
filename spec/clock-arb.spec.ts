/**
 * `clockArb`, `withClock` and the exploring schedule: examples of every function and of
 * each runtime rule; a model-based test that, with the empty plan, the exploring clock is
 * the `timing-wheel/fake-timers` clock; a model-based test that every schedule drawn is one
 * the runtime's rules allow, checked by a checker written from the rules, not from the
 * explorer; the words of a counterexample; bad options refused.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createClock } from '../lib/fake-timers/index.js'
import { type ExploringClock, type Plan, clockArb, createExploringClock, defaultNow, exploreSchedules, withClock } from '../lib/testing/index.js'
import { rules } from '../lib/testing/runtime-model.js'
import { expectCode } from './support/expect-error.js'
import { programArb, runOn } from './support/timer-programs.js'
import { stateOf } from '../lib/sim/accessors.js'
import * as Schedule from '../lib/sim/schedule.js'
import type * as VirtualClock from '../lib/sim/virtual-clock.js'

const empty: Plan = { stalls: [], picks: [] }

describe('the exploring clock is the fake-timers clock', () => {
  it('with Date, performance, microtasks and the moves; the default now is a fixed realistic date', () => {
    const clock = createExploringClock(empty)
    expect(clock.now).toBe(defaultNow)
    expect(new clock.Date().toISOString()).toBe('2026-03-14T15:09:26.535Z')
    const seen: string[] = []
    clock.setTimeout((x: string) => seen.push(`${x}@${clock.performance!.now()}`), 10, 'a')
    clock.queueMicrotask(() => seen.push('job'))
    clock.setImmediate(() => seen.push('imm'))
    clock.tick(10)
    expect(seen).toEqual(['job', 'imm', 'a@10'])
    expect(new clock.Date().getTime()).toBe(defaultNow + 10)
  })

  it('withClock installs the clock for a sync body and uninstalls it, also when it throws', () => {
    const realSetTimeout = globalThis.setTimeout
    const realNow = Date.now
    const clock = createExploringClock(empty)
    const ran = withClock((c: ExploringClock) => {
      expect(Date.now()).toBe(defaultNow)
      let fired = 0
      setTimeout(() => fired++, 5)
      c.tick(5)
      return fired
    })(clock)
    expect(ran).toBe(1)
    expect(globalThis.setTimeout).toBe(realSetTimeout)
    expect(() => withClock(() => { throw new Error('boom') })(createExploringClock(empty))).toThrow('boom')
    expect(Date.now).toBe(realNow)
  })

  it('withClock uninstalls an async body when its promise settles', async () => {
    const realSetTimeout = globalThis.setTimeout
    const body = withClock(async (clock: ExploringClock) => {
      const done = new Promise((resolve) => setTimeout(resolve, 10, 'late'))
      await clock.tickAsync(20)
      return done
    })
    expect(await body(createExploringClock(empty))).toBe('late')
    expect(globalThis.setTimeout).toBe(realSetTimeout)
  })
})

describe("Node's rules", () => {
  it('immediates put after a stalled batch run after it, late by the stall, as members of that batch', () => {
    // The first stall is the timeout's read (0), the second the batch's (1); the pick puts the immediate after the timers.
    const clock = createExploringClock({ stalls: [0, 1], picks: [1] }, { maxStall: 6, now: 0 })
    const seen: string[] = []
    clock.setImmediate(() => seen.push(`immediate@${clock.now}`))
    clock.setTimeout(() => seen.push(`timeout@${clock.now}`), 0)
    clock.tick(200)
    expect(seen).toEqual(['timeout@1', 'immediate@2'])
    // The immediate's reason is its batch's stall: the batch is not over until it has run.
    expect(clock.runs().map((r) => r.why)).toEqual([rules.immediates, rules.stall('node', 1)])
  })

  it('a stall runs everything due, late, never one timer late alone; intervals re-arm from the start of their callback', () => {
    const clock = createExploringClock({ stalls: [0, 0, 30], picks: [] }, { maxStall: 30, now: 0 })
    const seen: string[] = []
    clock.setInterval(() => seen.push(`interval@${clock.now}`), 100)
    clock.setTimeout(() => seen.push(`t110@${clock.now}`), 110)
    clock.tick(400)
    // Measured on Node: a 100 ms interval whose first tick ran 30 ms late ticked at 130, 230, 331.
    expect(seen).toEqual(['interval@130', 't110@130', 'interval@230', 'interval@330'])
  })

  it('after a stall a due list runs whole: a timer due at 160 runs before one due at 150', () => {
    const clock = createExploringClock({ stalls: [0, 0, 0, 20], picks: [] }, { maxStall: 20, now: 0 })
    const seen: string[] = []
    clock.tick(40)
    clock.setTimeout(() => seen.push('a140'), 100)
    clock.tick(20)
    clock.setTimeout(() => seen.push('a160'), 100)
    clock.tick(40)
    clock.setTimeout(() => seen.push('b150'), 50)
    clock.tick(200)
    expect(seen).toEqual(['a140', 'a160', 'b150'])
    expect(clock.departures()).toEqual([
      expect.stringMatching(/^setTimeout\(…, 100\) armed at 40 ms by .*clock-arb\.spec\.ts:\d+:\d+.*, due at 140 ms, ran at 160 ms, 20 ms late: the event loop stalled 20 ms/),
      expect.stringMatching(/^setTimeout\(…, 100\) armed at 60 ms .*due at 160 ms, ran at 160 ms, before setTimeout\(…, 50\) armed at 100 ms, due at 150 ms: a due list runs whole/),
      expect.stringMatching(/^setTimeout\(…, 50\) armed at 100 ms .*due at 150 ms, ran at 160 ms, 10 ms late/),
    ])
  })

  it('timers of one duration never reorder, whatever the plan', () => {
    fc.assert(
      fc.property(clockArb({ maxStall: 50 }), fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 8 }), (clock, gaps) => {
        const seen: number[] = []
        gaps.forEach((gap, i) => {
          clock.setTimeout(() => seen.push(i), 100)
          clock.tick(gap)
        })
        clock.runAll()
        return seen.join() === gaps.map((_, i) => i).join()
      }),
      { numRuns: 200 },
    )
  })

  it('lists due together run either way; setImmediate and setTimeout(0) either way', () => {
    const orders = new Set<string>()
    for (const picks of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const clock = createExploringClock({ stalls: [], picks }, { maxStall: 0, now: 0 })
      const seen: string[] = []
      clock.setTimeout(() => seen.push('t100'), 100)
      clock.tick(50)
      clock.setTimeout(() => {
        seen.push('t50')
        clock.setImmediate(() => seen.push('imm'))
        clock.setTimeout(() => seen.push('t0'), 0)
      }, 50)
      clock.tick(100)
      orders.add(seen.join())
    }
    expect([...orders].sort()).toEqual(['t100,t50,imm,t0', 't100,t50,t0,imm', 't50,t100,imm,t0', 't50,t100,t0,imm'])
  })
})

describe("browsers' rules", () => {
  it('a timer waits only for earlier timers with an equal or smaller timeout', () => {
    const orders = new Set<string>()
    for (const picks of [[0, 0], [0, 1], [1, 0], [1, 1]]) {
      const clock = createExploringClock({ stalls: [10], picks }, { runtime: 'browser', maxStall: 10, now: 0 })
      const seen: string[] = []
      clock.setTimeout(() => seen.push('a20'), 20)
      clock.setTimeout(() => seen.push('b10'), 10)
      clock.setTimeout(() => seen.push('c15'), 15)
      clock.tick(30)
      orders.add(seen.join())
    }
    // b10 may overtake a20 (larger timeout); c15 never overtakes b10 (armed before, smaller).
    expect([...orders].sort()).toEqual(['a20,b10,c15', 'b10,a20,c15', 'b10,c15,a20'])
  })

  it('clamps timeouts under 4 ms to 4 ms past five nesting levels', () => {
    const clock = createExploringClock(empty, { runtime: 'browser', now: 0 })
    const at: number[] = []
    const nest = (): void => {
      at.push(clock.now)
      if (at.length < 9) clock.setTimeout(nest, 0)
    }
    clock.setTimeout(nest, 0)
    clock.runAll()
    expect(at).toEqual([0, 1, 2, 3, 4, 5, 9, 13, 17])
  })
})

// ---- model-based: with the empty plan, the exploring clock is the fake-timers clock ----

interface Sys {
  readonly clock: ReturnType<typeof createClock>
  readonly log: string[]
  readonly handles: unknown[]
  /** What the checker needs: every arming and every run, in the program's own terms. */
  readonly trace: Event[]
  readonly start: number
  inCallback: boolean
  /** The nesting level of the callback running (browsers), 0 at rest. */
  level: number
  readonly browser: boolean
}

type Event =
  | {
      readonly type: 'arm'
      readonly label: string
      readonly kind: 'timeout' | 'interval' | 'immediate'
      readonly list: number
      readonly armedAt: number
      /** The due time; with `floating`, the earliest it can be (Node: an arming reads a later time, in a callback or at rest). */
      readonly due: number
      readonly period: number
      readonly floating?: boolean
    }
  | { readonly type: 'run'; readonly label: string; readonly at: number }
  | { readonly type: 'clear'; readonly label: string }

interface Spec {
  readonly kind: 'setTimeout' | 'setInterval' | 'setImmediate'
  readonly delay: number
  readonly child?: number | undefined
  readonly clears?: number | undefined
}

const elapsed = (sys: Sys): number => sys.clock.now - sys.start

/** HTML's nesting clamp, restated here: past 5 levels a timeout under 4 ms is 4 ms. */
const clamp = (sys: Sys, offset: number, parent: number): number => (sys.browser && parent > 5 && offset < 4 ? 4 : offset)

const arm = (sys: Sys, kind: Spec['kind'], delay: number, label: string, then: () => void): unknown => {
  const { clock, trace } = sys
  const armedAt = elapsed(sys)
  const parent = sys.inCallback ? sys.level : 0
  let level = parent + 1
  const period = kind === 'setInterval' ? Math.max(1, delay) : 0
  const callback = (): void => {
    trace.push({ type: 'run', label, at: elapsed(sys) })
    sys.log.push(`${label}@${elapsed(sys)}`)
    const was = [sys.inCallback, sys.level] as const
    const from = trace.length
    sys.inCallback = true
    sys.level = level
    try {
      then()
    } finally {
      ;[sys.inCallback, sys.level] = was
    }
    if (kind === 'setInterval' && !trace.slice(from).some((e) => e.type === 'clear' && e.label === label)) {
      const at = elapsed(sys)
      const next = clamp(sys, period, level)
      level++
      trace.push({ type: 'arm', label, kind: 'interval', list: next, armedAt: at, due: at + next, period, floating: !sys.browser })
    }
  }
  if (kind === 'setImmediate') {
    trace.push({ type: 'arm', label, kind: 'immediate', list: -1, armedAt, due: armedAt + (sys.inCallback ? 1 : 0), period: 0 })
    return clock.setImmediate(callback)
  }
  const first = kind === 'setInterval' ? period : delay
  // fake-timers (browsers' model): a 0 ms delay armed from a callback is 1 ms; Node: always 1 ms.
  const offset = clamp(sys, first === 0 && (sys.inCallback || !sys.browser) ? 1 : first, parent)
  // Node: every arming reads a fresh time, in a callback or at rest (runtime-model.ts).
  const floating = !sys.browser
  trace.push({ type: 'arm', label, kind: kind === 'setInterval' ? 'interval' : 'timeout', list: offset, armedAt, due: armedAt + offset, period, floating })
  return clock[kind](callback, first)
}

const start = (sys: Sys, spec: Spec, label: string): void => {
  sys.handles.push({
    label,
    kind: spec.kind,
    id: arm(sys, spec.kind, spec.delay, label, () => {
      if (spec.child !== undefined) arm(sys, 'setTimeout', spec.child, `${label}.c${sys.trace.length}`, () => {})
      if (spec.clears !== undefined && sys.handles.length > 0) clear(sys, spec.clears)
    }),
  })
}

const clear = (sys: Sys, i: number): void => {
  const h = sys.handles[i % sys.handles.length] as { label: string; kind: Spec['kind']; id: unknown }
  sys.trace.push({ type: 'clear', label: h.label })
  if (h.kind === 'setImmediate') sys.clock.clearImmediate(h.id)
  else sys.clock.clearTimeout(h.id)
}

const attempt = (sys: Sys, what: string, f: () => unknown): void => {
  try {
    sys.log.push(`${what} -> ${String(f())}`)
  } catch (e) {
    sys.log.push(`${what} threw ${(e as Error).message}`)
  }
  sys.log.push(`count ${sys.clock.countTimers()} now ${elapsed(sys)}`)
}

const newSys = (clock: Sys['clock'], browser = false): Sys => ({ clock, log: [], handles: [], trace: [], start: clock.now, inCallback: false, level: 0, browser })

/**
 * Steps of a program. With `apart`, delays are at least 1 ms (Node's 0 is 1 ms, fake-timers'
 * 0 at rest is due at once), intervals have periods of 25 ms or more and children delays of 20 or less: an interval and a timer its callback arms never share a list,
 * where Node (and the exploring schedule) run the timer first, since the interval re-arms
 * after its callback, and the fake-timers clock runs the interval first.
 */
const named = (name: string, f: (sys: Sys) => void): ((sys: Sys) => void) => Object.assign(f, { toString: () => name })

const stepArb = (apart = false): fc.Arbitrary<(sys: Sys) => void> => {
  const spec: fc.Arbitrary<Spec> = fc.record(
    {
      kind: fc.constantFrom('setTimeout', 'setInterval', 'setImmediate'),
      delay: fc.oneof(fc.constantFrom(0, 10, 20, 25), fc.integer({ min: 0, max: 40 })),
      child: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
      clears: fc.option(fc.nat(), { nil: undefined }),
    },
    { requiredKeys: ['kind', 'delay'] },
  )
  return fc.oneof(
    { weight: 3, arbitrary: spec.map((s) => named(JSON.stringify(s), (sys) => start(sys, apart ? { ...s, delay: s.kind === 'setInterval' ? 25 + (s.delay % 16) : Math.max(1, s.delay) } : s, `t${sys.handles.length}`))) },
    { weight: 1, arbitrary: fc.nat().map((i) => named(`clear ${i}`, (sys) => void (sys.handles.length > 0 && clear(sys, i)))) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 60 }).map((ms) => named(`tick(${ms})`, (sys) => attempt(sys, `tick(${ms})`, () => sys.clock.tick(ms) - sys.start))) },
    { weight: 1, arbitrary: fc.constantFrom('next', 'runToLast').map((m) => named(m, (sys) => attempt(sys, m, () => sys.clock[m]() - sys.start))) },
  )
}

const program = (apart = false): fc.Arbitrary<Array<(sys: Sys) => void>> => fc.array(stepArb(apart), { maxLength: 25 })

/**
 * Commands on an exploring clock, the model being the runtime's rules: after each one,
 * the trace so far must be one `allows` accepts.
 */
const checkedCommands = (allows: (trace: readonly Event[], final: boolean) => string | undefined) =>
  fc.commands(
    [
      stepArb().map((step): fc.Command<object, Sys> => ({
        check: () => true,
        run: (_model, sys) => {
          step(sys)
          const verdict = allows(sys.trace, false)
          if (verdict !== undefined) throw new Error(`${verdict}\n${JSON.stringify(sys.trace)}`)
        },
        toString: () => String(step),
      })),
    ],
    { maxCommands: 25 },
  )

describe('with the empty plan, the exploring clock is the fake-timers clock (model-based)', () => {
  it('agrees on every callback, time, count and error', () => {
    fc.assert(
      fc.property(fc.commands([program(true).map((steps): fc.Command<Sys, Sys> => ({
        check: () => true,
        run: (model, real) => {
          for (const step of steps) {
            step(model)
            step(real)
          }
          expect(real.log).toEqual(model.log)
        },
        toString: () => steps.join('; '),
      }))], { maxCommands: 3 }), (commands) => {
        fc.modelRun(() => ({ model: newSys(createClock(0, 200)), real: newSys(createExploringClock(empty, { now: 0, loopLimit: 200 })) }), commands)
      }),
      { numRuns: 300 },
    )
  })
})

// ---- model-based: every schedule drawn is one the runtime allows ----

/**
 * Checks a trace against Node's rules as `runtime-model.ts` states them, from the trace
 * alone: never early; one list per duration in arming order; a batch (runs at one time)
 * holds every timer due by then (immediates may go 1 ms after it), lists whole, by their
 * heads' due times; an interval's next due time is its run's time plus its period.
 */
const nodeAllows = (trace: readonly Event[], final = true): string | undefined => {
  const pending = new Map<string, Extract<Event, { type: 'arm' }>>()
  const seq = new Map<Event, number>()
  trace.forEach((e, i) => seq.set(e, i))
  // A list keeps its place (its expiry) when its head is cleared, until the list runs (Node's unenroll).
  let batch: { at: number; lists: number[]; heads: number[]; due: Set<Event>; expiry: Map<number, number> } | undefined
  const close = (): string | undefined => {
    for (const a of batch?.due ?? []) if (pending.get((a as { label: string }).label) === a) return `${(a as { label: string }).label} due by ${batch!.at} left behind by the batch at ${batch!.at}`
    return undefined
  }
  for (const e of trace) {
    if (e.type === 'arm') pending.set(e.label, e)
    else if (e.type === 'clear') pending.delete(e.label)
    else {
      const a = pending.get(e.label)
      if (a === undefined) return `${e.label} ran but was not pending`
      if (e.at < a.due) return `${e.label} ran at ${e.at}, before its due time ${a.due}`
      for (const b of pending.values()) if (b !== a && b.list === a.list && seq.get(b)! < seq.get(a)!) return `${e.label} overtook ${b.label} of its own list`
      // A timer armed after the batch started, due at its time (0 ms at rest), runs after it.
      if (batch === undefined || batch.at !== e.at || (a.kind !== 'immediate' && !a.floating && !batch.due.has(a))) {
        const left = close()
        if (left !== undefined) return left
        // Everything due by a batch's time runs in it (immediates may go 1 ms after).
        // A floating due time is only a floor: whether it was due by then is not known.
        const due = [...pending.values()].filter((b) => b.kind !== 'immediate' && !b.floating && b.due <= e.at)
        const expiry = new Map<number, number>()
        for (const b of due) expiry.set(b.list, Math.min(expiry.get(b.list) ?? Infinity, b.due))
        batch = { at: e.at, lists: [], heads: [], due: new Set(due), expiry }
      }
      if (a.kind !== 'immediate') {
        if (batch.lists[batch.lists.length - 1] !== a.list) {
          if (batch.lists.includes(a.list)) return `list ${a.list} split in the batch at ${e.at}`
          const head = batch.heads[batch.heads.length - 1]
          const expiry = batch.expiry.get(a.list) ?? a.due
          if (head !== undefined && expiry < head && !a.floating) return `list ${a.list} (head due ${expiry}) ran after a list whose head is due ${head}`
          batch.lists.push(a.list)
          batch.heads.push(expiry)
        }
      }
      pending.delete(e.label)
    }
  }
  // A batch may still be running (next() runs one timer of it): judged when it ends.
  return final ? close() : undefined
}

/**
 * Checks a trace against the browser's rules: never early; a timer never runs before an
 * earlier-armed one with an equal or smaller timeout that is still pending; a batch holds
 * every timer due by its time. The trace's due times carry the nesting clamp.
 */
const browserAllows = (trace: readonly Event[], final = true): string | undefined => {
  const pending = new Map<string, Extract<Event, { type: 'arm' }>>()
  const seq = new Map<Event, number>()
  trace.forEach((e, i) => seq.set(e, i))
  let batch: { at: number; due: Set<Event> } | undefined
  const close = (): string | undefined => {
    for (const a of batch?.due ?? []) if (pending.get((a as { label: string }).label) === a) return `${(a as { label: string }).label} left behind by the batch at ${batch!.at}`
    return undefined
  }
  for (const e of trace) {
    if (e.type === 'arm') pending.set(e.label, e)
    else if (e.type === 'clear') pending.delete(e.label)
    else {
      const a = pending.get(e.label)
      if (a === undefined) return `${e.label} ran but was not pending`
      if (e.at < a.due) return `${e.label} ran at ${e.at}, before its due time ${a.due}`
      for (const b of pending.values()) {
        if (b !== a && b.kind !== 'immediate' && a.kind !== 'immediate' && b.list <= a.list && seq.get(b)! < seq.get(a)!) return `${e.label} did not wait for ${b.label}`
      }
      if (batch === undefined || batch.at !== e.at || (a.kind !== 'immediate' && !batch.due.has(a))) {
        const left = close()
        if (left !== undefined) return left
        batch = { at: e.at, due: new Set([...pending.values()].filter((b) => b.kind !== 'immediate' && b.due <= e.at)) }
      }
      pending.delete(e.label)
    }
  }
  // A batch may still be running (next() runs one timer of it): judged when it ends.
  return final ? close() : undefined
}

describe('every schedule clockArb draws is one the runtime allows (model-based)', () => {
  it("Node: checked by the rules' own checker", () => {
    fc.assert(
      fc.property(clockArb({ maxStall: 25, loopLimit: 200 }), checkedCommands(nodeAllows), (clock, commands) => {
        const sys = newSys(clock)
        fc.modelRun(() => ({ model: {}, real: sys }), commands)
        sys.clock.runToLast()
        expect(nodeAllows(sys.trace)).toBeUndefined()
      }),
      { numRuns: 300 },
    )
  })

  it("browsers: checked by the rules' own checker", () => {
    fc.assert(
      fc.property(clockArb({ runtime: 'browser', maxStall: 25, loopLimit: 200 }), checkedCommands(browserAllows), (clock, commands) => {
        const sys = newSys(clock, true)
        fc.modelRun(() => ({ model: {}, real: sys }), commands)
        sys.clock.runToLast()
        expect(browserAllows(sys.trace)).toBeUndefined()
      }),
      { numRuns: 300 },
    )
  })

  it('the checker is not vacuous: it refuses the old exploring clock\'s orders', () => {
    const arm = (label: string, list: number, due: number, armedAt = 0): Event => ({ type: 'arm', label, kind: 'timeout', list, armedAt, due, period: 0 })
    expect(nodeAllows([arm('a', 100, 100), arm('b', 100, 100), { type: 'run', label: 'b', at: 100 }, { type: 'run', label: 'a', at: 100 }])).toMatch(/overtook a of its own list/)
    expect(nodeAllows([arm('a', 100, 100), arm('b', 10, 110), { type: 'run', label: 'b', at: 110 }])).toMatch(/a due by 110 left behind/)
    expect(nodeAllows([arm('a', 5, 5), arm('b', 3, 3), { type: 'run', label: 'a', at: 6 }, { type: 'run', label: 'b', at: 6 }])).toMatch(/head due 3\) ran after/)
    expect(nodeAllows([arm('a', 5, 5), arm('b', 3, 3), { type: 'run', label: 'b', at: 6 }, { type: 'run', label: 'a', at: 6 }])).toBeUndefined()
  })
})

describe('counterexamples', () => {
  it('print only the departures, in words, shrunk to the fewest and shortest stalls', () => {
    // Two sends planned 100 ms apart when they arrive; checked by the time each one starts.
    const details = fc.check(
      fc.property(clockArb({ maxStall: 40 }), withClock((clock: ExploringClock) => {
        const starts: number[] = []
        setTimeout(() => starts.push(Date.now()), 1)
        setTimeout(() => starts.push(Date.now()), 101)
        clock.tick(300)
        return starts[1]! - starts[0]! >= 100
      })),
      { seed: 7 },
    )
    expect(details.failed).toBe(true)
    const words = fc.stringify(details.counterexample![0])
    expect(words).toMatch(/^clockArb\(\{"runtime":"node","maxStall":40,"plan":\{"stalls":\[0,0,1\],"picks":\[\]\}\}\):\n {2}- setTimeout\(…, 1\) armed at 0 ms by .*clock-arb\.spec\.ts:\d+:\d+.*, due at 1 ms, ran at 2 ms, 1 ms late: the event loop stalled 1 ms/)
    expect(words.split('\n')).toHaveLength(2)
  })
})

describe('bad options', () => {
  it('are refused with InvalidArgument, naming the value', () => {
    for (const options of [{ runtime: 'deno' }, { maxStall: -1 }, { maxStall: 1.5 }, { loopLimit: 0 }, { plan: { stalls: [-1], picks: [] } }, { plan: [] }]) {
      expect(expectCode('InvalidArgument', () => clockArb(options as never))).toContain(JSON.stringify(Object.values(options)[0]))
    }
    expectCode('InvalidArgument', () => createExploringClock(empty).install({ now: 5 } as never))
    expect(expectCode('InvalidArgument', () => createExploringClock(empty, { now: Number.NaN }))).toContain('NaN')
    expect(expectCode('InvalidArgument', () => createExploringClock(undefined as never))).toContain('plan undefined')
    expect(expectCode('InvalidArgument', () => createExploringClock(empty, 'node' as never))).toContain('"node"')
    expect(expectCode('InvalidArgument', () => createExploringClock(empty, [] as never))).toContain('options []')
    expect(expectCode('InvalidArgument', () => createExploringClock({ stalls: [1.5], picks: [] }))).toContain('1.5')
    expect(expectCode('InvalidArgument', () => createExploringClock({ stalls: [], picks: null } as never))).toContain('null')
  })

  it('anything as options or plan: a clock, or InvalidArgument, nothing else (hostile input)', () => {
    const option = fc.oneof(fc.anything(), fc.integer({ min: -5, max: 100 }), fc.constantFrom('node', 'browser', true, false))
    const options = fc.oneof(fc.anything(), fc.record({ runtime: option, maxStall: option, now: option, loopLimit: option, where: option }, { requiredKeys: [] }))
    const plan = fc.oneof(fc.anything(), fc.record({ stalls: fc.oneof(fc.anything(), fc.array(option)), picks: fc.oneof(fc.anything(), fc.array(option)) }))
    fc.assert(
      fc.property(options, plan, (o, p) => {
        // A clock that is made must also run: no TypeError deferred to the first move.
        const made = () => {
          const clock = createExploringClock(p as never, o as never)
          clock.setTimeout(() => clock.setTimeout(() => {}, 0), 1)
          clock.tick(50)
        }
        for (const attempt of [() => clockArb(o as never), made, () => exploreSchedules(() => true, o as never)]) {
          try {
            attempt()
          } catch (e) {
            expect((e as { code?: unknown }).code, String(e)).toBe('InvalidArgument')
          }
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('the exploring schedule keeps the clock\'s schedule whole', () => {
  it('its invariants hold inside every callback and after every move, whatever the plan', () => {
    const planArb = fc.record({ stalls: fc.array(fc.nat({ max: 6 }), { maxLength: 12 }), picks: fc.array(fc.nat({ max: 5 }), { maxLength: 12 }) })
    fc.assert(
      fc.property(programArb(7, [undefined, 0, 1, 2, 3, 5], fc.constant(0)), planArb, fc.constantFrom<'node' | 'browser'>('node', 'browser'), fc.nat({ max: 6 }), (program, plan, runtime, maxStall) => {
        const clock = createExploringClock(plan, { runtime, maxStall })
        const schedule = stateOf<{ core: VirtualClock.State }>(clock)!.core.schedule
        // Every callback checks the schedule first, then runs: the batch's members are late then, some moved.
        for (const name of ['setTimeout', 'setInterval', 'setImmediate'] as const) {
          const arm = clock[name] as (f: () => void, ...rest: unknown[]) => unknown
          ;(clock as unknown as Record<string, unknown>)[name] = (f: () => void, ...rest: unknown[]) =>
            arm((): void => {
              Schedule.invariant(schedule)
              f()
            }, ...rest)
        }
        const tick = clock.tick
        ;(clock as unknown as Record<string, unknown>).tick = (ms: number): number => {
          const now = tick(ms)
          Schedule.invariant(schedule)
          return now
        }
        runOn(clock, program, 40)
      }),
      { numRuns: 300 },
    )
  })
})
