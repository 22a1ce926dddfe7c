/**
 * `npm run bench:floors`: costs that no implementation in `npm run bench` can go
 * below on this machine, measured so that the targets can be judged against them.
 *
 * 1. What one cache miss costs, which bounds every structure once its timers outgrow the
 *    caches. For tables of 32-byte rows (the wheel's pool layout) the size of the pools in
 * `npm run bench` (2^15 to 2^20 rows: 1 to 32 MiB), it visits every row in a random order
 * twice: once following a chain, each row naming the next (as a wheel walks a slot's
 * list, or a heap walks down a path), and once from a list of rows read in sequence,
 * where the visits do not depend on each other and the processor overlaps their misses.
 * 2. What fake-timers' API costs with no order kept at all: the virtual-clock workload
 *    run on a clock that fires timers in the order they were set (see
 *    `adapters/unordered-clock.ts`), next to `timing-wheel/sim` and fake-timers.
 * 3. What each of the queue's guarantees adds to an add and a remove in cache: the pair
 *    on kernels that have the guarantees up to a step (`add-remove-steps.ts`).
 * 4. What a timing wheel costs on the hold, churn and timeouts loads without the package's
 *    guarantees: the barest two-level wheel (`bare-wheel.ts`), next to the package's
 *    wheel and flatqueue, all firing the same alarms (the checksums must agree).
 */
import { fakeTimers } from './adapters/fake-timers.js'
import { flatqueue } from './adapters/flatqueue.js'
import { wheel } from './adapters/wheel.js'
import type { QueueImpl } from './adapter.js'
import { kernel, packageQueue, stepNames, steps } from './add-remove-steps.js'
import { type BareRun, bareWheelChurn, bareWheelHold, bareWheelTimeouts } from './bare-wheel.js'
import type { Run } from './drivers.js'
import { unorderedClock } from './adapters/unordered-clock.js'
import { loadVirtualClock } from './adapters/virtual-clock.js'
import { type Drivers, median, separateDrivers } from './runner.js'
import * as Workloads from './workloads.js'

const INTS_PER_ROW = 8

/** A random cyclic order of `rows` rows, from a fixed seed. */
const shuffledRows = (rows: number): Int32Array => {
  const order = new Int32Array(rows).map((_, i) => i)
  let seed = 0x2545f491
  for (let i = rows - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    const j = seed % (i + 1)
    const t = order[i]!
    order[i] = order[j]!
    order[j] = t
  }
  return order
}

const nanos = (): number => Number(process.hrtime.bigint())

/** Each row's first integer names the next row of the cycle `order`. */
const chainedTable = (order: Int32Array): Int32Array => {
  const table = new Int32Array(order.length * INTS_PER_ROW)
  for (let i = 0; i < order.length; i++) table[order[i]! * INTS_PER_ROW] = order[(i + 1) % order.length]!
  return table
}

const chained = (table: Int32Array, order: Int32Array): number => {
  let row = order[0]!
  const t0 = nanos()
  for (let i = 0; i < order.length; i++) row = table[row * INTS_PER_ROW]!
  const ns = (nanos() - t0) / order.length
  if (row !== order[0]) throw new Error('the chain is broken')
  return ns
}

const independent = (table: Int32Array, order: Int32Array): number => {
  let sum = 0
  const t0 = nanos()
  for (let i = 0; i < order.length; i++) sum += table[order[i]! * INTS_PER_ROW]!
  const ns = (nanos() - t0) / order.length
  if (sum < 0) throw new Error('overflow')
  return ns
}

console.log('random visits to 32-byte rows, ns per row, median of 7:')
console.log('  rows     size      dependent (a chain of links)   independent (rows from a list)')
for (const bits of [15, 17, 18, 20]) {
  const order = shuffledRows(2 ** bits)
  const table = chainedTable(order)
  const runs = { chained: [] as number[], independent: [] as number[] }
  for (let r = 0; r < 7; r++) {
    runs.chained.push(chained(table, order))
    runs.independent.push(independent(table, order))
  }
  const mib = `${(table.length * 4) / 2 ** 20} MiB`
  console.log(
    `  2^${bits}     ${mib.padEnd(9)} ${median(runs.chained).toFixed(1).padStart(8)}` +
      `${median(runs.independent).toFixed(1).padStart(33)}`,
  )
}

const seed = 42

// Before any other use of the package's queue, so that its code is shaped by this loop alone.
const pairs = Workloads.addRemove({ ...Workloads.full.addRemove, pairs: 2_000_000 }, Workloads.full.churnMaxDelay, seed)
console.log()
console.log(`an add and a remove in cache (${Workloads.showCount(pairs.outstanding)} outstanding), ns per pair, median of 9:`)
const pairKernels = [
  ...steps.map((step) => [stepNames[step], kernel(step)] as const),
  ['the package\'s PriorityQueue', packageQueue] as const,
]
// Round robin, so that the machine's slow spells spread over every kernel.
for (const [, run] of pairKernels) run(pairs) // the warm-up
const pairRuns = pairKernels.map(() => [] as number[])
for (let r = 0; r < 9; r++) pairKernels.forEach(([, run], i) => pairRuns[i]!.push(run(pairs)))
pairKernels.forEach(([name], i) => console.log(`  ${median(pairRuns[i]!).toFixed(1).padStart(6)}  ${name}`))
const hold = Workloads.hold(Workloads.full.hold, seed)
const warm = Workloads.hold(Workloads.quick.hold, seed + 1)
const virtualClock = await loadVirtualClock()
const clocks = [unorderedClock, ...(typeof virtualClock === 'string' ? [] : [virtualClock]), fakeTimers]
console.log()
console.log(`the virtual-clock workload (${Workloads.showCount(hold.pending)} pending), ns per event, median of 3:`)
for (const clock of clocks) {
  const drivers = await separateDrivers(clock.name)
  drivers.clockHold(clock, warm)
  const runs = [0, 1, 2].map(() => {
    const run = drivers.clockHold(clock, hold)
    return run.ns / run.ops
  })
  console.log(`  ${clock.name.padEnd(20)} ${median(runs).toFixed(0).padStart(6)}`)
}

type Play = () => BareRun

/**
 * The bare wheel next to the package's wheel and flatqueue on one load, each queue
 * through its own copy of the drivers as in `npm run bench`; every run must fire the
 * same alarms.
 */
const againstBare = async (title: string, bare: Play, driven: (drivers: Drivers, queue: QueueImpl) => Run): Promise<void> => {
  console.log()
  console.log(`${title}, median of 3:`)
  const checksums = new Set<string>()
  const queueRuns = await Promise.all(
    [wheel, flatqueue].map(async (queue) => {
      const drivers = await separateDrivers(queue.name)
      const play: Play = () => {
        const run = driven(drivers, queue)
        return { nsPerOp: run.ns / run.ops, fired: run.checksum.fired, hash: run.checksum.hash }
      }
      return [queue.name, play] as const
    }),
  )
  for (const [name, play] of [['bare wheel (floor)', bare] as const, ...queueRuns]) {
    play()
    const runs = [play(), play(), play()]
    for (const run of runs) checksums.add(`${run.fired}/${run.hash}`)
    console.log(`  ${name.padEnd(20)} ${median(runs.map((r) => r.nsPerOp)).toFixed(0).padStart(6)}`)
  }
  if (checksums.size !== 1) throw new Error(`${title}: the runs fired different alarms: ${[...checksums].join(', ')}`)
}

await againstBare(
  `the hold workload (${Workloads.showCount(hold.pending)} pending), ns per event`,
  () => bareWheelHold(hold),
  (drivers, queue) => drivers.hold(queue, hold),
)
const churn = Workloads.churn(Workloads.full.churn[0]!, Workloads.full.churnMaxDelay, seed)
await againstBare(
  `the churn workload (${Workloads.showCount(churn.outstanding)} outstanding), ns per operation with the drain`,
  () => bareWheelChurn(churn),
  (drivers, queue) => drivers.churn(queue, churn),
)
const timeouts = Workloads.timeouts(Workloads.full.timeouts, seed)
await againstBare(
  `the timeouts workload (${Workloads.showCount(timeouts.timers)} timers, 90% stopped), ns per timer`,
  () => bareWheelTimeouts(timeouts),
  (drivers, queue) => drivers.timeouts(queue, timeouts),
)
