/** tinyqueue with lazy deletion: one object per timer, as its users write it (`object-heap.ts`). */
import TinyQueue from 'tinyqueue'
import type { QueueImpl } from '../adapter.js'
import { moduleCopy } from '../module-copy.js'
import type * as ObjectHeap from './object-heap.js'

const { ObjectHeapTimers, byTime } = await moduleCopy<typeof ObjectHeap>(new URL('./object-heap.js', import.meta.url), 'tinyqueue')

export const tinyqueue: QueueImpl = {
  name: 'tinyqueue',
  create: (capacity, onFire) => new ObjectHeapTimers(new TinyQueue<ObjectHeap.Timer>([], byTime), capacity, onFire),
}
