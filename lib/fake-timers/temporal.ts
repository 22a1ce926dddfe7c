/**
 * The `Temporal` a clock installs where the global has one: the host's, except that
 * `Temporal.Now` reads the clock, as fake-timers 15.5 arranges (`createTemporal`). Node 20
 * has no `Temporal`; a polyfill put on the global, or a later Node, is faked the same way.
 */

/** What this module needs of a `Temporal`: an `Instant` from nanoseconds, and `Now`'s time zone. */
export interface TemporalLike {
  readonly Instant: { fromEpochNanoseconds: (nanos: bigint) => InstantLike }
  readonly Now: { timeZoneId: () => string }
}

interface InstantLike {
  toZonedDateTimeISO: (timeZone: string) => {
    toPlainDateTime: () => unknown
    toPlainDate: () => unknown
    toPlainTime: () => unknown
  }
}

/** Whether `value` has the parts of `Temporal` that `createTemporal` uses. */
export const isTemporal = (value: unknown): value is TemporalLike =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { Now?: unknown }).Now === 'object' &&
  typeof (value as { Instant?: unknown }).Instant === 'function'

/**
 * A copy of `NativeTemporal` (every own property, the same prototype) whose `Now` gives
 * `clock.now` plus the clock's sub-millisecond `nanos()`; the time zone stays the host's.
 *
 * @example
 * const temporal = createTemporal(Temporal, clock, () => 0)
 * temporal.Now.instant().epochMilliseconds === clock.now // true
 */
export const createTemporal = (NativeTemporal: TemporalLike, clock: { readonly now: number }, nanos: () => number): TemporalLike => {
  const zoned = (timeZone?: string) => now.instant().toZonedDateTimeISO(timeZone ?? NativeTemporal.Now.timeZoneId())
  const now = {
    instant: () => NativeTemporal.Instant.fromEpochNanoseconds(BigInt(clock.now) * 1_000_000n + BigInt(nanos())),
    timeZoneId: () => NativeTemporal.Now.timeZoneId(),
    zonedDateTimeISO: zoned,
    plainDateTimeISO: (timeZone?: string) => zoned(timeZone).toPlainDateTime(),
    plainDateISO: (timeZone?: string) => zoned(timeZone).toPlainDate(),
    plainTimeISO: (timeZone?: string) => zoned(timeZone).toPlainTime(),
  }
  const temporal = Object.create(Object.getPrototypeOf(NativeTemporal) as object) as Record<PropertyKey, unknown>
  for (const key of Reflect.ownKeys(NativeTemporal)) {
    Object.defineProperty(temporal, key, Object.getOwnPropertyDescriptor(NativeTemporal, key)!)
  }
  // The spec makes `Temporal.Now` read-only, so it is defined, not assigned.
  Object.defineProperty(temporal, 'Now', { value: now, writable: true, enumerable: false, configurable: true })
  return temporal as unknown as TemporalLike
}
