/**
 * A campaign: a simulation run over many seeds, each seed one fast-check run of a
 * property over fault schedules, in the manner of FoundationDB's and TigerBeetle's
 * simulators (a failure is a seed that replays it) and of swarm testing (Groce et al.,
 * ISSTA 2012: each seed turns fault kinds on or off, so runs differ in kind, not only in
 * timing).
 *
 * Representation. A campaign is the user's options and one arbitrary of draws: the fault
 * kinds a seed turns on (the swarm; not shrunk, so a shrunk failure keeps its kinds) and a
 * `faultScheduleArb` schedule over those kinds. Seed `n` is `fc.check` of the property
 * with `{ seed: n, numRuns: 1 }`: the same draw on every machine and in every thread, and,
 * when it fails, fast-check shrinks it and its path replays the shrunk schedule.
 *
 * One run (`play`): `setup` builds the simulation from the schedule, the schedule is
 * applied, the simulation runs `duration` ms with `check` called every `checkEvery` ms
 * (safety). With `liveness`, it then runs until every scheduled fault is undone, heals
 * whatever is left (partitions, holds, crashes, pauses), and requires `progress` to grow
 * within `liveness.within` ms (TigerBeetle's VOPR keeps the two modes apart the same way).
 *
 * A failing seed runs twice (the draw fast-check made, then again): when the two logs
 * differ, the failure says so with the first differing entry, since a seed that does not
 * replay is a bug in the simulation (randomness or time from outside it), not in the
 * program; the second run counts the real `Math.random`, `Date.now` and `performance.now`
 * it calls, to name the usual culprits. The runner (runner.ts) only hands out seeds; this file knows the simulation.
 */
import fc from 'fast-check'
import { TimingWheelError, show } from '../errors.js'
import { type Fault, type FaultSchedule, type FaultScheduleOptions, applySchedule, describeFault, faultScheduleArb } from '../simulation/schedule.js'
import { type Simulation, checkDelay, heal, hosts, log, release, restart, resume, run as runFor, status } from '../simulation/simulation.js'
import { type Difference, type Entry, firstDifference } from './log.js'
import type { FailureMark, Panel } from './picture.js'

/**
 * What `check` says: nothing (all is well), the failure in words, or the words and the true time it happened.
 *
 * @example
 * const check = (): Verdict => (leaders(sim).length > 1 ? { message: 'two leaders', at: sim.clock.now } : undefined)
 */
export type Verdict =
  | string
  | {
      /** The failure in words. */
      readonly message: string
      /** When it happened, true time (`clock.now`). */
      readonly at: number
    }
  | undefined

/**
 * One run, as `setup` builds it.
 *
 * @example
 * const setup = (schedule: FaultSchedule): Run<Msg> => {
 *   const sim = Simulation.create<Msg>({ seed: schedule.seed })
 *   // add the hosts…
 *   return { sim, check: () => observer.violation, progress: () => observer.grants }
 * }
 */
export interface Run<M> {
  /** The simulation, made with the schedule's seed and its hosts added; the campaign applies the schedule and runs it. */
  readonly sim: Simulation<M>
  /** Safety: what is wrong now, if anything. Called every `checkEvery` ms and at the end. */
  readonly check: () => Verdict
  /** Liveness: a count that grows while the system makes progress (commits, grants, replies). Required with `liveness`. */
  readonly progress?: () => number
}

/**
 * What `define` takes.
 *
 * @example
 * const options: CampaignOptions<Msg> = {
 *   faults: { hosts: ['lock', 'n1', 'n2'], window: 2500, maxFaults: 4 },
 *   duration: 3000,
 *   checkEvery: 100,
 *   liveness: { within: 2000 },
 *   setup,
 * }
 * export default Campaign.define(options)
 */
export interface CampaignOptions<M> {
  /** The faults to draw from (`faultScheduleArb`'s options); `kinds` is the pool the swarm picks from (default all five). */
  readonly faults: FaultScheduleOptions
  /** How long a run is, ms after the schedule is applied. */
  readonly duration: number
  /** Builds one run: make the simulation with `create({ seed: schedule.seed })` and add its hosts. */
  readonly setup: (schedule: FaultSchedule) => Run<M>
  /** Call `check` every this many ms (default: once, at the end). */
  readonly checkEvery?: number
  /** After the safety run, heal every fault and require `progress` to grow within `within` ms. */
  readonly liveness?: {
    /** ms after the last fault is undone within which `progress` must grow. */
    readonly within: number
  }
  /** Each seed turns fault kinds on or off at random (default true); false: every seed draws from the whole pool. */
  readonly swarm?: boolean
  /** Shrink a failing schedule with fast-check (default true). */
  readonly shrink?: boolean
  /** More panels for each failure's picture, after the timeline (say, issue 42's history view, from the log). */
  readonly panels?: readonly Panel[]
  /** Keep only the faults this accepts (say, no skew of the reference clock); default all. */
  readonly accept?: (fault: Fault) => boolean
}

/**
 * One draw of a seed: the fault kinds the swarm turned on and the schedule over them.
 *
 * @example
 * const [draw] = fc.sample(campaign.arbitrary, { seed: 7, numRuns: 1 })
 * draw!.kinds // the kinds seed 7 turned on, such as ['crash', 'skew']
 */
export interface Draw {
  /** The fault kinds this seed may use. */
  readonly kinds: ReadonlyArray<Fault['kind']>
  /** The schedule drawn over them. */
  readonly schedule: FaultSchedule
}

/**
 * A campaign made by `define`: the options, checked, and the arbitrary of draws.
 *
 * @example
 * const campaign: CampaignT<Msg> = Campaign.define(options)
 * fc.sample(campaign.arbitrary, 3) // three draws: kinds and schedules
 */
export interface Campaign<M = unknown> {
  /** The options it was made with. */
  readonly options: CampaignOptions<M>
  /** The draws, one per seed. */
  readonly arbitrary: fc.Arbitrary<Draw>
}

/**
 * A run's failure: which phase, in words, and when.
 *
 * @example
 * const failure: RunFailure | undefined = Campaign.play(campaign, draw).failure
 * if (failure) console.log(`${failure.phase} at ${failure.at} ms: ${failure.message}`)
 */
export interface RunFailure extends FailureMark {
  /** Safety (`check`) or liveness (no progress after the faults were healed). */
  readonly phase: 'safety' | 'liveness'
}

/**
 * How one run went: the failure if any, and the log and hosts for the picture.
 *
 * @example
 * const outcome: Outcome = Campaign.play(campaign, draw)
 * const html = Campaign.picture(outcome.log, { hosts: outcome.hosts, ...(outcome.failure && { failure: outcome.failure }) })
 */
export interface Outcome {
  /** The failure, or `undefined`. */
  readonly failure: RunFailure | undefined
  /** The simulation's log (empty when `setup` threw). */
  readonly log: readonly Entry[]
  /** The hosts, in the order added. */
  readonly hosts: readonly string[]
}

/**
 * A failing seed, as the failures file holds it (one JSON line each, with the runner's `shard` and `replay`).
 *
 * @example
 * const failure: Failure | undefined = Campaign.trial(campaign, 42).failure
 * if (failure) console.log(failure.failure, failure.shrunk?.faults ?? failure.faults)
 */
export interface Failure {
  /** The campaign seed: `--seed` replays it. */
  readonly seed: number
  /** Which check failed. */
  readonly phase: 'safety' | 'liveness'
  /** The failure in words. */
  readonly failure: string
  /** When, true time. */
  readonly at: number
  /** The fault kinds the swarm turned on for this seed. */
  readonly kinds: ReadonlyArray<Fault['kind']>
  /** The schedule drawn. */
  readonly schedule: FaultSchedule
  /** The schedule in words. */
  readonly faults: readonly string[]
  /** The schedule fast-check shrank it to, when shrinking is on. */
  readonly shrunk?: {
    /** The shrunk schedule. */
    readonly schedule: FaultSchedule
    /** In words. */
    readonly faults: readonly string[]
    /** Its failure in words. */
    readonly failure: string
    /** How many shrinking steps it took. */
    readonly steps: number
    /** fast-check's path: `fc.check(property, { seed, path })` replays it. */
    readonly path: string
  }
  /** Set when the seed's two runs' logs differ: where, and what outside the seed the second run called. */
  readonly nondeterminism?: Difference & {
    /** The real process's randomness and clocks the run called (`Math.random (12 calls)`): what to install or replace. */
    readonly outside: readonly string[]
  }
}

const allKinds: ReadonlyArray<Fault['kind']> = ['partition', 'hold', 'crash', 'pause', 'skew']

const bad = (message: string): never => {
  throw new TimingWheelError('InvalidArgument', message)
}

const positiveMs = (what: string, ms: unknown): number =>
  typeof ms === 'number' && Number.isInteger(ms) && ms >= 1 && ms <= 2 ** 31 - 1 ? ms : bad(`${what} ${show(ms)} is not a whole number of ms in [1, ${2 ** 31 - 1}]`)

const brand = Symbol.for('timing-wheel.Campaign')

/**
 * Makes a campaign from its options, checked (`InvalidArgument` naming the value and
 * what is allowed). A campaign file's default export is one.
 *
 * @example
 * export default Campaign.define({
 *   faults: { hosts: ['a', 'b', 'c'], window: 2000 },
 *   duration: 3000,
 *   setup: (schedule) => {
 *     const sim = Simulation.create<Msg>({ seed: schedule.seed })
 *     // add hosts…
 *     return { sim, check: () => (twoLeaders(sim) ? 'two leaders' : undefined) }
 *   },
 * })
 */
export const define = <M>(options: CampaignOptions<M>): Campaign<M> => {
  if (typeof options !== 'object' || options === null) bad(`campaign options ${show(options)} is not an object`)
  if (typeof options.setup !== 'function') bad(`setup ${show(options.setup)} is not a function`)
  positiveMs('duration', options.duration)
  if (options.checkEvery !== undefined) positiveMs('checkEvery', options.checkEvery)
  if (options.liveness !== undefined) {
    if (typeof options.liveness !== 'object' || options.liveness === null) bad(`liveness ${show(options.liveness)} is not { within }`)
    positiveMs('liveness.within', options.liveness.within)
  }
  if (options.accept !== undefined && typeof options.accept !== 'function') bad(`accept ${show(options.accept)} is not a function`)
  if (options.panels !== undefined && !(Array.isArray(options.panels) && options.panels.every((p) => typeof p === 'object' && p !== null && typeof p.title === 'string' && ['string', 'function'].includes(typeof p.html)))) {
    bad(`panels ${show(options.panels)} is not an array of { title, html } (html a string or a function of the log)`)
  }
  for (const flag of ['swarm', 'shrink'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') bad(`${flag} ${show(options[flag])} is not a boolean`)
  }
  const faults = options.faults
  if (typeof faults !== 'object' || faults === null) bad(`faults ${show(faults)} is not faultScheduleArb's options`)
  faultScheduleArb(faults) // checks them
  const pairs = Array.isArray(faults.hosts) && faults.hosts.length >= 2
  const pool = (faults.kinds ?? allKinds).filter((k) => pairs || (k !== 'partition' && k !== 'hold'))
  const accept = options.accept
  const over = (kinds: ReadonlyArray<Fault['kind']>): fc.Arbitrary<Draw> =>
    faultScheduleArb({ ...faults, kinds }).map((schedule) => ({ kinds, schedule: accept === undefined ? schedule : { seed: schedule.seed, faults: schedule.faults.filter(accept) } }))
  const arbitrary = options.swarm === false ? over(pool) : fc.noShrink(fc.subarray([...pool], { minLength: 1 })).chain(over)
  return Object.defineProperty({ options, arbitrary }, brand, { value: true })
}

/**
 * Whether `value` is a campaign `define` made (in this copy of the package or another).
 *
 * @example
 * const { default: campaign } = await import('./lease.campaign.js')
 * if (!Campaign.isCampaign(campaign)) throw new Error('the default export is not Campaign.define(…)')
 */
export const isCampaign = (value: unknown): value is Campaign =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true

const verdictOf = (v: Verdict, now: number): { message: string; at: number } | undefined =>
  v === undefined ? undefined : typeof v === 'string' ? { message: v, at: now } : { message: String(v.message), at: v.at }

/** Heals what is left of every fault: partitions, holds, crashes, pauses (skews stay: a clock off is no outage). */
const healAll = <M>(sim: Simulation<M>): void => {
  heal(sim)
  for (const from of sim.order) {
    from.links.forEach((l, to) => {
      if (l?.held === true) release(sim, from.name, sim.order[to]!.name, { oneWay: true })
    })
  }
  for (const h of hosts(sim)) {
    const s = status(sim, h)
    if (!s.up) restart(sim, h)
    else if (s.paused) resume(sim, h)
  }
}

/**
 * One run of a draw: setup, schedule, the safety run, and the liveness phase if asked for.
 * A `setup` or `check` that throws is a failure, in words.
 *
 * @example
 * const outcome = play(campaign, fc.sample(campaign.arbitrary, { seed: 7, numRuns: 1 })[0]!)
 * outcome.failure?.message
 */
export const play = <M>(campaign: Campaign<M>, draw: Draw): Outcome => {
  const { setup, duration, checkEvery, liveness } = campaign.options
  let built: Run<M> | undefined
  const outcome = (failure: Outcome['failure']): Outcome => ({
    failure,
    log: built === undefined ? [] : (log(built.sim) as readonly Entry[]),
    hosts: built === undefined ? [] : hosts(built.sim),
  })
  try {
    built = setup(draw.schedule)
    const { sim, check, progress } = built
    const start = sim.clock.now
    applySchedule(sim, draw.schedule)
    const step = checkEvery ?? duration
    for (let elapsed = 0; elapsed < duration; ) {
      const ms = Math.min(step, duration - elapsed)
      runFor(sim, ms)
      elapsed += ms
      const failure = verdictOf(check(), sim.clock.now)
      if (failure !== undefined) return outcome({ phase: 'safety', ...failure })
    }
    if (liveness === undefined) return outcome(undefined)
    if (typeof progress !== 'function') bad(`progress ${show(progress)} is not a function: the campaign has a liveness phase`)
    const faultsEnd = Math.max(0, ...draw.schedule.faults.map((f) => f.at + f.duration))
    runFor(sim, checkDelay('liveness phase start', Math.max(0, start + faultsEnd - sim.clock.now)))
    healAll(sim)
    const before = progress!()
    runFor(sim, liveness.within)
    const failure = verdictOf(check(), sim.clock.now)
    if (failure !== undefined) return outcome({ phase: 'safety', ...failure })
    const after = progress!()
    if (after > before) return outcome(undefined)
    return outcome({ phase: 'liveness', message: `no progress within ${liveness.within} ms after every fault was healed (progress stayed at ${before})`, at: sim.clock.now })
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    return outcome({ phase: 'safety', message: `threw ${message}`, at: built?.sim.clock.now ?? 0 })
  }
}

/**
 * A seed's trial: its failure (undefined when it passed), and the run to draw (the shrunk one, if shrunk).
 *
 * @example
 * const { failure, shown }: Trial = Campaign.trial(campaign, 42)
 * if (failure && shown) writeFileSync('seed-42.html', Campaign.picture(shown.log, { hosts: shown.hosts }))
 */
export interface Trial {
  /** The seed. */
  readonly seed: number
  /** The failure, or `undefined` when the seed passed. */
  readonly failure: Failure | undefined
  /** The failing run to draw: the shrunk schedule's (or the drawn one's). */
  readonly shown: Outcome | undefined
}

const words = (s: FaultSchedule): string[] => s.faults.map(describeFault)

/** Where a run can reach past its seed: randomness and time of the real process. */
const outside: ReadonlyArray<readonly [object, string, string]> = [
  [Math, 'random', 'Math.random'],
  [Date, 'now', 'Date.now'],
  [performance, 'now', 'performance.now'],
]

/**
 * Runs `f` with the real process's randomness and clocks counting their calls. A run that
 * installed its simulation (`install`) replaced them with its own meanwhile, so what is
 * counted is only what bypassed the seed.
 */
const watchingOutside = <T>(f: () => T): { value: T; calls: string[] } => {
  const counts = outside.map(() => 0)
  const saved = outside.map(([owner, key]) => (owner as Record<string, unknown>)[key] as (...args: unknown[]) => unknown)
  outside.forEach(([owner, key], i) => {
    ;(owner as Record<string, unknown>)[key] = function (this: unknown, ...args: unknown[]) {
      counts[i]!++
      return saved[i]!.apply(this, args)
    }
  })
  try {
    return { value: f(), calls: outside.flatMap(([, , name], i) => (counts[i]! > 0 ? [`${name} (${counts[i]} calls)`] : [])) }
  } finally {
    outside.forEach(([owner, key], i) => ((owner as Record<string, unknown>)[key] = saved[i]))
  }
}

/**
 * Runs campaign seed `seed` (an integer in [0, 2^31 - 1]): the draw fast-check makes from
 * it, shrunk when it fails (unless `shrink: false`), and run once more to check it replays.
 *
 * @example
 * const { failure } = trial(campaign, 42)
 * if (failure) console.log(failure.failure, failure.shrunk?.faults)
 */
export const trial = <M>(campaign: Campaign<M>, seed: number): Trial => {
  if (!isCampaign(campaign)) bad(`campaign ${show(campaign)} is not one made by define`)
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31 - 1) bad(`seed ${show(seed)} is not an integer in [0, ${2 ** 31 - 1}]`)
  let first: { draw: Draw; outcome: Outcome } | undefined
  const result = fc.check(
    fc.property(campaign.arbitrary, (draw) => {
      const outcome = play(campaign, draw)
      first ??= { draw, outcome }
      return outcome.failure === undefined
    }),
    { seed, numRuns: 1, endOnFailure: campaign.options.shrink === false },
  )
  if (!result.failed || first === undefined || first.outcome.failure === undefined) return { seed, failure: undefined, shown: undefined }
  const { draw, outcome } = first
  const { value: again, calls } = watchingOutside(() => play(campaign, draw))
  const parted = firstDifference(outcome.log, again.log)
  const difference = parted === undefined ? undefined : { ...parted, outside: calls }
  const failure = outcome.failure!
  const shrunkDraw = result.counterexample?.[0]
  const shrunk = campaign.options.shrink === false || shrunkDraw === undefined ? undefined : play(campaign, shrunkDraw)
  return {
    seed,
    failure: {
      seed,
      phase: failure.phase,
      failure: failure.message,
      at: failure.at,
      kinds: draw.kinds,
      schedule: draw.schedule,
      faults: words(draw.schedule),
      ...(shrunk?.failure === undefined
        ? {}
        : {
            shrunk: {
              schedule: shrunkDraw!.schedule,
              faults: words(shrunkDraw!.schedule),
              failure: shrunk.failure.message,
              steps: result.numShrinks,
              path: result.counterexamplePath ?? '',
            },
          }),
      ...(difference === undefined ? {} : { nondeterminism: difference }),
    },
    shown: shrunk?.failure === undefined ? outcome : shrunk,
  }
}
