/**
 * Models: the sequential specification a history is checked against, as plain functions
 * (Porcupine's `Model`), and the built-in ones.
 *
 * Representation. A state is an immutable value; `step(state, input, output, outcome)`
 * returns every state the operation can leave when applied to `state` and answering
 * `output` (none: it cannot happen there; several: the model is nondeterministic). `step`
 * never mutates its arguments: the search keeps old states to come back to.
 *
 * What an outcome means is the model's to say. The built-in models follow Jepsen and the
 * reading rules the published etcd verdicts rely on:
 *
 * - `ok`: the operation happened and answered `output`;
 * - `fail`: it did not change anything. A compare-and-set that fails says its compare
 *   failed: it can only be placed where the value is not the expected one;
 * - `info`: unknown output. It takes effect wherever the search places it; since an `info`
 *   operation stays open to the end of the history, placing it after everything else is
 *   the same as it never having happened, so "may or may not take effect" needs no choice.
 *
 * The memo keys states by `hash` (a 32-bit integer; equal states hash equally) and tells
 * them apart with `equal`. Without them, states compare as JSON text.
 *
 * The built-in models read Jepsen-shaped operations, `{ f, value }` (and `key` for the
 * key-value map), as the readers in jepsen.ts make them: an output is the completion's
 * `{ f, value }`, and a read's answer is its `value`.
 */
import { TimingWheelError, show } from '../errors.js'
import type { History, Outcome } from './history.js'

/**
 * A sequential specification.
 *
 * @example
 * // A counter: `inc` adds one, `get` answers the count.
 * const counter: Model<number, { f: 'inc' | 'get' }, { value: number }> = {
 *   init: 0,
 *   step: (n, input, output, outcome) =>
 *     input.f === 'inc' ? [outcome === 'fail' ? n : n + 1] : outcome !== 'ok' || output?.value === n ? [n] : [],
 * }
 */
export interface Model<S, I = unknown, O = unknown> {
  /** The state before any operation. */
  readonly init: S
  /** Every state the operation can leave (none: it cannot happen from `state`). */
  readonly step: (state: S, input: I, output: O | undefined, outcome: Outcome) => readonly S[]
  /** A 32-bit integer; equal states must hash equally. Default: of the state's JSON. */
  readonly hash?: (state: S) => number
  /** Whether two states are the same. Default: their JSON text is. */
  readonly equal?: (a: S, b: S) => boolean
  /**
   * Splits a history into parts that are each checked alone (P-compositionality: the
   * history is linearizable exactly when every part is), such as a key-value history by key.
   * Each part holds operations of the history itself (the same objects).
   */
  readonly partition?: (history: History<I, O>) => readonly History<I, O>[]
  /** An operation in words, such as `cas(1, 2) → fail`. */
  readonly describe?: (input: I, output: O | undefined, outcome: Outcome) => string
  /** A state in words. */
  readonly describeState?: (state: S) => string
}

/**
 * A Jepsen-shaped operation: a function name, a key for maps, a value.
 *
 * @example
 * const put: JepsenOp = { f: 'put', key: 'x', value: 1 }
 * fromOperations<JepsenOp, JepsenOp>([{ process: 0, input: put, output: put, outcome: 'ok', call: 0, return: 3 }])
 */
export interface JepsenOp {
  /** The function: read, write, cas, get, put, append, add, enqueue, dequeue. */
  readonly f: string
  /** The key, in key-value histories. */
  readonly key?: unknown
  /** The argument (or, in an output, the answer). */
  readonly value?: unknown
}

/** 32-bit FNV-1a of a string: the default and the built-in models' state hash. */
export const hashString = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h | 0
}

/** No state: the operation cannot happen here. One array for every such answer (the search never changes it). */
const none: readonly never[] = Object.freeze([])

/** The JSON text of a value, with `undefined` as `null` (as a read of nothing answers). */
const text = (v: unknown): string => JSON.stringify(v ?? null)

/** Whether two values are the same: primitives by identity, the rest by their JSON text. */
export const sameValue = (a: unknown, b: unknown): boolean =>
  Object.is(a ?? null, b ?? null) || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && text(a) === text(b))

const hashValue = (v: unknown): number => (typeof v === 'number' && (v | 0) === v ? Math.imul(v, 0x9e3779b1) | 0 : hashString(text(v)))

const answer = (output: JepsenOp | undefined): unknown => output?.value ?? null

const describeJepsen = (input: JepsenOp, output: JepsenOp | undefined, outcome: Outcome): string => {
  const value = input.value === undefined || input.value === null ? [] : Array.isArray(input.value) && input.f === 'cas' ? input.value.map(text) : [text(input.value)]
  const args = [...(input.key === undefined ? [] : [text(input.key)]), ...value]
  const call = `${input.f}(${args.join(', ')})`
  if (outcome === 'info') return `${call} → ?`
  if (outcome === 'fail') return `${call} → fail`
  return output === undefined || output.value === undefined || output.value === null ? (isRead(input.f) ? `${call} → nil` : call) : isRead(input.f) ? `${call} → ${text(output.value)}` : call
}

const isRead = (f: string): boolean => f === 'read' || f === 'get' || f === 'dequeue'

const unknownF = (f: unknown, allowed: string): never => {
  throw new TimingWheelError('InvalidArgument', `operation f must be ${allowed}, got ${show(f)}`)
}

const registerStep = (state: unknown, input: JepsenOp, output: JepsenOp | undefined, outcome: Outcome, cas: boolean): readonly unknown[] => {
  switch (input.f) {
    case 'read':
      return outcome !== 'ok' || sameValue(answer(output), state) ? [state] : none
    case 'write':
      return outcome === 'fail' ? [state] : [input.value ?? null]
    case 'cas': {
      if (!cas) return unknownF(input.f, "'read' or 'write'")
      const [from, to] = Array.isArray(input.value) ? input.value : [undefined, undefined]
      const matches = sameValue(from, state)
      if (outcome === 'ok') return matches ? [to ?? null] : none
      if (outcome === 'fail') return matches ? none : [state]
      return [matches ? (to ?? null) : state]
    }
    default:
      return unknownF(input.f, cas ? "'read', 'write' or 'cas'" : "'read' or 'write'")
  }
}

const valueModel = {
  hash: hashValue,
  equal: sameValue,
  describe: describeJepsen,
  describeState: text,
}

/**
 * A read/write register holding one value, `null` at first: `{ f: 'write', value }`,
 * `{ f: 'read' }` answering `{ value }`.
 *
 * @example
 * checkLinearizable(history, register())
 */
export const register = (init: unknown = null): Model<unknown, JepsenOp, JepsenOp> => ({
  init,
  step: (s, i, o, outcome) => registerStep(s, i, o, outcome, false),
  ...valueModel,
})

/**
 * etcd's compare-and-set register (Jepsen's `cas-register`): `read`, `write` and
 * `{ f: 'cas', value: [from, to] }`, whose `fail` means the compare failed.
 *
 * @example
 * checkLinearizable(Jepsen.readUtilLog(text), casRegister())
 */
export const casRegister = (init: unknown = null): Model<unknown, JepsenOp, JepsenOp> => ({
  init,
  step: (s, i, o, outcome) => registerStep(s, i, o, outcome, true),
  ...valueModel,
})

/**
 * A key-value map, checked key by key: `{ f: 'get' | 'read', key }` answering `{ value }`,
 * `{ f: 'put' | 'write', key, value }` and `{ f: 'append', key, value }` (string
 * concatenation). Every key holds `init` at first (`null`; Porcupine's kv histories use `''`).
 *
 * @example
 * checkLinearizable(Jepsen.readEdn(text), keyValue(''))
 */
export const keyValue = (init: unknown = null): Model<unknown, JepsenOp, JepsenOp> => ({
  init,
  step: (s, i, o, outcome) => {
    switch (i.f) {
      case 'get':
      case 'read':
        return outcome !== 'ok' || sameValue(answer(o), s) ? [s] : none
      case 'put':
      case 'write':
        return outcome === 'fail' ? [s] : [i.value ?? null]
      case 'append':
        return outcome === 'fail' ? [s] : [`${s ?? ''}${i.value ?? ''}`]
      default:
        return unknownF(i.f, "'get', 'read', 'put', 'write' or 'append'")
    }
  },
  partition: (history) => {
    const parts = new Map<string, History<JepsenOp, JepsenOp>[number][]>()
    for (const op of history) {
      const key = text(op.input.key)
      const part = parts.get(key)
      if (part === undefined) parts.set(key, [op])
      else part.push(op)
    }
    return [...parts.values()]
  },
  ...valueModel,
})

/**
 * The `set` model's state: its elements' JSON texts, sorted, so equal sets are equal values.
 *
 * @example
 * const s: SetState = ['1', '"a"']
 */
export type SetState = readonly string[]

/**
 * A set, empty at first: `{ f: 'add', value }`, `{ f: 'read' }` answering `{ value: [...] }`
 * (in any order).
 *
 * @example
 * checkLinearizable(history, set())
 */
export const set = (): Model<SetState, JepsenOp, JepsenOp> => ({
  init: [],
  step: (s, i, o, outcome) => {
    if (i.f === 'add') {
      const v = text(i.value)
      return outcome === 'fail' || s.includes(v) ? [s] : [[...s, v].sort()]
    }
    if (i.f !== 'read') return unknownF(i.f, "'add' or 'read'")
    if (outcome !== 'ok') return [s]
    const read = answer(o)
    if (!Array.isArray(read)) return none
    const seen = [...new Set(read.map(text))].sort()
    return seen.length === s.length && seen.every((v, k) => v === s[k]) ? [s] : none
  },
  hash: (s) => hashString(s.join('\u0000')),
  equal: (a, b) => a.length === b.length && a.every((v, k) => v === b[k]),
  describe: describeJepsen,
  describeState: (s) => `{${s.join(', ')}}`,
})

/**
 * A FIFO queue, empty at first: `{ f: 'enqueue', value }`, `{ f: 'dequeue' }` answering
 * `{ value }`, `null` when empty.
 *
 * @example
 * checkLinearizable(history, queue())
 */
export const queue = (): Model<readonly unknown[], JepsenOp, JepsenOp> => ({
  init: [],
  step: (s, i, o, outcome) => {
    if (i.f === 'enqueue') return outcome === 'fail' ? [s] : [[...s, i.value ?? null]]
    if (i.f !== 'dequeue') return unknownF(i.f, "'enqueue' or 'dequeue'")
    if (outcome === 'fail') return [s]
    if (outcome === 'info') return [s.length === 0 ? s : s.slice(1)]
    const got = answer(o)
    if (s.length === 0) return got === null ? [s] : none
    return sameValue(got, s[0]) ? [s.slice(1)] : none
  },
  hash: (s) => hashString(text(s)),
  equal: (a, b) => a.length === b.length && a.every((v, k) => sameValue(v, b[k])),
  describe: describeJepsen,
  describeState: text,
})

/**
 * A model's hash, equal and words, with the defaults filled in.
 *
 * @internal
 */
export const complete = <S, I, O>(model: Model<S, I, O>) => {
  if (typeof model !== 'object' || model === null || typeof model.step !== 'function') {
    throw new TimingWheelError('InvalidArgument', `a model must be an object with a step function, got ${show(model)}`)
  }
  for (const name of ['hash', 'equal', 'partition', 'describe', 'describeState'] as const) {
    if (model[name] !== undefined && typeof model[name] !== 'function') {
      throw new TimingWheelError('InvalidArgument', `a model's ${name} must be a function or absent, got ${show(model[name])}`)
    }
  }
  return {
    init: model.init,
    step: model.step,
    hash: model.hash ?? ((s: S) => hashString(text(s))),
    equal: model.equal ?? ((a: S, b: S) => text(a) === text(b)),
    partition: model.partition,
    describe: model.describe ?? ((i: I, o: O | undefined, outcome: Outcome) => `${text(i)} → ${outcome === 'ok' ? text(o) : outcome}`),
    describeState: model.describeState ?? text,
  }
}
