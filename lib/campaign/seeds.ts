/**
 * Which seeds a campaign runs, and which of them a shard runs.
 *
 * Representation. A range is its `first` seed and its `last` (inclusive), or no `last`
 * when the campaign runs for a time instead. A shard is `index` of `count`, from 1, as
 * Vitest, Jest and Playwright write it (`--shard 2/3`).
 *
 * Invariant: the shards `1/n` … `n/n` of a range run every seed of it exactly once. A
 * shard takes every n-th seed, from `first + index - 1` (not a block: a range run for a
 * time has no end to cut blocks from, and striding keeps the shards' seeds as spread as
 * the whole campaign's when they are stopped early).
 */
import { TimingWheelError, show } from '../errors.js'

/**
 * Seeds from `first` to `last` inclusive; without `last`, until the campaign's time is up.
 *
 * @example
 * const range: SeedRange = Campaign.parseSeeds('1000..') // { first: 1000 }: run with a time budget
 */
export interface SeedRange {
  /** The first seed, an integer in [0, 2^31 - 1]. */
  readonly first: number
  /** The last seed, inclusive (at least `first`); absent: no end. */
  readonly last?: number
}

/**
 * Shard `index` of `count` (both from 1), the `--shard i/n` of Vitest, Jest and Playwright.
 *
 * @example
 * const shard: Shard = Campaign.parseShard('2/4') // { index: 2, count: 4 }
 */
export interface Shard {
  /** Which shard, in [1, count]. */
  readonly index: number
  /** How many shards the campaign is split into. */
  readonly count: number
}

/** The whole campaign: shard 1 of 1. */
export const wholeCampaign: Shard = { index: 1, count: 1 }

const maxSeed = 2 ** 31 - 1

const bad = (message: string): never => {
  throw new TimingWheelError('InvalidArgument', message)
}

const seedOf = (what: string, text: string): number =>
  /^\d+$/.test(text) && Number(text) <= maxSeed ? Number(text) : bad(`${what} ${show(text)} is not an integer in [0, ${maxSeed}]`)

/**
 * Reads `a..b` (both inclusive), `a..` (no end: with a time budget) or `a` (that seed alone).
 *
 * @example
 * parseSeeds('0..999') // { first: 0, last: 999 }
 * parseSeeds('7')      // { first: 7, last: 7 }
 */
export const parseSeeds = (text: unknown): SeedRange => {
  if (typeof text !== 'string') return bad(`seeds ${show(text)} is not a string like "0..999"`)
  const m = /^([^.]*)\.\.(.*)$/.exec(text)
  if (m === null) {
    const seed = seedOf('seed', text)
    return { first: seed, last: seed }
  }
  const first = seedOf('first seed', m[1]!)
  if (m[2] === '') return { first }
  const last = seedOf('last seed', m[2]!)
  return last >= first ? { first, last } : bad(`seeds ${show(text)}: the last seed ${last} is before the first ${first}`)
}

/**
 * Reads `i/n`, with `1 <= i <= n`.
 *
 * @example
 * parseShard('2/3') // { index: 2, count: 3 }
 */
export const parseShard = (text: unknown): Shard => {
  const m = typeof text === 'string' ? /^(\d+)\/(\d+)$/.exec(text) : null
  if (m === null) return bad(`shard ${show(text)} is not "i/n", as in --shard 2/3`)
  const [index, count] = [Number(m[1]), Number(m[2])]
  return checkShard({ index, count })
}

/** The shard if `1 <= index <= count <= 2^31 - 1`, whole numbers; else `InvalidArgument`. */
export const checkShard = (shard: unknown): Shard => {
  const s = shard as Partial<Shard> | null
  const ok =
    typeof s === 'object' &&
    s !== null &&
    Number.isInteger(s.index) &&
    Number.isInteger(s.count) &&
    s.count! >= 1 &&
    s.count! <= maxSeed &&
    s.index! >= 1 &&
    s.index! <= s.count!
  return ok ? { index: s.index!, count: s.count! } : bad(`shard ${show(shard)} is not an index in [1, count] of a count in [1, ${maxSeed}]`)
}

/** The range if its seeds are integers in [0, 2^31 - 1] and `last >= first`; else `InvalidArgument`. */
export const checkRange = (range: unknown): SeedRange => {
  const r = range as Partial<SeedRange> | null
  const isSeed = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= maxSeed
  if (typeof r !== 'object' || r === null || !isSeed(r.first) || (r.last !== undefined && (!isSeed(r.last) || r.last < r.first))) {
    return bad(`seeds ${show(range)} is not { first, last? } with integers in [0, ${maxSeed}] and last >= first`)
  }
  return r.last === undefined ? { first: r.first } : { first: r.first, last: r.last }
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/**
 * Reads a duration such as `10m`, `90s`, `1h30m` or `500ms` into ms (at least 1 ms, at most a week).
 *
 * @example
 * parseDuration('1h30m') // 5400000
 */
export const parseDuration = (text: unknown): number => {
  const parts = typeof text === 'string' ? [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)] : []
  const whole = parts.map((p) => p[0]).join('')
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]!]!, 0)
  return parts.length > 0 && whole === text && ms >= 1 && ms <= 7 * 86_400_000
    ? Math.round(ms)
    : bad(`time ${show(text)} is not a duration from 1ms to 168h, such as "10m", "90s" or "1h30m"`)
}

/**
 * How many seeds the shard runs, or `undefined` for a range with no end.
 *
 * @example
 * Campaign.shardSize({ first: 0, last: 9 }, { index: 2, count: 3 }) // 3: seeds 1, 4 and 7
 * Campaign.shardSize({ first: 0 }, { index: 1, count: 1 })          // undefined
 */
export const shardSize = (range: SeedRange, shard: Shard): number | undefined =>
  range.last === undefined ? undefined : Math.max(0, Math.floor((range.last - range.first - (shard.index - 1)) / shard.count) + 1)

/**
 * The shard's seeds, in order: every `count`-th seed of the range from `first + index - 1`.
 *
 * @example
 * [...shardSeeds({ first: 0, last: 9 }, { index: 2, count: 3 })] // [1, 4, 7]
 */
export function* shardSeeds(range: SeedRange, shard: Shard): Generator<number, void, undefined> {
  for (let seed = range.first + shard.index - 1; seed <= (range.last ?? maxSeed); seed += shard.count) yield seed
}

/** The shard as `i/n`. */
export const showShard = (shard: Shard): string => `${shard.index}/${shard.count}`
