/**
 * `timing-wheel/linearizability`: is a history linearizable? Histories of operations (call,
 * answer, ok/fail/info, stamps), read from a plain JSON form or Jepsen's EDN and log lines;
 * models as plain functions (register, compare-and-set register, key-value map, set, FIFO
 * queue, or your own, nondeterministic ones too); Wing & Gong's search with Lowe's memo and
 * P-compositionality, as Porcupine does, with a time budget whose answer is `unknown`, never
 * a guess; on `illegal`, the longest linearizable prefix and the operation that cannot
 * follow it, in words and in a self-contained HTML picture. It knows nothing of the
 * simulation: a history from anywhere can be checked.
 *
 * @example
 * import { checkLinearizable, casRegister, Jepsen } from 'timing-wheel/linearizability'
 *
 * const history = Jepsen.readUtilLog([
 *   'INFO  jepsen.util - 0\t:invoke\t:write\t1',
 *   'INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]',
 *   'INFO  jepsen.util - 0\t:ok\t:write\t1',
 *   'INFO  jepsen.util - 1\t:fail\t:cas\t[1 2]',
 *   'INFO  jepsen.util - 0\t:invoke\t:read\tnil',
 *   'INFO  jepsen.util - 0\t:ok\t:read\t2',
 * ].join('\n'))
 * checkLinearizable(history, casRegister()).kind // 'illegal': the cas failed, yet 2 was read
 *
 * @module
 */
export { checkLinearizable } from './check.js'
export type { CheckOptions, CheckResult, CheckOk, CheckIllegal, CheckUnknown, Failure } from './check.js'
export { type Model, type JepsenOp, type SetState, register, casRegister, keyValue, set, queue } from './model.js'
export { type History, type HistoryEvent, type Operation, type Outcome, type Process, fromOperations, fromEvents } from './history.js'
export { decode, encode } from './codec.js'
export * as Jepsen from './jepsen.js'
export { type PictureOptions, picture } from './picture.js'
