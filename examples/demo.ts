/**
 * `npm start`: what the timing wheel does, checked, and how fast next to a binary heap.
 *
 * Two workloads from the benchmark (`bench/`), smaller: the retransmission-timer load of
 * Varghese & Lauck's paper and a discrete-event simulation's hold model. Each is first
 * played once through an adapter that checks every alarm (fired once, never early, never
 * late, never after being cancelled), then timed on the wheel and on flatqueue, whose
 * checksums of what fired must agree. `npm run bench` has the full comparison.
 */
import type { QueueImpl } from '../bench/adapter.js'
import { flatqueue } from '../bench/adapters/flatqueue.js'
import { wheel } from '../bench/adapters/wheel.js'
import { type Tally, checked, emptyTally } from '../bench/checked.js'
import * as Drivers from '../bench/drivers.js'
import { markdownTable, showNs } from '../bench/report.js'
import { ChecksumMismatch, run } from '../bench/runner.js'
import * as Workloads from '../bench/workloads.js'

const sizes: Workloads.Sizes = {
  ...Workloads.quick,
  timeouts: { ms: 10_000, perMs: 50, maxDelay: 10_000, stoppedFraction: 0.9 },
  hold: { pending: 100_000, fired: 500_000, meanIncrement: 100_000 },
  repeats: 3,
}
const seed = 42
const count = (n: number): string => n.toLocaleString('en-US')

const problems = (t: Tally, left: number): string[] => [
  ...(t.early > 0 ? [`${count(t.early)} fired early`] : []),
  ...(t.late > 0 ? [`${count(t.late)} fired late`] : []),
  ...(t.unexpected > 0 ? [`${count(t.unexpected)} fired although cancelled or already fired`] : []),
  ...(left > 0 ? [`${count(left)} never fired`] : []),
]

const verdict = (t: Tally, left: number): string => {
  const wrong = problems(t, left)
  return wrong.length === 0
    ? 'none early, none late, none twice, none after its cancel (every alarm checked)'
    : `WRONG: ${wrong.join(', ')}`
}

const played = (impl: QueueImpl, play: (impl: QueueImpl) => Drivers.Run): { tally: Tally; left: number } => {
  const tally = emptyTally()
  const left = play(checked(impl, tally)).left
  return { tally, left }
}

const t = sizes.timeouts
const timeouts = Workloads.timeouts(t, seed)
console.log(
  `Timeouts: every ms for ${count(t.ms / 1000)} s of virtual time, ${t.perMs} timers start with delays of ` +
    `1 to ${count(t.maxDelay)} ms; ${Math.round(t.stoppedFraction * 100)}% are stopped before they expire.`,
)
const a = played(wheel, (impl) => Drivers.timeouts(impl, timeouts))
console.log(`  ${count(a.tally.added)} alarms added, ${count(a.tally.cancelled)} cancelled, ${count(a.tally.fired)} fired`)
console.log(`  ${verdict(a.tally, a.left)}`)

const h = sizes.hold
const hold = Workloads.hold(h, seed)
console.log(
  `\nHold: a simulation with ${count(h.pending)} pending events; each event, when it fires, schedules ` +
    `the next one of its entity (exponential gaps, mean ${count(h.meanIncrement / 1000)} s); ` +
    `the next event is found with nextAlarmFiresAt.`,
)
const b = played(wheel, (impl) => Drivers.hold(impl, hold))
console.log(`  ${count(b.tally.added)} alarms added, ${count(b.tally.fired)} fired, ${count(b.tally.added - b.tally.fired)} pending at the end`)
console.log(`  ${verdict(b.tally, b.left)}`)

console.log('\nSpeed, the same workloads on the wheel and on a binary heap (flatqueue, lazy deletion):')
try {
  const results = await run({ sizes, warmSizes: Workloads.tiny, seed, queues: [wheel, flatqueue], workloads: ['timeouts', 'hold'] })
  const body = results.rows.map((row) => {
    const [own, heap] = row.cells
    const unit = row.id === 'hold' ? 'event' : 'timer'
    return [
      row.label,
      own === undefined ? '' : `${showNs(own.nsPerOp)} ns / ${unit}`,
      heap === undefined ? '' : `${showNs(heap.nsPerOp)} ns / ${unit}`,
      heap === undefined ? '' : `${heap.ratio.toFixed(1)}x`,
    ]
  })
  console.log(`\n${markdownTable(['workload', 'timing-wheel', 'flatqueue', 'wheel faster by'], body)}`)
  console.log(`\nMedian of ${sizes.repeats} runs each. Both fired exactly the same alarms (checksums agree).`)
  console.log('The full comparison with tinyqueue, heap-js and fake-timers: npm run bench')
} catch (e) {
  if (!(e instanceof ChecksumMismatch)) throw e
  console.error(`\nFAILED: ${e.message}`)
  process.exitCode = 1
}
if (problems(a.tally, a.left).length + problems(b.tally, b.left).length > 0) process.exitCode = 1
