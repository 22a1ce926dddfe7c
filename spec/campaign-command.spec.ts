/**
 * The campaign's command, `timing-wheel simulate`, as a user runs it (node on the built
 * bin, in a fresh folder): exit codes, failures in words, replay by `--seed`, and a bad
 * command line refused with the reason and the usage before anything runs.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Campaign } from 'timing-wheel/campaign'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const file = fileURLToPath(new URL('./support/campaigns/ping.campaign.ts', import.meta.url))
const bin = join(root, 'dist/lib/campaign/bin.js')
const temp = (): string => mkdtempSync(join(tmpdir(), 'campaign-'))

describe('the command (timing-wheel simulate)', () => {
  const command = async (args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd })
      return { code: 0, stdout, stderr }
    } catch (e) {
      const error = e as { code: number; stdout: string; stderr: string }
      return { code: error.code, stdout: error.stdout, stderr: error.stderr }
    }
  }

  it('exits 1 with the failures in words, replays one by --seed with the same words, and exits 0 on a passing seed', async () => {
    const cwd = temp()
    const all = await command(['simulate', file, '--seeds', '0..9', '--workers', '2', '--progress', 'lines'], cwd)
    expect(all.code).toBe(1)
    expect(all.stderr).toMatch(/^10\/10 seeds, [\d.]+ seeds\/s, \d+ failures?, 0s left$/m)
    const failed = [...all.stdout.matchAll(/^seed (\d+) \(shard 1\/1\)/gm)].map((m) => Number(m[1]))
    expect(failed.length).toBeGreaterThan(0)
    expect(all.stdout).toMatch(new RegExp(`^10 seeds \\(shard 1/1\\), ${failed.length} failures?$`, 'm'))
    expect(existsSync(join(cwd, 'campaign-failures.jsonl'))).toBe(true)
    const seed = failed[0]!
    const one = await command(['simulate', file, '--seed', String(seed), '--no-pictures', '--progress', 'none'], cwd)
    expect(one.code).toBe(1)
    const block = (text: string) => text.split(/\n(?=seed )/).find((b) => b.startsWith(`seed ${seed} `))!.replace(/\n {2}picture: .*/, '').replace(/\n\d+ seeds? .*\n?$/, '')
    expect(block(one.stdout)).toBe(block(all.stdout))
    const passing = [...Array(10).keys()].find((s) => !failed.includes(s))!
    const pass = await command(['simulate', file, '--seed', String(passing), '--progress', 'none'], cwd)
    expect(pass).toMatchObject({ code: 0, stdout: '1 seed (shard 1/1), 0 failures\n' })
  })

  it('exits 2 with the reason and the usage for a bad command line, before running anything', async () => {
    const cwd = temp()
    const cases = [
      [['simulate'], /no campaign file given/],
      [['run', file], /command "run" is not "simulate"/],
      [['simulate', file, '--seeds', '9..1'], /last seed 1 is before the first 9/],
      [['simulate', file, '--seeds', '1..x'], /last seed "x" is not an integer/],
      [['simulate', file, '--shard', '0/2'], /shard .* is not an index/],
      [['simulate', file, '--shard', '1-2'], /shard "1-2" is not "i\/n"/],
      [['simulate', file, '--time', 'forever'], /time "forever" is not a duration/],
      [['simulate', file, '--workers', 'two'], /--workers "two" is not a whole number/],
      [['simulate', file, '--workers', '0'], /--workers "0" is not a whole number from 1/],
      [['simulate', file, '--batch', '1.5'], /--batch "1.5" is not a whole number from 1/],
      [['simulate', file, '--batch=-3'], /--batch "-3" is not a whole number from 1/],
      [['simulate', file, '--seed', '1e3'], /--seed "1e3" is not a whole number/],
      [['simulate', file, '--seed', '3', '--shard', '1/2'], /--seed replays one seed/],
      [['simulate', file, '--pictures', 'p', '--no-pictures'], /--pictures and --no-pictures together/],
      [['simulate', file, '--progress', 'loud'], /--progress "loud"/],
      [['simulate', file, '--bogus'], /Unknown option '--bogus'/],
      [['simulate', file, 'extra'], /unexpected arguments \["extra"\]/],
    ] as const
    const missing = [['simulate', join(cwd, 'missing.ts')], /campaign file .*missing\.ts" does not exist/] as const
    for (const [args, message] of cases) expect(() => Campaign.parseCommand(args), args.join(' ')).toThrow(message)
    expect(Campaign.parseCommand(['simulate', 'f.js', '--time', '90s', '--shard', '2/4', '--no-pictures'])).toEqual({ file: 'f.js', time: 90_000, shard: { index: 2, count: 4 }, pictures: false })
    // As the command: the reason, then the usage, on stderr; exit 2.
    for (const [args, message] of [cases[4], missing]) {
      const r = await command(args, cwd)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(r.stdout).toBe('')
    }
    expect((await command(['simulate', file, '--bogus'], cwd)).stderr).toMatch(/Unknown option '--bogus'[^]*Usage: timing-wheel simulate <campaign file> \[flags\]/)
    expect(existsSync(join(cwd, 'campaign-failures.jsonl'))).toBe(false)
  })
})
