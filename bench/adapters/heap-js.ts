/**
 * heap-js with lazy deletion: one object per timer with a `cancelled` flag, through the
 * `push`/`peek`/`pop` calls its README shows (`object-heap.ts`).
 */
import { Heap } from 'heap-js'
import type { QueueImpl } from '../adapter.js'
import { moduleCopy } from '../module-copy.js'
import type * as ObjectHeap from './object-heap.js'

const { ObjectHeapTimers, byTime } = await moduleCopy<typeof ObjectHeap>(new URL('./object-heap.js', import.meta.url), 'heap-js')

export const heapJs: QueueImpl = {
  name: 'heap-js',
  create: (capacity, onFire) => new ObjectHeapTimers(new Heap<ObjectHeap.Timer>(byTime), capacity, onFire),
}
