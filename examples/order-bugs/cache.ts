/**
 * A cache whose entries expire `ttl` ms after they are set, kept warm by a refresher that
 * sets the entry again every `ttl` ms. The bug: `set` leaves the old entry's expiry timer
 * running. Under a FIFO clock that timer always fires first (it was armed first) and finds
 * the old entry; when the refresher runs first, the old timer deletes the fresh entry,
 * and readers miss until the next refresh.
 */
import type { Timers } from './timers.js'

export interface Cache<V> {
  readonly get: (key: string) => V | undefined
  readonly set: (key: string, value: V) => void
}

export const createCache = <V>(timers: Timers, ttl: number, { fixed }: { fixed: boolean }): Cache<V> => {
  const entries = new Map<string, { value: V; expiry: unknown }>()
  return {
    get: (key) => entries.get(key)?.value,
    set: (key, value) => {
      const old = entries.get(key)
      // The fix: an entry's expiry timer goes with it.
      if (fixed && old !== undefined) timers.clearTimeout(old.expiry)
      entries.set(key, { value, expiry: timers.setTimeout(() => entries.delete(key), ttl) })
    },
  }
}

/** Sets `key` from `load` now and again every `period` ms; returns a function that stops it. */
export const keepWarm = <V>(timers: Timers, cache: Cache<V>, key: string, load: () => V, period: number): (() => void) => {
  let next: unknown
  const refresh = (): void => {
    cache.set(key, load())
    next = timers.setTimeout(refresh, period)
  }
  refresh()
  return () => timers.clearTimeout(next)
}
