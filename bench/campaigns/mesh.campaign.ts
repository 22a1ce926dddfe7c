/**
 * The scaling benchmark's campaign (bench/campaign-scaling.ts): eight hosts, each sending
 * every other a message every 3 ms for 1.5 s of simulated time over lossy links, under a
 * swarm of faults; about 50 ms of CPU a seed on the machines this was tuned on. Its check
 * fails on a fixed, deterministic set of seeds (a partition cut a message within the first
 * 200 ms), which the benchmark's checksum compares between rounds.
 */
import { Campaign } from 'timing-wheel/campaign'
import { Simulation as S } from 'timing-wheel/simulation'

const hosts = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7']

export default Campaign.define({
  faults: { hosts, window: 1200, maxDuration: 300, maxFaults: 6 },
  duration: 1500,
  shrink: false,
  setup: (schedule) => {
    const sim = S.create<number>({ seed: schedule.seed, network: { latency: { min: 1, max: 20 }, loss: 0.01 } })
    for (const name of hosts) {
      S.addHost(sim, name, (host) => {
        let n = 0
        S.onMessage(host, () => n++)
        S.setInterval(host, () => hosts.forEach((to) => to !== name && S.send(host, to, n)), 3)
      })
    }
    return {
      sim,
      check: () => {
        const cut = S.messages(sim).find((m) => m.reason === 'partition' && m.at < 200)
        return cut === undefined ? undefined : { message: `${cut.from} -> ${cut.to} cut at ${cut.at} ms`, at: cut.at }
      },
    }
  },
})
