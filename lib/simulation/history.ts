/**
 * Histories in the simulation: clients record what they saw, and a property ends with a
 * linearizability check (timing-wheel/linearizability) that, on a counterexample, says the
 * fault schedule and the operations that cannot be linearized in words and writes the
 * picture.
 *
 * Representation: a history is part of the run's log, as events named `'history'` whose
 * data is one line of a Jepsen-style history, `{ type, process, value }` (a
 * `HistoryRecord`); the event's `at` is its true-time stamp. A client inside a host records
 * through the host's context, one outside through the simulation. `history` reads the
 * lines back (`fromEvents`: a call never answered is `info`). So the picture and the check
 * read the same log as every other check.
 */
import { writeFileSync } from 'node:fs'
import { TimingWheelError, show } from '../errors.js'
import { type CheckOptions, type CheckResult, checkLinearizable } from '../linearizability/check.js'
import { type History, type HistoryEvent, type Outcome, type Process, fromEvents } from '../linearizability/history.js'
import type { Model } from '../linearizability/model.js'
import { picture } from '../linearizability/picture.js'
import { type LogEntry, event } from './log.js'
import { type FaultSchedule, describeSchedule } from './schedule.js'
import type { Host, Simulation } from './state.js'

/**
 * The data of a `'history'` event: one line of a history.
 *
 * @example
 * const lines = Simulation.log(sim).flatMap((e) => (e.kind === 'event' && e.name === 'history' ? [e.data as HistoryRecord] : []))
 */
export interface HistoryRecord {
  /** A call, or how it ended. */
  readonly type: 'invoke' | Outcome
  /** The client. */
  readonly process: Process
  /** The input (for `invoke`) or the output. */
  readonly value?: unknown
}

const checkProcess = (process: unknown): Process => {
  if (typeof process === 'string' || (typeof process === 'number' && Number.isSafeInteger(process))) return process
  throw new TimingWheelError('InvalidArgument', `a history's process must be a string or a safe integer, got ${show(process)}`)
}

/**
 * Records that `process` calls an operation with `input`, now (true time), in the log.
 *
 * @example
 * Simulation.invoke(host, 'client-1', { f: 'write', value: 3 })
 * Simulation.send(host, 'leader', { write: 3 })
 */
export const invoke = <M>(source: Simulation<M> | Host<M>, process: Process, input: unknown): void => {
  event(source, 'history', { type: 'invoke', process: checkProcess(process), value: input } satisfies HistoryRecord)
}

/**
 * Records how `process`'s open call ended, now: `ok` with its `output`, `fail` (it did not
 * happen), or `info` (unknown: a timeout, a crash; it stays open to the end of the history).
 *
 * @example
 * Simulation.complete(host, 'client-1', 'ok', { f: 'read', value: 3 })
 * Simulation.complete(host, 'client-2', 'info') // timed out
 */
export const complete = <M>(source: Simulation<M> | Host<M>, process: Process, outcome: Outcome, output?: unknown): void => {
  if (outcome !== 'ok' && outcome !== 'fail' && outcome !== 'info') {
    throw new TimingWheelError('InvalidArgument', `outcome must be 'ok', 'fail' or 'info', got ${show(outcome)}`)
  }
  event(source, 'history', { type: outcome, process: checkProcess(process), value: output } satisfies HistoryRecord)
}

/**
 * The history recorded in a simulation's log (or in a log): its `'history'` events paired
 * into operations, stamped with their true times.
 *
 * @example
 * checkLinearizable(Simulation.history(sim), register())
 */
export const history = <M>(source: Simulation<M> | ReadonlyArray<LogEntry<M>>): History => {
  const entries: ReadonlyArray<LogEntry<M>> = Array.isArray(source) ? source : ((source as Simulation<M>).log ?? [])
  const events: HistoryEvent[] = []
  for (const e of entries) {
    if (e.kind !== 'event' || e.name !== 'history') continue
    const r = e.data as HistoryRecord | undefined
    if (typeof r !== 'object' || r === null) {
      throw new TimingWheelError('InvalidArgument', `a 'history' event at ${e.at} must hold { type, process, value }, got ${show(r)}`)
    }
    events.push({ type: r.type, process: r.process, value: r.value, time: e.at })
  }
  return fromEvents(events)
}

/**
 * What `assertLinearizable` says and writes on a counterexample.
 *
 * @example
 * const options: AssertLinearizableOptions = { schedule, picture: 'store.html', timeout: 10_000 }
 * Simulation.assertLinearizable(sim, keyValue(), options)
 */
export interface AssertLinearizableOptions extends CheckOptions {
  /** The fault schedule of the run, told in words in the error. */
  readonly schedule?: FaultSchedule
  /** Where to write the picture of the history when it is not linearizable. */
  readonly picture?: string
}

/**
 * Checks the simulation's recorded history against `model` and throws an `Error` unless it
 * is linearizable: the message gives the fault schedule in words, the operations that
 * cannot be linearized and where the picture was written. An `unknown` answer (the
 * timeout) throws too: a property never passes on a guess. Returns the result when `ok`.
 *
 * @example
 * fc.assert(fc.property(Simulation.faultScheduleArb({ hosts, window: 1000 }), (schedule) => {
 *   const sim = runStore(schedule)
 *   Simulation.assertLinearizable(sim, keyValue(), { schedule, picture: 'store.html' })
 * }))
 */
export const assertLinearizable = <M, S, I, O>(sim: Simulation<M>, model: Model<S, I, O>, options: AssertLinearizableOptions = {}): CheckResult => {
  const h = history(sim) as History<I, O>
  const result = checkLinearizable(h, model, options)
  if (result.kind === 'ok') return result
  const lines = [result.kind === 'illegal' ? `not linearizable (${h.length} operations)` : `linearizability unknown: ${result.reason}`]
  if (options.schedule !== undefined) lines.push(`fault schedule: ${describeSchedule(options.schedule)}`)
  if (result.kind === 'illegal') {
    for (const f of result.failures) {
      lines.push(f.words)
      const op = h[f.failing]!
      lines.push(`the operation that cannot be placed: ${show(op.process)} called ${show(op.input)} at ${op.call} and got ${op.outcome} ${show(op.output)} at ${op.return ?? 'no answer'}`)
    }
    if (options.picture !== undefined) {
      writeFileSync(options.picture, picture(h, model, result, { notes: options.schedule === undefined ? [] : describeSchedule(options.schedule).split('\n') }))
      lines.push(`picture: ${options.picture}`)
    }
  }
  throw new Error(lines.join('\n'))
}
