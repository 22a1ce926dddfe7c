/**
 * The campaign runner on worker threads (the built dist/: its pool loads dist's worker.js)
 * one shard against three, a time budget, the failures file, progress, and hostile options.
 * The command is spec/campaign-command.spec.ts.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Campaign, type FailureRecord, type Summary } from 'timing-wheel/campaign'
import { describe, expect, it } from 'vitest'

const file = fileURLToPath(new URL('./support/campaigns/ping.campaign.ts', import.meta.url))
const temp = (): string => mkdtempSync(join(tmpdir(), 'campaign-'))
/** The checkout's commit, as git says (none outside a checkout). */
const head = ((): string | undefined => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return undefined
  }
})()

const campaign = async (dir: string, options: Partial<Parameters<typeof Campaign.runCampaign>[0]>): Promise<{ summary: Summary; seeds: number[] }> => {
  const seeds: number[] = []
  const summary = await Campaign.runCampaign({ file, out: join(dir, 'failures.jsonl'), pictures: join(dir, 'pictures'), progress: 'none', onSeed: (s) => seeds.push(s), ...options })
  return { summary, seeds }
}

/** A failure as found, whichever shard found it and wherever its picture went. */
const found = ({ shard: _shard, picture: _picture, ...rest }: FailureRecord) => rest

describe('shards', () => {
  it('1 shard and 3 shards run the same seeds, none twice, and find the same failures', async () => {
    const seeds = { first: 0, last: 17 }
    const dir = temp()
    const whole = await campaign(dir, { seeds, workers: 2 })
    const shards = await Promise.all([1, 2, 3].map((index) => campaign(temp(), { seeds, workers: 1, shard: { index, count: 3 } })))
    const union = shards.flatMap((s) => s.seeds)
    expect(new Set(union).size).toBe(union.length)
    expect([...union].sort((a, b) => a - b)).toEqual([...whole.seeds].sort((a, b) => a - b))
    expect(whole.seeds.length).toBe(18)
    expect(whole.summary.failures.length).toBeGreaterThan(0)
    expect(shards.flatMap((s) => s.summary.failures.map(found)).sort((a, b) => a.seed - b.seed)).toEqual(whole.summary.failures.map(found))
    shards.forEach((s, i) => expect(new Set(s.summary.failures.map((f) => f.shard))).toEqual(new Set(s.summary.failures.length > 0 ? [`${i + 1}/3`] : [])))
    // The failures file: one JSON line a failure, in seed order, each with its picture and replay.
    const lines = readFileSync(join(dir, 'failures.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as FailureRecord)
    expect(lines).toEqual(whole.summary.failures)
    for (const f of lines) {
      expect(f.replay).toMatch(new RegExp(`^npx timing-wheel simulate .*ping\\.campaign\\.ts --seed ${f.seed}$`))
      const html = readFileSync(f.picture!, 'utf8')
      expect(html).toContain(`Seed ${f.seed}: safety failure`)
      expect(html).toMatch(/<h2>Messages<\/h2><p id="messages">\d+ messages<\/p>/)
      expect(f.schedule.faults.length).toBeGreaterThan(0)
      expect(f.commit).toBe(head) // the seed replays at this commit
    }
  })

  it('a time budget runs a prefix of the shard\'s seeds and stops', async () => {
    const { summary, seeds } = await campaign(temp(), { seeds: { first: 100 }, time: 400, workers: 1, shard: { index: 2, count: 5 }, pictures: false })
    expect(summary.seeds).toBeGreaterThan(0)
    expect(seeds).toEqual(Array.from({ length: seeds.length }, (_, i) => 101 + 5 * i))
  })

  it('refuses bad options before any thread starts or any file is written', async () => {
    const dir = temp()
    const out = join(dir, 'failures.jsonl')
    const bad = [
      [{ workers: 0 }, /workers 0 is not an integer in \[1, 256\]/],
      [{ workers: 1.5 }, /workers 1.5/],
      [{ batch: 0 }, /batch 0/],
      [{ seeds: { first: 5, last: 2 } }, /seeds .* last >= first/],
      [{ seeds: { first: 0 } }, /has no end: give a last seed or a time/],
      [{ time: 0 }, /time 0 is not an integer/],
      [{ shard: { index: 4, count: 3 } }, /shard .* is not an index in \[1, count\]/],
      [{ progress: 'loud' }, /progress "loud"/],
      [{ file: '' }, /file "" is not a path/],
    ] as const
    for (const [options, message] of bad) {
      await expect(Campaign.runCampaign({ file, out, progress: 'none', ...(options as object) })).rejects.toThrow(message)
      expect(existsSync(out)).toBe(false)
    }
    await expect(Campaign.runCampaign({ file: join(dir, 'nope.ts'), out, progress: 'none', workers: 1 })).rejects.toThrow(/campaign file .*nope\.ts" does not exist/)
    await expect(Campaign.loadCampaign(fileURLToPath(new URL('./support/float.ts', import.meta.url)))).rejects.toThrow(/exports no campaign/)
  })
})

describe('progress', () => {
  it('draws a bar on a terminal and plain lines elsewhere: seeds per second, failures, time left', () => {
    let now = 0
    const written: string[] = []
    const stream = { write: (t: string) => written.push(t), isTTY: true }
    const bar = Campaign.reporter('auto', stream, { total: 100 }, () => now)
    now = 2000
    bar.update(50, 1)
    expect(written).toEqual(['\r[############------------] 50/100 seeds, 25 seeds/s, 1 failure, 2s left\u001b[K'])
    const lines: string[] = []
    const plain = Campaign.reporter('auto', { write: (t: string) => lines.push(t) }, { deadline: 60_000 }, () => now)
    now = 12_000
    plain.update(500, 0)
    plain.update(600, 0) // within 5 s of the last line: not written
    plain.finish(700, 2)
    expect(lines).toEqual(['500 seeds, 50 seeds/s, 0 failures, 48s left\n', '700 seeds, 70 seeds/s, 2 failures, 48s left\n'])
  })
})
