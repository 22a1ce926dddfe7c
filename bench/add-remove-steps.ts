/**
 * Where an add and a remove spend their time: kernels that build the package's queue up
 * one guarantee at a time, from a free list and one list per slot to everything the
 * queue keeps, and then the package's own `PriorityQueue`, each driven by two loops of
 * `npm run bench`: the in-cache pair (an add and a remove of the same element, 1,000
 * outstanding) and the churn operations (cancel a random outstanding timer by its handle,
 * add one; 100k outstanding, so most visits miss the caches). Churn's drain is left out:
 * the kernels only add and remove.
 *
 * Each kernel is one function, compiled from the source text of the guarantees it has,
 * so that nothing in it is a call: what it costs is what its guarantees cost, with no
 * inlining decision in between. The rows are the pool's (`lib/priority-queue/pool.ts`):
 * 32 bytes, `next`, `prev`, generation word and integer value, then `key` and `at`.
 */
import { PriorityQueue } from '../lib/index.js'
import type { AddRemove, Churn } from './workloads.js'

export const steps = ['links', 'handles', 'levels', 'occupancy', 'valuesInRows', 'leastKey'] as const
export type Step = (typeof steps)[number]

export const stepNames: Readonly<Record<Step, string>> = {
  links: 'a free list and a list per slot (one level, slot = key & 2047)',
  handles: '+ handles with a generation, checked; keys checked',
  levels: '+ the levels: level and slot from m for any level bits',
  occupancy: '+ occupancy bitmaps and counts per level, kept on add and remove',
  valuesInRows: '+ values (integers in the rows) and the length: all the contract asks for',
  leastKey: "+ each slot's least key, so the minimum never walks a slot (the slot found from the key on remove)",
}

const LEVEL_BITS = [11, 10, 10, 10, 10, 1]

/** The loops that drive a kernel: what is timed after the first `outstanding` adds. */
export type Loop = 'pairs' | 'churn'

const timedLoop: Readonly<Record<Loop, string>> = {
  pairs: `for (let id = 0; id < n; id++) add(times[id], id)
    const t0 = process.hrtime.bigint()
    for (let j = 0; j < w.pairs; j++) remove(add(times[n + (j & w.timesMask)], n))
    const ns = Number(process.hrtime.bigint() - t0) / w.pairs`,
  churn: `const handles = new Float64Array(n)
    for (let id = 0; id < n; id++) handles[id] = add(times[id], id)
    const victims = w.victims
    const t0 = process.hrtime.bigint()
    for (let j = 0; j < w.ops; j++) {
      const id = victims[j]
      remove(handles[id])
      handles[id] = add(times[n + j], id)
    }
    const ns = Number(process.hrtime.bigint() - t0) / w.ops`,
}

/** The kernel's source: `(w, setup) => ns per pair or operation`, with the guarantees in `has`. */
const source = (has: ReadonlySet<Step>, loop: Loop): string => {
  const lines: string[] = []
  const when = (step: Step, text: string): void => {
    if (has.has(step)) lines.push(text)
  }
  const place = has.has('levels')
    ? `let level = 0; while (key > lastKey[level]) level++
       const slot = Math.floor(key * slotsPerKey[level]) & slotMask[level]
       const head = firstHead[level] + slot`
    : 'const level = 0; const slot = key & 2047; const head = 1 + slot'
  lines.push(`const { ints, floats, lastKey, slotsPerKey, slotMask, firstHead, firstWord, levelOfHead, occupied, counts, heads } = setup
    let free = -1, used = heads, length = 0
    const times = w.times, n = w.outstanding
    const add = (key, value) => {`)
  when('handles', `if (!(key >= 0 && key <= lastKey[lastKey.length - 1] && Math.floor(key) === key)) throw new Error('key')`)
  lines.push(`let row = free
    if (row !== -1) free = ints[8 * row]; else row = used++
    floats[4 * row + 2] = key; floats[4 * row + 3] = key`)
  when('valuesInRows', `ints[8 * row + 3] = value; ints[8 * row + 2] |= 1073741824; length++`)
  lines.push(place)
  when('occupancy', `if (ints[8 * head] === head) { occupied[firstWord[level] + (slot >>> 5)] |= 1 << (slot & 31); counts[level]++ }`)
  lines.push(`const last = ints[8 * head + 1]
    ints[8 * last] = row; ints[8 * row + 1] = last; ints[8 * row] = head; ints[8 * head + 1] = row`)
  when('leastKey', `if (floats[4 * head + 2] > key) floats[4 * head + 2] = key`)
  lines.push(has.has('handles') ? `return (ints[8 * row + 2] & 67108863) * 134217728 + row }` : 'return row }')
  lines.push('const remove = (handle) => {')
  lines.push(
    has.has('handles')
      ? `const gen = Math.floor(handle * 7.450580596923828e-9), row = handle - gen * 134217728
         if (!(row >= heads && row < used && (ints[8 * row + 2] & 67108863) === gen && ints[8 * row + 1] !== -1)) throw new Error('handle')`
      : 'const row = handle',
  )
  lines.push(`const before = ints[8 * row + 1], after = ints[8 * row]
    ints[8 * before] = after; ints[8 * after + 1] = before; ints[8 * row + 1] = -1`)
  // An emptied list is found from its head, as the queue does; only a least key that may
  // have gone needs the slot computed from the key.
  when('occupancy', `if (before === after) { const level = levelOfHead[before], slot = before - firstHead[level]
    occupied[firstWord[level] + (slot >>> 5)] &= ~(1 << (slot & 31)); counts[level]-- }`)
  if (has.has('leastKey')) {
    lines.push(`if (before === after) floats[4 * before + 2] = Infinity; else { const key = floats[4 * row + 2]`)
    lines.push(place, 'if (floats[4 * head + 2] === key) floats[4 * head + 2] = NaN }')
  }
  when('valuesInRows', 'length--')
  when('handles', `ints[8 * row + 2] = (ints[8 * row + 2] + 1) & 67108863`)
  lines.push(`ints[8 * row] = free; free = row }
    ${timedLoop[loop]}
    // A freed row is taken again before a new one: at most one row beyond the outstanding.
    if (used > heads + n + 1 || (${has.has('valuesInRows')} && length !== n)) throw new Error('lost rows')
    return ns`)
  return lines.join('\n')
}

/** The rows and levels of an empty queue with the default level bits and `m = 0`. */
export const setup = (rows: number) => {
  const count = LEVEL_BITS.length
  const slotsPerKey = new Float64Array(count)
  const slotMask = new Int32Array(count)
  const firstHead = new Int32Array(count)
  const firstWord = new Int32Array(count)
  const lastKey = new Float64Array(count)
  let below = 0
  let heads = 1
  let words = 0
  LEVEL_BITS.forEach((bits, level) => {
    slotsPerKey[level] = 2 ** -below
    slotMask[level] = 2 ** bits - 1
    firstHead[level] = heads
    firstWord[level] = words
    heads += 2 ** bits
    words += Math.ceil(2 ** bits / 32)
    below += bits
    lastKey[level] = 2 ** below - 1
  })
  const buffer = new ArrayBuffer(32 * (heads + rows))
  const ints = new Int32Array(buffer)
  const floats = new Float64Array(buffer)
  for (let head = 0; head < heads; head++) {
    ints[8 * head] = head
    ints[8 * head + 1] = head
    floats[4 * head + 2] = Infinity
  }
  const levelOfHead = new Int8Array(heads).fill(-1)
  LEVEL_BITS.forEach((bits, level) => levelOfHead.fill(level, firstHead[level]!, firstHead[level]! + 2 ** bits))
  const occupied = new Int32Array(words)
  const counts = new Int32Array(count)
  return { ints, floats, lastKey, slotsPerKey, slotMask, firstHead, firstWord, levelOfHead, occupied, counts, heads }
}

type Kernel<W> = (w: W, s: ReturnType<typeof setup>) => number

const compile = <W extends { readonly outstanding: number }>(upTo: Step, loop: Loop): ((w: W) => number) => {
  const has = new Set(steps.slice(0, steps.indexOf(upTo) + 1))
  const run = new Function('w', 'setup', source(has, loop)) as Kernel<W>
  return (w) => run(w, setup(w.outstanding + 1))
}

/** ns per pair on the kernel with the steps up to and including `upTo`. */
export const kernel = (upTo: Step): ((w: AddRemove) => number) => compile(upTo, 'pairs')

/** ns per churn operation (a cancel and an add) on the kernel with the steps up to `upTo`. */
export const churnKernel = (upTo: Step): ((w: Churn) => number) => compile(upTo, 'churn')

/** ns per pair on the package's queue, the same loop. */
export const packageQueue = (w: AddRemove): number => {
  const pq = PriorityQueue.create<number>()
  const { times, timesMask: mask, outstanding: n } = w
  for (let id = 0; id < n; id++) PriorityQueue.add(pq, times[id]!, id)
  const t0 = process.hrtime.bigint()
  for (let j = 0; j < w.pairs; j++) PriorityQueue.remove(pq, PriorityQueue.add(pq, times[n + (j & mask)]!, n))
  const ns = Number(process.hrtime.bigint() - t0) / w.pairs
  if (PriorityQueue.length(pq) !== n) throw new Error('lost elements')
  return ns
}

/** ns per churn operation on the package's queue, the kernels' loop. */
export const packageQueueChurn = (w: Churn): number => {
  const { times, victims, outstanding: n } = w
  const pq = PriorityQueue.create<number>()
  const handles = new Float64Array(n)
  for (let id = 0; id < n; id++) handles[id] = PriorityQueue.add(pq, times[id]!, id)
  const t0 = process.hrtime.bigint()
  for (let j = 0; j < w.ops; j++) {
    const id = victims[j]!
    PriorityQueue.remove(pq, handles[id]! as PriorityQueue.Elt<number>)
    handles[id] = PriorityQueue.add(pq, times[n + j]!, id)
  }
  const ns = Number(process.hrtime.bigint() - t0) / w.ops
  if (PriorityQueue.length(pq) !== n) throw new Error('lost elements')
  return ns
}
