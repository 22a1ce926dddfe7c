/**
 * The checker: Wing & Gong's search for a linearization, with Lowe's memo, run on each part
 * of a partitioned history (P-compositionality, Horn and Kroening), as Porcupine does.
 *
 * Representation, per part of `n` operations:
 *
 * - the `2n` call and return entries sorted by stamp (a call before a return at the same
 *   stamp: intervals are closed), in a doubly linked list of integer links `next`/`prev`
 *   (`HEAD` is slot 0, `NIL` is -1); a call entry knows its return (`match`) and both know
 *   their operation (`opOf`). An `info` operation's return is after every stamp;
 * - `linearized`: a bitset of the operations placed so far, and `zobrist`, the XOR of a
 *   fixed random word per placed operation, its hash kept as bits flip;
 * - the memo: every (bitset, state) the search has stood at. Its 32-bit key is zobrist
 *   mixed with the state's hash; an open-addressing table (linear probing, at most a quarter
 *   full) holds each key beside its slot, and a slot holds a copy of the bitset (in one
 *   growing `Uint32Array`) and the state;
 * - the stack: for each placed operation, its call entry, the state before it, the states
 *   its step offered and which of them is in use.
 *
 * The search (the invariant: the list holds exactly the unplaced operations, in stamp
 * order, and `state` is the model after the stack's operations in stack order): walk the
 * list from the head. A call entry is a candidate: step it; for each state it offers not in
 * the memo, place it (lift both entries out of the list, push, restart from the head). A
 * return entry means every operation before it is placed or tried, and its own operation
 * is not placed: the prefix cannot be extended here, so pop the last placed operation,
 * put it back, and try its next state or the next candidate after it. An empty list is a
 * linearization; popping an empty stack means there is none.
 *
 * The longest stack seen is kept (its operations and states): on `illegal` it is the
 * longest linearizable prefix, and the operation of the first return entry left after it
 * is the one that cannot be placed. Parts are searched in turns and the first illegal one
 * ends the check (its failure is the one reported), as in Porcupine, unless `allFailures`.
 */
import { TimingWheelError, show } from '../errors.js'
import { type History, type Operation, type Outcome, fromOperations } from './history.js'
import { type Model, complete } from './model.js'

/**
 * How long the checker may search.
 *
 * @example
 * const options: CheckOptions = { timeout: 10_000, allFailures: false }
 * checkLinearizable(history, casRegister(), options).kind // 'ok', 'illegal', or 'unknown' after 10 s
 */
export interface CheckOptions {
  /** ms of search in all before the answer is `unknown`; default: no limit. */
  readonly timeout?: number
  /**
   * Search every part to its end and report each illegal one, rather than stopping at the
   * first (Porcupine's way, and the default: a part may take far longer to prove illegal
   * than another). With a timeout, the answer is `unknown` only if no part was found illegal.
   */
  readonly allFailures?: boolean
}

/**
 * Why a part of a history is not linearizable.
 *
 * @example
 * const r = checkLinearizable(history, register())
 * if (r.kind === 'illegal') console.log(r.failures[0]!.words)
 */
export interface Failure {
  /** Which part (of `parts`), in the order the model's `partition` gave them. */
  readonly part: number
  /** How many parts the history had. */
  readonly parts: number
  /** The longest linearizable prefix: indices into the history, in linearization order. */
  readonly prefix: readonly number[]
  /** The model's state after each operation of `prefix`, in words. */
  readonly states: readonly string[]
  /** The index of the operation that cannot be placed after the prefix. */
  readonly failing: number
  /** The failure in words: the prefix's end and the operation that cannot follow. */
  readonly words: string
}

/**
 * What the checker found: a linearization exists (`ok`), none does (`illegal`, with a
 * failure for each part that has none), or the time ran out first (`unknown`: never a guess).
 *
 * @example
 * const r = checkLinearizable(history, casRegister(), { timeout: 1000 })
 * r.kind // 'ok' | 'illegal' | 'unknown'
 */
export type CheckResult = CheckOk | CheckIllegal | CheckUnknown

/**
 * A linearization exists.
 *
 * @example
 * checkLinearizable([], register()) // { kind: 'ok', linearization: [[]] }
 */
export interface CheckOk {
  /** What was found. */
  readonly kind: 'ok'
  /** For each part, the linearization found: indices into the history, in order. */
  readonly linearization: readonly (readonly number[])[]
}

/**
 * No linearization exists.
 *
 * @example
 * const r = checkLinearizable(history, register())
 * if (r.kind === 'illegal') console.log(r.failures.map((f) => f.words).join('\n'))
 */
export interface CheckIllegal {
  /** What was found. */
  readonly kind: 'illegal'
  /** The failing part the search found first (it stops there, as Porcupine does), or with `allFailures` every failing part, in part order. */
  readonly failures: readonly Failure[]
}

/**
 * The time ran out before an answer.
 *
 * @example
 * checkLinearizable(history, register(), { timeout: 0 }) // { kind: 'unknown', reason: 'no answer within the 0 ms timeout' }
 */
export interface CheckUnknown {
  /** What was found. */
  readonly kind: 'unknown'
  /** Why there is no answer. */
  readonly reason: string
}

const HEAD = 0
/** Steps a part's search takes per turn: long enough that a turn's overhead is nothing. */
const TURN = 20_000
const NIL = -1

/**
 * A fixed pseudo-random word per operation: murmur3's finalizer of its index. Not a
 * linear generator such as xorshift: the XOR of a linear generator's words is itself
 * linear, so many sets of operations XOR to the same word and crowd one memo slot.
 */
const zobristWords = (n: number): Int32Array => {
  const z = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    let x = Math.imul(i + 1, 0x9e3779b9)
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
    z[i] = x ^ (x >>> 16)
  }
  return z
}

type Completed<S, I, O> = ReturnType<typeof complete<S, I, O>>

interface PartResult {
  readonly kind: 'ok' | 'illegal'
  readonly prefix: readonly number[]
  readonly states: readonly unknown[]
}

/** One part's search, between turns: the representation above, and where it stands. */
interface Search<S, I, O> {
  readonly model: Completed<S, I, O>
  readonly n: number
  readonly next: Int32Array
  readonly prev: Int32Array
  readonly opOf: Int32Array
  readonly isCall: Uint8Array
  readonly match: Int32Array
  readonly inputs: readonly I[]
  readonly outputs: readonly (O | undefined)[]
  readonly outcomes: readonly Outcome[]
  readonly words: number
  readonly linearized: Uint32Array
  readonly zobrist: Int32Array
  /**
   * The memo, open addressing: bucket `h` is `table[2h]`, a key, and `table[2h + 1]`, 1 + its
   * slot (0: empty). The key sits beside the slot so that a probe reads one cache line; the
   * slot's bits and state are read only when the key matches.
   */
  table: Int32Array
  /** How many slots `memoBits` has room for. */
  capacity: number
  memoBits: Uint32Array
  readonly memoStates: S[]
  readonly stackEntry: Int32Array
  readonly stackState: S[]
  readonly stackAlts: (readonly S[])[]
  readonly stackAlt: Int32Array
  zob: number
  depth: number
  state: S
  entry: number
  best: number[]
  bestStates: S[]
}

const createSearch = <S, I, O>(model: Completed<S, I, O>, ops: History<I, O>): Search<S, I, O> => {
  const n = ops.length
  // Entry e = op * 2 + (1 for its return); positions 1..2n in stamp order.
  const order = new Int32Array(2 * n)
  const stampOf = new Float64Array(2 * n)
  for (let i = 0; i < n; i++) {
    const op = ops[i]!
    order[2 * i] = 2 * i
    order[2 * i + 1] = 2 * i + 1
    stampOf[2 * i] = op.call
    stampOf[2 * i + 1] = op.outcome === 'info' ? Infinity : op.return!
  }
  order.sort((a, b) => stampOf[a]! - stampOf[b]! || (a & 1) - (b & 1) || a - b)
  const next = new Int32Array(2 * n + 1)
  const prev = new Int32Array(2 * n + 1)
  const opOf = new Int32Array(2 * n + 1)
  const isCall = new Uint8Array(2 * n + 1)
  const match = new Int32Array(2 * n + 1)
  const positionOfReturn = new Int32Array(n)
  for (let p = 1; p <= 2 * n; p++) {
    const e = order[p - 1]!
    opOf[p] = e >> 1
    isCall[p] = (e & 1) === 0 ? 1 : 0
    if ((e & 1) === 1) positionOfReturn[e >> 1] = p
  }
  for (let p = 1; p <= 2 * n; p++) if (isCall[p] === 1) match[p] = positionOfReturn[opOf[p]!]!
  for (let p = 0; p <= 2 * n; p++) {
    next[p] = p === 2 * n ? NIL : p + 1
    prev[p] = p - 1
  }
  const words = Math.max(1, (n + 31) >>> 5)
  return {
    model,
    n,
    next,
    prev,
    opOf,
    isCall,
    match,
    inputs: ops.map((op) => op.input),
    outputs: ops.map((op) => op.output),
    outcomes: ops.map((op) => op.outcome),
    words,
    linearized: new Uint32Array(words),
    zobrist: zobristWords(n),
    table: new Int32Array(2 * 256),
    capacity: 64,
    memoBits: new Uint32Array(64 * words),
    memoStates: [],
    stackEntry: new Int32Array(n),
    stackState: new Array<S>(n),
    stackAlts: new Array<readonly S[]>(n),
    stackAlt: new Int32Array(n),
    zob: 0,
    depth: 0,
    state: model.init,
    entry: next[HEAD]!,
    best: [],
    bestStates: [],
  }
}

/** Doubles the memo's table (rehashing every slot) and, when full, its slots. */
const growMemo = (search: Search<unknown, unknown, unknown>): void => {
  const count = search.memoStates.length
  if (count === search.capacity) {
    search.capacity *= 2
    const bits = new Uint32Array(count * 2 * search.words)
    bits.set(search.memoBits)
    search.memoBits = bits
  }
  const old = search.table
  if (count * 4 >= old.length) {
    const table = new Int32Array(old.length * 2)
    const mask = (table.length >>> 1) - 1
    for (let b = 0; b < old.length; b += 2) {
      if (old[b + 1] === 0) continue
      let h = old[b]! & mask
      while (table[2 * h + 1] !== 0) h = (h + 1) & mask
      table[2 * h] = old[b]!
      table[2 * h + 1] = old[b + 1]!
    }
    search.table = table
  }
}

/**
 * Runs a part's search for at most `budget` steps: its answer, or `undefined` if it is not
 * done. Parts are searched in turns (what Porcupine's goroutines do on cores): a part that
 * is illegal is found in about the time it takes alone, times the number of parts, however
 * long the others would take.
 */
const runSearch = <S, I, O>(search: Search<S, I, O>, budget: number): PartResult | undefined => {
  const { next, prev, opOf, isCall, match, inputs, outputs, outcomes, words, linearized, zobrist, memoStates, stackEntry, stackState, stackAlts, stackAlt } = search
  const { step, hash, equal } = search.model
  let { zob, depth, state, entry } = search
  for (let steps = 0; next[HEAD] !== NIL; steps++) {
    if (steps === budget) {
      Object.assign(search, { zob, depth, state, entry })
      return undefined
    }
    let alts: readonly S[]
    let alt: number
    if (isCall[entry] === 1) {
      const op = opOf[entry]!
      alts = step(state, inputs[op]!, outputs[op], outcomes[op]!)
      if (!Array.isArray(alts)) throw new TimingWheelError('InvalidArgument', `a model's step must return an array of states, got ${show(alts)}`)
      alt = 0
    } else {
      if (depth === 0) return { kind: 'illegal', prefix: search.best, states: search.bestStates }
      if (depth > search.best.length) {
        search.best = Array.from(stackEntry.subarray(0, depth), (p) => opOf[p]!)
        search.bestStates = stackAlts.slice(0, depth).map((a, k) => a[stackAlt[k]!]!)
      }
      depth--
      entry = stackEntry[depth]!
      state = stackState[depth]!
      alts = stackAlts[depth]!
      alt = stackAlt[depth]! + 1
      const op = opOf[entry]!
      linearized[op >>> 5]! &= ~(1 << (op & 31))
      zob ^= zobrist[op]!
      // Put the call and its return back where they were (the reverse of lifting).
      const m = match[entry]!
      next[prev[m]!] = m
      if (next[m] !== NIL) prev[next[m]!] = m
      next[prev[entry]!] = entry
      prev[next[entry]!] = entry
    }
    const op = opOf[entry]!
    let placed = false
    for (; alt < alts.length; alt++) {
      const s = alts[alt]!
      linearized[op >>> 5]! |= 1 << (op & 31)
      zob ^= zobrist[op]!
      const key = (zob ^ Math.imul(hash(s), 0x9e3779b1)) | 0
      const table = search.table
      const mask = (table.length >>> 1) - 1
      let h = key & mask
      let seen = false
      for (let slot = table[2 * h + 1]! - 1; slot !== -1; h = (h + 1) & mask, slot = table[2 * h + 1]! - 1) {
        if (table[2 * h] !== key) continue
        const bits = search.memoBits
        const base = slot * words
        let same = true
        for (let w = 0; w < words; w++) {
          if (bits[base + w] !== linearized[w]) {
            same = false
            break
          }
        }
        if (same && equal(memoStates[slot]!, s)) {
          seen = true
          break
        }
      }
      if (!seen) {
        const slot = memoStates.length
        table[2 * h] = key
        table[2 * h + 1] = slot + 1
        search.memoBits.set(linearized, slot * words)
        memoStates.push(s)
        if (memoStates.length === search.capacity || memoStates.length * 4 >= table.length) growMemo(search as Search<unknown, unknown, unknown>)
        stackEntry[depth] = entry
        stackState[depth] = state
        stackAlts[depth] = alts
        stackAlt[depth] = alt
        depth++
        state = s
        // Lift the call and its return out of the list.
        next[prev[entry]!] = next[entry]!
        prev[next[entry]!] = prev[entry]!
        const m = match[entry]!
        next[prev[m]!] = next[m]!
        if (next[m] !== NIL) prev[next[m]!] = prev[m]!
        entry = next[HEAD]!
        placed = true
        break
      }
      linearized[op >>> 5]! &= ~(1 << (op & 31))
      zob ^= zobrist[op]!
    }
    if (!placed) entry = next[entry]!
  }
  return { kind: 'ok', prefix: Array.from(stackEntry.subarray(0, depth), (p) => opOf[p]!), states: [] }
}

/** The operation that cannot follow `prefix`: the first to return among the rest. */
const blocking = (ops: History, prefix: readonly number[]): number => {
  const placed = new Set(prefix)
  let first = -1
  for (let i = 0; i < ops.length; i++) {
    if (placed.has(i)) continue
    const op = ops[i]!
    const at = op.outcome === 'info' ? Infinity : op.return!
    const firstOp = first === -1 ? undefined : ops[first]!
    if (firstOp === undefined || at < (firstOp.outcome === 'info' ? Infinity : firstOp.return!)) first = i
  }
  return first
}

/**
 * Checks that `history` is linearizable with respect to `model`: that its operations could
 * have happened one at a time, each at an instant between its call and its return, in an
 * order the model allows. `info` operations stay open to the end and may or may not take
 * effect. Throws a `TimingWheelError` for a malformed history or model.
 *
 * @example
 * import { checkLinearizable, register } from 'timing-wheel/linearizability'
 *
 * checkLinearizable([
 *   { process: 0, input: { f: 'write', value: 1 }, output: undefined, outcome: 'ok', call: 0, return: 10 },
 *   { process: 1, input: { f: 'read' }, output: { value: 1 }, outcome: 'ok', call: 2, return: 5 },
 *   { process: 1, input: { f: 'read' }, output: { value: null }, outcome: 'ok', call: 6, return: 8 },
 * ], register()).kind // 'illegal': 1 was read, then nothing
 */
export const checkLinearizable = <S, I, O>(history: History<I, O>, model: Model<S, I, O>, options: CheckOptions = {}): CheckResult => {
  fromOperations(history)
  const m = complete(model)
  const timeout = options.timeout ?? Infinity
  if (typeof timeout !== 'number' || Number.isNaN(timeout) || timeout < 0) {
    throw new TimingWheelError('InvalidArgument', `timeout must be a number of ms in [0, Infinity], got ${show(timeout)}`)
  }
  const deadline = performance.now() + timeout
  const parts = m.partition === undefined ? [history] : m.partition(history)
  // Where each operation of a part is in the history; not needed when the part is the history.
  const indexOf = m.partition === undefined ? undefined : new Map<Operation<I, O>, number>()
  if (indexOf !== undefined) {
    history.forEach((op, i) => indexOf.set(op, i))
    for (const part of parts) {
      for (const op of part) {
        if (!indexOf.has(op)) throw new TimingWheelError('InvalidArgument', `the model's partition returned an operation not in the history: ${show(op)}`)
      }
    }
  }
  // The parts in turns, until one is illegal (then the others do not matter) or all are ok.
  const searches: (Search<S, I, O> | undefined)[] = parts.map((part) => createSearch(m, part))
  const failures: Failure[] = []
  const linearization: (readonly number[])[] = []
  let open = searches.length
  while (open > 0) {
    if (performance.now() > deadline) {
      return failures.length > 0 ? { kind: 'illegal', failures } : { kind: 'unknown', reason: `no answer within the ${timeout} ms timeout` }
    }
    for (let k = 0; k < searches.length; k++) {
      const search = searches[k]
      const r = search === undefined ? undefined : runSearch(search, TURN)
      if (r === undefined) continue
      searches[k] = undefined
      open--
      if (r.kind === 'illegal') {
        failures.push(failure(m, parts, k, r.prefix, r.states, indexOf))
        if (options.allFailures !== true) return { kind: 'illegal', failures }
      } else linearization[k] = indexOf === undefined ? r.prefix : r.prefix.map((i) => indexOf.get(parts[k]![i]!)!)
    }
  }
  return failures.length > 0 ? { kind: 'illegal', failures: failures.sort((a, b) => a.part - b.part) } : { kind: 'ok', linearization }
}

/**
 * Part `k`'s failure, in indices of the whole history (`indexOf`; none: the part is the
 * history). Its states and words are made when first read: a check whose failure is only
 * counted does not pay for them.
 */
const failure = <S, I, O>(
  m: Completed<S, I, O>,
  parts: readonly History<I, O>[],
  k: number,
  prefix: readonly number[],
  states: readonly unknown[],
  indexOf: ReadonlyMap<Operation<I, O>, number> | undefined,
): Failure => {
  const part = parts[k]!
  const failing = blocking(part, prefix)
  const index = (i: number): number => (indexOf === undefined ? i : indexOf.get(part[i]!)!)
  let stateWords: readonly string[] | undefined
  let words: string | undefined
  const said = (o: Operation<I, O>): string => `${m.describe(o.input, o.output, o.outcome)} by ${show(o.process)}`
  return {
    part: k,
    parts: parts.length,
    prefix: prefix.map(index),
    failing: index(failing),
    get states(): readonly string[] {
      return (stateWords ??= states.map((s) => m.describeState(s as S)))
    },
    get words(): string {
      if (words !== undefined) return words
      const op = part[failing]!
      const last = prefix.slice(-3).map((i) => said(part[i]!))
      words =
        `${parts.length > 1 ? `part ${k + 1} of ${parts.length}: ` : ''}` +
        `after ${prefix.length} operation${prefix.length === 1 ? '' : 's'} in a linearizable order` +
        `${last.length === 0 ? '' : ` (ending ${last.join(', ')})`}, state ${this.states.at(-1) ?? m.describeState(m.init)}, ` +
        `${said(op)} [${op.call}, ${op.outcome === 'info' ? '…' : op.return}] cannot be placed: ` +
        `no order of the operations overlapping it explains its answer`
      return words
    },
  }
}
