#!/usr/bin/env node
/**
 * Runs @sinonjs/fake-timers' own test suite against timing-wheel/fake-timers.
 *
 *   node scripts/fake-timers-suite.mjs <suite> [--real] [--grep <pattern>] [--list]
 *
 * <suite> is a checkout of sinonjs/fake-timers (at least its `test/` and
 * `integration-test/` folders), never part of this repository. The suite loads the
 * library as `../src/fake-timers-src` (or `../../src/...`); a resolve hook sends those
 * requests, and `@sinonjs/fake-timers`, to this package's built module (`npm run build`
 * first). `--real` leaves them alone, to run the suite against fake-timers itself when
 * the checkout has its `src/`. The suite's own test tools (mocha, @sinonjs/referee-sinon,
 * jsdom) are installed into <suite>/node_modules if missing, at the versions the suite
 * pins. Prints the pass and fail counts and the failing tests grouped by their
 * top-level `describe`; `--list` prints every failure with its message.
 *
 * Not part of `npm test`: it needs the network once, and a checkout.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const moduleFile = resolve(here, '..', 'dist', 'lib', 'fake-timers', 'index.js')
const tools = ['mocha@11.7.5', '@sinonjs/referee-sinon@12.0.0', 'jsdom@28.1.0']

const args = process.argv.slice(2)
const suite = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--grep')
const real = args.includes('--real')
const list = args.includes('--list')
const grepAt = args.indexOf('--grep')
const grep = grepAt >= 0 ? args[grepAt + 1] : undefined

const fail = (message) => {
  console.error(`fake-timers-suite: ${message}`)
  process.exit(2)
}

if (suite === undefined) fail('usage: node scripts/fake-timers-suite.mjs <path to a sinonjs/fake-timers checkout> [--real] [--grep p] [--list]')
const root = resolve(suite)
if (!existsSync(join(root, 'test'))) fail(`${root} has no test/ folder: not a fake-timers checkout`)
if (!real && !existsSync(moduleFile)) fail(`${moduleFile} is missing: run npm run build first`)

const mochaBin = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js')
if (!existsSync(mochaBin) || !existsSync(join(root, 'node_modules', '@sinonjs', 'referee-sinon'))) {
  if (!existsSync(join(root, 'package.json'))) writeFileSync(join(root, 'package.json'), '{"private":true}\n')
  console.log(`installing ${tools.join(', ')} into ${root}/node_modules`)
  const npm = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', ...tools], { cwd: root, stdio: 'inherit' })
  if (npm.status !== 0) fail('npm install of the suite tools failed')
}

const scratch = mkdtempSync(join(tmpdir(), 'ft-suite-'))
const hook = join(scratch, 'resolve-hook.cjs')
writeFileSync(
  hook,
  `const Module = require('node:module')
const target = ${JSON.stringify(moduleFile)}
const original = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  if (/(^|\\/)src\\/fake-timers-src(\\.js)?$/.test(request) || request === '@sinonjs/fake-timers') return target
  return original.call(this, request, ...rest)
}
`,
)

const report = join(scratch, 'report.json')
const folders = ['test', 'integration-test'].filter((f) => existsSync(join(root, f)))
const mochaArgs = [
  ...(real ? [] : ['--require', hook]),
  mochaBin,
  '--timeout',
  '2000',
  '--check-leaks',
  '--reporter',
  'json',
  '--reporter-option',
  `output=${report}`,
  ...(grep !== undefined ? ['--grep', grep] : []),
  ...folders,
]
const run = spawnSync(process.execPath, ['--no-warnings', ...mochaArgs], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })
if (!existsSync(report)) {
  console.error(run.stdout, run.stderr)
  rmSync(scratch, { recursive: true, force: true })
  fail('mocha wrote no report')
}
const result = JSON.parse(readFileSync(report, 'utf8'))
rmSync(scratch, { recursive: true, force: true })

const { stats, failures } = result
console.log(`against ${real ? '@sinonjs/fake-timers (its own src)' : 'timing-wheel/fake-timers'}: ${root}`)
console.log(`tests ${stats.tests}, passing ${stats.passes}, failing ${stats.failures}, pending ${stats.pending}`)
const groups = new Map()
for (const failure of failures) {
  const top = failure.fullTitle.slice(0, failure.fullTitle.length - failure.title.length).trim().split(' ').slice(0, 3).join(' ')
  groups.set(top, (groups.get(top) ?? 0) + 1)
}
for (const [group, count] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(3)}  ${group}`)
if (list) {
  for (const failure of failures) {
    const message = String(failure.err?.message ?? '').split('\n')[0]
    console.log(`- ${failure.fullTitle}\n    ${message.slice(0, 300)}`)
  }
}
