/**
 * Instructions per operation, counted by valgrind, where `npm run bench` times: a count
 * does not drift with the machine's load, so two builds compare in one run each, not in
 * fifteen interleaved rounds. Needs valgrind (not part of `npm test`).
 *
 *   node --import tsx bench/instructions.ts hold|addRemove|churn [wheel|flatqueue] [--warm] [--functions]
 *
 * Each load runs twice in a fresh `node` under cachegrind, at two sizes; the difference of
 * the two counts over the difference of the sizes leaves out start-up, compilation and the
 * setup outside the loop (churn's workload grows with its size, so its figure includes
 * making it: compare churn between builds, not with the heap). `--warm` first plays churn,
 * timeouts and spread on the same implementation, as the full bench has before its later
 * rows: what V8 inlines depends on what ran before.
 *
 * `--functions` splits the count by the compiled function the instructions ran in (under
 * callgrind, which is slower; V8 names its code in `/tmp/perf-PID.map`), the same
 * difference taken per function: what a function's line counts includes what V8 inlined
 * into it. Run it on the tsc build of the profiling recipe in `README.md`, where functions
 * keep their names, and cold: V8 puts new code where it freed old code, and the map keeps
 * both, so after `--warm`'s loads some instructions are charged to code long gone.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { flatqueue, flatqueuePair } from './adapters/flatqueue.js'
import { wheel } from './adapters/wheel.js'
import * as D from './drivers.js'
import * as W from './workloads.js'

type Load = 'hold' | 'addRemove' | 'churn'
const sizes: Record<Load, [number, number]> = { hold: [400_000, 1_200_000], addRemove: [1_000_000, 3_000_000], churn: [300_000, 900_000] }

/** Plays `load` at size `n` once (in the child). */
const play = (load: Load, name: string, n: number, warm: boolean): void => {
  const impl = name === 'wheel' ? wheel : load === 'addRemove' ? flatqueuePair : flatqueue
  if (warm) {
    const peer = name === 'wheel' ? wheel : flatqueue
    D.churn(peer, W.churn({ outstanding: 100_000, ops: 300_000 }, 60_000, 7))
    D.timeouts(peer, W.timeouts({ ms: 3000, perMs: 50, maxDelay: 10_000, stoppedFraction: 0.9 }, 7))
    D.spread(peer, W.spread({ alarms: 200_000, span: 3_600_000, step: 1000 }, 7))
  }
  if (load === 'hold') D.hold(impl, W.hold({ pending: 100_000, fired: n, meanIncrement: 100_000 }, 42))
  else if (load === 'addRemove') D.addRemove(impl, W.addRemove({ outstanding: 1000, pairs: n }, 60_000, 42))
  else D.churn(impl, W.churn({ outstanding: 100_000, ops: n }, 60_000, 42))
}

const self = fileURLToPath(import.meta.url)
/** This file run again in a child, through tsx when it is the TypeScript source. */
const childArgs = (args: readonly string[], nodeFlags: readonly string[]): string[] =>
  [process.execPath, '--single-threaded', '--random-seed=7', '--hash-seed=7', ...nodeFlags, ...(self.endsWith('.ts') ? ['--import', 'tsx'] : []), self, '--child', ...args]

const valgrind = (tool: readonly string[], args: readonly string[], nodeFlags: readonly string[] = []): ReturnType<typeof spawnSync> => {
  const r = spawnSync('valgrind', [...tool, ...childArgs(args, nodeFlags)], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`valgrind failed (is it installed?):\n${String(r.stderr).slice(-2000)}`)
  return r
}

/** The instructions a child run executes. */
const count = (args: readonly string[]): number => {
  const r = valgrind(['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null'], args)
  return Number(/I\s+refs:\s+([\d,]+)/.exec(String(r.stderr))![1]!.replaceAll(',', ''))
}

/**
 * The instructions a child run executes in each function V8 compiled, by name. Callgrind
 * writes an instruction's address in full or relative to the last one's, and after a
 * `calls=` line the cost of that call (left out here: it is the callee's).
 */
const countByFunction = (args: readonly string[]): Map<string, number> => {
  const out = join(tmpdir(), `instructions-${process.pid}.callgrind`)
  const log = join(tmpdir(), `instructions-${process.pid}.v8.log`)
  const r = valgrind(['--tool=callgrind', '--dump-instr=yes', `--callgrind-out-file=${out}`], args, ['--perf-basic-prof', `--logfile=${log}`, '--no-logfile-per-isolate'])
  const map = `/tmp/perf-${r.pid}.map`
  const code = readFileSync(map, 'utf8').trim().split('\n').map((line) => {
    const [start, size, ...name] = line.split(' ')
    return { start: parseInt(start!, 16), end: parseInt(start!, 16) + parseInt(size!, 16), name: name.join(' ') }
  }).sort((a, b) => a.start - b.start)
  const nameAt = (address: number): string | undefined => {
    let low = 0
    let high = code.length - 1
    while (low <= high) {
      const mid = (low + high) >> 1
      if (code[mid]!.end <= address) low = mid + 1
      else if (code[mid]!.start > address) high = mid - 1
      else return code[mid]!.name
    }
    return undefined
  }
  const counts = new Map<string, number>()
  let address = 0
  let callCost = false
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (line.startsWith('calls=')) callCost = true
    if (!/^[0-9+*-]/.test(line)) continue
    const [at, , cost] = line.split(' ')
    address = at!.startsWith('0x') ? parseInt(at!, 16) : at === '*' ? address : address + Number(at)
    const name = callCost || cost === undefined ? undefined : nameAt(address)
    callCost = false
    if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + Number(cost))
  }
  for (const file of [out, log, map]) rmSync(file, { force: true })
  return counts
}

const [first, ...rest] = process.argv.slice(2)
if (first === '--child') {
  const [load, name, n, warm] = rest
  play(load as Load, name!, Number(n), warm === 'warm')
} else {
  const load = (first ?? 'hold') as Load
  const name = rest.find((a) => !a.startsWith('--')) ?? 'wheel'
  const warm = rest.includes('--warm') ? 'warm' : 'cold'
  if (!(load in sizes) || !['wheel', 'flatqueue'].includes(name)) {
    throw new Error('usage: instructions.ts hold|addRemove|churn [wheel|flatqueue] [--warm] [--functions]')
  }
  const [lo, hi] = sizes[load]
  const run = (n: number): string[] => [load, name, String(n), warm]
  if (rest.includes('--functions')) {
    const [small, large] = [countByFunction(run(lo)), countByFunction(run(hi))]
    const perOp = [...large].map(([f, c]) => [f, (c - (small.get(f) ?? 0)) / (hi - lo)] as const)
    console.log(`${load} ${name} ${warm}: instructions an operation, by compiled function`)
    const here = `file://${process.cwd()}/`
    for (const [f, c] of perOp.sort((a, b) => b[1] - a[1]).filter(([, c]) => c >= 1)) {
      console.log(`${c.toFixed(0).padStart(6)}  ${f.replace(here, '')}`)
    }
  } else {
    const perOp = (count(run(hi)) - count(run(lo))) / (hi - lo)
    console.log(`${load} ${name} ${warm}: ${perOp.toFixed(0)} instructions an operation`)
  }
}
