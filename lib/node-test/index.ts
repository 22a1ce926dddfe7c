/**
 * `timing-wheel/node-test`: one line puts `node:test`'s `mock.timers` on the wheel. The
 * global `mock.timers` and every test's `t.mock.timers` then drive a
 * `timing-wheel/fake-timers` clock, with Node's method names and arguments, `apis`
 * names, error codes and wording, and the same `node:timers` and `node:timers/promises`
 * exports replaced.
 *
 * ```sh
 * node --test --import timing-wheel/node-test
 * ```
 *
 * or `import 'timing-wheel/node-test'` at the top of a test file (before its first
 * `enable`).
 *
 * Why this works: `MockTimers`' methods sit on one prototype, shared by `mock.timers`
 * and every `t.mock.timers`, and on Node 20 they are writable and configurable, so the
 * route replaces them there (see `./mock-timers.ts`). Node's own state, in private fields,
 * stays unused. The route knows the `MockTimers` of Node 20 and newer whose prototype has
 * exactly Node 20's methods (`tick`, `enable`, `setTime`, `reset`, `runAll`,
 * `[Symbol.dispose]`); another is refused with an error naming what differs, and left as
 * it is. Importing the route twice (ESM and CommonJS copies) moves the prototype once.
 *
 * Where it deliberately differs from Node's `mock.timers` (Node's tests that these
 * differences fail are named in `scripts/node-test-suite.mjs`):
 * - Inside a timer, `Date.now()` reads that timer's own time (Node's reads the time the
 *   whole `tick` moves to).
 * - `runAll` fires every timer pending when it is called and leaves the clock at the last
 *   one's time. Node 20's moves to the timer in the heap's last array slot, which need not
 *   be the latest: after `setTimeout` at 6, 29 and 28 ms it fires 6 and 28 only.
 * - Microtasks between timers: with the added `tickAsync(ms)` and `runAllAsync()`,
 *   promise callbacks and `queueMicrotask` jobs run after each timer, before the next
 *   (`await` between timers works); Node's `tick` runs none between two due timers.
 * - `apis` also takes `'AbortSignal.timeout'`, `'performance'` and `'hrtime'`
 *   (`process.hrtime`), faked only when listed (Node refuses these names). `'performance'`
 *   is fake-timers' `performance`: the global one replaced (its `now` on the clock,
 *   `timeOrigin` the start, marks and measures that record nothing), and
 *   `perf_hooks.performance.now` on the clock too.
 * - `setTime(t)` moves the wall clock (`Date`) only: pending timers keep their delays,
 *   as fake-timers' `setSystemTime` does (Node's keep their absolute times).
 * - `tick` and `setTime` refuse a time that is not a finite non-negative number (Node
 *   concatenates a string and runs forever on `Infinity`).
 * - A subtest may enable its own mock timers while its parent's are on, as in Node;
 *   `Date` cannot be mocked twice (`ERR_INVALID_STATE`, as in Node).
 * - Error messages end with the method called (`[mock.timers.tick]`); their stacks
 *   start at the caller's line.
 *
 * @example
 * // node --test --import timing-wheel/node-test
 * import { test } from 'node:test'
 * import assert from 'node:assert'
 *
 * test('a second passes', async (t) => {
 *   t.mock.timers.enable({ apis: ['setTimeout', 'Date'] })
 *   const seen = []
 *   setTimeout(() => seen.push(Date.now()), 1000)
 *   t.mock.timers.tick(1000)
 *   assert.deepStrictEqual(seen, [1000])
 * })
 *
 * @module
 */
import { mock } from 'node:test'
import { moveMockTimers } from './move.js'

export { type Api, addedApis, type EnableOptions, nodeApis } from './mock-timers.js'
export { knownMethods, moveMockTimers, type WheelMockTimers } from './move.js'

moveMockTimers(Object.getPrototypeOf(mock.timers) as object, process.versions.node)
