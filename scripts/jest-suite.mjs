#!/usr/bin/env node
/**
 * Runs Jest's own fake-timer tests on `timing-wheel/jest-environment`.
 *
 *   node scripts/jest-suite.mjs <jest checkout> [--default | --compare] [--list]
 *
 * <jest checkout> is jestjs/jest at the installed Jest's version (its `packages/` and `e2e/`
 * folders are enough), never part of this repository; it needs no install and no build: the
 * installed Jest runs it. Three kinds of test run, each file unchanged:
 *
 * - Unit tests of the modern fake timers (`packages/jest-fake-timers/src/__tests__/`
 *   `modernFakeTimers.test.ts` and `sinon-integration.test.ts`). They construct
 *   `new FakeTimers({ global, config })` from `../modernFakeTimers`; that import is sent to the
 *   class the environment really runs: the installed `@jest/fake-timers`' `ModernFakeTimers`
 *   with `onTimingWheel` applied, as `timing-wheel/jest-environment` does to the one it makes,
 *   and `@sinonjs/fake-timers` sent to `timing-wheel/fake-timers` (as in fake-timers' own
 *   suite), so that `sinon-integration`'s mock of it stands for the module clocks come from.
 * - The environments' own tests (`jest-environment-node`'s `node_environment.test.ts`,
 *   `jest-environment-jsdom`'s `jsdom_environment.test.ts`): their `../` is this package's
 *   environment (a custom resolver sends it there).
 * - End-to-end tests (`e2e/__tests__/fakeTimers.test.ts`, `fakeTimersLegacy.test.ts`,
 *   `fakeTimersTemporal.test.ts`, `fakePromises.test.ts`): each runs Jest on a fixture
 *   project and checks its exit code and output. Their harness (`e2e/runJest.ts`, which needs
 *   Jest's repository built) is replaced by one that runs the installed Jest on the fixture,
 *   with the fixture's own configuration and `--testEnvironment` set to this package's
 *   environment (its jsdom one where the fixture asks for jsdom). `set-timer-tick-mode`, a
 *   fixture no e2e test runs, and `test-retries`' `waitBeforeRetryFakeTimers.test.js` (the
 *   fake-timer case of `testRetries.test.ts`) are run the same way and counted on their own.
 *   The fake-promises fixtures need the `promise` package: it is installed into
 *   `<checkout>/e2e/fake-promises/node_modules` if missing, at the version Jest pins.
 *
 * `--default` runs the same files on Jest as installed: the class from `@jest/fake-timers` on
 * its `@sinonjs/fake-timers`, Jest's environments, the fixtures on their own environments.
 * TypeScript test files are compiled with `typescript`'s `transpileModule`, then
 * `babel-plugin-jest-hoist` (what Jest's own Babel setup does for `jest.mock`). On a Node
 * without `Temporal` (20), temporal-polyfill stands in, so the Temporal tests run rather
 * than skip. Jest's legacy fake timers (`legacyFakeTimers.test.ts`) are not run as unit
 * tests: the environment leaves them as they are, and the legacy fixtures check that under
 * it. Prints each file's counts and every failing test; `--list` also prints the first line
 * of each failure's message and the output of each fixture run that failed.
 *
 * `--compare` runs every fixture of `e2e/fake-timers`, `fake-timers-legacy`, `fake-promises` and
 * `fake-timers-temporal` twice, on Jest's environment and on this package's, and says which
 * give a different output (exit code, stdout and stderr, times left out); `--list` prints the
 * lines that differ.
 *
 * Not part of `npm test`: it needs a checkout. `npm run suite:jest -- <checkout>` builds first
 * when dist/ is stale.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '..')
const require = createRequire(import.meta.url)
const args = process.argv.slice(2)
const checkout = args.find((a) => !a.startsWith('--'))
const onDefault = args.includes('--default')
const list = args.includes('--list')
const compare = args.includes('--compare')

const fail = (message) => {
  console.error(`jest-suite: ${message}`)
  process.exit(2)
}
if (checkout === undefined) fail('usage: node scripts/jest-suite.mjs <jest checkout> [--default | --compare] [--list]')
const root = resolve(checkout)
const unitDir = join(root, 'packages', 'jest-fake-timers', 'src', '__tests__')
const e2eDir = join(root, 'e2e')
if (!existsSync(join(unitDir, 'modernFakeTimers.test.ts'))) fail(`${unitDir} has no modernFakeTimers.test.ts: not a Jest checkout`)
const dist = join(repo, 'dist', 'cjs', 'jest-environment')
const ours = { node: join(dist, 'index.js'), jsdom: join(dist, 'jsdom.js') }
if ((!onDefault || compare) && !existsSync(join(dist, 'on-timing-wheel.js'))) fail(`${dist}/on-timing-wheel.js is missing: run npm run build first`)

const installed = JSON.parse(readFileSync(require.resolve('jest/package.json'), 'utf8')).version
const checkedOut = JSON.parse(readFileSync(join(root, 'packages', 'jest-fake-timers', 'package.json'), 'utf8')).version

// Node 20 has no Temporal, and Jest's Temporal tests skip without one: the polyfill this
// repository pins stands in, loaded before Jest in this process, its workers and the fixtures' Jest.
let temporal = 'Temporal: native'
if (!('Temporal' in globalThis)) {
  const polyfill = require.resolve('temporal-polyfill/global')
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(polyfill)}`.trim()
  await import(polyfill)
  temporal = `Temporal: temporal-polyfill ${JSON.parse(readFileSync(join(dirname(polyfill), 'package.json'), 'utf8')).version}`
}

console.log(`installed Jest ${installed}; checkout's @jest/fake-timers ${checkedOut}; ${temporal}`)

const unitFiles = ['modernFakeTimers.test.ts', 'sinon-integration.test.ts'].map((f) => join(unitDir, f))
// The environments' own tests import the environment as `../`: sent to this package's.
const environmentTests = {
  node: join(root, 'packages', 'jest-environment-node', 'src', '__tests__'),
  jsdom: join(root, 'packages', 'jest-environment-jsdom', 'src', '__tests__'),
}
const environmentFiles = [join(environmentTests.node, 'node_environment.test.ts'), join(environmentTests.jsdom, 'jsdom_environment.test.ts')]
const e2eFiles = ['fakeTimers.test.ts', 'fakeTimersLegacy.test.ts', 'fakeTimersTemporal.test.ts', 'fakePromises.test.ts'].map((f) =>
  join(e2eDir, '__tests__', f),
)
// Fixtures run here on their own and counted: one no e2e test runs, and the fake-timer case of
// testRetries.test.ts (the rest of that file is not about timers).
const fixtureRuns = [
  { fixture: 'fake-timers/set-timer-tick-mode', args: [] },
  { fixture: 'test-retries', args: ['waitBeforeRetryFakeTimers.test.js'] },
]

// The fake-promises fixtures load the `promise` package that Jest's repository pins.
const promises = join(e2eDir, 'fake-promises')
if (!existsSync(join(promises, 'node_modules', 'promise'))) {
  console.log(`installing promise@8.3.0 into ${promises}/node_modules`)
  writeFileSync(join(promises, 'package.json'), '{"private":true}\n')
  const npm = spawnSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', 'promise@8.3.0'], { cwd: promises, stdio: 'inherit' })
  rmSync(join(promises, 'package.json'))
  if (npm.status !== 0) fail('npm install of promise@8.3.0 failed')
}

const scratch = mkdtempSync(join(tmpdir(), 'jest-suite-'))
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }))
const at = (name) => JSON.stringify(require.resolve(name))

// TypeScript out, then Jest's hoisting of `jest.mock` above the imports, as Jest's own Babel setup does.
const transform = join(scratch, 'transform.cjs')
writeFileSync(
  transform,
  `const ts = require(${at('typescript')})
const babel = require(${at('@babel/core')})
const hoist = require(${at('babel-plugin-jest-hoist')})
module.exports = {
  process(source, filename) {
    const js = /\\.tsx?$/.test(filename)
      ? ts.transpileModule(source, {
          fileName: filename,
          compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, inlineSourceMap: true, inlineSources: true },
        }).outputText
      : source
    return { code: babel.transformSync(js, { filename, babelrc: false, configFile: false, plugins: [hoist], sourceMaps: 'inline', inputSourceMap: true }).code }
  },
}
`,
)

// The class under test: what jest-environment-node makes, and what ours makes of it.
const modern = join(scratch, 'modern-fake-timers.cjs')
writeFileSync(
  modern,
  onDefault
    ? `module.exports = { __esModule: true, default: require(${at('@jest/fake-timers')}).ModernFakeTimers }\n`
    : `const { ModernFakeTimers } = require(${at('@jest/fake-timers')})
const { onTimingWheel } = require(${JSON.stringify(join(dist, 'on-timing-wheel.js'))})
class TimingWheelFakeTimers extends ModernFakeTimers {
  constructor(options) {
    super(options)
    onTimingWheel({ fakeTimersModern: this, global: options.global })
  }
}
module.exports = { __esModule: true, default: TimingWheelFakeTimers }
`,
)

// `../` from an environment's tests is that environment: this package's, or Jest's as installed.
const environment = (kind) => (onDefault ? require.resolve(`jest-environment-${kind}`) : ours[kind])
const resolver = join(scratch, 'resolver.cjs')
writeFileSync(
  resolver,
  `const targets = new Map(${JSON.stringify(Object.entries(environmentTests).map(([kind, dir]) => [dir, environment(kind)]))})
module.exports = (request, options) =>
  (request === '../' || request === '..') && targets.has(options.basedir) ? targets.get(options.basedir) : options.defaultResolver(request, options)
`,
)

// e2e/runJest.ts's contract (exit code, stdout, stderr of Jest run in a fixture), on the installed Jest.
const runJest = join(scratch, 'run-jest.cjs')
const fixtureLog = join(scratch, 'failing-fixtures.log')
writeFileSync(
  runJest,
  `const { spawnSync } = require('node:child_process')
const { appendFileSync, readFileSync } = require('node:fs')
const path = require('node:path')
// Jest 30.5 turns on an agent reporter when these are set; the e2e harness clears them too.
const agents = ['AI_AGENT', 'AUGMENT_AGENT', 'CLAUDECODE', 'CLAUDE_CODE', 'CODEX_SANDBOX', 'CODEX_THREAD_ID', 'CURSOR_AGENT', 'GEMINI_CLI', 'GOOSE_PROVIDER', 'OPENCODE']
const make = (environments) => function runJest(dir, args = [], options = {}) {
  dir = path.resolve(${JSON.stringify(e2eDir)}, dir)
  const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...options.env }
  for (const name of agents) delete env[name]
  const own = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).jest?.testEnvironment ?? 'node'
  const environment = environments === null ? [] : ['--testEnvironment', environments[own] ?? own]
  const run = spawnSync(process.execPath, [${JSON.stringify(join(dirname(require.resolve('jest/package.json')), 'bin', 'jest.js'))}, '--ci', '--no-watchman', ...environment, ...args], { cwd: dir, env, encoding: 'utf8' })
  // A failing fixture's own output, for --list: the e2e test only sees its exit code.
  if (run.status !== 0) appendFileSync(${JSON.stringify(fixtureLog)}, \`--- \${path.relative(${JSON.stringify(e2eDir)}, dir)} \${args.join(' ')}: exit \${run.status}\n\${run.stderr}\n\`)
  const trim = (s) => (options.keepTrailingNewline ? s : s.replace(/\\n$/, ''))
  return { exitCode: run.status, stdout: trim(run.stdout), stderr: trim(run.stderr) }
}
const runJest = make(${JSON.stringify(onDefault ? null : ours)})
module.exports = { __esModule: true, default: runJest, runJest, make }
`,
)

// --compare: every fixture of these folders on Jest's environment and on this package's; the
// output (exit code, stdout, stderr) must be the same but for times.
if (compare) {
  const { make } = require(runJest)
  const fixtures = ['fake-timers', 'fake-timers-legacy', 'fake-promises']
    .flatMap((group) => readdirSync(join(e2eDir, group)).map((d) => `${group}/${d}`))
    .concat('fake-timers-temporal')
    .filter((f) => existsSync(join(e2eDir, f, 'package.json')))
    .sort()
  const output = (run) => `exit ${run.exitCode}\n${run.stdout}\n${run.stderr}`.replace(/ \(\d+ ms\)/g, '').replace(/^Time:.*$/gm, 'Time:').split('\n')
  let differ = 0
  for (const fixture of fixtures) {
    const [jest, wheel] = [make(null), make(ours)].map((run) => output(run(fixture)))
    const only = (a, b) => a.filter((line) => !b.includes(line))
    const diff = [...only(jest, wheel).map((l) => `- ${l}`), ...only(wheel, jest).map((l) => `+ ${l}`)]
    if (diff.length > 0) differ++
    console.log(`e2e/${fixture}: ${diff.length === 0 ? 'same output' : 'output differs'}`)
    if (list) for (const line of diff) console.log(`    ${line}`)
  }
  console.log(`${fixtures.length - differ} of ${fixtures.length} fixtures give the same output on timing-wheel/jest-environment as on Jest's own`)
  process.exit(0)
}

const config = {
  rootDir: root,
  roots: [unitDir, ...Object.values(environmentTests), join(e2eDir, '__tests__')],
  testMatch: [...unitFiles, ...environmentFiles, ...e2eFiles],
  resolver,
  testEnvironment: 'node',
  transform: { '\\.[cm]?[jt]s$': transform },
  transformIgnorePatterns: ['/node_modules/', `^${scratch}/`],
  moduleNameMapper: {
    '^@jest/test-utils$': join(root, 'packages', 'test-utils', 'src', 'index.ts'),
    '^\\.\\./modernFakeTimers$': modern,
    '^\\.\\./runJest$': runJest,
    // As in fake-timers' own suite: the module clocks are installed with is this package's.
    ...(onDefault ? {} : { '^@sinonjs/fake-timers$': join(repo, 'dist', 'cjs', 'fake-timers', 'index.js') }),
  },
  // The checkout has no node_modules: its sources' imports are this repository's.
  modulePaths: [join(repo, 'node_modules')],
  cacheDirectory: join(scratch, 'cache'),
  testTimeout: 120_000,
}

const { runCLI } = await import('jest')
const { results } = await runCLI(
  { config: JSON.stringify(config), ci: true, maxWorkers: 2, silent: true, watchman: false, _: [], $0: 'jest-suite' },
  [root],
)

let passed = 0
let failed = 0
const show = (name, good, bad, skipped, failures, note = '') => {
  passed += good
  failed += bad
  console.log(`${name}: ${good} passed, ${bad} failed${skipped > 0 ? `, ${skipped} skipped` : ''}${note}`)
  for (const { title, messages } of failures) {
    console.log(`  x ${title}`)
    if (list) for (const m of messages) console.log(`      ${String(m).split('\n').find((l) => l.trim() !== '') ?? ''}`)
  }
}
for (const file of [...results.testResults].sort((a, b) => a.testFilePath.localeCompare(b.testFilePath))) {
  const tests = file.testResults
  const count = (status) => tests.filter((t) => t.status === status).length
  const failures = tests.filter((t) => t.status === 'failed').map((t) => ({ title: t.fullName, messages: t.failureMessages }))
  // A file that did not run counts as one failure, so the total cannot look better for it.
  if (file.testExecError) failures.push({ title: '(the file did not run)', messages: [file.testExecError.message] })
  show(relative(root, file.testFilePath), count('passed'), failures.length, count('pending') + count('skipped'), failures)
}

// The fixtures run on their own: as the harness runs them, with their tests counted.
const harness = require(runJest).default
for (const { fixture, args: own } of fixtureRuns) {
  const out = join(scratch, `${fixture.replace(/\W/g, '-')}.json`)
  harness(fixture, [...own, '--json', '--outputFile', out])
  if (!existsSync(out)) {
    show(`e2e/${fixture} ${[...own, ''].join(' ')}(fixture)`, 0, 1, 0, [{ title: 'Jest did not run', messages: [] }])
    continue
  }
  const json = JSON.parse(readFileSync(out, 'utf8'))
  const failures = json.testResults.flatMap((f) => [
    ...f.assertionResults.filter((t) => t.status === 'failed').map((t) => ({ title: t.fullName, messages: t.failureMessages })),
    ...(f.assertionResults.length === 0 && f.status === 'failed' ? [{ title: `(${relative(e2eDir, f.name)} did not run)`, messages: [f.message] }] : []),
  ])
  show(`e2e/${fixture} ${[...own, ''].join(' ')}(fixture)`, json.numPassedTests, failures.length, json.numPendingTests, failures)
}

if (list && existsSync(fixtureLog)) {
  console.log('Output of the fixture runs that failed (an expected failure, as in fakeTimersLegacy, included):')
  console.log(readFileSync(fixtureLog, 'utf8').replace(/^/gm, '    '))
}
console.log(`${onDefault ? `Jest ${installed} as installed` : 'timing-wheel/jest-environment'}: ${passed} passed, ${failed} failed`)
process.exit(0)
