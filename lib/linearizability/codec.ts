/**
 * The plain JSON form of a history at the edge: io-ts codecs for an operation and a
 * history, `decode` (the codec, then history.ts's checks) and `encode`.
 */
import * as E from '#fp-ts/Either.js'
import * as t from '#io-ts'
import { TimingWheelError, show } from '../errors.js'
import { type History, fromOperations } from './history.js'

const stamp = new t.Type<number, number, unknown>(
  'FiniteNumber',
  (u): u is number => typeof u === 'number' && Number.isFinite(u),
  (u, c) => (typeof u === 'number' && Number.isFinite(u) ? t.success(u) : t.failure(u, c, 'a finite number')),
  (n) => n,
)

/** The io-ts codec of one operation in the plain JSON form (input and output are any JSON). */
const OperationCodec = t.intersection([
  t.type({
    process: t.union([t.string, t.Int]),
    input: t.unknown,
    output: t.unknown,
    outcome: t.keyof({ ok: null, fail: null, info: null }),
    call: stamp,
  }),
  t.partial({ return: stamp }),
])

/** The io-ts codec of a history in the plain JSON form. */
const HistoryCodec = t.readonlyArray(OperationCodec)

/**
 * Reads a history from parsed JSON: `Right` of the history, or `Left` of a
 * `TimingWheelError` saying the first problem (the codec's, then `fromOperations`'s).
 *
 * @example
 * decode(JSON.parse('[{"process":0,"input":{"f":"read"},"output":{"value":null},"outcome":"ok","call":0,"return":1}]'))
 */
export const decode = (json: unknown): E.Either<TimingWheelError, History> => {
  const r = HistoryCodec.decode(json)
  if (E.isLeft(r)) {
    const first = r.left[0]
    const path = first === undefined ? '' : first.context.map((c) => c.key).filter((k) => k !== '').join('.')
    return E.left(new TimingWheelError('InvalidArgument', `not a history: at ${path === '' ? 'the top' : path}, got ${show(first?.value)}`))
  }
  try {
    return E.right(fromOperations(r.right as History))
  } catch (e) {
    return E.left(e as TimingWheelError)
  }
}

/**
 * The plain JSON form of a history (what `decode` reads back).
 *
 * @example
 * JSON.parse(encode([{ process: 0, input: 1, output: undefined, outcome: 'info', call: 0 }]))
 * // [{ process: 0, input: 1, output: null, outcome: 'info', call: 0 }] (an absent output is null)
 */
export const encode = (history: History): string => JSON.stringify(history.map((op) => ({ ...op, output: op.output ?? null })))
