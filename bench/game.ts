/**
 * The game row: a 60 Hz loop with many timers waiting far ahead and a few firing every
 * frame, on `timing-wheel/game`, on @colyseus/timer (which walks every timer every tick,
 * as Phaser's clock does), and on a plain per-frame scan of a timer list. Each size is
 * pre-generated, the peers are timed in turn in each round, the median of the rounds
 * reported per frame, and the fired timers' checksum must agree.
 */
import { ClockTimer } from '@colyseus/timer'
import { Game } from '../lib/game/index.js'
import { median } from './runner.js'

const FRAME = 1000 / 60

/** Timers waiting an hour or two ahead, and 120 timers firing every 2 s (two a frame). */
interface Load {
  readonly pending: number
  readonly frames: number
  readonly far: Float64Array
}

const load = (pending: number, frames: number): Load => {
  const far = new Float64Array(pending)
  for (let i = 0; i < pending; i++) far[i] = 3_600_000 + ((i * 2654435761) % 3_600_000)
  return { pending, frames, far }
}

interface Peer {
  readonly name: string
  /** Sets the load up (untimed), then returns the loop to time, which returns a checksum. */
  readonly prepare: (l: Load) => () => number
}

const busy = 120
// Half a frame off the frame boundaries, so that every peer's arithmetic agrees on the frame.
const busyDelay = (i: number): number => (i + 0.5) * (2000 / busy)

const game: Peer = {
  name: 'timing-wheel/game',
  prepare: (l) => {
    let sum = 0
    const g = Game.create({ stepMs: FRAME, handlers: { far: () => {}, busy: (e) => void (sum += e.time) }, maxStepsPerUpdate: 1 })
    for (let i = 0; i < l.pending; i++) Game.after(g, Game.root, l.far[i]!, 'far')
    for (let i = 0; i < busy; i++) Game.every(g, Game.root, 2000, 'busy', null, { delayMs: busyDelay(i) })
    return () => {
      for (let f = 0; f < l.frames; f++) Game.step(g)
      return Math.round(sum)
    }
  },
}

const colyseus: Peer = {
  name: '@colyseus/timer',
  prepare: (l) => {
    let sum = 0
    let now = 0
    const timer = new ClockTimer(false)
    // Its clock reads the real time; here it reads the loop's.
    ;(timer as unknown as { now: () => number }).now = () => now
    timer.tick()
    for (let i = 0; i < l.pending; i++) timer.setTimeout(() => {}, l.far[i]!)
    // Its intervals restart from the tick that fired them and drift; each firing arms the next exactly.
    const arm = (due: number): void =>
      void timer.setTimeout(() => {
        sum += due
        arm(due + 2000)
      }, due - now)
    for (let i = 0; i < busy; i++) arm(busyDelay(i))
    return () => {
      for (let f = 1; f <= l.frames; f++) {
        now = f * FRAME
        timer.tick()
      }
      return Math.round(sum)
    }
  },
}

/** The loop most engines write: every timer checked every frame. */
const scan: Peer = {
  name: 'per-frame scan',
  prepare: (l) => {
    let sum = 0
    const timers: Array<{ due: number; period: number }> = []
    for (let i = 0; i < l.pending; i++) timers.push({ due: l.far[i]!, period: 0 })
    for (let i = 0; i < busy; i++) timers.push({ due: busyDelay(i), period: 2000 })
    return () => {
      for (let f = 1; f <= l.frames; f++) {
        const now = f * FRAME
        for (let i = 0; i < timers.length; i++) {
          const t = timers[i]!
          while (t.due <= now && t.period > 0) {
            sum += t.due
            t.due += t.period
          }
        }
      }
      return Math.round(sum)
    }
  },
}

/**
 * The game table: ns per frame for each size and peer, with the peer's time over the
 * game's. Throws if the checksums disagree.
 */
export const gameTable = (quick: boolean, log: (line: string) => void): string => {
  const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
  const peers = [game, colyseus, scan]
  const rows: string[] = []
  // One untimed pass first, so that no peer is timed while V8 still compiles it.
  for (const p of peers) p.prepare(load(10_000, 600))()
  for (const pending of sizes) {
    const frames = pending >= 1_000_000 ? 60 : 600
    const l = load(pending, frames)
    const times = new Map<string, number[]>(peers.map((p) => [p.name, []]))
    const sums = new Map<string, number>()
    for (let round = 0; round < (quick ? 3 : 5); round++) {
      for (const p of round % 2 === 0 ? peers : [...peers].reverse()) {
        const loop = p.prepare(l)
        // A full collection first (node runs with --expose-gc), so no peer pays for another's garbage.
        ;(globalThis as { gc?: () => void }).gc?.()
        const start = process.hrtime.bigint()
        const sum = loop()
        const ns = Number(process.hrtime.bigint() - start) / frames
        times.get(p.name)!.push(ns)
        sums.set(p.name, sum)
        log(`  game ${pending} ${p.name} round ${round + 1}: ${ns.toFixed(0)} ns/frame`)
      }
    }
    const expected = sums.get(game.name)!
    for (const [name, sum] of sums) if (sum !== expected) throw new Error(`game row: ${name} fired ${sum}, timing-wheel/game ${expected}`)
    const ours = median(times.get(game.name)!)
    const cells = peers.map((p) => {
      const ns = median(times.get(p.name)!)
      return p === game ? `${ns.toFixed(0)} ns` : `${ns.toFixed(0)} ns (${(ns / ours).toFixed(1)}x)`
    })
    rows.push(`| ${pending.toLocaleString('en')} pending | ${cells.join(' | ')} |`)
  }
  return [
    `60 Hz loop, two timers firing a frame, the rest waiting an hour or two ahead; ns per frame, median of ${quick ? 3 : 5} rounds (Nx: that peer's time over the game's)`,
    '',
    `| timers | ${peers.map((p) => p.name).join(' | ')} |`,
    `|---|${peers.map(() => '---:').join('|')}|`,
    ...rows,
  ].join('\n')
}
