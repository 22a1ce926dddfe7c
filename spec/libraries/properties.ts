/**
 * Properties of popular npm timing libraries, each stated from the library's documented
 * promise, as a body for `withClock` (the clock installed: the library's own `setTimeout`
 * and `Date.now` are the clock's). `holds` are promises the libraries keep on Node, so
 * exploration must never fail them (a failure would be a false alarm of the model);
 * `bugs` are promises they break on Node when the event loop stalls, which exploration
 * must find (`scripts/real-timers-replay.ts` replays them on Node's real timers).
 *
 * Each body draws its workload from fast-check too, so `fc.asyncProperty(clockArb(),
 * workload, withClock(body))` explores workloads and schedules at once.
 */
import { TTLCache } from '@isaacs/ttlcache'
import Bottleneck from 'bottleneck'
import fc from 'fast-check'
import debounce from 'lodash.debounce'
import PQueue from 'p-queue'
import pThrottle from 'p-throttle'
import type { ExploringClock } from '../../lib/testing/index.js'

/** When calls arrive: gaps in ms before each. */
export const arrivals = fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 2, maxLength: 6 })

type Body = (clock: ExploringClock, gaps: readonly number[]) => Promise<boolean>

/** Calls `call(i)` after each gap, then lets every timer run. */
const drive = async (clock: ExploringClock, gaps: readonly number[], call: (i: number) => void): Promise<void> => {
  for (let i = 0; i < gaps.length; i++) {
    await clock.tickAsync(gaps[i]!)
    call(i)
  }
  await clock.runAllAsync()
}

const inOrder = (xs: readonly number[]): boolean => xs.every((x, i) => x === i)

/** p-throttle, strict: "throttles each call individually, ensuring the limit is not exceeded for any interval"; "all calls are queued and executed". */
const throttled = (clock: ExploringClock, gaps: readonly number[]) => {
  const throttle = pThrottle({ limit: 1, interval: 100, strict: true })
  const starts: number[] = []
  const order: number[] = []
  const run = throttle((i: number) => {
    starts.push(Date.now())
    order.push(i)
  })
  return { starts, order, done: drive(clock, gaps, (i) => void run(i)) }
}

/** bottleneck: "maxConcurrent: how many jobs can be executing at the same time"; jobs of one priority run first in, first out. */
const bottleneckJobs = (clock: ExploringClock, gaps: readonly number[], options: Bottleneck.ConstructorOptions, job: () => Promise<void>, expiration?: number) => {
  const limiter = new Bottleneck(options)
  const starts: number[] = []
  const order: number[] = []
  const failed: number[] = []
  let running = 0
  let maxRunning = 0
  const done = drive(clock, gaps, (i) => {
    limiter
      .schedule(expiration === undefined ? {} : { expiration }, async () => {
        starts.push(Date.now())
        order.push(i)
        maxRunning = Math.max(maxRunning, ++running)
        await job()
        running--
      })
      .catch(() => failed.push(i))
  })
  return { starts, order, failed, done, maxRunning: () => maxRunning }
}

/** A job's work: 30 ms on the clock. */
const work30 = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30))

export const holds: Record<string, Body> = {
  /** p-throttle: every call runs, in the order made. */
  'p-throttle: every call runs, in call order': async (clock, gaps) => {
    const t = throttled(clock, gaps)
    await t.done
    return t.order.length === gaps.length && inOrder(t.order)
  },

  /** bottleneck: every job runs, in submission order, never two at once with maxConcurrent 1. */
  'bottleneck: every job runs, in order, at most maxConcurrent at once': async (clock, gaps) => {
    const b = bottleneckJobs(clock, gaps, { maxConcurrent: 1, minTime: 100 }, work30)
    await b.done
    return b.order.length === gaps.length && inOrder(b.order) && b.maxRunning() === 1
  },

  /** p-queue: "concurrency: the max number of concurrently pending promises"; tasks start in the order added. */
  'p-queue: every task runs, in order, at most concurrency at once, at most intervalCap per window': async (clock, gaps) => {
    const queue = new PQueue({ concurrency: 2, intervalCap: 2, interval: 100 })
    const order: number[] = []
    let running = 0
    let maxRunning = 0
    await drive(clock, gaps, (i) => {
      void queue.add(async () => {
        order.push(i)
        maxRunning = Math.max(maxRunning, ++running)
        await work30()
        running--
      })
    })
    await queue.onIdle()
    return order.length === gaps.length && inOrder(order) && maxRunning <= 2
  },

  /** lodash.debounce: "delays invoking func until after wait milliseconds have elapsed since the last time the debounced function was invoked", with the last arguments. */
  'lodash.debounce: one call, wait ms or more after the last, with the last arguments': async (clock, gaps) => {
    const calls: { at: number; arg: number }[] = []
    const debounced = debounce((arg: number) => calls.push({ at: Date.now(), arg }), 50)
    let lastAt = 0
    // Gaps under the wait keep the burst going: one call at the end.
    await drive(clock, gaps.map((g) => g % 50), (i) => {
      lastAt = Date.now()
      debounced(i)
    })
    return calls.length === 1 && calls[0]!.arg === gaps.length - 1 && calls[0]!.at >= lastAt + 50
  },

  /** @isaacs/ttlcache: an item is there until its ttl has passed. */
  '@isaacs/ttlcache: an item read before its ttl passes is there': async (clock, gaps) => {
    const cache = new TTLCache<number, number>({ ttl: 100 })
    const setAt = new Map<number, number>()
    let ok = true
    await drive(clock, gaps, (i) => {
      cache.set(i, i)
      setAt.set(i, performance.now())
      // Readers on timers of their own, before the ttl.
      setTimeout(() => {
        const age = performance.now() - setAt.get(i)!
        if (age < 100 && cache.get(i) !== i) ok = false
      }, gaps[i]! % 100)
    })
    cache.clear()
    return ok
  },
}

export const bugs: Record<string, Body> = {
  /** p-throttle strict plans each start on arrival: a late first timer, an on-time second, and the limit is broken. */
  'p-throttle (strict): no two calls start closer than the interval': async (clock, gaps) => {
    const t = throttled(clock, gaps)
    await t.done
    return t.starts.every((s, i) => i === 0 || s - t.starts[i - 1]! >= 100)
  },

  /** bottleneck minTime: "how long to wait after launching a job before launching another one". */
  'bottleneck: minTime between launches': async (clock, gaps) => {
    const b = bottleneckJobs(clock, gaps, { maxConcurrent: null, minTime: 100 }, async () => {})
    await b.done
    return b.starts.every((s, i) => i === 0 || s - b.starts[i - 1]! >= 100)
  },

  /** bottleneck expiration: "jobs that execute for longer than expiration ms will be failed"; a 30 ms job with 50 ms is not. */
  'bottleneck: a job that runs 30 ms of its 50 ms expiration is not failed': async (clock, gaps) => {
    const b = bottleneckJobs(clock, gaps, { maxConcurrent: 1, minTime: 0 }, work30, 50)
    await b.done
    return b.failed.length === 0
  },
}
