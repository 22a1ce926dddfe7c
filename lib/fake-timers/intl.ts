/**
 * The `Intl` a clock installs: the host's, except that a `DateTimeFormat` formats the
 * clock's current time when `format` or `formatToParts` is called without a date, as
 * fake-timers arranges. Everything else is the host's own.
 */

type Formatter = Pick<Intl.DateTimeFormat, 'format' | 'formatToParts' | 'formatRange' | 'formatRangeToParts' | 'resolvedOptions'>

/**
 * A copy of `NativeIntl` whose `DateTimeFormat` reads "now" from `clock`.
 *
 * @example
 * const intl = createIntl(Intl, clock)
 * new intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).format() // clock.now, formatted
 */
export const createIntl = (NativeIntl: typeof Intl, clock: { readonly now: number }): typeof Intl & { clock: unknown } => {
  const intl: Record<string, unknown> = { clock }
  for (const name of Object.getOwnPropertyNames(NativeIntl)) intl[name] = (NativeIntl as unknown as Record<string, unknown>)[name]
  const DateTimeFormat = function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>): Formatter {
    const real = new NativeIntl.DateTimeFormat(...args)
    return {
      formatRange: real.formatRange.bind(real),
      formatRangeToParts: real.formatRangeToParts.bind(real),
      resolvedOptions: real.resolvedOptions.bind(real),
      format: (date?: Date | number) => real.format(date === undefined ? clock.now : date),
      formatToParts: (date?: Date | number) => real.formatToParts(date === undefined ? clock.now : date),
    }
  }
  DateTimeFormat.prototype = Object.create(NativeIntl.DateTimeFormat.prototype) as object
  ;(DateTimeFormat as unknown as { supportedLocalesOf: unknown }).supportedLocalesOf = NativeIntl.DateTimeFormat.supportedLocalesOf
  intl['DateTimeFormat'] = DateTimeFormat
  return intl as unknown as typeof Intl & { clock: unknown }
}
