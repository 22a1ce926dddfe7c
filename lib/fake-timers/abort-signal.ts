/**
 * `AbortSignal.timeout(ms)` on a clock: a signal that the clock aborts `ms` virtual ms
 * later with a `TimeoutError` `DOMException`, as the DOM standard's `timeout` does on real
 * time (https://dom.spec.whatwg.org/#dom-abortsignal-timeout). fake-timers 15.5, Jest and
 * Vitest leave it on real time (sinonjs/fake-timers#521); here it is faked with the
 * timers, under the name `'AbortSignal.timeout'` of `toFake` and `toNotFake`.
 *
 * The abort is an ordinary `setTimeout` of the clock, so `countTimers` counts it, a move
 * fires it in its place among the other timers, and `uninstall` drops it (the signal then
 * never aborts). Node's own `AbortSignal.timeout` takes a delay that is an integer in
 * `[0, 2^32 - 1]` (`validateUint32` in `lib/internal/abort_controller.js`) and arms an
 * internal timer, which like every Node timer runs a delay above `2^31 - 1` after 1 ms;
 * the clock's `setTimeout` does the same. Any other delay goes to the original, so the
 * error thrown is the runtime's own.
 */

/** The parts of a global that a fake `AbortSignal.timeout` needs. */
export interface AbortHost {
  readonly AbortController: typeof AbortController
  readonly DOMException: typeof DOMException | undefined
  /** The original `AbortSignal.timeout`. */
  readonly timeout: (delay: number) => AbortSignal
}

const isUint32 = (delay: unknown): delay is number =>
  typeof delay === 'number' && Number.isInteger(delay) && delay >= 0 && delay <= 0xffff_ffff

const timeoutReason = (host: AbortHost): Error => {
  const message = 'The operation was aborted due to timeout'
  if (host.DOMException !== undefined) return new host.DOMException(message, 'TimeoutError')
  return Object.assign(new Error(message), { name: 'TimeoutError' })
}

/**
 * The fake `AbortSignal.timeout` for a clock whose `setTimeout` is `setTimeout`.
 *
 * @example
 * const timeout = fakeAbortSignalTimeout(host, clock.setTimeout)
 * const signal = timeout(100)
 * clock.tick(100)
 * signal.aborted // true; signal.reason.name === 'TimeoutError'
 */
export const fakeAbortSignalTimeout =
  (host: AbortHost, setTimeout: (callback: () => void, delay: number) => unknown) =>
  (delay: number): AbortSignal => {
    if (!isUint32(delay)) return host.timeout(delay)
    const controller = new host.AbortController()
    setTimeout(() => controller.abort(timeoutReason(host)), delay)
    return controller.signal
  }
