/**
 * The simulation's examples run as their npm scripts run them (the build skipped: `npm
 * test` has built `dist/`, which the examples import by name), and print the same output
 * every run.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { report } from '../examples/lease.js'
import { play } from '../examples/rollback.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url))
const run = async (args: readonly string[]): Promise<string[]> => {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))), NO_COLOR: '1' }
  const { stdout } = await promisify(execFile)(tsx, [...args], { cwd: root, env })
  return stdout.trimEnd().split('\n')
}

describe('examples/lease.ts (npm run example:lease)', () => {
  it('breaks the buggy lease with a schedule shrunk to a few faults, and the fixed one passes', () => {
    const lines = report(300, 42)
    expect(report(300, 42)).toEqual(lines)
    expect(lines[1]).toMatch(/^ {2}broken in run \d+ of 300, shrunk in \d+ steps to:$/)
    const faults = Number(/(\d+) faults?:/.exec(lines[2]!)![1])
    expect(faults).toBeGreaterThanOrEqual(1)
    expect(faults).toBeLessThanOrEqual(3)
    expect(lines.find((l) => l.startsWith('  violation: '))).toMatch(/^ {2}violation: n\d wrote at \d+ ms, but the server's lease for it ended at/)
    expect(lines.at(-1)).toBe('  300 runs of 3000 ms with up to 4 faults each: no violation')
  })

  it('prints the same from the command line', async () => {
    expect(await run(['examples/lease.ts', '--runs', '300'])).toEqual(report(300, 42))
  })
})

describe('examples/rollback.ts (npm run example:rollback)', () => {
  it('stays in sync under 100 ms of jitter and 5% loss, for other seeds too, the same every run', async () => {
    const first = play(7, 20)
    expect(first.inSync).toBe(true)
    expect(first.lines.at(-3)).toBe('  frames confirmed on both: 1200 of 1200; checksums equal at every one')
    expect(play(8, 5).inSync).toBe(true)
    expect(await run(['examples/rollback.ts'])).toEqual(first.lines)
  })
})
