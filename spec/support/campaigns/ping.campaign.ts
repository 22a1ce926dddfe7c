/**
 * Small campaigns for spec/campaign*.spec.ts: three hosts ping each other every 20 ms for
 * 400 ms, and answer each ping with a pong.
 *
 * - default: "no message is ever cut by a partition": fails exactly on the seeds whose
 *   partitions meet traffic, a few ms of CPU a seed.
 * - `stuck`: host b, once restarted, never answers again: safe, but not live after a crash.
 * - `unseeded`: b answers after a delay from Math.random, not installed, so a seed's two
 *   runs differ; and everything fails, so every seed is self-checked.
 */
import { Campaign } from 'timing-wheel/campaign'
import { type FaultSchedule, type Host, Simulation as S } from 'timing-wheel/simulation'

type Msg = 'ping' | 'pong'
const hosts = ['a', 'b', 'c']

const build = (schedule: FaultSchedule, server: (host: Host<Msg>, booted: number) => (from: string) => void) => {
  const sim = S.create<Msg>({ seed: schedule.seed, network: { latency: { min: 1, max: 10 } } })
  const boots = new Map<string, number>()
  for (const name of hosts) {
    S.addHost(sim, name, (host) => {
      const booted = (boots.get(name) ?? 0) + 1
      boots.set(name, booted)
      const answer = server(host, booted)
      S.onMessage(host, (from, m) => (m === 'ping' ? answer(from) : undefined))
      S.setInterval(host, () => hosts.filter((h) => h !== name).forEach((to) => S.send(host, to, 'ping')), 20)
    })
  }
  return sim
}

const answer = (host: Host<Msg>) => (from: string) => S.send(host, from, 'pong')

export default Campaign.define({
  faults: { hosts, window: 300, maxDuration: 100, maxFaults: 3 },
  duration: 400,
  // A second panel on each failure's picture, made from the same log.
  panels: [{ title: 'Messages', html: (log) => `<p id="messages">${log.filter((e) => e.kind === 'message').length} messages</p>` }],
  setup: (schedule) => {
    const sim = build(schedule, answer)
    return {
      sim,
      check: () => {
        const cut = S.messages(sim).find((m) => m.reason === 'partition')
        return cut === undefined ? undefined : { message: `${cut.from} -> ${cut.to} cut by a partition`, at: cut.at }
      },
    }
  },
})

export const stuck = Campaign.define({
  faults: { hosts: ['b'], window: 300, maxDuration: 100, maxFaults: 2, kinds: ['crash', 'pause'] },
  duration: 400,
  liveness: { within: 200 },
  setup: (schedule) => {
    const sim = build(schedule, (host, booted) => (host.name === 'b' && booted > 1 ? () => {} : answer(host)))
    // Progress is b's answers: a and c answer each other whatever b does.
    return { sim, check: () => undefined, progress: () => S.messages(sim).filter((m) => m.from === 'b' && m.message === 'pong' && m.outcome === 'delivered').length }
  },
})

export const unseeded = Campaign.define({
  faults: { hosts, window: 300, maxDuration: 100, maxFaults: 1 },
  duration: 200,
  shrink: false,
  setup: (schedule) => {
    const sim = build(schedule, (host) => (from) => S.setTimeout(host, () => S.send(host, from, 'pong'), Math.floor(Math.random() * 20)))
    return { sim, check: () => 'fails every time' }
  },
})
