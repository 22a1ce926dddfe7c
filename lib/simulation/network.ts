/**
 * The network: directed links between hosts, messages on the wire, and the link faults
 * (partition, heal, hold, release, link options).
 *
 * Representation.
 *
 * - A message in flight has a token on the wire at its arrival time. Its arrival is a
 *   macrotask of its own, as a socket's is: microtasks and `await`s run between two, and it
 *   is ordered with the hosts' timers by time, then by when it was set. On the package's
 *   own clock the tokens are entries of `arrivals` (arrivals.ts: one clock timer a ms,
 *   re-armed in each token's place); on any other clock each is a clock timer.
 *   A batch of arrivals in one timer would be cheaper, but would run handlers back to back
 *   with no microtask between them, an order Node never produces.
 * - An in-order message waits in its link's `queue`, and its token is the link: a link's
 *   token delivers the link's oldest message, whichever token it is. So a link stays FIFO
 *   even when a token comes late: fake-timers runs a 0 ms timer set during a tick 1 ms
 *   later, which is what a 0 ms send, a `release` or a `resume` from a timer sets; a
 *   message never arrives before its time, as tokens and messages share one order. A
 *   message drawn to be reordered is its own token. A released or resumed message goes
 *   back at the head of its link's queue (counted by `front`), with a token for now.
 * - An in-order message sent while nothing waits in its link's queue, with a token due
 *   exactly at its arrival (a delay of 1 ms or more) on the arrivals or batch chains (which
 *   fire tokens due together in the order put there), is its own token and skips the
 *   queue (the common case; the queue costs a quarter of a message's time at 10k in flight):
 *   the tokens of the messages sent before it fire first. When it fires and an older
 *   message waits on the link (put back, or a message whose token an earlier such
 *   firing took), the older one arrives in its place and it waits in the queue in send
 *   order (by `seq`: sends in order, a duplicate after its original). So every token still delivers
 *   the link's oldest message.
 * - With `batch`, the tokens on the wire are chained by arrival ms through their records'
 *   `next`, in the order put: a send writes its own record and the last one of its ms's
 *   chain, where a list of tokens a ms was an object and an array to write, both cold at
 *   10k in flight (chained the other way, last put first, a send wrote nothing cold, but
 *   the flush's turning a chain around was a pass of dependent loads: 0.92x at 1M). A
 *   link's token is a spare record standing for it (negative `seq`), as a link may be the
 *   token of several ms. The chain of a ms less than 1024 ms after `base` (the last
 *   flush's ms) is at its ms modulo 1024 in `nearKey` (the ms), `nearHead` and `nearTail`,
 *   a later one in `far` until the window reaches it. So a flush finds what is due by
 *   walking the window from `base` to now, and the next chain by walking on (at 10k
 *   messages in flight a ms holds 10 to 20: a timing wheel with an alarm a ms made batch
 *   mode about 1.2x slower). One clock timer, armed at the earliest (on the package's own
 *   clock one timer re-armed in place), delivers every message due, those sent with no
 *   latency meanwhile included (a chain taken, a token for the same ms starts another).
 *   Fired by a sync tick, it goes on to the next chain's ms itself (`stepTo`) when the
 *   tick's loop would fire it next with nothing in between.
 * - A message remembers its link's `epoch` when sent and is dropped on arrival if it
 *   changed: a crash of either end moves on the epochs of the host's links both ways (a
 *   crash loses what a host had in flight, both ways), a step a link and nothing a message.
 * - `links[from][to]` is a directed link, made from the defaults on first use: its
 *   latency, loss, duplication and reordering, whether it is partitioned or held, the
 *   messages held, and the time its last in-order message arrives (links are FIFO:
 *   a message never arrives before one sent earlier on the link, unless it was drawn to be
 *   reordered, which delays it by one more latency draw and lets later messages pass).
 * - On the hot path (`send`, arrival), a message is one record and an entry in its link's
 *   queue and its ms's arrivals (on another clock, a clock timer whose one argument is its
 *   token, the callback bound to the simulation once: no array), and a context is
 *   recognised by its class. A copy's record is settled once, when it is delivered or
 *   dropped (`settle`); then nothing references it and `spare` keeps it for a later send.
 *
 * Invariants: `wire` counts the tokens not yet fired (arrivals, clock timers, or with
 * `batch` its chains'), one for each message in a link's `queue` (from `head`),
 * each in-order message that is its own token and each reordered message in flight; after
 * its `front`, a queue is in send order; a link's queue is in the order its messages reach the far
 * end; a held link's messages are in its `heldQueue`, in arrival order; a record in
 * `spare` is on no chain, queue or wire. With `batch`: `chains` counts the chains in the
 * window and `far`, every one due at `base` or later; those due less than 1024 ms after
 * `base` are in the window, at their ms modulo 1024, the others in `far`; a chain's
 * records are in no other chain.
 */
import * as Random from './random.js'
import * as Coerce from '../sim/coercion.js'
import * as VirtualClock from '../sim/virtual-clock.js'
import { oneArg } from '../sim/timer.js'
import * as Schedule from '../sim/schedule.js'
import { type Bucket, fakeTimersOf, nearMask, nowOn, put } from './arrivals.js'
import { linkParams, options, refuseAsync } from './checks.js'
import { show } from '../errors.js'
import { type DropReason, fault, linkFault, record } from './log.js'
import {
  type Batch,
  type Direction,
  type Host,
  type HostState,
  type Link,
  type LinkOptions,
  type LinkParams,
  type Message,
  type Simulation,
  type SimulationClock,
  type Token,
  contextOf,
  direct,
  hostOf,
  live,
} from './state.js'

/** @internal */
export const linkOf = <M>(sim: Simulation<M>, from: HostState<M>, to: HostState<M>): Link<M> => from.links[to.index] ?? newLink(sim, from, to)

/**
 * A link from the defaults. Every field spelled out, not spread from `defaults`: V8 then
 * keeps them all in the object itself, where a spread leaves most in a second store that
 * each send would reach through one more pointer.
 */
const newLink = <M>(sim: Simulation<M>, from: HostState<M>, to: HostState<M>): Link<M> => {
  const d = sim.defaults
  // The fields a send and an arrival read first.
  const link: Link<M> = {
    from,
    to,
    partitioned: false,
    held: false,
    epoch: 0,
    head: 0,
    queue: [],
    loss: d.loss,
    reorder: d.reorder,
    min: d.min,
    max: d.max,
    fifoAt: -Infinity,
    duplicate: d.duplicate,
    front: 0,
    heldQueue: [],
  }
  from.links[to.index] = link
  return link
}

const I = VirtualClock.internals

const isLink = <M>(token: Token<M>): token is Link<M> => (token as Link<M>).queue !== undefined

/**
 * Puts a token on the wire for `at`: a clock timer of its own (or with `batch` a record in its ms's chain).
 * Each arrival is then a macrotask, as a socket's is (microtasks and `await`s run between
 * two), ordered with the hosts' timers by time and then by when it was set.
 */
const token = <M>(sim: Simulation<M>, t: Token<M>, at: number, now: number): void => {
  const batch = sim.batch
  if (batch === undefined) {
    const arrivals = sim.arrivals
    if (arrivals !== undefined) {
      if (resetSince(arrivals)) afterReset(sim)
      sim.wire++
      put(arrivals, t, at - now)
    } else {
      sim.wire++
      sim.clock.setTimeout(sim.land, at - now, t)
    }
    return
  }
  if (resetSince(batch)) afterReset(sim)
  sim.wire++
  // Nothing pending: the window of `near` moves up to now (its slots are all empty).
  if (batch.chains === 0 && now > batch.base) batch.base = now
  const base = batch.base
  const key = Math.max(at, base)
  // A link's token is a record of its own, which stands for it in the chain (it may be
  // in several); a message is its own token.
  const e = isLink(t) ? copy(sim, -1, t, undefined as M, now) : t
  const slot = key & nearMask
  const nearKey = batch.nearKey
  e.next = undefined
  if (nearKey[slot] === key) {
    // Last in its ms's chain: one record written besides its own, no list.
    batch.nearTail[slot]!.next = e
    batch.nearTail[slot] = e
  } else if (key - base <= nearMask) {
    // Its slot is free: the ms of the window are distinct modulo its size.
    nearKey[slot] = key
    batch.nearHead[slot] = e
    batch.nearTail[slot] = e
    batch.chains++
  } else {
    const chain = batch.far.get(key)
    if (chain === undefined) {
      batch.far.set(key, { head: e, tail: e })
      batch.chains++
    } else {
      chain.tail.next = e
      chain.tail = e
    }
  }
  if (!batch.flushing && at < batch.armedAt) arm(sim, batch, at)
}

/**
 * @internal Puts messages that already reached the link back on it, ahead of those on the
 * wire; `redeliver` then gives each a token for now (the link's tokens take the oldest first).
 */
export const prepend = <M>(link: Link<M>, ms: ReadonlyArray<Message<M>>): void => {
  if (ms.length === 0) return
  link.queue = [...ms, ...link.queue.slice(link.head)]
  link.head = 0
  link.front += ms.length
}

/** @internal A token for now for one message put back on `link` by `prepend`. */
export const redeliver = <M>(sim: Simulation<M>, link: Link<M>): void => {
  const now = sim.clock.now
  token(sim, link, now, now)
}

/**
 * Batched: the one clock timer, at the earliest arrival. On the package's own clock it is
 * one timer for the simulation's life, re-armed in place as a `setTimeout` would arm a new
 * one (same due time and order): a flush a ms then makes no timer.
 */
const arm = <M>(sim: Simulation<M>, batch: Batch<M>, at: number): void => {
  batch.armedAt = at
  const core = batch.core
  if (core !== undefined) {
    const delay = Coerce.coerceDelay(at - I.nowOf(core))
    if (batch.timer === undefined) batch.timer = I.addTimer(core, 'Timeout', batch.flush, oneArg, undefined, delay, undefined)
    else I.rearmAfter(core, batch.timer, delay)
    return
  }
  if (batch.armed !== undefined) sim.clock.clearTimeout(batch.armed)
  batch.armed = sim.clock.setTimeout(batch.flush, at - sim.clock.now)
}

/**
 * @internal The batched wire of a simulation on `clock`: its window starts at the clock's
 * now; its callbacks, made once, close over `sim`, which `build` makes with it.
 */
export const batchOf = <M>(sim: () => Simulation<M>, clock: SimulationClock): Batch<M> => {
  const own = fakeTimersOf(clock)
  const batch: Batch<M> = {
    base: clock.now,
    chains: 0,
    core: own?.core,
    timer: undefined,
    home: own?.core.home,
    queues: own,
    nearKey: new Float64Array(nearMask + 1).fill(Number.NaN),
    nearHead: new Array<Message<M> | undefined>(nearMask + 1).fill(undefined),
    nearTail: new Array<Message<M> | undefined>(nearMask + 1).fill(undefined),
    far: new Map(),
    armed: undefined,
    armedAt: Infinity,
    flushing: false,
    due: [],
    dueSize: 0,
    flush: () => flush(sim(), batch),
  }
  return batch
}

/**
 * Batched: moves the chains due by `now` to `due`, in the order of their ms; the window
 * moves up to `now`, and the chains of `far` it now covers into it. Linear in the ms
 * since the last flush, or after a gap longer than the window, in the chains pending.
 */
const takeDue = <M>(batch: Batch<M>, now: number): void => {
  const base = batch.base
  if (batch.chains === 0 || now < base) {
    if (now > base) batch.base = now
    return
  }
  const nearKey = batch.nearKey
  const nearHead = batch.nearHead
  const nearTail = batch.nearTail
  const far = batch.far
  if (now - base <= nearMask) {
    for (let ms = base; ms <= now; ms++) {
      const slot = ms & nearMask
      if (nearKey[slot] === ms) {
        batch.due[batch.dueSize++] = nearHead[slot]
        nearHead[slot] = undefined
        nearTail[slot] = undefined
        nearKey[slot] = Number.NaN
      }
      // The slot's next ms, `nearMask + 1` later, is in the window from `now` when `ms` is before it.
      if (far.size !== 0 && ms < now) {
        const later = far.get(ms + nearMask + 1)
        if (later !== undefined) {
          far.delete(ms + nearMask + 1)
          nearKey[slot] = ms + nearMask + 1
          nearHead[slot] = later.head
          nearTail[slot] = later.tail
        }
      }
    }
  } else {
    const due: Array<{ readonly ms: number; readonly head: Message<M> | undefined }> = []
    for (let slot = 0; slot <= nearMask; slot++) {
      const ms = nearKey[slot]!
      if (!(ms <= now)) continue
      due.push({ ms, head: nearHead[slot] })
      nearHead[slot] = undefined
      nearTail[slot] = undefined
      nearKey[slot] = Number.NaN
    }
    for (const [ms, chain] of far) {
      if (ms > now) continue
      far.delete(ms)
      due.push({ ms, head: chain.head })
    }
    due.sort((a, b) => a.ms - b.ms)
    for (const d of due) batch.due[batch.dueSize++] = d.head
    for (const [ms, chain] of far) {
      if (ms - now > nearMask) continue
      far.delete(ms)
      nearKey[ms & nearMask] = ms
      nearHead[ms & nearMask] = chain.head
      nearTail[ms & nearMask] = chain.tail
    }
  }
  batch.chains -= batch.dueSize
  batch.base = now
}

/**
 * Batched: the ms of the earliest chain pending (there is one): the first in the window
 * (`nearKey`), else the least of `far` (all later). Linear in the ms to it, or in `far`.
 */
const nextDue = <M>(batch: Batch<M>): number => {
  const nearKey = batch.nearKey
  const end = batch.base + nearMask
  for (let ms = batch.base; ms <= end; ms++) if (nearKey[ms & nearMask] === ms) return ms
  let next = Infinity
  for (const ms of batch.far.keys()) if (ms < next) next = ms
  return next
}

/**
 * Batched: delivers everything due, in order, including what the handlers send with no
 * latency; then re-arms. A handler that throws does not stop the batch: the first error
 * (the first truthy one, as a clock keeps it) is rethrown at its end, as a clock rethrows
 * after running the other due timers.
 */
const flush = <M>(sim: Simulation<M>, batch: Batch<M>): void => {
  batch.armed = undefined
  batch.armedAt = Infinity
  batch.flushing = true
  let now = sim.clock.now
  const core = batch.core
  // Fired by a sync tick's loop: see `stepTo`.
  const fired = core !== undefined && batch.timer !== undefined && core.tickFiring === batch.timer ? core.fired : -1
  // The chains are taken (into `due`) in the order of their ms. A token for now put
  // meanwhile starts a chain of its own, taken next round: the chains taken no longer grow.
  const due = batch.due
  let failed = false
  let error: unknown
  for (;;) {
    takeDue(batch, now)
    if (batch.dueSize === 0) {
      if (fired < 0 || failed || batch.chains === 0 || !stepTo(batch, core!, fired, now)) break
      now = I.nowOf(core!)
      continue
    }
    for (let i = 0; i < batch.dueSize; i++) {
      let e = due[i]
      due[i] = undefined
      while (e !== undefined) {
        // Read before it lands: delivered, a record may be reused by a send at once.
        const next = e.next
        e.next = undefined
        try {
          if (e.seq >= 0) land(sim, e)
          else {
            const link = e.link
            unwrap(sim, e)
            land(sim, link)
          }
        } catch (err) {
          if (!error) error = err
          failed = true
        }
        e = next
      }
    }
    batch.dueSize = 0
  }
  batch.flushing = false
  if (batch.chains !== 0) arm(sim, batch, nextDue(batch))
  if (failed) throw error
}

/**
 * Batched, from a flush a sync tick fired at `now`: steps the clock to the next chain's
 * ms, where the re-armed flush would fire next, when the tick's loop would run nothing
 * before it. That is: no move ran inside the flush (the clock fired nothing and stands
 * where the flush found it), no job is queued, the tick reaches that ms, and no other
 * timer is due by then (one due then was armed before the flush's re-arming, so it would
 * fire first; an idle callback is such a timer, and fake-timers' rule that one alone
 * fires whatever its time never applies while the flush is pending). At 10k messages in
 * flight, every ms has a chain: the clock's firing a ms was a tenth of batch mode's time.
 * True when it stepped.
 */
const stepTo = <M>(batch: Batch<M>, core: VirtualClock.State, fired: number, now: number): boolean => {
  const q = batch.queues!
  if (core.fired !== fired || I.nowOf(core) !== now || q.jobs.length !== 0) return false
  const to = core.elapsed + (nextDue(batch) - now)
  if (to > core.tickTo) return false
  const s = core.schedule
  if (!Schedule.idleUpTo(s, to) && (Schedule.peek(s)?.due ?? Infinity) <= to) return false
  I.stepTick(core, batch.timer!, to)
  return true
}

/** Whether the package's own clock under a wire was reset since the wire last found it: see {@link afterReset}. */
const resetSince = (wire: { readonly core: VirtualClock.State | undefined; readonly home: unknown } | undefined): boolean =>
  wire?.core !== undefined && wire.home !== wire.core.home

/**
 * On the package's own clock, found at the first token (or `inFlight`) after a clock
 * reset (fake-timers' `reset`), which dropped every clock timer: the tokens on the wire
 * went with them, as each token's own timer would have. So every message on the wire (its
 * own token, or waiting in its link's queue) is dropped, logged in send order with reason
 * `reset`; each link's arrival floor (`fifoAt`) goes, as time starts again. Messages held
 * by a link or a paused host are not on the wire and stay. On any other clock the tokens
 * are its timers, and go with them unlogged.
 */
const afterReset = <M>(sim: Simulation<M>): void => {
  const dropped: Array<Message<M>> = []
  const a = sim.arrivals
  if (a !== undefined) {
    const take = (b: Bucket<M> | undefined): void => {
      if (b === undefined) return
      for (let i = b.head; i < b.size; i++) if (!isLink(b.tokens[i]!)) dropped.push(b.tokens[i] as Message<M>)
    }
    // Every bucket is from before the reset (this is the first token since): a pump of its own, dropped.
    a.near.forEach((b, slot) => {
      take(b)
      a.near[slot] = undefined
    })
    for (const b of a.buckets.values()) take(b)
    a.buckets.clear()
    a.home = a.core.home
  }
  const batch = sim.batch
  if (batch !== undefined && batch.core !== undefined) {
    const take = (first: Message<M> | undefined): void => {
      for (let e = first; e !== undefined; ) {
        const next: Message<M> | undefined = e.next
        e.next = undefined
        if (e.seq >= 0) dropped.push(e)
        else unwrap(sim, e)
        e = next
      }
    }
    for (let slot = 0; slot <= nearMask; slot++) {
      if (!Number.isNaN(batch.nearKey[slot])) take(batch.nearHead[slot])
      batch.nearKey[slot] = Number.NaN
      batch.nearHead[slot] = batch.nearTail[slot] = undefined
    }
    for (const chain of batch.far.values()) take(chain.head)
    batch.far.clear()
    batch.chains = 0
    batch.armedAt = Infinity
    batch.base = I.nowOf(batch.core)
    batch.home = batch.core.home
  }
  for (const h of sim.order) {
    for (const link of h.links) {
      if (link === undefined) continue
      for (let i = link.head; i < link.queue.length; i++) dropped.push(link.queue[i]!)
      link.queue = []
      link.head = 0
      link.front = 0
      link.fifoAt = -Infinity
    }
  }
  sim.wire = 0
  dropped.sort((x, y) => x.seq - y.seq)
  for (const m of dropped) settle(sim, m, 'dropped', 'reset')
}

/** Batched: the record that stood for a link's token is free for a later send. */
const unwrap = <M>(sim: Simulation<M>, e: Message<M>): void => {
  if (sim.spare.length < spareRecords) sim.spare.push(e)
}

/**
 * @internal A token comes due (the simulation's `land` calls it, bound once): a link's
 * token delivers the link's oldest in-order message, whichever
 * token it is. Tokens of one link come due in the order of their messages' arrival times,
 * but one set for now from a timer fires 1 ms later (fake-timers' rule against loops); so
 * taking the oldest message keeps the link FIFO, and no message arrives before its time.
 */
export const land = <M>(sim: Simulation<M>, t: Token<M>): void => {
  sim.wire--
  if (isLink(t)) return arrive(sim, takeOldest(t), t)
  const link = t.link
  if (t.inOrder && link.head !== link.queue.length) {
    const h = link.queue[link.head]!
    if (link.front > 0 || before(h, t)) {
      // An older message waits on the link: it arrives in this token's place, and this
      // one waits its turn (a later token of the link takes it).
      const m = takeOldest(link)
      waitInOrder(link, t)
      return arrive(sim, m, link)
    }
  }
  arrive(sim, t, link)
}

/** Whether in-order message `a` was sent before `b`. */
const before = <M>(a: Message<M>, b: Message<M>): boolean => a.seq < b.seq

/** Takes the oldest message waiting on the link. */
const takeOldest = <M>(link: Link<M>): Message<M> => {
  const m = link.queue[link.head]!
  link.queue[link.head++] = undefined
  if (link.front > 0) link.front--
  if (link.head === link.queue.length) {
    link.queue.length = 0
    link.head = 0
  } else if (link.head >= 1024 && 2 * link.head >= link.queue.length) {
    link.queue = link.queue.slice(link.head)
    link.head = 0
  }
  return m
}

/** Puts an in-order message whose token was taken by an older one in the queue: after those put back and those sent before it. */
const waitInOrder = <M>(link: Link<M>, m: Message<M>): void => {
  const q = link.queue
  let i = link.head + link.front
  while (i < q.length && before(q[i]!, m)) i++
  if (i === q.length) q.push(m)
  else q.splice(i, 0, m)
}

/** A message reaches the far end of its link: the checks a real network would make on arrival. */
const arrive = <M>(sim: Simulation<M>, m: Message<M>, link: Link<M>): void => {
  if (link.partitioned) return settle(sim, m, 'dropped', 'partition')
  if (m.epoch !== link.epoch || !link.to.up) {
    return settle(sim, m, 'dropped', 'crash')
  }
  if (link.held) {
    link.heldQueue.push(m)
    return
  }
  const h = link.to
  if (h.paused) {
    h.stalled.push(m)
    return
  }
  const receive = h.receive
  if (receive === undefined) return settle(sim, m, 'dropped', 'no handler')
  const from = link.from.name
  const message = m.message
  settle(sim, m, 'delivered')
  let result: unknown
  if (sim.onError === 'fail') {
    result = sim.enter === direct ? receive(from, message) : sim.enter(h.context as Host<unknown>, () => receive(from, message))
  } else {
    try {
      result = sim.enter(h.context as Host<unknown>, () => receive(from, message))
    } catch (e) {
      return sim.hostError(h, e)
    }
  }
  if (sim.syncRun && result !== undefined) refuseAsync(`${show(h.name)}'s message handler`, result)
}

const latency = (sim: Simulation<unknown>, link: LinkParams): number =>
  link.min === link.max ? link.min : Random.int(sim.random, link.min, link.max)

const transmit = <M>(sim: Simulation<M>, link: Link<M>, m: Message<M>, now: number): void => {
  if (link.loss > 0 && Random.chance(sim.random, link.loss)) return settle(sim, m, 'dropped', 'loss')
  let at = now + latency(sim as Simulation<unknown>, link)
  if (link.reorder > 0 && Random.chance(sim.random, link.reorder)) return token(sim, m, at + latency(sim as Simulation<unknown>, link), now)
  at = link.fifoAt = Math.max(at, link.fifoAt)
  m.inOrder = true
  // With nothing waiting on the link and a token due exactly at `at` (a delay from 1 ms to
  // the greatest a clock keeps as given, `maxTimeout`) on a wire that fires tokens due
  // together in the order put there (arrivals or batch chains; another clock, clockArb's,
  // may not), every earlier message's token fires first: the message is its own token,
  // and skips the queue.
  if (link.head === link.queue.length && at > now && at - now <= Coerce.maxTimeout && (sim.arrivals !== undefined || sim.batch !== undefined)) {
    return token(sim, m, at, now)
  }
  link.queue.push(m)
  token(sim, link, at, now)
}

/**
 * Sends `message` from the host to host `to` over their link: lost, delayed, duplicated or
 * reordered as the link says, dropped if the link is partitioned now or on arrival, or if
 * either end crashes before it arrives. A crashed host's context sends nothing.
 * Throws `InvalidArgument` for an unknown host. Constant time.
 *
 * @example
 * addHost(sim, 'client', (host) => send(host, 'server', 'ping'))
 */
export const send = <M>(host: Host<M>, to: string, message: M): void => {
  const ctx = contextOf<M>(host)
  const { sim, state: from } = ctx
  const target = hostOf(sim, to)
  // The clock's \`now\` is a getter: read once a send, from the clock's state when the arrivals hold it.
  const arrivals = sim.arrivals
  const now = arrivals !== undefined ? nowOn(arrivals) : sim.clock.now
  const id = ++sim.sent
  const link = linkOf(sim, from, target)
  const m = copy(sim, 2 * id, link, message, now)
  if (!live(ctx)) return settle(sim, m, 'dropped', 'stale')
  if (link.partitioned) return settle(sim, m, 'dropped', 'partition')
  transmit(sim, link, m, now)
  // From the send's own values: `m` may be settled and reused by now.
  if (link.duplicate > 0 && Random.chance(sim.random, link.duplicate)) transmit(sim, link, copy(sim, 2 * id + 1, link, message, now), now)
}

/**
 * A copy of a message on the network, in a record settled earlier if one is spare.
 * Reusing records is for V8: a send then allocates nothing, the records stay few and warm
 * in the cache instead of a stream of young objects that the scavenger copies while they
 * are in flight.
 */
const copy = <M>(sim: Simulation<M>, seq: number, link: Link<M>, message: M, now: number): Message<M> => {
  const m = sim.spare.pop()
  if (m === undefined) {
    // Fields in the order arrival reads them, so that they share the record's first cache line.
    return { link, inOrder: false, epoch: link.epoch, message, seq, sentAt: now, next: undefined }
  }
  m.link = link
  m.seq = seq
  m.epoch = link.epoch
  m.message = message
  m.sentAt = now
  m.inOrder = false
  return m
}

/** How many settled records are kept for reuse: a send after a delivery takes the one just freed, so a few suffice. */
const spareRecords = 1024

/**
 * @internal A copy is delivered or dropped: logged, and its record, referenced nowhere
 * else from now on, kept for a later send (its payload let go).
 */
export const settle = <M>(sim: Simulation<M>, m: Message<M>, outcome: 'delivered' | 'dropped', reason?: DropReason): void => {
  record(sim, m, outcome, reason)
  if (sim.spare.length < spareRecords) {
    m.message = undefined as M
    sim.spare.push(m)
  }
}

/**
 * Messages sent and not yet delivered or dropped: in flight, due, held or stalled.
 *
 * @example
 * send(host(sim, 'client'), 'server', 'ping')
 * inFlight(sim) // 1
 * run(sim, 100)
 * inFlight(sim) // 0
 */
export const inFlight = <M>(sim: Simulation<M>): number => {
  const s = sim as Simulation<unknown>
  if (resetSince(s.arrivals ?? s.batch)) afterReset(s)
  let n = s.wire
  for (const h of s.order) {
    for (const link of h.links) n += link?.heldQueue.length ?? 0
    for (const entry of h.stalled) if (typeof entry !== 'function') n++
  }
  return n
}

/** @internal */
export const links = <M>(sim: Simulation<M>, a: string, b: string, direction: unknown): Array<Link<M>> => {
  const from = hostOf(sim, a)
  const to = hostOf(sim, b)
  const oneWay = options<Direction>('direction', direction).oneWay === true
  return oneWay || from === to ? [linkOf(sim, from, to)] : [linkOf(sim, from, to), linkOf(sim, to, from)]
}

/**
 * Sets the latency, loss, duplication and reordering of the link from `a` to `b` and back (or one way); other fields stay.
 *
 * @example
 * link(sim, 'a', 'b', { latency: { min: 50, max: 200 }, loss: 0.1 })
 * link(sim, 'a', 'b', { reorder: 0.5 }, { oneWay: true }) // a to b only; its latency and loss stay
 */
export const link = <M>(sim: Simulation<M>, a: string, b: string, linkOptions: LinkOptions, direction?: Direction): void => {
  const ls = links(sim, a, b, direction)
  const params = ls.map((l) => linkParams(linkOptions, l))
  ls.forEach((l, i) => Object.assign(l, params[i]))
  linkFault(sim, 'link', a, b, direction)
}

/**
 * Cuts the link between `a` and `b` (or from `a` to `b` only): messages sent or arriving while cut are dropped.
 *
 * @example
 * partition(sim, 'a', 'b') // both ways
 * partition(sim, 'c', 'a', { oneWay: true }) // c's messages to a are dropped, a's to c arrive
 */
export const partition = <M>(sim: Simulation<M>, a: string, b: string, direction?: Direction): void => {
  for (const l of links(sim, a, b, direction)) l.partitioned = true
  linkFault(sim, 'partition', a, b, direction)
}

/**
 * Heals the cut between `a` and `b` (or one way); without hosts, every cut.
 *
 * @example
 * heal(sim, 'a', 'b')
 * heal(sim) // every cut
 */
export const heal = <M>(sim: Simulation<M>, a?: string, b?: string, direction?: Direction): void => {
  if (a === undefined && b === undefined) {
    for (const h of sim.order) for (const l of h.links) if (l !== undefined) l.partitioned = false
    return fault(sim, 'heal', [])
  }
  for (const l of links(sim, a as string, b as string, direction)) l.partitioned = false
  linkFault(sim, 'heal', a as string, b as string, direction)
}

/**
 * Holds the messages arriving on the link between `a` and `b` (or one way) until `release`.
 *
 * @example
 * hold(sim, 'a', 'b', { oneWay: true }) // a's messages to b wait
 * run(sim, 1000)
 * release(sim, 'a', 'b', { oneWay: true })
 */
export const hold = <M>(sim: Simulation<M>, a: string, b: string, direction?: Direction): void => {
  for (const l of links(sim, a, b, direction)) l.held = true
  linkFault(sim, 'hold', a, b, direction)
}

/**
 * Releases a held link: its held messages arrive now, in the order they reached it, before any later message on the link.
 *
 * @example
 * hold(sim, 'a', 'b')
 * run(sim, 1000)
 * release(sim, 'a', 'b') // what reached the link meanwhile arrives now, in order
 */
export const release = <M>(sim: Simulation<M>, a: string, b: string, direction?: Direction): void => {
  const ls = links(sim, a, b, direction)
  linkFault(sim, 'release', a, b, direction)
  for (const l of ls) {
    l.held = false
    const held = l.heldQueue
    l.heldQueue = []
    prepend(l, held)
    for (let i = 0; i < held.length; i++) redeliver(sim, l)
  }
}
