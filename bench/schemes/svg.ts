/**
 * Log-log line plots as standalone SVG text: axes, gridlines at each power, tick labels,
 * one polyline per series and a legend. No dependencies; the output opens in a browser.
 */
import { cellOf, measured } from './analysis.js'
import type { BenchResult } from './bench.js'
import { type Op, ops, routineName } from './paper.js'

export interface Line {
  readonly label: string
  readonly color: string
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>
  /** Points not measured but projected, drawn dashed with open markers. */
  readonly projected?: ReadonlyArray<{ readonly x: number; readonly y: number }>
  /** A reference line rather than a measurement: drawn thin and dashed. */
  readonly reference?: boolean
}

export interface Plot {
  readonly title: string
  readonly xLabel: string
  readonly yLabel: string
  /** Ticks on the x axis at powers of this base. */
  readonly xBase: 10 | 2
  readonly lines: readonly Line[]
}

/** Tableau 10: distinguishable, and readable on white. */
export const palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac']

const width = 920
const height = 500
const margin = { left: 78, right: 330, top: 46, bottom: 58 }
const plotW = width - margin.left - margin.right
const plotH = height - margin.top - margin.bottom

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const r1 = (x: number): string => x.toFixed(1)

/** Nanoseconds with a unit, for the y axis. */
const showNs = (ns: number): string => {
  const units: Array<[number, string]> = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']]
  for (const [scale, unit] of units) if (ns >= scale) return `${Number((ns / scale).toPrecision(3))} ${unit}`
  return `${Number(ns.toPrecision(3))} ns`
}

/** A power label with a raised exponent. */
const powerLabel = (base: number, k: number): string => `${base}<tspan dy="-6" font-size="9">${k}</tspan>`

export const render = (plot: Plot): string => {
  const xs = plot.lines.flatMap((l) => [...l.points, ...(l.projected ?? [])].map((p) => p.x))
  const ys = plot.lines.flatMap((l) => [...l.points, ...(l.projected ?? [])].map((p) => p.y)).filter((y) => y > 0)
  const logX = (x: number): number => Math.log(x) / Math.log(plot.xBase)
  const xMin = Math.floor(logX(Math.min(...xs)))
  const xMax = Math.ceil(logX(Math.max(...xs)))
  const yMin = Math.floor(Math.log10(Math.min(...ys)))
  const yMax = Math.max(yMin + 1, Math.ceil(Math.log10(Math.max(...ys))))
  const px = (x: number): number => margin.left + ((logX(x) - xMin) / Math.max(1, xMax - xMin)) * plotW
  const py = (y: number): number => margin.top + plotH - ((Math.log10(y) - yMin) / (yMax - yMin)) * plotH
  const out: string[] = []
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  )
  out.push(`<title>${escape(plot.title)}</title>`)
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`)
  out.push(`<text x="${margin.left + plotW / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escape(plot.title)}</text>`)
  // Gridlines and ticks: every power on x (every third for base 2, to keep labels apart), every decade on y.
  const xStep = plot.xBase === 2 ? 3 : 1
  for (let k = xMin; k <= xMax; k += xStep) {
    const x = r1(px(plot.xBase ** k))
    out.push(`<line x1="${x}" y1="${margin.top}" x2="${x}" y2="${margin.top + plotH}" stroke="#e4e4e4"/>`)
    out.push(`<text x="${x}" y="${margin.top + plotH + 20}" text-anchor="middle">${powerLabel(plot.xBase, k)}</text>`)
  }
  for (let k = yMin; k <= yMax; k++) {
    const y = r1(py(10 ** k))
    out.push(`<line x1="${margin.left}" y1="${y}" x2="${margin.left + plotW}" y2="${y}" stroke="#e4e4e4"/>`)
    out.push(`<text x="${margin.left - 8}" y="${y}" text-anchor="end" dominant-baseline="middle">${escape(showNs(10 ** k))}</text>`)
  }
  out.push(`<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333333"/>`)
  out.push(`<text x="${margin.left + plotW / 2}" y="${height - 14}" text-anchor="middle">${escape(plot.xLabel)}</text>`)
  out.push(
    `<text x="18" y="${margin.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 18 ${margin.top + plotH / 2})">${escape(plot.yLabel)}</text>`,
  )
  for (const line of plot.lines) {
    const pts = line.points.filter((p) => p.y > 0)
    const stroke = line.reference === true ? 'stroke-width="1.5" stroke-dasharray="2 3"' : 'stroke-width="2"'
    if (pts.length > 1) {
      const path = pts.map((p) => `${r1(px(p.x))},${r1(py(p.y))}`).join(' ')
      out.push(`<polyline points="${path}" fill="none" stroke="${line.color}" ${stroke}/>`)
    }
    if (line.reference !== true) {
      for (const p of pts) out.push(`<circle cx="${r1(px(p.x))}" cy="${r1(py(p.y))}" r="3.5" fill="${line.color}"/>`)
    }
    const projected = line.projected ?? []
    if (projected.length > 0) {
      const from = pts.at(-1)
      const path = [...(from === undefined ? [] : [from]), ...projected].map((p) => `${r1(px(p.x))},${r1(py(p.y))}`).join(' ')
      out.push(`<polyline points="${path}" fill="none" stroke="${line.color}" stroke-width="1.5" stroke-dasharray="5 4"/>`)
      for (const p of projected) {
        out.push(`<circle cx="${r1(px(p.x))}" cy="${r1(py(p.y))}" r="4" fill="#ffffff" stroke="${line.color}" stroke-width="1.5"/>`)
      }
    }
  }
  // Legend.
  const lx = margin.left + plotW + 16
  plot.lines.forEach((line, i) => {
    const y = margin.top + 10 + i * 20
    if (line.reference === true) {
      out.push(`<line x1="${lx}" y1="${y}" x2="${lx + 22}" y2="${y}" stroke="${line.color}" stroke-width="1.5" stroke-dasharray="2 3"/>`)
    } else {
      out.push(`<line x1="${lx}" y1="${y}" x2="${lx + 22}" y2="${y}" stroke="${line.color}" stroke-width="2"/>`)
      out.push(`<circle cx="${lx + 11}" cy="${y}" r="3.5" fill="${line.color}"/>`)
    }
    out.push(`<text x="${lx + 30}" y="${y}" dominant-baseline="middle">${escape(line.label)}</text>`)
  })
  if (plot.lines.some((l) => (l.projected ?? []).length > 0)) {
    const y = margin.top + 10 + plot.lines.length * 20 + 6
    out.push(`<circle cx="${lx + 11}" cy="${y}" r="4" fill="#ffffff" stroke="#333333" stroke-width="1.5"/>`)
    out.push(`<text x="${lx + 30}" y="${y}" dominant-baseline="middle">projected, not measured</text>`)
  }
  out.push('</svg>')
  return `${out.join('\n')}\n`
}

/** One plot per routine of the growth-in-n sweep. */
const sweepPlot = (result: BenchResult, op: Op): Plot => ({
  title: `${routineName[op]}: cost against outstanding timers n`,
  xLabel: 'outstanding timers n',
  yLabel: `ns per ${routineName[op]} (median)`,
  xBase: 10,
  lines: [
    ...result.sweep.series
      .filter((s) => s.op === op)
      .map((s, i) => ({
        label: s.scheme.name,
        color: palette[i % palette.length]!,
        points: measured(s.points).map((p) => ({ x: p.n, y: p.ns })),
        projected: s.points.flatMap((p) => (p.skipped === undefined ? [] : [{ x: p.n, y: p.skipped.nsPerOp }])),
      })),
    {
      label: 'one random read, 16·n bytes',
      color: '#555555',
      points: result.sweep.memory.map((m) => ({ x: m.n, y: m.ns })),
      reference: true,
    },
  ],
})

const tradeOffPlot = (result: BenchResult, what: 'tickNs' | 'startNs'): Plot => {
  const r = result.tradeOff
  return {
    title: what === 'tickNs' ? `Schemes 6 and 7: ns per tick against mean interval T (n = ${r.n})` : `Schemes 6 and 7: START_TIMER against T (n = ${r.n})`,
    xLabel: 'mean timer interval T (ticks)',
    yLabel: what === 'tickNs' ? 'ns per tick, steady state (with expiries and restarts)' : 'ns per START_TIMER (median)',
    xBase: 2,
    lines: r.variants.map((v, i) => ({
      label: v.label,
      color: palette[i % palette.length]!,
      points: r.meanIntervals.map((t) => ({ x: t, y: cellOf(r, v.label, t)[what] })),
    })),
  }
}

/** Every plot of the report, by file name. */
export const plots = (result: BenchResult): Array<[string, string]> => [
  ...ops.map((op): [string, string] => [`schemes-${op}.svg`, render(sweepPlot(result, op))]),
  ['tradeoff-tick.svg', render(tradeOffPlot(result, 'tickNs'))],
  ['tradeoff-start.svg', render(tradeOffPlot(result, 'startNs'))],
]
