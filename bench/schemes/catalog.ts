/**
 * The seven schemes of Varghese & Lauck in the paper's order, each behind the one
 * `TimerModule` interface of `scheme.ts`.
 */
import { basicWheel } from './basic-wheel.js'
import { binaryHeap } from './binary-heap.js'
import { hashedSorted } from './hashed-sorted.js'
import { hashedUnsorted } from './hashed-unsorted.js'
import { hierarchical } from './hierarchical.js'
import { orderedList } from './ordered-list.js'
import type { Scheme } from './scheme.js'
import { straightforward } from './straightforward.js'

export { basicWheel, binaryHeap, hashedSorted, hashedUnsorted, hierarchical, orderedList, straightforward }

export const schemes: readonly Scheme[] = [
  straightforward,
  orderedList,
  binaryHeap,
  basicWheel,
  hashedSorted,
  hashedUnsorted,
  hierarchical,
]
