/**
 * The results as Markdown tables, one per group (so that the README can quote them as
 * printed), the targets judged against them, and the JSON written to `bench/out/`.
 */
import { cpus } from 'node:os'
import type { Cell, Group, MemoryRow, Results, Row } from './runner.js'

/**
 * A target: one implementation of a row against `peer` (`own` defaults to the first), or
 * the wheel's bytes per alarm.
 */
interface TargetSpec {
  /** Picks the row; `what` names it when it did not run. */
  readonly row: (id: string) => boolean
  readonly what: string
  readonly own?: string
  readonly peer?: string
  /** The least ratio (the peer's time over own's, in the same round) that meets it. */
  readonly atLeast?: number
  /** The most own's time over the peer's may be, in the same round's median. */
  readonly atMost?: number
  /** The most bytes per alarm that meet it, on every memory row of the queues. */
  readonly atMostBytes?: number
}

const wheel = 'timing-wheel'
const clock = 'VirtualClock'
const fakeClock = 'timing-wheel/fake-timers'
const core = 'timing-wheel core'
const clockHold = (id: string): boolean => id === 'virtual-clock'

const targetSpecs: readonly TargetSpec[] = [
  { row: (id) => id.startsWith('churn-'), what: 'churn', own: wheel, peer: 'flatqueue', atLeast: 5 },
  { row: (id) => id === 'hold', what: 'hold', own: wheel, peer: 'flatqueue', atLeast: 1.5 },
  { row: (id) => id === 'timeouts', what: 'timeouts', own: wheel, peer: 'flatqueue', atLeast: 2 },
  { row: (id) => id === 'spread', what: 'spread', own: wheel, peer: 'flatqueue', atLeast: 2 },
  { row: (id) => id === 'add-remove', what: 'add+remove', own: wheel, peer: 'flatqueue', atLeast: 1 },
  { row: (id) => id.startsWith('memory-'), what: 'memory', atMostBytes: 40 },
  { row: clockHold, what: 'clock hold', own: clock, peer: core, atMost: 2 },
  { row: clockHold, what: 'clock hold', own: fakeClock, peer: core, atMost: 2 },
  { row: clockHold, what: 'clock hold', own: clock, peer: 'fake-timers 15.5', atLeast: 3.5 },
  { row: clockHold, what: 'clock hold', own: fakeClock, peer: 'fake-timers 15.5', atLeast: 3.5 },
  { row: (id) => id === 'idle-clock', what: 'idle clock', own: clock, peer: 'fake-timers 15.5', atLeast: 100 },
  { row: (id) => id === 'idle-clock', what: 'idle clock', own: clock, peer: 'fake-timers 15.0', atLeast: 100 },
]

export interface Target {
  readonly name: string
  readonly measured: string
  /** Undefined when the figure was not measured. */
  readonly met: boolean | undefined
}

export const showRatio = (x: number): string =>
  !Number.isFinite(x) ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)

export const showRange = (cell: Cell): string => `${showRatio(cell.range[0])}–${showRatio(cell.range[1])}`

export const showNs = (ns: number): string => (ns >= 100 ? ns.toFixed(0) : ns >= 10 ? ns.toFixed(1) : ns.toFixed(2))

const judgeBytes = (spec: TargetSpec, rows: readonly MemoryRow[]): Target => {
  const own = rows.filter((r) => r.group === 'queues' && spec.row(r.id)).map((r) => ({ label: r.label, bytes: r.cells[0]?.bytes }))
  const name = `${wheel} <= ${spec.atMostBytes} bytes per outstanding alarm`
  const measured = own.filter((w): w is { label: string; bytes: number } => w.bytes !== undefined)
  if (measured.length === 0) return { name, measured: 'not measured', met: undefined }
  return {
    name,
    measured: measured.map((w) => `${w.bytes.toFixed(1)} (${w.label})`).join(', '),
    met: measured.every((w) => w.bytes <= spec.atMostBytes!),
  }
}

/** `over`'s time over `under`'s in each round, and their median and range. */
export const roundRatios = (over: Cell, under: Cell): { ratio: number; range: readonly [number, number] } => {
  const ratios = over.rounds.map((r, i) => r.nsPerOp / under.rounds[i]!.nsPerOp)
  const sorted = [...ratios].sort((a, b) => a - b)
  return { ratio: sorted[Math.floor((sorted.length - 1) / 2)]!, range: [sorted[0]!, sorted[sorted.length - 1]!] }
}

export const judge = (results: Results): Target[] =>
  targetSpecs.map((spec): Target => {
    if (spec.atMostBytes !== undefined) return judgeBytes(spec, results.memory)
    const row = results.rows.find((r) => spec.row(r.id))
    const own = row?.cells.find((c) => c.impl === spec.own)
    const peer = row?.cells.find((c) => c.impl === spec.peer)
    const label = row?.label ?? spec.what
    if (spec.atMost !== undefined) {
      const name = `${label}: ${spec.own} <= ${spec.atMost}x the time of ${spec.peer}`
      if (own === undefined || peer === undefined) return { name, measured: 'not measured', met: undefined }
      const { ratio, range } = roundRatios(own, peer)
      return { name, measured: `${showRatio(ratio)}x (rounds ${showRatio(range[0])}–${showRatio(range[1])})`, met: ratio <= spec.atMost }
    }
    const name = `${label}: ${spec.own} >= ${spec.atLeast}x ${spec.peer}`
    if (own === undefined || peer === undefined) return { name, measured: 'not measured', met: undefined }
    const { ratio, range } = roundRatios(peer, own)
    return { name, measured: `${showRatio(ratio)}x (rounds ${showRatio(range[0])}–${showRatio(range[1])})`, met: ratio >= spec.atLeast! }
  })

export const markdownTable = (header: readonly string[], body: ReadonlyArray<readonly string[]>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`
  return [line(header), rule, ...body.map((r) => line(header.map((_, i) => r[i] ?? '')))].join('\n')
}

const groupHeads: Readonly<Record<Group, string>> = { queues: 'workload', clocks: 'clock load', game: 'game loop' }

/** One group's table: the first implementation's ns per op, then each peer's ratio to it and the range over rounds. */
const groupTable = (group: Group, rows: readonly Row[], memory: readonly MemoryRow[]): string | undefined => {
  const timed = rows.filter((r) => r.group === group)
  const bytes = memory.filter((r) => r.group === group)
  const impls = [...new Set([...timed, ...bytes].flatMap((r) => r.cells.map((c) => c.impl)))]
  if (impls.length === 0) return undefined
  const body = [
    ...timed.map((row) => [
      row.label,
      ...impls.map((impl, i) => {
        const cell = row.cells.find((c) => c.impl === impl)
        if (cell === undefined) return ''
        return i === 0 ? `${showNs(cell.nsPerOp)} ns` : `${showRatio(cell.ratio)}x (${showRange(cell)})`
      }),
    ]),
    ...bytes.map((row) => [
      row.label,
      ...impls.map((impl) => {
        const cell = row.cells.find((c) => c.impl === impl)
        return cell === undefined ? '' : cell.bytes === undefined ? 'n/a' : cell.bytes.toFixed(1)
      }),
    ]),
  ]
  return markdownTable([groupHeads[group], ...impls], body)
}

/**
 * The simulation row as a user reads it: events a second for each clock (of its median
 * round), and the first clock's time over each one's.
 */
const simulationTable = (rows: readonly Row[]): string | undefined => {
  const row = rows.find((r) => r.id === 'simulation')
  if (row === undefined) return undefined
  const first = row.cells[0]!
  const body = row.cells.map((cell, i) => {
    const { ratio, range } = roundRatios(first, cell)
    const perSecond = Math.round(1e9 / cell.nsPerOp).toLocaleString('en-US')
    return [cell.impl, perSecond, i === 0 ? '1' : `${showRatio(ratio)}x (${showRatio(range[0])}–${showRatio(range[1])})`]
  })
  return markdownTable([`${row.label}: clock`, 'events / s', `over ${first.impl}'s`], body)
}

/** Where the implementations of a row played different amounts (the loads played in steps), how much each played. */
const opsNote = (row: Row): string => {
  const spans = row.cells.map((c) => {
    const ops = c.rounds.map((r) => r.ops)
    const [low, high] = [Math.min(...ops), Math.max(...ops)]
    return `${c.impl} ${low === high ? low.toLocaleString('en-US') : `${low.toLocaleString('en-US')}–${high.toLocaleString('en-US')}`}`
  })
  const same = row.cells.every((c) => c.rounds.every((r) => r.ops === row.cells[0]!.rounds[0]!.ops))
  return same ? '' : ` (ops timed a round: ${spans.join(', ')})`
}

/** The tables and the targets, as printed to stdout. */
export const render = (results: Results, command: string): string => {
  const tables = [
    ...(['queues', 'clocks', 'game'] as const).flatMap((g) => groupTable(g, results.rows, results.memory) ?? []),
    ...[simulationTable(results.rows)].filter((t) => t !== undefined),
  ]
  const rounds = results.rows[0]?.cells[0]?.rounds.length ?? 0
  const targets = judge(results).map((t) => `- ${t.met === true ? 'met' : t.met === false ? 'not met' : 'not judged'}: ${t.name}: ${t.measured}`)
  return [
    `\`${command}\` (node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, seed ${results.seed})`,
    `Timed with: ${results.clock}.`,
    '',
    tables.join('\n\n'),
    '',
    `The first column: ns per op, the median of ${rounds} interleaved rounds. Nx (a–b): that implementation's time over the`,
    "first column's in the same round, the median and the range over rounds; above 1, the first column is faster. bytes: per",
    'outstanding alarm or pending timer.',
    ...results.rows.map((r) => `- ${r.label}: ${r.description}${opsNote(r)}`),
    '',
    'Targets:',
    ...targets,
  ].join('\n')
}

/** The JSON written to `bench/out/`. */
export const toJson = (results: Results, command: string, mode: string): string =>
  `${JSON.stringify(
    {
      command,
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model,
      cores: cpus().length,
      mode,
      ...results,
      targets: judge(results),
    },
    null,
    2,
  )}\n`
