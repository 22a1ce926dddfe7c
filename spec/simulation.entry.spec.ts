/**
 * `timing-wheel/simulation` imports without fast-check, its optional peer, as an ES module
 * and as CommonJS: the built package is copied into a scratch project whose node_modules
 * has the dependencies (linked from ours) and no fast-check. Only `faultScheduleArb`
 * needs it, and says so. Runs on dist/ (`npm run build` first, as `npm test` does).
 */
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const exec = promisify(execFile)
let project = ''

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'timing-wheel-no-fast-check-'))
  const pkg = join(project, 'node_modules', 'timing-wheel')
  mkdirSync(pkg, { recursive: true })
  cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true })
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'))
  for (const dep of ['fp-ts', 'io-ts', 'pure-rand']) symlinkSync(join(root, 'node_modules', dep), join(project, 'node_modules', dep), 'dir')
})

const program = (load: string): string => `${load}
const sim = Simulation.create({ seed: 1 })
const a = Simulation.addHost(sim, 'a', () => undefined)
Simulation.addHost(sim, 'b', (h) => Simulation.onMessage(h, (from, m) => Simulation.event(h, 'got', m)))
Simulation.applySchedule(sim, { seed: 1, faults: [{ kind: 'crash', at: 5, duration: 5, host: 'b' }] })
Simulation.send(a, 'b', 'hello')
Simulation.run(sim, 20)
console.log(JSON.stringify(Simulation.log(sim).map((e) => e.kind + (e.kind === 'fault' ? ' ' + e.action : ''))))
try { Simulation.faultScheduleArb({ hosts: ['a'], window: 10 }) } catch (e) { console.log(e.message) }
`

describe.skipIf(!existsSync(join(root, 'dist', 'cjs', 'simulation', 'index.js')))('the entry without fast-check installed', () => {
  it.each([
    ['ESM', 'main.mjs', "import { Simulation } from 'timing-wheel/simulation'"],
    ['CJS', 'main.cjs', "const { Simulation } = require('timing-wheel/simulation')"],
  ])('%s: imports, runs, and faultScheduleArb names the missing peer', async (_kind, file, load) => {
    writeFileSync(join(project, file), program(load))
    await expect(exec(process.execPath, ['-e', "require.resolve('fast-check')"], { cwd: project })).rejects.toThrow()
    const { stdout } = await exec(process.execPath, [file], { cwd: project })
    expect(stdout.trim().split('\n')).toEqual([
      JSON.stringify(['host', 'host', 'message', 'event', 'fault crash', 'fault restart']),
      'faultScheduleArb needs fast-check, an optional peer of timing-wheel: npm install --save-dev fast-check',
    ])
  })
})
