/**
 * Async moves settle as Node does (issue 39, hole 1): a faked `queueMicrotask` or
 * `nextTick` queued from a native promise continuation runs at the time it was queued,
 * not when the clock next fires a timer, and when an async move returns nothing it
 * started is pending. In library shape: a task queue that starts its next task from
 * `queueMicrotask` after a task's promise resolves, as `p-queue` 9 and 10 do (its `#next`
 * in a `finally` after `await operation`), and a minimal hand-written one; under
 * `install` and each async move, and with an exploring clock (`clockArb`).
 */
import { spawn } from 'node:child_process'
import fc from 'fast-check'
import PQueue from 'p-queue'
import { afterEach, describe, expect, it } from 'vitest'
import { type Clock, install } from '../lib/fake-timers/index.js'
import { type ExploringClock, clockArb, withClock } from '../lib/testing/index.js'

/** The smallest queue that starts its next task from `queueMicrotask` after a task settles. */
class MiniQueue {
  readonly #waiting: Array<() => Promise<unknown>> = []
  #running = 0
  add(task: () => Promise<unknown>): void {
    this.#waiting.push(task)
    this.#next()
  }
  #next(): void {
    if (this.#running > 0) return
    const task = this.#waiting.shift()
    if (task === undefined) return
    this.#running++
    void task().finally(() => {
      this.#running--
      queueMicrotask(() => this.#next())
    })
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Ten 1 s tasks, one at a time, through `add`; returns the times they end at, from `start`. */
const tenTasks = (add: Add, start: number): number[] => {
  const ends: number[] = []
  for (let i = 0; i < 10; i++) add(() => sleep(1000).then(() => ends.push(Date.now() - start)))
  return ends
}

type Add = (task: () => Promise<unknown>) => void

/** Each queue, as a fresh `add`. */
const queues: Record<string, () => Add> = {
  'p-queue': () => {
    const queue = new PQueue({ concurrency: 1 })
    return (task) => void queue.add(task)
  },
  'a minimal queue': () => {
    const queue = new MiniQueue()
    return (task) => queue.add(task)
  },
}

let clock: Clock | undefined
afterEach(() => {
  clock?.uninstall()
  clock = undefined
})

describe.each(Object.entries(queues))('%s under install', (_name, makeAdd) => {
  it('tickAsync runs every task, each at the time it is due', async () => {
    clock = install()
    const ends = tenTasks(makeAdd(), Date.now())
    await clock.tickAsync(20_000)
    expect(ends).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000])
    expect(clock.countTimers()).toBe(0)
  })

  it('runAllAsync, runToLastAsync and nextAsync run them too', async () => {
    clock = install()
    const ends = tenTasks(makeAdd(), Date.now())
    // p-queue 9 also arms a 0 ms timer of its own when a task is added: step until the first task ends.
    for (let steps = 0; ends.length === 0 && steps < 5; steps++) await clock.nextAsync()
    expect(ends).toEqual([1000])
    await clock.runToLastAsync()
    expect(ends).toEqual([1000, 2000])
    await clock.runAllAsync()
    expect(ends).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000])
  })

  it('the nextAsync tick mode runs them by itself', async () => {
    clock = install()
    const ends = tenTasks(makeAdd(), Date.now())
    clock.setTickMode({ mode: 'nextAsync' })
    const realWait = clock['_setTimeout'] as typeof setTimeout
    for (let i = 0; i < 200 && ends.length < 10; i++) await new Promise((resolve) => realWait(resolve, 1))
    expect(ends).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000])
  })
})

describe('a job queued from a native continuation runs when it was queued', () => {
  it.each(['nextTick', 'queueMicrotask'] as const)('%s at 10 ms runs at 10 ms, not when the next timer is due', async (kind) => {
    clock = install()
    const seen: Array<[string, number]> = []
    setTimeout(async () => {
      await Promise.resolve()
      const job = (): void => void seen.push([kind, Date.now()])
      if (kind === 'nextTick') process.nextTick(job)
      else queueMicrotask(job)
      void Promise.resolve().then(() => seen.push(['promise', Date.now()]))
    }, 10)
    setTimeout(() => seen.push(['timer', Date.now()]), 500)
    await clock.tickAsync(1000)
    // On Node a nextTick queued from a promise job runs after the promise jobs queued
    // with it; a queueMicrotask job is one of them, in order.
    expect(seen).toEqual(kind === 'nextTick' ? [['promise', 10], ['nextTick', 10], ['timer', 500]] : [['queueMicrotask', 10], ['promise', 10], ['timer', 500]])
  })

  it('the nextAsync tick mode settles a job that starts another through a promise before time moves', async () => {
    clock = install()
    const seen: number[] = []
    setTimeout(async () => {
      await null
      queueMicrotask(async () => {
        await null
        process.nextTick(() => seen.push(Date.now()))
      })
    }, 10)
    setTimeout(() => seen.push(Date.now()), 500)
    clock.setTickMode({ mode: 'nextAsync' })
    const realWait = clock['_setTimeout'] as typeof setTimeout
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((resolve) => realWait(resolve, 1))
    expect(seen).toEqual([10, 500])
  })

  it('nextTick jobs a timer queues run before its queueMicrotask and promise jobs, as on Node', async () => {
    clock = install()
    const seen: string[] = []
    setTimeout(() => {
      void Promise.resolve().then(() => seen.push('promise'))
      queueMicrotask(() => seen.push('microtask'))
      process.nextTick(() => seen.push('tick'))
    }, 10)
    await clock.tickAsync(10)
    expect(seen).toEqual(['tick', 'promise', 'microtask'])
  })

  it('when tickAsync returns, a chain of continuations and jobs it started has finished', async () => {
    clock = install()
    const seen: number[] = []
    setTimeout(async () => {
      for (let i = 0; i < 20; i++) {
        await new Promise<void>((resolve) => (i % 2 ? process.nextTick(resolve) : queueMicrotask(resolve)))
        seen.push(i)
      }
    }, 5)
    await clock.tickAsync(5)
    expect(seen).toHaveLength(20)
    expect(clock.countTimers()).toBe(0)
  })

  it('after an async move and uninstall, nothing the move started runs on real timers', async () => {
    clock = install()
    const seen: string[] = []
    setTimeout(async () => {
      await null
      queueMicrotask(() => void Promise.resolve().then(() => process.nextTick(() => seen.push('last'))))
    }, 5)
    await clock.tickAsync(5)
    clock.uninstall()
    clock = undefined
    expect(seen).toEqual(['last'])
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(seen).toEqual(['last'])
  })

  it('sync moves keep fake-timers’ semantics: a job queued from a native continuation waits for the next move', async () => {
    clock = install()
    const seen: number[] = []
    setTimeout(() => void Promise.resolve().then(() => queueMicrotask(() => seen.push(Date.now()))), 10)
    setTimeout(() => undefined, 500)
    clock.tick(10)
    await null
    expect(seen).toEqual([])
    // The next move runs it first, at the time it starts from.
    clock.tick(490)
    expect(seen).toEqual([10])
  })

  it('a job that loops through native continuations fails the move with the loop error', async () => {
    clock = install({ loopLimit: 30 })
    const spin = (): void => void Promise.resolve().then(() => queueMicrotask(spin))
    setTimeout(spin, 1)
    await expect(clock.tickAsync(10)).rejects.toThrow(/Aborting after running 30 timers/)
    clock.reset()
  })

  it.each(['runAllAsync', 'runToLastAsync', 'nextAsync', 'tickAsync'] as const)('%s fails with a job’s error and runs the jobs before it once', async (move) => {
    clock = install()
    let runs = 0
    queueMicrotask(() => runs++)
    queueMicrotask(() => {
      throw new Error('job failed')
    })
    await expect(move === 'tickAsync' ? clock.tickAsync(0) : clock[move]()).rejects.toThrow('job failed')
    expect(runs).toBe(1)
    clock.reset()
  })

  it('a job that throws in its native slot rejects the move, and the tick still reaches its end', async () => {
    clock = install()
    setTimeout(() => queueMicrotask(() => {
      throw new Error('job failed')
    }), 1)
    await expect(clock.tickAsync(10)).rejects.toThrow('job failed')
    expect(clock.now).toBe(10)
  })
})

describe('an exploring clock (clockArb)', () => {
  it('runs every task of both queues under tickAsync, whatever the schedule', async () => {
    await fc.assert(
      fc.asyncProperty(
        clockArb({ maxStall: 20 }),
        fc.constantFrom(...Object.keys(queues)),
        withClock(async (explored: ExploringClock, name: string) => {
          const ends = tenTasks(queues[name]!(), Date.now())
          await explored.tickAsync(20_000)
          // Stalls make each task late, never early, and they still run one after another.
          expect(ends).toHaveLength(10)
          for (let i = 1; i < 10; i++) expect(ends[i]! - ends[i - 1]!).toBeGreaterThanOrEqual(1000)
        }),
      ),
      { numRuns: 20 },
    )
  })
})

describe('Node’s own nextTick calls stay on Node’s queue', () => {
  it.each([
    ['installed', false],
    ['reached through the forward of a clock uninstalled before it (as Vitest puts one back)', true],
  ] as const)('a message from a child process, which Node delivers through process.nextTick, arrives while the clock stands still: %s', async (_name, stale) => {
    const realTimeout = setTimeout
    const wait = (ms: number): Promise<void> => new Promise((resolve) => realTimeout(resolve, ms))
    const real = process.nextTick
    if (stale) {
      const first = install()
      const forward = process.nextTick
      first.uninstall()
      clock = install()
      process.nextTick = forward
    } else clock = install()
    const child = spawn(process.execPath, ['-e', "process.send('hello', () => process.disconnect())"], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] })
    const got: unknown[] = []
    child.on('message', (m) => got.push(m))
    for (let i = 0; i < 500 && (got.length === 0 || child.exitCode === null); i++) await wait(10)
    // On fake-timers 15.5 it waits in the clock's queue until the clock moves, and is lost at
    // uninstall: a test runner's worker that loses its parent's answer waits forever.
    expect(got).toEqual(['hello'])
    expect(clock.countTimers()).toBe(0)
    process.nextTick = real
  })

  it('a call through an uninstalled clock’s forward goes to the clock installed now, or to Node (Vitest puts a stale one back a tick late)', async () => {
    const first = install()
    const stale = process.nextTick
    first.uninstall()
    const real = process.nextTick
    clock = install()
    // What Vitest's withSafeTimers does, one tick after a message to its parent.
    process.nextTick = stale
    const seen: string[] = []
    process.nextTick(() => seen.push('to the clock'))
    expect(clock.countTimers()).toBe(1)
    clock.runMicrotasks()
    expect(seen).toEqual(['to the clock'])
    process.nextTick = real
    clock.uninstall()
    clock = undefined
    stale(() => seen.push('to Node'))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(seen).toEqual(['to the clock', 'to Node'])
  })

  it('user code’s nextTick is still the clock’s, from a test file and from a library', async () => {
    clock = install()
    const seen: string[] = []
    process.nextTick(() => seen.push('direct'))
    const { nextTick } = process
    nextTick(() => seen.push('taken'))
    await Promise.resolve()
    expect(seen).toEqual([])
    expect(clock.countTimers()).toBe(2)
    clock.runMicrotasks()
    expect(seen).toEqual(['direct', 'taken'])
  })
})
