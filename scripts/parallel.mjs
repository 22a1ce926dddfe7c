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
console.log(names.length > 1 ? `> ${names.join(' and ')}, side by side...` : `> ${names[0]}...`)
let last = Date.now()
const say = (line) => {
  last = Date.now()
  console.log(line)
}

/**
 * The scripts still running, by name: the process group each runs in (its own, so that a
 * hung script is killed with everything it started), when it last printed a line, and
 * whether it was killed as hung.
 */
const running = new Map()
const beat = setInterval(() => {
  const now = Date.now()
  for (const [name, script] of running) {
    if (script.hung || now - script.heard < hungAfter) continue
    script.hung = true
    say(`  ${name}: HUNG, silent for ${hungAfter / 60_000} minutes. Its processes:`)
    say(tree(script.pid))
    process.kill(-script.pid, 'SIGKILL')
  }
  if (now - last >= 5_000) say(`  ... ${[...running.keys()].join(', ')} still running (${seconds()})`)
}, 1_000)

// A Ctrl-C at the terminal does not reach the scripts' own process groups.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const { pid } of running.values()) process.kill(-pid, 'SIGKILL')
    process.exit(130)
  })
}

const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const child = spawn('npm', ['run', name, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
        const script = { pid: child.pid, heard: Date.now(), hung: false }
        running.set(name, script)
        for (const stream of [child.stdout, child.stderr]) {
          createInterface({ input: stream }).on('line', (line) => {
            script.heard = Date.now()
            say(names.length > 1 ? `[${name}] ${line}` : line)
          })
        }
        child.on('close', (code) => {
          running.delete(name)
          say(`  ${name}: ${script.hung ? 'FAILED (hung, killed)' : code === 0 ? 'done' : `FAILED (exit ${code})`} after ${seconds()}`)
          resolve(script.hung ? 1 : code)
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
