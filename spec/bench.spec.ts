/**
 * The benchmark at a tiny size: every row runs on every implementation, and all of them
 * fire the same alarms (the checksums agree, and every alarm fires once, never early and
 * never late); the targets are judged; a run that fires other alarms fails; results go
 * under `bench/out/` only. No timing is asserted: a benchmark is not a test.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import type { GameImpl, QueueImpl } from '../bench/adapter.js'
import { colyseus } from '../bench/adapters/colyseus.js'
import { coreClock } from '../bench/adapters/core-clock.js'
import { exploringClock } from '../bench/adapters/exploring-clock.js'
import { fakeTimers150 } from '../bench/adapters/fake-timers-15-0.js'
import { fakeTimers } from '../bench/adapters/fake-timers.js'
import { flatqueue, flatqueuePair } from '../bench/adapters/flatqueue.js'
import { frameScan } from '../bench/adapters/frame-scan.js'
import { game } from '../bench/adapters/game.js'
import { heapJs } from '../bench/adapters/heap-js.js'
import { tinyqueue } from '../bench/adapters/tinyqueue.js'
import { virtualClock } from '../bench/adapters/virtual-clock.js'
import { wheelFakeTimers } from '../bench/adapters/wheel-fake-timers.js'
import { wheel } from '../bench/adapters/wheel.js'
import { checked, emptyTally } from '../bench/checked.js'
import * as Drivers from '../bench/drivers.js'
import { judge, render, toJson } from '../bench/report.js'
import { ChecksumMismatch, type Options, type Results, run } from '../bench/runner.js'
import * as Workloads from '../bench/workloads.js'

const queues: readonly QueueImpl[] = [wheel, flatqueue, tinyqueue, heapJs]
const clocks = [virtualClock, wheelFakeTimers, exploringClock, fakeTimers]
const sizes = Workloads.tiny
const seed = 7
const names = (impls: ReadonlyArray<{ readonly name: string }>): string[] => impls.map((i) => i.name)

const everything: Options = {
  sizes,
  warmSizes: sizes,
  seed,
  queues,
  pairs: [wheel, flatqueuePair],
  clocks,
  coreClock,
  scanningClocks: [fakeTimers150],
  games: [game, colyseus, frameScan],
  // One shared copy of the drivers: the separate copies only matter for timing.
  loadDrivers: async () => Drivers,
}

describe('the benchmark at a tiny size', () => {
  let results: Results

  it('runs every row on every implementation, and they agree on the checksums', async () => {
    results = await run(everything)
    expect(results.rows.map((r) => r.id)).toEqual([
      'churn-200',
      'churn-1k',
      'timeouts',
      'spread',
      'hold',
      'add-remove',
      'virtual-clock',
      'simulation',
      'idle-clock',
      'run-to-last',
      'game-200',
    ])
    const expected: Record<string, string[]> = {
      'add-remove': ['timing-wheel', 'flatqueue'],
      'virtual-clock': [clocks[0]!.name, coreClock.name, ...names(clocks.slice(1))],
      simulation: [clocks[0]!.name, coreClock.name, ...names(clocks.slice(1))],
      'idle-clock': [...names(clocks), 'fake-timers 15.0'],
      'run-to-last': [...names(clocks), 'fake-timers 15.0'],
      'game-200': ['timing-wheel/game', '@colyseus/timer', 'per-frame scan'],
    }
    for (const row of results.rows) {
      expect(row.cells.map((c) => c.impl), row.id).toEqual(expected[row.id] ?? names(queues))
      const [first, ...others] = row.cells
      if (row.id !== 'idle-clock') expect(first!.checksum.fired, row.id).toBeGreaterThan(0)
      // The game's peers play different numbers of frames; each was checked against what its frames fire.
      if (row.group !== 'game') for (const cell of others) expect(cell.checksum, `${row.id} ${cell.impl}`).toEqual(first!.checksum)
      for (const cell of row.cells) {
        expect(cell.rounds, `${row.id} ${cell.impl}`).toHaveLength(sizes.repeats)
        expect(cell.range[0]).toBeLessThanOrEqual(cell.ratio)
        expect(cell.ratio).toBeLessThanOrEqual(cell.range[1])
      }
    }
    const rows = new Map(results.rows.map((r) => [r.id, r]))
    // Idle: nothing fires and `now` moves 1 ms a tick, on every clock, whatever its number of ticks.
    for (const cell of rows.get('idle-clock')!.cells) expect(cell.checksum).toEqual({ fired: 0, hash: 0 })
    expect(rows.get('run-to-last')!.cells[0]!.checksum.fired).toBe(sizes.runToLast.timers)
    expect(results.memory.map((m) => [m.id, names(m.cells.map((c) => ({ name: c.impl })))])).toEqual([
      ['memory-1k', names(queues)],
      ['clock-memory-1k', names(clocks)],
    ])
  })

  it('judges every target, met or not, with the figure and its range over rounds', () => {
    const targets = judge(results)
    expect(targets).toHaveLength(12)
    for (const t of targets) {
      if (t.name.includes('bytes') && !Drivers.canMeasureMemory()) expect(t.met).toBeUndefined()
      else expect(typeof t.met, t.name).toBe('boolean')
      if (t.name.includes(' >= ') || t.name.includes(' <= 2x')) expect(t.measured).toMatch(/^[\d.]+x \(rounds [\d.]+–[\d.]+\)$/)
    }
    const printed = render(results, 'test')
    for (const head of ['| workload', '| clock load', '| game loop', '| simulation 2k: clock', 'Targets:', 'Timed with: ']) expect(printed).toContain(head)
    for (const row of results.rows) expect(printed).toContain(`| ${row.label} `)
    expect(printed).not.toMatch(/\[object|NaN|undefined/)
    expect(printed.split('\n').filter((l) => /^- (met|not met|not judged): /.test(l))).toHaveLength(12)
    expect(JSON.parse(toJson(results, 'test', 'tiny')).targets).toHaveLength(12)
  })

  it('times with the CPU time of the main thread where Linux reports it', () => {
    expect(results.clock).toBe(Drivers.clockName)
    expect(Drivers.clockName).toMatch(existsSync('/proc/thread-self/schedstat') ? /^CPU time of the main thread/ : /^wall time/)
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

  it('pairs flatqueue pushes with pops of its least, keeping its size, as the wheel keeps its alarms', () => {
    const pairs = Workloads.addRemove(sizes.addRemove, sizes.churnMaxDelay, seed)
    const wheelRun = Drivers.addRemove(wheel, pairs)
    expect(wheelRun.checksum).toEqual({ fired: pairs.outstanding, hash: 0 })
    expect(Drivers.addRemove(flatqueuePair, pairs).checksum).toEqual(wheelRun.checksum)
    const q = flatqueuePair.create({ ids: 3, adds: 3 }, () => {})
    q.add(0, 5)
    q.add(1, 9)
    q.add(2, 7)
    q.cancel(2)
    expect(q.size()).toBe(2)
    expect(q.nextFiresAt()).toBe(8) // 0 at 5 went; 2 at 7 stays
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
    const attempt = run({ ...everything, queues: [wheel, lossy], loads: ['spread'] })
    await expect(attempt).rejects.toThrow(ChecksumMismatch)
    await expect(attempt).rejects.toThrow(/spread: lossy: \d+ fired, hash [0-9a-f]{8}, expected/)
  })

  it('fails loudly when a game loop misses a firing, whatever its number of frames', async () => {
    const skips: GameImpl = {
      name: 'skips one',
      create: (load, onBusy) => {
        let fired = 0
        return game.create(load, (due) => {
          if (++fired !== 2) onBusy(due)
        })
      },
    }
    const attempt = run({ ...everything, games: [game, skips], loads: ['game'] })
    await expect(attempt).rejects.toThrow(/game-200: skips one: .* \(what its frames should fire\)/)
  })

  it('generates the same workload from the same seed, another from another seed', () => {
    const a = Workloads.timeouts(sizes.timeouts, seed)
    const b = Workloads.timeouts(sizes.timeouts, seed)
    const c = Workloads.timeouts(sizes.timeouts, seed + 1)
    expect(a).toEqual(b)
    expect(a.ats).not.toEqual(c.ats)
    expect(a.stopped / a.timers).toBeGreaterThan(0.8)
  })

  it('writes results under bench/out/ only', async () => {
    const root = fileURLToPath(new URL('..', import.meta.url))
    const attempt = promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/index.ts', '--quick', '--out=README.md'], { cwd: root })
    await expect(attempt).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--out=bench/out/FILE') })
  })
})

describe('the Vitest row', () => {
  it('runs a Vitest test file on the setup and on Vitest’s default, each idling with every timer pending', async () => {
    const { renderVitestIdle, runVitestIdle } = await import('../bench/vitest-idle.js')
    const result = await runVitestIdle({ timers: 300, ticks: 2, rounds: 1, log: () => undefined })
    expect(result.usPerTick.every((us) => us > 0 && Number.isFinite(us))).toBe(true)
    expect(renderVitestIdle(result)).toContain('| `timing-wheel/vitest/setup` |')
  })
})
