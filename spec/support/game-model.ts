/**
 * A plainly correct model of `timing-wheel/game`: every timer in one list, scanned every
 * step, and the step's firings sorted. It offers the functions the model-based test calls,
 * with the semantics of game.ts's module comment and none of its structure.
 */
import type { Json, TimerEvent } from '../../lib/game/index.js'

interface MClock {
  parent: number | undefined
  timeScale: number
  paused: boolean
  time: number
  from: number
  rate: number
}

interface MTimer {
  id: number
  clock: number
  name: string
  payload: Json
  firstDelay: number
  period: number | undefined
  times: number | undefined
  left: number
  fired: number
  state: 'waiting' | 'paused' | 'due'
  due: number
  remaining: number
  seq: number
}

export class ModelGame {
  clocks: MClock[] = [{ parent: undefined, timeScale: 1, paused: false, time: 0, from: 0, rate: 0 }]
  timers: MTimer[] = []
  steps = 0
  accumulator = 0
  seq = 0
  nextTimerId = 1
  stepping = false

  constructor(
    readonly stepMs: number,
    readonly maxStepsPerUpdate: number,
    readonly handlers: Record<string, (e: Omit<TimerEvent, 'game'>) => void>,
  ) {}

  now = (): number => this.steps * this.stepMs
  find = (id: number): MTimer | undefined => this.timers.find((t) => t.id === id)

  addClock = (parent: number, timeScale: number, paused: boolean): number => {
    this.clocks.push({ parent, timeScale, paused, time: 0, from: 0, rate: 0 })
    return this.clocks.length - 1
  }

  private arm = (t: MTimer, due: number): void => {
    t.due = due
    t.state = 'waiting'
    t.seq = this.seq++
  }

  private make = (clock: number, delay: number, name: string, payload: Json, period: number | undefined, times: number | undefined): number => {
    const t: MTimer = { id: this.nextTimerId++, clock, name, payload, firstDelay: delay, period, times, left: times ?? Infinity, fired: 0, state: 'waiting', due: 0, remaining: 0, seq: 0 }
    this.arm(t, this.clocks[clock]!.time + delay)
    this.timers.push(t)
    return t.id
  }

  after = (clock: number, delay: number, name: string, payload: Json): number => this.make(clock, delay, name, payload, undefined, undefined)
  every = (clock: number, period: number, name: string, payload: Json, delay: number, times: number | undefined): number =>
    this.make(clock, delay, name, payload, period, times)

  cancel = (id: number): void => {
    this.timers = this.timers.filter((t) => t.id !== id)
  }
  pause = (id: number): void => {
    const t = this.find(id)!
    if (t.state === 'paused') return
    t.remaining = Math.max(0, t.due - this.clocks[t.clock]!.time)
    t.state = 'paused'
    t.seq = -1 // a firing collected before is stale
  }
  resume = (id: number): void => {
    const t = this.find(id)!
    if (t.state === 'paused') this.arm(t, this.clocks[t.clock]!.time + t.remaining)
  }
  reset = (id: number): void => {
    const t = this.find(id)!
    t.fired = 0
    t.left = t.times ?? Infinity
    this.arm(t, this.clocks[t.clock]!.time + t.firstDelay)
  }
  remaining = (id: number): number => {
    const t = this.find(id)!
    return t.state === 'paused' ? t.remaining : Math.max(0, t.due - this.clocks[t.clock]!.time)
  }

  step = (): void => {
    const stepStart = this.now()
    this.steps++
    for (const c of this.clocks) {
      const parentRate = c.parent === undefined ? 1 : this.clocks[c.parent]!.rate
      c.from = c.time
      c.rate = c.paused ? 0 : parentRate * c.timeScale
      if (c.rate > 0) c.time += this.stepMs * c.rate
    }
    const at = (t: MTimer): number => stepStart + (t.due - this.clocks[t.clock]!.from) / this.clocks[t.clock]!.rate
    let due: Array<{ at: number; seq: number; t: MTimer }> = []
    for (const t of this.timers) {
      const c = this.clocks[t.clock]!
      if (t.state === 'waiting' && c.rate > 0 && t.due <= c.time) {
        t.state = 'due'
        due.push({ at: at(t), seq: t.seq, t })
      }
    }
    this.stepping = true
    let error: { e: unknown } | undefined
    try {
      while (due.length > 0) {
        due.sort((a, b) => a.at - b.at || a.seq - b.seq)
        const { seq, t } = due.shift()!
        if (!this.timers.includes(t) || t.state !== 'due' || t.seq !== seq) continue
        const time = t.due
        t.fired++
        t.left--
        if (t.period !== undefined && t.left > 0) {
          t.due += t.period
          t.seq = this.seq++
          if (t.due <= this.clocks[t.clock]!.time) due.push({ at: at(t), seq: t.seq, t })
          else t.state = 'waiting'
        } else {
          this.cancel(t.id)
        }
        try {
          this.handlers[t.name]!({ timer: t.id, clock: t.clock, name: t.name, payload: t.payload, time, fired: t.fired })
        } catch (e) {
          error ??= { e }
        }
      }
    } finally {
      this.stepping = false
      due = []
    }
    if (error !== undefined) throw error.e
  }

  update = (realMs: number): { steps: number; droppedMs: number; alpha: number } => {
    this.accumulator += realMs
    let n = Math.floor(this.accumulator / this.stepMs)
    let droppedMs = 0
    if (n > this.maxStepsPerUpdate) {
      droppedMs = (n - this.maxStepsPerUpdate) * this.stepMs
      this.accumulator -= droppedMs
      n = this.maxStepsPerUpdate
    }
    for (let i = 0; i < n; i++) {
      this.accumulator -= this.stepMs
      this.step()
    }
    return { steps: n, droppedMs, alpha: Math.min(Math.max(this.accumulator / this.stepMs, 0), 1 - Number.EPSILON) }
  }
}
