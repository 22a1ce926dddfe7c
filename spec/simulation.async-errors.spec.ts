/**
 * `onError` under `install` covers host code's async errors: a rejection nobody handles (a
 * rejected promise, an `async` timer callback throwing after an `await`) is attributed to
 * its host through the async context and follows the policy: 'record' logs it as the host's
 * event 'uncaught', 'crash' crashes that host too, 'fail' makes `runAsync` reject with it.
 * A rejection outside every host keeps Node's default (the process fails). Child processes:
 * a test runner's own rejection listeners would report these errors too. Runs on dist/.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const entry = join(root, 'dist', 'lib', 'simulation', 'index.js')
const dir = mkdtempSync(join(tmpdir(), 'timing-wheel-async-errors-'))

writeFileSync(
  join(dir, 'main.mjs'),
  `import { Simulation as S } from ${JSON.stringify(entry)}
const policy = process.argv[2]
const sim = S.install({ seed: 1, onError: policy })
S.addHost(sim, 'a', () => {
  setTimeout(() => void Promise.reject(new Error('a rejected')), 10)
})
S.addHost(sim, 'b', () => {
  setTimeout(async () => { await null; throw new Error('b threw after await') }, 20)
  setInterval(() => S.event(S.host(sim, 'b'), 'alive'), 15)
})
let outcome = 'resolved'
try { await S.runAsync(sim, 40) } catch (e) { outcome = 'rejected: ' + e.message }
const events = S.log(sim).filter((e) => e.kind === 'event').map((e) => e.host + ' ' + e.name + '@' + e.at + (e.data ? ' ' + e.data.message : ''))
console.log(JSON.stringify({ outcome, events, a: S.status(sim, 'a'), b: S.status(sim, 'b') }))
S.uninstall(sim)
if (policy === 'record') Promise.reject(new Error('outside every host'))
`,
)

const run = async (policy: string): Promise<{ code: number; out: string }> => {
  try {
    return { code: 0, out: (await promisify(execFile)(process.execPath, [join(dir, 'main.mjs'), policy], { cwd: dir })).stdout }
  } catch (e) {
    const err = e as { code: number; stdout: string }
    return { code: err.code, out: err.stdout }
  }
}

describe.skipIf(!existsSync(entry))("onError covers host code's async errors (install)", () => {
  it("'record' logs each as its host's 'uncaught' event; a rejection outside every host still fails the process", async () => {
    const { code, out } = await run('record')
    const result = JSON.parse(out) as { outcome: string; events: string[] }
    expect(result.outcome).toBe('resolved')
    expect(result.events.filter((e) => e.includes('uncaught'))).toEqual(['a uncaught@10 a rejected', 'b uncaught@20 b threw after await'])
    expect(result.events.filter((e) => e.includes('alive'))).toHaveLength(2)
    expect(code).not.toBe(0)
  }, 20_000)

  it("'crash' crashes the host (its interval stops); 'fail' rejects runAsync with the first error", async () => {
    const [crash, fail] = await Promise.all([run('crash'), run('fail')])
    const crashed = JSON.parse(crash.out) as { outcome: string; events: string[]; a: unknown; b: unknown }
    expect(crashed.outcome).toBe('resolved')
    expect(crashed.events).toEqual(['a uncaught@10 a rejected', 'b alive@15', 'b uncaught@20 b threw after await'])
    expect([crashed.a, crashed.b]).toEqual([{ up: false, paused: false }, { up: false, paused: false }])
    expect(crash.code).toBe(0)
    const failed = JSON.parse(fail.out) as { outcome: string }
    expect(failed.outcome).toBe('rejected: a rejected')
    expect(fail.code).toBe(0)
  }, 20_000)
})
