/**
 * Readers for Jepsen's history formats, so a history from outside the simulation can be
 * checked: EDN operation maps one per line (`{:type :invoke, :f :read, :value nil,
 * :process 0, :time 12}`, as in a `history.edn`) and the `jepsen.util` log lines
 * (`INFO  jepsen.util - 0	:invoke	:read	nil`), the two forms of Porcupine's test data.
 *
 * Both make Jepsen-shaped operations: an input is the invoke's `{ f, value }` (with `key`
 * when the line has one) and an output the completion's. Keywords read as strings without
 * their colon, `nil` as `null`. EDN values are parsed by edn-data. Lines of the nemesis
 * (a process that is not a number) and log lines of other loggers are skipped; a stamp is
 * the line's `:time` when it has one, otherwise its line number.
 *
 * @example
 * import { Jepsen, checkLinearizable, register } from 'timing-wheel/linearizability'
 *
 * const history = Jepsen.readEdn([
 *   '{:type :invoke, :f :write, :value 1, :process 0, :time 0}',
 *   '{:type :ok, :f :write, :value 1, :process 0, :time 5}',
 *   '{:type :invoke, :f :read, :value nil, :process 1, :time 6}',
 *   '{:type :ok, :f :read, :value 1, :process 1, :time 9}',
 * ].join('\n'))
 * checkLinearizable(history, register()).kind // 'ok'
 *
 * @module
 */
import { parseEDNString } from 'edn-data'
import { TimingWheelError, show } from '../errors.js'
import { type History, type HistoryEvent, type Outcome, fromEvents } from './history.js'
import type { JepsenOp } from './model.js'

const types: readonly string[] = ['invoke', 'ok', 'fail', 'info']

const parseValue = (edn: string, line: number): unknown => {
  try {
    return parseEDNString(edn, { mapAs: 'object', keywordAs: 'string', listAs: 'array', setAs: 'array' })
  } catch (e) {
    throw new TimingWheelError('InvalidArgument', `line ${line} is not EDN (${(e as Error).message}): ${show(edn.slice(0, 120))}`)
  }
}

const lines = (text: string): string[] => {
  if (typeof text !== 'string') throw new TimingWheelError('InvalidArgument', `a history's text must be a string, got ${show(text)}`)
  return text.split(/\r?\n/)
}

/**
 * Reads EDN operation maps, one per line (blank lines and nemesis operations skipped).
 *
 * @example
 * readEdn('{:process 0, :type :invoke, :f :get, :key "x", :value nil}\n{:process 0, :type :ok, :f :get, :key "x", :value "1"}')
 * // [{ process: 0, input: { f: 'get', key: 'x', value: null }, output: { f: 'get', key: 'x', value: '1' }, outcome: 'ok', call: 0, return: 1 }]
 */
export const readEdn = (text: string): History<JepsenOp, JepsenOp> => {
  const events: HistoryEvent[] = []
  lines(text).forEach((source, i) => {
    if (source.trim() === '') return
    const op = parseValue(source, i + 1)
    if (typeof op !== 'object' || op === null || Array.isArray(op)) {
      throw new TimingWheelError('InvalidArgument', `line ${i + 1} must be an EDN map, got ${show(source.slice(0, 120))}`)
    }
    const { type, process, time, ...value } = op as Record<string, unknown>
    if (typeof process !== 'number') return
    if (typeof type !== 'string' || !types.includes(type)) {
      throw new TimingWheelError('InvalidArgument', `line ${i + 1}'s :type must be :invoke, :ok, :fail or :info, got ${show(type)}`)
    }
    if (typeof value['f'] !== 'string') throw new TimingWheelError('InvalidArgument', `line ${i + 1}'s :f must be a keyword or string, got ${show(value['f'])}`)
    events.push({ type: type as Outcome | 'invoke', process, value, time: typeof time === 'number' ? time : i })
  })
  return fromEvents(events) as History<JepsenOp, JepsenOp>
}

const utilLine = /^INFO\s+jepsen\.util\s+-\s+(\S+)\s+:(\S+)\s+:(\S+)\s*(.*)$/

/**
 * Reads the `jepsen.util` lines of a Jepsen log (the other lines are skipped).
 *
 * @example
 * readUtilLog('INFO  jepsen.util - 2\t:invoke\t:cas\t[3 0]\nINFO  jepsen.util - 2\t:fail\t:cas\t[3 0]')
 * // [{ process: 2, input: { f: 'cas', value: [3, 0] }, output: { f: 'cas', value: [3, 0] }, outcome: 'fail', call: 0, return: 1 }]
 */
export const readUtilLog = (text: string): History<JepsenOp, JepsenOp> => {
  const events: HistoryEvent[] = []
  lines(text).forEach((source, i) => {
    const m = utilLine.exec(source)
    if (m === null) return
    const process = Number(m[1])
    if (!Number.isSafeInteger(process)) return
    if (!types.includes(m[2]!)) throw new TimingWheelError('InvalidArgument', `line ${i + 1}'s type must be :invoke, :ok, :fail or :info, got ${show(m[2])}`)
    const value = m[4]!.trim() === '' ? null : parseValue(m[4]!, i + 1)
    events.push({ type: m[2] as Outcome | 'invoke', process, value: { f: m[3]!, value }, time: i })
  })
  return fromEvents(events) as History<JepsenOp, JepsenOp>
}
