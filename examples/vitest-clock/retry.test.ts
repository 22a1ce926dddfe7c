/**
 * `npm run example:vitest-clock`: a test written for Vitest's fake timers, unchanged, on
 * the wheel. The only difference from a plain Vitest project is one line of its config,
 * `setupFiles: ['timing-wheel/vitest/setup']` (vitest.config.ts beside this file). The
 * last test shows the clock is the wheel's: an `AbortSignal.timeout` follows it, which
 * Vitest's own fake timers leave on real time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Outcome, retry } from './retry.js'

describe('retry with exponential back-off, on fake time', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(Date.UTC(2030, 0, 1))
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('waits 100, 200, 400 ms between attempts and succeeds on the fourth', () => {
    const attempts: number[] = []
    let outcome: Outcome | undefined
    retry((n) => (attempts.push(Date.now() - Date.UTC(2030, 0, 1)), n < 3 ? new Error('busy') : 'ok'), { attempts: 5, firstDelay: 100, deadline: 10_000 }, (o) => (outcome = o))
    expect(attempts).toEqual([0])
    vi.advanceTimersByTime(99)
    expect(attempts).toEqual([0])
    vi.advanceTimersByTime(1)
    expect(attempts).toEqual([0, 100])
    vi.runAllTimers()
    expect(attempts).toEqual([0, 100, 300, 700])
    expect(outcome).toEqual({ ok: true, value: 'ok', at: 700 })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('gives up at the deadline without waiting in real time', () => {
    let outcome: Outcome | undefined
    retry(() => new Error('down'), { attempts: 100, firstDelay: 1000, deadline: 30_000 }, (o) => (outcome = o))
    vi.runAllTimers()
    expect(outcome).toEqual({ ok: false, reason: 'deadline: down', at: 15_000 })
    expect(Date.now()).toBe(Date.UTC(2030, 0, 1) + 15_000)
  })

  it('gives up after the last attempt', () => {
    let outcome: Outcome | undefined
    retry(() => new Error('nope'), { attempts: 3, firstDelay: 10, deadline: 1e9 }, (o) => (outcome = o))
    vi.runAllTimers()
    expect(outcome).toEqual({ ok: false, reason: 'gave up after 3 attempts: nope', at: 30 })
  })

  it('runs on the wheel: AbortSignal.timeout aborts on fake time', () => {
    const signal = AbortSignal.timeout(5_000)
    vi.advanceTimersByTime(5_000)
    expect(signal.aborted).toBe(true)
  })
})
