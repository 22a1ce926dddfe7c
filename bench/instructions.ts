/**
 * Instructions per operation, counted by valgrind, where `npm run bench` times: a count
 * does not drift with the machine's load, so two builds compare in one run each, not in
 * fifteen interleaved rounds. Needs valgrind (not part of `npm test`).
 *
 *   node --import tsx bench/instructions.ts hold|addRemove|churn [wheel|flatqueue] [--warm]
 *
 * Each load runs twice in a fresh `node` under cachegrind, at two sizes; the difference of
 * the two counts over the difference of the sizes leaves out start-up, compilation and the
 * setup outside the loop (churn's workload grows with its size, so its figure includes
 * making it: compare churn between builds, not with the heap). `--warm` first plays churn,
 * timeouts and spread on the same implementation, as the full bench has before its later
 * rows: what V8 inlines depends on what ran before.
 */
import { spawnSync } from 'node:child_process'
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

/** The instructions a child run executes. */
const count = (args: readonly string[]): number => {
  const self = fileURLToPath(import.meta.url)
  const r = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--single-threaded', '--import', 'tsx', self, '--child', ...args], { encoding: 'utf8' })
  const refs = /I\s+refs:\s+([\d,]+)/.exec(r.stderr)
  if (r.status !== 0 || refs === null) throw new Error(`valgrind failed (is it installed?):\n${r.stderr.slice(-2000)}`)
  return Number(refs[1]!.replaceAll(',', ''))
}

const [first, ...rest] = process.argv.slice(2)
if (first === '--child') {
  const [load, name, n, warm] = rest
  play(load as Load, name!, Number(n), warm === 'warm')
} else {
  const load = (first ?? 'hold') as Load
  const name = rest.find((a) => !a.startsWith('--')) ?? 'wheel'
  const warm = rest.includes('--warm') ? 'warm' : 'cold'
  if (!(load in sizes) || !['wheel', 'flatqueue'].includes(name)) throw new Error('usage: instructions.ts hold|addRemove|churn [wheel|flatqueue] [--warm]')
  const [lo, hi] = sizes[load]
  const perOp = (count([load, name, String(hi), warm]) - count([load, name, String(lo), warm])) / (hi - lo)
  console.log(`${load} ${name} ${warm}: ${perOp.toFixed(0)} instructions an operation`)
}
