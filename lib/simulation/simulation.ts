/**
 * A deterministic simulation: named hosts exchanging messages over a simulated network,
 * with faults, on one `timing-wheel/fake-timers` clock and one seeded generator. This file
 * makes one and runs it; the concepts are in their own files: state.ts (what a
 * simulation, host, link and message are), hosts.ts, network.ts, log.ts, checks.ts.
 *
 * Representation: a `Simulation` (state.ts). Every random choice comes from `random` in
 * the order the run makes them; a link without faults and with a fixed latency draws
 * nothing. The same seed and program give the same log, bit for bit.
 *
 * Invariants: those of each concept's file.
 */
import { show } from '../errors.js'
import { createClock } from '../fake-timers/index.js'
import * as Random from './random.js'
import * as O from '#fp-ts/Option.js'
import { checkDelay, checkDelayLong, fail, fn, isNumber, linkParams, maxOffset, options, probability } from './checks.js'
import { batchOf, inFlight, land } from './network.js'
import { arrivalsOn } from './arrivals.js'
import { hostError } from './hosts.js'
import { type Host, type Simulation, type SimulationClock, type SimulationOptions, type BuggifyOptions, direct, simOf } from './state.js'

export * from './state.js'
export * from './log.js'
export * from './hosts.js'
export * from './network.js'
export { checkDelay } from './checks.js'

/** @internal Builds a simulation on `clock` from checked options. */
export const build = <M>(clock: SimulationClock, opts: SimulationOptions): Simulation<M> => {
  const buggify = opts.buggify === true ? {} : opts.buggify === false || opts.buggify === undefined ? undefined : opts.buggify
  const sim: Simulation<M> = {
    clock,
    random: Random.create(opts.seed),
    hosts: Object.create(null) as Record<string, never>,
    order: [],
    defaults: linkParams(opts.network, { min: 1, max: 1, loss: 0, duplicate: 0, reorder: 0 }),
    wire: 0,
    land: (t) => land(sim, t),
    arrivals: opts.batch === true ? undefined : arrivalsOn<M>(clock, (t) => land(sim, t)),
    batch: opts.batch === true ? batchOf<M>(() => sim, clock) : undefined,
    sent: 0,
    spare: [],
    log: opts.log === false ? undefined : [],
    buggify:
      buggify === undefined
        ? undefined
        : { activate: probability('buggify.activate', buggify.activate ?? 0.25), fire: probability('buggify.fire', buggify.fire ?? 0.25) },
    faults: new Map(),
    enter: direct,
    uninstall: undefined,
    syncRun: false,
    asyncFailure: undefined,
    settle: undefined,
    onError: opts.onError ?? 'fail',
    hostError: (h, e) => hostError(sim, h, e),
  }
  return sim
}

/** @internal Checks `create`'s and `install`'s options, refusing before any clock is made. */
export const checkOptions = (value: unknown): SimulationOptions => {
  if (typeof value !== 'object' || value === null) fail('InvalidArgument', `simulation options ${show(value)} is not an object with a seed`)
  const o = value as Partial<SimulationOptions>
  if (!isNumber(o.seed) || !Number.isInteger(o.seed) || o.seed < -(2 ** 31) || o.seed > 2 ** 31 - 1) {
    fail('InvalidArgument', `seed ${show(o.seed)} is not an integer in [-2147483648, 2147483647]`)
  }
  if (o.now !== undefined && !(isNumber(o.now) && Math.abs(o.now) <= maxOffset)) {
    fail('TimeOutOfRange', `now ${show(o.now)} is not a time in ms in [-${maxOffset}, ${maxOffset}]`)
  }
  linkParams(o.network, { min: 1, max: 1, loss: 0, duplicate: 0, reorder: 0 })
  for (const key of ['log', 'batch'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean') fail('InvalidArgument', `${key} ${show(o[key])} is not a boolean`)
  }
  if (o.buggify !== undefined && typeof o.buggify !== 'boolean') {
    const b = options<BuggifyOptions>('buggify', o.buggify)
    if (b.activate !== undefined) probability('buggify.activate', b.activate)
    if (b.fire !== undefined) probability('buggify.fire', b.fire)
  }
  if (o.onError !== undefined && !['fail', 'crash', 'record'].includes(o.onError)) {
    fail('InvalidArgument', `onError ${show(o.onError)} is not one of "fail", "crash", "record"`)
  }
  const clock = o.clock as Partial<SimulationClock> | undefined
  const isClock = (c: Partial<SimulationClock>): boolean =>
    (typeof c === 'object' || typeof c === 'function') &&
    c !== null &&
    isNumber(c.now) &&
    (['setTimeout', 'clearTimeout', 'tick', 'tickAsync'] as const).every((k) => typeof c[k] === 'function')
  if (clock !== undefined && !isClock(clock)) {
    fail('InvalidArgument', `clock ${show(o.clock)} is not a fake-timers clock`)
  }
  return o as SimulationOptions
}

/**
 * A simulation on a new `timing-wheel/fake-timers` clock (or `options.clock`), not installed:
 * globals are untouched. See `install` for one whose `Date`, timers and randomness are the program's.
 *
 * @example
 * const sim = create<string>({ seed: 1, network: { latency: { min: 5, max: 50 }, loss: 0.01 } })
 */
export const create = <M = unknown>(opts: SimulationOptions): Simulation<M> => {
  const checked = checkOptions(opts)
  return build<M>(checked.clock ?? createClock(checked.now ?? 0), checked)
}

// Randomness and fault points.

/**
 * A float in [0, 1) from the simulation's generator.
 *
 * @example
 * const jitter = Math.floor(random(host) * 100) // the same every run of the seed
 */
export const random = <M>(source: Simulation<M> | Host<M>): number =>
  Random.float(simOf<unknown>(source).random)

/**
 * An integer in [min, max] from the simulation's generator; throws `InvalidArgument` unless both are safe integers, min <= max.
 *
 * @example
 * const timeout = integer(host, 150, 300) // an election timeout, drawn from the seed
 */
export const integer = <M>(source: Simulation<M> | Host<M>, min: number, max: number): number => {
  const sim = simOf<unknown>(source)
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
    fail('InvalidArgument', `integer(${show(min)}, ${show(max)}): the bounds are not safe integers with min <= max`)
  }
  return Random.int(sim.random, min, max)
}

/**
 * Whether fault point `name` fires now (FoundationDB's `BUGGIFY`): always false unless the
 * simulation was made with `buggify`; otherwise the point is enabled for the whole run
 * with chance `activate` the first time it is asked (or as `setFault` set it), and an
 * enabled point fires with chance `fire` each time.
 *
 * @example
 * if (buggify(host, 'slow disk')) setTimeout(host, reply, 1000)
 * else reply()
 */
export const buggify = <M>(source: Simulation<M> | Host<M>, name: string): boolean => {
  const sim = simOf<unknown>(source)
  if (typeof name !== 'string') fail('InvalidArgument', `fault point ${show(name)} is not a string`)
  let p = sim.faults.get(name)
  if (p === undefined) {
    if (sim.buggify === undefined) return false
    p = Random.chance(sim.random, sim.buggify.activate) ? sim.buggify.fire : 0
    sim.faults.set(name, p)
  }
  return Random.chance(sim.random, p)
}

/**
 * Fixes fault point `name` to fire with chance `p` each time it is asked, buggify on or off.
 *
 * @example
 * setFault(sim, 'slow disk', 1) // fires every time it is asked
 * setFault(sim, 'drop ack', 0) // never
 */
export const setFault = <M>(sim: Simulation<M>, name: string, p: number): void => {
  if (typeof name !== 'string') fail('InvalidArgument', `fault point ${show(name)} is not a string`)
  ;(sim as Simulation<unknown>).faults.set(name, probability(`fault point ${show(name)}'s chance`, p))
}

// Running.

/**
 * Runs the simulation `ms` forward (`clock.tick`): timers, messages and microtasks of the fake clock.
 *
 * @example
 * addHost(sim, 'client', (host) => send(host, 'server', 'ping'))
 * run(sim, 1000) // 1 s of simulated time, at once
 */
export const run = <M>(sim: Simulation<M>, ms: number): void => {
  const checked = checkDelayLong(ms)
  throwAsyncFailure(sim)
  const outer = sim.syncRun
  sim.syncRun = true
  try {
    sim.clock.tick(checked)
  } finally {
    sim.syncRun = outer
  }
}

/**
 * Runs the simulation 1 ms at a time until `predicate` holds (checked first, then after
 * each ms), for at most `within` ms. Returns the ms it ran, or `none` if `predicate` still
 * failed at the bound. Throws `TimeOutOfRange` for a bound outside [0, 2^31 - 1] and
 * `InvalidArgument` for a predicate that is not a function.
 *
 * @example
 * const elected = runUntil(sim, () => leaders(sim).length === 1, 10_000) // some(ms) or none
 */
export const runUntil = <M>(sim: Simulation<M>, predicate: () => boolean, within: number): O.Option<number> => {
  fn('predicate', predicate)
  const bound = checkDelay('within', within)
  for (let ms = 0; ; ms++) {
    if (predicate()) return O.some(ms)
    if (ms + 1 > bound) return O.none
    run(sim, 1)
  }
}

/** Whether nothing is left to run: no message in flight, held or stalled, no host timer pending. */
const quiet = <M>(sim: Simulation<M>): boolean => inFlight(sim) === 0 && sim.order.every((h) => h.timers.size === 0 && h.stalled.length === 0)

/**
 * Runs until the simulation is quiet (no message in flight, held or stalled and no host
 * timer pending: an interval never lets it be), for at most `within` ms. Returns the ms it
 * ran, or `none` at the bound.
 *
 * @example
 * expect(runUntilQuiet(sim, 60_000)).toEqual(O.some(137))
 */
export const runUntilQuiet = <M>(sim: Simulation<M>, within: number): O.Option<number> => runUntil(sim, () => quiet(sim), within)

/**
 * The same, letting promises settle between timers (`clock.tickAsync`): for `async` host code.
 *
 * @example
 * addHost(sim, 'client', (host) => { void fetchConfig(host).then((c) => event(host, 'config', c)) })
 * await runAsync(sim, 1000)
 */
export const runAsync = async <M>(sim: Simulation<M>, ms: number): Promise<void> => {
  const checked = checkDelayLong(ms)
  throwAsyncFailure(sim)
  await sim.clock.tickAsync(checked)
  await sim.settle?.()
  throwAsyncFailure(sim)
}

/** Throws (once) what host code's async errors left under `onError` 'fail'. */
const throwAsyncFailure = <M>(sim: Simulation<M>): void => {
  const failure = sim.asyncFailure
  if (failure === undefined) return
  sim.asyncFailure = undefined
  throw failure.error
}
