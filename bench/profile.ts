/**
 * `npm run bench:profile -- <workload>`: where the wheel's time goes on one workload of
 * `npm run bench` (churn, timeouts, spread, hold, virtualClock, addRemove; churn at 100k
 * outstanding). It warms the wheel up on the quick sizes, then plays the full-size
 * workload three times under V8's sampling profiler, prints the functions with the most
 * self time, and writes the whole profile to `<workload>.cpuprofile` for Chrome DevTools.
 * A function's self time includes whatever V8 inlined into it; only the three plays are
 * profiled, their setup included (generating the workload is not). The npm script
 * compiles the project to `.bench-build/` first, so that functions keep their names and
 * lines.
 */
import { writeFileSync } from 'node:fs'
import type { Profiler } from 'node:inspector'
import { Session } from 'node:inspector/promises'
import { loadVirtualClock } from './adapters/virtual-clock.js'
import { wheel } from './adapters/wheel.js'
import * as Drivers from './drivers.js'
import type { Run } from './drivers.js'
import type { WorkloadId } from './runner.js'
import * as Workloads from './workloads.js'

const seed = 42
const TOP = 20

/** The wheel's play of each workload at the given sizes, the workload generated up front. */
const plays: Partial<Record<WorkloadId, (sizes: Workloads.Sizes) => Promise<() => Run>>> = {
  churn: async (s) => {
    const w = Workloads.churn(s.churn[0]!, s.churnMaxDelay, seed)
    return () => Drivers.churn(wheel, w)
  },
  timeouts: async (s) => {
    const w = Workloads.timeouts(s.timeouts, seed)
    return () => Drivers.timeouts(wheel, w)
  },
  spread: async (s) => {
    const w = Workloads.spread(s.spread, seed)
    return () => Drivers.spread(wheel, w)
  },
  hold: async (s) => {
    const w = Workloads.hold(s.hold, seed)
    return () => Drivers.hold(wheel, w)
  },
  virtualClock: async (s) => {
    const clock = await loadVirtualClock()
    if (typeof clock === 'string') throw new Error(clock)
    const w = Workloads.hold(s.hold, seed)
    return () => Drivers.clockHold(clock, w)
  },
  addRemove: async (s) => {
    const w = Workloads.addRemove(s.addRemove, s.churnMaxDelay, seed)
    return () => Drivers.addRemove(wheel, w)
  },
}

/** Milliseconds of self time per function, named with its file and line. */
const selfTimes = (profile: Profiler.Profile): Map<string, number> => {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const ms = new Map<string, number>()
  profile.samples!.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame
    const name = `${functionName || '(anonymous)'}  ${url.split('/').pop() ?? ''}:${lineNumber + 1}`
    ms.set(name, (ms.get(name) ?? 0) + profile.timeDeltas![i]! / 1000)
  })
  return ms
}

const id = process.argv[2] as WorkloadId
const play = plays[id]
if (play === undefined) {
  console.error(`usage: npm run bench:profile -- <${Object.keys(plays).join('|')}>`)
  process.exit(2)
}
;(await play(Workloads.quick))()
const timed = await play(Workloads.full)
const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.start')
const runs = [timed(), timed(), timed()]
const { profile } = await session.post('Profiler.stop')
session.disconnect()

const out = `${process.cwd()}/${id}.cpuprofile`
writeFileSync(out, JSON.stringify(profile))
const times = [...selfTimes(profile)].sort((a, b) => b[1] - a[1])
const total = times.reduce((sum, [, ms]) => sum + ms, 0)
console.log(`${id}: ${runs.map((run) => (run.ns / run.ops).toFixed(0)).join(', ')} ns per op in the three profiled plays`)
console.log(`self time, the ${TOP} largest of ${total.toFixed(0)} ms:`)
for (const [name, ms] of times.slice(0, TOP)) console.log(`${((100 * ms) / total).toFixed(1).padStart(6)}%  ${name}`)
console.log(`the whole profile: ${out}`)
