/**
 * Runs the rows: generates each workload once, warms each implementation up on a small
 * instance of it, then times `repeats` rounds, each implementation once a round in an
 * order that rotates from round to round (the machine's speed drifts within minutes, so
 * only times from the same round are compared). A row reports, for each implementation,
 * its median round, and for each peer the median and the range over rounds of its time
 * over the first implementation's. Every play's checksum must equal the reference (the
 * first implementation's first play, or what the play should fire where its length
 * depends on the implementation), and nothing may be left over; otherwise it throws.
 *
 * Each implementation is timed through its own copy of `drivers.ts`, imported under a
 * distinct query string: a shared copy would see four adapter classes at every call site
 * and time polymorphic dispatch instead of the libraries.
 */
import type { ClockImpl, GameImpl, QueueImpl } from './adapter.js'
import type * as DriversModule from './drivers.js'
import { type Bounds, type Checksum, type Run, clockName } from './drivers.js'
import { moduleCopy } from './module-copy.js'
import * as Workloads from './workloads.js'
import { type Sizes, showCount } from './workloads.js'

export type Drivers = typeof DriversModule

export type Load =
  | 'churn'
  | 'timeouts'
  | 'spread'
  | 'hold'
  | 'addRemove'
  | 'memory'
  | 'virtualClock'
  | 'simulation'
  | 'idleClock'
  | 'runToLast'
  | 'game'

export const allLoads: readonly Load[] = [
  'churn',
  'timeouts',
  'spread',
  'hold',
  'addRemove',
  'memory',
  'virtualClock',
  'simulation',
  'idleClock',
  'runToLast',
  'game',
]

/** The table a row goes in: the queues beside the wheel, the fake clocks beside VirtualClock, the game loops. */
export type Group = 'queues' | 'clocks' | 'game'

/** One implementation's figures on one row. */
export interface Cell {
  readonly impl: string
  /** ns per op of its median round. */
  readonly nsPerOp: number
  /**
   * The median over rounds of its ns per op over the first implementation's in the same
   * round: above 1, the first implementation is that many times faster.
   */
  readonly ratio: number
  /** The least and the greatest of those per-round ratios. */
  readonly range: readonly [number, number]
  /** Each round's ns per op and ops (ops differ between implementations on the loads played in steps). */
  readonly rounds: ReadonlyArray<{ readonly nsPerOp: number; readonly ops: number }>
  readonly checksum: Checksum
}

export interface Row {
  readonly id: string
  readonly group: Group
  readonly label: string
  readonly description: string
  readonly cells: readonly Cell[]
}

export interface MemoryRow {
  readonly id: string
  readonly group: Group
  readonly label: string
  /** Undefined when node runs without `--expose-gc`. */
  readonly cells: ReadonlyArray<{ readonly impl: string; readonly bytes: number | undefined }>
}

export interface Results {
  readonly seed: number
  /** What the regions were timed with (`Drivers.clockName`). */
  readonly clock: string
  readonly rows: readonly Row[]
  readonly memory: readonly MemoryRow[]
}

export interface Options {
  readonly sizes: Sizes
  /** The sizes of the warm-up plays. */
  readonly warmSizes: Sizes
  readonly seed: number
  /** The timing wheel first: ratios are relative to it. */
  readonly queues: readonly QueueImpl[]
  /** The add+remove row's: the wheel first, then a heap's push and pop. Default: the first queue alone. */
  readonly pairs?: readonly QueueImpl[]
  /** VirtualClock first, then the clocks compared with it on every clock row. */
  readonly clocks?: readonly ClockImpl[]
  /**
   * The core wheel as a clock (`adapters/core-clock.ts`), timed on the clock hold and
   * simulation rows only, after the first clock: what those events cost without a clock.
   */
  readonly coreClock?: ClockImpl
  /** Clocks timed on the idle and runToLast rows only: fake-timers 15.0 would take hours on the hold load. */
  readonly scanningClocks?: readonly ClockImpl[]
  /** timing-wheel/game first. */
  readonly games?: readonly GameImpl[]
  readonly loads?: readonly Load[]
  /** Where each implementation's copy of the drivers comes from; see the module comment. */
  readonly loadDrivers?: (key: string) => Promise<Drivers>
  /** Progress, one line at a time. */
  readonly log?: (line: string) => void
}

export class ChecksumMismatch extends Error {
  override readonly name = 'ChecksumMismatch'
}

/** A copy of `drivers.ts` of its own for `key` (see `module-copy.ts`). */
export const separateDrivers = (key: string): Promise<Drivers> =>
  moduleCopy<Drivers>(new URL('./drivers.js', import.meta.url), key)

/** The median of an odd number of values; of an even number, the lower middle one. */
export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

const showChecksum = (c: Checksum): string => `${c.fired} fired, hash ${c.hash.toString(16).padStart(8, '0')}`

/** One implementation on one row: its play at the timed size and at the warm-up size. */
interface Subject {
  readonly name: string
  readonly play: (drivers: Drivers) => Run
  readonly warm: (drivers: Drivers) => Run
}

/** Times every subject on one row (see the module comment). */
const measure = async (opts: Options, id: string, all: readonly Subject[]): Promise<Cell[]> => {
  const drivers = await Promise.all(all.map((s) => (opts.loadDrivers ?? separateDrivers)(s.name)))
  const log = opts.log ?? ((): void => {})
  all.forEach((s, i) => {
    for (let k = 0; k < 2; k++) s.warm(drivers[i]!)
  })
  let first: Checksum | undefined
  const check = (s: Subject, run: Run): void => {
    first ??= run.checksum
    const expected = run.expected ?? first
    if (run.checksum.fired !== expected.fired || run.checksum.hash !== expected.hash) {
      const whose = run.expected === undefined ? all[0]!.name : 'what its frames should fire'
      throw new ChecksumMismatch(`${id}: ${s.name}: ${showChecksum(run.checksum)}, expected ${showChecksum(expected)} (${whose})`)
    }
    if (run.left !== 0) throw new ChecksumMismatch(`${id}: ${s.name}: ${run.left} alarms left over at the end`)
  }
  const rounds = all.map((): Array<{ nsPerOp: number; ops: number }> => [])
  const checksums: Checksum[] = []
  for (let r = 0; r < opts.sizes.repeats; r++) {
    for (let j = 0; j < all.length; j++) {
      // Round 0 starts with the first implementation, whose first play is the reference.
      const i = (j + r) % all.length
      const s = all[i]!
      let ns = 0
      let ops = 0
      // A play shorter than minMs is played again, its setup untimed: the sum is the round's time.
      do {
        const run = s.play(drivers[i]!)
        check(s, run)
        checksums[i] ??= run.checksum
        ns += run.ns
        ops += run.ops
      } while (ns < opts.sizes.minMs * 1e6)
      rounds[i]!.push({ nsPerOp: ns / ops, ops })
      log(`  ${id} ${s.name} round ${r + 1}: ${(ns / ops).toFixed(1)} ns/op`)
    }
  }
  return all.map((s, i) => {
    const ratios = rounds[i]!.map((round, r) => round.nsPerOp / rounds[0]![r]!.nsPerOp)
    return {
      impl: s.name,
      nsPerOp: median(rounds[i]!.map((round) => round.nsPerOp)),
      ratio: median(ratios),
      range: [Math.min(...ratios), Math.max(...ratios)] as const,
      rounds: rounds[i]!,
      checksum: checksums[i]!,
    }
  })
}

/** Runs the chosen loads and returns every figure. */
export const run = async (opts: Options): Promise<Results> => {
  const chosen = new Set(opts.loads ?? allLoads)
  const log = opts.log ?? ((): void => {})
  const { sizes, warmSizes: warm, seed } = opts
  const load = opts.loadDrivers ?? separateDrivers
  const rows: Row[] = []
  /**
   * Times `impls` on `make(sizes)`, each warmed up on `make(warmSizes)`; `play` gets the
   * sizes' bounds for the loads played in steps.
   */
  const timed = async <I extends { readonly name: string }, W>(
    id: string,
    group: Group,
    label: string,
    description: string,
    impls: readonly I[],
    make: (s: Sizes, seed: number) => W,
    play: (drivers: Drivers, impl: I, w: W, bounds: Bounds) => Run,
  ): Promise<void> => {
    if (impls.length === 0) return
    log(`${label}: ${description}`)
    const [data, small] = [make(sizes, seed), make(warm, seed + 1)]
    const all = impls.map((impl) => ({ name: impl.name, play: (d: Drivers) => play(d, impl, data, sizes), warm: (d: Drivers) => play(d, impl, small, warm) }))
    rows.push({ id, group, label, description, cells: await measure(opts, id, all) })
  }
  const clocks = opts.clocks ?? []
  const allClocks = [...clocks, ...(opts.scanningClocks ?? [])]
  const holdClocks = opts.coreClock === undefined ? clocks : [...clocks.slice(0, 1), opts.coreClock, ...clocks.slice(1)]

  if (chosen.has('churn')) {
    for (const [k, size] of sizes.churn.entries()) {
      const n = showCount(size.outstanding)
      const description =
        `${n} outstanding, ${showCount(size.ops)} ops of cancel one + add one, ` +
        `delays U[1, ${sizes.churnMaxDelay}] ms, then drained 1 ms at a time; ns per op`
      const make = (s: Sizes, x: number): Workloads.Churn => Workloads.churn(s.churn[k] ?? s.churn[0]!, s.churnMaxDelay, x)
      await timed(`churn-${n}`, 'queues', `churn ${n}`, description, opts.queues, make, (d, q, w) => d.churn(q, w))
    }
  }
  if (chosen.has('timeouts')) {
    const t = sizes.timeouts
    const description =
      `${t.perMs} timers/ms for ${showCount(t.ms)} ms, delays U[1, ${t.maxDelay}] ms, ` +
      `${Math.round(t.stoppedFraction * 100)}% stopped early; ns per timer started`
    await timed('timeouts', 'queues', 'timeouts', description, opts.queues, (s, x) => Workloads.timeouts(s.timeouts, x), (d, q, w) => d.timeouts(q, w))
  }
  if (chosen.has('spread')) {
    const s = sizes.spread
    const description = `${showCount(s.alarms)} alarms U[0, ${s.span / 60_000} min), clock advanced ${s.step} ms at a time; ns per alarm`
    await timed('spread', 'queues', 'spread', description, opts.queues, (z, x) => Workloads.spread(z.spread, x), (d, q, w) => d.spread(q, w))
  }
  if (chosen.has('hold')) {
    const h = sizes.hold
    const description =
      `${showCount(h.pending)} pending events, ${showCount(h.fired)} fired, ` +
      `increments Exp(${h.meanIncrement} ms); next event by nextAlarmFiresAt; ns per event`
    await timed('hold', 'queues', 'hold', description, opts.queues, (s, x) => Workloads.hold(s.hold, x), (d, q, w) => d.hold(q, w))
  }
  if (chosen.has('addRemove')) {
    const description =
      `one add then one remove of the same alarm among ${showCount(sizes.addRemove.outstanding)} others (in cache); ` +
      'a heap pushes among them and pops its least; ns per pair'
    const make = (s: Sizes, x: number): Workloads.AddRemove => Workloads.addRemove(s.addRemove, s.churnMaxDelay, x)
    await timed('add-remove', 'queues', 'add+remove', description, opts.pairs ?? opts.queues.slice(0, 1), make, (d, q, w) => d.addRemove(q, w))
  }
  const memory: MemoryRow[] = []
  if (chosen.has('memory')) {
    // Each implementation through its own copy of the drivers here too: through a shared
    // one, V8 kept the clock measured before alive into the next one's first reading.
    const weigh = async <I extends { readonly name: string }>(
      group: Group,
      what: string,
      alarms: number,
      impls: readonly I[],
      bytes: (drivers: Drivers, impl: I, w: Workloads.Memory) => number | undefined,
    ): Promise<void> => {
      if (impls.length === 0) return
      const n = showCount(alarms)
      log(`memory: ${what}, ${n}`)
      const w = Workloads.memory({ alarms }, seed)
      const cells = []
      for (const impl of impls) cells.push({ impl: impl.name, bytes: bytes(await load(impl.name), impl, w) })
      memory.push({ id: `${group === 'queues' ? '' : 'clock-'}memory-${n}`, group, label: `${what}, ${n}`, cells })
    }
    const { alarms, largeAlarms } = sizes.memory
    await weigh('queues', 'bytes / alarm', alarms, opts.queues, (d, q, w) => d.memory(q, w))
    if (largeAlarms !== undefined) await weigh('queues', 'bytes / alarm', largeAlarms, opts.queues.slice(0, 1), (d, q, w) => d.memory(q, w))
    await weigh('clocks', 'bytes / timer', alarms, clocks, (d, c, w) => d.clockMemory(c, w))
  }
  if (chosen.has('virtualClock')) {
    const h = sizes.clockHold
    const description =
      `the hold load as setTimeout callbacks, ${showCount(h.pending)} pending, ` +
      `${showCount(h.fired)} clock.next() calls; ns per event`
    await timed('virtual-clock', 'clocks', 'clock hold', description, holdClocks, (s, x) => Workloads.hold(s.clockHold, x), (d, c, w) => d.clockHold(c, w))
  }
  if (chosen.has('simulation')) {
    const h = sizes.simulation
    const description =
      `a discrete-event simulation: ${showCount(h.fired)} timers set by the callbacks of ${showCount(h.pending)} entities, ` +
      `increments Exp(${h.meanIncrement} ms), run by clock.next(); events a second`
    const make = (s: Sizes, x: number): Workloads.Hold => Workloads.hold(s.simulation, x)
    await timed('simulation', 'clocks', `simulation ${showCount(h.fired)}`, description, holdClocks, make, (d, c, w) => d.clockHold(c, w))
  }
  if (chosen.has('idleClock')) {
    const w = sizes.idle
    const description =
      `${showCount(w.timers)} timeouts ${w.ahead / 60_000} to ${(w.ahead + w.span) / 60_000} min ahead, ` +
      `at least ${showCount(w.ticks)} tick(1) that fire nothing (fewer past ${sizes.maxMs / 1000} s); ns per tick`
    await timed('idle-clock', 'clocks', 'idle clock', description, allClocks, (s, x) => Workloads.idle(s.idle, x), (d, c, i, b) => d.clockIdle(c, i, b))
  }
  if (chosen.has('runToLast')) {
    const t = sizes.runToLast
    const description = `${showCount(t.timers)} timeouts U[1, ${t.span / 60_000} min], then one runToLast(); ns per timer`
    const make = (s: Sizes, x: number): Workloads.RunToLast => Workloads.runToLast(s.runToLast, x)
    await timed('run-to-last', 'clocks', 'runToLast', description, allClocks, make, (d, c, w, b) => d.clockRunToLast(c, w, b))
  }
  if (chosen.has('game')) {
    for (const pending of sizes.game.pending) {
      const n = showCount(pending)
      const description =
        `a 60 Hz loop, ${n} timers waiting an hour or two ahead, one of 120 busy timers firing a frame; ` +
        `at least ${sizes.game.frames} frames; ns per frame`
      // Warmed up on the first count of the warm-up sizes.
      const make = (s: Sizes, x: number): Workloads.Game => Workloads.game(s === sizes ? pending : s.game.pending[0]!, s.game.frames, x)
      await timed(`game-${n}`, 'game', `${n} waiting`, description, opts.games ?? [], make, (d, g, w, b) => d.gameFrames(g, w, b))
    }
  }
  return { seed, clock: clockName, rows, memory }
}
