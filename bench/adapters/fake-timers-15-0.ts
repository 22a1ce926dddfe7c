/**
 * `@sinonjs/fake-timers` 15.0.0, the version Vitest 4 inlines, whose clock looks at every
 * timer on every move; a devDependency under the alias `fake-timers-15.0.0`.
 */
import type FakeTimers from '@sinonjs/fake-timers'
// @ts-expect-error: the alias brings no types of its own; 15.5's describe its createClock.
import untyped from 'fake-timers-15.0.0'
import type { Clock, ClockImpl } from '../adapter.js'

const FakeTimers150 = untyped as typeof FakeTimers

export const fakeTimers150: ClockImpl = {
  name: 'fake-timers 15.0',
  create: () => FakeTimers150.createClock(0) as unknown as Clock,
}
