/**
 * The pending timers of a clock by key (timer id less the first id): an open-addressed
 * hash table, because a `Map` costs more than the rest of starting a timer.
 *
 * A key's home slot is the top bits of the key times 2^32 / phi (Fibonacci hashing).
 * Keys are handed out consecutively but die in any order, and `key mod capacity` would
 * then pile the new keys onto the runs of the old survivors; the multiplication scatters
 * them. Collisions go to the next free slot (linear probing); a removal shifts back the
 * entries after it that belong earlier, so no slot is ever a tombstone.
 *
 * Invariants: `capacity` is a power of two and at least twice `size`; every entry sits
 * in its home slot or after it with no empty slot in between; an empty slot has key -1
 * and no timer.
 */
import type { Timer } from './timer.js'

const EMPTY = -1
const initialCapacity = 16

export class TimerTable {
  /** Keys are below 2^53: doubles. */
  keys = new Float64Array(initialCapacity).fill(EMPTY)
  timers: Array<Timer | undefined> = new Array<Timer | undefined>(initialCapacity).fill(undefined)
  mask = initialCapacity - 1
  /** 32 - log2(capacity): the shift that takes the top bits of a 32-bit product. */
  shift = 32 - Math.log2(initialCapacity)
  size = 0
}

const homeOf = (table: TimerTable, key: number): number => Math.imul(key, 0x9e3779b1) >>> table.shift

/** The slot holding `key`, or -1. */
const slotOf = (table: TimerTable, key: number): number => {
  const keys = table.keys
  const mask = table.mask
  for (let slot = homeOf(table, key); ; slot = (slot + 1) & mask) {
    const found = keys[slot]!
    if (found === key) return slot
    if (found === EMPTY) return -1
  }
}

/** The timer under `key`, if any. */
export const get = (table: TimerTable, key: number): Timer | undefined => {
  const slot = slotOf(table, key)
  return slot === -1 ? undefined : table.timers[slot]
}

export const has = (table: TimerTable, key: number): boolean => slotOf(table, key) !== -1

/** Puts `timer` under `key`, replacing any timer there. */
export const set = (table: TimerTable, key: number, timer: Timer): void => {
  const keys = table.keys
  const mask = table.mask
  let slot = homeOf(table, key)
  for (; keys[slot] !== EMPTY; slot = (slot + 1) & mask) {
    if (keys[slot] === key) {
      table.timers[slot] = timer
      return
    }
  }
  keys[slot] = key
  table.timers[slot] = timer
  if (++table.size * 2 > mask + 1) rehash(table, 2 * (mask + 1))
}

/** Removes the timer under `key`, if any. */
export const remove = (table: TimerTable, key: number): void => {
  let hole = slotOf(table, key)
  if (hole === -1) return
  const keys = table.keys
  const timers = table.timers
  const mask = table.mask
  // Move back every later entry of the run that may sit in the hole: one whose home
  // slot is not strictly between the hole and where it is now.
  for (let slot = (hole + 1) & mask; keys[slot] !== EMPTY; slot = (slot + 1) & mask) {
    const home = homeOf(table, keys[slot]!)
    if (((slot - home) & mask) >= ((slot - hole) & mask)) {
      keys[hole] = keys[slot]!
      timers[hole] = timers[slot]
      hole = slot
    }
  }
  keys[hole] = EMPTY
  timers[hole] = undefined
  table.size--
}

export const clear = (table: TimerTable): void => {
  table.keys.fill(EMPTY)
  table.timers.fill(undefined)
  table.size = 0
}

/** Every `[key, timer]`, in no particular order. */
export const entries = (table: TimerTable): Array<readonly [number, Timer]> => {
  const found: Array<readonly [number, Timer]> = []
  table.keys.forEach((key, slot) => {
    if (key !== EMPTY) found.push([key, table.timers[slot]!])
  })
  return found
}

const rehash = (table: TimerTable, capacity: number): void => {
  const { keys, timers } = table
  table.keys = new Float64Array(capacity).fill(EMPTY)
  table.timers = new Array<Timer | undefined>(capacity).fill(undefined)
  table.mask = capacity - 1
  table.shift = 32 - Math.log2(capacity)
  table.size = 0
  keys.forEach((key, slot) => {
    if (key !== EMPTY) set(table, key, timers[slot]!)
  })
}
