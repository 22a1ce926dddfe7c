/**
 * The `Campaign` namespace: defining a campaign and running its seeds (campaign.ts),
 * running it on worker threads (runner.ts), seeds and shards (seeds.ts), pictures
 * (picture.ts) and the command line (cli.ts).
 *
 * @example
 * import { Campaign } from 'timing-wheel/campaign'
 *
 * const campaign = Campaign.define({ faults: { hosts: ['a', 'b'], window: 1000 }, duration: 2000, setup })
 * const { failure } = Campaign.trial(campaign, 42) // one seed, in this thread
 * const summary = await Campaign.runCampaign({ file: 'lease.campaign.ts', seeds: Campaign.parseSeeds('0..999') })
 *
 * @module
 */
export { define, isCampaign, play, trial } from './campaign.js'
export { firstDifference, describeEntry } from './log.js'
export { picture, escapeHtml } from './picture.js'
export { reporter } from './progress.js'
export { runCampaign, describeFailure } from './runner.js'
export { loadCampaign } from './load.js'
export { parseSeeds, parseShard, parseDuration, shardSeeds, shardSize } from './seeds.js'
export { parseCommand, main } from './cli.js'
