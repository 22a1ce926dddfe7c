/**
 * The priority queue behind a timing wheel: integer keys, constant-time `add`, `remove`
 * and `change`, and `increaseMinAllowedKey` in place of delete-min. Keys are integers in
 * `[0, 2^52 - 1]`; the minimum allowed key only grows. `add`, `remove` and `change`
 * allocate nothing; `increaseMinAllowedKey` costs what it removes or moves down a level
 * plus the occupied slots it passes.
 *
 * @example
 * import { PriorityQueue, Elt } from 'timing-wheel'
 * const pq = PriorityQueue.create<string>()
 * PriorityQueue.add(pq, 3, 'c')
 * PriorityQueue.add(pq, 1, 'a')
 * PriorityQueue.increaseMinAllowedKey(pq, 4, (e) => console.log(Elt.value(pq, e))) // a, c
 *
 * @module
 */
export {
  type PriorityQueue,
  type CreateOptions,
  type Elt,
  maxRepresentableKey,
  maxCapacity,
  create,
  length,
  isEmpty,
  minAllowedKey,
  maxAllowedKey,
  levelBits,
  add,
  remove,
  change,
  mem,
  clear,
  increaseMinAllowedKey,
  minElt,
  minEltExn,
  minKey,
  minKeyExn,
  iter,
  toArray,
  invariant,
} from './priority-queue.js'
