/**
 * examples/kv-store.ts (npm run example:kv-store): the stale-leader read is found and named,
 * the picture is written with a bar per recorded operation and the failing one marked, the
 * quorum-read store passes, and the command line prints the same every run.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { report } from '../examples/kv-store.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'kv-store-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('examples/kv-store.ts', () => {
  it('finds the stale read, names it, writes the picture; the fixed store passes; the same from the command line', async () => {
    const picture = join(dir, 'kv-store.html')
    const lines = report(60, 5, picture).map((l) => l.replace(picture, 'kv-store.html'))
    expect(lines[1]).toMatch(/^ {2}not linearizable in run \d+ of 60, shrunk in \d+ steps; the shrunk run says:$/)
    expect(lines.find((l) => l.startsWith('  fault schedule:'))).toMatch(/seed -?\d+, [1-3] faults?:/)
    const failing = lines.find((l) => l.startsWith('  the operation that cannot be placed:'))
    expect(failing).toMatch(/called \{"f":"get","key":"[xy]"\} at \d+ and got ok \{"f":"get","value":/)
    expect(lines).toContain('  picture: kv-store.html')
    expect(lines.at(-1)).toBe('  60 runs of 2000 ms with up to 4 faults each: linearizable every time')
    const html = readFileSync(picture, 'utf8')
    const data = JSON.parse(/<script type="application\/json" id="data">(.*)<\/script>/.exec(html)![1]!) as { ops: { failing: boolean; place: number | null }[] }
    expect(data.ops.filter((op) => op.failing)).toHaveLength(1)
    expect(data.ops.some((op) => op.place !== null)).toBe(true)

    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))), NO_COLOR: '1' }
    const { stdout } = await promisify(execFile)(tsx, ['examples/kv-store.ts', '--runs', '60', '--seed', '5', '--out', join(dir, 'cli.html')], { cwd: root, env })
    expect(stdout.trimEnd().split('\n')).toEqual(lines)
  }, 60_000)
})
