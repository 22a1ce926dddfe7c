/**
 * `@sinonjs/fake-timers` 15.5's module, on the timing wheel: `timers`, `createClock`,
 * `install` and `withGlobal`, whose clocks keep and fire their timers in a
 * `VirtualClock`'s schedule (constant time per timer to start, clear and fire) and do
 * everything else fake-timers' clocks do: `Date`, `Intl`, microtasks, the async
 * variants, `hrtime`, `performance`, idle callbacks, tick modes, and Node's `timers`
 * and `timers/promises` when installed on the process's global.
 *
 * Where these clocks deliberately differ from fake-timers: `refresh()` puts the timer after
 * every timer already due at its new time, as Node does (fake-timers can fire timers out of
 * order); a non-finite `tick`, `jump` or `tickAsync` amount throws a `TypeError` and a
 * non-finite start or system time a `RangeError` (fake-timers computes with `NaN`); setting
 * `clock.now` moves the wall clock as `setSystemTime` does; `uninstall()` and `clock.timers`
 * list timers in firing order; `scheduler.postTask` is not faked. Beyond 15.5,
 * `AbortSignal.timeout(ms)` returns a signal the clock aborts (the name
 * `'AbortSignal.timeout'` in `toFake` and `toNotFake`); `Temporal.Now` follows the clock
 * where the global has a `Temporal`, as in 15.5; `timers/promises.scheduler.wait` is faked
 * with `setTimeout`, as Node's `mock.timers` fakes it. Async moves settle as Node runs code:
 * a faked `nextTick` or `queueMicrotask` job queued during one runs in Node's own queues at
 * the time it was queued, and before time moves the move yields until no job is left, so
 * nothing it started is pending when it returns (fake-timers runs such a job only at the
 * next timer). Sync moves keep fake-timers' semantics. Immediates keep fake-timers' timing:
 * one queued during a tick is due 1 ms later, after the timers due with the one that queued
 * it and before a 0 ms timer queued with it, Node's order (its check phase) 1 ms late.
 *
 * @example
 * import FakeTimers from 'timing-wheel/fake-timers'
 * const clock = FakeTimers.install({ now: Date.UTC(2024, 0, 1) })
 * try {
 *   setTimeout(() => console.log(new Date().toISOString()), 1000)
 *   await clock.tickAsync(1000) // 2024-01-01T00:00:01.000Z
 * } finally {
 *   clock.uninstall()
 * }
 *
 * @module
 */
import { type Clock, createClock as createHostClock } from './clock.js'
import { type FakeMethod, type GlobalObject, readHost } from './host.js'
import { type InstallConfig, install as installOnHost } from './install.js'

export type { Clock, HrTime, IdleDeadline, TickMode, TimerDescription, TimerType } from './clock.js'
export type { ClockDate } from './date.js'
export type { FakeMethod } from './host.js'
export type { InstallConfig } from './install.js'

/**
 * The module's functions for one global object.
 *
 * @example
 * import FakeTimers from 'timing-wheel/fake-timers'
 * const clock = FakeTimers.withGlobal(globalThis).install()
 */
export interface FakeTimers {
  /** The global's originals of everything `install` can fake. */
  readonly timers: Readonly<Partial<Record<FakeMethod, unknown>>>
  /** A clock at `now` (ms since the epoch or a `Date`; default 0), `runAll` giving up after `loopLimit` timers. */
  readonly createClock: (now?: number | Date, loopLimit?: number) => Clock
  /** A clock installed in place of the global's timers; `clock.uninstall()` undoes it. */
  readonly install: (config?: InstallConfig) => Clock
  /** The same functions for another global object (a jsdom window, a `vm` context). */
  readonly withGlobal: (global: object) => FakeTimers
}

/**
 * The module's functions for `global`, as fake-timers' `withGlobal`. Reads the global
 * once, now: what it has, and its originals. Throws an `Error` if it has no `Date`.
 *
 * @example
 * const { install } = withGlobal(dom.window)
 * const clock = install()
 */
export const withGlobal = (global: object): FakeTimers => {
  const host = readHost(global as GlobalObject)
  return {
    timers: host.timers,
    createClock: (now, loopLimit) => createHostClock(host, now, loopLimit),
    install: function install(config?: InstallConfig): Clock {
      // eslint-disable-next-line prefer-rest-params
      return installOnHost(host, config, arguments.length - 1)
    },
    withGlobal,
  }
}

const own = withGlobal(globalThis)

/**
 * The process's originals of everything `install` can fake.
 *
 * @example
 * const clock = install()
 * timers.setTimeout(() => console.log('on real time'), 10) // not on the clock
 */
export const timers = own.timers
/**
 * A clock at `now` (default 0); see {@link FakeTimers.createClock}. Nothing global changes.
 *
 * @example
 * const clock = createClock(Date.UTC(2024, 0, 1))
 * clock.setTimeout(() => console.log(new clock.Date().toISOString()), 1000)
 * clock.tick(1000) // 2024-01-01T00:00:01.000Z
 */
export const createClock = own.createClock
/**
 * A clock installed on `globalThis`; see {@link FakeTimers.install}.
 *
 * @example
 * const clock = install({ now: Date.UTC(2024, 0, 1), toFake: ['setTimeout', 'Date'] })
 * setTimeout(() => console.log(Date.now()), 1000)
 * clock.tick(1000) // 1704067201000
 * clock.uninstall()
 */
export const install = own.install

const moduleObject = { timers, createClock, install, withGlobal }

export default moduleObject

/**
 * What `require('timing-wheel/fake-timers')` returns: a plain object with the four
 * functions, as fake-timers' CommonJS module is, rather than the frozen namespace
 * (callers add properties to it, and compare its keys with `withGlobal`'s).
 *
 * @example
 * const FakeTimers = require('timing-wheel/fake-timers')
 * Object.keys(FakeTimers) // ['timers', 'createClock', 'install', 'withGlobal']
 */
export { moduleObject as 'module.exports' }
