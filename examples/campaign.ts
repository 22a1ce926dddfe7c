/**
 * `npm run example:campaign`: the leader lease of examples/lease.ts as a campaign
 * (examples/lease.campaign.ts), seeds 0..399 on worker threads. The buggy node is found
 * out: its failing seed is shrunk to one fault, written to campaign-out/failures.jsonl
 * with its replay command, and drawn in campaign-out/pictures/. The fixed node then passes
 * the same seeds. Prints the same lines on every machine and every run (the seeds decide
 * everything; the threads only change how fast), never a timing. Flags: `--workers N`.
 *
 * The replay line is what a user of the installed package types; in this repository, where
 * the package is not under node_modules, the same command is
 * `node dist/lib/campaign/bin.js simulate examples/lease.campaign.ts --seed 108`.
 */
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Campaign } from 'timing-wheel/campaign'
import { positiveFlags } from './flags.js'

const file = fileURLToPath(new URL('./lease.campaign.ts', import.meta.url))
const out = 'campaign-out'

/** The example's lines for seeds `first..last` (the example runs 0..399). */
export const report = async (workers: number, first = 0, last = 399): Promise<string[]> => {
  const lines: string[] = []
  const run = (fixed: boolean) => {
    // Worker threads take a copy of the environment when they start: the campaign file reads it.
    process.env['LEASE_FIXED'] = fixed ? '1' : '0'
    return Campaign.runCampaign({
      file,
      seeds: { first, last },
      workers,
      progress: 'none',
      out: `${out}/${fixed ? 'fixed' : 'failures'}.jsonl`,
      pictures: fixed ? false : `${out}/pictures`,
    })
  }
  const buggy = await run(false)
  lines.push(`buggy node, seeds ${first}..${last}: ${buggy.failures.length} failing seed${buggy.failures.length === 1 ? '' : 's'}`)
  for (const f of buggy.failures) lines.push(...Campaign.describeFailure(f).map((l) => `  ${l}`))
  lines.push(`  failures file: ${out}/failures.jsonl`)
  const fixed = await run(true)
  lines.push(`fixed node, seeds ${first}..${last}: ${fixed.failures.length} failing seeds, ${fixed.seeds} run with the liveness phase`)
  return lines
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { workers } = positiveFlags({ workers: availableParallelism() })
  const lines = await report(workers)
  for (const line of lines) console.log(line)
  // The example shows a bug found: finding none (or the fixed node failing) is the example broken.
  if (lines[0]!.endsWith(": 0 failing seeds") || !lines.at(-1)!.includes(": 0 failing seeds")) process.exitCode = 1
}
