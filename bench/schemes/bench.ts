/**
 * The benchmark as functions: the full and quick settings, a run of both experiments, and
 * the writing of the report. `index.ts` is the command line around them; the spec calls
 * them in-process in quick mode.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { LevelBits } from '../../lib/index.js'
import { hashedUnsorted, hierarchical, schemes } from './catalog.js'
import {
  type LoadDrivers,
  type SweepOptions,
  type SweepResult,
  type TradeOffOptions,
  type TradeOffResult,
  type Variant,
  canCollect,
  sweep,
  tradeOff,
} from './measure.js'
import { render } from './report.js'
import { plots } from './svg.js'

export interface BenchOptions {
  readonly mode: 'full' | 'quick'
  readonly sweep: SweepOptions
  readonly tradeOff: TradeOffOptions
}

export interface Meta {
  readonly mode: 'full' | 'quick'
  readonly command: string
  readonly date: string
  readonly node: string
  readonly cpu: string
  readonly cores: number
  readonly gc: boolean
  readonly seconds: number
}

export interface BenchResult {
  readonly meta: Meta
  readonly options: BenchOptions
  readonly sweep: SweepResult
  readonly tradeOff: TradeOffResult
}

const scheme6 = (bits: number): Variant => ({
  label: `Scheme 6, M = 2^${bits}`,
  scheme: hashedUnsorted,
  tableSize: 2 ** bits,
  totalSlots: 2 ** bits,
  levels: 1,
})

/** Scheme 7 with `bits` per level, as many levels as reach `2^coverBits` ticks. */
const scheme7 = (bits: number, coverBits: number): Variant => {
  const levelBits = Array.from({ length: Math.ceil(coverBits / bits) }, () => bits)
  return {
    label: `Scheme 7, ${levelBits.length} × ${bits} bits`,
    scheme: hierarchical,
    levelBits,
    totalSlots: levelBits.length * 2 ** bits,
    levels: levelBits.length,
  }
}

/** Scheme 7 as the package ships it: Core's default level bits. */
const scheme7Default = (): Variant => {
  const levelBits = LevelBits.toArray(LevelBits.default)
  return {
    label: `Scheme 7, [${levelBits.join(',')}]`,
    scheme: hierarchical,
    levelBits,
    totalSlots: levelBits.reduce((sum, b) => sum + 2 ** b, 0),
    levels: levelBits.length,
  }
}

const seed = 20260

export const fullOptions = (seedValue = seed): BenchOptions => ({
  mode: 'full',
  sweep: {
    schemes,
    sizes: [1e2, 1e3, 1e4, 1e5, 1e6],
    maxInterval: 2 ** 24,
    tableSize: 2 ** 12,
    reps: 7,
    budgetNs: 40e6,
    minOps: 16,
    maxOps: 2 ** 18,
    maxTicks: 2 ** 20,
    minSegment: 50,
    maxSegment: 1000,
    skipAboveNs: 4e9,
    memorySteps: 2 ** 19,
    seed: seedValue,
  },
  tradeOff: {
    n: 1e5,
    meanIntervals: [2 ** 4, 2 ** 7, 2 ** 10, 2 ** 13, 2 ** 16, 2 ** 19, 2 ** 22],
    variants: [scheme6(8), scheme6(12), scheme6(16), scheme6(20), scheme7(4, 24), scheme7(8, 24), scheme7Default()],
    reps: 7,
    budgetNs: 30e6,
    minTicks: 64,
    maxTicks: 2 ** 22,
    maxOps: 2 ** 17,
    minSegment: 50,
    maxSegment: 1000,
    ringLength: 2 ** 20,
    seed: seedValue,
  },
})

export const quickOptions = (seedValue = seed): BenchOptions => ({
  mode: 'quick',
  sweep: {
    schemes,
    sizes: [1e2, 1e3, 1e4],
    maxInterval: 2 ** 16,
    tableSize: 2 ** 8,
    reps: 2,
    budgetNs: 1e6,
    minOps: 8,
    maxOps: 2 ** 12,
    maxTicks: 2 ** 12,
    minSegment: 20,
    maxSegment: 100,
    skipAboveNs: 2e8,
    memorySteps: 2 ** 14,
    seed: seedValue,
  },
  tradeOff: {
    n: 1000,
    meanIntervals: [2 ** 4, 2 ** 9, 2 ** 14],
    variants: [scheme6(4), scheme6(10), scheme7(4, 16), scheme7Default()],
    reps: 2,
    budgetNs: 1e6,
    minTicks: 64,
    maxTicks: 2 ** 14,
    maxOps: 2 ** 12,
    minSegment: 20,
    maxSegment: 100,
    ringLength: 2 ** 12,
    seed: seedValue,
  },
})

export const runBench = async (
  options: BenchOptions,
  loadDrivers: LoadDrivers,
  log: (line: string) => void,
  command: string,
): Promise<BenchResult> => {
  const began = performance.now()
  const sweepResult = await sweep(options.sweep, loadDrivers, log)
  const tradeOffResult = await tradeOff(options.tradeOff, loadDrivers, log)
  const cpu = cpus()
  return {
    meta: {
      mode: options.mode,
      command,
      date: new Date().toISOString().slice(0, 10),
      node: process.version,
      cpu: cpu[0]?.model.trim() ?? 'unknown',
      cores: cpu.length,
      gc: canCollect(),
      seconds: (performance.now() - began) / 1000,
    },
    options,
    sweep: sweepResult,
    tradeOff: tradeOffResult,
  }
}

/** Writes `schemes.md` and the plots into `dir`; returns the paths written. */
export const writeReport = (dir: string, result: BenchResult): string[] => {
  mkdirSync(dir, { recursive: true })
  const written: string[] = []
  for (const [name, svg] of plots(result)) {
    const path = join(dir, name)
    writeFileSync(path, svg)
    written.push(path)
  }
  const path = join(dir, 'schemes.md')
  writeFileSync(path, render(result))
  written.push(path)
  return written
}
