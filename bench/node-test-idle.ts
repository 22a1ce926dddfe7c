/**
 * The `node:test` row: Node's `mock.timers` with `timing-wheel/node-test` (the built
 * `dist/`) against Node's own `mock.timers` (a binary heap). A script enables
 * `mock.timers` for `setTimeout`, arms `timers` timeouts an hour ahead, then calls
 * `mock.timers.tick(1)` `ticks` times, none of which fires anything; it times the arming
 * and the ticks apart, in CPU time of its process (`process.cpuUsage`, which the mock
 * leaves real), then ticks two hours, timed too, and writes the times and the fired
 * counts: the checksum is 0 fired by the ticks and every timer fired by the two hours.
 * Node's idle tick is one look at its heap's top; the route's is the clock's idle tick,
 * a comparison with the schedule's bound on its least due time, with fake-timers' loop
 * skipped when nothing (no timer, microtask or idle callback) can notice. Each run is its own process
 * (the route changes `MockTimers` for good); rounds alternate the two configurations,
 * whose first run is a warm-up; the ratios are medians over rounds of Node's time over the
 * route's.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { median } from './runner.js'

/** The row's figures over the rounds. */
export interface NodeTestIdleResult {
  readonly timers: number
  readonly ticks: number
  /** Median µs per `tick(1)`: [route, Node]. */
  readonly usPerTick: readonly [number, number]
  /** Median ms to arm every timer: [route, Node]. */
  readonly armMs: readonly [number, number]
  /** Median ms to fire every timer (one two-hour tick): [route, Node]. */
  readonly fireMs: readonly [number, number]
  /** Median and range over rounds of Node's tick time over the route's. */
  readonly tickRatio: { readonly median: number; readonly min: number; readonly max: number }
  /** Median and range over rounds of Node's arming time over the route's. */
  readonly armRatio: { readonly median: number; readonly min: number; readonly max: number }
  /** Median and range over rounds of Node's firing time over the route's. */
  readonly fireRatio: { readonly median: number; readonly min: number; readonly max: number }
}

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = join(root, 'bench', 'out', 'node-test-idle')

const script = `import { mock } from 'node:test'
import { writeFileSync } from 'node:fs'
const timers = Number(process.env.IDLE_TIMERS), ticks = Number(process.env.IDLE_TICKS)
mock.timers.enable({ apis: ['setTimeout'] })
let fired = 0
const a = process.cpuUsage()
for (let i = 0; i < timers; i++) setTimeout(() => fired++, 3_600_000 + ((i * 7919) % 3_600_000))
const armed = process.cpuUsage(a)
const b = process.cpuUsage()
for (let i = 0; i < ticks; i++) mock.timers.tick(1)
const ticked = process.cpuUsage(b)
const idle = fired
// Two hours, not runAll(): Node 20's runAll moves to the heap's last slot, not its latest timer.
const c = process.cpuUsage()
mock.timers.tick(7_200_000)
const drained = process.cpuUsage(c)
mock.timers.reset()
writeFileSync(
  String(process.env.IDLE_OUT),
  JSON.stringify({ arm: armed.user + armed.system, tick: ticked.user + ticked.system, fire: drained.user + drained.system, idle, fired }),
)
`

const range = (xs: readonly number[]): { median: number; min: number; max: number } => ({
  median: median(xs),
  min: Math.min(...xs),
  max: Math.max(...xs),
})

/** Runs the row: `rounds` timed rounds of each configuration, after one warm-up of each. */
export const runNodeTestIdle = async (opts: { timers: number; ticks: number; rounds: number; log: (line: string) => void }): Promise<NodeTestIdleResult> => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'idle.mjs'), script)
  const route = join(root, 'dist', 'lib', 'node-test', 'index.js')
  const configs = ['route', 'node'] as const
  const once = async (c: (typeof configs)[number]): Promise<{ arm: number; tick: number; fire: number }> => {
    const out = join(dir, `${c}.json`)
    const env = { ...process.env, NODE_NO_WARNINGS: '1', IDLE_TIMERS: String(opts.timers), IDLE_TICKS: String(opts.ticks), IDLE_OUT: out }
    const imports = c === 'route' ? ['--import', route] : []
    await promisify(execFile)(process.execPath, [...imports, join(dir, 'idle.mjs')], { cwd: root, env })
    const r = JSON.parse(readFileSync(out, 'utf8')) as { arm: number; tick: number; fire: number; idle: number; fired: number }
    if (r.idle !== 0 || r.fired !== opts.timers) throw new Error(`node:test idle (${c}): fired ${r.idle} while idle, ${r.fired} of ${opts.timers} after two hours`)
    return { arm: r.arm / 1000, tick: r.tick / opts.ticks, fire: r.fire / 1000 }
  }
  for (const c of configs) await once(c)
  const times: Record<(typeof configs)[number], { arm: number; tick: number; fire: number }[]> = { route: [], node: [] }
  for (let round = 0; round < opts.rounds; round++) {
    for (const c of round % 2 ? [...configs].reverse() : configs) times[c].push(await once(c))
    opts.log(`node:test idle: round ${round + 1} of ${opts.rounds}`)
  }
  const of = (c: (typeof configs)[number], k: 'arm' | 'tick' | 'fire'): number[] => times[c].map((t) => t[k])
  return {
    timers: opts.timers,
    ticks: opts.ticks,
    usPerTick: [median(of('route', 'tick')), median(of('node', 'tick'))],
    armMs: [median(of('route', 'arm')), median(of('node', 'arm'))],
    fireMs: [median(of('route', 'fire')), median(of('node', 'fire'))],
    tickRatio: range(of('node', 'tick').map((n, i) => n / of('route', 'tick')[i]!)),
    armRatio: range(of('node', 'arm').map((n, i) => n / of('route', 'arm')[i]!)),
    fireRatio: range(of('node', 'fire').map((n, i) => n / of('route', 'fire')[i]!)),
  }
}

const ratio = (r: { median: number; min: number; max: number }): string => `${r.median.toFixed(2)}x (${r.min.toFixed(2)}–${r.max.toFixed(2)})`

/** The row as Markdown. */
export const renderNodeTestIdle = (r: NodeTestIdleResult): string =>
  [
    `### node:test's mock.timers idling: ${r.timers.toLocaleString('en')} timers an hour ahead, \`mock.timers.tick(1)\` ${r.ticks.toLocaleString('en')} times`,
    '',
    '| configuration | µs per idle tick (CPU) | ms to arm all (CPU) | ms to fire all (CPU) |',
    '| --- | --- | --- | --- |',
    `| \`timing-wheel/node-test\` | ${r.usPerTick[0].toPrecision(3)} | ${r.armMs[0].toPrecision(3)} | ${r.fireMs[0].toPrecision(3)} |`,
    `| Node ${process.versions.node}'s own | ${r.usPerTick[1].toPrecision(3)} | ${r.armMs[1].toPrecision(3)} | ${r.fireMs[1].toPrecision(3)} |`,
    `| Node / route | ${ratio(r.tickRatio)} | ${ratio(r.armRatio)} | ${ratio(r.fireRatio)} |`,
  ].join('\n')
