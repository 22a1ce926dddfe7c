/**
 * The error that ends a run that looks infinite, as fake-timers words it: "Aborting after
 * running N timers, assuming an infinite loop!", with the looping callback's kind, name and
 * creation stack when the clock kept one (clocks keep creation stacks once a run comes
 * within one of its limit). Shared by the virtual clock and the fake-timers clocks.
 */

/** Something that ran too often: a job (no `type`) or a timer (its kind). */
export interface Looping {
  readonly type: string | undefined
  readonly func: { readonly name: string }
  readonly error: Error | undefined
}

const clockMethodLine = (names: readonly string[], returnsObjects: boolean): RegExp =>
  returnsObjects ? new RegExp(`\\s+at (Object\\.)?(?:${names.join('|')})\\s+`) : new RegExp(names.join('|'))

/**
 * fake-timers' loop-limit error: "Aborting after running N timers, assuming an infinite
 * loop!", and, if `looping` kept a creation stack, that stack from the first frame
 * outside the clock's own methods (`clockMethods`), headed by its kind and name.
 *
 * @example
 * throw loopError(1000, job, Object.keys(clock), true)
 */
export const loopError = (
  loopLimit: number,
  looping: Looping,
  clockMethods: readonly string[],
  returnsObjects: boolean,
): Error => {
  const error = new Error(`Aborting after running ${loopLimit} timers, assuming an infinite loop!`)
  if (!looping.error) return error
  const methodLine = clockMethodLine(clockMethods, returnsObjects)
  const lines = (looping.error.stack ?? '').split('\n')
  let matched = -1
  for (let i = 0; i < lines.length; i++) {
    if (methodLine.test(lines[i]!)) matched = i
    else if (matched >= 0) break
  }
  const stack = `${String(error)}\n${looping.type ?? 'Microtask'} - ${looping.func.name || 'anonymous'}\n${lines
    .slice(matched + 1)
    .join('\n')}`
  try {
    Object.defineProperty(error, 'stack', { value: stack })
  } catch {
    // A host whose errors refuse a new stack keeps the plain message.
  }
  return error
}
