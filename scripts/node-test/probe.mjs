/**
 * Imported after the route (or alone, for the baseline) by scripts/node-test-suite.mjs:
 * counts the `mock.timers.enable` calls of a test file and how many of them left a
 * timing-wheel clock in place (the faked `setTimeout` or `Date` carries the clock, or
 * the route's marker is on the prototype), and prints one line to stderr at exit.
 */
import { mock } from 'node:test'
import { basename } from 'node:path'

const proto = Object.getPrototypeOf(mock.timers)
const moved = Object.hasOwn(proto, Symbol.for('timing-wheel.node-test.timers'))
const enable = proto.enable
let enables = 0
let onWheel = 0
proto.enable = function (...args) {
  const result = enable.apply(this, args)
  enables++
  const clock = globalThis.setTimeout.clock ?? globalThis.Date.clock ?? globalThis.setInterval.clock ?? globalThis.setImmediate.clock
  if (clock !== undefined && typeof clock.tick === 'function') onWheel++
  return result
}
process.on('exit', () => {
  process.stderr.write(`node-test-probe ${JSON.stringify({ file: basename(process.argv[1] ?? ''), moved, enables, onWheel })}\n`)
})
