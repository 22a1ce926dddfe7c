/**
 * The simulation's log as the campaign reads it: in words (a failure names an entry), as
 * canonical text (two runs compare entry by entry), and its hosts' skews (the picture).
 *
 * The entries are the log contract's (`Simulation.log`): messages, application events,
 * faults and hosts, each with `kind` and the true time `at`.
 */
import type { LogEntry, MessageEntry } from '../simulation/simulation.js'

/**
 * One entry of a simulation's log, of any message type.
 *
 * @example
 * const entries: readonly Entry[] = Simulation.log(sim)
 * entries.map(Campaign.describeEntry)
 */
export type Entry = LogEntry<unknown>

/** Whether the entry is a message's. */
export const isMessage = (e: Entry): e is MessageEntry<unknown> => e.kind === 'message'

/** Any value as short, stable text: JSON where it can, with bigints, functions and cycles named. */
export const canonical = (value: unknown): string => {
  const seen = new WeakSet<object>()
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => {
        if (typeof v === 'bigint') return `${v}n`
        if (typeof v === 'function') return `[function ${v.name}]`
        if (typeof v === 'symbol') return v.toString()
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[cycle]'
          seen.add(v)
        }
        return v
      }) ?? String(value)
    )
  } catch {
    return String(value)
  }
}

const clip = (text: string, max = 80): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

/**
 * The entry in words: what happened, to whom, when (true time).
 *
 * @example
 * Simulation.log(sim).map(Campaign.describeEntry)
 * // ['at 0 ms: host a added (offset 0 ms, drift 0)', …, 'at 20 ms: message #1 b -> a "ping", sent at 0 ms, delivered']
 */
export const describeEntry = (e: Entry): string => {
  switch (e.kind) {
    case 'message': {
      const fate = e.outcome === 'delivered' ? 'delivered' : `dropped (${e.reason ?? 'unknown'})`
      return `at ${e.at} ms: message #${e.id}${e.duplicate ? ' (duplicate)' : ''} ${e.from} -> ${e.to} ${clip(canonical(e.message))}, sent at ${e.sentAt} ms, ${fate}`
    }
    case 'event':
      return `at ${e.at} ms: event ${canonical(e.name)}${e.host === undefined ? '' : ` on ${e.host}`}${e.data === undefined ? '' : ` ${clip(canonical(e.data))}`}`
    case 'fault': {
      const skew = e.action === 'skew' ? ` (offset ${e.offset ?? 0} ms, drift ${e.drift ?? 0})` : ''
      return `at ${e.at} ms: ${e.action} ${e.hosts.join(e.oneWay === true ? ' -> ' : ' <-> ') || 'every link'}${skew}`
    }
    case 'host':
      return `at ${e.at} ms: host ${e.host} added (offset ${e.offset} ms, drift ${e.drift})`
  }
}

/**
 * Where two logs of one seed part: the first index whose entries differ, in words.
 *
 * @example
 * const d: Difference | undefined = Campaign.firstDifference(first.log, second.log)
 * if (d) console.log(`entry ${d.index}: ${d.first}\n      vs ${d.second}`)
 */
export interface Difference {
  /** The index of the first entry that differs (or that one log lacks). */
  readonly index: number
  /** The first run's entry there, in words, or `(log ended)`. */
  readonly first: string
  /** The second run's. */
  readonly second: string
}

/**
 * The first entry at which two logs differ, or `undefined` when they are equal.
 *
 * @example
 * Campaign.firstDifference(Campaign.play(campaign, draw).log, Campaign.play(campaign, draw).log) // undefined: the draw replays
 */
export const firstDifference = (a: readonly Entry[], b: readonly Entry[]): Difference | undefined => {
  const n = Math.max(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const [x, y] = [a[i], b[i]]
    if (x !== undefined && y !== undefined && canonical(x) === canonical(y)) continue
    return { index: i, first: x === undefined ? '(log ended)' : describeEntry(x), second: y === undefined ? '(log ended)' : describeEntry(y) }
  }
  return undefined
}
