/**
 * `npm start`: what the timing wheel does, checked, and how fast next to what a user would
 * pick instead.
 *
 * Two workloads from the benchmark (`bench/`), smaller: the retransmission-timer load of
 * Varghese & Lauck's paper and a discrete-event simulation's hold model, each played once
 * through an adapter that checks every alarm (fired once, never early, never late, never
 * after being cancelled). Then the speed: the wheel against flatqueue (a binary heap) on
 * churn, timeouts and hold, and the virtual clock against @sinonjs/fake-timers on hold and
 * on an idle clock; each row the median of interleaved rounds of the main thread's CPU
 * time, with the range of its per-round ratios, the checksums of what fired agreeing. A
 * ratio below 1 says the peer is faster, and the table says so. `npm run bench` has the
 * full comparison; this is it at a size that runs in about 10 s.
 */
import type { QueueImpl } from '../bench/adapter.js'
import { fakeTimers } from '../bench/adapters/fake-timers.js'
import { flatqueue } from '../bench/adapters/flatqueue.js'
import { virtualClock } from '../bench/adapters/virtual-clock.js'
import { wheel } from '../bench/adapters/wheel.js'
import { type Tally, checked, emptyTally } from '../bench/checked.js'
import * as Drivers from '../bench/drivers.js'
import { markdownTable, showNs, showRange, showRatio } from '../bench/report.js'
import { ChecksumMismatch, run } from '../bench/runner.js'
import * as Workloads from '../bench/workloads.js'

// Sized so that `npm start` takes under 20 s on a 2-core machine, the checked plays
// included: a tenth of the benchmark's sizes or less (the idle clock's 10,000 timers make
// fake-timers' cost per tick, which grows with them, a fifth of the benchmark's).
const sizes: Workloads.Sizes = {
  ...Workloads.quick,
  churn: [{ outstanding: 100_000, ops: 300_000 }],
  timeouts: { ms: 10_000, perMs: 50, maxDelay: 10_000, stoppedFraction: 0.9 },
  hold: { pending: 100_000, fired: 150_000, meanIncrement: 100_000 },
  clockHold: { pending: 20_000, fired: 20_000, meanIncrement: 20_000 },
  idle: { timers: 10_000, ahead: 3_600_000, span: 3_600_000, ticks: 100 },
  repeats: 5,
  minMs: 50,
  maxMs: 150,
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

console.log(
  'npm start: two workloads played on the wheel with every alarm checked, then timed against flatqueue and ' +
    '@sinonjs/fake-timers (about 15 s).\n',
)
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

console.log('\nSpeed, the same workloads on the wheel and on what you would use instead:')
try {
  const results = await run({
    sizes,
    warmSizes: Workloads.tiny,
    seed,
    queues: [wheel, flatqueue],
    clocks: [virtualClock, fakeTimers],
    loads: ['churn', 'timeouts', 'hold', 'virtualClock', 'idleClock'],
    // One line as each workload starts, so the measuring is never silent for long.
    log: (line) => {
      if (!line.startsWith(' ')) console.log(`  measuring ${line.slice(0, line.indexOf(':'))}...`)
    },
  })
  const body = results.rows.flatMap((row) => {
    const [own, peer] = row.cells
    if (own === undefined || peer === undefined) return []
    // Within 10% either way the rounds' noise decides: say so rather than crown either.
    const note = peer.ratio >= 1.1 ? '' : peer.ratio <= 0.9 ? `: ${peer.impl} is faster here` : ': about even'
    const verdict = `${showRatio(peer.ratio)}x (${showRange(peer)})${note}`
    return [[row.label, `${showNs(own.nsPerOp)} ns`, `${peer.impl} ${showNs(peer.nsPerOp)} ns`, verdict]]
  })
  console.log(`\n${markdownTable(['workload', 'timing-wheel', 'peer', "peer's time / the wheel's"], body)}`)
  console.log(
    `\nns per operation (${results.clock}), median of ${sizes.repeats} interleaved rounds; the ratio is the median ` +
      "of the per-round ratios, in brackets their range. Every row's checksums agree.",
  )
  console.log("The clock rows time timing-wheel/sim's VirtualClock. The full comparison: npm run bench")
} catch (e) {
  if (!(e instanceof ChecksumMismatch)) throw e
  console.error(`\nFAILED: ${e.message}`)
  process.exitCode = 1
}
if (problems(a.tally, a.left).length + problems(b.tally, b.left).length > 0) process.exitCode = 1
