/**
 * heap-js with lazy deletion: one object per timer with a `cancelled` flag, through the
 * `push`/`peek`/`pop` calls its README shows.
 */
import { Heap } from 'heap-js'
import type { Capacity, OnFire, QueueImpl, TimerQueue } from '../adapter.js'

interface Timer {
  readonly at: number
  readonly id: number
  cancelled: boolean
}

const byTime = (a: Timer, b: Timer): number => a.at - b.at

class HeapJsTimers implements TimerQueue {
  readonly heap = new Heap<Timer>(byTime)
  readonly onFire: OnFire
  readonly timers: Array<Timer | undefined>
  live = 0

  constructor(capacity: Capacity, onFire: OnFire) {
    this.onFire = onFire
    this.timers = new Array<Timer | undefined>(capacity.ids).fill(undefined)
  }

  add(id: number, at: number): void {
    const timer: Timer = { at, id, cancelled: false }
    this.timers[id] = timer
    this.heap.push(timer)
    this.live++
  }

  cancel(id: number): void {
    this.timers[id]!.cancelled = true
    this.live--
  }

  advance(to: number): void {
    const heap = this.heap
    while (heap.length > 0 && heap.peek()!.at < to) {
      const timer = heap.pop()!
      if (!timer.cancelled) {
        this.live--
        this.onFire(timer.id)
      }
    }
  }

  nextFiresAt(): number {
    const heap = this.heap
    while (heap.length > 0 && heap.peek()!.cancelled) heap.pop()
    return heap.length > 0 ? heap.peek()!.at + 1 : Infinity
  }

  size(): number {
    return this.live
  }
}

export const heapJs: QueueImpl = {
  name: 'heap-js',
  create: (capacity, onFire) => new HeapJsTimers(capacity, onFire),
}
