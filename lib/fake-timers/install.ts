/**
 * `install`: a clock put in place of a global object's timers, `Date`, `performance`,
 * `Intl`, `process.hrtime` and `process.nextTick`, and taken out again, as fake-timers
 * does it. On the process's own global it also replaces the functions of Node's `timers`
 * and `timers/promises` modules and `perf_hooks.performance.now`, so code that imported
 * those sees the clock too.
 *
 * What fake-timers does, this does, attribute for attribute: timer functions become
 * forwarding functions carrying the clock's function's own properties and a `clock`
 * property; `Date`, `Intl` and `performance` are replaced by the clock's objects (so
 * `performance.now === clock.performance.now`); `uninstall` puts back each original
 * where the target had it as an own property and deletes the replacement otherwise.
 * One difference: Node's own calls of `process.nextTick` stay on Node's queue
 * (`calledByNode`).
 */
import { type Clock, type TimerDescription, createClock } from './clock.js'
import { type FakeMethod, type GlobalObject, type Host, fakeableNames } from './host.js'
import { put } from '../sim/accessors.js'
import * as TimersPromises from './timers-promises.js'

/**
 * fake-timers' install options.
 *
 * @example
 * install({ now: new Date(2024, 0, 1), toNotFake: ['nextTick', 'queueMicrotask'], loopLimit: 10_000 })
 */
export interface InstallConfig {
  /** The wall-clock time to start at (ms since the epoch or a `Date`); default 0. */
  readonly now?: number | Date
  /** Only these names are faked (empty: all). Cannot be used with `toNotFake`. */
  readonly toFake?: readonly FakeMethod[]
  /** All names but these are faked. */
  readonly toNotFake?: readonly FakeMethod[]
  /** How many timers `runAll` runs before giving up; default 1000. */
  readonly loopLimit?: number
  /** Tick `advanceTimeDelta` ms every `advanceTimeDelta` real ms. */
  readonly shouldAdvanceTime?: boolean
  /** default 20 */
  readonly advanceTimeDelta?: number
  /** Clearing a native timer's id clears it with the original function instead of warning. */
  readonly shouldClearNativeTimers?: boolean
  /** Names asked for that the target lacks are skipped rather than refused. */
  readonly ignoreMissingTimers?: boolean
}

type Fn = (...args: unknown[]) => unknown
type Bag = Record<string, unknown>

interface ModuleEntry {
  readonly module: Bag
  readonly name: string
  readonly original: unknown
}

/** Node's modules, where there are Node modules: read through `getBuiltinModule`, not imported, so the module loads anywhere. */
const builtin = (name: string): Bag | undefined => {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  try {
    return process?.getBuiltinModule?.(name) as Bag | undefined
  } catch {
    return undefined
  }
}

class FakePerformanceEntry {
  constructor(
    readonly name: string,
    readonly entryType: string,
    readonly startTime: number,
    readonly duration: number,
  ) {}
  toJSON(): string {
    return JSON.stringify({ ...this })
  }
}

const noop = (): undefined => undefined
const noopArray = (): unknown[] => []

// Cold error paths.

const notAnObject = (config: unknown): never => {
  throw new TypeError(`FakeTimers.install called with ${String(config)} install requires an object parameter`)
}

const installedTwice = (): never => {
  throw new TypeError("Can't install fake timers twice on the same global object.")
}

const bothLists = (): never => {
  throw new TypeError('config.toFake and config.toNotFake cannot be used together')
}

const targetGone = (): never => {
  throw new TypeError('config.target is no longer supported. Use `withGlobal(target)` instead.')
}

const missingName = (name: string): never => {
  throw new ReferenceError(`non-existent timers and/or objects cannot be faked: '${name}'`)
}

/** The prototype whose methods the fake `performance` mirrors, read when the host was. */
const performancePrototype = (g: GlobalObject): object | undefined => {
  const performance = g['performance'] as { constructor?: { prototype?: object } } | undefined
  if (performance?.constructor?.prototype) return performance.constructor.prototype
  const Performance = g['Performance'] as { prototype?: object } | undefined
  if (Performance !== undefined && (typeof Performance === 'function' || typeof Performance === 'object')) return Performance.prototype
  return undefined
}

/**
 * Whether the function that called `fn` is Node's own (`node:internal/...`). Node queues
 * its own work through `process.nextTick` as it runs: a message from the parent process
 * (`child_process`' `handleMessage`), a stream's write callback. Faked, that work waits
 * for the clock to move, and is lost if it never does; a test runner's worker whose
 * parent's answer is lost waits forever (fake-timers 15.5 does this, and Vitest never
 * ends). So those calls stay on Node's queue; user code's calls are the clock's, as in
 * fake-timers. One frame, read as V8's call sites (not the text a user's
 * `prepareStackTrace` would make).
 */
const calledByNode = (fn: Fn): boolean => {
  const { stackTraceLimit, prepareStackTrace } = Error
  const holder: { stack?: ReadonlyArray<{ getFileName(): string | null | undefined }> } = {}
  try {
    Error.stackTraceLimit = 1
    Error.prepareStackTrace = (_error, frames) => frames
    Error.captureStackTrace(holder, fn)
    return holder.stack?.[0]?.getFileName()?.startsWith('node:') === true
  } finally {
    Error.stackTraceLimit = stackTraceLimit
    Error.prepareStackTrace = prepareStackTrace
  }
}

/**
 * Per target, the clocks whose `process.nextTick` is installed now, oldest first. Vitest
 * puts back the `nextTick` it found one tick late (its `withSafeTimers`, around each
 * message to its parent process), which can be a clock's forward after that clock was
 * uninstalled and another installed; a job queued through it would wait for a clock that
 * nothing moves. So a forward serves its own clock while it is installed, else the newest
 * clock installed, else it passes the call on to what it replaced.
 */
const liveTicks = new WeakMap<object, Clock[]>()

/**
 * What the first of any clocks' forwards stacked on `f` replaced: Node's own `nextTick`.
 * A forward handed Node's call must not hand it to another forward, which would see the
 * first as its caller rather than Node.
 */
const beneath = (f: Fn): Fn => {
  let under = f as unknown as Bag
  while (typeof under['clock'] === 'object' && under['clock'] !== null) under = (under['clock'] as Bag)['_nextTick'] as Bag
  return under as unknown as Fn
}

/**
 * fake-timers' `hijackMethod`: puts the clock's `name` on `target` as `method`, keeping
 * the original on the clock as `_${name}` (`name` differs only for `AbortSignal.timeout`).
 */
const hijack = (target: Bag, method: string, clock: Clock, name = method): void => {
  const fake = clock[name] as Bag
  fake['hadOwnProperty'] = Object.hasOwn(target, method)
  // Defined, not assigned: an assignment with a computed key turns an object with more than
  // a dozen properties added after its literal into a dictionary (V8), and an exploring clock
  // has that many; a dictionary clock makes every forward's \`clock[name]\` a hash lookup.
  Object.defineProperty(clock, `_${name}`, { value: target[method], writable: true, enumerable: true, configurable: true })
  if (method === 'Date' || method === 'Intl' || method === 'Temporal') target[method] = fake
  else if (method === 'performance') {
    const original = Object.getOwnPropertyDescriptor(target, method)
    if (original?.get && !original.set) {
      Object.defineProperty(clock, `_${method}`, original)
      Object.defineProperty(target, method, Object.getOwnPropertyDescriptor(clock, method)!)
    } else target[method] = fake
  } else {
    const original = target[method] as Fn
    const forward =
      method === 'nextTick'
        ? function (...args: unknown[]): unknown {
            if (calledByNode(forward)) return Reflect.apply(beneath(original), target, args)
            const live = liveTicks.get(target) ?? []
            const serving = live.includes(clock) ? clock : live.at(-1)
            if (serving === undefined) return Reflect.apply(original, target, args)
            return (serving[name] as Fn)(...args)
          }
        : function (...args: unknown[]): unknown {
            return (clock[name] as Fn)(...args)
          }
    Object.defineProperties(forward, Object.getOwnPropertyDescriptors(fake))
    put(target, method, forward)
    if (method === 'nextTick') liveTicks.set(target, [...(liveTicks.get(target) ?? []), clock])
  }
  ;(target[method] as Bag).clock = clock
}

/**
 * Installs a new clock on `host`'s global. Throws a `TypeError` for a config that is not
 * an object, for both `toFake` and `toNotFake`, for `target`, or when the global's
 * `Date` is already fake; a `ReferenceError` for a name asked for that the global lacks
 * (unless `ignoreMissingTimers`).
 *
 * @example
 * const clock = install(host, { now: 0, toFake: ['setTimeout', 'Date'] })
 * try { ... } finally { clock.uninstall() }
 */
export const install = (
  host: Host,
  config?: InstallConfig,
  extraArguments = 0,
  make: typeof createClock = createClock,
  // A clock stacked over another one's install (a node:test subtest's mock.timers), which
  // uninstalls first and checks itself that `Date` is not faked twice.
  stacked = false,
): Clock => {
  if (extraArguments > 0 || config instanceof Date || Array.isArray(config) || typeof config === 'number') notAnObject(config)
  const g = host.global
  if (!stacked && (g['Date'] as { isFake?: unknown } | undefined)?.isFake === true) installedTwice()
  const options: InstallConfig & { target?: unknown } = config ?? {}
  const hasToFake = Object.hasOwn(options, 'toFake')
  const hasToNotFake = Object.hasOwn(options, 'toNotFake')
  if (hasToFake && hasToNotFake) bothLists()
  if (options.target) targetGone()
  const missing = (name: string): void => {
    if (!options.ignoreMissingTimers) missingName(name)
  }

  const clock = make(host, options.now, options.loopLimit)
  const listeners: TimersPromises.AbortListeners = new Map()
  const all = Object.keys(host.timers) as FakeMethod[]
  let methods: FakeMethod[]
  if (hasToFake) methods = options.toFake && options.toFake.length > 0 ? [...options.toFake] : all
  else if (hasToNotFake) methods = all.filter((name) => !(options.toNotFake ?? []).includes(name))
  else methods = all
  clock['shouldClearNativeTimers'] = options.shouldClearNativeTimers || false
  clock['abortListenerMap'] = listeners
  clock['methods'] = methods

  if (options.shouldAdvanceTime === true) clock.setTickMode({ mode: 'interval', delta: options.advanceTimeDelta || 20 })

  if (methods.includes('performance') && clock.performance !== undefined) {
    const proto = performancePrototype(g)
    if (proto !== undefined) {
      const performance = clock.performance
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name !== 'now') performance[name] = name.startsWith('getEntries') ? noopArray : noop
      }
      put(performance, 'mark', (name: string) => new FakePerformanceEntry(name, 'mark', 0, 0))
      put(performance, 'measure', (name: string) => new FakePerformanceEntry(name, 'measure', 0, 100))
      performance['timeOrigin'] = options.now instanceof Date ? options.now.getTime() : options.now || 0
    } else if ((options.toFake ?? []).includes('performance')) missing('performance')
  }

  const onProcessGlobal = host.isProcessGlobal
  const timersModule = onProcessGlobal ? builtin('timers') : undefined
  const promisesModule = onProcessGlobal ? builtin('timers/promises') : undefined
  const perfHooks = onProcessGlobal ? builtin('perf_hooks') : undefined
  const moduleEntries: ModuleEntry[] = []
  let perfNow: { readonly holder: object; readonly descriptor: PropertyDescriptor | undefined } | undefined
  const process = g['process'] as Bag | undefined

  const globalPerformance = g['performance']
  for (const name of methods) {
    if (!host.present[name]) {
      missing(name)
      continue
    }
    if (name === 'hrtime' || name === 'nextTick') {
      if (process && typeof process[name] === 'function') hijack(process, name, clock)
    } else if (name === 'AbortSignal.timeout') hijack(g['AbortSignal'] as Bag, 'timeout', clock, name)
    else hijack(g, name, clock)
    // Node's shared `perf_hooks.performance` only when it is this global's: a vm context's
    // own `performance` (jsdom under Vitest's vmThreads) must leave the runner's timing alone.
    if (name === 'performance' && perfHooks?.['performance'] && perfHooks['performance'] === globalPerformance) {
      const holder = perfHooks['performance'] as object
      perfNow = { holder, descriptor: Object.getOwnPropertyDescriptor(holder, 'now') }
      Object.defineProperty(holder, 'now', { configurable: true, writable: true, value: clock.performance!.now })
    }
    if (timersModule !== undefined && timersModule[name]) {
      moduleEntries.push({ module: timersModule, name, original: timersModule[name] })
      put(timersModule, name, g[name])
    }
    if (promisesModule !== undefined) {
      const fake =
        name === 'setTimeout'
          ? TimersPromises.promiseSetTimeout(clock, listeners)
          : name === 'setImmediate'
            ? TimersPromises.promiseSetImmediate(clock, listeners)
            : name === 'setInterval'
              ? TimersPromises.promiseSetInterval(clock, listeners)
              : undefined
      if (fake !== undefined) {
        moduleEntries.push({ module: promisesModule, name, original: promisesModule[name] })
        put(promisesModule, name, fake)
      }
      // Beyond fake-timers 15.5, as Node's mock.timers: `scheduler.wait` is `setTimeout`'s.
      const scheduler = promisesModule['scheduler'] as Bag | undefined
      if (name === 'setTimeout' && typeof scheduler?.['wait'] === 'function') {
        moduleEntries.push({ module: scheduler, name: 'wait', original: Object.hasOwn(scheduler, 'wait') ? scheduler['wait'] : undefined })
        put(scheduler, 'wait', TimersPromises.promiseSchedulerWait(clock, listeners))
      }
    }
  }

  const ownUninstall = clock.uninstall
  put(clock, 'uninstall', (): TimerDescription[] => {
    const pending = ownUninstall()
    const installed = clock['methods'] as FakeMethod[]
    for (const name of installed) {
      if ((name === 'hrtime' || name === 'nextTick') && process) {
        if (name === 'nextTick') liveTicks.set(process, (liveTicks.get(process) ?? []).filter((c) => c !== clock))
        process[name] = clock[`_${name}`]
      } else if (name === 'AbortSignal.timeout') (g['AbortSignal'] as Bag)['timeout'] = clock[`_${name}`]
      else if (name === 'performance') {
        if (perfNow !== undefined) {
          if (perfNow.descriptor) Object.defineProperty(perfNow.holder, 'now', perfNow.descriptor)
          else Reflect.deleteProperty(perfNow.holder, 'now')
          perfNow = undefined
        }
        const original = Object.getOwnPropertyDescriptor(clock, '_performance')
        if (original?.get && !original.set) Object.defineProperty(g, name, original)
        else if (original?.configurable) g[name] = clock['_performance']
      } else if ((clock[name] as Bag | undefined)?.['hadOwnProperty']) g[name] = clock[`_${name}`]
      else {
        try {
          Reflect.deleteProperty(g, name)
        } catch {
          // A global that cannot be deleted stays.
        }
      }
    }
    if (installed.length > 0) {
      for (const entry of moduleEntries) {
        // `scheduler.wait` lives on its prototype: its own fake is deleted, not shadowed.
        if (entry.original === undefined) Reflect.deleteProperty(entry.module, entry.name)
        else entry.module[entry.name] = entry.original
      }
    }
    moduleEntries.length = 0
    clock['methods'] = []
    for (const [listener, signal] of listeners) {
      signal.removeEventListener('abort', listener)
      listeners.delete(listener)
    }
    return pending
  })
  return clock
}

/** Every name `install` knows, for `toFake` validation by callers. */
export const knownNames: readonly FakeMethod[] = fakeableNames
