/**
 * A worker thread of the campaign's pool (tinypool): runs a batch of seeds of one campaign
 * file and returns each failure with its picture. The file is loaded once per thread.
 */
import { type Failure, trial } from './campaign.js'
import { loadCampaign } from './load.js'
import { picture } from './picture.js'
import type { Campaign } from './campaign.js'

/** A batch: the campaign file, its seeds, and what to tell in each failure. */
export interface Task {
  /** The campaign file, absolute. */
  readonly file: string
  /** The seeds to run, in order. */
  readonly seeds: readonly number[]
  /** Whether to draw each failure. */
  readonly pictures: boolean
  /** The command line that replays a seed, with `{seed}` in it. */
  readonly replay: string
}

/** A seed's result: its failure and picture, if it failed. */
export interface Result {
  /** The seed. */
  readonly seed: number
  /** Its failure, if any. */
  readonly failure?: Failure
  /** Its picture's HTML, if it failed and pictures were asked for. */
  readonly html?: string
}

const loaded = new Map<string, Promise<Campaign>>()

/** Runs a batch in this thread (also the pool's task function). */
export const runBatch = async (task: Task): Promise<Result[]> => {
  let pending = loaded.get(task.file)
  if (pending === undefined) loaded.set(task.file, (pending = loadCampaign(task.file)))
  const campaign = await pending
  return task.seeds.map((seed): Result => {
    const { failure, shown } = trial(campaign, seed)
    if (failure === undefined) return { seed }
    if (!task.pictures || shown === undefined) return { seed, failure }
    const shrunk = failure.shrunk
    const html = picture(shown.log, {
      title: `Seed ${seed}: ${failure.phase} failure`,
      hosts: shown.hosts,
      ...(campaign.options.panels === undefined ? {} : { panels: campaign.options.panels }),
      ...(shown.failure === undefined ? {} : { failure: { message: shown.failure.message, at: shown.failure.at } }),
      details: [
        `replay: ${task.replay.replace('{seed}', String(seed))}`,
        `fault kinds on: ${failure.kinds.join(', ')}`,
        shrunk === undefined ? `faults (${failure.faults.length}):` : `faults, shrunk in ${shrunk.steps} steps from ${failure.faults.length} to ${shrunk.faults.length}:`,
        ...(shrunk?.faults ?? failure.faults).map((f) => `  ${f}`),
        ...(failure.nondeterminism === undefined
          ? []
          : [`NOT DETERMINISTIC: the two runs part at log entry ${failure.nondeterminism.index}:`, `  first:  ${failure.nondeterminism.first}`, `  second: ${failure.nondeterminism.second}`, `  outside the seed: ${failure.nondeterminism.outside.join(', ') || 'none seen'}`]),
      ],
    })
    return { seed, failure, html }
  })
}

export default runBatch
