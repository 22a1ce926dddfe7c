/**
 * `npm run bench:network`: messages per second through a simulated network with 10k, 100k
 * and 1M messages in flight: `timing-wheel/simulation` against the same network written by
 * hand with one `setTimeout` per message on `@sinonjs/fake-timers` 15.5 (what a user writes
 * without the simulation), and on `timing-wheel/fake-timers` (the simulation's own clock:
 * the difference is what hosts, links and the checks on arrival cost), and the simulation
 * with `batch: true` (the messages due in one ms delivered by one clock timer); last, as
 * the ceiling, the same network on a kernel written for speed (network-kernel.ts, bench only).
 *
 * The method of `npm run bench` (bench/README.md): workloads generated from a seed before
 * any clock starts, main-thread CPU time, interleaved rounds in a rotating order, each
 * implementation through its own bundle of the drivers and the package, medians of per-round ratios, and
 * every play's checksum equal to the first's. Then, untimed, the bytes a message in flight
 * costs each implementation (the heap's growth over the first messages sent). Flags: `--quick` (one round, small sizes),
 * `--rounds=N` (default 5), `--sizes=10000,100000`, `--seed=N`.
 */
import { fileURLToPath, pathToFileURL } from 'node:url'
import FakeTimers from '@sinonjs/fake-timers'
import { build } from 'esbuild'
import type * as DriversModule from './network-drivers.js'
import type { NetworkLoad } from './network-drivers.js'
import { clockName } from './drivers.js'
import * as Random from './random.js'
import { showRatio } from './report.js'
import { median } from './runner.js'

type Drivers = typeof DriversModule

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const quick = args.includes('--quick')
const seed = Number(flag('seed') ?? 42)
const rounds = Number(flag('rounds') ?? (quick ? 1 : 5))
const sizes = (flag('sizes') ?? (quick ? '1000,10000' : '10000,100000,1000000')).split(',').map(Number)
if (![seed, rounds, ...sizes].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('usage: npm run bench:network -- [--quick] [--rounds=N] [--sizes=N,N,...] [--seed=N]')
  process.exit(2)
}

const HOSTS = 16

const load = (inFlight: number): NetworkLoad => {
  const r = Random.create(seed)
  const latency = Uint16Array.from({ length: HOSTS * HOSTS }, () => Random.intBetween(r, 1, 1000))
  const from = Uint8Array.from({ length: inFlight }, () => Random.intBetween(r, 0, HOSTS - 1))
  const to = Uint8Array.from({ length: inFlight }, () => Random.intBetween(r, 0, HOSTS - 1))
  return { hosts: HOSTS, latency, inFlight, extra: Math.max(inFlight, 200_000), from, to }
}

interface Impl {
  readonly name: string
  readonly play: (d: Drivers, w: NetworkLoad, bytes?: boolean) => ReturnType<Drivers['simulation']>
}

const impls: readonly Impl[] = [
  { name: 'timing-wheel/simulation', play: (d, w, bytes) => d.simulation(w, false, bytes) },
  { name: 'the same, batch: true', play: (d, w, bytes) => d.simulation(w, true, bytes) },
  { name: 'by hand on timing-wheel/fake-timers', play: (d, w, bytes) => d.handWritten(w, d.wheelFakeTimers, bytes) },
  { name: 'by hand on @sinonjs/fake-timers 15.5', play: (d, w, bytes) => d.handWritten(w, () => FakeTimers.createClock(0) as never, bytes) },
  { name: 'ceiling: bench-only kernel', play: (d, w, bytes) => d.kernel(w, bytes) },
]

/**
 * Each implementation plays through a bundle of its own of the drivers and the package
 * (esbuild, bench/out/network/, ignored by git): with one copy of the package shared, the
 * clock's call sites would see the simulation's timers and the hand-written network's
 * both, and optimize for neither, as no program that uses one of them does.
 */
const bundleOf = async (i: number): Promise<Drivers> => {
  const outfile = fileURLToPath(new URL(`./out/network/drivers-${i}.mjs`, import.meta.url))
  await build({
    entryPoints: [fileURLToPath(new URL('./network-drivers.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  })
  return (await import(pathToFileURL(outfile).href)) as Drivers
}
const drivers = await Promise.all(impls.map((_, i) => bundleOf(i)))
const rows: string[] = []
const sinonRows: string[] = []
const memoryRows: string[] = []
const sinon = impls.findIndex((i) => i.name.includes('@sinonjs'))
for (const size of sizes) {
  const w = load(size)
  const warm = load(Math.min(size, 2000))
  impls.forEach((impl, i) => impl.play(drivers[i]!, warm))
  memoryRows.push(`| ${size.toLocaleString('en-US')} | ${impls.map((impl, i) => impl.play(drivers[i]!, w, true).bytes.toFixed(1)).join(' | ')} |`)
  const times: number[][] = impls.map(() => [])
  let reference: string | undefined
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < impls.length; k++) {
      const i = (k + round) % impls.length
      const run = impls[i]!.play(drivers[i]!, w)
      const sum = `${run.checksum.fired} delivered, hash ${run.checksum.hash.toString(16)}, ${run.left} left`
      reference ??= sum
      if (sum !== reference || run.checksum.fired !== w.inFlight + w.extra) {
        console.error(`FAILED: ${impls[i]!.name} at ${size}: ${sum}, expected ${reference}`)
        process.exit(1)
      }
      times[i]!.push(run.ns / run.ops)
    }
    process.stderr.write(`${size} in flight: round ${round + 1} of ${rounds}\n`)
  }
  const perSecond = (ns: number): string => `${(1e9 / ns / 1e6).toFixed(2)}M`
  const cells = impls.map((_, i) => {
    const ratios = times[i]!.map((t, r) => t / times[0]![r]!)
    return i === 0
      ? `${perSecond(median(times[0]!))} msg/s`
      : `${showRatio(median(ratios))} (${showRatio(Math.min(...ratios))}–${showRatio(Math.max(...ratios))})`
  })
  rows.push(`| ${size.toLocaleString('en-US')} | ${cells.join(' | ')} |`)
  const overSinon = impls.map((_, i) => {
    const ratios = times[sinon]!.map((t, r) => t / times[i]![r]!)
    return `${showRatio(median(ratios))} (${showRatio(Math.min(...ratios))}–${showRatio(Math.max(...ratios))})`
  })
  sinonRows.push(`| ${size.toLocaleString('en-US')} | ${overSinon.join(' | ')} |`)
}

console.log(`Messages through a simulated network (${HOSTS} hosts, link latencies 1-1000 ms; each message a send and a delivery),`)
console.log(`seed ${seed}, ${rounds} rounds; ${clockName}. Peer cells: its time per message over the simulation's, median (least-greatest) over rounds.\n`)
console.log(`| in flight | ${impls.map((i) => i.name).join(' | ')} |`)
console.log(`| ---: | ${impls.map(() => '---').join(' | ')} |`)
for (const row of rows) console.log(row)
console.log(`\nThe same rounds against the targets' yardstick: fake-timers 15.5's time per message over each one's (above 1, faster than it):\n`)
console.log(`| in flight | ${impls.map((i) => i.name).join(' | ')} |`)
console.log(`| ---: | ${impls.map(() => '---').join(' | ')} |`)
for (const row of sinonRows) console.log(row)
console.log(`\nBytes a message in flight (the heap's growth over the first messages sent, untimed; hosts and links left out):\n`)
console.log(`| in flight | ${impls.map((i) => i.name).join(' | ')} |`)
console.log(`| ---: | ${impls.map(() => '---:').join(' | ')} |`)
for (const row of memoryRows) console.log(row)
console.log(`\n${['npm run bench:network', ...(args.length > 0 ? ['--', ...args] : [])].join(' ')}`)
