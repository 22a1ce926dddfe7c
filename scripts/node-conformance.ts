/**
 * Conformance with real Node: random small programs (nested armings, intervals,
 * immediates, zero and missing delays, busy-waits standing for stalls, or none) run on
 * this Node in child processes, several times each; every order Node shows must be in the
 * set `exploreSchedules` reaches for the same program without its busy-waits.
 *
 * Each run is traced (`--trace-event-categories node.environment`: one `RunTimers` per
 * `processTimers` call) and reports how late its latest callback started. A run later
 * than `maxStall` is noise (the machine stalled past the bound the set was explored
 * with), not a gap of the model; a miss in a run within the bound is a gap, unless the
 * search was cut (at most 3 departures and 5,000 schedules a program here: 1 ms timers
 * tie often, and every tie is a choice), which the totals count apart.
 * Run: `npm run node:conformance -- [programs] [runs] [maxStall] [seed]`.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import type { ExploringClock } from '../lib/testing/index.js'
import { type Program, nodeSource, programArb, runOn, searchResults, withoutBusy } from '../spec/support/timer-programs.js'

export interface NodeRun {
  readonly order: string
  /** The latest start of a callback past its due time, ms. */
  readonly late: number
  /** `processTimers` calls, from the trace. */
  readonly runTimers: number
}

/** Runs `program` on real Node `runs` times, traced. */
export const runOnNode = (program: Program, runs: number): NodeRun[] => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-conformance-'))
  try {
    const file = join(dir, 'program.cjs')
    writeFileSync(file, nodeSource(program))
    const out: NodeRun[] = []
    for (let r = 0; r < runs; r++) {
      const pattern = join(dir, `trace-${r}.json`)
      const printed = execFileSync(process.execPath, ['--trace-event-categories', 'node.environment', '--trace-event-file-pattern', pattern, file], { encoding: 'utf8' })
      const { order, late } = JSON.parse(printed.trim()) as { order: string; late: number }
      const trace = readdirSync(dir).includes(`trace-${r}.json`) ? (JSON.parse(readFileSync(pattern, 'utf8')) as { traceEvents: { name: string; ph: string }[] }) : { traceEvents: [] }
      const runTimers = trace.traceEvents.filter((e) => e.name === 'RunTimers' && (e.ph === 'B' || e.ph === 'X')).length
      out.push({ order, late, runTimers })
    }
    return out
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** What Node showed that the explorer did not reach, split into gaps (within the bound) and noise. */
export const conformance = (program: Program, runs: number, maxStall: number, maxDepartures = 3, maxSchedules = 5000) => {
  const explored = searchResults((clock: ExploringClock) => runOn(clock, withoutBusy(program), 10 * maxStall + 100), { maxStall, where: false }, maxSchedules, maxDepartures)
  const node = runOnNode(program, runs)
  const missed = node.filter((r) => !explored.results.has(r.order))
  return { explored, node, gaps: missed.filter((r) => r.late <= maxStall), noise: missed.filter((r) => r.late > maxStall) }
}

const main = (): void => {
  const [programs = 60, runs = 5, maxStall = 15, seed = 5] = process.argv.slice(2).map(Number)
  const busy = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 4 }))
  const sample = fc.sample(programArb(5, [undefined, 0, 1, 2, 3, 5], busy, false), { numRuns: programs, seed })
  const t0 = performance.now()
  let gaps = 0
  let cutGaps = 0
  let noise = 0
  let incomplete = 0
  let orders = 0
  for (const [i, program] of sample.entries()) {
    const c = conformance(program, runs, maxStall)
    if (!c.explored.complete) incomplete++
    orders += new Set(c.node.map((r) => r.order)).size
    noise += c.noise.length
    if (c.gaps.length > 0 && !c.explored.complete) cutGaps++
    else if (c.gaps.length > 0) {
      gaps++
      console.log(`program ${i}: ${JSON.stringify(program)}\n  Node showed, not explored: ${c.gaps.map((r) => `${r.order} (late ${r.late.toFixed(1)} ms, ${r.runTimers} RunTimers)`).join(' | ')}`)
    }
  }
  console.log(
    `${sample.length} programs x ${runs} runs on Node ${process.version} (maxStall ${maxStall}, seed ${seed}): ${gaps} programs with an order Node shows outside a complete explored set, ${cutGaps} outside a cut one, ` +
      `${noise} runs later than the bound (noise), ${incomplete} searches cut by maxSchedules; ${orders} distinct (program, order) pairs seen; ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
  process.exitCode = gaps > 0 ? 1 : 0
}

if (process.argv[1]?.endsWith('node-conformance.ts')) main()
