/**
 * The `Date` a clock installs: the host's `Date` with "now" read from the clock.
 *
 * A subclass of the host's `Date`, so that dates it makes are real dates (`getTime`,
 * `toISOString`, structured clone all work) and `new Date(...)` with arguments is the
 * host's own. Only the forms that read the current time change: `new Date()`, `Date()`
 * called as a function (a string, through a `Proxy`, since a class cannot be called),
 * and `Date.now()`. `instanceof` accepts every host date, a made date's `constructor` is
 * the host's `Date` (identity checks in code under test keep working), and the class
 * prints as the host's (`Date.toString()` is native code), as fake-timers arranges.
 */

/**
 * A `Date` whose current time is a clock's, with the marks fake-timers puts on it.
 *
 * @example
 * const FakeDate: ClockDate = createClock(0).Date
 * FakeDate.isFake // true
 * new FakeDate().getTime() // 0, the clock's time
 */
export type ClockDate = DateConstructor & {
  /** Always true: `install` refuses a target whose `Date` has it. */
  readonly isFake: true
  /** The clock; set once the clock exists. */
  clock: {
    /** The clock's wall-clock time. */
    readonly now: number
  }
}

/**
 * A `Date` class over `NativeDate` whose current time is `clock.now`.
 *
 * @example
 * const ClockDate = createDate(Date)
 * ClockDate.clock = clock
 * new ClockDate().getTime() === clock.now // true
 */
export const createDate = (NativeDate: DateConstructor): ClockDate => {
  // Named as fake-timers names it: some code prints `Date.name`.
  const Dated = class ClockDate extends NativeDate {
    static clock: { readonly now: number }
    static isFake = true as const

    constructor(...args: unknown[]) {
      if (args.length === 0) super(Dated.clock.now)
      else super(...(args as [number]))
      Object.defineProperty(this, 'constructor', { value: NativeDate, enumerable: false })
    }

    static override now(): number {
      return Dated.clock.now
    }

    static override toString(): string {
      return NativeDate.toString()
    }

    static override [Symbol.hasInstance](instance: unknown): boolean {
      return instance instanceof NativeDate
    }
  }
  if (typeof NativeDate.now !== 'function') Reflect.deleteProperty(Dated, 'now')
  return new Proxy(Dated, {
    // `Date()` called without `new` gives the current time as a string, whatever its arguments.
    apply: () => new NativeDate(Dated.clock.now).toString(),
  }) as unknown as ClockDate
}
