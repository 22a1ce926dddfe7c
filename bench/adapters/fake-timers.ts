/** `@sinonjs/fake-timers` 15.5's clock, the one Jest and Vitest fake timers run on. */
import FakeTimers from '@sinonjs/fake-timers'
import type { Clock, ClockImpl } from '../adapter.js'

export const fakeTimers: ClockImpl = {
  name: 'fake-timers 15.5',
  // Its typings declare callbacks of `unknown` arguments; it passes a callback exactly the
  // arguments given to `setTimeout`, so the numbers the workload passes come back.
  create: () => FakeTimers.createClock(0) as unknown as Clock,
}
