/**
 * Programs for whole fake-timers clocks, beyond the timer subset of `sim-program.ts`:
 * faked microtasks (`nextTick`, `queueMicrotask`, `runMicrotasks`), real promise
 * callbacks, idle callbacks, the async moves (`tickAsync`, `nextAsync`, `runAllAsync`,
 * `runToLastAsync`), the `nextAsync` tick mode, and reads of `Date` (every form that
 * asks for the time), `hrtime` (plain, relative, bigint) and `performance.now()`.
 *
 * A program runs on one clock and is recorded as a trace, as in `sim-program.ts`: one
 * line per command (its result or error and the clock's state), one per callback, job
 * or promise callback (which, and the state inside it). Two clocks that behave the same
 * give equal traces. Promise callbacks run between the timers of an async move, so
 * their lines show where each clock let them run.
 *
 * Everything stays finite and deterministic: a budget on callbacks (past it they only
 * clear their own interval), one on microtasks (no more than the loop limit, past
 * which fake-timers' `tick` retries a timer forever), at most ten async moves started
 * by callbacks (the program awaits them at its end), and the
 * `nextAsync` mode only until the first callback it fires (or no timer is left), with throwing turned off
 * meanwhile (the mode's loop would otherwise end in an unhandled rejection, on both
 * clocks alike).
 */
import fc from 'fast-check'
import { delays, describeError, moveClock, recorder, show, strangers } from './sim-program.js'

type Callback = (...args: never[]) => unknown

/** What a program needs of a clock: the shape fake-timers' clocks and ours share. */
export interface FullClockLike {
  readonly now: number
  readonly Date: DateConstructor
  readonly performance: { now(): number }
  readonly hrtime: ((previous?: [number, number]) => [number, number]) & { bigint(): bigint }
  setTimeout(callback: Callback, delay?: unknown, ...args: unknown[]): unknown
  setInterval(callback: Callback, delay?: unknown, ...args: unknown[]): unknown
  setImmediate(callback: Callback, ...args: unknown[]): unknown
  requestAnimationFrame(callback: (time: number) => unknown): unknown
  requestIdleCallback(callback: Callback, options?: { timeout?: number }): unknown
  clearTimeout(id: unknown): void
  clearInterval(id: unknown): void
  clearImmediate(id: unknown): void
  cancelAnimationFrame(id: unknown): void
  cancelIdleCallback(id: unknown): void
  nextTick(callback: Callback, ...args: unknown[]): void
  queueMicrotask(callback: Callback): void
  runMicrotasks(): void
  tick(ms: number | string): number
  next(): number
  runAll(): number
  runToLast(): number
  runToFrame(): number
  tickAsync(ms: number | string): Promise<number>
  nextAsync(): Promise<number>
  runAllAsync(): Promise<number>
  runToLastAsync(): Promise<number>
  countTimers(): number
  reset(): void
  setSystemTime(now?: number | Date): void
  jump(ms: number | string): number
  setTickMode(mode: { mode: 'manual' | 'nextAsync' | 'interval'; delta?: number }): void
}

export type Starter = 'setTimeout' | 'setInterval' | 'setImmediate' | 'requestAnimationFrame' | 'requestIdleCallback' | 'idleTimeout'
export type Clearer = 'clearTimeout' | 'clearInterval' | 'clearImmediate' | 'cancelAnimationFrame' | 'cancelIdleCallback'

export interface TimerSpec {
  readonly starter: Starter
  readonly delay: number // index into `delays`
  readonly args: number
  readonly actions: readonly Action[]
}

export type SyncMove =
  | { readonly kind: 'tick' | 'jump'; readonly ms: number | string }
  | { readonly kind: 'next' | 'runAll' | 'runToLast' | 'runToFrame' | 'reset' | 'runMicrotasks' }

export type AsyncMove =
  | { readonly kind: 'tickAsync'; readonly ms: number | string }
  | { readonly kind: 'nextAsync' | 'runAllAsync' | 'runToLastAsync' }

export type Action =
  | { readonly kind: 'schedule'; readonly timer: TimerSpec }
  | { readonly kind: 'clear'; readonly how: Clearer; readonly target: number }
  | { readonly kind: 'clearStranger'; readonly how: Clearer; readonly stranger: number }
  | { readonly kind: 'job'; readonly via: 'nextTick' | 'queueMicrotask'; readonly actions: readonly Action[] }
  | { readonly kind: 'promise'; readonly actions: readonly Action[] }
  | { readonly kind: 'throw' }
  | { readonly kind: 'setSystemTime'; readonly to: number | Date }
  | { readonly kind: 'read' }
  | { readonly kind: 'move'; readonly move: SyncMove }
  | { readonly kind: 'startAsync'; readonly move: AsyncMove }

export type Command =
  | { readonly kind: 'action'; readonly action: Action }
  | { readonly kind: 'async'; readonly move: AsyncMove }
  | { readonly kind: 'autoStep' }

export interface Program {
  readonly now: number | Date | undefined
  readonly loopLimit: number | undefined
  readonly commands: readonly Command[]
}

// Generators.

const starterArb = fc.constantFrom<Starter>(
  'setTimeout',
  'setTimeout',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'requestAnimationFrame',
  'requestIdleCallback',
  'idleTimeout',
)
const clearerArb = fc.constantFrom<Clearer>(
  'clearTimeout',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'cancelAnimationFrame',
  'cancelIdleCallback',
)
const delayArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 1, 5, 7, 8, 10, 11, 12, 13, 20).map((d) => delays.indexOf(d)) },
  { weight: 1, arbitrary: fc.nat(delays.length - 1) },
)
const amountArb: fc.Arbitrary<number | string> = fc.oneof(
  { weight: 6, arbitrary: fc.nat(40) },
  { weight: 2, arbitrary: fc.nat(200).map((n) => n / 8) },
  { weight: 1, arbitrary: fc.nat(3000) },
  { weight: 1, arbitrary: fc.constantFrom<number | string>('00:01', '', -1) },
)
const systemTimeArb: fc.Arbitrary<number | Date> = fc.oneof(
  fc.integer({ min: -1e6, max: 1e12 }),
  fc.integer({ min: 0, max: 2e12 }).map((n) => new Date(n)),
)

const syncMoveArb: fc.Arbitrary<SyncMove> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constantFrom('tick' as const, 'tick' as const, 'jump' as const), ms: amountArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('next' as const, 'runAll' as const, 'runToLast' as const, 'runToFrame' as const, 'reset' as const, 'runMicrotasks' as const),
    }),
  },
)

const asyncMoveArb: fc.Arbitrary<AsyncMove> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('tickAsync' as const), ms: amountArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('nextAsync' as const, 'runAllAsync' as const, 'runToLastAsync' as const) }) },
)

const timerArb = (depth: number): fc.Arbitrary<TimerSpec> =>
  fc.record({
    starter: starterArb,
    delay: delayArb,
    args: fc.nat(1),
    actions: depth <= 0 ? fc.constant([]) : fc.array(actionArb(depth - 1), { maxLength: 3 }),
  })

const nestedArb = (depth: number): fc.Arbitrary<readonly Action[]> =>
  depth <= 0 ? fc.constant([]) : fc.array(actionArb(depth - 1), { maxLength: 3 })

const actionArb = (depth: number): fc.Arbitrary<Action> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('schedule' as const), timer: timerArb(depth) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('clear' as const), how: clearerArb, target: fc.nat(50) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('clearStranger' as const), how: clearerArb, stranger: fc.nat(strangers.length - 1) }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('job' as const),
        via: fc.constantFrom('nextTick' as const, 'queueMicrotask' as const),
        actions: nestedArb(depth),
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('promise' as const), actions: nestedArb(depth) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('throw' as const) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('setSystemTime' as const), to: systemTimeArb }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), move: syncMoveArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('startAsync' as const), move: asyncMoveArb }) },
  )

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('action' as const), action: actionArb(2) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('action' as const), action: fc.record({ kind: fc.constant('move' as const), move: syncMoveArb }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('async' as const), move: asyncMoveArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('autoStep' as const) }) },
)

/** Programs of up to 30 commands. */
export const programArb: fc.Arbitrary<Program> = fc.record({
  now: fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 2e12 }), fc.integer({ min: 0, max: 2e12 }).map((n) => new Date(n))),
  loopLimit: fc.constantFrom(undefined, 3, 7, 50, 1000),
  commands: fc.array(commandArb, { maxLength: 30 }),
})

// Running.

const callbackBudget = 300


/** Runs a program on a clock made by `makeClock(now, loopLimit)`; resolves to its trace. */
export const runProgram = async (
  makeClock: (now: number | Date | undefined, loopLimit: number | undefined) => FullClockLike,
  program: Program,
): Promise<string[]> => {
  const clock = makeClock(program.now, program.loopLimit)
  const trace: string[] = []
  const handles: unknown[] = []
  let callbacks = 0
  // More queued microtasks than the loop limit make every later run of them throw, and
  // fake-timers' tick then retries the same timer forever: a program queues fewer.
  let jobsLeft = Math.min(60, (program.loopLimit || 1000) + 1)
  let quiet = false
  let onFire: (() => void) | undefined
  let lastHrtime: [number, number] = [0, 0]
  /** Async moves started by callbacks and not awaited by anyone: the program waits for them at its end. */
  const started = new Set<Promise<void>>()
  let asyncLeft = 10

  const state = (): string => `now=${show(clock.now)} count=${clock.countTimers()} perf=${show(clock.performance.now())}`

  const reads = (): string => {
    const previous = lastHrtime
    lastHrtime = clock.hrtime()
    const stamp = (clock.Date as unknown as () => string)()
    return (
      `date=${new clock.Date().getTime()} Date.now=${clock.Date.now()} Date()=${stamp === new Date(clock.now).toString()} ` +
      `hrtime=${show(lastHrtime)} since=${show(clock.hrtime(previous))} bigint=${show(clock.hrtime.bigint())}`
    )
  }

  const attempt = recorder(trace, state)
  const move = (m: SyncMove): unknown => moveClock(clock as unknown as Parameters<typeof moveClock>[0], m)

  const start = (spec: TimerSpec): unknown => {
    const index = handles.length
    const label = `t${index}:${spec.starter}(${show(delays[spec.delay])})`
    const args = Array.from({ length: spec.args }, (_, i) => `a${i}`)
    const callback = (...received: unknown[]): void => {
      callbacks++
      const shown = received.map((r) => (typeof r === 'object' && r !== null ? 'deadline' : show(r)))
      trace.push(`  fire ${label} ${state()} args=${shown.join(',')}`)
      const waiter = onFire
      onFire = undefined
      waiter?.()
      if (callbacks > callbackBudget) {
        if (spec.starter === 'setInterval') clock.clearInterval(handles[index])
        return
      }
      runActions(spec.actions)
    }
    handles.push(undefined)
    const delay = delays[spec.delay]
    let handle: unknown
    switch (spec.starter) {
      case 'setImmediate':
        handle = clock.setImmediate(callback, ...args)
        break
      case 'requestAnimationFrame':
        handle = clock.requestAnimationFrame(callback)
        break
      case 'requestIdleCallback':
        handle = clock.requestIdleCallback(callback)
        break
      case 'idleTimeout':
        handle = clock.requestIdleCallback(callback, { timeout: delay as number })
        break
      default:
        handle = clock[spec.starter](callback, delay, ...args)
    }
    handles[index] = handle
    return handle
  }

  const runActions = (actions: readonly Action[]): void => {
    for (const action of actions) {
      if (!quiet) act(action)
      else attempt('    quietly', () => act(action))
    }
  }

  const act = (action: Action): void => {
    switch (action.kind) {
      case 'schedule':
        start(action.timer)
        return
      case 'clear':
        if (handles.length > 0) clock[action.how](handles[action.target % handles.length])
        return
      case 'clearStranger':
        clock[action.how](strangers[action.stranger])
        return
      case 'job': {
        if (jobsLeft-- <= 0) return
        const job = (): void => {
          callbacks++
          trace.push(`  job ${action.via} ${state()}`)
          if (callbacks <= callbackBudget) runActions(action.actions)
        }
        if (action.via === 'nextTick') clock.nextTick(job)
        else clock.queueMicrotask(job)
        return
      }
      case 'promise':
        void Promise.resolve().then(() => {
          callbacks++
          // A promise callback's errors are its own: recorded, not thrown into the host.
          attempt('  promise', () => (callbacks <= callbackBudget ? runActions(action.actions) : undefined))
        })
        return
      case 'throw':
        if (quiet) return
        throw new Error(`thrown at ${clock.now}`)
      case 'setSystemTime':
        clock.setSystemTime(action.to)
        return
      case 'read':
        trace.push(`    read ${state()} ${reads()}`)
        return
      case 'move':
        attempt(`    nested ${JSON.stringify(action.move)}`, () => move(action.move))
        return
      case 'startAsync': {
        if (asyncLeft-- <= 0 || quiet) return
        const label = `    started ${JSON.stringify(action.move)}`
        trace.push(`${label} ${state()}`)
        const done = asyncMove(action.move).then(
          (result) => void trace.push(`${label} = ${show(result)} ${state()}`),
          (e: unknown) => void trace.push(`${label} threw ${describeError(e)} ${state()}`),
        )
        started.add(done)
        return
      }
    }
  }

  const asyncMove = (m: AsyncMove): Promise<number> => (m.kind === 'tickAsync' ? clock.tickAsync(m.ms) : clock[m.kind]())

  const runAsync = async (m: AsyncMove): Promise<void> => {
    let outcome: string
    try {
      const result = await asyncMove(m)
      outcome = `= ${show(result)}`
    } catch (e) {
      outcome = `threw ${describeError(e)}`
    }
    trace.push(`${JSON.stringify(m)} ${outcome} ${state()}`)
  }

  /** `nextAsync` mode until the first callback it fires, or none if there is no timer. */
  /** Waits for the async moves callbacks started, and the promise callbacks after them. */
  const settleStarted = async (): Promise<void> => {
    await new Promise((resolve) => setImmediate(resolve))
    while (started.size > 0) {
      const all = [...started]
      started.clear()
      await Promise.all(all)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  const autoStep = async (): Promise<void> => {
    // An async move running meanwhile would pause the mode and turn it back on after this
    // step: they all end first.
    await settleStarted()
    // From here callbacks neither throw nor start async moves.
    quiet = true
    let drained = true
    try {
      clock.runMicrotasks()
    } catch {
      drained = false
    }
    // The mode's loop runs the clock with nothing to catch its errors: callbacks do not
    // throw meanwhile, the budget on microtasks keeps them below the loop limit, and a
    // clock whose microtasks would not run goes not into it.
    if (!drained || clock.countTimers() === 0) {
      quiet = false
      trace.push(`autoStep skipped ${state()}`)
      return
    }
    const fired = new Promise<void>((resolve) => {
      onFire = resolve
    })
    clock.setTickMode({ mode: 'nextAsync' })
    // Promise callbacks may clear the timers before the mode fires any: then it ends idle.
    let stopped = false
    const idle = (async (): Promise<void> => {
      while (!stopped && clock.countTimers() > 0) await new Promise((resolve) => setImmediate(resolve))
    })()
    await Promise.race([fired, idle])
    stopped = true
    clock.setTickMode({ mode: 'manual' })
    quiet = false
    trace.push(`autoStep ${state()}`)
  }

  trace.push(`created ${state()} ${reads()}`)
  for (const command of program.commands) {
    switch (command.kind) {
      case 'action': {
        const a = command.action
        attempt(a.kind === 'move' ? JSON.stringify(a.move) : `${a.kind}`, () => (a.kind === 'schedule' ? start(a.timer) : act(a)), a.kind === 'schedule')
        break
      }
      case 'async':
        await runAsync(command.move)
        break
      case 'autoStep':
        await autoStep()
        break
    }
  }
  // Let the promise callbacks still queued run, and the async moves started, and record them.
  await settleStarted()
  trace.push(`end ${state()} ${reads()}`)
  return trace
}
