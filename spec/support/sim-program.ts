/**
 * Programs of timer calls and clock moves, run against any clock with fake-timers' shape
 * and recorded as a trace: one line per call (its result or error, then `now`,
 * `countTimers()` and `performance.now()`) and one line per callback (which timer, `now`,
 * `countTimers()` and its arguments). Two clocks that behave the same give equal traces.
 *
 * Callbacks act too: they schedule timers (whose callbacks act in turn), clear timers by
 * any of the four functions (wrong ones throw), throw errors or falsy values, set the
 * system time and move the clock. The generators leave out `refresh`: fake-timers 15
 * changes a timer's due time before taking it out of its heap, which can leave the heap
 * out of order and fire timers out of order (see the sim spec); a `refresh` command is
 * still understood, for programs written by hand. A budget on callbacks keeps every
 * program finite: once spent, callbacks do nothing but clear their own interval, which
 * ends a zero-period interval that `tick` would otherwise fire forever (on both clocks).
 */
import fc from 'fast-check'

/** What a program needs of a clock: the part fake-timers and VirtualClock share. */
export interface ClockLike {
  readonly now: number
  readonly performance: { now(): number }
  setTimeout(callback: (...args: never[]) => unknown, delay?: unknown, ...args: unknown[]): unknown
  setInterval(callback: (...args: never[]) => unknown, delay?: unknown, ...args: unknown[]): unknown
  setImmediate(callback: (...args: never[]) => unknown, ...args: unknown[]): unknown
  requestAnimationFrame(callback: (time: number) => unknown): unknown
  clearTimeout(id: unknown): void
  clearInterval(id: unknown): void
  clearImmediate(id: unknown): void
  cancelAnimationFrame(id: unknown): void
  tick(ms: number | string): number
  next(): number
  runAll(): number
  runToLast(): number
  runToFrame(): number
  countTimers(): number
  reset(): void
  setSystemTime(now?: number | Date): void
  jump(ms: number | string): number
}

export type Starter = 'setTimeout' | 'setInterval' | 'setImmediate' | 'requestAnimationFrame'
export type Clearer = 'clearTimeout' | 'clearInterval' | 'clearImmediate' | 'cancelAnimationFrame'

/** Delays that exercise every coercion rule, and ordinary ones. */
export const delays: readonly unknown[] = [
  undefined, Number.NaN, Infinity, -Infinity, -5, -1, -0.5, 0, -0, 0.4, 0.5, 1, 1.7, 2, 3, 5, 8, 10, 16, 17,
  33, 100, 1000, '7', '12px', 'abc', '', null, true, [3], {}, 1e-7, 5e-324, 2 ** 31 - 1, 2 ** 31, 1e21,
]

/** Ids that name no timer of the clock. */
export const strangers: readonly unknown[] = [undefined, null, 0, '', 5, 'abc', 1e12 - 1, 1e15]

export interface TimerSpec {
  readonly starter: Starter
  readonly delay: number // index into `delays`
  readonly args: number // how many arguments to pass
  readonly actions: readonly Action[]
}

export type Move =
  | { readonly kind: 'tick'; readonly ms: number | string }
  | { readonly kind: 'jump'; readonly ms: number | string }
  | { readonly kind: 'next' | 'runAll' | 'runToLast' | 'runToFrame' | 'reset' }

export type Action =
  | { readonly kind: 'schedule'; readonly timer: TimerSpec }
  | { readonly kind: 'clear'; readonly how: Clearer; readonly target: number }
  | { readonly kind: 'clearStranger'; readonly how: Clearer; readonly stranger: number }
  | { readonly kind: 'refresh'; readonly target: number }
  | { readonly kind: 'throw'; readonly what: 'error' | 'undefined' | 'zero' }
  | { readonly kind: 'setSystemTime'; readonly to: number | Date }
  | { readonly kind: 'read' }
  | { readonly kind: 'move'; readonly move: Move }

export type Command =
  | { readonly kind: 'schedule'; readonly timer: TimerSpec }
  | { readonly kind: 'clear'; readonly how: Clearer; readonly target: number }
  | { readonly kind: 'clearStranger'; readonly how: Clearer; readonly stranger: number }
  | { readonly kind: 'refresh'; readonly target: number }
  | { readonly kind: 'setSystemTime'; readonly to: number | Date }
  | { readonly kind: 'countTimers' }
  | { readonly kind: 'move'; readonly move: Move }

export interface Program {
  readonly now: number | Date | undefined
  readonly loopLimit: number | undefined
  readonly commands: readonly Command[]
}

// Generators.

const starterArb = fc.constantFrom<Starter>('setTimeout', 'setTimeout', 'setInterval', 'setImmediate', 'requestAnimationFrame')
const clearerArb = fc.constantFrom<Clearer>('clearTimeout', 'clearTimeout', 'clearInterval', 'clearImmediate', 'cancelAnimationFrame')
/** Mostly small delays, so that timers meet in the same millisecond and fire within ticks. */
const delayArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(7, 8, 10, 11, 12, 13, 14, 15, 19, 20, 21) },
  { weight: 2, arbitrary: fc.nat(delays.length - 1) },
)
/** Whole, fractional (eighths), string and negative amounts. */
const amountArb: fc.Arbitrary<number | string> = fc.oneof(
  { weight: 6, arbitrary: fc.nat(40) },
  { weight: 2, arbitrary: fc.nat(400).map((n) => n / 8) },
  { weight: 1, arbitrary: fc.nat(3000) },
  { weight: 1, arbitrary: fc.constantFrom<number | string>(0, 16, 2 ** 31, '00:01', '01:00', '', '1:2:3:4', '99', -1, -0.5) },
)
/**
 * Integers, quarters and dates. Other fractions are left out: fake-timers shifts its
 * times by differences in floating point, so for a system time like 0.1 its `now` can be
 * off in the last bits, where VirtualClock's is exact (see the sim spec).
 */
const systemTimeArb: fc.Arbitrary<number | Date> = fc.oneof(
  fc.integer({ min: -1e6, max: 1e12 }),
  fc.integer({ min: -4000, max: 4000 }).map((n) => n / 4),
  fc.integer({ min: 0, max: 2e12 }).map((n) => new Date(n)),
)

type Stepper = 'next' | 'runAll' | 'runToLast' | 'runToFrame' | 'reset'
const stepperArb = fc.constantFrom<Stepper>('next', 'next', 'runAll', 'runToLast', 'runToFrame', 'reset')

/** A move of the clock; callbacks make them too. */
const moveArb: fc.Arbitrary<Move> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: amountArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('jump' as const), ms: amountArb }) },
  { weight: 5, arbitrary: fc.record({ kind: stepperArb }) },
)

const clearStrangerArb = fc.record({
  kind: fc.constant('clearStranger' as const),
  how: clearerArb,
  stranger: fc.nat(strangers.length - 1),
})

const throwArb = fc.record({
  kind: fc.constant('throw' as const),
  what: fc.constantFrom<'error' | 'undefined' | 'zero'>('error', 'error', 'undefined', 'zero'),
})

const timerArb = (depth: number): fc.Arbitrary<TimerSpec> =>
  fc.record({
    starter: starterArb,
    delay: delayArb,
    args: fc.nat(2),
    actions: depth <= 0 ? fc.constant([]) : fc.array(actionArb(depth - 1), { maxLength: 3 }),
  })

const actionArb = (depth: number): fc.Arbitrary<Action> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('schedule' as const), timer: timerArb(depth) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('clear' as const), how: clearerArb, target: fc.nat(50) }) },
    { weight: 1, arbitrary: clearStrangerArb },
    { weight: 2, arbitrary: throwArb },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('setSystemTime' as const), to: systemTimeArb }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), move: moveArb }) },
  )

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('schedule' as const), timer: timerArb(2) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('clear' as const), how: clearerArb, target: fc.nat(50) }) },
  { weight: 1, arbitrary: clearStrangerArb },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setSystemTime' as const), to: systemTimeArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('countTimers' as const) }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('move' as const), move: moveArb }) },
)

/** Programs of up to 40 commands, from a start time and loop limit of every kind. */
export const programArb: fc.Arbitrary<Program> = fc.record({
  now: fc.oneof(
    fc.constant(undefined),
    fc.integer({ min: -1e6, max: 2e12 }),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.integer({ min: 0, max: 2e12 }).map((n) => new Date(n)),
  ),
  loopLimit: fc.constantFrom(undefined, 0, 1, 2, 3, 7, 50, 1000, -1, 2.5),
  commands: fc.array(commandArb, { maxLength: 40 }),
})

// Running.

/** Callbacks a program may run in all; past it they only stop their own interval. */
const callbackBudget = 400

export const show = (v: unknown): string => {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v)
  if (typeof v === 'bigint') return `${v}n`
  if (typeof v === 'string') return JSON.stringify(v)
  if (v instanceof Date) return `Date(${v.getTime()})`
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)
}

export const describeError = (e: unknown): string =>
  e instanceof Error ? `${e.constructor.name}: ${e.message}` : `value ${show(e)}`

/**
 * Records a call's outcome with the clock's state after it, in `trace`; ids are opaque
 * (fake-timers numbers them globally).
 */
export const recorder =
  (trace: string[], state: () => string) =>
  (what: string, f: () => unknown, returnsId = false): void => {
    let outcome: string
    try {
      const result = f()
      outcome = returnsId ? `: ${typeof result}` : `= ${show(result)}`
    } catch (e) {
      outcome = `threw ${describeError(e)}`
    }
    trace.push(`${what} ${outcome} ${state()}`)
  }

/** Makes a synchronous move on any clock with fake-timers' moves. */
export const moveClock = <M extends { readonly kind: string; readonly ms?: number | string }>(
  clock: { tick: (ms: number | string) => unknown; jump: (ms: number | string) => unknown } & Record<string, unknown>,
  m: M,
): unknown => {
  switch (m.kind) {
    case 'tick':
      return clock.tick(m.ms!)
    case 'jump':
      return clock.jump(m.ms!)
    default:
      return (clock[m.kind] as () => unknown)()
  }
}

/** Runs a program on a clock made by `makeClock(now, loopLimit)`; returns its trace. */
export const runProgram = (
  makeClock: (now: number | Date | undefined, loopLimit: number | undefined) => ClockLike,
  program: Program,
  afterEach: (clock: ClockLike) => void = () => undefined,
): string[] => {
  const clock = makeClock(program.now, program.loopLimit)
  const trace: string[] = []
  const handles: unknown[] = []
  let callbacks = 0

  const state = (): string => `now=${show(clock.now)} count=${clock.countTimers()} perf=${show(clock.performance.now())}`

  const attempt = recorder(trace, state)
  const move = (m: Move): unknown => moveClock(clock as unknown as Parameters<typeof moveClock>[0], m)

  const clear = (how: Clearer, id: unknown): void => clock[how](id)

  const refresh = (target: number): void => {
    const handle = handles[target % Math.max(1, handles.length)] as { refresh?: () => unknown } | undefined
    if (typeof handle === 'object' && handle !== null && typeof handle.refresh === 'function') handle.refresh()
  }

  const start = (spec: TimerSpec): unknown => {
    const index = handles.length
    const label = `t${index}:${spec.starter}(${show(delays[spec.delay])})`
    const args = Array.from({ length: spec.args }, (_, i) => `a${i}`)
    const callback = (...received: unknown[]): void => {
      callbacks++
      trace.push(`  fire ${label} ${state()} args=${received.map(show).join(',')}`)
      if (callbacks > callbackBudget) {
        if (spec.starter === 'setInterval') clock.clearInterval(handles[index])
        return
      }
      for (const action of spec.actions) act(action)
    }
    handles.push(undefined)
    const delay = delays[spec.delay]
    const handle =
      spec.starter === 'setImmediate'
        ? clock.setImmediate(callback, ...args)
        : spec.starter === 'requestAnimationFrame'
          ? clock.requestAnimationFrame(callback)
          : clock[spec.starter](callback, delay, ...args)
    handles[index] = handle
    return handle
  }

  const act = (action: Action): void => {
    switch (action.kind) {
      case 'schedule':
        start(action.timer)
        return
      case 'clear':
        if (handles.length > 0) clear(action.how, handles[action.target % handles.length])
        return
      case 'clearStranger':
        clear(action.how, strangers[action.stranger])
        return
      case 'refresh':
        refresh(action.target)
        return
      case 'throw':
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw action.what === 'error' ? new Error(`thrown at ${clock.now}`) : action.what === 'zero' ? 0 : undefined
      case 'setSystemTime':
        clock.setSystemTime(action.to)
        return
      case 'read':
        trace.push(`    read ${state()}`)
        return
      case 'move':
        attempt(`    nested ${JSON.stringify(action.move)}`, () => move(action.move))
        return
    }
  }

  trace.push(`created ${state()}`)
  for (const command of program.commands) {
    switch (command.kind) {
      case 'schedule':
        attempt(`schedule t${handles.length}`, () => start(command.timer), true)
        break
      case 'clear':
        attempt(`${command.how} #${command.target}`, () =>
          handles.length > 0 ? clear(command.how, handles[command.target % handles.length]) : undefined,
        )
        break
      case 'clearStranger':
        attempt(`${command.how} ${show(strangers[command.stranger])}`, () => clear(command.how, strangers[command.stranger]))
        break
      case 'refresh':
        attempt(`refresh #${command.target}`, () => refresh(command.target))
        break
      case 'setSystemTime':
        attempt(`setSystemTime ${show(command.to)}`, () => clock.setSystemTime(command.to))
        break
      case 'countTimers':
        attempt('countTimers', () => clock.countTimers())
        break
      case 'move':
        attempt(JSON.stringify(command.move), () => move(command.move))
        break
    }
    afterEach(clock)
  }
  return trace
}

/** The first line where two traces differ, with a few lines of context, or undefined. */
export const firstDifference = (ours: readonly string[], theirs: readonly string[]): string | undefined => {
  const n = Math.max(ours.length, theirs.length)
  for (let i = 0; i < n; i++) {
    if (ours[i] !== theirs[i]) {
      const context = theirs.slice(Math.max(0, i - 6), i).map((l) => `  ${l}`)
      return [`line ${i}:`, ...context, `- fake-timers: ${theirs[i]}`, `+ ours:        ${ours[i]}`].join('\n')
    }
  }
  return undefined
}
