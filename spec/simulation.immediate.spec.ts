/**
 * Issue 39's hole 3 for simulation hosts: a storage layer on `process.nextTick` and
 * `setImmediate` (taken when it loads, through the preload) runs under the simulation's
 * `install` as on Node. A host's `setImmediate` runs in the ms it was queued, after the
 * timers due then (Node's check phase), not 1 ms later; so its events come in Node's order,
 * each flush and ack within 1 ms of Node's time after its put, for the same program (run on
 * real Node in a child process),
 * and an immediate queued in the last ms of `run` or `runAsync` is not lost at `uninstall`.
 * Runs on dist/.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const preload = join(root, 'dist', 'lib', 'simulation', 'preload.js')
const exec = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'timing-wheel-immediate-'))

// The storage layer: a put is flushed on nextTick and acknowledged on setImmediate.
writeFileSync(
  join(dir, 'storage.mjs'),
  `const tick = process.nextTick, soon = setImmediate
export const storage = (log) => ({ put: (key) => tick(() => { log('flushed ' + key); soon(() => log('acked ' + key)) }) })
`,
)

// The program: a put at 10 ms with a deadline at 11 ms (the ack must come first, as on Node);
// two timers due at 20 ms, the first putting (both run before the ack); a put at 30 ms, the
// run's last ms (its ack must not be lost). Times are ms from the start.
writeFileSync(
  join(dir, 'program.mjs'),
  `import { storage } from './storage.mjs'
export const program = (now) => {
  const events = []
  const log = (e) => events.push([e, now()])
  const s = storage(log)
  setTimeout(() => (log('put a'), s.put('a')), 10)
  setTimeout(() => log('deadline a'), 11)
  setTimeout(() => (log('put b'), s.put('b')), 20)
  setTimeout(() => log('other b'), 20)
  setTimeout(() => (log('put c'), s.put('c')), 30)
  return events
}
`,
)

writeFileSync(
  join(dir, 'main.mjs'),
  `import { program } from './program.mjs'
const mode = process.argv[2]
if (mode === 'real') {
  const t0 = performance.now()
  const events = program(() => performance.now() - t0)
  setTimeout(() => console.log(JSON.stringify(events)), 60)
} else {
  const { Simulation: S } = await import(${JSON.stringify(join(root, 'dist/lib/simulation/index.js'))})
  const sim = S.install({ seed: 1 })
  let events
  S.addHost(sim, 'db', () => { events = program(() => Date.now()) })
  if (mode === 'async') await S.runAsync(sim, 30)
  else S.run(sim, 30)
  S.uninstall(sim)
  console.log(JSON.stringify(events))
}
`,
)

// A storage layer in a message handler: its flush and ack come in the delivery's ms, before
// a host timer due 1 ms later, as Node would run a socket callback's ticks and immediates.
writeFileSync(
  join(dir, 'message.mjs'),
  `import { storage } from './storage.mjs'
const { Simulation: S } = await import(${JSON.stringify(join(root, 'dist/lib/simulation/index.js'))})
const sim = S.install({ seed: 1, network: { latency: 5 } })
const events = []
const log = (e) => events.push([e, Date.now()])
S.addHost(sim, 'db', (h) => {
  const s = storage(log)
  S.onMessage(h, (_from, key) => (log('got ' + key), s.put(key)))
  setTimeout(() => log('timer'), 6)
})
S.addHost(sim, 'client', (h) => S.send(h, 'db', 'k'))
S.run(sim, 10)
S.uninstall(sim)
console.log(JSON.stringify(events))
`,
)

type Events = Array<[string, number]>
const run = async (mode: 'real' | 'sim' | 'async'): Promise<Events> =>
  JSON.parse((await exec(process.execPath, ['--import', preload, join(dir, 'main.mjs'), mode], { cwd: dir })).stdout) as Events

const order = (events: Events): string[] => events.map(([e]) => e)

describe.skipIf(!existsSync(preload))("a host's setImmediate in the ms it was queued (Node's check phase)", () => {
  it('a storage layer on nextTick and setImmediate: Node’s order, within 1 ms of Node’s times; the last ms’s ack kept by run and runAsync', async () => {
    const [sim, async] = await Promise.all([run('sim'), run('async')])
    const expected = ['put a', 'flushed a', 'acked a', 'deadline a', 'put b', 'flushed b', 'other b', 'acked b', 'put c', 'flushed c', 'acked c']
    expect(order(sim)).toEqual(expected)
    expect(async).toEqual(sim)
    expect(sim.map(([, at]) => at)).toEqual([10, 10, 10, 11, 20, 20, 20, 20, 30, 30, 30])
    // Real Node, unless the machine stalled it (then timers due apart run in one turn, an
    // order the program cannot promise, or a callback runs a ms late): up to twenty tries
    // (under a load of 10 on 2 cores, eight were seen to stall, all of them).
    // Its timers fire late by their own lateness, the same for every clock; what the storage
    // layer adds is each flush's and ack's time after its put: within 1 ms of Node's.
    const afterPut = (events: Events): number[] =>
      events.flatMap(([e, at]) => (/^(flushed|acked) /.test(e) ? [at - events.find(([p]) => p === `put ${e.split(' ')[1]}`)![1]] : []))
    const close = (real: Events): boolean =>
      real.length === sim.length && real.every(([e], j) => e === sim[j]![0]) && afterPut(real).every((d, j) => Math.abs(d - afterPut(sim)[j]!) <= 1)
    let real: Events = []
    for (let i = 0; i < 20 && !close(real); i++) real = await run('real')
    expect(order(real)).toEqual(expected)
    expect(afterPut(sim)).toEqual([0, 0, 0, 0, 0, 0])
    afterPut(real).forEach((d) => expect(d).toBeLessThanOrEqual(1))
  }, 60_000)

  it('a storage layer in a message handler: flushed and acked in the delivery’s ms, before a timer due 1 ms later', async () => {
    const { stdout } = await exec(process.execPath, ['--import', preload, join(dir, 'message.mjs')], { cwd: dir })
    expect(JSON.parse(stdout)).toEqual([['got k', 5], ['flushed k', 5], ['acked k', 5], ['timer', 6]])
  }, 20_000)
})
