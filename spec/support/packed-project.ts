/**
 * A scratch project with the package as a user installs it: `npm pack` (without its
 * `prepack` build: the specs run on the dist/ that `npm test` has just built), unpacked
 * into the project's `node_modules`, its dependencies linked from ours so nothing is
 * fetched. Shared by spec/packed.spec.ts and the type checks in spec/heavy/.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

export const root = fileURLToPath(new URL('../..', import.meta.url))
export const exec = promisify(execFile)
export const bin = (name: string): string => join(root, 'node_modules', '.bin', name)
export const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))), NO_COLOR: '1' }

/** Entries that are ES modules only: Vitest cannot be required, nor tinypool, which the campaign's pool is. */
export const esmOnly = new Set(['timing-wheel/vitest', 'timing-wheel/vitest/setup', 'timing-wheel/campaign'])

export interface PackedProject {
  /** The project's directory. */
  readonly dir: string
  /** Every entry of the package's `exports`, as a user imports it. */
  readonly entries: readonly string[]
  /** Writes `name` in the project; returns `name`. */
  readonly write: (name: string, text: string) => string
}

export const packedProject = async (): Promise<PackedProject> => {
  const dir = mkdtempSync(join(tmpdir(), 'timing-wheel-user-'))
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, env })
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>
  await exec('tar', ['-xzf', packed!.filename], { cwd: dir })
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true })
  renameSync(join(dir, 'package'), join(dir, 'node_modules', 'timing-wheel'))
  for (const dep of ['fp-ts', 'io-ts', 'edn-data', 'pure-rand', 'tinypool', 'fast-check', 'jest-environment-node', 'jest-environment-jsdom', 'vitest', '@types/node']) {
    symlinkSync(join(root, 'node_modules', dep), join(dir, 'node_modules', dep))
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "user", "private": true }\n')
  const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', 'timing-wheel', 'package.json'), 'utf8')) as { exports: object }
  const entries = Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? 'timing-wheel' : `timing-wheel/${key.slice(2)}`))
  const write = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text)
    return name
  }
  return { dir, entries, write }
}
