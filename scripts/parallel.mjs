/**
 * Runs npm scripts side by side (`node scripts/parallel.mjs typecheck test:vitest`), or one
 * (`node scripts/parallel.mjs build`) so that it talks: says what it starts, what is still
 * running after 5 s without a line (tsc prints nothing until it is done), and what
 * finished, with its time. The output of each script is passed on as it comes, each line
 * named by its script. Fails if any script fails.
 *
 * `npm test` types-checks beside Vitest: the typecheck reads dist/'s declarations (the
 * specs import the package by name), so it cannot run beside the build, and Vitest's last
 * files leave a core idle that it fills.
 */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

const names = process.argv.slice(2)
const started = Date.now()
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`
const running = new Set(names)
console.log(names.length > 1 ? `> ${names.join(' and ')}, side by side...` : `> ${names[0]}...`)
let last = Date.now()
const say = (line) => {
  last = Date.now()
  console.log(line)
}
const beat = setInterval(() => {
  if (Date.now() - last >= 5_000) say(`  ... ${[...running].join(', ')} still running (${seconds()})`)
}, 1_000)

const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const child = spawn('npm', ['run', name, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] })
        for (const stream of [child.stdout, child.stderr]) {
          createInterface({ input: stream }).on('line', (line) => say(names.length > 1 ? `[${name}] ${line}` : line))
        }
        child.on('close', (code) => {
          running.delete(name)
          say(`  ${name}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} after ${seconds()}`)
          resolve(code)
        })
      }),
  ),
)
clearInterval(beat)
process.exitCode = results.every((code) => code === 0) ? 0 : 1
