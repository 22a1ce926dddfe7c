/**
 * The bench's rows for timing-wheel/fake-timers at a tiny size: the idle load (timers an
 * hour ahead, ticks that fire nothing) and the hold load run on it, on VirtualClock and
 * on fake-timers, and every clock ends in the same state.
 */
import { describe, expect, it } from 'vitest'
import { fakeTimers } from '../bench/adapters/fake-timers.js'
import { loadVirtualClock } from '../bench/adapters/virtual-clock.js'
import { wheelFakeTimers } from '../bench/adapters/wheel-fake-timers.js'
import * as Drivers from '../bench/drivers.js'
import { run } from '../bench/runner.js'
import * as Workloads from '../bench/workloads.js'

describe('the idle and hold rows through timing-wheel/fake-timers', () => {
  it('run at a tiny size, fire nothing on the idle load, and agree with VirtualClock and fake-timers', async () => {
    const virtualClock = await loadVirtualClock()
    if (typeof virtualClock === 'string') expect.fail(virtualClock)
    const results = await run({
      sizes: Workloads.tiny,
      warmSizes: Workloads.tiny,
      seed: 3,
      queues: [],
      clocks: [virtualClock, wheelFakeTimers],
      idleClocks: [fakeTimers],
      workloads: ['virtualClock', 'idleClock'],
      loadDrivers: async () => Drivers,
    })
    const rows = new Map(results.rows.map((r) => [r.id, r]))
    expect(rows.get('virtual-clock')!.cells.map((c) => c.impl)).toEqual(['VirtualClock', 'timing-wheel/fake-timers'])
    const idle = rows.get('idle-clock')!
    expect(idle.cells.map((c) => c.impl)).toEqual(['VirtualClock', 'timing-wheel/fake-timers', 'fake-timers'])
    for (const cell of idle.cells) expect(cell.checksum).toEqual({ fired: 0, hash: Workloads.tiny.idle.ticks })
  })

  it('the idle row runs only when idle clocks are given', async () => {
    const virtualClock = await loadVirtualClock()
    if (typeof virtualClock === 'string') expect.fail(virtualClock)
    const results = await run({
      sizes: Workloads.tiny,
      warmSizes: Workloads.tiny,
      seed: 3,
      queues: [],
      clocks: [virtualClock],
      workloads: ['idleClock'],
      loadDrivers: async () => Drivers,
    })
    expect(results.rows).toEqual([])
  })
})
