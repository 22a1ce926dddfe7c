/**
 * `timing-wheel/campaign`: a simulation run as a campaign, over many seeds on worker
 * threads and across machines (`--shard i/n`), the way FoundationDB's simulator and
 * TigerBeetle's VOPR run theirs. Each seed turns fault kinds on or off (swarm testing),
 * draws a fault schedule and runs the simulation (safety, then optionally liveness after
 * every fault is healed); a failing seed is shrunk with fast-check, run twice to check it
 * replays, written as one JSON line (seed, shard, schedule, failure in words, replay
 * command) and drawn as a self-contained HTML picture of its log. The command is
 * `npx timing-wheel simulate <file>`; the simulation itself does not know about any of it.
 *
 * @example
 * // lease.campaign.ts
 * import { Campaign } from 'timing-wheel/campaign'
 * import { Simulation } from 'timing-wheel/simulation'
 *
 * export default Campaign.define({
 *   faults: { hosts: ['lock', 'n1', 'n2'], window: 2500, maxFaults: 4 },
 *   duration: 3000,
 *   setup: (schedule) => {
 *     const sim = Simulation.create<Msg>({ seed: schedule.seed })
 *     // add the hosts…
 *     return { sim, check: () => observer.violation }
 *   },
 * })
 * // then: npx timing-wheel simulate lease.campaign.ts --seeds 0..9999 --shard 1/4
 *
 * @module
 */
export * as Campaign from './namespace.js'
export type { Campaign as CampaignT, CampaignOptions, Draw, Failure, Outcome, Run, RunFailure, Trial, Verdict } from './campaign.js'
export type { Difference, Entry } from './log.js'
export type { FailureMark, Panel, PictureOptions } from './picture.js'
export type { Progress, ProgressMode, ProgressStream } from './progress.js'
export type { FailureRecord, RunOptions, Summary } from './runner.js'
export type { SeedRange, Shard } from './seeds.js'
