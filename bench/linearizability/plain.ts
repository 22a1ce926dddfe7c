/**
 * The baseline of `npm run bench:linearizability`: Wing & Gong's search with Lowe's memo as
 * it is first written, the way the papers state it. No partitioning (a key-value history is
 * one search over a map of every key), no hashing: the memo is a set of strings, the
 * linearized bitset's words and the state's JSON. Entries are objects in a doubly linked
 * list, as in Porcupine. It reads the same models' `step` (and nothing else of them).
 */
import type { History } from '../../dist/lib/linearizability/index.js'

interface Node {
  readonly op: number
  readonly isCall: boolean
  match: Node | undefined
  next: Node | undefined
  prev: Node | undefined
}

/** A plain model: the step function, the initial state. */
export interface PlainModel<S> {
  readonly init: S
  readonly step: (state: S, input: unknown, output: unknown, outcome: 'ok' | 'fail' | 'info') => readonly S[]
}

/** Whether `history` is linearizable, or `undefined` when `deadline` (performance.now) passed. */
export const plainCheck = <S>(history: History, model: PlainModel<S>, deadline = Infinity): boolean | undefined => {
  const entries = history.flatMap((op, i) => [
    { op: i, isCall: true, at: op.call },
    { op: i, isCall: false, at: op.outcome === 'info' ? Infinity : op.return! },
  ])
  entries.sort((a, b) => (a.at === b.at ? (a.isCall === b.isCall ? 0 : a.isCall ? -1 : 1) : a.at < b.at ? -1 : 1))
  const head: Node = { op: -1, isCall: false, match: undefined, next: undefined, prev: undefined }
  const returns = new Map<number, Node>()
  let last = head
  for (const e of entries) {
    const node: Node = { op: e.op, isCall: e.isCall, match: undefined, next: undefined, prev: last }
    last.next = node
    last = node
    if (!e.isCall) returns.set(e.op, node)
  }
  for (let n = head.next; n !== undefined; n = n.next) if (n.isCall) n.match = returns.get(n.op)
  const linearized = new Uint32Array((history.length + 31) >>> 5)
  const memo = new Set<string>()
  const stack: { node: Node; state: S; alts: readonly S[]; alt: number }[] = []
  let state = model.init
  let entry = head.next
  let steps = 0
  while (head.next !== undefined && entry !== undefined) {
    if ((++steps & 1023) === 0 && performance.now() > deadline) return undefined
    let alts: readonly S[]
    let alt = 0
    if (entry.isCall) {
      const op = history[entry.op]!
      alts = model.step(state, op.input, op.output, op.outcome)
    } else {
      const top = stack.pop()
      if (top === undefined) return false
      entry = top.node
      state = top.state
      alts = top.alts
      alt = top.alt + 1
      linearized[entry.op >>> 5]! &= ~(1 << (entry.op & 31))
      const m = entry.match!
      m.prev!.next = m
      if (m.next !== undefined) m.next.prev = m
      entry.prev!.next = entry
      entry.next!.prev = entry
    }
    let placed = false
    for (; alt < alts.length; alt++) {
      linearized[entry.op >>> 5]! |= 1 << (entry.op & 31)
      const key = `${linearized.join(',')}|${JSON.stringify(alts[alt])}`
      if (!memo.has(key)) {
        memo.add(key)
        stack.push({ node: entry, state, alts, alt })
        state = alts[alt]!
        entry.prev!.next = entry.next
        entry.next!.prev = entry.prev
        const m = entry.match!
        m.prev!.next = m.next
        if (m.next !== undefined) m.next.prev = m.prev
        entry = head.next
        placed = true
        break
      }
      linearized[entry.op >>> 5]! &= ~(1 << (entry.op & 31))
    }
    if (!placed) entry = entry.next
  }
  return true
}
