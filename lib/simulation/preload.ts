/**
 * `node --import timing-wheel/simulation/preload` (ES modules) or
 * `node --require timing-wheel/simulation/preload` (CommonJS): the one line that lets a
 * library which takes the timer and microtask functions when it loads (storage layers
 * commonly do) run unchanged in every simulation, loaded once.
 *
 * Representation. At process start the global `setTimeout`, `clearTimeout`, `setInterval`,
 * `clearInterval`, `setImmediate`, `clearImmediate`, `queueMicrotask` and
 * `process.nextTick`, and those of Node's `timers` module, become dispatchers, so whatever
 * a library takes when it loads is a dispatcher. `registry` (a global, `Symbol.for`, so
 * that the ES module and CommonJS builds share it) holds `route`, set by `install` while a
 * simulation is installed: called inside a host's code, a dispatcher calls the installed
 * function (the host's clock, context, pause and crash, as the global would); outside a
 * host, or with no simulation installed, the real one. A timer set through the simulation
 * is remembered in `simulated`, so that clearing it reaches the clock it is on.
 *
 * Invariants: the dispatchers are installed once (a second load does nothing); `route` is
 * undefined whenever no simulation is installed.
 *
 * @module
 */
import { syncBuiltinESMExports } from 'node:module'
import * as timers from 'node:timers'

/** @internal The names dispatched, global and of `process`. */
type Name = 'setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval' | 'setImmediate' | 'clearImmediate' | 'queueMicrotask' | 'nextTick'

/** @internal What `install` sets while a simulation is installed. */
export interface Registry {
  /** The installed function for `name` when called in a host's code (a clear: whenever installed), else undefined. */
  route: ((name: Name) => ((...args: unknown[]) => unknown) | undefined) | undefined
  /** Timers set through the simulation, so that clearing one reaches its clock. */
  readonly simulated: WeakSet<object>
}

const key = Symbol.for('timing-wheel/simulation/preload')
const g = globalThis as unknown as Record<string | symbol, unknown> & { process?: Record<string, unknown> }

if (g[key] === undefined) {
  const registry: Registry = { route: undefined, simulated: new WeakSet() }
  g[key] = registry
  const clears = new Set<Name>(['clearTimeout', 'clearInterval', 'clearImmediate'])
  const dispatcher = (name: Name, real: (...args: unknown[]) => unknown): ((...args: unknown[]) => unknown) => {
    // Whether a name clears is known here, not at each call: every timer call passes through.
    const d = clears.has(name)
      ? function (this: unknown, ...args: unknown[]): unknown {
          const handle = args[0]
          if (typeof handle === 'object' && handle !== null && registry.simulated.has(handle)) {
            // Its simulation is gone once uninstalled: nothing is left to clear.
            return registry.route?.(name)?.apply(this, args)
          }
          return real.apply(this, args)
        }
      : function (this: unknown, ...args: unknown[]): unknown {
          const routed = registry.route?.(name)
          if (routed === undefined) return real.apply(this, args)
          const result = routed.apply(this, args)
          if (typeof result === 'object' && result !== null) registry.simulated.add(result)
          return result
        }
    // The real function under the dispatcher, for a fake-timers clock's own native queues and
    // yields (fake-timers/host.ts), which must reach Node's, never a simulation's.
    return Object.defineProperties(d, { name: { value: name }, [Symbol.for('timing-wheel/native')]: { value: real } })
  }
  for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask'] as const) {
    const real = g[name]
    if (typeof real === 'function') g[name] = dispatcher(name, real as never)
  }
  const process = g.process
  if (process !== undefined && typeof process['nextTick'] === 'function') process['nextTick'] = dispatcher('nextTick', (process['nextTick'] as (...a: unknown[]) => unknown).bind(process))
  const t = timers as unknown as Record<string, unknown>
  for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'] as const) {
    try {
      t[name] = g[name]
    } catch {
      // An ES module namespace is read-only: the default export (the module object) is patched below.
    }
    const object = (timers as unknown as { default?: Record<string, unknown> }).default
    if (object !== undefined) object[name] = g[name]
  }
  syncBuiltinESMExports()
}

/**
 * Whether the dispatchers are in place: true once this module has loaded (by `--import`,
 * `--require` or an import), for a test to check its setup.
 *
 * @example
 * import { preloaded } from 'timing-wheel/simulation/preload'
 * if (!preloaded()) throw new Error('run node with --import timing-wheel/simulation/preload')
 */
export const preloaded = (): boolean => g[key] !== undefined
