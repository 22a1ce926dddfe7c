/**
 * The package as a user installs it (spec/support/packed-project.ts): every entry imported
 * and required on Node, the core bundled with esbuild, and required by a Jest test run with
 * Jest's defaults. `npm test` builds first, so this is what would be published. Its types
 * under each `moduleResolution` are checked by spec/heavy/packed-types.spec.ts
 * (`npm run test:heavy`), a tsc run each.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import { bin, env, esmOnly, exec, packedProject, root } from './support/packed-project.js'

let project = ''
let entries: readonly string[] = []
let write: (name: string, text: string) => string = () => ''
const node = async (file: string): Promise<string> => (await exec(process.execPath, [file], { cwd: project, env })).stdout

beforeAll(async () => {
  ;({ dir: project, entries, write } = await packedProject())
}, 60_000)

describe('the packed package', () => {
  it('ships dist/ and the license, not the sources, specs or benchmarks', async () => {
    const { stdout } = await exec('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: root, env })
    const files = (JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path)
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'])
    expect(files).toContain('dist/cjs/index.js')
    // Nothing exports a CommonJS Vitest entry: none is shipped.
    expect(files.filter((f) => f.startsWith('dist/cjs/vitest/'))).toEqual([])
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

  /** Bytes of a minified esbuild bundle of `code`, and the files that put code in it. */
  const bundle = async (code: string, platform: 'browser' | 'node' = 'browser'): Promise<{ bytes: number; inputs: string[] }> => {
    const result = await build({
      stdin: { contents: code, resolveDir: project, loader: 'js' },
      platform,
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

  // For Node too (a server bundle, a Lambda): the `module` condition, which esbuild sets on
  // every platform, picks fp-ts' ES modules before the `node` one picks its CommonJS build.
  it.each(['browser', 'node'] as const)(
    'bundles create, add, remove and advanceClock in at most 30 KB for the %s platform, with fp-ts’s ES modules',
    async (platform) => {
      const { bytes, inputs } = await bundle(core(`import * as TimingWheel from 'timing-wheel/timing-wheel'`), platform)
      expect(bytes).toBeLessThanOrEqual(30_000)
      expect(inputs.filter((f) => f.includes('fp-ts/lib/') || f.includes('io-ts'))).toEqual([])
    },
  )

  it('keeps import \'timing-wheel/vitest/setup\' in a bundle: it patches vi when imported (sideEffects)', async () => {
    const { inputs } = await bundle(`import 'timing-wheel/vitest/setup'`, 'node').catch(() => ({ inputs: ['unbundlable'] }))
    expect(inputs.some((f) => f.endsWith('dist/lib/vitest/setup.js'))).toBe(true)
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
