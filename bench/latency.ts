/**
 * `npm run bench:latency`: what one cache miss costs on this machine, the number that
 * bounds every structure in `npm run bench` once its timers outgrow the caches.
 *
 * It visits 2^20 rows of a 32-byte-a-row table (the wheel's pool layout) in a random
 * order twice: once following a chain, each row naming the next (as a wheel walks a slot's
 * list, or a heap walks down a path), and once from a list of rows read in sequence, where
 * the visits do not depend on each other and the processor overlaps their misses.
 */
const ROWS = 2 ** 20
const INTS_PER_ROW = 8

/** A random cyclic order of the rows, from a fixed seed. */
const shuffledRows = (): Int32Array => {
  const order = new Int32Array(ROWS).map((_, i) => i)
  let seed = 0x2545f491
  for (let i = ROWS - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    const j = seed % (i + 1)
    const t = order[i]!
    order[i] = order[j]!
    order[j] = t
  }
  return order
}

const order = shuffledRows()
const table = new Int32Array(ROWS * INTS_PER_ROW)
for (let i = 0; i < ROWS; i++) table[order[i]! * INTS_PER_ROW] = order[(i + 1) % ROWS]!

const nanos = (): number => Number(process.hrtime.bigint())

const chained = (): number => {
  let row = order[0]!
  const t0 = nanos()
  for (let i = 0; i < ROWS; i++) row = table[row * INTS_PER_ROW]!
  const ns = (nanos() - t0) / ROWS
  if (row !== order[0]) throw new Error('the chain is broken')
  return ns
}

const independent = (): number => {
  let sum = 0
  const t0 = nanos()
  for (let i = 0; i < ROWS; i++) sum += table[order[i]! * INTS_PER_ROW]!
  const ns = (nanos() - t0) / ROWS
  if (sum < 0) throw new Error('overflow')
  return ns
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const runs = { chained: [] as number[], independent: [] as number[] }
for (let r = 0; r < 7; r++) {
  runs.chained.push(chained())
  runs.independent.push(independent())
}
console.log(`random row visits over ${(ROWS * INTS_PER_ROW * 4) / 2 ** 20} MiB, median of 7:`)
console.log(`  dependent (a chain of links):  ${median(runs.chained).toFixed(1)} ns per row`)
console.log(`  independent (rows from a list): ${median(runs.independent).toFixed(1)} ns per row`)
