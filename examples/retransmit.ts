/**
 * `npm run example:retransmit`: the case that motivated timing wheels (Varghese & Lauck,
 * "Hashed and Hierarchical Timing Wheels", 1987). A sender keeps one retransmission timer
 * per packet in flight, and nearly every timer is stopped by an acknowledgement before it
 * expires; so starting and stopping a timer must be cheap, and on a wheel both take
 * constant time, however many timers are pending.
 *
 * The sender sends a packet every millisecond over a simulated link that delays each
 * packet and each ack by 10 to 30 ms and loses some of either. Each transmission starts
 * (or restarts) the packet's timer; its ack stops it; an expiry retransmits with the
 * timeout doubled. Everything that happens later, link deliveries and timers alike, is an
 * alarm on one `TimingWheel`, so the simulation runs on virtual time, as fast as the CPU
 * allows, and a seed fixes every line it prints.
 *
 * Flags: `--seed 1`, `--packets 10000`, `--loss 0.05`, `--log 0` (print the first n
 * events), `--timing` (also print wall-clock time, which is not deterministic).
 */
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { Alarm, TimingWheel } from 'timing-wheel'

/** What the simulation is asked to do. */
export interface Options {
  readonly seed: number
  readonly packets: number
  /** The chance that the link drops a packet, and (separately) its ack. */
  readonly loss: number
  /** How many events to log, from the first. */
  readonly log: number
}

/** What happened, in counts. */
export interface Stats {
  delivered: number
  transmissions: number
  timersStarted: number
  timersStopped: number
  timersExpired: number
  gaveUp: number
  maxPending: number
  endTime: number
}

type Event =
  | { readonly kind: 'send'; readonly seq: number }
  | { readonly kind: 'data'; readonly seq: number }
  | { readonly kind: 'ack'; readonly seq: number }
  | { readonly kind: 'timeout'; readonly seq: number; tries: number }

const sendInterval = 1 // ms between new packets
const minDelay = 10 // ms, one way
const maxDelay = 30
const initialTimeout = 100 // ms; doubled at every retransmission
const maxTries = 8

/** mulberry32: a small seeded generator, so that a seed fixes the run on every machine. */
const random = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}

/** Runs the simulation; `print` receives the event log and nothing else. */
export const simulate = (opts: Options, print: (line: string) => void): Stats => {
  const t = TimingWheel.create<Event>({ alarmPrecision: 1 }) // 1 ms intervals
  const next = random(opts.seed)
  const stats: Stats = { delivered: 0, transmissions: 0, timersStarted: 0, timersStopped: 0, timersExpired: 0, gaveUp: 0, maxPending: 0, endTime: 0 }
  const timers = new Map<number, TimingWheel.Alarm<Event>>() // seq -> its retransmission timer
  const received = new Set<number>()
  let logged = 0
  const log = (line: string): void => {
    if (logged++ < opts.log) print(`  t=${TimingWheel.now(t)} ${line}`)
  }

  /** The link: a delivery some milliseconds from now, unless it is lost. */
  const overLink = (event: Event): boolean => {
    if (next() < opts.loss) return false
    const delay = minDelay + Math.floor(next() * (maxDelay - minDelay + 1))
    TimingWheel.add(t, TimingWheel.now(t) + delay, event)
    return true
  }

  const transmit = (seq: number): void => {
    stats.transmissions++
    if (!overLink({ kind: 'data', seq })) log(`#${seq} lost`)
  }

  const onSend = (seq: number): void => {
    log(`send #${seq}, timer started`)
    transmit(seq)
    timers.set(seq, TimingWheel.add(t, TimingWheel.now(t) + initialTimeout, { kind: 'timeout', seq, tries: 1 }))
    stats.timersStarted++
    stats.maxPending = Math.max(stats.maxPending, timers.size)
    if (seq + 1 < opts.packets) TimingWheel.add(t, TimingWheel.now(t) + sendInterval, { kind: 'send', seq: seq + 1 })
  }

  const onData = (seq: number): void => {
    if (!received.has(seq)) stats.delivered++
    received.add(seq)
    // Every copy is acknowledged: the ack of an earlier copy may have been lost.
    if (!overLink({ kind: 'ack', seq })) log(`ack #${seq} lost`)
  }

  const onAck = (seq: number): void => {
    const timer = timers.get(seq)
    if (timer === undefined) return // a duplicate ack: the timer is already stopped
    TimingWheel.remove(t, timer)
    timers.delete(seq)
    stats.timersStopped++
    log(`ack #${seq}, timer stopped`)
  }

  const onTimeout = (alarm: TimingWheel.Alarm<Event>, event: Extract<Event, { kind: 'timeout' }>): void => {
    stats.timersExpired++
    if (event.tries === maxTries) {
      timers.delete(event.seq)
      stats.gaveUp++
      log(`#${event.seq} timed out ${maxTries} times, given up`)
      return
    }
    event.tries++
    log(`#${event.seq} timed out, retransmitting (try ${event.tries})`)
    transmit(event.seq)
    // Rescheduled from its own handler, the timer stays the same alarm under the same handle.
    TimingWheel.reschedule(t, alarm, TimingWheel.now(t) + initialTimeout * 2 ** (event.tries - 1))
  }

  const dispatch = (alarm: TimingWheel.Alarm<Event>): void => {
    const event = Alarm.value(t, alarm)
    if (event.kind === 'send') onSend(event.seq)
    else if (event.kind === 'data') onData(event.seq)
    else if (event.kind === 'ack') onAck(event.seq)
    else onTimeout(alarm, event)
  }

  if (opts.packets > 0) TimingWheel.add(t, 0, { kind: 'send', seq: 0 })
  // Jump from event to event: each call moves `now` to the earliest alarm and fires what is due.
  while (!TimingWheel.isEmpty(t)) {
    TimingWheel.advanceClockStopAtNextAlarm(t, TimingWheel.minAlarmTimeInMinIntervalExn(t), dispatch)
  }
  stats.endTime = TimingWheel.now(t)
  return stats
}

const perPacket = (n: number, packets: number): string => (n / Math.max(1, packets)).toFixed(2)

/** The summary, in lines that depend only on the options. */
export const report = (opts: Options, s: Stats): string[] => {
  const operations = s.timersStarted + s.timersStopped + s.timersExpired
  return [
    `retransmit: ${opts.packets} packets, seed ${opts.seed}, loss ${opts.loss * 100}% each way, ` +
      `link delay ${minDelay}-${maxDelay} ms, timeout ${initialTimeout} ms doubling`,
    `  delivered ${s.delivered} of ${opts.packets} packets in ${s.endTime} ms of virtual time`,
    `  transmissions ${s.transmissions} (${s.transmissions - opts.packets} retransmissions)`,
    `  retransmission timers: ${s.timersStarted} started, ${s.timersStopped} stopped by an ack, ` +
      `${s.timersExpired} expired, ${s.gaveUp} given up`,
    `  timers pending at once: at most ${s.maxPending}`,
    `  timer operations per packet: ${perPacket(operations, opts.packets)} ` +
      `(start ${perPacket(s.timersStarted, opts.packets)}, stop ${perPacket(s.timersStopped, opts.packets)}, ` +
      `expire ${perPacket(s.timersExpired, opts.packets)}), each constant time`,
  ]
}

/** Reads the flags; throws a `TypeError` naming a bad one. */
export const parseOptions = (args: readonly string[]): Options & { readonly timing: boolean } => {
  const { values } = parseArgs({
    args: [...args],
    options: {
      seed: { type: 'string', default: '1' },
      packets: { type: 'string', default: '10000' },
      loss: { type: 'string', default: '0.05' },
      log: { type: 'string', default: '0' },
      timing: { type: 'boolean', default: false },
    },
  })
  const number = (name: string, text: string, ok: (n: number) => boolean): number => {
    const n = Number(text)
    if (!ok(n)) throw new TypeError(`--${name} ${text} is not valid`)
    return n
  }
  return {
    seed: number('seed', values.seed, Number.isInteger),
    packets: number('packets', values.packets, (n) => Number.isInteger(n) && n >= 0),
    loss: number('loss', values.loss, (n) => n >= 0 && n < 1),
    log: number('log', values.log, (n) => Number.isInteger(n) && n >= 0),
    timing: values.timing,
  }
}

const main = (): void => {
  const opts = parseOptions(process.argv.slice(2))
  const began = performance.now()
  const stats = simulate(opts, console.log)
  const elapsed = performance.now() - began
  for (const line of report(opts, stats)) console.log(line)
  if (opts.timing) {
    console.log(`  wall clock: ${elapsed.toFixed(1)} ms, ${((elapsed * 1000) / Math.max(1, opts.packets)).toFixed(2)} µs per packet (every event, not just timers)`)
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
