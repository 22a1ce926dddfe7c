/**
 * One pending callback of a virtual clock, and the order fake-timers fires them in.
 *
 * Times here are elapsed milliseconds since the clock's start (see `virtual-clock.ts`),
 * always integers: every delay goes through `parseInt`, so a clock that starts at 0 and
 * moves by whole milliseconds never makes a fraction.
 *
 * Order: by `due`; at equal `due`, `setImmediate` timers before the others; then by
 * `order`, a number handed out whenever a timer is armed (created, re-armed by its
 * interval, refreshed). That is fake-timers' comparator, less the tie-breaks that its
 * unique `order` makes unreachable.
 */

import { TimerHandle } from './handle.js'

/** What made the timer; clearing it with the wrong function throws, as in fake-timers. */
export type TimerKind = 'Timeout' | 'Interval' | 'Immediate' | 'AnimationFrame'

/** Where a timer is kept: in the wheel (one of the schedule's queues), among the late timers, or nowhere. */
export type Place = 'wheel' | 'late' | undefined

/**
 * The clock a timer belongs to, in the generation it was armed in: `reset` gives the
 * clock a new one, so a timer of an earlier generation (or of another clock) is not
 * pending there whatever its `place` still says. `refresh` re-arms a timer on its clock.
 */
export interface Home {
  readonly refresh: (timer: Timer) => void
}

/**
 * The `args` of a timer whose one argument is kept in its `arg` field, and of one with
 * none: the common `setTimeout(f, ms)` and `setTimeout(f, ms, x)` then cost one object,
 * not a record and an array. Never shown: {@link argsOf} makes an array of its own.
 */
export const oneArg: readonly unknown[] = Object.freeze([])
export const noArgs: readonly unknown[] = Object.freeze([])

/** The arguments a timer's callback gets (undefined for frames), in an array of their own. */
export const argsOf = (t: Timer): unknown[] | undefined =>
  t.args === oneArg ? [t.arg] : t.args === undefined ? undefined : [...t.args]

/**
 * What a timer function's `args` are from its `arguments` past the first `from`, without
 * an array for none or one (the caller keeps the one in the timer).
 */
export const argsAfter = (all: IArguments, from: number): readonly unknown[] => {
  const n = all.length - from
  if (n <= 0) return noArgs
  if (n === 1) return oneArg
  const args = new Array<unknown>(n)
  for (let i = 0; i < n; i++) args[i] = all[from + i]
  return args
}

/**
 * A timer, and the handle `setTimeout` returns where the host's timers return objects
 * (see `handle.ts`): one object a timer. `id`, `kind`, `callback`, `args`, `delay` and
 * `interval` never change; `due` and `order` change when it is re-armed, `home` when a
 * timer of an earlier generation is refreshed. `place`, `elt` and `armSeq` belong to the
 * schedule (`schedule.ts`), which alone reads and writes them; `hooked`, to the hooks.
 */
export class Timer extends TimerHandle {
  place: Place = undefined
  /** Its handle in its queue while `place` is `'wheel'`. */
  elt = -1
  /** When the schedule last took it in; see the schedule's watches. */
  armSeq = 0
  /** What a schedule's hooks (`hooks.ts`) keep of it: an exploring schedule's arming. */
  hooked: unknown = undefined

  /**
   * The parameters are the fields (`args` undefined for frames, which get
   * `performance.now()`, and {@link oneArg} for one argument, in `arg`; `delay` the coerced first delay, which `refresh` uses again,
   * undefined for immediates; `interval` the period of an interval).
   */
  constructor(
    key: number,
    readonly kind: TimerKind,
    readonly callback: (...args: unknown[]) => unknown,
    readonly args: readonly unknown[] | undefined,
    readonly arg: unknown,
    readonly delay: number | undefined,
    readonly interval: number | undefined,
    public due: number,
    public order: number,
    public home: Home,
  ) {
    super(key)
  }

  override rearm(): void {
    this.home.refresh(this)
  }
}

/**
 * Whether `a` fires before `b` when both are pending. Constant time.
 *
 * @example
 * late.sort((a, b) => (firesBefore(a, b) ? -1 : 1))
 */
export const firesBefore = (a: Timer, b: Timer): boolean => {
  if (a.due !== b.due) return a.due < b.due
  const aImmediate = a.kind === 'Immediate'
  if (aImmediate !== (b.kind === 'Immediate')) return aImmediate
  return a.order < b.order
}

/**
 * The function that creates a timer of this kind, as fake-timers' messages name it.
 *
 * @example
 * scheduleName('AnimationFrame') // 'requestAnimationFrame'
 */
export const scheduleName = (kind: TimerKind): string =>
  kind === 'AnimationFrame' ? 'requestAnimationFrame' : `set${kind}`

/**
 * The function that clears a timer of this kind, as fake-timers' messages name it.
 *
 * @example
 * clearName('Immediate') // 'clearImmediate'
 */
export const clearName = (kind: TimerKind): string =>
  kind === 'AnimationFrame' ? 'cancelAnimationFrame' : `clear${kind}`

/**
 * Whether the clear function for `asked` may clear a timer of `kind`: its own, or
 * timeouts and intervals each other's.
 *
 * @example
 * clearableAs('Interval', 'Timeout')   // true
 * clearableAs('Immediate', 'Timeout')  // false
 */
export const clearableAs = (kind: TimerKind, asked: TimerKind): boolean =>
  kind === asked ||
  (kind === 'Timeout' && asked === 'Interval') ||
  (kind === 'Interval' && asked === 'Timeout')
