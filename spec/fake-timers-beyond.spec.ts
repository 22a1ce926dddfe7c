/**
 * What `timing-wheel/fake-timers` fakes beyond fake-timers 15.5's list: `AbortSignal.timeout`
 * (fake-timers #521) under the name `'AbortSignal.timeout'`; and `Temporal.Now`, which 15.5
 * fakes too, checked here against a real Temporal (temporal-polyfill, as Vitest's own tests
 * use) since Node 20 has none. Also the rule for Node's shared `perf_hooks.performance`:
 * patched only when it is the global's `performance`.
 */
import fc from 'fast-check'
import { createRequire } from 'node:module'
import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import { install, timers, withGlobal } from '../lib/fake-timers/index.js'

const require = createRequire(import.meta.url)
const perfHooks = require('node:perf_hooks') as typeof import('node:perf_hooks')

describe('AbortSignal.timeout', () => {
  it('aborts at its virtual time with a TimeoutError DOMException, counted and ordered as a timer', () => {
    const clock = install({ now: 0 })
    try {
      const seen: string[] = []
      const signal = AbortSignal.timeout(100)
      signal.addEventListener('abort', () => seen.push(`abort at ${Date.now()}`))
      setTimeout(() => seen.push(`timeout at ${Date.now()}`), 100)
      expect(clock.countTimers()).toBe(2)
      clock.tick(99)
      expect(signal.aborted).toBe(false)
      clock.tick(1)
      expect(seen).toEqual(['abort at 100', 'timeout at 100'])
      expect(signal.reason).toBeInstanceOf(DOMException)
      expect(signal.reason).toMatchObject({ name: 'TimeoutError', message: 'The operation was aborted due to timeout' })
    } finally {
      clock.uninstall()
    }
  })

  it('is faked by default, kept real by toNotFake or a toFake without it, and put back by uninstall', () => {
    const original = AbortSignal.timeout
    expect(timers['AbortSignal.timeout']).toBe(original)
    for (const config of [{ toNotFake: ['AbortSignal.timeout' as const] }, { toFake: ['setTimeout' as const] }]) {
      const clock = install(config)
      expect(AbortSignal.timeout).toBe(original)
      clock.uninstall()
    }
    const clock = install({ toFake: ['AbortSignal.timeout'] })
    expect(AbortSignal.timeout).not.toBe(original)
    clock.uninstall()
    expect(AbortSignal.timeout).toBe(original)
  })

  it('leaves a delay that Node refuses to Node, which throws its own error and arms nothing', () => {
    const clock = install()
    try {
      fc.assert(
        fc.property(fc.oneof(fc.double(), fc.integer({ min: 2 ** 32, max: 2 ** 53 }), fc.string(), fc.constant(null), fc.bigInt()), (delay) => {
          fc.pre(!(Number.isInteger(delay) && (delay as number) >= 0 && (delay as number) < 2 ** 32))
          let native: unknown
          try {
            ;(clock['_AbortSignal.timeout'] as (d: unknown) => unknown)(delay)
          } catch (e) {
            native = e
          }
          expect(native).toBeInstanceOf(Error)
          expect(() => AbortSignal.timeout(delay as number)).toThrow((native as Error).message)
          expect(clock.countTimers()).toBe(0)
        }),
        { numRuns: 100 },
      )
    } finally {
      clock.uninstall()
    }
  })

  it('runs a delay above 2^31 - 1 after 1 ms, as every Node timer does', () => {
    const clock = install()
    try {
      const signal = AbortSignal.timeout(2 ** 32 - 1)
      clock.tick(1)
      expect(signal.aborted).toBe(true)
    } finally {
      clock.uninstall()
    }
  })
})

describe('Temporal', () => {
  it('Temporal.Now reads the clock, to the nanosecond of a fractional tick; the rest is the global’s', () => {
    const global = { Date, setTimeout, clearTimeout, setInterval, clearInterval, Temporal }
    const clock = withGlobal(global).install({ now: Date.UTC(2024, 1, 29, 12) })
    expect(global.Temporal).not.toBe(Temporal)
    expect(global.Temporal.Instant).toBe(Temporal.Instant)
    clock.tick(1.5)
    expect(global.Temporal.Now.instant().epochNanoseconds).toBe(BigInt(Date.UTC(2024, 1, 29, 12) + 1) * 1_000_000n + 500_000n)
    expect(global.Temporal.Now.zonedDateTimeISO('UTC').toString()).toBe('2024-02-29T12:00:00.0015+00:00[UTC]')
    expect(global.Temporal.Now.plainTimeISO('Asia/Tokyo').toString()).toBe('21:00:00.0015')
    expect(global.Temporal.Now.timeZoneId()).toBe(Temporal.Now.timeZoneId())
    clock.uninstall()
    expect(global.Temporal).toBe(Temporal)
  })

  it('is not faked where toNotFake names it', () => {
    const global = { Date, setTimeout, clearTimeout, setInterval, clearInterval, Temporal }
    const clock = withGlobal(global).install({ toNotFake: ['Temporal'] })
    expect(global.Temporal).toBe(Temporal)
    clock.uninstall()
  })
})

describe('perf_hooks.performance', () => {
  it('is patched when it is the global’s performance, and put back', () => {
    const now = perfHooks.performance.now
    const clock = install({ now: 0 })
    expect(perfHooks.performance.now()).toBe(0)
    clock.uninstall()
    expect(perfHooks.performance.now).toBe(now)
  })

  it('is left alone when the global has a performance of its own (jsdom under vmThreads)', () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'performance')!
    const own = { now: () => 42, timeOrigin: 0 }
    Object.defineProperty(globalThis, 'performance', { value: own, configurable: true, writable: true })
    try {
      const now = perfHooks.performance.now
      const clock = install({ now: 0 })
      try {
        clock.tick(10_000)
        expect(performance.now()).toBe(10_000)
        expect(perfHooks.performance.now).toBe(now)
        expect(Object.hasOwn(perfHooks.performance, 'now')).toBe(false)
      } finally {
        clock.uninstall()
      }
    } finally {
      Object.defineProperty(globalThis, 'performance', descriptor)
    }
  })
})
