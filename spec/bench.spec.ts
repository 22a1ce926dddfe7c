/**
 * The benchmark's workloads run, at a tiny size, on every implementation, and all of
 * them fire the same alarms: the checksums agree and every alarm fires once, never early
 * and never late. No timing is asserted: a benchmark is not a test.
 */
import { describe, expect, it } from 'vitest'
import type { QueueImpl } from '../bench/adapter.js'
import { fakeTimers } from '../bench/adapters/fake-timers.js'
import { flatqueue } from '../bench/adapters/flatqueue.js'
import { heapJs } from '../bench/adapters/heap-js.js'
import { tinyqueue } from '../bench/adapters/tinyqueue.js'
import { loadVirtualClock } from '../bench/adapters/virtual-clock.js'
import { wheel } from '../bench/adapters/wheel.js'
import { checked, emptyTally } from '../bench/checked.js'
import * as Drivers from '../bench/drivers.js'
import { judge, render, toJson } from '../bench/report.js'
import { ChecksumMismatch, run } from '../bench/runner.js'
import * as Workloads from '../bench/workloads.js'

const queues: readonly QueueImpl[] = [wheel, flatqueue, tinyqueue, heapJs]
const sizes = Workloads.tiny
const seed = 7

describe('the benchmark at a tiny size', () => {
  it('runs every workload and every implementation agrees on the checksum', async () => {
    const virtualClock = await loadVirtualClock()
    expect(virtualClock).not.toBeTypeOf('string')
    const results = await run({
      sizes,
      warmSizes: sizes,
      seed,
      queues,
      clocks: [virtualClock, fakeTimers],
      // One shared copy of the drivers: the separate copies only matter for timing.
      loadDrivers: async () => Drivers,
    })
    expect(results.rows.map((r) => r.id)).toEqual([
      'churn-200',
      'churn-1k',
      'timeouts',
      'spread',
      'hold',
      'virtual-clock',
      'add-remove',
    ])
    for (const row of results.rows) {
      const expected = row.id === 'virtual-clock' ? ['VirtualClock', 'fake-timers'] : row.id === 'add-remove' ? ['timing-wheel'] : queues.map((q) => q.name)
      expect(row.cells.map((c) => c.impl), row.id).toEqual(expected)
      const [first, ...others] = row.cells
      expect(first!.checksum.fired, row.id).toBeGreaterThan(0)
      for (const cell of others) expect(cell.checksum, `${row.id} ${cell.impl}`).toEqual(first!.checksum)
    }
    expect(results.memory.cells.map((c) => c.impl)).toEqual([...queues.map((q) => q.name), 'VirtualClock', 'fake-timers'])
    expect(judge(results)).toHaveLength(7)
    expect(render(results, 'test')).toContain('| churn 200')
    expect(() => JSON.parse(toJson(results, 'test', 'tiny'))).not.toThrow()
  })

  it('fires every alarm once, never early, never late, never after its cancel', () => {
    const churn = Workloads.churn(sizes.churn[0]!, sizes.churnMaxDelay, seed)
    const timeouts = Workloads.timeouts(sizes.timeouts, seed)
    const spread = Workloads.spread(sizes.spread, seed)
    const hold = Workloads.hold(sizes.hold, seed)
    for (const impl of queues) {
      const plays = {
        churn: (q: QueueImpl) => Drivers.churn(q, churn),
        timeouts: (q: QueueImpl) => Drivers.timeouts(q, timeouts),
        spread: (q: QueueImpl) => Drivers.spread(q, spread),
        hold: (q: QueueImpl) => Drivers.hold(q, hold),
      }
      for (const [name, play] of Object.entries(plays)) {
        const tally = emptyTally()
        const plain = play(impl)
        const seen = play(checked(impl, tally))
        expect(seen.checksum, `${impl.name} ${name}`).toEqual(plain.checksum)
        expect(seen.left, `${impl.name} ${name}`).toBe(0)
        expect({ early: tally.early, late: tally.late, unexpected: tally.unexpected }, `${impl.name} ${name}`).toEqual({
          early: 0,
          late: 0,
          unexpected: 0,
        })
        expect(tally.fired + tally.cancelled + (name === 'hold' ? hold.pending : 0), `${impl.name} ${name}`).toBe(tally.added)
      }
    }
  })

  it('fails loudly when an implementation fires different alarms', async () => {
    // flatqueue, except that the third alarm to fire is lost.
    const lossy: QueueImpl = {
      name: 'lossy',
      create: (capacity, onFire) => {
        let fired = 0
        return flatqueue.create(capacity, (id) => {
          if (++fired !== 3) onFire(id)
        })
      },
    }
    const attempt = run({ sizes, warmSizes: sizes, seed, queues: [wheel, lossy], workloads: ['spread'], loadDrivers: async () => Drivers })
    await expect(attempt).rejects.toThrow(ChecksumMismatch)
    await expect(attempt).rejects.toThrow(/lossy: \d+ fired, hash [0-9a-f]{8}, expected/)
  })

  it('generates the same workload from the same seed, another from another seed', () => {
    const a = Workloads.timeouts(sizes.timeouts, seed)
    const b = Workloads.timeouts(sizes.timeouts, seed)
    const c = Workloads.timeouts(sizes.timeouts, seed + 1)
    expect(a).toEqual(b)
    expect(a.ats).not.toEqual(c.ats)
    expect(a.stopped / a.timers).toBeGreaterThan(0.8)
  })
})
