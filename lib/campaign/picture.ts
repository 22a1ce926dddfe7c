/**
 * A picture of one run, drawn from its log alone (the log the checks read, not a second
 * record): a self-contained HTML page with one SVG, no script or style from elsewhere.
 *
 * Representation. Hosts are lanes, top to bottom in the order they appear; x is true time
 * (`clock.now`), from 0 (or the first entry, if earlier) to the last entry or the failure.
 * Each message entry is one arrow (`.arrow`, and `.delivered` or `.dropped`), from its
 * send on the sender's lane to its delivery or drop on the receiver's; a dropped one ends
 * in a cross and says why. A fault and its undoing (partition and heal, hold and release,
 * crash and restart, pause and resume) is a band on each lane it touches, open to the
 * end if never undone; a skew is a tick. Application events are dots, the failure a red
 * line at its time. Hovering shows the true time and every host's own (skewed) time,
 * computed in the page from the host and skew entries.
 *
 * Further panels (issue 42's history view, for one) come after the timeline on the same
 * page: an HTML fragment, or a function of the log that returns one.
 */
import type { Entry } from './log.js'
import { describeEntry, isMessage } from './log.js'

/**
 * A second view of the same run on the same page: an HTML fragment, or a function of the log that returns one.
 *
 * @example
 * const panel: Panel = { title: 'Events', html: (log) => `<p>${log.filter((e) => e.kind === 'event').length} events</p>` }
 */
export interface Panel {
  /** Its heading. */
  readonly title: string
  /** The fragment (trusted HTML) or a whole page (shown in a frame), or how to make it from the log. */
  readonly html: string | ((log: readonly Entry[]) => string)
}

/**
 * A failure and its true time, as the picture marks it.
 *
 * @example
 * const failure: FailureMark = { message: 'two leaders', at: 1234 }
 * Campaign.picture(Simulation.log(sim), { failure })
 */
export interface FailureMark {
  /** The failure in words. */
  readonly message: string
  /** When, true time (`clock.now`). */
  readonly at: number
}

/**
 * What `picture` draws besides the log.
 *
 * @example
 * const options: PictureOptions = { title: 'seed 7', details: ['partition n1 <-> n2 at 300 ms for 800 ms'], hosts: ['lock', 'n1', 'n2'] }
 * writeFileSync('seed-7.html', Campaign.picture(Simulation.log(sim), options))
 */
export interface PictureOptions {
  /** The page's title; default "Simulation run". */
  readonly title?: string
  /** Lines under the title: the seed, the schedule in words, how to replay. */
  readonly details?: readonly string[]
  /** Hosts to draw lanes for, first and in this order (others follow as the log names them). */
  readonly hosts?: readonly string[]
  /** The failure, drawn at its true time. */
  readonly failure?: FailureMark
  /** More panels, after the timeline. */
  readonly panels?: readonly Panel[]
}

/**
 * Text made safe for HTML (element content and quoted attributes).
 *
 * @example
 * Campaign.escapeHtml('<b title="x">&</b>') // '&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;'
 */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const undo: Record<string, string> = { partition: 'heal', hold: 'release', crash: 'restart', pause: 'resume' }
const startOf: Record<string, string> = { heal: 'partition', release: 'hold', restart: 'crash', resume: 'pause' }

interface Band {
  readonly action: string
  readonly hosts: readonly string[]
  readonly from: number
  to: number | undefined
  readonly words: string
}

/** Fault entries paired into bands: a start, and the first matching undoing after it (a heal of everything ends every partition). */
const bandsOf = (log: readonly Entry[]): Band[] => {
  const bands: Band[] = []
  for (const e of log) {
    if (e.kind !== 'fault') continue
    const { action, hosts } = e
    if (undo[action] !== undefined) bands.push({ action, hosts, from: e.at, to: undefined, words: describeEntry(e) })
    const started = startOf[action]
    if (started === undefined) continue
    const key = [...hosts].sort().join('\u0000')
    for (const b of bands) {
      if (b.to === undefined && b.action === started && (hosts.length === 0 || [...b.hosts].sort().join('\u0000') === key)) b.to = e.at
    }
  }
  return bands
}

/** Each host's clock as segments: from `at` on, host time is `t + offset + (t - at) * drift`. */
const clocksOf = (log: readonly Entry[]): Record<string, Array<{ at: number; offset: number; drift: number }>> => {
  const clocks: Record<string, Array<{ at: number; offset: number; drift: number }>> = {}
  for (const e of log) {
    const host = e.kind === 'host' ? e.host : e.kind === 'fault' && e.action === 'skew' ? e.hosts[0] : undefined
    if (host === undefined || (e.kind !== 'host' && e.kind !== 'fault')) continue
    ;(clocks[host] ??= []).push({ at: e.at, offset: e.offset ?? 0, drift: e.drift ?? 0 })
  }
  return clocks
}

const lanesOf = (log: readonly Entry[], given: readonly string[]): string[] => {
  const lanes = new Set(given)
  for (const e of log) {
    if (e.kind === 'message') {
      lanes.add(e.from)
      lanes.add(e.to)
    } else if (e.kind === 'fault') for (const h of e.hosts) lanes.add(h)
    else if (e.host !== undefined) lanes.add(e.host)
  }
  return [...lanes]
}

/**
 * A panel's HTML as part of this page: a fragment as it is; a whole page (another tool's
 * picture, with its own styles and scripts) in a frame of its own, so neither page's styles,
 * ids or scripts reach the other's.
 */
const fragment = (html: string): string =>
  /^\s*(<!doctype|<html)/i.test(html) ? `<iframe class="panel-page" sandbox="allow-scripts" srcdoc="${escapeHtml(html)}"></iframe>` : html

const LEFT = 110
const WIDTH = 1100
const LANE = 56
const TOP = 30

/**
 * The run as a self-contained HTML page (see the file's comment for what is drawn).
 *
 * @example
 * writeFileSync('run.html', picture(Simulation.log(sim), { title: 'seed 7', failure: { message: 'two leaders', at: 1234 } }))
 */
export const picture = (log: readonly Entry[], options: PictureOptions = {}): string => {
  const lanes = lanesOf(log, options.hosts ?? [])
  const laneOf = new Map(lanes.map((h, i) => [h, i]))
  const times = log.flatMap((e) => [e.at, ...(isMessage(e) ? [e.sentAt] : [])])
  if (options.failure !== undefined) times.push(options.failure.at)
  const t0 = Math.min(0, ...times)
  const t1 = Math.max(t0 + 1, ...times)
  const x = (t: number): number => LEFT + ((t - t0) / (t1 - t0)) * (WIDTH - LEFT - 20)
  const y = (host: string | undefined): number => TOP + (host === undefined ? lanes.length : laneOf.get(host)!) * LANE + LANE / 2
  const height = TOP + (lanes.length + 1) * LANE + 30
  const n = (v: number): string => v.toFixed(1)
  const title = (text: string): string => `<title>${escapeHtml(text)}</title>`
  const svg: string[] = []
  lanes.forEach((h, i) => {
    svg.push(`<g class="lane" data-host="${escapeHtml(h)}"><line x1="${LEFT}" x2="${WIDTH - 20}" y1="${n(y(h))}" y2="${n(y(h))}"/><text x="8" y="${n(y(h) + 4)}">${escapeHtml(h)}</text></g>`)
    if (i === lanes.length - 1) svg.push(`<text class="outside" x="8" y="${n(y(undefined) + 4)}">(outside)</text>`)
  })
  for (const b of bandsOf(log)) {
    const [from, to] = [x(b.from), x(b.to ?? t1)]
    const words = `${b.words}${b.to === undefined ? ', never undone' : `, undone at ${b.to} ms`}`
    for (const h of b.hosts.length === 0 ? lanes : b.hosts) {
      if (!laneOf.has(h)) continue
      svg.push(`<rect class="band ${b.action}" x="${n(from)}" width="${n(Math.max(2, to - from))}" y="${n(y(h) - LANE / 2 + 4)}" height="${LANE - 8}">${title(words)}</rect>`)
    }
  }
  for (const e of log) {
    if (e.kind === 'message') {
      const [x1, y1, x2, y2] = [x(e.sentAt), y(e.from), x(e.at), y(e.to)]
      const cls = e.outcome === 'delivered' ? 'delivered' : `dropped ${String(e.reason ?? '').replace(/\s/g, '-')}`
      const cross = e.outcome === 'delivered' ? '' : `<path class="cross" d="M${n(x2 - 4)} ${n(y2 - 4)}l8 8m0 -8l-8 8"/>`
      svg.push(`<g class="arrow ${cls}"><line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}"${e.outcome === 'delivered' ? ' marker-end="url(#head)"' : ''}/>${cross}${title(describeEntry(e))}</g>`)
    } else if (e.kind === 'event') {
      svg.push(`<circle class="event" cx="${n(x(e.at))}" cy="${n(y(e.host))}" r="5">${title(describeEntry(e))}</circle>`)
    } else if (e.kind === 'fault' && e.action === 'skew' && e.hosts[0] !== undefined) {
      svg.push(`<path class="skew" d="M${n(x(e.at))} ${n(y(e.hosts[0]) - 14)}l5 7l-5 7l-5 -7z">${title(describeEntry(e))}</path>`)
    }
  }
  if (options.failure !== undefined) {
    const fx = x(options.failure.at)
    svg.push(`<g class="failure"><line x1="${n(fx)}" x2="${n(fx)}" y1="${TOP - 10}" y2="${height - 30}"/><text x="${n(Math.min(fx + 4, WIDTH - 200))}" y="${TOP - 14}">failure at ${options.failure.at} ms</text>${title(options.failure.message)}</g>`)
  }
  const axis = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const t = Math.round(t0 + f * (t1 - t0))
    return `<text class="tick" x="${n(x(t))}" y="${height - 10}">${t} ms</text>`
  })
  const panels = (options.panels ?? []).map((p) => `<section class="panel"><h2>${escapeHtml(p.title)}</h2>${fragment(typeof p.html === 'function' ? p.html(log) : p.html)}</section>`)
  const data = JSON.stringify({ t0, t1, left: LEFT, right: WIDTH - 20, clocks: clocksOf(log), lanes }).replace(/</g, '\\u003c')
  const messages = log.filter(isMessage)
  const summary = `${lanes.length} hosts, ${messages.length} messages (${messages.filter((m) => m.outcome === 'dropped').length} dropped), ${log.length - messages.length} other entries`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title ?? 'Simulation run')}</title>
<style>
body{font:13px system-ui,sans-serif;margin:16px;color:#222}
h1{font-size:18px;margin:0 0 4px}h2{font-size:15px}
.details{font:12px ui-monospace,monospace;white-space:pre-wrap;margin:4px 0 8px;color:#444}
.failure-words{color:#b00;font-weight:600}
svg{border:1px solid #ddd;background:#fff}
.lane line{stroke:#bbb}.lane text,.outside{font-weight:600;fill:#333}
.arrow line{stroke-width:1.2}.delivered line{stroke:#2a6fdb}.dropped line{stroke:#d33;stroke-dasharray:4 3}.cross{stroke:#d33;stroke-width:2}
.arrow:hover line{stroke-width:3}
.band{opacity:.22}.band.partition{fill:#e69500}.band.hold{fill:#8a5cf6}.band.crash{fill:#d33}.band.pause{fill:#777}
.skew{fill:#0a8}.event{fill:#111}
.failure line{stroke:#b00;stroke-width:2}.failure text{fill:#b00;font-weight:600}
.tick{fill:#666;font-size:11px;text-anchor:middle}
#cursor{stroke:#999;stroke-dasharray:2 2}
#hover{font:12px ui-monospace,monospace;min-height:1.4em;color:#333}
.legend span{margin-right:14px}
.panel-page{width:100%;height:70vh;border:1px solid #ddd}
</style></head><body>
<h1>${escapeHtml(options.title ?? 'Simulation run')}</h1>
${options.failure === undefined ? '' : `<div class="failure-words">Failure at ${options.failure.at} ms: ${escapeHtml(options.failure.message)}</div>`}
<div class="details">${escapeHtml((options.details ?? []).join('\n'))}</div>
<div class="legend"><span style="color:#2a6fdb">→ delivered</span><span style="color:#d33">⇢✕ dropped (hover: why)</span><span style="color:#e69500">■ partition</span><span style="color:#8a5cf6">■ hold</span><span style="color:#d33">■ crash</span><span style="color:#777">■ pause</span><span style="color:#0a8">◆ skew</span><span>● event</span></div>
<div id="summary">${escapeHtml(summary)}</div>
<div id="hover">Hover the timeline: true time and each host's own clock.</div>
<svg id="timeline" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}">
<defs><marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#2a6fdb"/></marker></defs>
${svg.join('\n')}
${axis.join('')}
<line id="cursor" x1="-10" x2="-10" y1="${TOP - 10}" y2="${height - 30}"/>
</svg>
${panels.join('\n')}
<script type="application/json" id="run-data">${data}</script>
<script>
(() => {
  const d = JSON.parse(document.getElementById('run-data').textContent)
  const svg = document.getElementById('timeline'), out = document.getElementById('hover'), cursor = document.getElementById('cursor')
  const own = (segments, t) => {
    let s = { at: d.t0, offset: 0, drift: 0 }
    for (const g of segments || []) if (g.at <= t) s = g
    return t + s.offset + (t - s.at) * s.drift
  }
  svg.addEventListener('mousemove', (ev) => {
    const box = svg.getBoundingClientRect()
    const px = (ev.clientX - box.left) * (svg.viewBox.baseVal.width / box.width)
    if (px < d.left || px > d.right) return
    const t = d.t0 + ((px - d.left) / (d.right - d.left)) * (d.t1 - d.t0)
    cursor.setAttribute('x1', px); cursor.setAttribute('x2', px)
    out.textContent = 'true ' + t.toFixed(1) + ' ms | ' + d.lanes.map((h) => h + ' ' + own(d.clocks[h], t).toFixed(1) + ' ms').join(' | ')
  })
})()
</script>
</body></html>
`
}
