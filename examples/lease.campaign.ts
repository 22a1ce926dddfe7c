/**
 * The buggy lease of examples/lease.ts as a campaign: `npx timing-wheel simulate
 * examples/lease.campaign.ts --seeds 0..199` (and `npm run example:campaign`, which runs it
 * through the API). Each seed draws which fault kinds are on (swarm testing), a schedule of
 * them, and checks safety (no write outside the server's lease) and then liveness (after
 * every fault is healed, some node writes again within 2 s).
 */
import { Campaign } from 'timing-wheel/campaign'
import { LEASE, MAX_DRIFT_PPM, RUN, build, nodes } from './lease.js'

export default Campaign.define({
  faults: { hosts: ['lock', ...nodes], window: 2500, maxDuration: 1500, maxFaults: 4, maxDriftPpm: MAX_DRIFT_PPM },
  // The lock server's clock is the reference: it is not skewed.
  accept: (fault) => !(fault.kind === 'skew' && fault.host === 'lock'),
  duration: RUN,
  setup: (schedule) => {
    const { sim, observer } = build(schedule.seed, process.env['LEASE_FIXED'] === '1')
    return {
      sim,
      check: () => (observer.violation === undefined ? undefined : { message: observer.violation, at: observer.violationAt }),
      progress: () => observer.writes,
    }
  },
  liveness: { within: 4 * LEASE },
})
