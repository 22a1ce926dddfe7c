/**
 * `timing-wheel/vitest/setup`: listed first in `test.setupFiles`, it puts every timer
 * method of Vitest's `vi` on the wheel, so existing tests run unchanged on
 * `timing-wheel/fake-timers` clocks.
 *
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { setupFiles: ['timing-wheel/vitest/setup'] } })
 * ```
 *
 * Why this works: Vitest's `vi` is one plain object per worker (not frozen, its methods
 * writable), and everything that moves fake time goes through it: test files, setup
 * files, `globals: true`, and Vitest's own `vi.waitFor`, `vi.waitUntil` and `expect.poll`
 * (they call `vi.isFakeTimers()` and `vi.advanceTimersByTime()`). Vitest's copy of
 * fake-timers is pasted into its `dist` chunk, which Node loads past Vite, so neither an
 * alias nor a plugin can reach it; replacing the methods can.
 *
 * As Vitest does (`createVitest()` in `packages/vitest/src/integrations/vi.ts`): one
 * {@link FakeTimers} per worker, made at the first call, on `globalThis`, with the config
 * of `test.fakeTimers` as `vi.setConfig` leaves it; `vi.useFakeTimers(config)` merges
 * `config` over it; every method returns `vi` for chaining. A method is replaced only
 * where the installed Vitest has it (`setTimerTickMode` came in 4.1). Vitest 3, 4 and 5
 * are known; another major version is refused with an error naming it, rather than
 * half-installed. Setup files run again for each test file; the second run finds `vi`
 * already moved and does nothing.
 *
 * @module
 */
import { createRequire } from 'node:module'
import { vi } from 'vitest'
import { checkAdvance, checkSystemTime, fromRoute } from '../fake-timers/refusals.js'
import { FakeTimers, type FakeTimersConfig, isChildProcess } from './fake-timers.js'

/** The Vitest majors whose `FakeTimers` semantics this follows. */
export const knownMajors: readonly number[] = [3, 4, 5]

/** Where the moved `vi` keeps its timers: one key for every copy of this module. */
const marker = Symbol.for('timing-wheel.vitest.timers')

type Vi = Record<string | symbol, unknown>

interface WorkerState {
  readonly config?: { readonly fakeTimers?: FakeTimersConfig }
}

const workerConfig = (): FakeTimersConfig | undefined =>
  (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__?.config?.fakeTimers

const nextTickInChild = (): never => {
  throw new Error(
    'vi.useFakeTimers({ toFake: ["nextTick"] }) is not supported in node:child_process. Use --pool=threads if mocking nextTick is required.',
  )
}

const unknownMajor = (version: string): never => {
  throw new Error(
    `timing-wheel/vitest/setup: Vitest ${version} is not a version it knows (majors ${knownMajors.join(', ')}); vi's timers were left as they are. Remove the setup file or use a known Vitest.`,
  )
}

/**
 * Moves the timer methods of `target` (Vitest's `vi`) onto a lazily made
 * {@link FakeTimers}. Does nothing if `target` was moved already. Throws if `version`
 * is not of a known major.
 *
 * @example
 * moveTimers(vi, '4.1.11')
 * vi.useFakeTimers() // a timing-wheel clock
 */
export const moveTimers = (target: object, version: string): void => {
  const v = target as Vi
  if (v[marker] !== undefined) return
  if (!knownMajors.includes(Number(version.split('.')[0]))) unknownMajor(version)
  let made: FakeTimers | undefined
  const timers = (): FakeTimers => (made ??= new FakeTimers({ global: globalThis, config: workerConfig() }))
  const isChild = isChildProcess()

  const methods: Record<string, (...args: never[]) => unknown> = {
    useFakeTimers(config?: FakeTimersConfig) {
      if (isChild && (config?.toFake?.includes('nextTick') || workerConfig()?.toFake?.includes('nextTick'))) nextTickInChild()
      timers().configure(config ? { ...workerConfig(), ...config } : workerConfig())
      timers().useFakeTimers()
      return target
    },
    isFakeTimers: () => timers().isFakeTimers(),
    useRealTimers: () => (timers().useRealTimers(), target),
    runOnlyPendingTimers: () => (timers().runOnlyPendingTimers(), target),
    runOnlyPendingTimersAsync: async () => (await timers().runOnlyPendingTimersAsync(), target),
    runAllTimers: () => (timers().runAllTimers(), target),
    runAllTimersAsync: async () => (await timers().runAllTimersAsync(), target),
    runAllTicks: () => (timers().runAllTicks(), target),
    // A refusal names the vi method and starts at the user's line (see refusals.ts).
    advanceTimersByTime(ms: number) {
      checkAdvance('vi.advanceTimersByTime', ms, methods.advanceTimersByTime!)
      timers().advanceTimersByTime(ms)
      return target
    },
    async advanceTimersByTimeAsync(ms: number) {
      checkAdvance('vi.advanceTimersByTimeAsync', ms, methods.advanceTimersByTimeAsync!)
      await timers().advanceTimersByTimeAsync(ms)
      return target
    },
    // vi takes no step count, in every version: one timer a call.
    advanceTimersToNextTimer: () => (timers().advanceTimersToNextTimer(), target),
    advanceTimersToNextTimerAsync: async () => (await timers().advanceTimersToNextTimerAsync(), target),
    advanceTimersToNextFrame: () => (timers().advanceTimersToNextFrame(), target),
    getTimerCount: () => timers().getTimerCount(),
    setSystemTime(time?: number | string | Date) {
      // Faking, Vitest would set the clock to NaN; the wheel refuses. Not faking, the
      // refusal is Vitest's date mock's own. setSystemTime runs no callback, so any error is its.
      if (timers().isFakeTimers()) checkSystemTime('vi.setSystemTime', time, methods.setSystemTime!, true)
      try {
        timers().setSystemTime(time)
      } catch (error) {
        throw fromRoute(error, methods.setSystemTime!)
      }
      return target
    },
    getMockedSystemTime: () => timers().getMockedSystemTime(),
    getRealSystemTime: () => timers().getRealSystemTime(),
    clearAllTimers: () => (timers().clearAllTimers(), target),
    setTimerTickMode: (mode: Parameters<FakeTimers['setTimerTickMode']>[0], interval?: number) => (
      timers().setTimerTickMode(mode, interval), target
    ),
  }
  for (const [name, method] of Object.entries(methods)) if (typeof v[name] === 'function') v[name] = method
  Object.defineProperty(v, marker, { get: timers, configurable: true })
}

const vitestVersion = (): string => (createRequire(import.meta.url)('vitest/package.json') as { version: string }).version

moveTimers(vi, vitestVersion())
