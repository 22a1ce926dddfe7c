/**
 * The package as a user installs it: `npm pack`, unpacked into a scratch project's
 * `node_modules` (its dependencies linked from ours, so nothing is fetched), then used as a
 * user would: every entry imported and required on Node, its types resolved under each
 * `moduleResolution`, the core bundled with esbuild, and required by a Jest test run with
 * Jest's defaults. `npm test` builds first, so this is what would be published.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const exec = promisify(execFile)
const bin = (name: string): string => join(root, 'node_modules', '.bin', name)
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))), NO_COLOR: '1' }

let project = ''
let entries: string[] = []
/** Entries that are ES modules only: Vitest cannot be required, nor tinypool, which the campaign's pool is. */
const esmOnly = new Set(['timing-wheel/vitest', 'timing-wheel/vitest/setup', 'timing-wheel/campaign'])

const write = (name: string, text: string): string => {
  writeFileSync(join(project, name), text)
  return name
}
const node = async (file: string): Promise<string> => (await exec(process.execPath, [file], { cwd: project, env })).stdout

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'timing-wheel-user-'))
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', project], { cwd: root, env })
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>
  await exec('tar', ['-xzf', packed!.filename], { cwd: project })
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true })
  renameSync(join(project, 'package'), join(project, 'node_modules', 'timing-wheel'))
  for (const dep of ['fp-ts', 'io-ts', 'edn-data', 'pure-rand', 'tinypool', 'fast-check', 'jest-environment-node', 'jest-environment-jsdom', 'vitest', '@types/node']) {
    symlinkSync(join(root, 'node_modules', dep), join(project, 'node_modules', dep))
  }
  write('package.json', '{ "name": "user", "private": true }\n')
  const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'timing-wheel', 'package.json'), 'utf8')) as { exports: object }
  entries = Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? 'timing-wheel' : `timing-wheel/${key.slice(2)}`))
}, 60_000)

describe('the packed package', () => {
  it('ships dist/ and the license, not the sources, specs or benchmarks', async () => {
    const { stdout } = await exec('npm', ['pack', '--dry-run', '--json'], { cwd: root, env })
    const files = (JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path)
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'])
    expect(files).toContain('dist/cjs/index.js')
    // What users run and read: the JavaScript without comments or source maps, the doc
    // comments in the declarations, where editors show them.
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([])
    const installed = join(project, 'node_modules/timing-wheel/dist')
    const doc = '`Reentrant` from a handler; either way nothing changes.' // from advanceClock's doc comment
    expect(readFileSync(join(installed, 'lib/timing-wheel/timing-wheel.js'), 'utf8')).not.toContain(doc)
    expect(readFileSync(join(installed, 'lib/timing-wheel/timing-wheel.d.ts'), 'utf8')).toContain(doc)
    expect(readFileSync(join(installed, 'cjs/timing-wheel/timing-wheel.d.ts'), 'utf8')).toContain(doc)
  })

  it('sees the same error class from both builds, and the CommonJS build’s named exports from an ES module', async () => {
    const required = entries.filter((e) => !esmOnly.has(e))
    const out = await node(
      write(
        'two-builds.mjs',
        `import { createRequire } from 'node:module'
import { TimingWheelError, PriorityQueue } from 'timing-wheel'
const require = createRequire(import.meta.url)
const cjs = require('timing-wheel')
try { cjs.PriorityQueue.add(cjs.PriorityQueue.create(), -1, 'x') } catch (e) {
  console.log(e instanceof TimingWheelError, e instanceof cjs.TimingWheelError, new Error() instanceof TimingWheelError)
}
try { PriorityQueue.add(PriorityQueue.create(), -1, 'x') } catch (e) { console.log(e instanceof cjs.TimingWheelError) }
for (const e of ${JSON.stringify(required)}) {
  const file = require.resolve(e)
  const named = Object.keys(await import(file)).filter((k) => k !== 'default')
  const esm = Object.keys(await import(e)).filter((k) => k !== 'default' && k !== 'module.exports')
  console.log(e, file.includes('/dist/cjs/'), JSON.stringify(named.sort()) === JSON.stringify(esm.sort()))
}
`,
      ),
    )
    expect(out.trim().split('\n')).toEqual(['true true false', 'true', ...required.map((e) => `${e} true true`)])
  })

  it('imports every entry on Node', async () => {
    const out = await node(write('import-all.mjs', `for (const e of ${JSON.stringify(entries)}) console.log(e, Object.keys(await import(e)).length > 0)\n`))
    expect(out.trim().split('\n')).toEqual(entries.map((e) => `${e} true`))
  })

  it('requires every entry but the Vitest one on Node, and the core works', async () => {
    const required = entries.filter((e) => !esmOnly.has(e))
    const out = await node(
      write(
        'require-all.cjs',
        `for (const e of ${JSON.stringify(required)}) console.log(e, Object.keys(require(e)).length > 0)
const { TimingWheel, Alarm } = require('timing-wheel')
const t = TimingWheel.create({ alarmPrecision: 1 })
TimingWheel.add(t, 5, 'fired')
TimingWheel.advanceClock(t, 10, (a) => console.log(Alarm.value(t, a)))
`,
      ),
    )
    expect(out.trim().split('\n')).toEqual([...required.map((e) => `${e} true`), 'fired'])
  })

  it('runs its command, timing-wheel simulate, on a user\'s .mjs campaign with what it ships', async () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'timing-wheel', 'package.json'), 'utf8')) as { bin: Record<string, string> }
    const bin = join(project, 'node_modules', 'timing-wheel', pkg.bin['timing-wheel']!)
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true)
    write(
      'echo.campaign.mjs',
      `import { Campaign } from 'timing-wheel/campaign'
import { Simulation } from 'timing-wheel/simulation'
export default Campaign.define({
  faults: { hosts: ['a', 'b'], window: 50, kinds: ['pause'] },
  duration: 100,
  setup: (schedule) => {
    const sim = Simulation.create({ seed: schedule.seed })
    Simulation.addHost(sim, 'a', (host) => Simulation.onMessage(host, () => {}))
    Simulation.addHost(sim, 'b', (host) => Simulation.setInterval(host, () => Simulation.send(host, 'a', 'hi'), 10))
    return { sim, check: () => (Simulation.messages(sim).every((m) => m.outcome === 'delivered') ? undefined : 'lost one') }
  },
})
`,
    )
    const { stdout } = await exec(process.execPath, [bin, 'simulate', 'echo.campaign.mjs', '--seeds', '0..5', '--workers', '2', '--progress', 'none'], { cwd: project, env })
    expect(stdout).toBe('6 seeds (shard 1/1), 0 failures\n')
  })

  it.each([
    ['node16', 'node16', 'mts'],
    ['nodenext', 'nodenext', 'mts'],
    ['bundler', 'esnext', 'ts'],
    ['node', 'commonjs', 'ts'],
    ['node16', 'node16', 'cts'],
  ])('resolves its types under moduleResolution %s (module %s, a .%s file)', async (resolution, module, ext) => {
    const dir = `types-${resolution}-${ext}`
    mkdirSync(join(project, dir))
    // fast-check's own declarations need `exports` (pure-rand's), which resolution `node`
    // ignores: its users type-check timing-wheel/testing, /simulation and /campaign under the other resolutions.
    const skip = (e: string): boolean =>
      (ext === 'cts' && esmOnly.has(e)) || (resolution === 'node' && (e === 'timing-wheel/testing' || e === 'timing-wheel/simulation' || e === 'timing-wheel/campaign'))
    const imports = entries.filter((e) => !skip(e)).map((e, i) => `import * as M${i} from '${e}'\nvoid M${i}`)
    write(
      `${dir}/consumer.${ext}`,
      `${imports.join('\n')}
import { PriorityQueue, TimingWheel } from 'timing-wheel'
import type { Option } from 'fp-ts/lib/Option.js'
const t = TimingWheel.create<string>({ alarmPrecision: 1 })
const next: Option<number> = TimingWheel.nextAlarmFiresAt(t)
// @ts-expect-error an Option is not a number: the fp-ts types resolved
const wrong: number = next
// @ts-expect-error the wheel's fields are not published
t.now = -123
// @ts-expect-error a wheel of strings is not a wheel of numbers
const numbers: TimingWheel.TimingWheel<number> = t
// @ts-expect-error nor is any object a queue
const queue: PriorityQueue.PriorityQueue<string> = {}
void wrong, numbers, queue
`,
    )
    write(
      `${dir}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          module,
          moduleResolution: resolution,
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          ...(resolution === 'node' ? { ignoreDeprecations: '6.0' } : {}),
        },
        include: [`consumer.${ext}`],
      }),
    )
    const run = exec(bin('tsc'), ['-p', dir], { cwd: project, env })
    await expect(run.catch((e: { stdout: string }) => Promise.reject(new Error(e.stdout)))).resolves.toBeDefined()
  }, 60_000)

  /** Bytes of a minified esbuild bundle of `code`, and the files that put code in it. */
  const bundle = async (code: string): Promise<{ bytes: number; inputs: string[] }> => {
    const result = await build({
      stdin: { contents: code, resolveDir: project, loader: 'js' },
      bundle: true,
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
    const [output] = Object.values(result.metafile.outputs)
    const inputs = Object.entries(output!.inputs).filter(([, input]) => input.bytesInOutput > 0)
    return { bytes: result.outputFiles[0]!.contents.length, inputs: inputs.map(([file]) => file) }
  }
  const core = (from: string): string => `${from}
const t = TimingWheel.create({ alarmPrecision: 1 })
TimingWheel.remove(t, TimingWheel.add(t, 5, 'x'))
TimingWheel.add(t, 7, 'y')
TimingWheel.advanceClock(t, 10, (a) => console.log(a))
`

  it('bundles create, add, remove and advanceClock in at most 30 KB, with fp-ts’s ES modules', async () => {
    const { bytes, inputs } = await bundle(core(`import * as TimingWheel from 'timing-wheel/timing-wheel'`))
    expect(bytes).toBeLessThanOrEqual(30_000)
    expect(inputs.filter((f) => f.includes('fp-ts/lib/') || f.includes('io-ts'))).toEqual([])
  })

  // The main entry's bundle holds every namespace whole, so it grows with the library: the
  // hot paths written out in one function each (see `TimingWheel.add`) took it past 40 KB.
  it('bundles the same from the main entry, whose namespaces esbuild keeps whole, in at most 41 KB', async () => {
    const { bytes, inputs } = await bundle(core(`import { TimingWheel } from 'timing-wheel'`))
    expect(bytes).toBeLessThanOrEqual(41_000)
    expect(inputs.filter((f) => f.includes('fp-ts/lib/'))).toEqual([])
  })

  it('is required by a Jest test run with Jest’s defaults', async () => {
    write(
      'clock.test.cjs',
      `const { VirtualClock } = require('timing-wheel/sim')
const { TimingWheel } = require('timing-wheel')
test('a virtual clock and a wheel under Jest', () => {
  const clock = VirtualClock.create()
  const fired = []
  clock.setTimeout(() => fired.push(clock.now), 250)
  clock.tick(1000)
  expect(fired).toEqual([250])
  expect(TimingWheel.length(TimingWheel.create({ alarmPrecision: 1 }))).toBe(0)
})
`,
    )
    const { stdout, stderr } = await exec(bin('jest'), ['--ci', '--rootDir', project, '--json'], { cwd: project, env }).catch(
      (e: { stdout: string; stderr: string }) => e,
    )
    const report = JSON.parse(stdout) as { numPassedTests: number; numFailedTests: number }
    expect(report, stderr).toMatchObject({ numPassedTests: 1, numFailedTests: 0 })
  }, 60_000)
})
