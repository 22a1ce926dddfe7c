/**
 * The command: `timing-wheel simulate <file> [flags]` runs a campaign file's seeds on
 * worker threads, prints each failure in words (stdout) and progress (stderr), writes the
 * failures file and pictures, and exits 1 when anything failed, 2 for a bad command line
 * or a campaign file that does not load. bin.ts runs it.
 */
import { parseArgs } from 'node:util'
import { TimingWheelError } from '../errors.js'
import { type RunOptions, type Summary, describeFailure, runCampaign } from './runner.js'
import { parseDuration, parseSeeds, parseShard } from './seeds.js'

const usage = `Usage: timing-wheel simulate <campaign file> [flags]

  --seeds a..b     the seeds to run, both inclusive (default 0..999)
  --time 10m       run seeds from --seeds' first (default 0) until the time is up (ms, s, m, h)
  --seed N         replay one seed (the failures file's "replay" line)
  --shard i/n      run shard i of n: every n-th seed from the i-th (CI matrices, indexed jobs)
  --workers N      worker threads (default: the cores)
  --batch N        seeds a thread runs per task (default 4)
  --out FILE       the failures file, JSON lines (default campaign-failures.jsonl)
  --pictures DIR   a picture (HTML) per failure here (default campaign-pictures)
  --no-pictures    no pictures
  --progress MODE  auto (bar on a terminal, lines otherwise), bar, lines or none

A .ts campaign file loads through tsx (npm i -D tsx); .js and .mjs load as they are.
Exits 0 when every seed passed, 1 when any failed, 2 for a bad command line.`

const integer = (flag: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || (flag !== 'seed' && Number(text) < 1)) {
    throw new TimingWheelError('InvalidArgument', `--${flag} ${JSON.stringify(text)} is not a whole number${flag === 'seed' ? '' : ' from 1'}`)
  }
  return Number(text)
}

/**
 * Reads the command line (without `node` and the script) into run options, or throws
 * `InvalidArgument` naming the flag and what it allows.
 *
 * @example
 * parseCommand(['simulate', 'lease.campaign.ts', '--seeds', '0..99', '--shard', '1/2'])
 */
export const parseCommand = (argv: readonly string[]): RunOptions => {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      seeds: { type: 'string' },
      time: { type: 'string' },
      seed: { type: 'string' },
      shard: { type: 'string' },
      workers: { type: 'string' },
      batch: { type: 'string' },
      out: { type: 'string' },
      pictures: { type: 'string' },
      'no-pictures': { type: 'boolean' },
      progress: { type: 'string' },
    },
  })
  const [command, file, ...rest] = positionals
  if (command !== 'simulate') throw new TimingWheelError('InvalidArgument', `command ${JSON.stringify(command ?? '')} is not "simulate"`)
  if (file === undefined) throw new TimingWheelError('InvalidArgument', 'no campaign file given')
  if (rest.length > 0) throw new TimingWheelError('InvalidArgument', `unexpected arguments ${JSON.stringify(rest)}`)
  if (values.seed !== undefined && (values.seeds !== undefined || values.time !== undefined || values.shard !== undefined)) {
    throw new TimingWheelError('InvalidArgument', '--seed replays one seed: it goes with neither --seeds, --time nor --shard')
  }
  if (values.pictures !== undefined && values['no-pictures'] === true) throw new TimingWheelError('InvalidArgument', '--pictures and --no-pictures together')
  const seed = integer('seed', values.seed)
  const workers = integer('workers', values.workers)
  const batch = integer('batch', values.batch)
  const progress = values.progress
  if (progress !== undefined && !['auto', 'bar', 'lines', 'none'].includes(progress)) {
    throw new TimingWheelError('InvalidArgument', `--progress ${JSON.stringify(progress)} is not auto, bar, lines or none`)
  }
  return {
    file,
    ...(seed !== undefined ? { seeds: parseSeeds(String(seed)), workers: 1 } : values.seeds !== undefined ? { seeds: parseSeeds(values.seeds) } : {}),
    ...(values.time === undefined ? {} : { time: parseDuration(values.time) }),
    ...(values.shard === undefined ? {} : { shard: parseShard(values.shard) }),
    ...(workers === undefined ? {} : { workers }),
    ...(batch === undefined ? {} : { batch }),
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(values['no-pictures'] === true ? { pictures: false as const } : values.pictures === undefined ? {} : { pictures: values.pictures }),
    ...(progress === undefined ? {} : { progress: progress as 'auto' }),
  }
}

/**
 * Runs the command; resolves to its exit code.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2))
 */
export const main = async (argv: readonly string[]): Promise<number> => {
  let options: RunOptions
  try {
    options = parseCommand(argv)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}\n`)
    return 2
  }
  let summary: Summary
  try {
    summary = await runCampaign(options)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    return 2
  }
  for (const f of summary.failures) process.stdout.write(`${describeFailure(f).join('\n')}\n`)
  const n = summary.failures.length
  process.stdout.write(`${summary.seeds} seed${summary.seeds === 1 ? '' : 's'} (shard ${summary.shard}), ${n} failure${n === 1 ? '' : 's'}\n`)
  return n > 0 ? 1 : 0
}

