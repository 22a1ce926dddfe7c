/**
 * `npm run bench`: the timing wheel against the binary heaps, fake clocks and game loops a
 * user would otherwise pick, on the workloads of `workloads.ts`. The package is measured as
 * users run it: the built `dist/` (the npm script builds first), which the adapters import. Prints Markdown tables
 * and the targets, writes `bench/out/results.json` (ignored by git), and exits non-zero if
 * any two implementations fired different alarms.
 *
 * Flags: `--quick` (small sizes, one round; writes no JSON unless `--out` is given),
 * `--seed=N`, `--out=path` (under `bench/out/`), `--only=churn,hold,...` (see `runner.ts`
 * for the names). Run node with `--expose-gc` (the npm script does) for the memory rows
 * and for full collections outside the timed regions.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { colyseus } from './adapters/colyseus.js'
import { coreClock } from './adapters/core-clock.js'
import { exploringClock } from './adapters/exploring-clock.js'
import { fakeTimers150 } from './adapters/fake-timers-15-0.js'
import { fakeTimers } from './adapters/fake-timers.js'
import { flatqueue, flatqueuePair } from './adapters/flatqueue.js'
import { frameScan } from './adapters/frame-scan.js'
import { game } from './adapters/game.js'
import { heapJs } from './adapters/heap-js.js'
import { tinyqueue } from './adapters/tinyqueue.js'
import { virtualClock } from './adapters/virtual-clock.js'
import { wheelFakeTimers } from './adapters/wheel-fake-timers.js'
import { wheel } from './adapters/wheel.js'
import { canMeasureMemory } from './drivers.js'
import { render, toJson } from './report.js'
import { ChecksumMismatch, type Load, allLoads, run } from './runner.js'
import { renderNodeTestIdle, runNodeTestIdle } from './node-test-idle.js'
import { renderVitestIdle, runVitestIdle } from './vitest-idle.js'
import * as Workloads from './workloads.js'

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)

const outDir = fileURLToPath(new URL('./out/', import.meta.url))
const quick = args.includes('--quick')
const seed = Number(flag('seed') ?? 42)
const onlyAll = flag('only')?.split(',')
// The Vitest row runs Vitest itself (vitest-idle.ts), outside the in-process runner.
const vitestRow = onlyAll === undefined || onlyAll.includes('vitestIdle')
// So does the node:test row (node-test-idle.ts).
const nodeTestRow = onlyAll === undefined || onlyAll.includes('nodeTestIdle')
const only = onlyAll?.filter((w) => w !== 'vitestIdle' && w !== 'nodeTestIdle') as Load[] | undefined
const out = flag('out') ?? (quick || only !== undefined ? undefined : `${outDir}results.json`)
const known = (a: string): boolean => a === '--quick' || ['seed', 'only', 'out'].some((f) => a.startsWith(`--${f}=`))
const outside = out !== undefined && relative(outDir, resolve(out)).startsWith('..')
if (!Number.isInteger(seed) || !args.every(known) || (only ?? []).some((w) => !allLoads.includes(w)) || outside) {
  console.error(`usage: npm run bench -- [--quick] [--seed=N] [--out=bench/out/FILE] [--only=${[...allLoads, 'vitestIdle', 'nodeTestIdle'].join(',')}]`)
  process.exit(2)
}
const command = ['npm run bench', ...(args.length > 0 ? ['--', ...args] : [])].join(' ')

if (!canMeasureMemory()) {
  console.error('note: node runs without --expose-gc: no memory figures, and no full GC before timed runs')
}

try {
  const results = only?.length === 0 ? undefined : await run({
    sizes: quick ? Workloads.quick : Workloads.full,
    warmSizes: quick ? Workloads.tiny : Workloads.quick,
    seed,
    queues: [wheel, flatqueue, tinyqueue, heapJs],
    pairs: [wheel, flatqueuePair],
    clocks: [virtualClock, wheelFakeTimers, exploringClock, fakeTimers],
    coreClock,
    scanningClocks: [fakeTimers150],
    games: [game, colyseus, frameScan],
    ...(only === undefined ? {} : { loads: only }),
    log: (line) => process.stderr.write(`${line}\n`),
  })
  if (results !== undefined) console.log(render(results, command))
  if (vitestRow) {
    const log = (line: string): void => void process.stderr.write(`${line}\n`)
    console.log(`\n${renderVitestIdle(await runVitestIdle({ timers: 50_000, ticks: quick ? 2 : 20, rounds: quick ? 1 : 5, log }))}`)
  }
  if (nodeTestRow) {
    const log = (line: string): void => void process.stderr.write(`${line}\n`)
    console.log(`\n${renderNodeTestIdle(await runNodeTestIdle({ timers: quick ? 10_000 : 100_000, ticks: quick ? 1_000 : 200_000, rounds: quick ? 1 : 5, log }))}`)
  }
  if (out !== undefined && results !== undefined) {
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, toJson(results, command, quick ? 'quick' : 'full'))
    console.error(`wrote ${out}`)
  }
} catch (e) {
  if (!(e instanceof ChecksumMismatch)) throw e
  console.error(`\nFAILED: ${e.message}`)
  process.exitCode = 1
}
