/**
 * `npm run bench:node-test-fire`: where the node:test row's firing time goes. The row
 * (`node-test-idle.ts`) fires 100k timers once, in a fresh process, so it times the JIT's
 * warm-up as much as the firing. Here one process per configuration (the route, then
 * Node's own `mock.timers`; the route changes `MockTimers` for good) enables, arms 100k
 * timeouts an hour ahead as the row does, fires them all with one two-hour tick, and
 * resets, ROUNDS times (default 6): round 1 is the row's cold figure, the later ones the
 * same work on code the JIT has optimized. CPU ms of the process (`process.cpuUsage`,
 * which counts the compiler's threads too) per round; checksum: every timer fired, each
 * round. Uses the built `dist/` (`npm run build` first).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = join(root, 'bench', 'out', 'node-test-fire')
const rounds = Number(process.env.ROUNDS ?? 6)
const timers = 100_000

const script = `import { mock } from 'node:test'
const rounds = ${rounds}, timers = ${timers}
const cpu = (since) => { const d = process.cpuUsage(since); return (d.user + d.system) / 1000 }
const out = []
for (let r = 0; r < rounds; r++) {
  let fired = 0
  mock.timers.enable({ apis: ['setTimeout'] })
  let a = process.cpuUsage()
  for (let i = 0; i < timers; i++) setTimeout(() => fired++, 3_600_000 + ((i * 7919) % 3_600_000))
  const arm = cpu(a)
  a = process.cpuUsage()
  mock.timers.tick(7_200_000)
  const fire = cpu(a)
  mock.timers.reset()
  if (fired !== timers) throw new Error('round ' + (r + 1) + ': fired ' + fired + ' of ' + timers)
  out.push({ arm, fire })
}
console.log(JSON.stringify(out))
`

mkdirSync(dir, { recursive: true })
writeFileSync(join(dir, 'rounds.mjs'), script)
const route = join(root, 'dist', 'lib', 'node-test', 'index.js')
const env = { ...process.env, NODE_NO_WARNINGS: '1' }
const row = (name, imports) => {
  const out = JSON.parse(execFileSync(process.execPath, [...imports, join(dir, 'rounds.mjs')], { cwd: root, env, encoding: 'utf8' }))
  const show = (k) => out.map((r) => r[k].toFixed(0).padStart(4)).join(' ')
  console.log(`${name.padEnd(24)} arm ms: ${show('arm')}   fire ms: ${show('fire')}`)
}
console.log(`${timers.toLocaleString('en')} timeouts an hour ahead, armed then fired by one tick, ${rounds} rounds in one process (CPU ms a round)`)
row('timing-wheel/node-test', ['--import', route])
row(`Node ${process.versions.node}'s own`, [])
