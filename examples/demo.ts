/**
 * `npm start`: the priority queue at work. (The timing-wheel demonstration with the
 * comparison against a binary heap replaces this once the time layer lands.)
 */
import { Elt, PriorityQueue } from '../lib/index.js'

const pq = PriorityQueue.create<string>()
for (const [key, name] of [[30, 'c'], [10, 'a'], [20, 'b'], [10, 'a2']] as const) {
  PriorityQueue.add(pq, key, name)
}
console.log(`queued ${PriorityQueue.length(pq)} elements; min key ${PriorityQueue.minKeyExn(pq)}`)
PriorityQueue.increaseMinAllowedKey(pq, 25, (e) => {
  console.log(`  removed key ${Elt.key(pq, e)}: ${Elt.value(pq, e)}`)
})
console.log(`min allowed key now ${PriorityQueue.minAllowedKey(pq)}, ${PriorityQueue.length(pq)} left`)
