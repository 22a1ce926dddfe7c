/**
 * The examples that run on virtual time: each runs, and the same seed gives the same log.
 */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { play, replayFromSnapshot } from '../examples/game-loop.js'

describe('examples/game-loop', () => {
  it('replays a seed with an identical log, and another seed differs', () => {
    const first = play(7, 10)
    expect(play(7, 10)).toEqual(first)
    expect(play(8, 10)).not.toEqual(first)
    expect(first.at(-1)).toMatch(/^after 10 s: \d+ spawned, \d+ alive, \d+ timers pending$/)
  })

  it('replays identically from a snapshot taken mid-game, through the menu and slow motion', () => {
    for (const at of [3, 7, 10, 13]) {
      const { played, replayed } = replayFromSnapshot(42, at, 20)
      expect(played.length).toBeGreaterThan(3)
      expect(replayed).toEqual(played)
    }
    const log = play(42, 20).join('\n')
    expect(log).toContain('menu opens, the world stops')
    expect(log).toContain('slow motion on')
    expect(log).toContain('spawn 8 of 8')
  })

  it('logs events frame by frame, in time order', () => {
    const frames = play(42, 20)
      .slice(0, -1)
      .map((line) => Number(/^frame +(\d+)/.exec(line)![1]))
    expect(frames.length).toBeGreaterThan(20)
    expect(frames).toEqual([...frames].sort((a, b) => a - b))
  })
})

describe('examples/vitest-clock', () => {
  it('its Vitest test, written for vi’s fake timers, passes on the wheel with the one setup line', () => {
    const out = execFileSync(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', 'examples/vitest-clock/vitest.config.ts', '--reporter=json'],
      { encoding: 'utf8' },
    )
    const report = JSON.parse(out.slice(out.indexOf('{'))) as { numPassedTests: number; numFailedTests: number }
    expect(report).toMatchObject({ numPassedTests: 4, numFailedTests: 0 })
  })
})
