/**
 * Vitest's `FakeTimers` class, on the wheel: what `vi.useFakeTimers()`,
 * `vi.advanceTimersByTime()` and the other timer methods of `vi` call, with
 * `timing-wheel/fake-timers` in place of the copy of `@sinonjs/fake-timers` that Vitest
 * bundles. `setup.ts` hands `vi`'s methods to one of these.
 *
 * Representation: Vitest's two flags, read from its `FakeTimers` class (Vitest 3 to 5,
 * `packages/vitest/src/integrations/mock/timers.ts`):
 *
 * | `fakingTime` | `fakingDate` | state |
 * | --- | --- | --- |
 * | false | null | real timers and a real `Date` |
 * | false | a `Date` | `setSystemTime` before `useFakeTimers`: `Date` alone is mocked |
 * | true | null | `useFakeTimers`: every faked name runs on `clock` |
 *
 * `clock` is the installed clock in both mocked states; in the second it fakes `Date`
 * (and `Temporal`, where there is one) and nothing else, so time stands still, as under
 * Vitest's own date mock. Everything else follows Vitest: `now` is the mocked date if
 * there is one, else the real `Date.now()`; `toFake` defaults to every name the module
 * can fake here except `nextTick` and `queueMicrotask` (which Node's internals use), and
 * missing names are skipped (`ignoreMissingTimers`); a user's `toNotFake` is honoured
 * instead (as Vitest 5 does); faking `nextTick` in a child process is refused; moving
 * before `useFakeTimers` throws Vitest's "timers APIs are not mocked" error.
 *
 * @module
 */
import { type Clock, type FakeMethod, type FakeTimers as Module, type InstallConfig, withGlobal } from '../fake-timers/index.js'

/**
 * Vitest's `fakeTimers` config: fake-timers' install options.
 *
 * @example
 * export default defineConfig({ test: { fakeTimers: { loopLimit: 50 }, setupFiles: ['timing-wheel/vitest/setup'] } })
 */
export type FakeTimersConfig = InstallConfig

/**
 * The tick modes of `vi.setTimerTickMode`.
 *
 * @example
 * vi.setTimerTickMode('nextTimerAsync') // the clock moves to each next timer by itself
 */
export type TimerTickMode = 'manual' | 'nextTimerAsync' | 'interval'

const RealDate = Date

/** Vitest's `isChildProcess`: a forks-pool worker, where `nextTick` cannot be faked. */
export const isChildProcess = (): boolean => typeof process !== 'undefined' && Boolean(process.send)

// Cold error paths, worded as Vitest words them.

const notMocked = (): never => {
  throw new Error(
    'A function to advance timers was called but the timers APIs are not mocked. Call `vi.useFakeTimers()` in the test file first.',
  )
}

const nextTickInChild = (): never => {
  throw new Error('process.nextTick cannot be mocked inside child_process')
}

const badTickMode = (mode: unknown): never => {
  throw new Error(`Invalid tick mode: ${String(mode)}`)
}

/**
 * Vitest's `FakeTimers` for one global object, on a `timing-wheel/fake-timers` clock.
 *
 * @example
 * const timers = new FakeTimers({ global: globalThis, config: { loopLimit: 10_000 } })
 * timers.useFakeTimers()
 * setTimeout(() => console.log('later'), 100)
 * timers.advanceTimersByTime(100) // later
 * timers.useRealTimers()
 */
export class FakeTimers {
  private readonly fakeTimers: Module
  private userConfig: FakeTimersConfig | undefined
  private fakingTime = false
  private fakingDate: Date | null = null
  private clock: Clock | undefined
  private readonly realNow = RealDate.now

  constructor({ global, config }: { readonly global: object; readonly config?: FakeTimersConfig | undefined }) {
    this.userConfig = config
    this.fakeTimers = withGlobal(global)
  }

  /** Clears every timer (`vi.clearAllTimers`); a no-op without fake timers. */
  clearAllTimers(): void {
    if (this.fakingTime) this.clock!.reset()
  }

  /** Puts the real timers back, as `useRealTimers` does. */
  dispose(): void {
    this.useRealTimers()
  }

  /** Fires timers until none is left (`vi.runAllTimers`), up to `loopLimit`. */
  runAllTimers(): void {
    this.faked().runAll()
  }

  /** `runAllTimers`, letting promises settle between timers. */
  async runAllTimersAsync(): Promise<void> {
    await this.faked().runAllAsync()
  }

  /** Fires the timers pending now, not those they arm (`vi.runOnlyPendingTimers`). */
  runOnlyPendingTimers(): void {
    this.faked().runToLast()
  }

  /** `runOnlyPendingTimers`, letting promises settle between timers. */
  async runOnlyPendingTimersAsync(): Promise<void> {
    await this.faked().runToLastAsync()
  }

  /** `next()` then `tick(0)` (to run what is due with it), `steps` times or until no timer is left. */
  advanceTimersToNextTimer(steps = 1): void {
    const clock = this.faked()
    for (let i = steps; i > 0; i--) {
      clock.next()
      clock.tick(0)
      if (clock.countTimers() === 0) break
    }
  }

  /** `advanceTimersToNextTimer`, letting promises settle between timers. */
  async advanceTimersToNextTimerAsync(steps = 1): Promise<void> {
    const clock = this.faked()
    for (let i = steps; i > 0; i--) {
      await clock.nextAsync()
      clock.tick(0)
      if (clock.countTimers() === 0) break
    }
  }

  /** Moves the clock `msToRun` ms, firing what falls due (`vi.advanceTimersByTime`). */
  advanceTimersByTime(msToRun: number): void {
    this.faked().tick(msToRun)
  }

  /** `advanceTimersByTime`, letting promises settle between timers. */
  async advanceTimersByTimeAsync(msToRun: number): Promise<void> {
    await this.faked().tickAsync(msToRun)
  }

  /** Moves to the next animation frame, firing what falls due (`vi.advanceTimersToNextFrame`). */
  advanceTimersToNextFrame(): void {
    this.faked().runToFrame()
  }

  /** Runs the faked microtasks (`vi.runAllTicks`). */
  runAllTicks(): void {
    this.faked().runMicrotasks()
  }

  /** Puts the real timers and `Date` back (`vi.useRealTimers`). */
  useRealTimers(): void {
    if (this.fakingDate) {
      this.clock!.uninstall()
      this.fakingDate = null
    }
    if (this.fakingTime) {
      this.clock!.uninstall()
      this.fakingTime = false
    }
  }

  /** Installs a clock with the configured names faked, at the mocked date or now (`vi.useFakeTimers`). */
  useFakeTimers(): void {
    const now = this.fakingDate ?? Date.now()
    if (this.fakingDate) {
      this.clock!.uninstall()
      this.fakingDate = null
    }
    if (this.fakingTime) this.clock!.uninstall()
    let toFake = this.userConfig?.toFake
    let toNotFake = this.userConfig?.toNotFake
    if (isChildProcess() && toFake?.includes('nextTick')) nextTickInChild()
    if (toFake === undefined && toNotFake === undefined) {
      toFake = (Object.keys(this.fakeTimers.timers) as FakeMethod[]).filter((name) => name !== 'nextTick' && name !== 'queueMicrotask')
    }
    if (isChildProcess() && toNotFake !== undefined && !toNotFake.includes('nextTick')) toNotFake = [...toNotFake, 'nextTick']
    this.clock = this.fakeTimers.install({
      now,
      ...this.userConfig,
      ...(toFake !== undefined && { toFake }),
      ...(toNotFake !== undefined && { toNotFake }),
      ignoreMissingTimers: true,
    })
    this.fakingTime = true
  }

  /** Clears every timer and keeps the mocked time. */
  reset(): void {
    const clock = this.faked()
    const { now } = clock
    clock.reset()
    clock.setSystemTime(now)
  }

  /** With fake timers, moves the clock's wall time; before them, mocks `Date` alone at `now` (default: the real time). */
  setSystemTime(now?: number | string | Date): void {
    const date = now === undefined || now instanceof RealDate ? now : new RealDate(now)
    if (this.fakingTime) this.clock!.setSystemTime(date)
    else {
      const fakingDate = date ?? new RealDate(this.getRealSystemTime())
      if (Number.isNaN(fakingDate.getTime())) throw new TypeError(`mockdate: The time set is an invalid date: ${String(now)}`)
      if (this.fakingDate) this.clock!.setSystemTime(fakingDate)
      else this.clock = this.fakeTimers.install({ now: fakingDate, toFake: ['Date', 'Temporal'], ignoreMissingTimers: true })
      this.fakingDate = fakingDate
    }
  }

  /** The faked time, or the date mocked alone, or null (`vi.getMockedSystemTime`). */
  getMockedSystemTime(): Date | null {
    return this.fakingTime ? new Date(this.clock!.now) : this.fakingDate
  }

  /** The real `Date.now()`, whatever is faked (`vi.getRealSystemTime`). */
  getRealSystemTime(): number {
    return this.realNow()
  }

  /** How many timers are pending (`vi.getTimerCount`). */
  getTimerCount(): number {
    return this.faked().countTimers()
  }

  /** How the clock moves by itself: not at all, to each next timer, or every `interval` ms (`vi.setTimerTickMode`). */
  setTimerTickMode(mode: TimerTickMode, interval?: number): void {
    const clock = this.faked()
    if (mode === 'manual') clock.setTickMode({ mode: 'manual' })
    else if (mode === 'nextTimerAsync') clock.setTickMode({ mode: 'nextAsync' })
    else if (mode === 'interval') clock.setTickMode({ mode: 'interval', delta: interval })
    else badTickMode(mode)
  }

  /** The config the next `useFakeTimers` installs with. */
  configure(config: FakeTimersConfig | undefined): void {
    this.userConfig = config
  }

  /** Whether fake timers are installed (`vi.isFakeTimers`). */
  isFakeTimers(): boolean {
    return this.fakingTime
  }

  private faked(): Clock {
    if (!this.fakingTime) notMocked()
    return this.clock!
  }
}
