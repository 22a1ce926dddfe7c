/**
 * The `Date` a clock installs: the host's `Date` with "now" read from the clock.
 *
 * Dates it makes are real dates of the host (`getTime`, `toISOString`, structured clone
 * all work) and `new Date(...)` with arguments is the host's own. Only the forms that read
 * the current time change: `new Date()`, `Date()` called as a function, and `Date.now()`.
 * `instanceof` accepts every host date, a made date's `constructor` is the host's `Date`
 * (identity checks in code under test keep working), and the class prints as the host's
 * (`Date.toString()` is native code), as fake-timers arranges.
 *
 * Representation: each clock's `Date` is a `Proxy` (a distinct object per clock, as
 * fake-timers makes one per clock) over a function of its own that carries the statics
 * (`now`, `toString`, `isFake`, `clock`, `Symbol.hasInstance`; `parse` and `UTC` through
 * its prototype, the host's `Date`). Everything else is made once per host `Date` and
 * shared: the traps, and `Made`, the one subclass of the host's `Date` whose prototype
 * every clock's `Date.prototype` is and whose map every clock's dates have.
 *
 * Why not a class per clock (as fake-timers has, and this module had): V8 keeps a class
 * made at run time, or a function its `new` gave a map of its own, alive through every
 * young-generation collection until the next full one, with all it reaches: the class
 * reaches its clock, so every clock made since the last full collection was copied and
 * promoted, a clock per test or per property run (measured: 6 MB surviving each scavenge
 * of a loop of `createClock()`; 0.2 MB without). So no class, no prototype object and no
 * `new` of a function is made per clock: `new` goes through the proxy's `construct` trap.
 *
 * Invariants: `Date.prototype === Made.prototype` for every clock over one host `Date`;
 * `new Date()` has `Made.prototype`, or the prototype of the subclass whose `super()` ran.
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

/** A clock's own function under its proxy: the statics; `clock` is set once the clock exists. */
type Target = ClockDate & { (): void }

/** A clock's traps: the shared ones, with the proxy they serve (to tell `new Date()` from a subclass's `super()`). */
interface Traps extends ProxyHandler<Target> {
  proxy?: object
}

/** What every clock's `Date` over one host `Date` shares. */
interface Shared {
  readonly Made: DateConstructor
  readonly traps: Traps
  /** The statics that do not read the clock (methods, as a class's: not constructors). */
  readonly statics: { toString(): string; [Symbol.hasInstance](instance: unknown): boolean }
}

// Keyed by host `Date`s, which live as long as their realm: never young, so no ephemeron cost.
const sharedOf = new WeakMap<DateConstructor, Shared>()

const share = (NativeDate: DateConstructor): Shared => {
  // Named as fake-timers names it: some code prints `Date.name` or a date's class.
  const Made = class ClockDate extends NativeDate {}
  const traps: Traps = {
    // `Date()` called without `new` gives the current time as a string, whatever its arguments.
    apply: (target) => new NativeDate(target.clock.now).toString(),
    construct(target, args, newTarget) {
      const date = Reflect.construct(NativeDate, args.length === 0 ? [target.clock.now] : args, newTarget === this.proxy ? Made : newTarget) as object
      Object.defineProperty(date, 'constructor', { value: NativeDate, enumerable: false })
      return date
    },
  }
  const statics = {
    toString(): string {
      return NativeDate.toString()
    },
    [Symbol.hasInstance](instance: unknown): boolean {
      return instance instanceof NativeDate
    },
  }
  return { Made: Made as unknown as DateConstructor, traps, statics }
}

/** A method's descriptor, as a class defines its static methods. */
const method = (value: unknown): PropertyDescriptor => ({ value, writable: true, enumerable: false, configurable: true })

/**
 * A `Date` over `NativeDate` whose current time is `clock.now`.
 *
 * @example
 * const ClockDate = createDate(Date)
 * ClockDate.clock = clock
 * new ClockDate().getTime() === clock.now // true
 */
export const createDate = (NativeDate: DateConstructor): ClockDate => {
  let shared = sharedOf.get(NativeDate)
  if (shared === undefined) sharedOf.set(NativeDate, (shared = share(NativeDate)))
  // A constructor, so that the proxy has [[Construct]]; its own [[Construct]] never runs.
  const target = function ClockDate(): void {} as unknown as Target
  Object.setPrototypeOf(target, NativeDate)
  Object.defineProperty(target, 'prototype', { value: shared.Made.prototype, writable: false })
  if (typeof NativeDate.now === 'function') {
    const now = {
      now(): number {
        return target.clock.now
      },
    }.now
    Object.defineProperty(target, 'now', method(now))
  }
  Object.defineProperty(target, 'toString', method(shared.statics.toString))
  Object.defineProperty(target, Symbol.hasInstance, method(shared.statics[Symbol.hasInstance]))
  Object.defineProperty(target, 'isFake', { value: true, writable: true, enumerable: true, configurable: true })
  const traps: Traps = Object.create(shared.traps) as Traps
  const proxy = new Proxy(target, traps)
  traps.proxy = proxy
  return proxy
}
