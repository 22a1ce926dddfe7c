/**
 * `npm run bench:schemes`: Varghese & Lauck's timer schemes 1 to 7, measured against the
 * complexities the paper predicts. Writes `schemes.md` and its SVG plots to `bench/out/schemes`
 * (ignored by git; `bench/schemes/report/` holds the published copy, copied from there by hand).
 *
 * Flags: `--quick` (small sizes, seconds), `--seed=N`, `--out=dir` (default
 * `bench/out/schemes`). Run node with `--expose-gc` (the npm script does) for full
 * collections outside the timed regions.
 */
import { fileURLToPath } from 'node:url'
import { fullOptions, quickOptions, runBench, writeReport } from './bench.js'
import { FiringMismatch, canCollect, separateDrivers } from './measure.js'

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)

const quick = args.includes('--quick')
const seed = flag('seed') === undefined ? undefined : Number(flag('seed'))
const known = (a: string): boolean => a === '--quick' || a.startsWith('--seed=') || a.startsWith('--out=')
if ((seed !== undefined && !Number.isInteger(seed)) || !args.every(known)) {
  console.error('usage: npm run bench:schemes -- [--quick] [--seed=N] [--out=dir]')
  process.exit(2)
}
const out = flag('out') ?? fileURLToPath(new URL('../out/schemes', import.meta.url))
const command = ['npm run bench:schemes', ...(args.length > 0 ? ['--', ...args] : [])].join(' ')

if (!canCollect()) console.error('note: node runs without --expose-gc: no full collection before timed phases')

try {
  const options = quick ? quickOptions(seed) : fullOptions(seed)
  const result = await runBench(options, separateDrivers, (line) => process.stderr.write(`${line}\n`), command)
  for (const path of writeReport(out, result)) console.log(`wrote ${path}`)
  console.log(`${result.meta.seconds.toFixed(1)} s`)
} catch (e) {
  if (!(e instanceof FiringMismatch)) throw e
  console.error(`The schemes disagree: ${e.message}`)
  process.exit(1)
}
