/**
 * The schemes benchmark runs in quick mode, in-process, into a temporary directory, and
 * writes a report and standalone SVG plots that are well-formed. No timing is asserted:
 * a benchmark is not a test.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BenchResult, quickOptions, runBench, writeReport } from '../bench/schemes/bench.js'
import { confirmedPlan, planFor } from '../bench/schemes/measure.js'
import { schemes } from '../bench/schemes/catalog.js'
import * as Drivers from '../bench/schemes/drivers.js'
import { ops, routineName } from '../bench/schemes/paper.js'

/**
 * Checks that `text` is well-formed XML of the subset the plots use (elements,
 * attributes in double quotes, character data, the five predefined entities) and returns
 * the start tags in document order. Throws on the first problem.
 */
const parseXml = (text: string): Array<{ name: string; attrs: Record<string, string> }> => {
  const tags: Array<{ name: string; attrs: Record<string, string> }> = []
  const open: string[] = []
  const checkEntities = (chunk: string): void => {
    const bad = chunk.match(/&(?!(amp|lt|gt|quot|apos);)/)
    if (bad !== null) throw new Error(`unescaped '&' in ${JSON.stringify(chunk.slice(0, 40))}`)
  }
  const checkText = (chunk: string): void => {
    if (chunk.includes('>')) throw new Error(`stray '>' in ${JSON.stringify(chunk.slice(0, 40))}`)
    checkEntities(chunk)
    if (open.length === 0 && chunk.trim() !== '') throw new Error(`text outside the root: ${JSON.stringify(chunk.slice(0, 40))}`)
  }
  let at = 0
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[A-Za-z][\w:.-]*="[^"<]*")*)\s*(\/?)>/y
  while (at < text.length) {
    const lt = text.indexOf('<', at)
    checkText(text.slice(at, lt === -1 ? text.length : lt))
    if (lt === -1) break
    tag.lastIndex = lt
    const m = tag.exec(text)
    if (m === null) throw new Error(`malformed tag at ${lt}: ${JSON.stringify(text.slice(lt, lt + 60))}`)
    const [, closing, name, attrText, selfClosing] = m
    if (closing === '/') {
      if (open.pop() !== name) throw new Error(`</${name}> does not close the open element`)
    } else {
      if (open.length === 0 && tags.length > 0) throw new Error(`second root element <${name}>`)
      const attrs: Record<string, string> = {}
      for (const a of attrText!.matchAll(/([A-Za-z][\w:.-]*)="([^"]*)"/g)) {
        if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]} on <${name}>`)
        attrs[a[1]!] = a[2]!
        checkEntities(a[2]!)
      }
      tags.push({ name: name!, attrs })
      if (selfClosing !== '/') open.push(name!)
    }
    at = tag.lastIndex
  }
  if (open.length > 0) throw new Error(`unclosed <${open.at(-1)}>`)
  return tags
}

describe('the XML check itself', () => {
  it('accepts a small well-formed document and rejects broken ones', () => {
    expect(parseXml('<svg xmlns="x"><g a="1"><text>a &amp; b</text></g><rect/></svg>').map((t) => t.name)).toEqual(['svg', 'g', 'text', 'rect'])
    expect(() => parseXml('<svg><g></svg>')).toThrow()
    expect(() => parseXml('<svg><text>a & b</text></svg>')).toThrow()
    expect(() => parseXml('<svg a=1></svg>')).toThrow()
    expect(() => parseXml('<svg></svg><svg></svg>')).toThrow()
  })
})

describe('planning the measurements (planFor)', () => {
  const sweep = { ...quickOptions().sweep, budgetNs: 1e6, reps: 2, minOps: 32, maxOps: 2 ** 12, maxTicks: 2 ** 12, skipAboveNs: 3e6 }
  const cheap = { nsPerOp: 250, restoreNs: 350 }

  it('times every routine for about the budget when operations are cheap', () => {
    const { plan, skipped } = planFor({ start: cheap, stop: cheap, tick: { nsPerOp: 300, restoreNs: 0 } }, sweep, new Set())
    expect(skipped).toEqual({})
    expect(plan).toEqual({ start: Math.round(1e6 / 600), stop: Math.round(1e6 / 600), tick: Math.round(1e6 / 300) })
  })

  it('caps the count of very cheap operations and raises that of dear ones to minOps', () => {
    const { plan } = planFor({ start: { nsPerOp: 1, restoreNs: 1 }, stop: cheap, tick: { nsPerOp: 40_000, restoreNs: 0 } }, sweep, new Set())
    expect(plan.start).toBe(2 ** 12)
    expect(plan.tick).toBe(32)
  })

  it('skips a routine whose minOps operations would overrun the threshold, and its partner by its restore cost', () => {
    // 32 × 2 × 50 µs = 3.2 ms > 3 ms; a STOP segment is undone by STARTs, so it costs as much.
    const dear = { nsPerOp: 50_000, restoreNs: 100 }
    const { plan, skipped } = planFor({ start: dear, stop: { nsPerOp: 100, restoreNs: 50_000 }, tick: { nsPerOp: 46_000, restoreNs: 0 } }, sweep, new Set())
    expect(Object.keys(skipped).sort()).toEqual(['start', 'stop'])
    expect(skipped.start!.measurementNs).toBeCloseTo(32 * 2 * 50_100)
    expect(plan).toEqual({ tick: 32 })
  })

  it('keeps a projected skip only when minOps operations timed at this size confirm it', () => {
    // START projected at 50 µs an operation (a skip), the rest cheap.
    const projected = { start: { nsPerOp: 50_000, restoreNs: 250 }, stop: { nsPerOp: 250, restoreNs: 50_000 }, tick: { nsPerOp: 300, restoreNs: 0 } }
    const probes: Array<Record<string, number>> = []
    // Timed here, START is cheap once and slow once: the faster try decides, and a cheap
    // START also makes STOP's restore cheap.
    const cheapHere = confirmedPlan(projected, sweep, new Set(), (plan) => {
      probes.push(plan as Record<string, number>)
      return { start: probes.length === 1 ? 200 : 90_000, stop: 250 }
    })
    expect(probes).toEqual([{ start: 32, stop: 32 }, { start: 32, stop: 32 }])
    expect(cheapHere.skipped).toEqual({})
    expect(cheapHere.plan.start).toBe(Math.round(1e6 / 450))
    // Slow here too: both stay skipped, with the measured cost.
    const slowHere = confirmedPlan(projected, sweep, new Set(), () => ({ start: 60_000, stop: 250 }))
    expect(Object.keys(slowHere.skipped).sort()).toEqual(['start', 'stop'])
    expect(slowHere.skipped.start!.nsPerOp).toBe(60_000)
    // Skipped at a smaller size already: no probe.
    const before = confirmedPlan(projected, sweep, new Set(['start', 'stop'] as const), () => expect.fail('probed'))
    expect(Object.keys(before.skipped).sort()).toEqual(['start', 'stop'])
  })

  it('skips a routine at every size after the first it was skipped at', () => {
    const { plan, skipped } = planFor({ start: cheap, stop: cheap, tick: { nsPerOp: 10, restoreNs: 0 } }, sweep, new Set(['tick']))
    expect(Object.keys(skipped)).toEqual(['tick'])
    expect(plan.tick).toBeUndefined()
  })
})

describe('the schemes benchmark in quick mode', () => {
  let dir: string
  let result: BenchResult
  let written: string[]

  /**
   * Quick mode with one more size and a skip threshold (3 ms) above what any measurement
   * sized by the budget takes (budget × reps = 2 ms), so that only a routine whose
   * `minOps` operations overrun the budget can be skipped: one projected at more than
   * 3 ms / (32 × 2) ≈ 47 µs an operation. At n = 10^5 the O(n) routines (Scheme 1's tick,
   * about 200 µs, and Scheme 2's START, about 700 µs) are well above that, and the
   * costliest O(n/M) ones (Scheme 5's START and Scheme 6's tick, about 5 µs) well below.
   * With `minOps` 8 the line was at 190 µs, where Scheme 1's tick sits, and the outcome
   * depended on the machine's load.
   */
  const quick = quickOptions()
  const options = { ...quick, sweep: { ...quick.sweep, sizes: [1e2, 1e3, 1e4, 1e5], skipAboveNs: 3e6, minOps: 32 } }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'schemes-bench-'))
    // One shared copy of the drivers: the separate copies only matter for timing.
    result = await runBench(options, async () => Drivers, () => {}, 'vitest')
    written = writeReport(dir, result)
  }, 120_000)

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('measures every scheme and routine at every size, or says why not', () => {
    const sizes = options.sweep.sizes
    expect(result.sweep.series).toHaveLength(schemes.length * ops.length)
    for (const s of result.sweep.series) {
      expect(s.points.map((p) => p.n)).toEqual(sizes)
      for (const p of s.points) expect(p.ns !== undefined || p.skipped !== undefined, `${s.scheme.name} ${s.op} n=${p.n}`).toBe(true)
    }
    expect(result.sweep.memory.map((m) => m.n)).toEqual(sizes)
    const t = quickOptions().tradeOff
    expect(result.tradeOff.cells).toHaveLength(t.variants.length * t.meanIntervals.length)
    expect(result.tradeOff.idle).toHaveLength(t.variants.length)
    expect(new Set(result.sweep.firings.map((f) => `${f.fired} ${f.hash}`)).size).toBe(1)
  })

  it('skips the O(n) routines where a measurement would take too long, and only those', () => {
    const at = (key: string, op: string, n: number) =>
      result.sweep.series.find((s) => s.scheme.key === key && s.op === op)!.points.find((p) => p.n === n)!
    expect(at('s2', 'start', 1e5).skipped).toBeDefined()
    expect(at('s1', 'tick', 1e5).skipped).toBeDefined()
    for (const s of result.sweep.series) {
      if (s.scheme.key === 's1' || s.scheme.key === 's2') continue
      for (const p of s.points) expect(p.skipped, `${s.scheme.name} ${s.op} n=${p.n}`).toBeUndefined()
    }
  })

  it('writes the report and one SVG per routine plus the trade-off plots', () => {
    expect(written.map((p) => basename(p)).sort()).toEqual(
      ['schemes-start.svg', 'schemes-stop.svg', 'schemes-tick.svg', 'schemes.md', 'tradeoff-start.svg', 'tradeoff-tick.svg'].sort(),
    )
    for (const path of written) expect(existsSync(path)).toBe(true)
  })

  it('writes standalone, well-formed SVG: a root with the SVG namespace, axes, a line and a legend entry per series', () => {
    for (const op of ops) {
      const svg = readFileSync(join(dir, `schemes-${op}.svg`), 'utf8')
      const tags = parseXml(svg)
      expect(tags[0]!.name).toBe('svg')
      expect(tags[0]!.attrs['xmlns']).toBe('http://www.w3.org/2000/svg')
      expect(tags[0]!.attrs['viewBox']).toMatch(/^0 0 \d+ \d+$/)
      const measuredLines = result.sweep.series.filter((s) => s.op === op && s.points.filter((p) => p.ns !== undefined).length > 1)
      // One polyline per measured scheme, plus the memory yardstick.
      expect(tags.filter((t) => t.name === 'polyline').length).toBeGreaterThanOrEqual(measuredLines.length + 1)
      for (const s of schemes) expect(svg).toContain(`>${s.name.replace(/&/g, '&amp;')}</text>`)
      expect(svg).toContain(routineName[op])
      // Tick labels on both axes: powers of ten of n, and time units.
      expect(svg).toMatch(/>10<tspan[^>]*>2<\/tspan><\/text>/)
      expect(svg).toMatch(/> ?[0-9.]+ (ns|µs|ms)<\/text>/)
      for (const t of tags) {
        for (const key of ['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy']) {
          if (t.attrs[key] !== undefined) expect(Number.isFinite(Number(t.attrs[key])), `${t.name} ${key}=${t.attrs[key]}`).toBe(true)
        }
        if (t.name === 'polyline') expect(t.attrs['points']).toMatch(/^-?[\d.]+,-?[\d.]+( -?[\d.]+,-?[\d.]+)+$/)
      }
    }
    for (const name of ['tradeoff-tick.svg', 'tradeoff-start.svg']) {
      const tags = parseXml(readFileSync(join(dir, name), 'utf8'))
      expect(tags[0]!.attrs['xmlns']).toBe('http://www.w3.org/2000/svg')
      expect(tags.filter((t) => t.name === 'polyline')).toHaveLength(quickOptions().tradeOff.variants.length)
    }
  })

  it('writes a report with the predictions, the measurements, a verdict per scheme and routine, and the trade-off findings', () => {
    const md = readFileSync(join(dir, 'schemes.md'), 'utf8')
    for (const op of ops) {
      expect(md).toContain(`### ${routineName[op]}`)
      expect(md).toContain(`](schemes-${op}.svg)`)
    }
    expect(md).toContain('](tradeoff-tick.svg)')
    for (const s of schemes) {
      expect(md).toContain(`| ${s.name} |`)
      const verdicts = md.split('\n').filter((line) => line.startsWith(`- **${s.name}.**`))
      expect(verdicts).toHaveLength(ops.length)
      for (const v of verdicts) {
        expect(v).toMatch(/\*\* (Agrees|Agrees within memory latency|Grows faster than predicted|Grows slower than predicted|Too few sizes measured to judge)[:.]/)
      }
    }
    expect(md).toMatch(/\| Scheme 1: straightforward \| O\(1\) → n\^-?[\d.]+ (✓|✗)/)
    expect(md).toMatch(/\| Scheme 2: ordered list \| O\(n\) \(Figure 4\) \|[^\n]*\| skipped \(O\(n\), projected [\d.]+ (µs|ms)\/op; [\d.]+ s to measure\) \|/)
    const findings = md.split('### What the grid says')[1]!.split('\n## ')[0]!.split('\n').filter((l) => l.startsWith('- '))
    expect(findings.length).toBeGreaterThanOrEqual(4)
    for (const f of findings) expect(f).toMatch(/^- (Confirmed|Partly|Not confirmed):/)
    // Every number in a table cell is finite.
    expect(md).not.toMatch(/NaN|Infinity|undefined/)
  })
})
