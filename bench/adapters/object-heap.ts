/**
 * Lazy deletion on a binary heap of timer objects, as timer code on tinyqueue or heap-js
 * is written: one object per timer with a `cancelled` flag, which the firing loop checks
 * when the timer reaches the top. The tinyqueue and heap-js adapters each load a copy of
 * this module of their own (`module-copy.ts`), so that each copy's call sites see one
 * heap class and one comparator.
 */
import type { Capacity, OnFire, TimerQueue } from '../adapter.js'

export interface Timer {
  readonly at: number
  readonly id: number
  cancelled: boolean
}

/** What tinyqueue's `TinyQueue` and heap-js's `Heap` both offer. */
export interface ObjectHeap {
  push(timer: Timer): unknown
  peek(): Timer | undefined
  pop(): Timer | undefined
  readonly length: number
}

export const byTime = (a: Timer, b: Timer): number => a.at - b.at

export class ObjectHeapTimers implements TimerQueue {
  readonly heap: ObjectHeap
  readonly onFire: OnFire
  readonly timers: Array<Timer | undefined>
  live = 0

  constructor(heap: ObjectHeap, capacity: Capacity, onFire: OnFire) {
    this.heap = heap
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
