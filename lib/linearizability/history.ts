/**
 * Histories: what the clients of a system saw, one operation at a time.
 *
 * Representation. A history is a list of operations, each a call and its answer:
 * `{ process, input, output, outcome, call, return }`. `outcome` is Jepsen's completion type:
 *
 * - `ok`: it happened, at some instant in `[call, return]`, and answered `output`;
 * - `fail`: it answered that it did not take effect (a compare-and-set whose compare failed
 *   answered so too: the model says what a failure means, see model.ts);
 * - `info`: no one knows (a timeout, a crash, a call never answered). It stays open to the
 *   end of the history: it may take effect at any instant after its call, or never, and its
 *   output is unknown. Its `return`, when there is one, is when the client gave up, for the
 *   picture only.
 *
 * Intervals are closed: an operation returning at 20 overlaps one called at 20 (as in
 * Porcupine: with a clock read twice in a row giving equal stamps, a half-open reading
 * would call a linearizable history illegal).
 *
 * Invariants that `fromOperations` and `fromEvents` check, throwing a `TimingWheelError`
 * naming the value otherwise: stamps are finite numbers, `return >= call`, a process is a
 * string or a safe integer, an outcome is one of the three. A process has at most one
 * operation open at a time in `fromEvents`: an invoke from a process with one already open
 * leaves the first one `info` (Jepsen gives a process a new number after an `info`, so this
 * only happens in hand-made histories).
 *
 * The plain JSON form is the list of operations itself; `info` operations without an
 * answer have no `return` (JSON has no Infinity). Its io-ts codec is in codec.ts (this
 * file imports no io-ts, so the simulation can record histories without it).
 */
import { TimingWheelError, show } from '../errors.js'

/**
 * Who called: a Jepsen process number or a client's name.
 *
 * @example
 * const clients: Process[] = [0, 1, 'n1-client']
 */
export type Process = number | string

/**
 * How an operation ended: Jepsen's `:ok`, `:fail` and `:info`.
 *
 * @example
 * const timedOut: Outcome = 'info' // may or may not have happened: open to the end of the history
 * fromOperations([{ process: 0, input: { f: 'write', value: 1 }, output: undefined, outcome: timedOut, call: 0 }])
 */
export type Outcome = 'ok' | 'fail' | 'info'

/**
 * One operation: a call by `process` with `input` at `call`, answered `output` at `return`.
 *
 * @example
 * const op: Operation = { process: 0, input: { f: 'write', value: 1 }, output: undefined, outcome: 'ok', call: 0, return: 5 }
 */
export interface Operation<I = unknown, O = unknown> {
  /** The caller. */
  readonly process: Process
  /** What was asked. */
  readonly input: I
  /** What was answered; `undefined` when the outcome is `info`. */
  readonly output: O | undefined
  /** Happened, did not, or unknown (open to the end). */
  readonly outcome: Outcome
  /** When it was called. */
  readonly call: number
  /** When it was answered (or given up on, for `info`); absent for a call never answered. */
  readonly return?: number
}

/**
 * A history: operations in any order (the checker orders them by their stamps).
 *
 * @example
 * const h: History = [
 *   { process: 0, input: { f: 'write', value: 1 }, output: undefined, outcome: 'ok', call: 0, return: 5 },
 *   { process: 1, input: { f: 'read' }, output: { value: 1 }, outcome: 'ok', call: 2, return: 9 },
 * ]
 */
export type History<I = unknown, O = unknown> = readonly Operation<I, O>[]

/**
 * One line of a Jepsen-style history: an `invoke`, then the same process's `ok`, `fail` or
 * `info`. `value` is everything the line says besides its type, process and time (for
 * Jepsen: `{ f, value }`, and `key` in key-value histories).
 *
 * @example
 * const e: HistoryEvent = { type: 'invoke', process: 0, value: { f: 'read', value: null }, time: 3 }
 */
export interface HistoryEvent {
  /** Jepsen's `:type`. */
  readonly type: 'invoke' | Outcome
  /** The caller. */
  readonly process: Process
  /** The input (for an invoke) or the output. */
  readonly value: unknown
  /** When. */
  readonly time: number
}

const checkStamp = (what: string, value: unknown): number => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TimingWheelError('InvalidArgument', `${what} must be a finite number, got ${show(value)}`)
  }
  return value
}

const checkProcess = (what: string, value: unknown): Process => {
  if (typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))) return value
  throw new TimingWheelError('InvalidArgument', `${what} must be a string or a safe integer, got ${show(value)}`)
}

const outcomes: readonly unknown[] = ['ok', 'fail', 'info']

/**
 * Checks a list of operations and returns it as a history; throws a `TimingWheelError`
 * naming the first bad field (and changes nothing).
 *
 * @example
 * fromOperations([{ process: 0, input: { f: 'read' }, output: { value: null }, outcome: 'ok', call: 0, return: 1 }])
 */
export const fromOperations = <I, O>(operations: readonly Operation<I, O>[]): History<I, O> => {
  if (!Array.isArray(operations)) throw new TimingWheelError('InvalidArgument', `a history must be an array of operations, got ${show(operations)}`)
  operations.forEach((op, i) => {
    if (typeof op !== 'object' || op === null) throw new TimingWheelError('InvalidArgument', `operation ${i} must be an object, got ${show(op)}`)
    checkProcess(`operation ${i}'s process`, op.process)
    if (!outcomes.includes(op.outcome)) {
      throw new TimingWheelError('InvalidArgument', `operation ${i}'s outcome must be 'ok', 'fail' or 'info', got ${show(op.outcome)}`)
    }
    const call = checkStamp(`operation ${i}'s call`, op.call)
    if (op.return === undefined) {
      if (op.outcome !== 'info') throw new TimingWheelError('InvalidArgument', `operation ${i} is '${op.outcome}' but has no return stamp (only 'info' may lack one)`)
    } else if (checkStamp(`operation ${i}'s return`, op.return) < call) {
      throw new TimingWheelError('InvalidArgument', `operation ${i}'s return ${show(op.return)} is before its call ${show(call)} (must be in [${show(call)}, Infinity))`)
    }
  })
  return operations
}

/**
 * Pairs Jepsen-style lines into operations: each `invoke` with the next `ok`, `fail` or
 * `info` of the same process. A call never answered is `info`; a completion with no open
 * call throws.
 *
 * @example
 * fromEvents([
 *   { type: 'invoke', process: 0, value: { f: 'write', value: 1 }, time: 0 },
 *   { type: 'ok', process: 0, value: { f: 'write', value: 1 }, time: 4 },
 * ]) // [{ process: 0, input: { f: 'write', value: 1 }, output: { f: 'write', value: 1 }, outcome: 'ok', call: 0, return: 4 }]
 */
export const fromEvents = (events: readonly HistoryEvent[]): History => {
  if (!Array.isArray(events)) throw new TimingWheelError('InvalidArgument', `events must be an array, got ${show(events)}`)
  const operations: Operation[] = []
  const open = new Map<Process, { readonly index: number; readonly input: unknown; readonly call: number }>()
  const close = (process: Process, outcome: Outcome, output: unknown, at: number | undefined): void => {
    const o = open.get(process)!
    open.delete(process)
    const op: Operation = { process, input: o.input, output: outcome === 'info' ? undefined : output, outcome, call: o.call }
    operations[o.index] = at === undefined ? op : { ...op, return: at }
  }
  events.forEach((e, i) => {
    if (typeof e !== 'object' || e === null) throw new TimingWheelError('InvalidArgument', `event ${i} must be an object, got ${show(e)}`)
    const process = checkProcess(`event ${i}'s process`, e.process)
    const time = checkStamp(`event ${i}'s time`, e.time)
    if (e.type === 'invoke') {
      if (open.has(process)) close(process, 'info', undefined, undefined)
      open.set(process, { index: operations.length, input: e.value, call: time })
      operations.length++
    } else if (outcomes.includes(e.type)) {
      const o = open.get(process)
      if (o === undefined) throw new TimingWheelError('InvalidArgument', `event ${i} is a '${e.type}' of process ${show(process)}, which has no open call`)
      if (time < o.call) throw new TimingWheelError('InvalidArgument', `event ${i}'s time ${show(time)} is before its call ${show(o.call)}`)
      close(process, e.type, e.value, time)
    } else {
      throw new TimingWheelError('InvalidArgument', `event ${i}'s type must be 'invoke', 'ok', 'fail' or 'info', got ${show(e.type)}`)
    }
  })
  for (const process of [...open.keys()]) close(process, 'info', undefined, undefined)
  return operations
}
