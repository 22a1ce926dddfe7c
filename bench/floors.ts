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
 *    `adapters/unordered-clock.ts`), or picks one at random (reaching timer objects out of
 *    the order they were made, as ordering by due time does), next to `timing-wheel/sim`
 *    and fake-timers; with the guarded wheel of point 4 added, about the least a virtual
 *    clock with the contract's guarantees spends per event.
 * 3. What each of the queue's guarantees adds to an add and a remove: on kernels that have
 *    the guarantees up to a step (`add-remove-steps.ts`), the in-cache pair and the churn
 *    operations at 100k outstanding.
 * 4. What a timing wheel costs on the hold, churn, timeouts and spread loads without the
 *    package's guarantees: the barest two-level wheel (`bare-wheel.ts`); and on hold and
 *    churn, with the contract's guarantees and no layer in between (`guarded-wheel.ts`),
 *    against which those two targets are judged (for churn also the step kernel's
 *    operations, which call nothing, with the guarded wheel's drain). Each next to the
 *    package's wheel and flatqueue, all firing the same alarms (the checksums must
 *    agree), taken in turn, with flatqueue's time over each computed within each round.
 *
 * Every run is taken in turn with the others it is compared with: the machine's speed
 * drifts by 30% and more within minutes, so only ratios within a round are quoted.
 */
import { fakeTimers } from './adapters/fake-timers.js'
import { flatqueue } from './adapters/flatqueue.js'
import { wheel } from './adapters/wheel.js'
import type { QueueImpl } from './adapter.js'
import { churnKernel, kernel, packageQueue, packageQueueChurn, stepNames, steps } from './add-remove-steps.js'
import { type BareRun, bareWheelChurn, bareWheelHold, bareWheelSpread, bareWheelTimeouts } from './bare-wheel.js'
import { guardedChurn, guardedHold } from './guarded-wheel.js'
import type { Run } from './drivers.js'
import { randomOrderClock, unorderedClock } from './adapters/unordered-clock.js'
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

/** One run of a load: ns per op, its drain's share where timed apart, what it fired. */
interface Measured {
  readonly nsPerOp: number
  readonly drainPerOp?: number | undefined
  /** Fired count and hash; absent for a run that fires nothing (operations only). */
  readonly checksum?: string
}

const ROUNDS = 5
const BARE = 'bare wheel (floor)'

type Rounds = ReadonlyArray<ReadonlyMap<string, Measured>>

/**
 * One warm-up run of each play, then `rounds` rounds taken in turn, so that a slow spell
 * of the machine falls on all of them alike; every run with a checksum must have the same
 * one. Prints the medians (with `digits` decimals) and returns the rounds, each a map
 * from name to run.
 */
const inTurn = (
  title: string,
  plays: ReadonlyArray<readonly [string, () => Measured]>,
  { rounds: count = ROUNDS, digits = 0 } = {},
): Rounds => {
  for (const [, play] of plays) play()
  const rounds = Array.from({ length: count }, () => new Map(plays.map(([name, play]) => [name, play()] as const)))
  const checksums = new Set(rounds.flatMap((round) => [...round.values()].flatMap((run) => run.checksum ?? [])))
  if (checksums.size > 1) throw new Error(`${title}: the runs fired different alarms: ${[...checksums].join(', ')}`)
  console.log()
  console.log(`${title}, median of ${count} taken in turn:`)
  for (const [name] of plays) {
    console.log(`  ${median(rounds.map((round) => round.get(name)!.nsPerOp)).toFixed(digits).padStart(6)}  ${name}`)
  }
  return rounds
}

/** Each kernel's ns per pair or operation on `w`, as plays for {@link inTurn}. */
const kernelPlays = <W>(kernels: ReadonlyArray<readonly [string, (w: W) => number]>, w: W) =>
  kernels.map(([name, run]) => [name, (): Measured => ({ nsPerOp: run(w) })] as const)

const packageName = "the package's PriorityQueue"
inTurn(
  `an add and a remove in cache (${Workloads.showCount(pairs.outstanding)} outstanding), ns per pair`,
  kernelPlays([...steps.map((step) => [stepNames[step], kernel(step)] as const), [packageName, packageQueue]], pairs),
  { rounds: 9, digits: 1 },
)

const churn = Workloads.churn(Workloads.full.churn[0]!, Workloads.full.churnMaxDelay, seed)
inTurn(
  `the churn operations (${Workloads.showCount(churn.outstanding)} outstanding): cancel by handle, add; no drain; ns per operation`,
  kernelPlays([...steps.map((step) => [stepNames[step], churnKernel(step)] as const), [packageName, packageQueueChurn]], churn),
  { digits: 1 },
)

const hold = Workloads.hold(Workloads.full.hold, seed)
/**
 * The bare wheel, the package's wheel and flatqueue (and any `extra` runs) on one load,
 * each queue through its own copy of the drivers as in `npm run bench`, taken in turn;
 * prints flatqueue's time over each wheel's.
 */
const compareOnLoad = async (
  title: string,
  bare: () => BareRun,
  driven: (drivers: Drivers, queue: QueueImpl) => Run,
  extra: ReadonlyArray<readonly [string, () => Measured]> = [],
): Promise<Rounds> => {
  const queues = await Promise.all(
    [wheel, flatqueue].map(async (queue) => {
      const drivers = await separateDrivers(queue.name)
      return [queue.name, () => fromRun(driven(drivers, queue))] as const
    }),
  )
  const rounds = inTurn(title, [
    [BARE, () => fromBare(bare())],
    ...queues,
    ...extra,
  ])
  const over = (name: string): string => `${peerOver(rounds, flatqueue.name, (run) => run(name).nsPerOp)}x`
  console.log(`  flatqueue's time over the package's wheel's ${over(wheel.name)}, over the bare wheel's ${over(BARE)} (medians of each round's ratio)`)
  return rounds
}

const fromBare = (run: BareRun): Measured => ({
  nsPerOp: run.nsPerOp,
  drainPerOp: run.drainPerOp,
  checksum: `${run.fired}/${run.hash}`,
})

const fromRun = (run: Run): Measured => ({
  nsPerOp: run.ns / run.ops,
  drainPerOp: run.phases['drain'] === undefined ? undefined : run.phases['drain'] / run.ops,
  checksum: `${run.checksum.fired}/${run.checksum.hash}`,
})

/**
 * `peer`'s time over `denominator` (ns per op, from the runs of a round by name), computed
 * within each round; the median over rounds, to one decimal.
 */
const peerOver = (
  rounds: Rounds,
  peer: string,
  denominator: (run: (name: string) => Measured) => number,
): string =>
  median(
    rounds.map((round) => {
      const run = (name: string): Measured => {
        const measured = round.get(name)
        if (measured === undefined) throw new Error(`no run of ${name}`)
        return measured
      }
      return run(peer).nsPerOp / denominator(run)
    }),
  ).toFixed(1)

const guardedName = "the contract's guarantees (guarded-wheel.ts)"
const holdRounds = await compareOnLoad(
  `the hold workload (${Workloads.showCount(hold.pending)} pending), ns per event`,
  () => bareWheelHold(hold),
  (drivers, queue) => drivers.hold(queue, hold),
  [[guardedName, () => fromBare(guardedHold(hold))]],
)
console.log(
  `  flatqueue's time over the kernel with the contract's guarantees ` +
    `${peerOver(holdRounds, flatqueue.name, (run) => run(guardedName).nsPerOp)}x`,
)

// The virtual clock: the API with no order plus the order with the contract's guarantees
// (the guarded wheel) is about the least a virtual clock spends here. The random-order
// clock adds what the unordered one leaves out: reaching each timer object out of the
// order it was made, as a clock that fires by due time must.
const virtualClock = await loadVirtualClock()
const floorClocks = [unorderedClock, randomOrderClock]
const clocks = [...floorClocks, ...(typeof virtualClock === 'string' ? [] : [virtualClock]), fakeTimers]
const clockPlays = await Promise.all(
  clocks.map(async (clock) => {
    const drivers = await separateDrivers(clock.name)
    const play = (): Measured => {
      const run = drivers.clockHold(clock, hold)
      // The floors fire in other orders, so their checksums differ.
      return floorClocks.includes(clock) ? { nsPerOp: run.ns / run.ops } : fromRun(run)
    }
    return [clock.name, play] as const
  }),
)
const clockRounds = inTurn(`the virtual-clock workload (${Workloads.showCount(hold.pending)} pending), ns per event`, [
  ...clockPlays,
  [guardedName, () => ({ nsPerOp: guardedHold(hold).nsPerOp })],
])
const fakeTimersOver = (denominator: (run: (name: string) => Measured) => number): string =>
  peerOver(clockRounds, fakeTimers.name, denominator)
console.log(
  `  fake-timers' time over VirtualClock's ${typeof virtualClock === 'string' ? '(not built)' : fakeTimersOver((run) => run(virtualClock.name).nsPerOp)}x; ` +
    `over the guarded wheel's together with the unordered clock's ` +
    `${fakeTimersOver((run) => run(unorderedClock.name).nsPerOp + run(guardedName).nsPerOp)}x, ` +
    `with the random-order clock's ${fakeTimersOver((run) => run(randomOrderClock.name).nsPerOp + run(guardedName).nsPerOp)}x`,
)

// The least a wheel with the contract's guarantees spends on a churn operation: the
// guarded wheel's operations and drain; or, lower, the step kernel's operations (which
// call nothing and keep no least keys) and the guarded wheel's drain; lower still, with
// the bare wheel's drain, which no wheel with a handler protocol gets down to.
const contractOps = "the contract's guarantees in one function (add-remove-steps.ts), operations only"
// Compiled once, so that each run is as warm as the queues'.
const contractKernel = churnKernel('valuesInRows')
const churnRounds = await compareOnLoad(
  `the churn workload (${Workloads.showCount(churn.outstanding)} outstanding), ns per operation with the drain`,
  () => bareWheelChurn(churn),
  (drivers, queue) => drivers.churn(queue, churn),
  [
    [guardedName, () => fromBare(guardedChurn(churn))],
    [contractOps, () => ({ nsPerOp: contractKernel(churn) })],
  ],
)
const drainOf = (run: Measured): number => {
  if (run.drainPerOp === undefined) throw new Error('churn: the drain was not timed apart')
  return run.drainPerOp
}
const churnOver = (denominator: (run: (name: string) => Measured) => number): string =>
  peerOver(churnRounds, flatqueue.name, denominator)
console.log(
  `  flatqueue's time over the guarded wheel's ${churnOver((run) => run(guardedName).nsPerOp)}x; ` +
    `over the step kernel's operations with the guarded wheel's drain ` +
    `${churnOver((run) => run(contractOps).nsPerOp + drainOf(run(guardedName)))}x, ` +
    `with the bare wheel's drain ${churnOver((run) => run(contractOps).nsPerOp + drainOf(run(BARE)))}x`,
)
const timeouts = Workloads.timeouts(Workloads.full.timeouts, seed)
await compareOnLoad(
  `the timeouts workload (${Workloads.showCount(timeouts.timers)} timers, 90% stopped), ns per timer`,
  () => bareWheelTimeouts(timeouts),
  (drivers, queue) => drivers.timeouts(queue, timeouts),
)
const spread = Workloads.spread(Workloads.full.spread, seed)
await compareOnLoad(
  `the spread workload (${Workloads.showCount(spread.alarms)} alarms over an hour, 2^11 slots at level 1 for the bare wheel), ns per alarm`,
  () => bareWheelSpread(spread),
  (drivers, queue) => drivers.spread(queue, spread),
)
