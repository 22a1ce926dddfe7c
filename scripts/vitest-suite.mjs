#!/usr/bin/env node
/**
 * Runs Vitest's own fake-timer tests with `timing-wheel/vitest/setup` as the one setup file.
 *
 *   node scripts/vitest-suite.mjs <vitest checkout> [--default [--sinon-15.5]] [--list]
 *
 * <vitest checkout> is vitest-dev/vitest at the tag of the installed Vitest (its
 * `test/core` and `packages/vitest/src` folders are enough), never part of this
 * repository. The files run are Vitest's tests of its timers: the `FakeTimers` suite
 * (under node and jsdom), `getMockedSystemTime`, fetch under fake timers, the date mock,
 * `vi.waitFor`/`vi.waitUntil`, `expect.poll` and the RPC timer count. The suite imports
 * Vitest's `FakeTimers` class from Vitest's sources; that import is sent to this
 * package's class (the one the setup file gives `vi`), as fake-timers' own suite is sent
 * to this package's module. `--default` runs the same files on Vitest as installed: no
 * setup file, and the class from Vitest's sources on the fake-timers that Vitest 4 bundles
 * (15.0); with `--sinon-15.5` on fake-timers 15.5, the version `timing-wheel/fake-timers`
 * follows, to tell a change of fake-timers from a difference of this package.
 * Prints each file's counts and every failing test; `--list` also prints the messages.
 *
 * Not part of `npm test`: it needs a checkout. Build first (`npm run build`).
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startVitest } from 'vitest/node'

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '..')
const require = createRequire(import.meta.url)
const args = process.argv.slice(2)
const checkout = args.find((a) => !a.startsWith('--'))
const onDefault = args.includes('--default')
const list = args.includes('--list')
const sinon = args.includes('--sinon-15.5') ? '@sinonjs/fake-timers' : 'fake-timers-15.0.0'

const fail = (message) => {
  console.error(`vitest-suite: ${message}`)
  process.exit(2)
}
if (checkout === undefined) fail('usage: node scripts/vitest-suite.mjs <vitest checkout> [--default] [--list]')
const core = join(resolve(checkout), 'test', 'core')
if (!existsSync(join(core, 'test', 'fixtures', 'timers.suite.ts'))) fail(`${core} has no test/fixtures/timers.suite.ts: not a Vitest checkout`)
const ours = join(repo, 'dist', 'lib', 'vitest', 'fake-timers.js')
if (!onDefault && !existsSync(ours)) fail(`${ours} is missing: run npm run build first`)

const files = [
  'test/timers-node.test.ts',
  'test/timers-jsdom.test.ts',
  'test/timers-getMockedSystemTime.test.ts',
  'test/timers-queueMicrotask.test.ts',
  'test/date-mock.test.ts',
  'test/wait.test.ts',
  'test/expect-poll.test.ts',
  'test/rpc.spec.ts',
]
const pkg = (name) => dirname(require.resolve(`${name}/package.json`))
const alias = onDefault
  ? [
      // Vitest's sources import what its build bundles: fake-timers 15.0 and its own utils.
      { find: /^@sinonjs\/fake-timers$/, replacement: pkg(sinon) },
      { find: /^@vitest\/utils\/(.*)$/, replacement: `${pkg('@vitest/utils')}/dist/$1.js` },
    ]
  : [{ find: /^.*\/packages\/vitest\/src\/integrations\/mock\/timers$/, replacement: ours }]

const vitest = await startVitest(
  'test',
  files.map((f) => join(core, f)),
  {
    config: false,
    root: core,
    watch: false,
    setupFiles: onDefault ? [] : [fileURLToPath(import.meta.resolve('timing-wheel/vitest/setup'))],
    reporters: [{}],
    testTimeout: 10_000,
  },
  { resolve: { alias }, server: { fs: { strict: false } } },
)
let passed = 0
let failed = 0
for (const module of vitest?.state.getTestModules() ?? []) {
  const tests = [...module.children.allTests()]
  const bad = tests.filter((t) => t.result().state === 'failed')
  const good = tests.filter((t) => t.result().state === 'passed')
  passed += good.length
  failed += bad.length
  console.log(`${module.relativeModuleId}: ${good.length} passed, ${bad.length} failed${module.state() === 'failed' && tests.length === 0 ? ' (did not load: ' + module.errors().map((e) => e.message).join('; ') + ')' : ''}`)
  for (const t of bad) {
    console.log(`  x ${t.fullName}`)
    if (list) for (const e of t.result().errors ?? []) console.log(`      ${String(e.message).split('\n')[0]}`)
  }
}
console.log(`${onDefault ? `Vitest as installed, on ${sinon}` : 'timing-wheel/vitest/setup'}: ${passed} passed, ${failed} failed`)
await vitest?.close()
process.exit(0)
