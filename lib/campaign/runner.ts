/**
 * The campaign runner: hands a shard's seeds, in batches, to a pool of worker threads
 * (tinypool) running a campaign file, and writes each failure as one JSON line and one
 * picture. It knows nothing of the simulation: a worker runs a seed (worker.ts) and says
 * whether it failed.
 *
 * Representation. Seeds come from the shard's generator (seeds.ts) in order; at most two
 * batches per thread are in flight, so a time budget stops the campaign within about a
 * batch per thread of it. Failures are appended to the file as they come (a campaign
 * killed midway keeps them), then the file is written again in seed order, so that two
 * runs of one range give the same file however the threads interleaved.
 */
import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import Tinypool from 'tinypool'
import { TimingWheelError, show } from '../errors.js'
import type { Failure } from './campaign.js'
import { type ProgressMode, type ProgressStream, reporter } from './progress.js'
import { type SeedRange, type Shard, checkRange, checkShard, shardSeeds, shardSize, showShard, wholeCampaign } from './seeds.js'
import type { Result, Task } from './worker.js'

/**
 * What `runCampaign` takes; only `file` is required.
 *
 * @example
 * const options: RunOptions = { file: 'lease.campaign.ts', time: 10 * 60_000, shard: { index: 2, count: 4 }, pictures: false }
 * await Campaign.runCampaign(options)
 */
export interface RunOptions {
  /** The campaign file (.js, .mjs, or .ts through tsx). */
  readonly file: string
  /** The seeds; default 0..999, or 0.. without end with `time`. */
  readonly seeds?: SeedRange
  /** Stop starting seeds after this many ms. */
  readonly time?: number
  /** This machine's part of the campaign; default 1/1. */
  readonly shard?: Shard
  /** Worker threads; default the cores (`os.availableParallelism()`). */
  readonly workers?: number
  /** Seeds per batch a thread runs at once; default 4. */
  readonly batch?: number
  /** The failures file (JSON lines); default `campaign-failures.jsonl`. */
  readonly out?: string
  /** The folder for failures' pictures, or `false` for none; default `campaign-pictures`. */
  readonly pictures?: string | false
  /** How progress shows; default `auto`. */
  readonly progress?: ProgressMode
  /** Where progress goes; default `process.stderr`. */
  readonly stream?: ProgressStream
  /** Called for every seed run, in the order results come back. */
  readonly onSeed?: (seed: number, failed: boolean) => void
}

/**
 * A failure as the failures file holds it: the seed's failure, the shard that found it, how to replay it, its picture.
 *
 * @example
 * const records: FailureRecord[] = readFileSync('campaign-failures.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l))
 * for (const r of records) console.log(r.seed, r.shard, r.replay)
 */
export interface FailureRecord extends Failure {
  /** The shard that ran the seed, `i/n`. */
  readonly shard: string
  /** The command that replays it. */
  readonly replay: string
  /** The picture's path, when drawn. */
  readonly picture?: string
  /** The commit the campaign ran (the working directory's git HEAD), when known: a seed replays at its commit. */
  readonly commit?: string
}

/**
 * What a campaign did.
 *
 * @example
 * const summary: Summary = await Campaign.runCampaign({ file: 'lease.campaign.ts', seeds: { first: 0, last: 999 } })
 * console.log(`${summary.seeds} seeds in ${summary.elapsed} ms, ${summary.failures.length} failures`)
 */
export interface Summary {
  /** Seeds run. */
  readonly seeds: number
  /** The failures, in seed order. */
  readonly failures: readonly FailureRecord[]
  /** Wall time, ms. */
  readonly elapsed: number
  /** The shard run, `i/n`. */
  readonly shard: string
}

/** The working directory's git commit, if it is a checkout and git is there (CI's checkout is). */
const headCommit = (): string | undefined => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined
  } catch {
    return undefined
  }
}

const bad = (message: string): never => {
  throw new TimingWheelError('InvalidArgument', message)
}

const count = (what: string, n: unknown, min: number, max: number): number =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max ? n : bad(`${what} ${show(n)} is not an integer in [${min}, ${max}]`)

/**
 * Runs a campaign file's seeds (this shard's) on worker threads; resolves when every seed
 * is done or the time is up. Bad options reject with `InvalidArgument` before any thread
 * starts; a campaign file that cannot load rejects with its error.
 *
 * @example
 * const summary = await runCampaign({ file: 'lease.campaign.ts', seeds: { first: 0, last: 9999 }, shard: { index: 1, count: 4 } })
 * process.exitCode = summary.failures.length > 0 ? 1 : 0
 */
export const runCampaign = async (options: RunOptions): Promise<Summary> => {
  if (typeof options !== 'object' || options === null) bad(`campaign run options ${show(options)} is not an object`)
  if (typeof options.file !== 'string' || options.file === '') bad(`file ${show(options.file)} is not a path to a campaign file`)
  const time = options.time === undefined ? undefined : count('time', options.time, 1, 7 * 86_400_000)
  const range = checkRange(options.seeds ?? (time === undefined ? { first: 0, last: 999 } : { first: 0 }))
  if (range.last === undefined && time === undefined) bad(`seeds ${show(range)} has no end: give a last seed or a time`)
  const shard = checkShard(options.shard ?? wholeCampaign)
  const workers = count('workers', options.workers ?? availableParallelism(), 1, 256)
  const batch = count('batch', options.batch ?? 4, 1, 10_000)
  const out = resolve(options.out ?? 'campaign-failures.jsonl')
  const pictures = options.pictures === false ? undefined : resolve(options.pictures ?? 'campaign-pictures')
  const progressMode = options.progress ?? 'auto'
  if (!['auto', 'bar', 'lines', 'none'].includes(progressMode)) bad(`progress ${show(progressMode)} is not "auto", "bar", "lines" or "none"`)
  if (options.onSeed !== undefined && typeof options.onSeed !== 'function') bad(`onSeed ${show(options.onSeed)} is not a function`)

  const file = resolve(options.file)
  const commit = headCommit()
  if (!existsSync(file)) bad(`campaign file ${show(options.file)} does not exist (looked at ${show(file)})`)
  const replay = `npx timing-wheel simulate ${relative(process.cwd(), file) || file} --seed {seed}`
  const started = Date.now()
  const deadline = time === undefined ? undefined : started + time
  const progress = reporter(progressMode, options.stream ?? process.stderr, { total: shardSize(range, shard), deadline })
  const pool = new Tinypool({ filename: new URL('./worker.js', import.meta.url).href, minThreads: workers, maxThreads: workers, isolateWorkers: false })
  const seeds = shardSeeds(range, shard)
  const failures: FailureRecord[] = []
  let done = 0
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, '')
  if (pictures !== undefined) mkdirSync(pictures, { recursive: true })

  const take = (): number[] => {
    const next: number[] = []
    if (deadline !== undefined && Date.now() >= deadline) return next
    while (next.length < batch) {
      const s = seeds.next()
      if (s.done === true) break
      next.push(s.value)
    }
    return next
  }
  const record = (r: Result): void => {
    done++
    options.onSeed?.(r.seed, r.failure !== undefined)
    if (r.failure === undefined) return
    let picture: string | undefined
    if (pictures !== undefined && r.html !== undefined) writeFileSync((picture = join(pictures, `seed-${r.seed}.html`)), r.html)
    const failure: FailureRecord = {
      ...r.failure,
      shard: showShard(shard),
      replay: replay.replace('{seed}', String(r.seed)),
      ...(picture === undefined ? {} : { picture }),
      ...(commit === undefined ? {} : { commit }),
    }
    failures.push(failure)
    appendFileSync(out, `${JSON.stringify(failure)}\n`)
  }
  const lane = async (): Promise<void> => {
    for (let next = take(); next.length > 0; next = take()) {
      const task: Task = { file, seeds: next, pictures: pictures !== undefined, replay }
      for (const r of (await pool.run(task)) as Result[]) record(r)
      progress.update(done, failures.length)
    }
  }
  try {
    await Promise.all(Array.from({ length: workers * 2 }, lane))
  } finally {
    await pool.destroy()
  }
  failures.sort((a, b) => a.seed - b.seed)
  writeFileSync(out, failures.map((f) => `${JSON.stringify(f)}\n`).join(''))
  progress.finish(done, failures.length)
  return { seeds: done, failures, elapsed: Date.now() - started, shard: showShard(shard) }
}

/**
 * A failure in words, a line each: the seed and what failed, the fault kinds, the faults
 * (shrunk, when shrunk), whether the seed replays, the picture and the replay command.
 * Paths are relative to the working directory, so the lines are the same on every machine.
 *
 * @example
 * for (const f of summary.failures) console.log(describeFailure(f).join('\n'))
 */
export const describeFailure = (f: FailureRecord): string[] => {
  const shrunk = f.shrunk
  return [
    `seed ${f.seed} (shard ${f.shard}): ${f.phase} failure at ${f.at} ms: ${f.failure}`,
    `  fault kinds on: ${f.kinds.join(', ')}`,
    shrunk === undefined
      ? `  faults (${f.faults.length}):`
      : `  faults, shrunk in ${shrunk.steps} steps from ${f.faults.length} to ${shrunk.faults.length}${shrunk.failure === f.failure ? '' : `, failing so: ${shrunk.failure}`}:`,
    ...(shrunk?.faults ?? f.faults).map((w) => `    ${w}`),
    ...(f.nondeterminism === undefined
      ? []
      : [
          `  NOT DETERMINISTIC: the seed's two runs part at log entry ${f.nondeterminism.index}:`,
          `    first run:  ${f.nondeterminism.first}`,
          `    second run: ${f.nondeterminism.second}`,
          f.nondeterminism.outside.length === 0
            ? '    (the run called no Math.random, Date.now or performance.now of the real process)'
            : `    the run called, outside the seed: ${f.nondeterminism.outside.join(', ')}`,
        ]),
    ...(f.picture === undefined ? [] : [`  picture: ${relative(process.cwd(), f.picture)}`]),
    `  replay: ${f.replay}`,
  ]
}
