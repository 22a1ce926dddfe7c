/**
 * Every example runs as its npm script runs it, and prints the same log for the same seed.
 * The examples import the package by name, which resolves to the built `dist/`: run
 * `npm run build` first (`npm test` does). The scripts build too; here the build is
 * skipped and the rest of each script run as is.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { type Stats, parseOptions, report, simulate } from '../examples/retransmit.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = (name: string): string => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url))

/** Runs a command in the package root with `env` added; rejects if it exits non-zero. */
const run = async (command: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> => {
  // A child vitest must not think it is a worker of this one.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')))
  const { stdout } = await promisify(execFile)(command, [...args], { cwd: root, env: { ...inherited, ...env, NO_COLOR: '1' } })
  return stdout
}

describe('examples/retransmit.ts (npm run example:retransmit)', () => {
  const simulated = (args: readonly string[]): { lines: string[]; stats: Stats } => {
    const opts = parseOptions(args)
    const lines: string[] = []
    const stats = simulate(opts, (line) => lines.push(line))
    return { lines: [...lines, ...report(opts, stats)], stats }
  }
  const args = ['--seed', '7', '--packets', '3000', '--log', '300']

  it('prints the same log for the same seed, and another for another seed', () => {
    const { lines } = simulated(args)
    expect(simulated(args).lines).toEqual(lines)
    expect(simulated(['--seed', '8', '--packets', '3000', '--log', '300']).lines).not.toEqual(lines)
    // The seed fixes the run on every machine, not just from one run to the next.
    expect(lines.slice(-6)).toEqual([
      'retransmit: 3000 packets, seed 7, loss 5% each way, link delay 10-30 ms, timeout 100 ms doubling',
      '  delivered 3000 of 3000 packets in 3340 ms of virtual time',
      '  transmissions 3336 (336 retransmissions)',
      '  retransmission timers: 3000 started, 3000 stopped by an ack, 336 expired, 0 given up',
      '  timers pending at once: at most 63',
      '  timer operations per packet: 2.11 (start 1.00, stop 1.00, expire 0.11), each constant time',
    ])
  })

  it('stops most timers with an ack and retransmits on every other expiry', () => {
    const { stats } = simulated(args)
    expect(stats.delivered).toBe(3000)
    expect(stats.timersStarted).toBe(3000)
    expect(stats.timersStopped + stats.gaveUp).toBe(stats.timersStarted)
    expect(stats.transmissions).toBe(3000 + stats.timersExpired - stats.gaveUp)
    expect(stats.timersStopped / (stats.timersStopped + stats.timersExpired)).toBeGreaterThan(0.85)
    expect(simulated(['--loss', '0', '--packets', '500']).stats.timersExpired).toBe(0)
  })

  it('runs from the command line and prints what simulate prints', async () => {
    const stdout = await run(bin('tsx'), ['examples/retransmit.ts', ...args])
    expect(stdout.trimEnd().split('\n')).toEqual(simulated(args).lines)
  })

  it('refuses a bad flag', () => {
    expect(() => parseOptions(['--loss', '1.5'])).toThrow('--loss 1.5 is not valid')
  })
})

describe('examples/property-test (npm run example:property-test)', () => {
  const summary = async (seed: string): Promise<string> => {
    const stdout = await run(bin('vitest'), ['run', '--config', 'examples/property-test/vitest.config.ts'], { SEED: seed, RUNS: '60' })
    expect(stdout).toMatch(/Tests\s+3 passed/)
    return stdout.split('\n').find((line) => line.startsWith('lease table:')) ?? 'no summary'
  }

  it('passes, and prints the same summary for the same seed', async () => {
    const first = await summary('7')
    expect(first).toMatch(/^lease table: 60 command lists, \d+ commands, \d+ leases expired \(seed 7\)$/)
    expect(await summary('7')).toBe(first)
  })
})

describe('examples/order-bugs (npm run example:order-bugs)', () => {
  it('finds both bugs, shrunk to one departure each, passes the fixed code, and prints the same twice', async () => {
    const first = await run(bin('tsx'), ['examples/order-bugs/order-bugs.ts'])
    expect(first).not.toMatch(/NOT OK/)
    expect(first.match(/^ok: /gm)).toHaveLength(8)
    expect(first).toMatch(/"plan":\{"stalls":\[1\],"picks":\[\]\}\}\):\n {2}- setTimeout\(…, 0\) armed at 0 ms by .*rate-limiter\.ts:\d+:\d+\), due at 0 ms, ran at 1 ms, 1 ms late: the event loop stalled 1 ms/)
    expect(first).toMatch(/- setTimeout\(…, 100\) armed at 300 ms by .*deadline\.ts:\d+:\d+\), due at 400 ms, ran at 400 ms: lists due together run in either order/)
    expect(await run(bin('tsx'), ['examples/order-bugs/order-bugs.ts'])).toBe(first)
  })
})
