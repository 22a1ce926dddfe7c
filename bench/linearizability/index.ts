/**
 * `npm run bench:linearizability -- <porcupine checkout> [--rounds=N]`: the time to check
 * each published history (Jepsen's etcd logs, Porcupine's kv histories) with the built
 * `timing-wheel/linearizability` against the plain search of plain.ts, in one process,
 * rounds interleaved (each round times every history with both, the order alternating),
 * medians over rounds. Both must give every history its known verdict (the checksum).
 * The plain search gets PLAIN_LIMIT seconds a history; past it the row says so.
 *
 * A time is CPU time (user + system, `process.cpuUsage`), not wall time: on a machine
 * shared by other jobs a wall clock counts their turns too (measured here at four times the
 * CPU time, varying run to run). A history is checked again and again until SLICE ms of
 * CPU have passed, and the time is the mean: a history checked in 0.1 ms is timed over
 * a hundred runs rather than one. Quote ratios: the machine is shared.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Jepsen, casRegister, checkLinearizable, keyValue } from '../../dist/lib/linearizability/index.js'
import { median } from '../runner.js'
import { type PlainModel, plainCheck } from './plain.js'
import { published } from './published.js'

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '3' } } })
const rounds = Number(values.rounds)
const PLAIN_LIMIT = 20
const SLICE = 20

/** CPU ms per run of `check`, over as many runs as fill SLICE ms (the last run's answer). */
const cpuTime = <T>(check: () => T): { ms: number; answer: T } => {
  const start = process.cpuUsage()
  let runs = 0
  let answer: T
  let used: number
  do {
    answer = check()
    runs++
    const u = process.cpuUsage(start)
    used = (u.user + u.system) / 1000
  } while (used < SLICE)
  return { ms: used / runs, answer }
}

const cas = casRegister()
const kv = keyValue('')
/** The key-value map with no partition: one state, every key's value, keys sorted (so equal maps are one JSON text). */
const plainKv: PlainModel<Readonly<Record<string, unknown>>> = {
  init: {},
  step: (s, input, output, outcome) => {
    const key = String((input as { key: unknown }).key)
    return kv.step(s[key] ?? '', input as never, output as never, outcome).map((v) =>
      v === (s[key] ?? '') ? s : Object.fromEntries(Object.entries({ ...s, [key]: v }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    )
  },
}

const rows = published(positionals[0]).map((h) => ({
  name: h.name,
  linearizable: h.linearizable,
  history: h.format === 'util' ? Jepsen.readUtilLog(h.text) : Jepsen.readEdn(h.text),
  format: h.format,
  ours: [] as number[],
  plain: [] as number[],
  plainTimedOut: false,
}))

const timeOurs = (row: (typeof rows)[number]): void => {
  const { ms, answer: r } = cpuTime(() => checkLinearizable(row.history, row.format === 'util' ? cas : kv))
  row.ours.push(ms)
  if ((r.kind === 'ok') !== row.linearizable) throw new Error(`${row.name}: timing-wheel says ${r.kind}, the known verdict is ${row.linearizable}`)
}
const timePlain = (row: (typeof rows)[number]): void => {
  if (row.plainTimedOut) return
  const deadline = performance.now() + PLAIN_LIMIT * 1000
  const { ms, answer: r } = cpuTime(() => (row.format === 'util' ? plainCheck(row.history, cas as PlainModel<unknown>, deadline) : plainCheck(row.history, plainKv, deadline)))
  row.plain.push(ms)
  if (r === undefined) row.plainTimedOut = true
  else if (r !== row.linearizable) throw new Error(`${row.name}: the plain search says ${r}, the known verdict is ${row.linearizable}`)
}

for (let round = 0; round < rounds; round++) {
  for (const row of rows) {
    if (round % 2 === 0) {
      timeOurs(row)
      timePlain(row)
    } else {
      timePlain(row)
      timeOurs(row)
    }
  }
  process.stderr.write(`round ${round + 1} of ${rounds} done\n`)
}

const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0))
console.log(`| history | ops | verdict | timing-wheel CPU ms | plain CPU ms | plain / timing-wheel |`)
console.log(`| --- | ---: | --- | ---: | ---: | ---: |`)
let slower = 0
for (const row of rows) {
  const ours = median(row.ours)
  const plain = row.plainTimedOut ? Infinity : median(row.plain)
  if (plain < ours) slower++
  console.log(`| ${row.name} | ${row.history.length} | ${row.linearizable ? 'ok' : 'illegal'} | ${ms(ours)} | ${row.plainTimedOut ? `> ${PLAIN_LIMIT} s` : ms(plain)} | ${row.plainTimedOut ? '-' : (plain / ours).toFixed(1)} |`)
}
const total = (pick: (row: (typeof rows)[number]) => readonly number[], only: (row: (typeof rows)[number]) => boolean) =>
  Array.from({ length: rounds }, (_, k) => rows.filter(only).reduce((sum, row) => sum + (pick(row)[k] ?? Infinity), 0))
for (const [label, only] of [
  ['etcd', (row: (typeof rows)[number]) => row.format === 'util'],
  ['kv', (row: (typeof rows)[number]) => row.format === 'edn'],
  ['whole set', () => true],
] as const) {
  const ours = total((row) => row.ours, only)
  const plain = total((row) => row.plain, only)
  const ratios = ours.map((o, k) => plain[k]! / o)
  console.log(
    `${label}: timing-wheel ${ms(median(ours))} ms, plain ${Number.isFinite(median(plain)) ? `${ms(median(plain))} ms` : `over ${PLAIN_LIMIT} s on some history`}, ` +
      `plain / timing-wheel median ${median(ratios).toFixed(1)}x (rounds ${Math.min(...ratios).toFixed(1)} to ${Math.max(...ratios).toFixed(1)})`,
  )
}
console.log(`histories where the plain search was faster (medians): ${slower} of ${rows.length}`)

/** Porcupine's CPU seconds for its etcd and kv tests, when Go and /usr/bin/time are here. */
const porcupine = (checkout: string): void => {
  if (spawnSync('go', ['version']).status !== 0 || !existsSync('/usr/bin/time')) {
    console.log('Porcupine: not timed (needs go and /usr/bin/time on this machine)')
    return
  }
  const dir = mkdtempSync(join(tmpdir(), 'porcupine-'))
  try {
    const binary = join(dir, 'porcupine.test')
    execFileSync('go', ['test', '-c', '-o', binary, '.'], { cwd: checkout, env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod' }, stdio: 'ignore' })
    for (const [label, tests] of [
      ['etcd', 'TestEtcdJepsen'],
      ['kv', 'TestKv(1|10|50)Client'],
    ] as const) {
      const cpu = Array.from({ length: rounds }, () => {
        const r = spawnSync('/usr/bin/time', ['-f', '%U %S', binary, '-test.run', tests, '-test.count=1'], { cwd: checkout, env: { ...process.env, GOMAXPROCS: '1' }, encoding: 'utf8' })
        if (!r.stdout.includes('PASS')) throw new Error(`Porcupine's ${label} tests did not pass: ${r.stdout.slice(-300)}`)
        const [user, sys] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number)
        return (user! + sys!) * 1000
      })
      console.log(`Porcupine (Go, GOMAXPROCS=1) ${label}: ${ms(median(cpu))} ms CPU for the process, parsing included (rounds ${ms(Math.min(...cpu))} to ${ms(Math.max(...cpu))})`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
porcupine(positionals[0]!)
