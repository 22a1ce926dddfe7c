/**
 * The 20-timer property body of `bench:explore` (explore-cost.ts), also run from its
 * source text by spec/fake-timers-survival.spec.ts in a child Node: so it uses only the
 * timer globals and its clock.
 */

/** 20 timers: 10 timeouts of 4 durations, 5 of them re-armed by their callbacks, 2 intervals, 3 immediates. */
export const twentyTimers = (clock: { tick: (ms: number) => number }): boolean => {
  const ran: number[] = []
  for (let i = 0; i < 10; i++) setTimeout(() => ran.push(i), 25 * (i % 4) + 5)
  for (let i = 0; i < 5; i++) setTimeout(() => setTimeout(() => ran.push(100 + i), 30), 10 * i)
  const intervals = [setInterval(() => ran.push(200), 40), setInterval(() => ran.push(201), 55)]
  for (let i = 0; i < 3; i++) setImmediate(() => ran.push(300 + i))
  clock.tick(120)
  intervals.forEach(clearInterval)
  return ran.length > 0
}
