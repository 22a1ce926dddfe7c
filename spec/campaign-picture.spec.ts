/**
 * The picture of a run, opened in a real browser (Debian's /usr/bin/chromium through
 * puppeteer-core; skipped, saying so, where it is absent): no console errors, one arrow per
 * message of the log (dropped ones marked and why), a band per fault, a dot per event, the
 * failure at its time, each host's own time on hover (checked against the log's skews),
 * and a second panel on the same page.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { Campaign } from 'timing-wheel/campaign'
import { Simulation as S } from 'timing-wheel/simulation'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ping from './support/campaigns/ping.campaign.js'

const chromium = '/usr/bin/chromium'
const present = existsSync(chromium)
if (!present) console.warn(`spec/campaign-picture.spec.ts skipped: no browser at ${chromium} (apt-get install chromium)`)

/** A run with every kind of entry: skewed hosts, loss, a partition, a hold, a crash, a pause, events. */
const run = () => {
  const sim = S.create<string>({ seed: 5, network: { latency: { min: 2, max: 20 }, loss: 0.1 } })
  for (const name of ['a', 'b', 'c']) {
    S.addHost(
      sim,
      name,
      (host) => {
        S.onMessage(host, (from, m) => {
          S.event(host, 'got', { from, m })
          if (m === 'ping') S.send(host, from, 'pong')
        })
        S.setInterval(host, () => S.send(host, name === 'a' ? 'b' : 'a', 'ping'), 25)
      },
      name === 'b' ? { offset: 250 } : undefined,
    )
  }
  S.applySchedule(sim, {
    seed: 5,
    faults: [
      { kind: 'partition', at: 60, duration: 50, from: 'a', to: 'c', oneWay: false },
      { kind: 'skew', at: 100, duration: 200, host: 'b', offset: -350, driftPpm: 1000 },
      { kind: 'hold', at: 120, duration: 40, from: 'b', to: 'a', oneWay: true },
      { kind: 'crash', at: 170, duration: 30, host: 'c' },
      { kind: 'pause', at: 220, duration: 30, host: 'a' },
    ],
  })
  S.run(sim, 400)
  S.event(sim, 'checked')
  return sim
}

describe.skipIf(!present)('the picture in Chromium', () => {
  let browser: Browser
  const errors: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'picture-'))
  const open = async (html: string, name: string): Promise<Page> => {
    const file = join(dir, name)
    writeFileSync(file, html)
    const page = await browser.newPage()
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(String(e)))
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`))
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
    return page
  }
  const count = (page: Page, selector: string): Promise<number> => page.$$eval(selector, (els) => els.length)

  beforeAll(async () => {
    browser = await puppeteer.launch({
      executablePath: chromium,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${mkdtempSync(join(tmpdir(), 'chromium-'))}`],
    })
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('draws every message as an arrow, faults as bands, events as dots, the failure at its time, with no console error', async () => {
    const sim = run()
    const log = S.log(sim)
    const messages = S.messages(sim)
    const page = await open(
      Campaign.picture(log, {
        title: 'five faults',
        failure: { message: 'a wrote twice', at: 333 },
        panels: [
          { title: 'History', html: '<p id="history">linearizable</p>' },
          { title: 'Count', html: (l) => `<p id="count">${l.length}</p>` },
          { title: 'Another tool\'s page', html: '<!doctype html><html><head><style>p{color:red}</style></head><body><p id="inner">framed &amp; "quoted"</p><script>document.title = "x"</script></body></html>' },
        ],
      }),
      'run.html',
    )
    expect(await count(page, 'svg .arrow')).toBe(messages.length)
    const dropped = messages.filter((m) => m.outcome === 'dropped')
    expect(dropped.length).toBeGreaterThan(0)
    expect(await count(page, 'svg .arrow.dropped')).toBe(dropped.length)
    expect(new Set(dropped.map((m) => m.reason))).toEqual(new Set(['loss', 'partition', 'crash']))
    expect(await count(page, 'svg .arrow.dropped.partition')).toBe(dropped.filter((m) => m.reason === 'partition').length)
    expect(await page.$eval('svg .arrow.dropped.loss title', (t) => t.textContent)).toMatch(/dropped \(loss\)$/)
    // Bands: the partition on a's and c's lanes, the hold on b's and a's, the crash on c's, the pause on a's.
    expect(await count(page, 'svg .band.partition')).toBe(2)
    expect(await count(page, 'svg .band.hold')).toBe(2)
    expect(await count(page, 'svg .band.crash')).toBe(1)
    expect(await count(page, 'svg .band.pause')).toBe(1)
    expect(await count(page, 'svg .skew')).toBe(2) // skewed, then restored
    expect(await count(page, 'svg .event')).toBe(log.filter((e) => e.kind === 'event').length)
    expect(await count(page, 'svg .lane')).toBe(3)
    expect(await page.$eval('.failure text', (t) => t.textContent)).toBe('failure at 333 ms')
    expect(await page.$eval('#history', (p) => p.textContent)).toBe('linearizable')
    expect(await page.$eval('#count', (p) => p.textContent)).toBe(String(log.length))
    // A whole page is framed: its text there, its styles and title kept to itself.
    const frame = await (await page.$('iframe.panel-page'))!.contentFrame()
    expect(await frame.$eval('#inner', (p) => p.textContent)).toBe('framed & "quoted"')
    expect(await page.title()).toBe('five faults')
    expect(await page.$eval('#history', (p) => getComputedStyle(p).color)).toBe('rgb(34, 34, 34)')
    // Hover at about 200 ms of true time: b's own clock is t + 250 - 350 + (t - 100) * 0.001 there.
    const box = (await (await page.$('#timeline'))!.boundingBox())!
    await page.mouse.move(box.x + 110 + ((1100 - 130) * 200) / 400, box.y + 40)
    const text = await page.$eval('#hover', (d) => d.textContent!)
    const [, t, a, b] = /^true ([\d.]+) ms \| a ([\d.]+) ms \| b ([\d.]+) ms \| c ([\d.]+) ms$/.exec(text)!.map(Number)
    expect(Math.abs(t! - 200)).toBeLessThan(1)
    expect(a).toBeCloseTo(t!, 1)
    expect(Math.abs(b! - (t! - 100 + (t! - 100) * 0.001))).toBeLessThan(0.11)
    expect(errors).toEqual([])
  })

  it('draws a campaign\'s failing seed from its log, arrows equal to its messages', async () => {
    const failing = Array.from({ length: 20 }, (_, seed) => Campaign.trial(ping, seed)).find((t) => t.failure !== undefined)!
    const shown = failing.shown!
    const page = await open(Campaign.picture(shown.log, { hosts: shown.hosts, failure: shown.failure!, title: `seed ${failing.seed}` }), 'seed.html')
    expect(await count(page, 'svg .arrow')).toBe(shown.log.filter((e) => e.kind === 'message').length)
    expect(await page.$eval('.failure-words', (d) => d.textContent)).toBe(`Failure at ${shown.failure!.at} ms: ${shown.failure!.message}`)
    expect(errors).toEqual([])
  })
})

describe('the picture as text', () => {
  it('escapes what the log says, so a message cannot inject markup', () => {
    const sim = S.create<string>({ seed: 1 })
    S.addHost(sim, '<b>', () => undefined)
    S.addHost(sim, 'x', (host) => S.send(host, '<b>', '</title><script>alert(1)</script>'))
    S.run(sim, 10)
    const html = Campaign.picture(S.log(sim), { title: '<i>t</i>', details: ['a & b'] })
    expect(html).not.toContain('<script>alert(1)')
    expect(html).not.toContain('<b>')
    expect(html).toContain('&lt;/title&gt;&lt;script&gt;')
    expect(html).toContain('<h1>&lt;i&gt;t&lt;/i&gt;</h1>')
    expect(html.match(/<script/g)!.length).toBe(2) // the page's own data and code
  })
})
