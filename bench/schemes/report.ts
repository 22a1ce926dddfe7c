/**
 * The report, `schemes.md` (published copy: `bench/schemes/report/schemes.md`): the
 * measurements next to the paper's predicted complexities, and a verdict for each computed
 * by `analysis.ts`.
 */
import { type Agreement, cellOf, idleOf, judge, perTimerWork, showN, tolerance, tradeOffFindings } from './analysis.js'
import type { BenchResult } from './bench.js'
import type { Measurement, Series } from './measure.js'
import { type Op, ops, predictions, routineName } from './paper.js'
import { segmentFor } from './workloads.js'

/** Three significant figures with a unit. */
export const showNs = (ns: number): string => {
  if (ns >= 1e6) return `${Number((ns / 1e6).toPrecision(3))} ms`
  if (ns >= 1e3) return `${Number((ns / 1e3).toPrecision(3))} µs`
  return `${Number(ns.toPrecision(3))} ns`
}

const cell = (p: Measurement, label: string): string => {
  const skip = p.skipped
  if (skip === undefined) return p.ns === undefined ? '–' : showNs(p.ns)
  const seconds = `${(skip.measurementNs / 1e9).toFixed(1)} s to measure`
  if (skip.restoreNs > skip.nsPerOp) {
    return `skipped (each op is undone by a START_TIMER projected at ${showNs(skip.restoreNs)}; ${seconds})`
  }
  return `skipped (${label}, projected ${showNs(skip.nsPerOp)}/op; ${seconds})`
}

const mark: Readonly<Record<Agreement, string>> = {
  agrees: '✓',
  'agrees within memory latency': '✓ within memory latency',
  disagrees: '✗',
}

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`

const seriesOf = (result: BenchResult, op: Op): Series[] => result.sweep.series.filter((s) => s.op === op)

const routineSection = (result: BenchResult, op: Op): string[] => {
  const sizes = result.options.sweep.sizes
  const m = result.options.sweep.tableSize
  const lines = [
    `### ${routineName[op]}`,
    '',
    `![${routineName[op]} against n](schemes-${op}.svg)`,
    '',
    row(['scheme', 'paper predicts', ...sizes.map((n) => `n = ${showN(n)}`), 'exponent measured', 'exponent predicted']),
    row(['---', '---', ...sizes.map(() => '---:'), '---:', '---:']),
  ]
  const sentences: string[] = []
  for (const s of seriesOf(result, op)) {
    const prediction = predictions(s.scheme.number, m)[op]
    const verdict = judge(s, prediction, result.sweep.memory)
    lines.push(
      row([
        s.scheme.name,
        `${prediction.label} (${prediction.source})`,
        ...s.points.map((p) => cell(p, prediction.label)),
        verdict === undefined ? '–' : verdict.measuredSlope.toFixed(2),
        verdict === undefined ? '–' : verdict.predictedSlope.toFixed(2),
      ]),
    )
    sentences.push(`- **${s.scheme.name}.** ${verdict === undefined ? 'Too few sizes measured to judge.' : verdict.sentence}`)
  }
  const memory = result.sweep.memory
  lines.push(
    row([
      '*yardstick: one random read in 16·n bytes*',
      '–',
      ...sizes.map((n) => {
        const m = memory.find((x) => x.n === n)
        return m === undefined ? '–' : `*${showNs(m.ns)}*`
      }),
      '–',
      '–',
    ]),
  )
  return [...lines, '', ...sentences, '']
}

/** The paper's Figures 4 and 6 extended to all seven schemes, with the measured exponent beside each entry. */
const overview = (result: BenchResult): string[] => {
  const m = result.options.sweep.tableSize
  const lines = [
    row(['scheme', ...ops.map((op) => `${routineName[op]}: paper → measured`)]),
    row(['---', ...ops.map(() => '---')]),
  ]
  const schemes = result.options.sweep.schemes
  for (const scheme of schemes) {
    const predicted = predictions(scheme.number, m)
    lines.push(
      row([
        scheme.name,
        ...ops.map((op) => {
          const s = result.sweep.series.find((x) => x.scheme === scheme && x.op === op)
          const v = s === undefined ? undefined : judge(s, predicted[op], result.sweep.memory)
          if (v === undefined) return `${predicted[op].label} → –`
          return `${predicted[op].label} → n^${v.measuredSlope.toFixed(2)} ${mark[v.agreement]}`
        }),
      ]),
    )
  }
  return lines
}

const tradeOffSection = (result: BenchResult): string[] => {
  const r = result.tradeOff
  const o = result.options.tradeOff
  const header = row(['T', ...r.variants.map((v) => v.label)])
  const rule = row(['---:', ...r.variants.map(() => '---:')])
  const grid = (what: 'tickNs' | 'startNs'): string[] =>
    r.meanIntervals.map((t) => row([`2^${Math.log2(t)}`, ...r.variants.map((v) => showNs(cellOf(r, v.label, t)[what]))]))
  return [
    '## T against M: Schemes 6 and 7',
    '',
    `n = ${r.n} timers in a steady state: each is restarted the moment it expires, intervals uniform in [1, 2T - 1] ` +
      `(mean T), and the setup draws remaining times from the residual-life law, so the first tick is already in equilibrium. ` +
      `A tick here is the whole cost of the timer module per unit time: PER_TICK_BOOKKEEPING, the n/T expiries ` +
      `and the n/T START_TIMERs that replace them; the paper's comparison (section 6.2) is of exactly this quantity, ` +
      `n·c(6)/M for Scheme 6 and at most n·c(7)·m/T for Scheme 7, plus the starts and expiries both pay. ` +
      `Each configuration is sized once for the largest T, as a user would size a wheel. ` +
      `Median of ${o.reps} runs, each about ${o.budgetNs / 1e6} ms.`,
    '',
    r.variants.map((v) => `- ${v.label}: ${v.totalSlots} array elements in ${v.levels} level${v.levels === 1 ? '' : 's'}`).join('\n'),
    '',
    '![ns per tick against T](tradeoff-tick.svg)',
    '',
    '**ns per tick** (steady state, expiries and restarts included)',
    '',
    header,
    rule,
    ...grid('tickNs'),
    '',
    '![START_TIMER against T](tradeoff-start.svg)',
    '',
    '**ns per START_TIMER** in the same states',
    '',
    header,
    rule,
    ...grid('startNs'),
    '',
    '**Work per timer over its life**: (tick − idle tick) × T / n, the paper\'s c(6)·T/M against c(7)·m, ' +
      'with the start and the expiry that every scheme pays included. Idle tick, the cost of a tick with no timers: ' +
      r.variants.map((v) => `${v.label} ${showNs(idleOf(r, v.label))}`).join(', ') +
      '.',
    '',
    header,
    rule,
    ...r.meanIntervals.map((t) => row([`2^${Math.log2(t)}`, ...r.variants.map((v) => showNs(perTimerWork(r, v.label, t)))])),
    '',
    '### What the grid says about the paper\'s claims',
    '',
    ...tradeOffFindings(r).map((f) => `- ${f}`),
    '',
  ]
}

export const render = (result: BenchResult): string => {
  const { meta } = result
  const s = result.options.sweep
  const firings = result.sweep.firings[0]
  const n0 = Math.min(...s.sizes)
  const segment0 = segmentFor(n0, s.minSegment, s.maxSegment)
  return [
    '# Varghese & Lauck\'s timer schemes, measured',
    '',
    `Generated by \`${meta.command}\` on ${meta.date} (${meta.mode} mode, ${meta.seconds.toFixed(0)} s): ` +
      `Node ${meta.node}, ${meta.cpu}, ${meta.cores} cores${meta.gc ? '' : ', without --expose-gc'}. ` +
      'Written by `bench/schemes/index.ts`; every sentence below is computed from the numbers in this file.',
    '',
    'Each scheme implements the paper\'s interface (START_TIMER, STOP_TIMER, PER_TICK_BOOKKEEPING) in ' +
      '`bench/schemes/`; `spec/schemes.spec.ts` checks each against a reference model. Scheme 7 is this ' +
      'package\'s `PriorityQueue` with the default level bits [11,10,10,10,10,1].',
    '',
    '## Summary: the paper\'s predictions against the measured exponent',
    '',
    `The exponent k is the least-squares slope of log(cost) against log(n) over the sizes measured: cost ~ n^k. ` +
      `✓: within ±${tolerance} of the exponent of the paper's prediction evaluated at the same sizes ` +
      `(O(1) is 0, O(n) is 1, O(log n) is about 0.1 over four decades). ` +
      `✓ within memory latency: the exponent is above the prediction's, but by no more than the exponent of one random ` +
      `memory read into 16·n bytes (the yardstick row of each table, about the size of n timer records) plus ${tolerance}. ` +
      `Cost is work times the time per memory access, and an access costs between a cache hit and such a random read, ` +
      `so a routine doing the predicted work lands in that band as n outgrows the caches. ` +
      `M = ${s.tableSize} for Schemes 5 and 6.`,
    '',
    ...overview(result),
    '',
    '## Growth in the number of outstanding timers n',
    '',
    `n timers start at tick 0 with intervals uniform in [1, ${s.maxInterval}), so fewer than ` +
      `${Math.max(1, Math.ceil((2 * Math.max(...s.sizes)) / s.maxInterval))} expire per tick even at the largest n: the per-tick ` +
      'figures are bookkeeping, not expiry processing. START_TIMER is timed in segments of starts on spare ids, each ' +
      'segment stopped again off the clock; STOP_TIMER in segments of stops of distinct outstanding timers chosen at random, ' +
      `each restarted off the clock. A segment is n/10 operations, at least ${s.minSegment} and at most ${s.maxSegment} ` +
      `(and at most n/2), so n moves by at most 10%, except at the smallest sizes: at n = ${n0} a START segment takes n from ` +
      `${n0} to ${n0 + segment0} and a STOP segment from ${n0} down to ${n0 - segment0}; ` +
      'shorter segments cannot be timed (the clock read costs more than the operations and overlaps them). ' +
      `Each cell is the median of ${s.reps} runs (after one discarded run), each on a freshly built module and timing about ${s.budgetNs / 1e6} ms ` +
      `(at least ${s.minOps} operations, at most ${s.maxOps}; ticks at most ${s.maxTicks}). A measurement projected ` +
      `(from the previous size, by the paper's shape or the last measured growth if steeper) to take over ` +
      `${s.skipAboveNs / 1e9} s for all runs is skipped, and so are the larger sizes of that routine. ` +
      (result.sweep.series.some((x) => x.points.some((p) => p.skipped !== undefined))
        ? 'Skipped cells say why.'
        : 'No measurement was projected that long in this run.'),
    '',
    ...ops.flatMap((op) => routineSection(result, op)),
    ...tradeOffSection(result),
    '## Method',
    '',
    '- Workloads are generated from a seed into typed arrays before any clock starts; the timed loops ' +
      '(`bench/schemes/drivers.ts`) only read them and call the scheme.',
    '- Each scheme is timed through its own copy of the drivers module, so every call site sees one scheme and can be ' +
      'inlined, as in a program that uses one timer scheme.',
    '- `process.hrtime.bigint()` around each segment; the mean cost of an empty segment, measured warm, is subtracted. ' +
      '`global.gc()` runs before each timed phase (node runs with `--expose-gc`).',
    '- Growth in n: one discarded run before the timed runs at each size. T against M: each state is ticked for two ' +
      'whole budgets before timing, since the first ticks after the setup cost several times the steady state; the ' +
      'windows are then sized from the second budget. Idle ticks are timed on an empty module of the same configuration.',
    `- Before timing, each scheme runs a warm-up program (2000 timers, short intervals, every timer fires); all ${result.sweep.firings.length} ` +
      `schemes fired the same ${firings?.fired ?? 0} timers at the same ticks (order-free hash ${firings?.hash ?? 0}), or the run would have stopped.`,
    '',
  ].join('\n')
}
