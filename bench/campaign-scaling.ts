/**
 * `npm run bench:campaign`: how a campaign scales from 1 worker thread to 2, on the built
 * dist/ (the pool loads dist's worker), over bench/campaigns/mesh.campaign.ts (about 50 ms of
 * CPU a seed). Each round runs the same seeds once with 1 worker and once with 2, in an
 * order that alternates from round to round; a run's rate is its seeds per second after
 * each thread's first three seeds (`(seeds - 3 workers) / (last result - the (3 workers)-th
 * result)`: thread start, loading the file through tsx and the JIT's warm-up are left out,
 * and threads finishing together are not counted as a head start). Reported: each round's ratio, their
 * median and range, the load average before and after (other processes on the machine
 * take cores from the threads), the process's CPU time a seed in each run (all threads:
 * the same with 2 workers as with 1 means the pool adds no work, and on two idle cores 2
 * workers would run twice as fast), and a checksum: every run must find the same failing seeds.
 *
 * Flags: `--rounds N` (default 5), `--seeds N` (per run, default 48).
 */
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Campaign } from 'timing-wheel/campaign'
import { positiveFlags } from '../examples/flags.js'
import { median } from './runner.js'

const { rounds, seeds } = positiveFlags({ rounds: 5, seeds: 48 })
/** Results left out of a run's rate, per thread: a new thread's first seeds run before its JIT has warmed up. */
const warm = 3
const file = fileURLToPath(new URL('./campaigns/mesh.campaign.ts', import.meta.url))

/** One run: seeds per second after each thread's first seed, the wall rate, and the failing seeds. */
const measure = async (workers: number): Promise<{ rate: number; wall: number; cpu: number; failing: string }> => {
  const times: number[] = []
  const started = performance.now()
  const cpu = process.cpuUsage()
  const summary = await Campaign.runCampaign({
    file,
    seeds: { first: 0, last: seeds - 1 },
    workers,
    batch: 1,
    pictures: false,
    progress: 'none',
    out: '/dev/null',
    onSeed: () => times.push(performance.now()),
  })
  const wall = (summary.seeds * 1000) / (performance.now() - started)
  const used = process.cpuUsage(cpu)
  return {
    rate: ((seeds - warm * workers) * 1000) / (times.at(-1)! - times[warm * workers - 1]!),
    wall,
    cpu: (used.user + used.system) / 1000 / summary.seeds,
    failing: summary.failures.map((f) => f.seed).join(','),
  }
}

const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' ')
console.log(`campaign scaling: ${rounds} rounds of ${seeds} seeds (bench/campaigns/mesh.campaign.ts), 1 vs 2 worker threads; load average before: ${load()}`)
const ratios: number[] = []
let checksum: string | undefined
for (let round = 1; round <= rounds; round++) {
  const order = round % 2 === 1 ? [1, 2] : [2, 1]
  const results = new Map<number, Awaited<ReturnType<typeof measure>>>()
  for (const workers of order) results.set(workers, await measure(workers))
  const [one, two] = [results.get(1)!, results.get(2)!]
  for (const r of [one, two]) {
    checksum ??= r.failing
    if (r.failing !== checksum) throw new Error(`round ${round}: failing seeds ${r.failing} differ from the first run's ${checksum}`)
  }
  ratios.push(two.rate / one.rate)
  console.log(
    `round ${round}: 1 worker ${one.rate.toFixed(1)} seeds/s (wall ${one.wall.toFixed(1)}, CPU ${one.cpu.toFixed(0)} ms a seed), 2 workers ${two.rate.toFixed(1)} seeds/s (wall ${two.wall.toFixed(1)}, CPU ${two.cpu.toFixed(0)} ms a seed): ${(two.rate / one.rate).toFixed(2)}x`,
  )
}
const sorted = [...ratios].sort((a, b) => a - b)
console.log(`2 workers over 1: median ${median(ratios).toFixed(2)}x, range ${sorted[0]!.toFixed(2)}x to ${sorted.at(-1)!.toFixed(2)}x; failing seeds every run: [${checksum}]; load average after: ${load()}`)
