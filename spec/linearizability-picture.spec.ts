/**
 * The picture of a history in a real browser: Debian's chromium (/usr/bin/chromium) driven
 * by puppeteer-core. The page must render with no console errors, draw one bar per
 * operation, mark the longest linearizable prefix and the failing operation, and show an
 * operation's values on hover. Skipped, saying why, where chromium is absent.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Jepsen, casRegister, checkLinearizable, picture } from '../lib/linearizability/index.js'

const chromium = '/usr/bin/chromium'
const present = existsSync(chromium)
if (!present) console.warn(`spec/linearizability-picture.spec.ts skipped: no browser at ${chromium} (CI installs Debian's chromium package)`)

const history = Jepsen.readUtilLog(
  [
    'INFO  jepsen.util - 0\t:invoke\t:write\t1',
    'INFO  jepsen.util - 1\t:invoke\t:read\tnil',
    'INFO  jepsen.util - 0\t:ok\t:write\t1',
    'INFO  jepsen.util - 1\t:ok\t:read\t1',
    'INFO  jepsen.util - 2\t:invoke\t:cas\t[1 2]',
    'INFO  jepsen.util - 2\t:fail\t:cas\t[1 2]',
    'INFO  jepsen.util - 3\t:invoke\t:write\t<script>alert(1)</script>',
    'INFO  jepsen.util - 1\t:invoke\t:read\tnil',
    'INFO  jepsen.util - 1\t:ok\t:read\t1',
  ].join('\n'),
)

describe.skipIf(!present)('the picture in Chromium', () => {
  let dir = ''
  let browser: import('puppeteer-core').Browser
  beforeAll(async () => {
    const puppeteer = await import('puppeteer-core')
    dir = mkdtempSync(join(tmpdir(), 'linearizability-picture-'))
    browser = await puppeteer.launch({
      executablePath: chromium,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${join(dir, 'profile')}`],
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it('renders with no console errors, one bar per operation, the prefix and the failing operation marked, values on hover', async () => {
    const result = checkLinearizable(history, casRegister())
    expect(result.kind).toBe('illegal')
    const file = join(dir, 'history.html')
    writeFileSync(file, picture(history, casRegister(), result, { title: 'a failed cas after a write', notes: ['note: <b>not bold</b>'] }))
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    page.on('pageerror', (e) => errors.push(String(e)))
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`)
      void d.dismiss()
    })
    await page.goto(`file://${file}`)
    expect(await page.$$eval('.op', (bars) => bars.length)).toBe(history.length)
    const failing = result.kind === 'illegal' ? result.failures[0]! : undefined
    expect(await page.$$eval('.op.linearized', (bars) => bars.length)).toBe(failing!.prefix.length)
    expect(await page.$$eval('.op.failing', (bars) => bars.map((b) => (b as HTMLElement).dataset['index']))).toEqual([String(failing!.failing)])
    expect(await page.$eval('#summary', (s) => s.textContent)).toContain('note: <b>not bold</b>')

    await page.hover(`.op[data-index="${failing!.failing}"]`)
    const tip = await page.$eval('#tip', (t) => ({ text: t.textContent ?? '', shown: getComputedStyle(t).display }))
    expect(tip.shown).toBe('block')
    expect(tip.text).toContain('cas(1, 2) → fail')
    expect(tip.text).toContain('input: {"f":"cas","value":[1,2]}')
    expect(tip.text).toContain('cannot be placed')

    await page.hover(`.op[data-index="${failing!.prefix[0]}"]`)
    expect(await page.$eval('#tip', (t) => t.textContent)).toMatch(/place 1 in the longest linearizable prefix; state after: 1/)
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)
})
