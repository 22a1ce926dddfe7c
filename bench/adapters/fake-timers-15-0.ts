/**
 * `@sinonjs/fake-timers` 15.0.0, the version Vitest 4 inlines, whose clock looks at every
 * timer on every move. Measured when installed under the alias this file imports
 * (`npm i --no-save fake-timers-15.0.0@npm:@sinonjs/fake-timers@15.0.0`); it is not a
 * dependency of the package. The specifier is a variable so that the type checker does
 * not insist on it.
 */
import type { Clock, ClockImpl } from '../adapter.js'

const alias: string = 'fake-timers-15.0.0'

/** fake-timers 15.0.0's clock, or undefined when the alias is not installed. */
export const loadFakeTimers150 = async (): Promise<ClockImpl | undefined> => {
  try {
    const m = (await import(alias)) as { default?: { createClock?: unknown }; createClock?: unknown }
    const createClock = (m.default?.createClock ?? m.createClock) as ((now: number) => unknown) | undefined
    if (typeof createClock !== 'function') return undefined
    return { name: 'fake-timers 15.0', create: () => createClock(0) as Clock }
  } catch {
    return undefined
  }
}
