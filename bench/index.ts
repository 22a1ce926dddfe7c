/**
 * `npm run bench`: the timing wheel against the binary heaps and fake-timers a user would
 * otherwise pick, on the workloads of `workloads.ts`. Prints a Markdown table and the
 * targets, writes `bench/out/results.json` (ignored by git), and exits non-zero if any two implementations
 * fired different alarms.
 *
 * Flags: `--quick` (small sizes, seconds; writes no JSON unless `--out` is given),
 * `--seed=N`, `--out=path`, `--only=churn,hold,...` (see `runner.ts` for the names). The idle
 * row measures fake-timers 15.0 too when it is installed (see `adapters/fake-timers-15-0.ts`).
 * Run node with `--expose-gc` (the npm script does) for the memory row and for full
 * collections outside the timed regions.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fakeTimers } from './adapters/fake-timers.js'
import { loadFakeTimers150 } from './adapters/fake-timers-15-0.js'
import { flatqueue } from './adapters/flatqueue.js'
import { heapJs } from './adapters/heap-js.js'
import { tinyqueue } from './adapters/tinyqueue.js'
import { loadVirtualClock } from './adapters/virtual-clock.js'
import { wheel } from './adapters/wheel.js'
import { exploringClock } from './adapters/exploring-clock.js'
import { wheelFakeTimers } from './adapters/wheel-fake-timers.js'
import { canMeasureMemory } from './drivers.js'
import { gameTable } from './game.js'
import { render, toJson } from './report.js'
import { ChecksumMismatch, type WorkloadId, allWorkloads, run } from './runner.js'
import * as Workloads from './workloads.js'

const args = process.argv.slice(2)
const flag = (name: string): string | undefined =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)

const quick = args.includes('--quick')
const seed = Number(flag('seed') ?? 42)
const onlyAll = flag('only')?.split(',')
const gameRow = onlyAll === undefined || onlyAll.includes('game')
const only = onlyAll?.filter((w) => w !== 'game') as WorkloadId[] | undefined
const unknown = only?.filter((w) => !allWorkloads.includes(w)) ?? []
if (!Number.isInteger(seed) || unknown.length > 0) {
  console.error(`usage: npm run bench -- [--quick] [--seed=N] [--out=path] [--only=${[...allWorkloads, 'game'].join(',')}]`)
  process.exit(2)
}
const out = flag('out') ?? (quick || only !== undefined ? undefined : fileURLToPath(new URL('./out/results.json', import.meta.url)))
const command = ['npm run bench', ...(args.length > 0 ? ['--', ...args] : [])].join(' ')

if (!canMeasureMemory()) {
  console.error('note: node runs without --expose-gc: no memory figures, and no full GC before timed runs')
}

const fakeTimers150 = await loadFakeTimers150()
if (fakeTimers150 === undefined) {
  console.error('note: fake-timers 15.0 is not installed, so the idle row leaves it out (npm i --no-save fake-timers-15.0.0@npm:@sinonjs/fake-timers@15.0.0)')
}

try {
  if (only === undefined || only.length > 0) await runQueuesAndClocks()
  if (gameRow) console.log(`\n${gameTable(quick, (line) => process.stderr.write(`${line}\n`))}`)
} catch (e) {
  if (!(e instanceof ChecksumMismatch)) throw e
  console.error(`\nFAILED: ${e.message}`)
  process.exitCode = 1
}

async function runQueuesAndClocks(): Promise<void> {
  const results = await run({
    sizes: quick ? Workloads.quick : Workloads.full,
    warmSizes: quick ? Workloads.tiny : Workloads.quick,
    seed,
    queues: [wheel, flatqueue, tinyqueue, heapJs],
    clocks: [await loadVirtualClock(), wheelFakeTimers, exploringClock, fakeTimers],
    idleClocks: fakeTimers150 === undefined ? [] : [fakeTimers150],
    ...(only === undefined ? {} : { workloads: only }),
    log: (line) => process.stderr.write(`${line}\n`),
  })
  console.log(render(results, command))
  if (out !== undefined) {
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, toJson(results, command, quick ? 'quick' : 'full'))
    console.error(`wrote ${out}`)
  }
}
