/**
 * The ceiling of `bench:network`: a network kernel written for speed from scratch, bench
 * only (no package entry), with the guarantees the simulation's send and delivery keep:
 * links FIFO, each message delivered in its arrival ms in the order sent, and on arrival
 * the checks a crash, a partition, a hold, a pause and a missing handler need. It has no
 * clock: no host timers, no microtasks between arrivals, no log, no loss, duplication or
 * reordering draws (links here have none), so it shows what the simulation's own
 * structures could cost at best, not a drop-in for it.
 *
 * Representation.
 *
 * - Messages are slots of parallel typed arrays (`from`, `to`, both ends' incarnations,
 *   `sentAt`) plus one array of payloads; a freed slot goes on a free list, so a message in
 *   flight allocates nothing once the arrays have grown.
 * - `buckets` is a ring of `RING` lists of slots, one a ms, indexed by arrival ms modulo
 *   `RING`: a link's latency is below `RING`, so a list holds one ms's arrivals, in the
 *   order sent. A link's `fifoAt` (the arrival ms of its last message) clamps the next
 *   one's, so no message overtakes an earlier one on its link.
 * - Hosts are numbered; `send` takes the sender's handle and the receiver's name, as the
 *   simulation's does (one map lookup), and a link is the row-major cell `from * n + to`.
 *
 * Invariants: every slot in a bucket is in flight and due at that bucket's ms; `fifoAt[l]`
 * is at least the arrival ms of every message in flight on link `l`.
 */

/** The ring's size, ms: above any latency (the bench's are at most 1000 ms). */
const RING = 1024

/** A host's handle, given to its code, as the simulation's `Host` is. */
export interface KernelHost {
  readonly index: number
  readonly name: string
}

/** A kernel network of `hosts` hosts named by `names`, with a fixed latency a directed link. */
export interface Kernel<M> {
  readonly now: () => number
  readonly send: (host: KernelHost, to: string, message: M) => void
  readonly onMessage: (host: KernelHost, receive: (from: string, message: M) => void) => void
  readonly tick: (ms: number) => void
  readonly inFlight: () => number
  readonly hosts: readonly KernelHost[]
}

/**
 * A kernel network: `latency[from * n + to]` ms on each directed link (1 to `RING - 1`).
 *
 * @example
 * const k = createKernel<number>(['a', 'b'], Uint16Array.of(1, 5, 5, 1))
 * k.onMessage(k.hosts[1]!, (from, m) => console.log(from, m))
 * k.send(k.hosts[0]!, 'b', 42)
 * k.tick(5) // logs a 42
 */
export const createKernel = <M>(names: readonly string[], latency: Uint16Array): Kernel<M> => {
  const n = names.length
  const hosts = names.map((name, index) => ({ index, name }))
  const byName = new Map(hosts.map((h) => [h.name, h.index]))
  const incarnation = new Uint32Array(n)
  const up = new Uint8Array(n).fill(1)
  const paused = new Uint8Array(n)
  const receivers: Array<((from: string, message: M) => void) | undefined> = new Array(n).fill(undefined)
  const partitioned = new Uint8Array(n * n)
  const held = new Uint8Array(n * n)
  const fifoAt = new Float64Array(n * n)
  let capacity = 1024
  let from = new Uint16Array(capacity)
  let to = new Uint16Array(capacity)
  let fromInc = new Uint32Array(capacity)
  let toInc = new Uint32Array(capacity)
  let sentAt = new Float64Array(capacity)
  const payload: Array<M | undefined> = []
  const free: number[] = []
  let used = 0
  let wire = 0
  const buckets: number[][] = Array.from({ length: RING }, () => [])
  const bucketLength = new Uint32Array(RING)
  const heldQueue: number[][] = Array.from({ length: n * n }, () => [])
  const stalled: number[][] = Array.from({ length: n }, () => [])
  let now = 0

  const grow = (): void => {
    capacity *= 2
    const widen = <A extends Uint16Array | Uint32Array | Float64Array>(a: A, make: (c: number) => A): A => {
      const b = make(capacity)
      b.set(a)
      return b
    }
    from = widen(from, (c) => new Uint16Array(c))
    to = widen(to, (c) => new Uint16Array(c))
    fromInc = widen(fromInc, (c) => new Uint32Array(c))
    toInc = widen(toInc, (c) => new Uint32Array(c))
    sentAt = widen(sentAt, (c) => new Float64Array(c))
  }

  const send = (host: KernelHost, toName: string, message: M): void => {
    const a = host.index
    const b = byName.get(toName)
    if (b === undefined) throw new RangeError(`${toName} is not a host`)
    const l = a * n + b
    if (partitioned[l] === 1) return
    let slot = free.pop()
    if (slot === undefined) {
      if (used === capacity) grow()
      slot = used++
    }
    from[slot] = a
    to[slot] = b
    fromInc[slot] = incarnation[a]!
    toInc[slot] = incarnation[b]!
    sentAt[slot] = now
    payload[slot] = message
    const at = Math.max(now + latency[l]!, fifoAt[l]!)
    fifoAt[l] = at
    const r = at % RING
    buckets[r]![bucketLength[r]!++] = slot
    wire++
  }

  const release = (slot: number): M => {
    const message = payload[slot] as M
    payload[slot] = undefined
    free.push(slot)
    wire--
    return message
  }

  /** The checks on arrival, then the handler: a held link or a paused host keeps the message (nothing here releases it). */
  const arrive = (slot: number): void => {
    const a = from[slot]!
    const b = to[slot]!
    const l = a * n + b
    if (partitioned[l] === 1 || fromInc[slot] !== incarnation[a] || toInc[slot] !== incarnation[b] || up[b] === 0) {
      release(slot)
      return
    }
    if (held[l] === 1) return void heldQueue[l]!.push(slot)
    if (paused[b] === 1) return void stalled[b]!.push(slot)
    const message = release(slot)
    receivers[b]?.(names[a]!, message)
  }

  const tick = (ms: number): void => {
    const end = now + ms
    while (now < end) {
      now++
      const r = now % RING
      const bucket = buckets[r]!
      // Handlers send at least 1 ms ahead, never into this bucket; its array is kept.
      for (let i = 0; i < bucketLength[r]!; i++) arrive(bucket[i]!)
      bucketLength[r] = 0
    }
  }

  return {
    now: () => now,
    send,
    onMessage: (host, receive) => {
      receivers[host.index] = receive
    },
    tick,
    inFlight: () => wire,
    hosts,
  }
}
