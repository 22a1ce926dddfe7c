/**
 * Installing clocks: timing-wheel/fake-timers' `install` and `withGlobal` (what they
 * replace, what uninstall puts back, the options), and the install of `VirtualClock`,
 * which shares its refusal of a second clock and fake-timers' `performance.now`.
 */
import { createRequire } from 'node:module'
import { describe, expect, it, vi } from 'vitest'
import { install, withGlobal } from '../lib/fake-timers/index.js'
import { VirtualClock } from '../lib/sim/index.js'

const require = createRequire(import.meta.url)

/** A global object of the shape a browser-like host has, built fresh for each test. */
const fakeGlobal = (): Record<string, unknown> => ({
  Date,
  setTimeout: () => 1,
  clearTimeout: () => undefined,
  setInterval: () => 1,
  clearInterval: () => undefined,
  requestAnimationFrame: () => 1,
  cancelAnimationFrame: () => undefined,
  Promise,
})

const descriptors = (target: object, names: readonly string[]): unknown =>
  names.map((name) => [name, Object.getOwnPropertyDescriptor(target, name)])

describe('install on the process global', () => {
  it('replaces timers, Date, performance, hrtime, nextTick and Intl, and puts each back', () => {
    const originals = { setTimeout, Date, performance, Intl, hrtime: process.hrtime, nextTick: process.nextTick }
    const clock = install({ now: Date.UTC(2030, 0, 1) })
    try {
      expect(setTimeout).not.toBe(originals.setTimeout)
      expect((setTimeout as unknown as { clock: unknown }).clock).toBe(clock)
      expect(new Date().toISOString()).toBe('2030-01-01T00:00:00.000Z')
      expect(performance.now).toBe(clock.performance!.now)
      expect(performance.mark('m')).toMatchObject({ name: 'm', entryType: 'mark', startTime: 0, duration: 0 })
      expect(performance.getEntries()).toEqual([])
      expect(performance.timeOrigin).toBe(Date.UTC(2030, 0, 1))
      const fired: number[] = []
      setTimeout(() => fired.push(Date.now()), 1000)
      process.nextTick(() => fired.push(-1))
      clock.tick(1000)
      expect(fired).toEqual([-1, Date.UTC(2030, 0, 1) + 1000])
      expect(process.hrtime()).toEqual([1, 0])
      expect(new Intl.DateTimeFormat('en', { timeZone: 'UTC', year: 'numeric' }).format()).toBe('2030')
    } finally {
      clock.uninstall()
    }
    expect({ setTimeout, Date, performance, Intl, hrtime: process.hrtime, nextTick: process.nextTick }).toEqual(originals)
    expect(setTimeout).toBe(originals.setTimeout)
    expect(Date).toBe(originals.Date)
  })

  it('fakes the timers module and performance.now of perf_hooks too', () => {
    const timers = require('node:timers') as typeof import('node:timers')
    const perfHooks = require('node:perf_hooks') as typeof import('node:perf_hooks')
    const original = timers.setTimeout
    const clock = install()
    try {
      expect(timers.setTimeout).toBe(globalThis.setTimeout)
      expect(perfHooks.performance.now()).toBe(0)
      let fired = false
      timers.setTimeout(() => (fired = true), 10)
      clock.tick(10)
      expect(fired).toBe(true)
    } finally {
      clock.uninstall()
    }
    expect(timers.setTimeout).toBe(original)
    expect(Object.hasOwn(perfHooks.performance, 'now')).toBe(false)
  })

  it('fakes timers/promises: setTimeout with an abort signal, setImmediate, and the setInterval iterator', async () => {
    const promises = require('node:timers/promises') as typeof import('node:timers/promises')
    const original = promises.setTimeout
    const clock = install()
    try {
      const slept = promises.setTimeout(100, 'woke')
      await clock.tickAsync(100)
      await expect(slept).resolves.toBe('woke')

      const controller = new AbortController()
      const aborted = promises.setTimeout(100, 'never', { signal: controller.signal })
      controller.abort(new Error('stop'))
      await expect(aborted).rejects.toThrow('stop')
      expect(clock.countTimers()).toBe(0)

      const immediate = promises.setImmediate('now')
      clock.tick(0)
      await expect(immediate).resolves.toBe('now')

      const seen: number[] = []
      const start = clock.now
      const iterating = (async () => {
        for await (const value of promises.setInterval(10, 'x')) {
          seen.push(clock.now - start)
          expect(value).toBe('x')
          if (seen.length === 3) break
        }
      })()
      await clock.tickAsync(50)
      await iterating
      expect(seen).toEqual([10, 20, 30])
      expect(clock.countTimers()).toBe(0)
    } finally {
      clock.uninstall()
    }
    expect(promises.setTimeout).toBe(original)
  })

  it('refuses a second install, and one after uninstall is fine', () => {
    const clock = install()
    try {
      expect(() => install()).toThrow("Can't install fake timers twice on the same global object.")
      expect(() => VirtualClock.create().install()).toThrow("Can't install fake timers twice on the same global object.")
    } finally {
      clock.uninstall()
    }
    install().uninstall()
  })

  it('checks its config as fake-timers does', () => {
    expect(() => install(5 as never)).toThrow('FakeTimers.install called with 5 install requires an object parameter')
    expect(() => (install as (...a: unknown[]) => unknown)({}, {})).toThrow('install requires an object parameter')
    expect(() => install({ toFake: ['Date'], toNotFake: ['Date'] })).toThrow(
      'config.toFake and config.toNotFake cannot be used together',
    )
    expect(() => install({ target: {} } as never)).toThrow('config.target is no longer supported')
    expect(Date).toBe(globalThis.Date)
  })

  it('toFake fakes only what it names, toNotFake all but that', () => {
    const realTimeout = setTimeout
    const only = install({ toFake: ['Date'] })
    try {
      expect(setTimeout).toBe(realTimeout)
      expect(Date.now()).toBe(0)
    } finally {
      only.uninstall()
    }
    const allBut = install({ toNotFake: ['Date'] })
    try {
      expect(setTimeout).not.toBe(realTimeout)
      expect(Date.now()).toBeGreaterThan(0)
    } finally {
      allBut.uninstall()
    }
  })

  it('shouldAdvanceTime moves the clock with real time', async () => {
    const clock = install({ shouldAdvanceTime: true, advanceTimeDelta: 5 })
    const realSetTimeout = clock['_setTimeout'] as typeof setTimeout
    try {
      await new Promise((resolve) => realSetTimeout(resolve, 30))
      expect(Date.now()).toBeGreaterThanOrEqual(5)
    } finally {
      clock.uninstall()
    }
  })

  it('shouldClearNativeTimers clears a native timer with the original function instead of warning', () => {
    const native = setTimeout(() => undefined, 10_000)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const clock = install({ shouldClearNativeTimers: true })
    try {
      clearTimeout(native)
      expect(warn).not.toHaveBeenCalled()
      expect(native.hasRef()).toBe(true) // still a Timeout object, now cleared
    } finally {
      clock.uninstall()
      warn.mockRestore()
    }
  })
})

describe('clearing a native timer', () => {
  it('warns once per withGlobal and clears nothing, without shouldClearNativeTimers', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const g = fakeGlobal()
      const clock = withGlobal(g).createClock()
      clock.setTimeout(() => undefined, 10)
      clock.clearTimeout(17)
      clock.clearTimeout(18)
      expect(warn).toHaveBeenCalledTimes(1)
      expect(String(warn.mock.calls[0]![0])).toContain('FakeTimers: clearTimeout was invoked to clear a native timer')
      expect(clock.countTimers()).toBe(1)
      withGlobal(g).createClock().clearInterval(19)
      expect(warn).toHaveBeenCalledTimes(2)
    } finally {
      warn.mockRestore()
    }
  })
})

describe('withGlobal', () => {
  it('reads another global: numeric ids where its setTimeout returns numbers, its own originals', () => {
    const g = fakeGlobal()
    const ft = withGlobal(g)
    expect(Object.keys(ft)).toEqual(['timers', 'createClock', 'install', 'withGlobal'])
    expect(ft.timers.setTimeout).toBe(g['setTimeout'])
    expect(ft.timers.setImmediate).toBeUndefined()
    const clock = ft.createClock()
    expect(typeof clock.setTimeout(() => undefined, 1)).toBe('number')
  })

  it('install replaces and uninstall deletes or restores exactly', () => {
    const g = fakeGlobal()
    const names = ['setTimeout', 'requestAnimationFrame', 'Date', 'setImmediate']
    const before = descriptors(g, names)
    const clock = withGlobal(g).install({ toFake: ['setTimeout', 'requestAnimationFrame', 'Date'] })
    expect((g['Date'] as { isFake?: boolean }).isFake).toBe(true)
    let frames = 0
    ;(g['requestAnimationFrame'] as (f: () => void) => void)(() => frames++)
    clock.tick(16)
    expect(frames).toBe(1)
    clock.uninstall()
    expect(descriptors(g, names)).toEqual(before)
  })

  it('refuses names the global lacks unless ignoreMissingTimers', () => {
    const g = fakeGlobal()
    expect(() => withGlobal(g).install({ toFake: ['setImmediate'] })).toThrow(
      "non-existent timers and/or objects cannot be faked: 'setImmediate'",
    )
    const clock = withGlobal(g).install({ toFake: ['setImmediate', 'setTimeout'], ignoreMissingTimers: true })
    expect(g['setImmediate']).toBeUndefined()
    clock.uninstall()
  })

  it('refuses a global without Date', () => {
    expect(() => withGlobal({ setTimeout: () => 1 })).toThrow("The global scope doesn't have a `Date` object")
  })
})

describe('VirtualClock.install', () => {
  it('puts the clock’s own performance.now in place, not a wrapper', () => {
    const target = { performance: { now: () => 1 }, Date: { now: () => 2 } }
    const clock = VirtualClock.create()
    clock.install(target)
    try {
      expect(target.performance.now).toBe(clock.performance.now)
    } finally {
      clock.uninstall()
    }
  })

  it('leaves a Date without now as it is', () => {
    const date = function NoNow() {}
    const target: Record<string, unknown> = { Date: date, setTimeout: () => 1 }
    const clock = VirtualClock.create()
    clock.install(target)
    try {
      expect(Object.hasOwn(date, 'now')).toBe(false)
    } finally {
      clock.uninstall()
    }
  })

  it('refuses a target that already has a clock, of either kind', () => {
    const target = fakeGlobal()
    const first = VirtualClock.create()
    first.install(target)
    expect(() => VirtualClock.create().install(target)).toThrow(TypeError)
    expect(() => VirtualClock.create().install(target)).toThrow("Can't install fake timers twice on the same global object.")
    first.uninstall()
    const fake = withGlobal(target).install()
    expect(() => VirtualClock.create().install(target)).toThrow("Can't install fake timers twice")
    fake.uninstall()
    const again = VirtualClock.create()
    again.install(target)
    again.uninstall()
  })
})
