/**
 * What a real event loop may do with timers, and nothing else: the rules the exploring
 * schedule (`exploring-schedule.ts`) draws its freedom from. Each rule names its source.
 *
 * Lateness is a stall of the event loop, never one timer late alone and never early:
 * when the loop comes back from a stall at time `B`, every timer due by `B` has come due
 * together and runs in the runtime's own order. A timer armed while a batch runs is due
 * after `B` and waits for a later batch. In browsers callbacks take no virtual time; in
 * Node what is due stays decided by `B`, but time passes between callbacks (below).
 *
 * Node (`'node'`), from `lib/internal/timers.js` and `lib/timers.js` as Node v20.20.2
 * runs them (each quote checked against the running binary's own source:
 * `node --expose-internals -e "console.log(require('internal/timers').insert.toString())"`,
 * likewise `Timeout`, `getTimerCallbacks` and `require('timers').setTimeout`), and
 * `src/env.cc` for the clock read:
 *
 * - One list per duration. `setTimeout` and `setInterval` run `insert(timeout,
 *   timeout._idleTimeout)`; `insert` runs `msecs = MathTrunc(msecs)` and
 *   `L.append(list, item)` to `timerListMap[msecs]` (a new list gets `expiry = start +
 *   msecs`), so timers of one duration run in arming order; an interval's re-arm
 *   (`listOnTimeout`, its `finally`) runs `insert(timer, timer._idleTimeout, start)` after
 *   `timer._idleTimeout = timer._repeat`, into the list of its period.
 * - The delay rule ({@link nodeDelay}): the `Timeout` constructor runs `after *= 1;` then
 *   `if (!(after >= 1 && after <= TIMEOUT_MAX)) { after = 1; }` and `this._repeat =
 *   isRepeat ? after : null`, so 0, a missing delay, a negative one, NaN and 0.5 are 1 ms,
 *   in the 1 ms list, for timeouts and intervals alike: `setTimeout(X, 1); setTimeout(Y, 0)`
 *   runs X then Y. (fake-timers' 0 at rest is due at once; the fake-timers entry keeps it,
 *   only this model follows Node.)
 * - Time passes inside a batch. `processTimers(now)` calls `listOnTimeout(list, now)` with
 *   one `now`, and `listOnTimeout` decides what is due by it: `const diff = now -
 *   timer._idleStart;` and `if (diff < msecs) { list.expiry = MathMax(timer._idleStart +
 *   msecs, now + 1); list.id = timerListId++; ... return; }` stops a list at a head not due
 *   and puts it back no earlier than `now + 1`. But `insert`'s third parameter is `start =
 *   binding.getLibuvNow()`, a fresh read: `Environment::GetNowUint64` runs
 *   `uv_update_time(event_loop())` before `uv_now(event_loop())`. So each arming inside a
 *   callback reads a time in `[the last time read, the batch's first due + the stall
 *   bound]`, a choice of the plan (its `stalls`, in turn with the stalls before batches);
 *   the next batch runs no earlier than the last time read. Callbacks still see the
 *   batch's time on the clock: the model moves what they arm, not what they read.
 * - Time passes at rest too. Code between the clock's moves (a script's top level, a test
 *   between ticks) arms through the same `insert`, so each arming there reads a time in
 *   `[the last time read, the clock's time + the stall bound]`, one more plan choice: a
 *   script's first `setTimeout` can take a millisecond, so lists of 3 and 2 ms armed in
 *   turn can tie (`npm run node:conformance` showed it before the model had it).
 * - Lists by their heads' expiry: `processTimers` loops `while ((list =
 *   timerListQueue.peek()) != null)`, returns at `if (list.expiry > now)`, else runs
 *   `listOnTimeout(list, now)`; `timerListQueue` is ordered by `compareTimersLists`, by
 *   `a.expiry - b.expiry` and on a tie by `a.id < b.id`, an id from `timerListId++` at a
 *   list's creation and whenever `listOnTimeout` re-keys it, which depends on real timing:
 *   lists due together run in either order.
 * - A due list runs whole: `listOnTimeout` takes `L.peek(list)` until the `diff < msecs`
 *   stop above, before `processTimers` peeks the next list. So after a stall a timer due
 *   at 160 can run before one due at 150 when their durations differ.
 * - `setImmediate` against timers due together (armed outside an I/O callback) can go
 *   either way: `processImmediate` runs in the check phase, `processTimers` in the timers
 *   phase, and which one the loop reaches first depends on where it was when they came
 *   due (Node's "setImmediate() vs setTimeout()" guide). Immediates run as one queue.
 * - An interval re-arms from the start of its callback: `listOnTimeout` runs `let start;
 *   if (timer._repeat) { start = binding.getLibuvNow(); }` before `timer._onTimeout()`
 *   and re-inserts with that `start` in its `finally`: one more read, before those of its
 *   callback. Re-inserted after the callback, it waits behind a timer of its list the
 *   callback armed.
 *
 * Browsers (`'browser'`), from the HTML standard, section 8.6 Timers:
 *
 * - "Run steps after a timeout", step 4.2: a timer waits until every timer that started
 *   before it with an equal or smaller timeout has completed. Nothing else orders timers
 *   due together: any order that keeps that rule is possible.
 * - The timer initialization steps' nesting rule: "If nesting level is greater than 5, and
 *   timeout is less than 4, then set timeout to 4"; a timer armed from a timer's callback
 *   has its nesting level plus one, an interval's every re-arm one more.
 * - Step 4.3 ("Optionally, wait a further implementation-defined length of time") lets a
 *   browser delay one timer alone; the model keeps to stalls (fewer schedules, never a
 *   schedule a browser cannot produce).
 *
 * The FIFO, on-time schedule (no stall, no time read late, every tie in arming order,
 * immediates first) is allowed by both models and is the `timing-wheel/fake-timers`
 * clock's order, but for Node's delay rule (a 0 ms timer is due 1 ms later).
 *
 * @module
 */

/**
 * The runtime whose rules a schedule follows.
 *
 * @example
 * const runtime: Runtime = 'browser'
 * fc.assert(fc.property(clockArb({ runtime }), withClock(body))) // browsers' clamping and orders
 */
export type Runtime = 'node' | 'browser'

/** One arming of a timer as the models see it. */
export interface Arming {
  /** Arming number, counting from 0 over the clock's life: the order armed. */
  readonly seq: number
  readonly kind: 'Timeout' | 'Interval' | 'Immediate' | 'AnimationFrame'
  /** The list it joins: its duration in ms (Node), its timeout (browsers); -1 for immediates, -2 for frames. */
  readonly list: number
  /** Elapsed ms when armed. */
  readonly armedAt: number
  /** Elapsed ms it was due at when armed. */
  readonly due: number
  /** Browser timer nesting level (0 outside timer callbacks). */
  readonly nesting: number
}

/** Why a timer ran where it ran: a rule of the model, in words, with its source. */
export const rules = {
  stall: (runtime: Runtime, ms: number): string =>
    runtime === 'node'
      ? `the event loop stalled ${ms} ms, then ran every list due (Node lib/internal/timers.js: processTimers runs each list whose expiry has passed)`
      : `the event loop stalled ${ms} ms, then ran every timer due (HTML 8.6, run steps after a timeout, step 4.1 waits at least the timeout)`,
  wholeList: 'a due list runs whole before the next list, lists by their head\'s expiry (Node lib/internal/timers.js: listOnTimeout, compareTimersLists)',
  tie: 'lists due together run in either order (Node lib/internal/timers.js: compareTimersLists breaks ties by list id, which depends on real timing)',
  immediates: 'setImmediate and timers due together run either way outside I/O (Node lib/internal/timers.js: processImmediate runs in the check phase, processTimers in the timers phase)',
  waits: 'a timer waits only for earlier timers with an equal or smaller timeout (HTML 8.6, run steps after a timeout, step 4.2)',
  read: 'time passed while code ran (Node lib/internal/timers.js: insert\'s start defaults to binding.getLibuvNow(), a fresh read)',
  nesting: 'nested more than 5 levels, a timeout under 4 ms is 4 ms (HTML 8.6, timer initialization steps, the nesting-level step)',
} as const

/**
 * The browser's timeout for a timer armed with `offset` ms at nesting level `level` of
 * the task arming it: the nesting clamp.
 *
 * @example
 * clampedTimeout(0, 6) // 4
 */
export const clampedTimeout = (offset: number, level: number): number => (level > 5 && offset < 4 ? 4 : offset)

/**
 * Node's delay for an arming of `offset` ms (whole ms, as the clock coerced it, which
 * already made a delay over `TIMEOUT_MAX` 1 ms: `coerceDelay` in `lib/sim/coercion.ts`):
 * `Timeout` makes a delay outside `[1, TIMEOUT_MAX]` 1 ms, so 0 joins the 1 ms list.
 *
 * @example
 * nodeDelay(0) // 1
 * nodeDelay(5) // 5
 */
export const nodeDelay = (offset: number): number => (offset >= 1 ? offset : 1)

/**
 * Sorts `xs` in place by `compare`, unless they are in order already, as a batch's lists
 * and members nearly always are: a sort allocates, a look does not.
 */
export const sortUnlessSorted = <T>(xs: T[], compare: (a: T, b: T) => number): T[] => {
  for (let i = 1; i < xs.length; i++) if (compare(xs[i - 1]!, xs[i]!) > 0) return xs.sort(compare)
  return xs
}

/** What the model chooses with: `pick(n)` one of `n >= 2` options, 0 being FIFO's. */
export interface Picker {
  readonly pick: (n: number, why: 'tie' | 'immediates' | 'waits') => number
}

/** A batch member placed by {@link orderBatch}: where it runs and why it may run there. */
export interface Placed<T> {
  readonly item: T
  /** Whether it runs 1 ms after the batch (immediates after the timers, Node). */
  readonly deferred: boolean
  /** The rule that let it run before a timer FIFO runs first, if one did. */
  readonly why: string | undefined
}

/**
 * Orders one batch: `lists` holds, per list, the members due by the batch's time in
 * arming order, with the list's key and FIFO's rank of each member (`fifo(a, b)`: whether
 * FIFO runs `a` first). `canDefer` says whether immediates may go 1 ms after the timers.
 * With every pick 0 the result is FIFO's order.
 */
export const orderBatch = <T extends { readonly arming: Arming }>(
  runtime: Runtime,
  lists: ReadonlyArray<readonly T[]>,
  fifo: (a: T, b: T) => boolean,
  picker: Picker,
  canDefer: boolean,
): Placed<T>[] => (runtime === 'node' ? orderNode(lists, fifo, picker, canDefer) : orderBrowser(lists, fifo, picker))

const orderNode = <T extends { readonly arming: Arming }>(
  lists: ReadonlyArray<readonly T[]>,
  fifo: (a: T, b: T) => boolean,
  picker: Picker,
  canDefer: boolean,
): Placed<T>[] => {
  let immediates: readonly T[] = []
  const timers: (readonly T[])[] = []
  for (const l of lists) {
    if (l[0]!.arming.list === -1) immediates = l
    else timers.push(l)
  }
  sortUnlessSorted(timers, (a, b) => (fifo(a[0]!, b[0]!) ? -1 : 1))
  // Lists whose heads are due together run in any order (a tie): a pick takes one of those left.
  const out: { item: T; deferred: boolean; why: string | undefined }[] = []
  const place = (list: readonly T[], why: string | undefined): void => {
    for (const item of list) out.push({ item, deferred: false, why })
  }
  for (let i = 0; i < timers.length; ) {
    let j = i + 1
    while (j < timers.length && timers[j]![0]!.arming.due === timers[i]![0]!.arming.due) j++
    if (j === i + 1) {
      // No tie: nothing to pick.
      place(timers[i]!, rules.wholeList)
      i = j
      continue
    }
    const group = timers.slice(i, j)
    while (group.length > 0) {
      const k = group.length > 1 ? picker.pick(group.length, 'tie') % group.length : 0
      place(group[k]!, k === 0 ? rules.wholeList : rules.tie)
      group.splice(k, 1)
    }
    i = j
  }
  if (immediates.length === 0) return out
  // Immediates run before the timers, or (picked) after them all: then that is why each timer ran where it did.
  if (timers.length > 0 && canDefer && picker.pick(2, 'immediates') % 2 === 1) {
    for (const p of out) p.why = rules.immediates
    for (const item of immediates) out.push({ item, deferred: true, why: rules.immediates })
    return out
  }
  return [...immediates.map((item) => ({ item, deferred: false, why: rules.immediates })), ...out]
}

const orderBrowser = <T extends { readonly arming: Arming }>(
  lists: ReadonlyArray<readonly T[]>,
  fifo: (a: T, b: T) => boolean,
  picker: Picker,
): Placed<T>[] => {
  const heads = lists.map((l) => ({ list: l, at: 0 }))
  const out: Placed<T>[] = []
  for (;;) {
    const live = heads.filter((h) => h.at < h.list.length)
    if (live.length === 0) return out
    // Ready: no earlier-armed member left with an equal or smaller timeout (step 4.2);
    // immediates and frames are not timers of the rule and wait for nothing.
    const ready = live.filter((h) => {
      const a = h.list[h.at]!.arming
      return a.list < 0 || !live.some((o) => o !== h && o.list[o.at]!.arming.list >= 0 && o.list[o.at]!.arming.list <= a.list && o.list[o.at]!.arming.seq < a.seq)
    })
    ready.sort((x, y) => (fifo(x.list[x.at]!, y.list[y.at]!) ? -1 : 1))
    const k = ready.length > 1 ? picker.pick(ready.length, 'waits') % ready.length : 0
    const h = ready[k]!
    out.push({ item: h.list[h.at]!, deferred: false, why: rules.waits })
    h.at++
  }
}
