/**
 * `timing-wheel/jest-environment` under a real Jest: the fixture in `spec/jest/` uses every
 * `jest.*` timer function. Run under Jest's default Node environment and under ours (the
 * built `dist/`: `npm test` builds first), every test gives the same result except the
 * ones written to tell the clocks apart, which pass only on the wheel.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const ours = join(root, 'dist', 'lib', 'jest-environment', 'index.js')
const oursJsdom = join(root, 'dist', 'lib', 'jest-environment', 'jsdom.js')

/** Runs the fixture under `environment`; returns each test's status by name. */
const runJest = async (environment: string): Promise<Record<string, string>> => {
  const out = join(mkdtempSync(join(tmpdir(), 'jest-')), 'results.json')
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')))
  // pretendToBeVisual gives jsdom its requestAnimationFrame; the Node environments ignore it.
  const args = ['--ci', '--rootDir', 'spec/jest', '--testMatch', '**/*.test.cjs', '--testEnvironment', environment]
  args.push('--testEnvironmentOptions', '{"pretendToBeVisual":true}', '--json', '--outputFile', out)
  // Jest exits non-zero when a test fails, which the default environment's run expects.
  await promisify(execFile)(join(root, 'node_modules', '.bin', 'jest'), args, { cwd: root, env }).catch(() => undefined)
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>
  }
  return Object.fromEntries(report.testResults.flatMap((f) => f.assertionResults.map((a) => [a.title, a.status])))
}

const nonFinite = 'tells the clocks apart: a non-finite advance throws on the wheel'
const refusal = 'tells the clocks apart: a refusal names the jest call and its value, from this line'
// jsdom's own AbortSignal.timeout arms the window's setTimeout, which Jest fakes: only Node's is apart.
const abortSignal = 'tells the clocks apart: AbortSignal.timeout aborts on the wheel’s time'
const settles = 'tells the clocks apart: a queue started from queueMicrotask after a promise runs every task'
const autoSettles = 'tells the clocks apart: auto-advance settles a job a promise queues before time moves'

describe('timing-wheel/jest-environment', () => {
  it.each([
    ['node', ours, [nonFinite, refusal, abortSignal, settles, autoSettles]],
    ['jsdom', oursJsdom, [nonFinite, refusal, settles, autoSettles]],
  ])('runs every jest.* timer function on the wheel with the results of Jest’s %s fake timers', async (jests, wheels, apart) => {
    const [onDefault, onWheel] = await Promise.all([runJest(jests), runJest(wheels)])
    expect(Object.keys(onWheel).length).toBeGreaterThanOrEqual(10)
    expect(Object.values(onWheel).every((s) => s === 'passed')).toBe(true)
    for (const name of apart) expect(onDefault[name]).toBe('failed')
    expect({ ...onDefault, ...Object.fromEntries(apart.map((name) => [name, 'passed'])) }).toEqual(onWheel)
  })
})
