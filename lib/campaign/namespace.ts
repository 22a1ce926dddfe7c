/**
 * The `Campaign` namespace: defining a campaign and running its seeds (campaign.ts),
 * running it on worker threads (runner.ts), seeds and shards (seeds.ts), pictures
 * (picture.ts) and the command line (cli.ts).
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
