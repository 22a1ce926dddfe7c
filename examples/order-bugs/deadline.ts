/**
 * Retries `attempt` every `everyMs` until it succeeds or a deadline passes; resolves to
 * the number of attempts.
 *
 * The bug (`readClock: false`): the deadline is a timer that sets a flag, read after each
 * wait. The wait that ends at the deadline and the deadline timer are due together, in
 * two lists of different durations, which Node runs in either order
 * (`compareTimersLists` breaks the tie by a list id that depends on real timing). When
 * the wait goes first, one attempt too many starts after the deadline. Every FIFO clock
 * runs the deadline first (armed first) and hides it. The fix reads the clock instead.
 */
export const retryUntil = async (
  attempt: () => Promise<boolean>,
  { deadlineMs, everyMs, readClock }: { deadlineMs: number; everyMs: number; readClock: boolean },
): Promise<number> => {
  const deadlineAt = Date.now() + deadlineMs
  let expired = false
  const deadline = setTimeout(() => (expired = true), deadlineMs)
  let attempts = 0
  for (;;) {
    attempts++
    if (await attempt()) break
    await new Promise((resolve) => setTimeout(resolve, everyMs))
    if (readClock ? Date.now() >= deadlineAt : expired) break
  }
  clearTimeout(deadline)
  return attempts
}
