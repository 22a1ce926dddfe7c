/**
 * The orders async moves claim (issue 39), against real Node: the same programs run on
 * real timers in a child process and under `install` with `tickAsync`, and must log the
 * same order. A program is two timers due together, each queueing a random tree of
 * `process.nextTick`, `queueMicrotask`, promise (`then`) and `setImmediate` callbacks,
 * each of which queues its own subtree. On Node: a macrotask's `nextTick` jobs first, then
 * the microtask queue (promise and `queueMicrotask` jobs in the order queued, a `nextTick`
 * queued from them after it drains); two timers of one batch each get their own
 * microtasks; immediates run in the check phase, after the timers due. The fake-timers
 * entry's one difference from Node's phases is checked too, so its documentation stays true.
 */
import { execFileSync } from 'node:child_process'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { install } from '../lib/fake-timers/index.js'

type Via = 'tick' | 'microtask' | 'promise' | 'immediate'
interface Job {
  readonly via: Via
  readonly children: readonly Job[]
}

/**
 * Runs `roots` (one tree per timer) with whatever timers the global has, logging each
 * callback; `done` runs after the last. Run as source text in the child, so it uses only globals.
 */
const runTrees = (roots: readonly (readonly Job[])[], log: string[], done?: () => void): void => {
  const queue = (job: Job, label: string): void => {
    const run = (): void => {
      log.push(label)
      job.children.forEach((child, i) => queue(child, `${label}.${i}`))
    }
    if (job.via === 'tick') process.nextTick(run)
    else if (job.via === 'microtask') queueMicrotask(run)
    else if (job.via === 'promise') void Promise.resolve().then(run)
    else setImmediate(run)
  }
  // Each timer arms the next: two timers due together may run in two batches on Node
  // (their start times can differ by a ms), and only one order would be checked.
  const arm = (t: number, delay: number): void => {
    const jobs = roots[t]
    // Armed by the last timer, after its check phase whatever the load.
    if (jobs === undefined) return void (done && setTimeout(done, 5))
    setTimeout(() => {
      log.push(`T${t}`)
      jobs.forEach((job, i) => queue(job, `T${t}.${i}`))
      arm(t + 1, 1)
    }, delay)
  }
  arm(0, 2)
}

/** Each program's log on real Node, all in one child process. */
const onNode = (programs: readonly (readonly (readonly Job[])[])[]): string[][] => {
  const source = `
    const runTrees = ${runTrees.toString()}
    const programs = JSON.parse(require('node:fs').readFileSync(0, 'utf8'))
    const logs = []
    const next = (i) => {
      if (i === programs.length) return process.stdout.write(JSON.stringify(logs))
      const log = []
      logs.push(log)
      runTrees(programs[i], log, () => next(i + 1))
    }
    next(0)`
  return JSON.parse(execFileSync(process.execPath, ['-e', source], { input: JSON.stringify(programs), encoding: 'utf8' })) as string[][]
}

const onClock = async (program: readonly (readonly Job[])[]): Promise<string[]> => {
  const clock = install()
  try {
    const log: string[] = []
    runTrees(program, log)
    await clock.tickAsync(30)
    return log
  } finally {
    clock.uninstall()
  }
}

const jobArb: fc.Arbitrary<Job> = fc.letrec<{ job: Job }>((tie) => ({
  job: fc.record({
    via: fc.constantFrom<Via>('tick', 'microtask', 'promise', 'tick', 'microtask', 'promise', 'immediate'),
    children: fc.oneof({ maxDepth: 3, depthIdentifier: 'job' }, fc.constant([]), fc.array(tie('job'), { maxLength: 3 })),
  }),
})).job

/**
 * An immediate queued under an immediate runs in the loop's next iteration, which races
 * the next timer on Node (either order shows in a few runs): such an immediate becomes a
 * promise job, so that every program has one order on Node.
 */
const withoutRaces = (job: Job, underImmediate = false): Job => ({
  via: underImmediate && job.via === 'immediate' ? 'promise' : job.via,
  children: job.children.map((child) => withoutRaces(child, underImmediate || job.via === 'immediate')),
})

const programArb = fc.array(fc.array(jobArb.map((job) => withoutRaces(job)), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 })

describe('async moves run jobs in the order Node runs them', () => {
  it('60 random programs of nextTick, queueMicrotask, promise and setImmediate trees log as on real Node', async () => {
    const programs = fc.sample(programArb, { numRuns: 60, seed: 39 })
    const real = onNode(programs)
    for (const [i, program] of programs.entries()) {
      expect({ program: JSON.stringify(program), log: await onClock(program) }).toEqual({ program: JSON.stringify(program), log: real[i] })
    }
  })

  it('the hand-picked cases: a timer’s ticks first; a tick queued by a promise job after the promise queue', async () => {
    const leaf = (via: Via, ...children: Job[]): Job => ({ via, children })
    const programs = [
      [[leaf('promise'), leaf('microtask'), leaf('tick')]],
      [[leaf('promise', leaf('tick'), leaf('microtask'), leaf('promise')), leaf('promise')]],
      [[leaf('tick', leaf('microtask', leaf('tick')), leaf('tick'))], [leaf('immediate', leaf('tick'), leaf('promise')), leaf('promise')]],
    ]
    const real = onNode(programs)
    expect(real[0]).toEqual(['T0', 'T0.2', 'T0.0', 'T0.1'])
    for (const [i, program] of programs.entries()) expect(await onClock(program)).toEqual(real[i])
  })
})

/** Runs `body` on real Node in a child process; returns what it logged when the process ends. */
const loggedOnNode = (body: string): string[] =>
  JSON.parse(
    execFileSync(process.execPath, ['-e', `const log = []; process.on('exit', () => process.stdout.write(JSON.stringify(log))); ${body}`], { encoding: 'utf8' }),
  ) as string[]

/** Runs `body` under `install` and `tickAsync(30)`; returns what it logged. */
const loggedOnClock = async (body: string): Promise<string[]> => {
  const clock = install()
  try {
    const log: string[] = []
    new Function('log', body)(log)
    await clock.tickAsync(30)
    return log
  } finally {
    clock.uninstall()
  }
}

describe('immediates and Node’s loop phases', () => {
  it('an immediate queued by a timer runs after the timers due with it and before a 0 ms timer queued with it, as on Node, 1 ms later', async () => {
    // Node: the timers phase (both 2 ms timers), then the check phase; a 0 ms timer is a
    // 1 ms one. fake-timers arms an immediate queued during a tick 1 ms later (kept: a
    // loop of immediates then moves time, as Node's loop does).
    const body = `
      setTimeout(() => { setTimeout(() => log.push('timeout 0'), 0); setImmediate(() => log.push('immediate')); log.push('A') }, 2)
      setTimeout(() => log.push('B'), 2)`
    // B is armed at a fresh read of Node's clock: when a ms passes between the two calls it
    // is due 1 ms after A, in a batch of its own (on the clock both are armed at 0).
    expect([['A', 'B', 'immediate', 'timeout 0'], ['A', 'immediate', 'timeout 0', 'B']]).toContainEqual(loggedOnNode(body))
    const timed = body.replaceAll("log.push('", "log.push(Date.now() + ' ")
    expect(await loggedOnClock(timed)).toEqual(['2 A', '2 B', '3 immediate', '3 timeout 0'])
  })

  it('orders an immediate before a 1 ms timer armed before it by the same callback, as Node’s check phase does', async () => {
    const body = `setTimeout(() => { setTimeout(() => log.push('C'), 1); setImmediate(() => log.push('immediate')); log.push('A') }, 2)`
    expect(loggedOnNode(body)).toEqual(['A', 'immediate', 'C'])
    expect(await loggedOnClock(body)).toEqual(['A', 'immediate', 'C'])
  })

  it('differs from Node in fake-timers’ top-level 0 ms timer: due at once here, a 1 ms timer on Node', async () => {
    // Outside a tick fake-timers keeps 0 as 0 (its semantics, kept); Node's Timeout makes it 1.
    const body = `setTimeout(() => log.push('X'), 1); setTimeout(() => log.push('Y'), 0)`
    expect(loggedOnNode(body)).toEqual(['X', 'Y'])
    expect(await loggedOnClock(body)).toEqual(['Y', 'X'])
  })
})
