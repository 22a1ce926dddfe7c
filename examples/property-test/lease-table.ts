/**
 * A lease table: each key is held until its lease runs out, unless it is renewed or
 * released first. Granting, renewing and releasing cost constant time; expiring costs
 * time proportional to the leases that run out. The leases are alarms on a timing wheel,
 * so a lease runs out exactly when the wheel says an alarm fires: never before its time,
 * and at the first `expire` whose interval is past it.
 *
 * The tests next to this file check it the way `timing-wheel/testing` suggests: the table
 * must expire exactly what a plainly correct wheel fires, for any commands.
 */
import { Alarm, TimingWheel } from 'timing-wheel'

/** The table; use this module's functions on it. */
export interface LeaseTable<K> {
  readonly wheel: TimingWheel.TimingWheel<K>
  readonly leases: Map<K, TimingWheel.Alarm<K>>
}

/** An empty table whose clock starts at `config.start`; lease times are in the same unit. */
export const create = <K>(config: TimingWheel.Config): LeaseTable<K> => ({
  wheel: TimingWheel.create<K>(config),
  leases: new Map(),
})

/** Whether `key` holds a lease. */
export const holds = <K>(table: LeaseTable<K>, key: K): boolean => table.leases.has(key)

const leaseOf = <K>(table: LeaseTable<K>, key: K): TimingWheel.Alarm<K> => {
  const lease = table.leases.get(key)
  if (lease === undefined) throw new Error(`${String(key)} holds no lease`)
  return lease
}

/** When the lease of `key` runs out. Throws unless `key` holds a lease. */
export const expiresAt = <K>(table: LeaseTable<K>, key: K): number => Alarm.at(table.wheel, leaseOf(table, key))

/**
 * Grants `key` a lease until `until`. Throws if `key` already holds one, or (the wheel's
 * `TimeOutOfRange`) if `until` is not finite, already past, or too far ahead.
 */
export const grant = <K>(table: LeaseTable<K>, key: K, until: number): void => {
  if (holds(table, key)) throw new Error(`${String(key)} already holds a lease`)
  table.leases.set(key, TimingWheel.add(table.wheel, until, key)) // the wheel checks `until` first
}

/** Moves the end of the lease of `key` to `until`, earlier or later. Throws as `grant` does. */
export const renew = <K>(table: LeaseTable<K>, key: K, until: number): void =>
  TimingWheel.reschedule(table.wheel, leaseOf(table, key), until)

/** Ends the lease of `key` now. Throws unless `key` holds a lease. */
export const release = <K>(table: LeaseTable<K>, key: K): void => {
  TimingWheel.remove(table.wheel, leaseOf(table, key))
  table.leases.delete(key)
}

/** Moves the clock to `now` and returns the keys whose leases ran out, earliest first. */
export const expire = <K>(table: LeaseTable<K>, now: number): K[] => {
  const expired: K[] = []
  TimingWheel.advanceClock(table.wheel, now, (lease) => {
    const key = Alarm.value(table.wheel, lease)
    table.leases.delete(key)
    expired.push(key)
  })
  return expired
}

/** The keys holding leases, in the order their leases run out. */
export const holders = <K>(table: LeaseTable<K>): K[] =>
  TimingWheel.toArray(table.wheel).map((lease) => Alarm.value(table.wheel, lease))
