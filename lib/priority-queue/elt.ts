/**
 * Reading an element of a {@link PriorityQueue}. Each function takes the queue the
 * element was added to and throws `AlarmNotFound` unless the element is in it, or is the
 * element whose `handleRemoved` is running.
 *
 * @example
 * import { Elt, PriorityQueue } from 'timing-wheel'
 * const pq = PriorityQueue.create<string>()
 * const e = PriorityQueue.add(pq, 5, 'five')
 * Elt.key(pq, e) // 5
 * Elt.value(pq, e) // 'five'
 *
 * @module
 */
export { type Elt, eltKey as key, eltValue as value, nullElt as null } from './priority-queue.js'
