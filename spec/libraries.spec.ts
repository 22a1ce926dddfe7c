/**
 * `clockArb` on popular npm timing libraries (pinned dev dependencies), with properties
 * from their documented promises (`libraries/properties.ts`): those they keep on Node
 * pass under exploration with stalls up to 50 ms; the lateness bugs are found and shrunk
 * to one short stall. The long run (10 seeds x 500 runs each) is `npm run check:libraries`;
 * `npm run replay:real-timers` shows the bugs on Node's real timers.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clockArb, withClock } from '../lib/testing/index.js'
import { arrivals, bugs, holds } from './libraries/properties.js'

describe('real libraries under exploration', () => {
  for (const [name, body] of Object.entries(holds)) {
    it(`${name}: holds`, async () => {
      await fc.assert(fc.asyncProperty(clockArb({ maxStall: 50 }), arrivals, withClock(body)), { seed: 34, numRuns: 60 })
    })
  }

  it('p-throttle (strict) breaks its limit when 1 ms passes while it arms its timer', async () => {
    const details = await fc.check(fc.asyncProperty(clockArb({ maxStall: 50 }), arrivals, withClock(bugs['p-throttle (strict): no two calls start closer than the interval']!)), { seed: 1, numRuns: 100 })
    expect(details.failed).toBe(true)
    expect(fc.stringify(details.counterexample![0])).toMatch(/"stalls":\[1\].*\n {2}- setTimeout\(…, 100\) armed at 1 ms by .*p-throttle[/\\]index\.js:\d+:\d+.*, due at 101 ms, ran at 101 ms, armed 1 ms after the clock's 0 ms, as time passed while code ran/)
  })

  it("bottleneck fails a job on time whose launch ran late (expiration counted from the planned launch)", async () => {
    const details = await fc.check(fc.asyncProperty(clockArb({ maxStall: 50 }), arrivals, withClock(bugs['bottleneck: a job that runs 30 ms of its 50 ms expiration is not failed']!)), { seed: 1, numRuns: 100 })
    expect(details.failed).toBe(true)
    expect(fc.stringify(details.counterexample![0])).toMatch(/armed at \d+ ms by Bottleneck\._run .*(ms late: the event loop stalled|after the clock's \d+ ms, as time passed while code ran)/)
    // And with no stall it holds.
    await fc.assert(fc.asyncProperty(clockArb({ maxStall: 0 }), arrivals, withClock(bugs['bottleneck: a job that runs 30 ms of its 50 ms expiration is not failed']!)), { seed: 1, numRuns: 60 })
  })
})
