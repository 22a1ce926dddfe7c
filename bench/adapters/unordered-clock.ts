/**
 * Not a peer but a floor: a clock that does all that fake-timers' `setTimeout` API asks
 * of any implementation (a timer object per call, kept while it is pending; a handle
 * object returned, as on Node; the callback called with its arguments) and nothing else.
 * It fires timers in the order they were set, not by due time, so it keeps no order at
 * all. What it costs per event on the hold load is what no virtual clock can go below.
 */
import type { Clock, ClockImpl } from '../adapter.js'

/** The fields `timing-wheel/sim` keeps per timer. */
interface Timer {
  readonly id: number
  readonly kind: string
  readonly callback: (...args: number[]) => void
  readonly args: readonly number[]
  readonly delay: number
  readonly interval: number | undefined
  due: number
  order: number
  place: string | undefined
  elt: number
  armSeq: number
}

/** As `TimerHandle`: the id, the timer and what refreshes it. */
class Handle {
  constructor(
    readonly id: number,
    readonly timer: Timer,
    readonly refresh: (timer: Timer) => void,
  ) {}
}

/** A timer as `setTimeout` makes it, every field written in one literal. */
const newTimer = (id: number, callback: (...args: number[]) => void, args: readonly number[], delay: number, now: number): Timer => ({
  id,
  kind: 'Timeout',
  callback,
  args,
  delay,
  interval: undefined,
  due: now + delay,
  order: id,
  place: 'wheel',
  elt: 0,
  armSeq: 0,
})

/** Moves the clock to a timer taken off the pending ones and calls its callback. */
const fire = (clock: { now: number }, timer: Timer): number => {
  clock.now = timer.due
  const args = timer.args
  if (args.length === 1) timer.callback.call(null, args[0]!)
  else Reflect.apply(timer.callback, null, args)
  return clock.now
}

class UnorderedClock implements Clock {
  now = 0
  /** A ring of pending timers, oldest first; grows by doubling. */
  ring: Array<Timer | undefined> = new Array<Timer | undefined>(1024).fill(undefined)
  head = 0
  count = 0
  nextId = 1
  readonly refresh = (timer: Timer): void => {
    timer.due = this.now + timer.delay
  }

  setTimeout(callback: (...args: number[]) => void, delay: number, ...args: number[]): unknown {
    if (this.count === this.ring.length) this.grow()
    const timer = newTimer(this.nextId++, callback, args, delay, this.now)
    this.ring[(this.head + this.count++) & (this.ring.length - 1)] = timer
    return new Handle(timer.id, timer, this.refresh)
  }

  next(): number {
    const timer = this.ring[this.head]
    if (timer === undefined) return this.now
    this.ring[this.head] = undefined
    this.head = (this.head + 1) & (this.ring.length - 1)
    this.count--
    return fire(this, timer)
  }

  countTimers(): number {
    return this.count
  }

  grow(): void {
    const ring = new Array<Timer | undefined>(this.ring.length * 2).fill(undefined)
    for (let i = 0; i < this.count; i++) ring[i] = this.ring[(this.head + i) & (this.ring.length - 1)]
    this.ring = ring
    this.head = 0
  }
}

export const unorderedClock: ClockImpl = {
  name: 'unordered (floor)',
  create: () => new UnorderedClock(),
}

/**
 * The same API work, firing a pending timer chosen at random (from a fixed seed) rather
 * than the oldest. A clock that fires by due time reaches its timers in an order unrelated
 * to the order they were made, and so must this one: each firing pays the cache misses of
 * reaching a timer object in a heap of 100k of them, which the unordered clock's ring,
 * visiting them in the order they were allocated, does not. `now` jumps to each timer's
 * due time, backwards too: nothing here keeps order.
 */
class RandomOrderClock implements Clock {
  now = 0
  readonly pending: Timer[] = []
  nextId = 1
  seed = 0x2545f491
  readonly refresh = (timer: Timer): void => {
    timer.due = this.now + timer.delay
  }

  setTimeout(callback: (...args: number[]) => void, delay: number, ...args: number[]): unknown {
    const timer = newTimer(this.nextId++, callback, args, delay, this.now)
    this.pending.push(timer)
    return new Handle(timer.id, timer, this.refresh)
  }

  next(): number {
    const pending = this.pending
    if (pending.length === 0) return this.now
    this.seed = (Math.imul(this.seed, 1103515245) + 12345) >>> 0
    const i = this.seed % pending.length
    const timer = pending[i]!
    const last = pending.pop()!
    if (last !== timer) pending[i] = last
    return fire(this, timer)
  }

  countTimers(): number {
    return this.pending.length
  }
}

export const randomOrderClock: ClockImpl = {
  name: 'random order (floor)',
  create: () => new RandomOrderClock(),
}
