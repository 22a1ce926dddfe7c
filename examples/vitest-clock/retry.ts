/**
 * Code under test: a request with retries, backing off exponentially through a chain of
 * `setTimeout`s, and giving up after a deadline measured with `Date.now()`. It uses the
 * global timer functions, as real code does; the test replaces them with a virtual clock.
 */
export interface RetryOptions {
  readonly attempts: number
  readonly firstDelay: number
  readonly deadline: number
}

export type Outcome = { readonly ok: true; readonly value: string; readonly at: number } | { readonly ok: false; readonly reason: string; readonly at: number }

/**
 * Calls `attempt` until it succeeds; after each failure waits `firstDelay * 2^n` ms.
 * Stops after `attempts` tries or once `deadline` ms have passed since the first.
 */
export const retry = (attempt: (n: number) => string | Error, options: RetryOptions, done: (outcome: Outcome) => void): void => {
  const started = Date.now()
  const tryOnce = (n: number): void => {
    const result = attempt(n)
    if (!(result instanceof Error)) return done({ ok: true, value: result, at: Date.now() - started })
    const delay = options.firstDelay * 2 ** n
    if (n + 1 >= options.attempts) return done({ ok: false, reason: `gave up after ${n + 1} attempts: ${result.message}`, at: Date.now() - started })
    if (Date.now() - started + delay > options.deadline) return done({ ok: false, reason: `deadline: ${result.message}`, at: Date.now() - started })
    setTimeout(() => tryOnce(n + 1), delay)
  }
  tryOnce(0)
}
