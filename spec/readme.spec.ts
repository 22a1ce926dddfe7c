/**
 * Every TypeScript block of the README compiles and runs as a reader would run it: each is
 * written to a file of its own beside the package (so `timing-wheel` resolves to the built
 * `dist/`, as it does for a user; `npm test` builds first), type-checked with the
 * package's compiler settings, and run. A block that imports `vitest` is a test file and
 * runs under vitest; any other runs with tsx, and its `//> ` lines are the output it must
 * print, in order.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = join(root, '.readme-blocks')
const bin = (name: string): string => join(root, 'node_modules', '.bin', name)

interface Block {
  readonly file: string
  readonly code: string
  readonly isTest: boolean
  readonly expected: readonly string[]
}

const blocks: readonly Block[] = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
  (m, i) => {
    const code = m[1]!
    const isTest = /from 'vitest'/.test(code)
    const expected = code
      .split('\n')
      .filter((line) => line.startsWith('//> '))
      .map((line) => line.slice(4))
    return { file: `block-${i + 1}${isTest ? '.spec' : ''}.ts`, code, isTest, expected }
  },
)

const run = async (command: string, args: readonly string[]): Promise<string> => {
  // A child vitest must not think it is a worker of this one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')))
  const { stdout } = await promisify(execFile)(command, [...args], { cwd: dir, env: { ...env, NO_COLOR: '1' } })
  return stdout
}

describe('the README', () => {
  beforeAll(() => {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir)
    for (const b of blocks) writeFileSync(join(dir, b.file), b.code)
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { noEmit: true, rootDir: '.' }, include: ['*.ts'] }),
    )
    writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.spec.ts'] } }\n")
  })

  it('has TypeScript blocks, each with something to check', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5)
    for (const b of blocks) expect(b.isTest || b.expected.length > 0, `${b.file} checks nothing`).toBe(true)
  })

  it('type-checks every block', async () => {
    await run(bin('tsc'), ['-p', 'tsconfig.json'])
  })

  it.each(blocks.filter((b) => !b.isTest))('runs $file and prints what it says', async (b) => {
    const stdout = await run(bin('tsx'), [b.file])
    expect(stdout.trimEnd().split('\n')).toEqual(b.expected)
  })

  it('passes the blocks that are tests', async () => {
    const tests = blocks.filter((b) => b.isTest)
    const stdout = await run(bin('vitest'), ['run', '--config', 'vitest.config.mjs'])
    expect(stdout).toMatch(new RegExp(`Test Files\\s+${tests.length} passed`))
  })

  it('names only entries the package exports (the Jest configuration block among them)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const entries = new Set([...readme.matchAll(/'(timing-wheel(?:\/[\w/-]+)?)'/g)].map((m) => m[1]!))
    expect(entries).toContain('timing-wheel/jest-environment/jsdom')
    for (const entry of entries) expect(() => import.meta.resolve(entry), entry).not.toThrow()
  })
})
