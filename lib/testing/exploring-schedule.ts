/**
 * An exploring schedule: hooks (`lib/sim/hooks.ts`) that steer a `timing-wheel/fake-timers`
 * clock through one schedule a runtime allows (`runtime-model.ts`), chosen by a
 * {@link Chooser}: how long the loop stalls before each batch, and each free order.
 *
 * Representation.
 *
 * - Every arming gets an {@link Armed} record: the model's {@link Arming} (arming number,
 *   list key, armed at, due at, nesting level), the timer, and the stack that armed it.
 *   A timer's live arming is in its `hooked` field (`current`); an arming is stale once
 *   its timer is cleared, fired or armed again.
 * - No queue of its own: the clock's schedule (`lib/sim/schedule.ts`) holds the pending
 *   timers in FIFO order, and a batch reads it there. `Schedule.peek` is the first due;
 *   `Schedule.lateUpTo(at)` makes every timer due by the batch's time late, the first ones
 *   of the schedule's late list, in FIFO order: the batch's members. Ordered by the model,
 *   they go back in front (`Schedule.replaceFront`), due at the batch's time with fresh
 *   `order` numbers, and the clock fires them as it fires anything; an interval re-arms
 *   from when it ran. While a timer is due at or before the batch's time, no batch starts.
 * - `tails` keeps each list's armings, the last live one last: a new arming of a list is
 *   never due before it (a list runs in arming order, also behind immediates moved after a
 *   batch). An interval re-armed by the clock before its callback joins its list after
 *   the callback, as Node re-inserts it in `listOnTimeout`'s `finally`.
 * - `batchAt` is the time of the batch being run. When the clock is about to choose a
 *   timer and the first pending one is due after `batchAt`, a batch starts: the chooser
 *   names the stall, and the batch is every timer due by then, as above.
 *   A stall never runs past the end of the move in progress (`tick(ms)` ends at its end).
 * - Node: `lastRead` is the latest time an arming read (the chooser's `read`: in a
 *   callback in `[the last read, batchFirst + maxStall]`, never past the move's end; at
 *   rest in `[the last read, the clock's time + maxStall]`): what it arms is due from
 *   there, and the next batch runs no earlier. Each time
 *   carries its `origin`, the time choice it moves with, for the search's cut points.
 * - `runs` keeps every timer that ran, for the departures and for tests.
 *
 * Invariants: a pending timer's `due` is never before the due time it was armed with; a
 * batch's members are all due at its time (immediates put after it, at its time + 1);
 * within a list, due times follow arming order; the clock's schedule keeps its own
 * invariants (`Schedule.invariant`), which the spec checks inside every callback.
 *
 * Cost: an arming costs a record and, unless `where` is false, a captured stack (most of
 * it); a batch of one timer, a look at the schedule's first; a larger one, its order and,
 * unless it runs on time in FIFO order, one pass over the schedule's late list. The
 * chooser's `dues` (a search asks, a plan never) makes the timers due up to the longest
 * stall late too; those the batch does not run stay late, in order, still pending.
 *
 * Differences from the fake-timers clock with the empty plan: a timer armed by an
 * interval's callback with the interval's own period runs before the interval's next tick
 * when both are due together (Node re-arms after the callback; fake-timers before it).
 *
 * @module
 */
import * as Schedule from '../sim/schedule.js'
import type { ScheduleHooks } from '../sim/hooks.js'
import { type Timer, firesBefore } from '../sim/timer.js'
import type { State } from '../sim/virtual-clock.js'
import { type Arming, type Picker, type Runtime, clampedTimeout, nodeDelay, orderBatch, rules, sortUnlessSorted } from './runtime-model.js'

/** Where the freedom comes from: the plan of a `clockArb` value, or the exhaustive search. */
export interface Chooser extends Picker {
  /**
   * The time the batch runs at, in `[first, last]`, `first` being the earliest it can run
   * (the first due time, or the last time read if later); `dues()` gives the due times of
   * the other pending timers in `(first, last]`, ascending. A function: finding them makes
   * every timer due by `last` late in the clock's schedule, which a plan has no use for.
   */
  readonly stall: (first: number, last: number, dues: () => readonly number[], origin: number) => number
  /**
   * Node: the time an arming reads (`getLibuvNow()`), in `[from, to]`: `from` the last
   * time read; in a callback `to` is the batch's first due time plus the stall bound (or
   * the end of the move, if sooner), at rest the clock's time plus the stall bound.
   */
  readonly read: (from: number, to: number, origin: number) => number
  /**
   * Told each time the schedule deals with (times read, due times, ends of moves), for a
   * search, with its origin: the number of the time choice (stalls and reads, counting
   * from 0) it moves with, or -1 for a time no choice moves. `stall` and `read` get the
   * origin of their `first` or `from`.
   */
  readonly seen?: (time: number, origin: number) => void
}

/**
 * One arming with what it took to describe it.
 *
 * @example
 * const armed: readonly Armed[] = clock.runs().map((r) => r.armed)
 * armed.map((a) => `${a.arming.kind} #${a.arming.seq}, delay ${a.delay}`) // ['Timeout #0, delay 10']
 */
export interface Armed {
  /** Its place in arming order and its kind. */
  readonly arming: Arming
  /** The timer the program armed. */
  readonly timer: Timer
  /** Where it was armed (a captured stack), unless the schedule keeps none. */
  readonly stack: Error | undefined
  /** The delay as the program passed it (after coercion), for the words. */
  readonly delay: number | undefined
  /** The time choice its due time moves with (`Chooser.seen`). */
  readonly origin: number
  /** The clock's time when armed; `arming.armedAt` is later when the arming read a later time (Node). */
  readonly clockAt: number
}

/**
 * A timer that ran: when, and the rule that put it there if it overtook one FIFO runs first.
 *
 * @example
 * const runs: readonly Ran[] = clock.runs()
 * runs.filter((r) => r.why !== undefined).map((r) => `#${r.armed.arming.seq} at ${r.at}: ${r.why}`) // the overtakings
 */
export interface Ran {
  /** The arming that ran. */
  readonly armed: Armed
  /** The virtual time it ran at. */
  readonly at: number
  /** The rule that let it overtake, if it overtook. */
  readonly why: string | undefined
}

/** The state of one exploring schedule; the clock's hooks are `hooks`. */
export interface Exploring {
  readonly runtime: Runtime
  readonly runs: Ran[]
  readonly hooks: ScheduleHooks
}

/** Node's and browsers' `setTimeout` keep delays of at least 1 ms; fake-timers' 0 at rest runs now. */
const listKeyOf = (runtime: Runtime, timer: Timer, offset: number, level: number): number => {
  if (timer.kind === 'Immediate') return -1
  if (timer.kind === 'AnimationFrame') return -2
  return runtime === 'browser' ? clampedTimeout(offset, level) : offset
}

/**
 * The hooks of an exploring schedule on the clock whose state is `core`, following
 * `runtime`'s rules with stalls of at most `maxStall` ms, choices from `chooser`.
 */
export const createExploring = (core: State, runtime: Runtime, maxStall: number, chooser: Chooser, where = true): Exploring => {
  /** Each list's armings, the last live one last: a new one may not overtake it. */
  const tails = new Map<number, Armed[]>()
  // A Map, not a WeakMap: ephemerons cost the collector more than the entries cost here,
  // and an arming's entry goes when it runs.
  const why = new Map<Armed, string>()
  const runs: Ran[] = []
  let seq = 0
  let batchAt = -Infinity
  let firingLevel = 0
  /** An interval re-armed by the clock before its callback, which Node re-inserts after it. */
  let rearmed: Armed | undefined
  let firingTimer: Timer | undefined
  let seqAtFiring = 0
  // Node: the time read last (never goes back), the batch's first due time (its reads stay
  // within the stall bound of it) and the end of the move in progress.
  let lastRead = -Infinity
  let batchFirst = -Infinity
  // Origins (`Chooser.seen`): of the last time read, of the batch's time; choices made so far.
  let lastReadOrigin = -1
  let batchOrigin = -1
  let choices = 0
  let moveHigh = Infinity
  const seen = chooser.seen

  // A timer of an earlier generation (before a `reset`) is not pending, whatever its place says.
  // A timer's live arming is in its `hooked` field, where a map would cost a lookup at
  // every arming, choice and firing.
  const current = (t: Timer): Armed | undefined => t.hooked as Armed | undefined
  const live = (a: Armed): boolean => a.timer.hooked === a && a.timer.place !== undefined && a.timer.home === core.home

  /**
   * Node: the time an arming reads, at least `from`: time passes while a batch runs, and in
   * code at rest too. In a callback the reads stay within the stall bound of the batch's
   * first due time and the move's end; at rest, within the stall bound of the clock's time.
   */
  const readTime = (from: number, inCallback: boolean): number => {
    const start = Math.max(from, lastRead)
    const startOrigin = lastRead > from ? lastReadOrigin : inCallback ? batchOrigin : -1
    const to = inCallback ? Math.min(moveHigh, batchFirst + maxStall) : from + maxStall
    if (to > start) {
      lastRead = Math.max(start, Math.min(to, chooser.read(start, to, startOrigin)))
      lastReadOrigin = choices++
    } else {
      lastRead = start
      lastReadOrigin = startOrigin
    }
    return lastRead
  }

  const armed = (timer: Timer, armedAt: number, inCallback: boolean): void => {
    if (!inCallback) callbackDone()
    const level = inCallback ? firingLevel : 0
    let offset = timer.due - armedAt
    const clockAt = armedAt
    const timed = timer.kind !== 'Immediate' && timer.kind !== 'AnimationFrame'
    if (runtime === 'browser' && timed && clampedTimeout(offset, level) !== offset) {
      offset = clampedTimeout(offset, level)
      timer.due = armedAt + offset
    } else if (runtime === 'node' && timed) {
      offset = nodeDelay(offset)
      armedAt = readTime(armedAt, inCallback)
      timer.due = armedAt + offset
    }
    const origin = runtime === 'node' && timed ? lastReadOrigin : inCallback ? batchOrigin : -1
    if (seen !== undefined) {
      seen(armedAt, origin)
      seen(timer.due, origin)
    }
    // The frames from the clock's entry up to the caller's line, and a few more: a stack is
    // most of what an arming costs, and it grows with the frames kept.
    let stack: Error | undefined
    if (where) {
      stack = {} as Error
      const limit = Error.stackTraceLimit
      Error.stackTraceLimit = 8
      Error.captureStackTrace(stack, armed)
      Error.stackTraceLimit = limit
    }
    const rearm = inCallback && timer === firingTimer && timer.kind === 'Interval'
    const a: Armed = {
      arming: { seq: rearm ? -1 : seq++, kind: timer.kind, list: listKeyOf(runtime, timer, offset, level), armedAt, due: timer.due, nesting: level + 1 },
      timer,
      stack,
      delay: timer.kind === 'Interval' && timer.hooked !== undefined ? timer.interval : timer.delay,
      origin,
      clockAt,
    }
    timer.hooked = a
    if (rearm) rearmed = a
    else join(a, true)
  }

  /** `a` joins its list; `filing`: it is not in the clock's schedule yet, so its due time may still move. */
  const join = (a: Armed, filing: boolean): void => {
    // A list runs in arming order: behind immediates put after a batch, a new one waits too.
    let list = tails.get(a.arming.list)
    if (list === undefined) tails.set(a.arming.list, (list = []))
    while (list.length > 0 && !live(list[list.length - 1]!)) list.pop()
    const tail = list[list.length - 1]
    if (filing && tail !== undefined && tail.timer.due > a.timer.due) a.timer.due = tail.timer.due
    list.push(a)
    // Armings that ran stay below a live tail: dropped whenever the length doubles.
    if (list.length >= 64 && (list.length & (list.length - 1)) === 0) tails.set(a.arming.list, list.filter(live))
  }

  /** The callback that ran last has returned: its interval joins its list now, after what the callback armed. */
  const callbackDone = (): void => {
    firingTimer = undefined
    if (rearmed === undefined) return
    const a = rearmed
    rearmed = undefined
    if (a.timer.hooked !== a) return
    ;(a.arming as { seq: number }).seq = seq++
    // Timers the callback armed go before it, in the clock's order too; one of its list
    // that read a later time holds it back (Node's list stops at a head not yet due).
    if (seq - 1 !== seqAtFiring && a.timer.place !== undefined) {
      Schedule.remove(core.schedule, a.timer)
      a.timer.order = core.nextOrder++
      join(a, true)
      Schedule.add(core.schedule, a.timer)
    } else join(a, false)
  }

  const firing = (timer: Timer, at: number): void => {
    callbackDone()
    firingTimer = timer
    seqAtFiring = seq
    const a = current(timer)
    if (a === undefined) return
    firingLevel = a.arming.nesting
    // Mostly empty (no departure pending): then no lookup.
    const w = why.size === 0 ? undefined : why.get(a)
    runs.push({ armed: a, at, why: w })
    if (w !== undefined) why.delete(a)
    if (timer.kind !== 'Interval') timer.hooked = undefined
  }

  const bySeq = (x: Armed, y: Armed): number => x.arming.seq - y.arming.seq
  const fifo = (x: Armed, y: Armed): boolean => firesBefore(x.timer, y.timer)

  // The range of the batch being chosen, for `dues`.
  let windowFrom = 0
  let windowLast = 0
  /**
   * The chooser's `dues`: the due times after the batch's earliest time, up to its latest.
   * The timers due by then become late in the clock's schedule (in order, still pending):
   * those the batch does not run stay there.
   */
  const dues = (): readonly number[] => {
    const s = core.schedule
    const n = Schedule.lateUpTo(s, windowLast)
    const out: number[] = []
    for (let i = 0; i < n; i++) {
      const d = s.late[i]!.due
      if (d > windowFrom && d !== out[out.length - 1]) out.push(d)
    }
    return out
  }
  /** The words of a stall of `ms`, made once each. */
  const stallWordsMade = new Map<number, string>()
  const stallWords = (ms: number): string => {
    let w = stallWordsMade.get(ms)
    if (w === undefined) stallWordsMade.set(ms, (w = rules.stall(runtime, ms)))
    return w
  }

  /** Per list, in arming order. */
  const byList = new Map<number, Armed[]>()
  const listsOf = (members: readonly Armed[]): Armed[][] => {
    const lists: Armed[][] = []
    for (const a of members) {
      const l = byList.get(a.arming.list)
      if (l !== undefined) l.push(a)
      else {
        const fresh = [a]
        byList.set(a.arming.list, fresh)
        lists.push(fresh)
      }
    }
    byList.clear()
    for (const l of lists) if (l.length > 1) sortUnlessSorted(l, bySeq)
    return lists
  }

  const choosing = (low: number, high: number): void => {
    callbackDone()
    moveHigh = high
    const s = core.schedule
    const head = Schedule.peek(s)
    if (head === undefined) return
    const first = head.due
    // While a timer is pending at the batch's time (a member, or one a member armed with
    // no delay, fake-timers), the batch runs on; the clock fires it.
    if (first <= batchAt || first > high || first < low) return
    if (seen !== undefined && high !== Infinity) seen(high, -1)
    batchFirst = first
    // The loop comes back no earlier than the time its callbacks last read.
    const from = Math.max(first, Math.min(lastRead, high))
    const fromOrigin = from > first ? lastReadOrigin : (current(head)?.origin ?? -1)
    const last = Math.min(high, first + maxStall)
    windowFrom = from
    windowLast = last
    let at = from
    batchOrigin = fromOrigin
    if (last > from) {
      at = Math.max(from, Math.min(last, chooser.stall(from, last, dues, fromOrigin)))
      batchOrigin = choices++
    }
    // The members: every timer due by `at`, late in the clock's schedule, in FIFO order.
    const count = Schedule.lateUpTo(s, at)
    if (count === 1) {
      // One timer: nothing to choose. If the loop stalled, it runs at `at` (before every
      // other pending timer still), late by the stall.
      batchAt = at
      const t = s.late[0]!
      const a = current(t)!
      if (at === first) {
        if (why.size !== 0) why.delete(a)
      } else {
        why.set(a, stallWords(at - first))
        t.due = at
        t.order = core.nextOrder++
      }
    } else place(s, count, at, first, high)
  }

  // A batch's members in FIFO order, and those that run at its time in their new order:
  // arrays kept from batch to batch, as a batch's garbage is most of what a run makes here.
  const members: Armed[] = []
  const front: Timer[] = []
  /**
   * Orders the batch run at `at`, the first `count` late timers of the clock's schedule (the
   * first due at `first`), moving each where it runs: those run at `at` go back in front,
   * in their new order; immediates put after the batch go in again at `at + 1`.
   */
  const place = (s: Schedule.Schedule, count: number, at: number, first: number, high: number): void => {
    members.length = 0
    for (let i = 0; i < count; i++) members.push(current(s.late[i]!)!)
    const placed = orderBatch(runtime, listsOf(members), fifo, chooser, at + 1 <= high)
    let deferred = false
    // FIFO and on time: the clock's own order already, nothing to move, nothing overtaken.
    let unchanged = at === first
    for (let i = 0; i < placed.length; i++) {
      if (placed[i]!.deferred) {
        deferred = true
        unchanged = false
      } else if (unchanged && placed[i]!.item !== members[i]) unchanged = false
    }
    batchAt = deferred ? at + 1 : at
    // A member's FIFO place is its place among the schedule's late timers (not moved yet).
    for (let i = 0; i < placed.length; i++) {
      const p = placed[i]!
      const a = p.item
      const w = at > a.arming.due ? stallWords(at - first) : !unchanged && Schedule.lateIndex(s, a.timer) > i ? p.why : undefined
      if (w !== undefined) why.set(a, w)
      else if (why.size !== 0) why.delete(a)
    }
    if (unchanged) return
    front.length = 0
    for (const p of placed) {
      const t = p.item.timer
      t.due = p.deferred ? at + 1 : at
      t.order = core.nextOrder++
      if (!p.deferred) front.push(t)
    }
    // At one due time the clock runs immediates first, whatever their order.
    sortUnlessSorted(front, immediatesFirst)
    Schedule.replaceFront(s, count, front)
    if (deferred) for (const p of placed) if (p.deferred) Schedule.add(s, p.item.timer)
  }

  return { runtime, runs, hooks: { armed, choosing, firing } }
}

const immediatesFirst = (x: Timer, y: Timer): number => (x.kind === 'Immediate' ? 0 : 1) - (y.kind === 'Immediate' ? 0 : 1)

// Words.

const libraryFrame = /[/\\](lib[/\\](sim|fake-timers|testing)|dist[/\\](lib|cjs))[/\\]|node:internal|node_modules[/\\](fast-check|vitest|@vitest|tinypool)[/\\]/

const cwd = `${(globalThis as { process?: { cwd?: () => string } }).process?.cwd?.() ?? ''}/`

/** The first frame of `stack` outside this package's clocks: the line that armed the timer. */
export const armedWhere = (stack: Error | undefined): string => {
  if (stack === undefined) return 'a line not kept (where: false)'
  const frames = (stack.stack ?? '').split('\n').slice(1).map((l) => l.trim().replace(/^at /, ''))
  const frame = frames.find((f) => !libraryFrame.test(f)) ?? frames[0] ?? 'unknown'
  return frame.replace(/file:\/\/|\(file:\/\//g, (m) => (m.startsWith('(') ? '(' : '')).replace(cwd, '')
}

const nameOf = (a: Armed): string => {
  switch (a.arming.kind) {
    case 'Immediate':
      return 'setImmediate'
    case 'AnimationFrame':
      return 'requestAnimationFrame'
    default:
      return `set${a.arming.kind}(…, ${a.delay ?? 0})`
  }
}

/** One timer in words: kind and duration, armed at, due at, ran at, the line that armed it. */
export const timerWords = (r: Ran): string =>
  `${nameOf(r.armed)} armed at ${r.armed.arming.armedAt} ms by ${armedWhere(r.armed.stack)}, due at ${r.armed.arming.due} ms, ran at ${r.at} ms`

/**
 * The departures from FIFO on time in `runs`, in words, each with the rule that allowed
 * it: every timer that ran late, and every timer that ran before one FIFO runs first.
 * At most `limit` lines, then a count of the rest.
 */
export const departures = (runs: readonly Ran[], limit = 12): string[] => {
  const out: string[] = []
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i]!
    const late = r.at - r.armed.arming.due
    // FIFO would have run a timer pending with r first: armed before r ran and due earlier (or tied, first in order).
    const overtaken = runs.slice(i + 1).filter((s) => s.armed.arming.armedAt <= r.at && s.armed.arming.due < r.armed.arming.due)
    const read = r.armed.arming.armedAt - r.armed.clockAt
    if (late === 0 && overtaken.length === 0 && r.why === undefined && read === 0) continue
    const parts = [timerWords(r)]
    if (read > 0) parts.push(`armed ${read} ms after the clock's ${r.armed.clockAt} ms, as ${rules.read}`)
    if (late > 0) parts.push(`${late} ms late`)
    for (const s of overtaken.slice(0, 2)) parts.push(`before ${nameOf(s.armed)} armed at ${s.armed.arming.armedAt} ms, due at ${s.armed.arming.due} ms`)
    // Armed late and nothing else: the read is the whole story.
    out.push(late === 0 && overtaken.length === 0 && r.why === undefined ? parts.join(', ') : `${parts.join(', ')}: ${r.why ?? rules.wholeList}`)
  }
  return out.length > limit ? [...out.slice(0, limit), `… and ${out.length - limit} more`] : out
}
