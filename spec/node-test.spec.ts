/**
 * `timing-wheel/node-test`: `node:test`'s `mock.timers` on a fake-timers clock. The
 * global `mock.timers` is driven in this process (the route is imported from lib/); the
 * per-test `t.mock.timers` of real `node --test` runs, subtests included, in a child
 * process with the built route (`dist/`, as `npm test` builds first).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { mock } from 'node:test'
import * as nodeTimers from 'node:timers'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { install } from '../lib/fake-timers/index.js'
import { knownMethods, moveMockTimers, nodeApis, type WheelMockTimers } from '../lib/node-test/index.js'

const timers = mock.timers as unknown as WheelMockTimers
const promises = process.getBuiltinModule('node:timers/promises') as unknown as Record<string, unknown> & { scheduler: object }
const timersModule = process.getBuiltinModule('node:timers') as unknown as Record<string, unknown>

/** Every place Node's mock may replace, as own descriptors (`undefined`: not own). */
const places = (): Record<string, PropertyDescriptor | undefined> => {
  const at = (holder: object, name: string): PropertyDescriptor | undefined => Object.getOwnPropertyDescriptor(holder, name)
  const out: Record<string, PropertyDescriptor | undefined> = {}
  for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date']) {
    out[`global.${name}`] = at(globalThis, name)
    if (name !== 'Date') out[`timers.${name}`] = at(timersModule, name)
  }
  for (const name of ['setTimeout', 'setInterval', 'setImmediate']) out[`promises.${name}`] = at(promises, name)
  out['scheduler.wait'] = at(promises.scheduler, 'wait')
  out['AbortSignal.timeout'] = at(AbortSignal, 'timeout')
  // Node's global performance is perf_hooks' object: its own `now` is what is replaced.
  out['performance.now'] = { value: (process.getBuiltinModule('node:perf_hooks') as typeof import('node:perf_hooks')).performance.now }
  // An accessor whose setter keeps its getter: what it returns is what changes.
  out['global.performance'] = { value: globalThis.performance }
  out['process.hrtime'] = at(process, 'hrtime')
  // What fake-timers could fake and Node's mock never does: left alone whatever the apis.
  out['process.nextTick'] = at(process, 'nextTick')
  out['global.queueMicrotask'] = at(globalThis, 'queueMicrotask')
  out['global.Intl'] = at(globalThis, 'Intl')
  return out
}

/** The places each api name replaces: Node's own list, and the added names. */
const placesOf: Record<string, readonly string[]> = {
  setTimeout: ['global.setTimeout', 'global.clearTimeout', 'timers.setTimeout', 'timers.clearTimeout', 'promises.setTimeout'],
  setInterval: ['global.setInterval', 'global.clearInterval', 'timers.setInterval', 'timers.clearInterval', 'promises.setInterval'],
  setImmediate: ['global.setImmediate', 'global.clearImmediate', 'timers.setImmediate', 'timers.clearImmediate', 'promises.setImmediate'],
  Date: ['global.Date'],
  'scheduler.wait': ['scheduler.wait'],
  'AbortSignal.timeout': ['AbortSignal.timeout'],
  performance: ['performance.now', 'global.performance'],
  hrtime: ['process.hrtime'],
}

const changed = (before: Record<string, PropertyDescriptor | undefined>, after: Record<string, PropertyDescriptor | undefined>): string[] =>
  Object.keys(before)
    .filter((k) => before[k]?.value !== after[k]?.value || before[k]?.get !== after[k]?.get)
    .sort()

/** Runs `f` with the global mock timers enabled by `options`, and always resets them. */
const withTimers = <A>(options: Parameters<WheelMockTimers['enable']>[0], f: () => A): A => {
  timers.enable(options)
  try {
    return f()
  } finally {
    timers.reset()
  }
}

const thrown = (f: () => unknown): Error & { code?: string } => {
  try {
    f()
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('did not throw')
}

describe('methods', () => {
  it('tick fires due timers in order, each reading its own Date.now() (a deliberate difference from Node)', () => {
    const seen: [string, number][] = []
    withTimers({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1000 }, () => {
      setTimeout(() => seen.push(['a', Date.now()]), 100)
      setInterval(() => seen.push(['i', Date.now()]), 40)
      setTimeout(() => seen.push(['b', Date.now()]), 100)
      timers.tick(99)
      expect(seen.map(([n]) => n)).toEqual(['i', 'i'])
      timers.tick()
      expect(Date.now()).toBe(1100)
    })
    expect(seen).toEqual([
      ['i', 1040],
      ['i', 1080],
      ['a', 1100],
      ['b', 1100],
    ])
  })

  it('runAll runs to the last pending timer once (an interval fires once), as Node', () => {
    const seen: number[] = []
    withTimers(undefined, () => {
      setTimeout(() => seen.push(1111), 1111)
      const id = setInterval(() => seen.push(Date.now()), 9999)
      timers.runAll()
      clearInterval(id)
      expect(Date.now()).toBe(9999)
    })
    expect(seen).toEqual([1111, 9999])
  })

  it('runAll fires every pending timer, where Node 20\'s stops at the heap\'s last slot (a deliberate difference)', () => {
    const fired: number[] = []
    withTimers({ apis: ['setTimeout'] }, () => {
      // Node 20.20's own runAll fires 6 and 28 here: its heap's last slot holds 28.
      for (const d of [6, 29, 28]) setTimeout(() => fired.push(d), d)
      timers.runAll()
    })
    expect(fired).toEqual([6, 28, 29])
  })

  it('setTime moves Date only; reset puts back every place and forgets the timers; dispose resets', () => {
    const before = places()
    const fn = vitestFn()
    withTimers({ now: 500 }, () => {
      setTimeout(fn.call, 1000)
      timers.setTime(800)
      expect(Date.now()).toBe(800)
      expect(fn.count()).toBe(0)
    })
    expect(places()).toEqual(before)
    timers.enable()
    setTimeout(fn.call, 1)
    timers[Symbol.dispose]()
    expect(places()).toEqual(before)
    timers.enable()
    timers.tick(10)
    timers.reset()
    expect(fn.count()).toBe(0)
  })

  it('setTimeout() without a callback returns a handle with Node\'s methods; it throws only when it fires', () => {
    withTimers({ apis: ['setTimeout'] }, () => {
      const handle = (setTimeout as unknown as () => NodeJS.Timeout)()
      expect(handle.hasRef()).toBe(true)
      expect(handle.ref()).toBe(handle)
      expect(handle.unref()).toBe(handle)
      expect(handle.refresh()).toBe(handle)
      expect(() => timers.tick(1)).toThrow(TypeError)
    })
  })

  it('timers/promises: values, an AbortError with code ABORT_ERR, ERR_INVALID_ARG_TYPE for a bad signal, scheduler.wait', async () => {
    const p = process.getBuiltinModule('node:timers/promises')
    timers.enable({ apis: ['setTimeout', 'setInterval', 'scheduler.wait'] })
    try {
      const value = p.setTimeout(20, 'v')
      const waited = p.scheduler.wait(30)
      const controller = new AbortController()
      const aborted = p.setTimeout(50, 'x', { signal: controller.signal })
      const bad = p.setTimeout(10, 'x', { signal: {} as AbortSignal })
      const iterator = p.setInterval(10, 'i')
      const first = iterator.next()
      timers.tick(30)
      controller.abort()
      await expect(value).resolves.toBe('v')
      await expect(waited).resolves.toBeUndefined()
      await expect(first).resolves.toEqual({ done: false, value: 'i' })
      await expect(iterator.next()).resolves.toEqual({ done: false, value: 'i' })
      await expect(iterator.return!()).resolves.toEqual({ done: true, value: undefined })
      await expect(aborted).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR' })
      await expect(bad).rejects.toMatchObject({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
    } finally {
      timers.reset()
    }
  })
})

/** A counting callback (vi.fn would do, but this file keeps to what it checks). */
function vitestFn(): { call: () => void; count: () => number } {
  let n = 0
  return { call: () => void n++, count: () => n }
}

describe('apis', () => {
  it('enable fakes exactly the places of the listed apis, and reset puts each back as it was', () => {
    const all = [...nodeApis, 'AbortSignal.timeout', 'performance', 'hrtime'] as const
    fc.assert(
      fc.property(fc.subarray([...all]), fc.nat({ max: 2 ** 40 }), (apis, now) => {
        const before = places()
        timers.enable({ apis, now })
        const during = places()
        timers.reset()
        expect(places()).toEqual(before)
        expect(changed(before, during)).toEqual([...new Set(apis.flatMap((api) => placesOf[api]!))].sort())
        if (apis.includes('Date')) expect((during['global.Date']!.value as { isMock?: boolean }).isMock).toBe(true)
      }),
      { numRuns: 60 },
    )
  })

  it('the default is Node\'s five names, and nothing added', () => {
    const before = places()
    const during = withTimers(undefined, () => places())
    expect(changed(before, during)).toEqual([...new Set(nodeApis.flatMap((api) => placesOf[api]!))].sort())
  })
})

describe('additions', () => {
  it('tickAsync lets promise callbacks run between timers; runAllAsync too', async () => {
    const seen: string[] = []
    timers.enable({ apis: ['setTimeout', 'Date'] })
    try {
      const chain = async (): Promise<void> => {
        await new Promise((r) => setTimeout(r, 10))
        seen.push(`a${Date.now()}`)
        await new Promise((r) => setTimeout(r, 10))
        seen.push(`b${Date.now()}`)
      }
      const done = chain()
      setTimeout(() => seen.push(`t${Date.now()}`), 15)
      await timers.tickAsync(25)
      await done
      expect(seen).toEqual(['a10', 't15', 'b20'])
      setTimeout(() => Promise.resolve().then(() => setTimeout(() => seen.push(`c${Date.now()}`), 5)), 5)
      // As Node's runAll: to the last timer pending when it is called (30), not the one made on the way.
      await timers.runAllAsync()
      expect([seen.at(-1), Date.now()]).toEqual(['b20', 30])
      await timers.runAllAsync()
      expect([seen.at(-1), Date.now()]).toEqual(['c35', 35])
    } finally {
      timers.reset()
    }
  })

  it('tickAsync runs the microtasks a timer queues before the next timer due at the same time', async () => {
    const seen: string[] = []
    timers.enable({ apis: ['setTimeout'] })
    try {
      setTimeout(() => {
        seen.push('a')
        queueMicrotask(() => seen.push('a micro'))
        void Promise.resolve().then(() => seen.push('a then'))
      }, 10)
      setTimeout(() => seen.push('b'), 10)
      await timers.tickAsync(10)
      expect(seen).toEqual(['a', 'a micro', 'a then', 'b'])
    } finally {
      timers.reset()
    }
  })

  it('AbortSignal.timeout, performance.now and process.hrtime follow the clock when listed', () => {
    withTimers({ apis: ['setTimeout', 'AbortSignal.timeout', 'performance', 'hrtime'] }, () => {
      const signal = AbortSignal.timeout(100)
      const p0 = performance.now()
      const h0 = process.hrtime()
      timers.tick(99)
      expect(signal.aborted).toBe(false)
      timers.tick(1)
      expect(signal.aborted).toBe(true)
      expect((signal.reason as Error).name).toBe('TimeoutError')
      expect(performance.now() - p0).toBe(100)
      expect(process.hrtime(h0)).toEqual([0, 100_000_000])
    })
  })
})

describe('errors', () => {
  const cases: [string, () => unknown, string, string][] = [
    ['tick before enable', () => timers.tick(5), 'ERR_INVALID_STATE', 'mock.timers.tick'],
    ['runAll before enable', () => timers.runAll(), 'ERR_INVALID_STATE', 'mock.timers.runAll'],
    ['setTime before enable', () => timers.setTime(5), 'ERR_INVALID_STATE', 'mock.timers.setTime'],
    ['an unknown api', () => timers.enable({ apis: ['DOES_NOT_EXIST' as 'Date'] }), 'ERR_INVALID_ARG_VALUE', "'DOES_NOT_EXIST'"],
    ['an api that is not a string', () => timers.enable({ apis: [1 as unknown as 'Date'] }), 'ERR_INVALID_ARG_TYPE', 'options.apis[0]'],
    ['apis not an array', () => timers.enable({ apis: 'Date' as unknown as ['Date'] }), 'ERR_INVALID_ARG_TYPE', 'options.apis'],
    ['a negative now', () => timers.enable({ now: -1 }), 'ERR_INVALID_ARG_VALUE', '-1'],
    ['a NaN now', () => timers.enable({ now: NaN }), 'ERR_INVALID_ARG_VALUE', 'NaN'],
    ['a string now', () => timers.enable({ now: 'x' as unknown as number }), 'ERR_INVALID_ARG_TYPE', "'x'"],
  ]
  it.each(cases)('%s: Node\'s code, the method and the value in the message, the stack from this file', (_, f, code, shown) => {
    const before = places()
    const error = thrown(f)
    expect(error.code).toBe(code)
    expect(error.message).toContain(shown)
    expect(error.message).toMatch(/\[mock\.timers\.\w+\]$/)
    expect(error.stack!.split('\n')[1]).toContain('node-test.spec.ts')
    expect(places()).toEqual(before)
  })

  it('tick(-1), tick("5") and enable twice, while enabled', () => {
    withTimers({ apis: ['Date'] }, () => {
      expect(thrown(() => timers.tick(-1))).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE', message: expect.stringContaining('-1') })
      expect(thrown(() => timers.tick('5' as unknown as number))).toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' })
      expect(thrown(() => timers.tick(Infinity))).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' })
      expect(thrown(() => timers.enable())).toMatchObject({ code: 'ERR_INVALID_STATE', message: expect.stringContaining('already enabled') })
      expect(Date.now()).toBe(0)
    })
  })

  it('hostile enable options and tick times: either they work or a Node-coded error changes nothing', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (options, time) => {
        const before = places()
        let on = false
        try {
          timers.enable(options as never)
          on = true
        } catch (error) {
          expect((error as { code?: string }).code).toMatch(/^ERR_INVALID_(STATE|ARG_TYPE|ARG_VALUE)$/)
          expect(places()).toEqual(before)
          return
        }
        try {
          const now = Date.now()
          try {
            timers.tick(time as never)
          } catch (error) {
            expect((error as { code?: string }).code).toMatch(/^ERR_INVALID_ARG_(TYPE|VALUE)$/)
            expect(Date.now()).toBe(now)
          }
        } finally {
          if (on) timers.reset()
        }
        expect(places()).toEqual(before)
      }),
      { numRuns: 200 },
    )
  })
})

describe('versions', () => {
  /** A stand-in for `MockTimers.prototype` with Node 20's methods, changed by `edit`. */
  const prototypeLike = (edit: (p: Record<string | symbol, unknown>) => void = () => undefined): object => {
    class MockTimers {}
    const p = MockTimers.prototype as unknown as Record<string | symbol, unknown>
    for (const name of ['tick', 'enable', 'setTime', 'reset', 'runAll']) {
      Object.defineProperty(p, name, { value: function () {}, writable: true, configurable: true })
    }
    Object.defineProperty(p, Symbol.dispose, { value: function () {}, writable: true, configurable: true })
    edit(p)
    return p
  }
  const snapshot = (p: object): unknown => Reflect.ownKeys(p).map((k) => [k, Object.getOwnPropertyDescriptor(p, k)])

  it.each([
    ['Node 18', prototypeLike(), '18.19.0', /Node 20 or newer/],
    ['a method gone', prototypeLike((p) => delete p['setTime']), '20.20.2', /missing setTime/],
    ['a method more', prototypeLike((p) => Object.defineProperty(p, 'tickAsync', { value: () => 0, configurable: true })), '26.0.0', /unknown tickAsync/],
    ['a method that cannot be replaced', prototypeLike((p) => Object.defineProperty(p, 'tick', { value: () => 0, configurable: false })), '22.0.0', /tick cannot be replaced/],
  ])('%s is refused with an error naming it, and left unchanged', (_, prototype, version, why) => {
    const before = snapshot(prototype)
    expect(() => moveMockTimers(prototype, version)).toThrow(why)
    expect(() => moveMockTimers(prototype, version)).toThrow(/left as it is/)
    expect(snapshot(prototype)).toEqual(before)
  })

  it('hostile prototypes and versions: refused unchanged, or moved with every method replaced and the marker set', () => {
    const names = ['tick', 'enable', 'setTime', 'reset', 'runAll', 'tickAsync', 'constructor2']
    const version = fc.oneof(fc.string(), fc.tuple(fc.nat({ max: 30 }), fc.nat({ max: 30 })).map(([a, b]) => `${a}.${b}.0`))
    fc.assert(
      fc.property(fc.subarray(names), fc.boolean(), fc.boolean(), version, (present, withDispose, frozen, v) => {
        class MockTimers {}
        const p = MockTimers.prototype as unknown as Record<string | symbol, unknown>
        const originals = new Map(present.map((name) => [name, () => name]))
        for (const [name, f] of originals) Object.defineProperty(p, name, { value: f, writable: true, configurable: !frozen || name !== 'tick' })
        if (withDispose) Object.defineProperty(p, Symbol.dispose, { value: () => 0, writable: true, configurable: true })
        const before = snapshot(p)
        let moved = true
        try {
          moveMockTimers(p, v)
        } catch (error) {
          moved = false
          expect((error as Error).message).toMatch(/^timing-wheel\/node-test: Node .* is not one it knows .*left as it is/)
          expect(snapshot(p)).toEqual(before)
        }
        const known = ['tick', 'enable', 'setTime', 'reset', 'runAll']
        const shouldMove =
          Number(v.split('.')[0]) >= 20 && withDispose && present.length === known.length && known.every((n) => present.includes(n)) && !(frozen && present.includes('tick'))
        expect(moved).toBe(shouldMove)
        if (moved) {
          expect(Object.hasOwn(p, Symbol.for('timing-wheel.node-test.timers'))).toBe(true)
          for (const n of known) expect(p[n]).not.toBe(originals.get(n))
          expect(Object.getOwnPropertyNames(p)).toEqual(expect.arrayContaining(['tickAsync', 'runAllAsync']))
        }
      }),
      { numRuns: 300 },
    )
  })

  it('a known prototype is moved once; this Node\'s is known', () => {
    const prototype = prototypeLike()
    moveMockTimers(prototype, '22.1.0')
    const moved = snapshot(prototype)
    moveMockTimers(prototype, '22.1.0')
    expect(snapshot(prototype)).toEqual(moved)
    expect(Object.getOwnPropertyNames(prototype)).toEqual(expect.arrayContaining([...knownMethods.filter((m) => m !== 'Symbol.dispose'), 'tickAsync', 'runAllAsync']))
    expect(Object.hasOwn(Object.getPrototypeOf(mock.timers), Symbol.for('timing-wheel.node-test.timers'))).toBe(true)
    expect(nodeTimers.setTimeout).toBe(timersModule['setTimeout'])
  })
})

const route = resolve(import.meta.dirname, '..', 'dist', 'lib', 'node-test', 'index.js')

describe.skipIf(!existsSync(route))('node --test --import timing-wheel/node-test', () => {
  it('t.mock.timers in tests and subtests, each its own clock; a subtest stacks over its parent and puts it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-test-route-'))
    try {
      writeFileSync(
        join(dir, 'nested.test.mjs'),
        `import { test } from 'node:test'
import assert from 'node:assert'
test('parent', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1000 })
  const parentSetTimeout = globalThis.setTimeout
  assert.ok(parentSetTimeout.clock, 'a fake-timers clock')
  const seen = []
  setTimeout(() => seen.push('parent ' + Date.now()), 50)
  await t.test('child', (t2) => {
    assert.throws(() => t2.mock.timers.enable(), { code: 'ERR_INVALID_STATE', message: /Date is already being mocked/ })
    t2.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] })
    assert.notStrictEqual(globalThis.setTimeout, parentSetTimeout)
    setTimeout(() => seen.push('child'), 50)
    t2.mock.timers.tick(50)
    assert.deepStrictEqual(seen, ['child'])
  })
  assert.strictEqual(globalThis.setTimeout, parentSetTimeout)
  t.mock.timers.tick(50)
  assert.deepStrictEqual(seen, ['child', 'parent 1050'])
  await t.mock.timers.tickAsync(1)
})
test('after', () => {
  assert.strictEqual(Date.isMock, undefined)
  assert.strictEqual(globalThis.setTimeout.clock, undefined)
})
`,
      )
      const out = execFileSync(process.execPath, ['--import', route, '--test', '--test-reporter', 'tap', 'nested.test.mjs'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      })
      expect(out).toMatch(/# pass 3\n/)
      expect(out).toMatch(/# fail 0\n/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe.skipIf(!existsSync(route))('the node:test bench row', () => {
  it('runs the idle script with the route and on Node\'s own mock.timers, nothing fired while idle and everything after two hours', async () => {
    const { renderNodeTestIdle, runNodeTestIdle } = await import('../bench/node-test-idle.js')
    const result = await runNodeTestIdle({ timers: 300, ticks: 2000, rounds: 1, log: () => undefined })
    expect(result.usPerTick.every((us) => Number.isFinite(us) && us >= 0)).toBe(true)
    expect(renderNodeTestIdle(result)).toContain('| `timing-wheel/node-test` |')
  })
})

describe('timing-wheel/fake-timers and scheduler.wait', () => {
  it('install fakes timers/promises scheduler.wait with setTimeout, and uninstall deletes the fake (wait is on the prototype)', async () => {
    const { scheduler } = process.getBuiltinModule('node:timers/promises')
    const original = scheduler.wait
    expect(Object.hasOwn(scheduler, 'wait')).toBe(false)
    const clock = install({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      expect(scheduler.wait).not.toBe(original)
      let done = false
      const waited = scheduler.wait(100).then(() => (done = true))
      await clock.tickAsync(99)
      expect(done).toBe(false)
      await clock.tickAsync(1)
      await waited
      expect(done).toBe(true)
    } finally {
      clock.uninstall()
    }
    expect(Object.hasOwn(scheduler, 'wait')).toBe(false)
    expect(scheduler.wait).toBe(original)
    const other = install({ toFake: ['setInterval', 'Date'] })
    expect(scheduler.wait).toBe(original)
    other.uninstall()
  })
})
