/**
 * `npm run example:rollback`: rollback netcode on `timing-wheel/game`, over a simulated
 * network with 100 ms of jitter (latency 20 to 120 ms) and 5% loss.
 *
 * Two peers run the same 60 Hz game, each a `Game` stepped by its own host's clock: every
 * step fires a `tick` timer that moves both players by their inputs, and a `powerup` timer
 * drops a power-up every 2 s at a place drawn from the game's own seeded state. A peer
 * knows its own input at once and the other's only when a packet brings it; meanwhile it
 * predicts (the last input it knows) and plays on. When an input arrives that differs from
 * the prediction, the peer restores the `Game.snapshot` and world from before that frame
 * and plays the frames again. Every packet carries all the inputs the other peer has not
 * acknowledged, so a loss costs a frame or two, never a resend timer.
 *
 * In sync means: the state after every frame, once both players' inputs for it are known,
 * has the same checksum on both peers. Flags: `--seed N` (default 7), `--seconds N` (20).
 */
import * as E from 'fp-ts/lib/Either.js'
import { Game, type TimerEvent } from 'timing-wheel/game'
import { type Host, Simulation as S } from 'timing-wheel/simulation'
import { positiveFlags } from './flags.js'

const STEP = 1000 / 60
const peers = ['A', 'B'] as const

interface World {
  frame: number
  rng: number
  x: [number, number]
  y: [number, number]
  score: [number, number]
  powerup: [number, number] | null
}

interface Packet {
  /** The first frame of `inputs`. */
  readonly from: number
  readonly inputs: readonly number[]
  /** The last frame of the receiver's inputs the sender has, with all before it. */
  readonly ack: number
}

/** Player `p`'s input at `frame`: a direction that changes every 8 frames, from a hash. */
const inputOf = (seed: number, p: number, frame: number): number => {
  let h = Math.imul(seed ^ (p * 0x9e3779b9), 0x85ebca6b) ^ Math.imul(frame >> 3, 0xc2b2ae35)
  h ^= h >>> 13
  h = Math.imul(h, 0x27d4eb2d)
  return ((h ^ (h >>> 15)) >>> 0) % 9
}

const checksum = (w: World): number => {
  let h = 0x811c9dc5
  for (const v of [w.frame, w.rng, ...w.x, ...w.y, ...w.score, ...(w.powerup ?? [-1, -1])]) h = Math.imul(h ^ v, 0x01000193)
  return h >>> 0
}

interface Stats {
  rollbacks: number
  deepest: number
  replayed: number
  frames: number
  confirmed: number
  readonly checksums: number[]
}

/** One peer: its game, world, inputs, snapshots and the network side of rollback. */
const peer = (me: number, seed: number, lastFrame: number, stats: Stats) => (host: Host<Packet>) => {
  const other = 1 - me
  const inputs: Array<Array<number | undefined>> = [[], []]
  const used: number[] = []
  let world: World = { frame: 0, rng: seed >>> 0, x: [20, 80], y: [50, 50], score: [0, 0], powerup: null }
  const handlers = {
    tick: () => {
      const f = ++world.frame
      for (const p of [0, 1]) {
        // Unknown: predict the last input known before it (4, standing still, if none).
        let input = inputs[p]![f]
        for (let g = f - 1; input === undefined; g--) input = g === 0 ? 4 : inputs[p]![g]
        if (p === other) used[f] = input
        world.x[p] = Math.min(100, Math.max(0, world.x[p]! + (input % 3) - 1))
        world.y[p] = Math.min(100, Math.max(0, world.y[p]! + Math.floor(input / 3) - 1))
        const pu = world.powerup
        if (pu !== null && Math.abs(world.x[p]! - pu[0]) + Math.abs(world.y[p]! - pu[1]) <= 4) {
          world.score[p]!++
          world.powerup = null
        }
      }
    },
    powerup: (_e: TimerEvent) => {
      world.rng = (Math.imul(world.rng, 1664525) + 1013904223) >>> 0
      world.powerup = [world.rng % 101, (world.rng >>> 8) % 101]
    },
  }
  let game = Game.create({ stepMs: STEP, handlers })
  Game.every(game, Game.root, STEP, 'tick')
  Game.every(game, Game.root, 2000, 'powerup')
  /** Before each frame: the game and the world as they were. */
  const saved: Array<{ game: Game.Snapshot; world: string }> = []
  const hashes: number[] = []
  let rollbackTo = Infinity
  let remoteHas = 0
  let remoteAcked = 0

  const stepOnce = (): void => {
    saved[world.frame + 1] = { game: Game.snapshot(game), world: JSON.stringify(world) }
    Game.step(game)
    hashes[world.frame] = checksum(world)
  }

  S.onMessage(host, (_from, packet) => {
    remoteAcked = Math.max(remoteAcked, packet.ack)
    packet.inputs.forEach((input, i) => {
      const f = packet.from + i
      if (inputs[other]![f] !== undefined) return
      inputs[other]![f] = input
      if (f <= world.frame && used[f] !== input) rollbackTo = Math.min(rollbackTo, f)
    })
    while (inputs[other]![remoteHas + 1] !== undefined) remoteHas++
  })

  S.setInterval(
    host,
    () => {
      if (rollbackTo <= world.frame) {
        const now = world.frame
        const back = saved[rollbackTo]!
        const restored = Game.restore(back.game, handlers)
        if (E.isLeft(restored)) throw restored.left
        game = restored.right
        world = JSON.parse(back.world) as World
        stats.rollbacks++
        stats.deepest = Math.max(stats.deepest, now - rollbackTo + 1)
        stats.replayed += now - rollbackTo + 1
        while (world.frame < now) stepOnce()
      }
      rollbackTo = Infinity
      const due = Math.min(lastFrame, Math.floor(S.monotonic(host) / STEP))
      while (world.frame < due) {
        inputs[me]![world.frame + 1] = inputOf(0, me, world.frame + 1)
        stepOnce()
      }
      while (stats.confirmed < Math.min(world.frame, remoteHas)) stats.checksums[++stats.confirmed] = hashes[stats.confirmed]!
      stats.frames = world.frame
      if (remoteAcked < world.frame) {
        S.send(host, peers[other]!, { from: remoteAcked + 1, inputs: inputs[me]!.slice(remoteAcked + 1, world.frame + 1) as number[], ack: remoteHas })
      } else if (remoteHas < lastFrame) S.send(host, peers[other]!, { from: world.frame + 1, inputs: [], ack: remoteHas })
    },
    16,
  )
}

export interface Result {
  readonly lines: readonly string[]
  readonly inSync: boolean
}

export const play = (seed: number, seconds: number): Result => {
  const lastFrame = Math.round((seconds * 1000) / STEP)
  const sim = S.create<Packet>({ seed, network: { latency: { min: 20, max: 120 }, loss: 0.05 } })
  const stats = peers.map((): Stats => ({ rollbacks: 0, deepest: 0, replayed: 0, frames: 0, confirmed: 0, checksums: [] }))
  peers.forEach((name, i) => S.addHost(sim, name, peer(i, seed, lastFrame, stats[i]!)))
  S.run(sim, seconds * 1000 + 2000)
  const [a, b] = stats as [Stats, Stats]
  const common = Math.min(a.confirmed, b.confirmed)
  let firstDiff = 0
  for (let f = 1; f <= common && firstDiff === 0; f++) if (a.checksums[f] !== b.checksums[f]) firstDiff = f
  const log = S.messages(sim)
  const lost = log.filter((e) => e.reason === 'loss').length
  const inSync = firstDiff === 0 && common === lastFrame
  return {
    inSync,
    lines: [
      `rollback netcode: 2 peers at 60 Hz for ${seconds} s, latency 20-120 ms (100 ms jitter), 5% loss, seed ${seed}`,
      ...peers.map(
        (name, i) =>
          `  ${name}: ${stats[i]!.frames} frames, ${stats[i]!.rollbacks} rollbacks (at most ${stats[i]!.deepest} frames back), ${stats[i]!.replayed} frames played again`,
      ),
      `  packets: ${log.length} sent, ${lost} lost (${((100 * lost) / log.length).toFixed(1)}%)`,
      `  frames confirmed on both: ${common} of ${lastFrame}; checksums ${firstDiff === 0 ? 'equal at every one' : `DIFFER from frame ${firstDiff}`}`,
      `  checksum after frame ${common}: ${(a.checksums[common] ?? 0).toString(16).padStart(8, '0')}`,
      inSync ? '  in sync' : '  OUT OF SYNC',
    ],
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { seed, seconds } = positiveFlags({ seed: 7, seconds: 20 })
  const result = play(seed, seconds)
  for (const line of result.lines) console.log(line)
  if (!result.inSync) process.exitCode = 1
}
