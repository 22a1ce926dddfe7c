/**
 * flatqueue with lazy deletion, as timer code on a binary heap does it: cancelling marks
 * the entry dead and the entry is dropped when it reaches the top. Entries are tokens,
 * one per `add`, so that an id cancelled and added again is not confused with its corpse.
 *
 * `flatqueuePair` is the add+remove row's peer: a push and then a pop. A lazily deleting
 * heap pays both for every timer, the pop when the cancelled entry reaches the top, so a
 * push among the others and a pop of the least is what a timer set and cancelled costs it
 * (a push of the least, then its pop, would cost it more: the push climbs to the root).
 */
import FlatQueue from 'flatqueue'
import type { Capacity, OnFire, QueueImpl, TimerQueue } from '../adapter.js'

class FlatQueueTimers implements TimerQueue {
  readonly heap = new FlatQueue<number>()
  readonly onFire: OnFire
  /** The token of each id's outstanding alarm. */
  readonly tokenOf: Int32Array
  readonly idOf: Int32Array
  readonly dead: Uint8Array
  nextToken = 0
  live = 0

  constructor(capacity: Capacity, onFire: OnFire) {
    this.onFire = onFire
    this.tokenOf = new Int32Array(capacity.ids)
    this.idOf = new Int32Array(capacity.adds)
    this.dead = new Uint8Array(capacity.adds)
  }

  add(id: number, at: number): void {
    const token = this.nextToken++
    this.tokenOf[id] = token
    this.idOf[token] = id
    this.heap.push(token, at)
    this.live++
  }

  cancel(id: number): void {
    this.dead[this.tokenOf[id]!] = 1
    this.live--
  }

  advance(to: number): void {
    const heap = this.heap
    while (heap.length > 0 && heap.peekValue()! < to) {
      const token = heap.pop()!
      if (this.dead[token] === 0) {
        this.live--
        this.onFire(this.idOf[token]!)
      }
    }
  }

  nextFiresAt(): number {
    const heap = this.heap
    while (heap.length > 0 && this.dead[heap.peek()!] === 1) heap.pop()
    return heap.length > 0 ? heap.peekValue()! + 1 : Infinity
  }

  size(): number {
    return this.live
  }
}

export const flatqueue: QueueImpl = {
  name: 'flatqueue',
  create: (capacity, onFire) => new FlatQueueTimers(capacity, onFire),
}

class FlatQueuePair implements TimerQueue {
  readonly heap = new FlatQueue<number>()
  readonly onFire: OnFire

  constructor(onFire: OnFire) {
    this.onFire = onFire
  }

  add(id: number, at: number): void {
    this.heap.push(id, at)
  }

  /** Pops the least entry, whichever it is: the heap keeps its size, as the wheel does. */
  cancel(): void {
    this.heap.pop()
  }

  advance(to: number): void {
    const heap = this.heap
    while (heap.length > 0 && heap.peekValue()! < to) this.onFire(heap.pop()!)
  }

  nextFiresAt(): number {
    return this.heap.length > 0 ? this.heap.peekValue()! + 1 : Infinity
  }

  size(): number {
    return this.heap.length
  }
}

export const flatqueuePair: QueueImpl = {
  name: 'flatqueue',
  create: (_capacity, onFire) => new FlatQueuePair(onFire),
}
