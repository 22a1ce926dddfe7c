/**
 * The results as a Markdown table (so that the README can quote it as printed), the
 * issue's targets judged against them, and the JSON written to `bench/results.json`.
 */
import { cpus } from 'node:os'
import type { Cell, MemoryCell, Results, Row } from './runner.js'
import { showCount } from './workloads.js'

/** The issue's targets. `ratio` targets compare the wheel (or VirtualClock) with a peer. */
interface TargetSpec {
  readonly name: string
  readonly row: string
  readonly peer?: string
  readonly atLeast?: number
  readonly atMostNs?: number
  readonly atMostBytes?: number
}

const targetSpecs: readonly TargetSpec[] = [
  { name: 'churn at 100k outstanding: >= 5x faster than flatqueue', row: 'churn-100k', peer: 'flatqueue', atLeast: 5 },
  { name: 'timeouts: >= 5x faster than flatqueue', row: 'timeouts', peer: 'flatqueue', atLeast: 5 },
  { name: 'spread: >= 3x faster than flatqueue', row: 'spread', peer: 'flatqueue', atLeast: 3 },
  { name: 'hold: >= 1.5x faster than flatqueue', row: 'hold', peer: 'flatqueue', atLeast: 1.5 },
  { name: 'virtual clock: >= 10x faster than fake-timers', row: 'virtual-clock', peer: 'fake-timers', atLeast: 10 },
  { name: 'add+remove in cache: <= 25 ns', row: 'add-remove', atMostNs: 25 },
  { name: 'memory: <= 40 bytes per outstanding alarm (1M and 5M)', row: 'memory', atMostBytes: 40 },
]

export interface Target {
  readonly name: string
  readonly measured: string
  /** Undefined when the figure was not measured. */
  readonly met: boolean | undefined
}

export const judge = (results: Results): Target[] =>
  targetSpecs.map((spec): Target => {
    if (spec.atMostBytes !== undefined) {
      const small = results.memory.cells.find((c) => c.kind === 'queue')?.bytesPerAlarm
      const large = results.memory.large?.bytesPerAlarm
      const measured = [small, large].filter((b) => b !== undefined)
      return measured.length === 0
        ? { name: spec.name, measured: 'not measured', met: undefined }
        : {
            name: spec.name,
            measured: measured.map((b) => `${b.toFixed(1)} bytes`).join(', '),
            met: measured.every((b) => b <= spec.atMostBytes!),
          }
    }
    const row = results.rows.find((r) => r.id === spec.row)
    const base = row?.cells[0]
    if (row === undefined || base === undefined) {
      return { name: spec.name, measured: row?.pending ?? 'not measured', met: undefined }
    }
    if (spec.atMostNs !== undefined) {
      return { name: spec.name, measured: `${base.nsPerOp.toFixed(1)} ns`, met: base.nsPerOp <= spec.atMostNs }
    }
    const peer = row.cells.find((c) => c.impl === spec.peer)
    if (peer === undefined || spec.atLeast === undefined) return { name: spec.name, measured: 'not measured', met: undefined }
    return { name: spec.name, measured: `${peer.ratio.toFixed(2)}x`, met: peer.ratio >= spec.atLeast }
  })

export const showNs = (ns: number): string =>
  ns >= 100 ? ns.toFixed(0) : ns >= 10 ? ns.toFixed(1) : ns.toFixed(2)

const showCell = (cell: Cell | undefined, baseline: boolean): string => {
  if (cell === undefined) return ''
  return baseline ? `${showNs(cell.nsPerOp)} ns` : `${showNs(cell.nsPerOp)} ns (${cell.ratio.toFixed(1)}x)`
}

/** The columns: the wheel's (VirtualClock on the virtual-clock rows), then each peer. */
const columnsOf = (results: Results): string[] => {
  const names: string[] = []
  const add = (name: string): void => {
    if (!names.includes(name) && name !== 'VirtualClock') names.push(name)
  }
  for (const row of results.rows) row.cells.slice(1).forEach((c) => add(c.impl))
  results.memory.cells.slice(1).forEach((c) => add(c.impl))
  return names
}

export const markdownTable = (header: readonly string[], body: ReadonlyArray<readonly string[]>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`
  return [line(header), rule, ...body.map((r) => line(header.map((_, i) => r[i] ?? '')))].join('\n')
}

const rowCells = (row: Row, peers: readonly string[]): string[] => {
  if (row.pending !== undefined) return [row.label, row.pending]
  return [
    row.label,
    showCell(row.cells[0], true),
    ...peers.map((p) => showCell(row.cells.find((c) => c.impl === p), false)),
  ]
}

/** The table and the targets, as printed to stdout. */
export const render = (results: Results, command: string): string => {
  const peers = columnsOf(results)
  const body = results.rows.map((row) => rowCells(row, peers))
  const memory = results.memory.cells
  const count = showCount(results.memory.alarms)
  const bytes = (cell: MemoryCell | undefined): string =>
    cell === undefined ? '' : cell.bytesPerAlarm === undefined ? 'n/a' : `${cell.bytesPerAlarm.toFixed(1)} B`
  for (const kind of ['queue', 'clock'] as const) {
    const cells = memory.filter((c) => c.kind === kind)
    const first = cells[0]
    if (first === undefined) continue
    const own = kind === 'queue' || first.impl === 'VirtualClock' ? first : undefined
    body.push([
      kind === 'queue' ? `bytes / alarm (${count})` : `bytes / timer (${count})`,
      bytes(own),
      ...peers.map((p) => bytes(cells.find((c) => c !== own && c.impl === p))),
    ])
  }
  const large = results.memory.large
  if (large !== undefined) {
    body.push([`bytes / alarm (${showCount(large.alarms)})`, bytes({ impl: '', kind: 'queue', bytesPerAlarm: large.bytesPerAlarm }), ...peers.map(() => '')])
  }
  const table = markdownTable(['workload', 'timing-wheel', ...peers], body)
  const targets = judge(results)
    .map((t) => `- ${t.met === true ? 'met' : t.met === false ? 'MISSED' : 'not judged'}: ${t.name}: ${t.measured}`)
    .join('\n')
  const notes = results.rows.map((r) => `- ${r.label}: ${r.description}`).join('\n')
  const repeats = results.rows.find((r) => r.cells.length > 0)?.cells[0]?.runs.length ?? 0
  return [
    `\`${command}\` (node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, seed ${results.seed})`,
    '',
    table,
    '',
    `Median of ${repeats} timed runs. (Nx) = that peer's time over the wheel's: the wheel is N times faster (below 1: slower).`,
    'On the virtual clock and bytes / timer rows the timing-wheel column is timing-wheel/sim\'s VirtualClock.',
    notes,
    '',
    'Targets:',
    targets,
  ].join('\n')
}

/** The JSON written next to the bench. */
export const toJson = (results: Results, command: string, mode: string): string =>
  `${JSON.stringify(
    {
      command,
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model,
      cores: cpus().length,
      mode,
      seed: results.seed,
      rows: results.rows,
      memory: results.memory,
      targets: judge(results),
    },
    null,
    2,
  )}\n`
