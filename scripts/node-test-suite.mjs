#!/usr/bin/env node
/**
 * Runs test files of `node:test` with `timing-wheel/node-test` imported in every test
 * process, or without it (`--default`, the baseline), and prints each file's counts,
 * every failing test, and what the probe saw (scripts/node-test/probe.mjs: how many
 * `mock.timers.enable` calls left a timing-wheel clock in place).
 *
 *   node scripts/node-test-suite.mjs <node source> [--default] [--list]
 *   node scripts/node-test-suite.mjs <dir> --files <glob or file>... [--default] [--list]
 *
 * <node source> is Node's source tree at the version that runs it (Debian's `nodejs`
 * source package, `apt-get source nodejs`, or nodejs/node at that tag), never part of
 * this repository: its `test/parallel/test-runner-mock-timers*.js` run, with
 * `--expose-internals` as their `// Flags:` line asks. With `--files`, the files given
 * run from <dir> instead (another project's suite).
 *
 * A failure is expected only where a deliberate difference of the route says it must
 * (listed in `expected` below, each with the difference); the script exits 1 on any
 * other failure, on an expected one that passes, and when the route was not in use.
 *
 * A real project, for example nearform/fast-jwt (v6.3.2, whose `test/verifier.spec.js`
 * enables `t.mock.timers` 28 times): its repository in /tmp with its dependencies
 * (`npm install --omit=dev`), then
 *
 *   node scripts/node-test-suite.mjs /tmp/fast-jwt --files test/verifier.spec.js [--default]
 *
 * Not part of `npm test`: it needs Node's sources. Build first (`npm run build`).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '..')
const args = process.argv.slice(2)
const onDefault = args.includes('--default')
const list = args.includes('--list')
const dir = args.find((a) => !a.startsWith('--'))
const filesAt = args.indexOf('--files')
const given = filesAt < 0 ? [] : args.slice(filesAt + 1).filter((a) => !a.startsWith('--'))

/**
 * Node's tests that fail on the route because of a deliberate difference, by full name,
 * with the difference. None of Node 20.19/20.20's mock-timers tests does: none reads
 * `Date.now()` inside a timer, awaits between timers, or lists an added api.
 */
const expected = new Map([])

const fail = (message) => {
  console.error(`node-test-suite: ${message}`)
  process.exit(2)
}
if (dir === undefined) fail('usage: node scripts/node-test-suite.mjs <node source> [--default] [--list]')
const root = resolve(dir)
let cwd = root
let files = given
let flags = []
if (given.length === 0) {
  cwd = join(root, 'test', 'parallel')
  if (!existsSync(join(root, 'test', 'common', 'index.js'))) fail(`${root} has no test/common/index.js: not Node's source tree`)
  files = readdirSync(cwd).filter((f) => /^test-runner-mock-timers.*\.js$/.test(f)).sort()
  if (files.length === 0) fail(`${cwd} has no test-runner-mock-timers*.js`)
  flags = ['--expose-internals']
}
const route = join(repo, 'dist', 'lib', 'node-test', 'index.js')
if (!onDefault && !existsSync(route)) fail(`${route} is missing: run npm run build first`)

const imports = [...(onDefault ? [] : [route]), join(here, 'node-test', 'probe.mjs')].flatMap((f) => ['--import', pathToFileURL(f).href])
const run = spawnSync(
  process.execPath,
  [...flags, ...imports, '--test', '--test-reporter', pathToFileURL(join(here, 'node-test', 'reporter.mjs')).href, ...files],
  { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_NO_WARNINGS: '1' } },
)
if (run.error) fail(String(run.error))

const results = []
const probes = []
for (const line of run.stdout.split('\n')) {
  if (line.startsWith('node-test-probe ')) probes.push(JSON.parse(line.slice('node-test-probe '.length)))
  else if (line.startsWith('{')) results.push(JSON.parse(line))
}
const tests = results.filter((r) => !r.suite)
let unexpected = 0
const byFile = new Map()
for (const t of tests) byFile.set(t.file, [...(byFile.get(t.file) ?? []), t])
for (const [file, ts] of byFile) {
  const bad = ts.filter((t) => t.result === 'fail')
  console.log(`${file.slice(cwd.length + 1)}: ${ts.length - bad.length} passed, ${bad.length} failed`)
  for (const t of bad) {
    const why = expected.get(t.name)
    if (why === undefined || onDefault) unexpected++
    console.log(`  x ${t.name}${why && !onDefault ? ` (expected: ${why})` : ''}`)
    if (list && t.error) console.log(`      ${t.error}`)
  }
}
const failedNames = new Set(tests.filter((t) => t.result === 'fail').map((t) => t.name))
const passedExpected = onDefault ? [] : [...expected.keys()].filter((name) => !failedNames.has(name))
for (const name of passedExpected) console.log(`  ! expected to fail, passed: ${name}`)
const enables = probes.reduce((n, p) => n + p.enables, 0)
const onWheel = probes.reduce((n, p) => n + p.onWheel, 0)
const moved = probes.filter((p) => p.moved).length
console.log(
  `probe: ${probes.length} test processes, ${moved} with the route; ${enables} mock.timers.enable calls, ${onWheel} of them put a timing-wheel clock on globalThis`,
)
const passed = tests.filter((t) => t.result === 'pass').length
console.log(`${onDefault ? "Node's own mock.timers" : 'timing-wheel/node-test'}: ${passed} passed, ${tests.length - passed} failed (${expected.size} expected)`)
if (tests.length === 0) fail(`no test ran:\n${run.stderr}`)
const routeMissing = !onDefault && (moved < probes.length || probes.length === 0)
if (routeMissing) console.log('the route was not in every test process')
process.exit(unexpected > 0 || passedExpected.length > 0 || routeMissing ? 1 : 0)
