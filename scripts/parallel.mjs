/**
 * Runs npm scripts side by side (`node scripts/parallel.mjs typecheck test:vitest`), or one
 * (`node scripts/parallel.mjs build`) so that it talks: says what it starts, what is still
 * running after 5 s without a line (tsc prints nothing until it is done), and what
 * finished, with its time. The output of each script is passed on as it comes, each line
 * named by its script. Fails if any script fails. A script silent for 5 minutes is hung
 * (Vitest's reporters speak every 5 s, tsc takes one): its process tree is printed, with
 * each process's state and what it waits in, then it is killed and fails, so a CI log
 * names the hang rather than ending in silence at the CI's own limit.
 *
 * `npm test` types-checks beside Vitest: the typecheck reads dist/'s declarations (the
 * specs import the package by name), so it cannot run beside the build, and Vitest's last
 * files leave a core idle that it fills.
 */
import { execFileSync, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

const names = process.argv.slice(2)
const hungAfter = 300_000
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

// Each script runs in a process group of its own, which a Ctrl-C at the terminal does not reach.
const groups = new Set()
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const group of groups) process.kill(-group, 'SIGKILL')
    process.exit(130)
  })
}

const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        // Its own process group, so that a hung script is killed with everything it started.
        const child = spawn('npm', ['run', name, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
        groups.add(child.pid)
        let heard = Date.now()
        let hung = false
        for (const stream of [child.stdout, child.stderr]) {
          createInterface({ input: stream }).on('line', (line) => {
            heard = Date.now()
            say(names.length > 1 ? `[${name}] ${line}` : line)
          })
        }
        const watch = setInterval(() => {
          if (Date.now() - heard < hungAfter) return
          hung = true
          clearInterval(watch)
          say(`  ${name}: HUNG, silent for ${hungAfter / 60_000} minutes. Its processes:`)
          say(tree(child.pid))
          process.kill(-child.pid, 'SIGKILL')
        }, 1_000)
        child.on('close', (code) => {
          groups.delete(child.pid)
          clearInterval(watch)
          running.delete(name)
          say(`  ${name}: ${code === 0 && !hung ? 'done' : hung ? 'FAILED (hung, killed)' : `FAILED (exit ${code})`} after ${seconds()}`)
          resolve(hung ? 1 : code)
        })
      }),
  ),
)
clearInterval(beat)
process.exitCode = results.every((code) => code === 0) ? 0 : 1

/** The processes under `pid`: state, CPU, the kernel function each sleeps in, command line. */
function tree(pid) {
  try {
    const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,etime=,pcpu=,wchan:24=,args='], { encoding: 'utf8' }).split('\n')
    const byParent = new Map()
    const out = []
    for (const row of rows) {
      const [p, parent] = row.trim().split(/\s+/)
      if (p !== undefined) byParent.set(parent, [...(byParent.get(parent) ?? []), [p, row]])
      if (p === String(pid)) out.push(`    ${row.trim().slice(0, 220)}`)
    }
    const walk = (p, depth) => {
      for (const [c, row] of byParent.get(String(p)) ?? []) {
        out.push(`    ${'  '.repeat(depth)}${row.trim().slice(0, 220)}`)
        walk(c, depth + 1)
      }
    }
    walk(pid, 1)
    return out.join('\n')
  } catch (e) {
    return `    (ps failed: ${e.message})`
  }
}
