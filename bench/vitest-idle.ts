/**
 * The Vitest row: a Vitest test file whose clock idles, run by Vitest itself, with the
 * setup line (`timing-wheel/vitest/setup`) against Vitest's default fake timers (its
 * bundled fake-timers 15.0). The test file arms `timers` timeouts an hour ahead, then
 * calls `vi.advanceTimersByTime(1)` `ticks` times, none of which fires anything: the idle
 * load of `workloads.ts`, through `vi`. It times the ticks alone, in CPU time of the
 * worker's process (`process.cpuUsage`, which fake timers leave real), and writes the
 * time, the fired count and the pending count to a file: the checksum is 0 fired and every
 * timer still pending. Rounds alternate the two configurations, whose first run is a
 * warm-up; the ratio is the median over rounds of default over setup.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { median } from './runner.js'

/** One configuration's figures over the rounds. */
export interface VitestIdleResult {
  readonly timers: number
  readonly ticks: number
  /** Median µs per `vi.advanceTimersByTime(1)`: [setup, default]. */
  readonly usPerTick: readonly [number, number]
  /** Median and range over rounds of the default's time over the setup's. */
  readonly ratio: { readonly median: number; readonly min: number; readonly max: number }
}

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = join(root, 'bench', 'out', 'vitest-idle')

const testFile = `import { expect, it, vi } from 'vitest'
import { writeFileSync } from 'node:fs'

it('idles', () => {
  const timers = Number(process.env.IDLE_TIMERS), ticks = Number(process.env.IDLE_TICKS)
  vi.useFakeTimers()
  let fired = 0
  for (let i = 0; i < timers; i++) setTimeout(() => fired++, 3_600_000 + ((i * 7919) % 3_600_000))
  const before = process.cpuUsage()
  for (let i = 0; i < ticks; i++) vi.advanceTimersByTime(1)
  const used = process.cpuUsage(before)
  const pending = vi.getTimerCount()
  vi.useRealTimers()
  writeFileSync(String(process.env.IDLE_OUT), JSON.stringify({ us: used.user + used.system, fired, pending }))
  expect(fired).toBe(0)
})
`

/** Runs the row: `rounds` timed rounds of each configuration, after one warm-up of each. */
export const runVitestIdle = async (opts: { timers: number; ticks: number; rounds: number; log: (line: string) => void }): Promise<VitestIdleResult> => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'idle.test.ts'), testFile)
  const configs = ['setup', 'default'] as const
  for (const c of configs) {
    const setup = c === 'setup' ? "setupFiles: ['timing-wheel/vitest/setup']" : ''
    writeFileSync(join(dir, `${c}.config.mjs`), `export default { test: { root: ${JSON.stringify(dir)}, include: ['idle.test.ts'], testTimeout: 600_000, ${setup} } }\n`)
  }
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')))
  const once = async (c: (typeof configs)[number]): Promise<number> => {
    const out = join(dir, `${c}.json`)
    const idleEnv = { ...env, IDLE_TIMERS: String(opts.timers), IDLE_TICKS: String(opts.ticks), IDLE_OUT: out }
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
    await promisify(execFile)(process.execPath, [vitest, 'run', '--config', join(dir, `${c}.config.mjs`)], { cwd: root, env: idleEnv })
    const r = JSON.parse(readFileSync(out, 'utf8')) as { us: number; fired: number; pending: number }
    if (r.fired !== 0 || r.pending !== opts.timers) throw new Error(`vitest idle (${c}): fired ${r.fired}, pending ${r.pending} of ${opts.timers}`)
    return r.us / opts.ticks
  }
  for (const c of configs) await once(c)
  const times: Record<(typeof configs)[number], number[]> = { setup: [], default: [] }
  for (let round = 0; round < opts.rounds; round++) {
    for (const c of round % 2 ? [...configs].reverse() : configs) times[c].push(await once(c))
    opts.log(`vitest idle: round ${round + 1} of ${opts.rounds}`)
  }
  const ratios = times.default.map((d, i) => d / times.setup[i]!)
  return {
    timers: opts.timers,
    ticks: opts.ticks,
    usPerTick: [median(times.setup), median(times.default)],
    ratio: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) },
  }
}

/** The row as Markdown. */
export const renderVitestIdle = (r: VitestIdleResult): string =>
  [
    `### A Vitest test file idling: ${r.timers.toLocaleString('en')} timers an hour ahead, \`vi.advanceTimersByTime(1)\` ${r.ticks} times`,
    '',
    '| configuration | µs per tick (CPU) | Vitest default / setup |',
    '| --- | --- | --- |',
    `| \`timing-wheel/vitest/setup\` | ${r.usPerTick[0].toPrecision(3)} | |`,
    `| Vitest 4's default (fake-timers 15.0) | ${r.usPerTick[1].toPrecision(3)} | ${r.ratio.median.toFixed(0)}x (${r.ratio.min.toFixed(0)}–${r.ratio.max.toFixed(0)}) |`,
  ].join('\n')
