/**
 * examples/campaign.ts (npm run example:campaign) on a few seeds around the one that breaks
 * the buggy lease: found, shrunk, filed, drawn, replayable, and the same lines every run
 * whatever the number of threads; the fixed lease passes them.
 */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { report } from '../examples/campaign.js'

describe('examples/campaign.ts', () => {
  it('finds seed 108 of the buggy lease, files and draws it, prints the same lines with 1 or 2 threads, and the fixed lease passes', async () => {
    const lines = await report(2, 106, 109)
    expect(lines[0]).toBe('buggy node, seeds 106..109: 1 failing seed')
    expect(lines[1]).toMatch(/^ {2}seed 108 \(shard 1\/1\): safety failure at \d+ ms: n\d wrote at \d+ ms, but the server's lease for it ended at \d+ ms$/)
    expect(lines).toContain('    replay: npx timing-wheel simulate examples/lease.campaign.ts --seed 108')
    expect(lines.at(-1)).toBe('fixed node, seeds 106..109: 0 failing seeds, 4 run with the liveness phase')
    const filed = readFileSync('campaign-out/failures.jsonl', 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { seed: number; picture: string })
    expect(filed.map((f) => f.seed)).toEqual([108])
    expect(existsSync(filed[0]!.picture)).toBe(true)
    expect(await report(1, 106, 109)).toEqual(lines)
  })
})
