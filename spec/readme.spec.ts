/**
 * Every TypeScript block of the README compiles and runs as a reader would run it: each is
 * written to a file of its own beside the package (so `timing-wheel` resolves to the built
 * `dist/`, as it does for a user; `npm test` builds first), type-checked with the
 * package's compiler settings, and run. A block that imports `vitest` is a test file and
 * runs under vitest; any other runs with tsx, and its `//> ` lines are the output it must
 * print, in order.
 *
 * Its configuration blocks (the Jest and the Vitest one) are loaded as a user would load
 * them, in a fresh CommonJS project and in a fresh ES module project: the block is the
 * config file, and a test there sees the wheel under `jest.*` or `vi.*`.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
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

/** A configuration block: its file name is its first line's comment (`// jest.config.json: ...`). */
const configBlock = (file: string): string => {
  const block = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/```\w*\n(\/\/ ([\w.]+)[^\n]*\n[\s\S]*?)```/g)].find((m) => m[2] === file)
  if (block === undefined) throw new Error(`the README has no block for ${file}`)
  return block[1]!
}

/** Jest's and Vitest's tests that pass only on the wheel: it names the refused call. */
const jestTest = `test('jest on the wheel', () => {
  jest.useFakeTimers()
  expect(() => jest.advanceTimersByTime(Number.NaN)).toThrow('jest.advanceTimersByTime(NaN)')
})
`
const vitestTest = `import { expect, it, vi } from 'vitest'
it('vi on the wheel', () => {
  vi.useFakeTimers()
  expect(() => vi.advanceTimersByTime(Number.NaN)).toThrow('vi.advanceTimersByTime(NaN)')
})
`

describe.concurrent.each(['commonjs', 'module'])('the README’s configuration blocks in a fresh %s project', (type) => {
  let project = ''
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), `readme-${type}-`))
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user', private: true, type }))
    mkdirSync(join(project, 'node_modules'))
    // The package as installed (its exports lead to dist/), and the runners' packages.
    symlinkSync(root, join(project, 'node_modules', 'timing-wheel'))
    for (const dep of ['vitest', 'jest-environment-node']) symlinkSync(join(root, 'node_modules', dep), join(project, 'node_modules', dep))
  })
  const env = (): NodeJS.ProcessEnv => ({
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))),
    NO_COLOR: '1',
  })

  it('Jest, configured by the block, runs jest.* on the wheel', async () => {
    const dir = join(project, 'jest')
    mkdirSync(dir)
    writeFileSync(join(dir, 'jest.config.json'), configBlock('jest.config.json'))
    writeFileSync(join(dir, 'wheel.test.cjs'), jestTest)
    const { stdout, stderr } = await promisify(execFile)(bin('jest'), ['--ci', '--json'], { cwd: dir, env: env() }).catch(
      (e: { stdout: string; stderr: string }) => e,
    )
    expect(stdout, stderr).toContain('"numPassedTests":1')
    expect(stdout, stderr).toContain('"numFailedTests":0')
  })

  it('Vitest, configured by the block, runs vi.* on the wheel', async () => {
    const dir = join(project, 'vitest')
    mkdirSync(dir)
    writeFileSync(join(dir, 'vitest.config.ts'), configBlock('vitest.config.ts'))
    writeFileSync(join(dir, 'wheel.test.ts'), vitestTest)
    const { stdout, stderr } = await promisify(execFile)(bin('vitest'), ['run'], { cwd: dir, env: env() }).catch(
      (e: { stdout: string; stderr: string }) => e,
    )
    expect(stdout, stderr).toMatch(/Tests\s+1 passed/)
  })
})
