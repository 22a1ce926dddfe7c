/**
 * `npm run example:vitest-clock`: testing `setTimeout` chains with the virtual clock.
 *
 * `clock.install()` replaces `setTimeout` & co., `Date.now` and `performance.now` on
 * `globalThis`; the code under test runs unchanged, and a test that waits 7 virtual
 * seconds of back-off takes microseconds. `uninstall` puts the originals back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { VirtualClock } from 'timing-wheel/sim'
import { type Outcome, retry } from './retry.js'

describe('retry with exponential back-off, on virtual time', () => {
  let clock: VirtualClock.VirtualClock
  beforeEach(() => {
    clock = VirtualClock.create({ now: Date.UTC(2030, 0, 1) })
    clock.install()
  })
  afterEach(() => clock.uninstall())

  it('waits 100, 200, 400 ms between attempts and succeeds on the fourth', () => {
    const attempts: number[] = []
    let outcome: Outcome | undefined
    retry((n) => (attempts.push(Date.now() - Date.UTC(2030, 0, 1)), n < 3 ? new Error('busy') : 'ok'), { attempts: 5, firstDelay: 100, deadline: 10_000 }, (o) => (outcome = o))
    expect(attempts).toEqual([0])
    clock.tick(99)
    expect(attempts).toEqual([0])
    clock.tick(1)
    expect(attempts).toEqual([0, 100])
    clock.runAll()
    expect(attempts).toEqual([0, 100, 300, 700])
    expect(outcome).toEqual({ ok: true, value: 'ok', at: 700 })
    expect(clock.countTimers()).toBe(0)
  })

  it('gives up at the deadline without waiting in real time', () => {
    let outcome: Outcome | undefined
    retry(() => new Error('down'), { attempts: 100, firstDelay: 1000, deadline: 30_000 }, (o) => (outcome = o))
    clock.runAll()
    expect(outcome).toEqual({ ok: false, reason: 'deadline: down', at: 15_000 })
    expect(Date.now()).toBe(Date.UTC(2030, 0, 1) + 15_000)
  })

  it('gives up after the last attempt', () => {
    let outcome: Outcome | undefined
    retry(() => new Error('nope'), { attempts: 3, firstDelay: 10, deadline: 1e9 }, (o) => (outcome = o))
    clock.runAll()
    expect(outcome).toEqual({ ok: false, reason: 'gave up after 3 attempts: nope', at: 30 })
  })
})
