/**
 * install / uninstall: a clock takes over a global object's timer functions, `Date.now`
 * and `performance.now`, and uninstall leaves every property exactly as it found it:
 * the same values and the same attributes, own or inherited as before.
 */
import { describe, expect, it } from 'vitest'
import { VirtualClock } from '../lib/sim/index.js'

const timerNames = [
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'requestAnimationFrame',
  'cancelAnimationFrame',
] as const

/** Every property install may touch, as own descriptors (undefined when absent or inherited). */
const snapshot = (target: Record<string, unknown>): Record<string, PropertyDescriptor | undefined> => {
  const date = target['Date'] as object | undefined
  const performance = target['performance'] as object | undefined
  const shot: Record<string, PropertyDescriptor | undefined> = {}
  for (const name of timerNames) shot[name] = Object.getOwnPropertyDescriptor(target, name)
  shot['Date'] = Object.getOwnPropertyDescriptor(target, 'Date')
  shot['Date.now'] = date === undefined ? undefined : Object.getOwnPropertyDescriptor(date, 'now')
  shot['performance.now'] = performance === undefined ? undefined : Object.getOwnPropertyDescriptor(performance, 'now')
  return shot
}

/** A stand-in for a global object, with properties of several kinds. */
const freshGlobal = (): Record<string, unknown> => {
  const target: Record<string, unknown> = {}
  target['setTimeout'] = () => 'real setTimeout'
  target['clearTimeout'] = () => 'real clearTimeout'
  const hidden = { writable: true, enumerable: false, configurable: true }
  Object.defineProperty(target, 'setInterval', { value: () => 'real setInterval', ...hidden })
  Object.defineProperty(target, 'clearInterval', { get: () => () => 'real clearInterval', configurable: true, enumerable: true })
  target['Date'] = Object.assign(function FakeDate() {}, { now: () => 42 })
  target['performance'] = Object.create({ now: () => 7 }) as object // now is inherited, as in Node
  return target
}

describe('install on a fresh object', () => {
  it('replaces the timer functions it has, Date.now and performance.now, and restores them exactly', () => {
    const target = freshGlobal()
    const before = snapshot(target)
    const realSetTimeout = target['setTimeout']
    const clock = VirtualClock.create({ now: 1_000 })

    clock.install(target)
    const installed = target as unknown as {
      setTimeout: (f: () => void, ms: number) => unknown
      setInterval: (f: () => void, ms: number) => unknown
      clearInterval: (id: unknown) => void
      Date: { now(): number }
      performance: { now(): number }
    }
    const fired: number[] = []
    installed.setTimeout(() => fired.push(clock.now), 10)
    const interval = installed.setInterval(() => fired.push(clock.now), 4)
    expect(clock.countTimers()).toBe(2)
    clock.tick(10)
    installed.clearInterval(interval)
    expect(fired).toEqual([1_004, 1_008, 1_010])
    expect(installed.Date.now()).toBe(1_010)
    clock.tick(0.5)
    expect(installed.performance.now()).toBe(10.5)
    expect((installed.setTimeout as unknown as { clock: unknown }).clock).toBe(clock)
    expect('setImmediate' in target).toBe(false) // not added: the target had none
    expect(Object.getOwnPropertyDescriptor(target, 'setInterval')?.enumerable).toBe(false)

    clock.uninstall()
    expect(snapshot(target)).toEqual(before)
    expect(target['setTimeout']).toBe(realSetTimeout)
    expect((target['performance'] as { now(): number }).now()).toBe(7)
    expect((target['clearInterval'] as () => string)()).toBe('real clearInterval')
  })

  it('adds the timer functions named in toFake and deletes them again', () => {
    const target: Record<string, unknown> = {}
    const clock = VirtualClock.create()
    clock.install(target, { toFake: ['setTimeout', 'requestAnimationFrame'] })
    expect(Object.keys(target).sort()).toEqual(['requestAnimationFrame', 'setTimeout'])
    clock.uninstall()
    expect(Object.keys(target)).toEqual([])
    expect(() => clock.install(target, { toFake: ['Date'] })).toThrow('no Date to fake')
    expect(Object.keys(target)).toEqual([])
  })

  it('refuses a second install, and uninstall twice is harmless', () => {
    const target = freshGlobal()
    const before = snapshot(target)
    const clock = VirtualClock.create()
    clock.install(target)
    expect(() => clock.install(target)).toThrow('already installed')
    clock.uninstall()
    clock.uninstall()
    expect(snapshot(target)).toEqual(before)
    clock.install(target) // and again after uninstall
    clock.uninstall()
    expect(snapshot(target)).toEqual(before)
  })

  it('undoes a partial install when a property cannot be replaced', () => {
    const target = freshGlobal()
    Object.defineProperty(target, 'setImmediate', { value: () => 'frozen', writable: false, configurable: false })
    const before = snapshot(target)
    const clock = VirtualClock.create()
    expect(() => clock.install(target)).toThrow(TypeError)
    expect(snapshot(target)).toEqual(before)
    expect(() => clock.uninstall()).not.toThrow()
  })
})

describe('install on globalThis', () => {
  it('takes over the real globals and gives them back exactly', async () => {
    const g = globalThis as unknown as Record<string, unknown>
    const before = snapshot(g)
    const originals = timerNames.map((name) => g[name])
    const clock = VirtualClock.create({ now: Date.UTC(2030, 0, 1) })
    const fired: string[] = []
    clock.install()
    try {
      setTimeout(() => fired.push(`timeout at ${new Date(Date.now()).toISOString()}`), 1_000)
      setImmediate(() => fired.push('immediate'))
      expect(clock.countTimers()).toBe(2)
      expect(Date.now()).toBe(Date.UTC(2030, 0, 1))
      clock.tick(1_000)
      expect(performance.now()).toBe(1_000)
    } finally {
      clock.uninstall()
    }
    expect(fired).toEqual(['immediate', 'timeout at 2030-01-01T00:00:01.000Z'])
    expect(snapshot(g)).toEqual(before)
    timerNames.forEach((name, i) => expect(g[name], name).toBe(originals[i]))
    expect(Math.abs(Date.now() - new Date().getTime())).toBeLessThan(1_000)
    await new Promise((resolve) => setTimeout(resolve, 1)) // real timers work again
  })
})
