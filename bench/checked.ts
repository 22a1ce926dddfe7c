/**
 * An adapter around another that checks what it does: every alarm fires at most once,
 * never early (`at < to` of the advance that fires it) and never late (not before the
 * target of the advance before, which should have fired it), cancelled alarms never fire,
 * and nothing is left over. It counts what happened for the demonstration. Never timed.
 */
import type { Capacity, OnFire, QueueImpl, TimerQueue } from './adapter.js'

/** What a checked run did. */
export interface Tally {
  added: number
  cancelled: number
  fired: number
  /** Fired at or after the `to` of their advance. */
  early: number
  /** Fired by an advance although an earlier one had passed their time. */
  late: number
  /** Fired while not outstanding: cancelled, fired already, or never added. */
  unexpected: number
}

export const emptyTally = (): Tally => ({ added: 0, cancelled: 0, fired: 0, early: 0, late: 0, unexpected: 0 })

class CheckedTimers implements TimerQueue {
  readonly inner: TimerQueue
  readonly tally: Tally
  readonly onFire: OnFire
  readonly ats: Float64Array
  readonly outstanding: Uint8Array
  /** The target of the advance running now, and of the one before. */
  to = -Infinity
  passed = -Infinity

  constructor(inner: QueueImpl, capacity: Capacity, onFire: OnFire, tally: Tally) {
    this.tally = tally
    this.onFire = onFire
    this.ats = new Float64Array(capacity.ids)
    this.outstanding = new Uint8Array(capacity.ids)
    this.inner = inner.create(capacity, (id) => this.fired(id))
  }

  fired(id: number): void {
    const at = this.ats[id]!
    if (this.outstanding[id] !== 1) this.tally.unexpected++
    if (!(at < this.to)) this.tally.early++
    if (at < this.passed) this.tally.late++
    this.outstanding[id] = 0
    this.tally.fired++
    this.onFire(id)
  }

  add(id: number, at: number): void {
    if (this.outstanding[id] === 1) throw new Error(`checked: id ${id} added while outstanding`)
    this.outstanding[id] = 1
    this.ats[id] = at
    this.tally.added++
    this.inner.add(id, at)
  }

  cancel(id: number): void {
    if (this.outstanding[id] !== 1) throw new Error(`checked: id ${id} cancelled while not outstanding`)
    this.outstanding[id] = 0
    this.tally.cancelled++
    this.inner.cancel(id)
  }

  advance(to: number): void {
    if (to <= this.to) return
    this.to = to
    this.inner.advance(to)
    this.passed = to
  }

  nextFiresAt(): number {
    return this.inner.nextFiresAt()
  }

  size(): number {
    return this.inner.size()
  }
}

/** `impl` with every alarm checked; the counts accumulate in `tally`. */
export const checked = (impl: QueueImpl, tally: Tally): QueueImpl => ({
  name: impl.name,
  create: (capacity, onFire) => new CheckedTimers(impl, capacity, onFire, tally),
})
