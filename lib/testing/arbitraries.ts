/**
 * fast-check arbitraries for timing wheels: level bits, configurations, and command lists
 * to run with `runCommands` (see `commands.ts` for what the commands mean).
 *
 * The defaults are chosen to find bugs, not to look like production: narrow levels, so
 * that a few dozen commands cross levels and reach `alarmUpperBound`; starts near 0 and
 * near `Date.now()`; precisions such as `0.1` and `1/60` that doubles cannot represent;
 * times on interval boundaries and one double either side of them.
 *
 * @module
 */
import fc from 'fast-check'
import * as E from '#fp-ts/Either.js'
import * as Config from '../config/index.js'
import * as LevelBits from '../level-bits/index.js'
import type { AlarmChoice, Command, CommandKind, HandlerAction, Nudge, TimeChoice } from './commands.js'

// Level bits and configurations.

/**
 * Options of {@link levelBitsArb}.
 *
 * @example
 * const options: LevelBitsArbOptions = { minLevels: 2, maxLevels: 3, maxBitsPerLevel: 8 }
 * fc.assert(fc.property(levelBitsArb(options), (lb) => lb.length >= 2 && lb.length <= 3))
 */
export interface LevelBitsArbOptions {
  /** The least number of levels; default 1. */
  readonly minLevels?: number
  /** The greatest number of levels; default 5. */
  readonly maxLevels?: number
  /** The widest level, at most `LevelBits.maxLevelBits` (24); default 5. */
  readonly maxBitsPerLevel?: number
}

const checkOption = (ok: boolean, message: string): void => {
  if (!ok) throw new RangeError(message)
}

/**
 * Valid level bits: `minLevels` to `maxLevels` levels of 1 to `maxBitsPerLevel` bits,
 * summing to at most `LevelBits.maxNumBits` (other draws are filtered out). Throws a
 * `RangeError` for options no level bits satisfy. Shrinks towards fewer, narrower levels.
 *
 * @example
 * fc.assert(fc.property(levelBitsArb(), (lb) => LevelBits.numBits(lb) <= 52))
 */
export const levelBitsArb = (opts: LevelBitsArbOptions = {}): fc.Arbitrary<LevelBits.LevelBits> => {
  const { minLevels = 1, maxLevels = 5, maxBitsPerLevel = 5 } = opts
  checkOption(
    Number.isInteger(minLevels) && minLevels >= 1 && minLevels <= maxLevels,
    `levelBitsArb: need 1 <= minLevels ${minLevels} <= maxLevels ${maxLevels}`,
  )
  checkOption(
    Number.isInteger(maxBitsPerLevel) && maxBitsPerLevel >= 1 && maxBitsPerLevel <= LevelBits.maxLevelBits,
    `levelBitsArb: maxBitsPerLevel ${maxBitsPerLevel} is not an integer in [1, ${LevelBits.maxLevelBits}]`,
  )
  checkOption(
    minLevels <= LevelBits.maxNumBits,
    `levelBitsArb: minLevels ${minLevels} levels need more than ${LevelBits.maxNumBits} bits`,
  )
  return fc
    .array(fc.integer({ min: 1, max: maxBitsPerLevel }), { minLength: minLevels, maxLength: maxLevels })
    .map((bits) => LevelBits.create(bits))
    .filter(E.isRight)
    .map((valid) => valid.right)
}

/**
 * Options of {@link configArb}: each replaces the default arbitrary of its field.
 *
 * @example
 * const options: ConfigArbOptions = { start: fc.constant(0), alarmPrecision: fc.constantFrom(1, 0.5) }
 * fc.assert(fc.property(configArb(options), (config) => config.start === 0))
 */
export interface ConfigArbOptions {
  /** The clock's start; default 0, small integers, doubles in `±1e6` or epoch milliseconds. */
  readonly start?: fc.Arbitrary<number>
  /** The interval length; default `1`, `0.1`, `1/60`, `2^-10`, `1000`, `1e-3` or doubles in `[1e-3, 1e4]`. */
  readonly alarmPrecision?: fc.Arbitrary<number>
  /** Level bits; default {@link levelBitsArb}`()`, and now and then `LevelBits.default`. */
  readonly levelBits?: fc.Arbitrary<LevelBits.LevelBits>
  /** The capacity, `undefined` for none; default none or up to 100. */
  readonly capacity?: fc.Arbitrary<number | undefined>
}

const defaultStart: fc.Arbitrary<number> = fc.oneof(
  fc.constant(0),
  fc.integer({ min: -100, max: 100 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.double({ min: 1.6e12, max: 1.8e12, noNaN: true }),
)

const defaultLevelBits: fc.Arbitrary<LevelBits.LevelBits> = fc.oneof(
  { weight: 9, arbitrary: levelBitsArb() },
  { weight: 1, arbitrary: fc.constant(LevelBits.default) },
)

const defaultPrecision: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(1, 0.1, 1 / 60, 2 ** -10, 1000, 1e-3),
  fc.double({ min: 1e-3, max: 1e4, noNaN: true }),
)

/**
 * Valid configurations for `TimingWheel.create` and `ReferenceWheel.create`, as
 * `Config.decode` returns them. A draw that `Config.decode` refuses (a precision too fine
 * for its start, from options you passed) is filtered out, so options that are mostly
 * invalid make generation slow. Shrinks towards start 0, small precisions, few levels.
 *
 * @example
 * fc.assert(fc.property(configArb({ alarmPrecision: fc.constant(1) }), (config) => {
 *   expect(TimingWheel.now(TimingWheel.create(config))).toBe(config.start)
 * }))
 */
export const configArb = (opts: ConfigArbOptions = {}): fc.Arbitrary<Config.Config> =>
  fc
    .record({
      start: opts.start ?? defaultStart,
      alarmPrecision: opts.alarmPrecision ?? defaultPrecision,
      levelBits: opts.levelBits ?? defaultLevelBits,
      capacity: opts.capacity ?? fc.option(fc.nat(100), { nil: undefined }),
    })
    .map(({ capacity, ...rest }) => Config.decode(capacity === undefined ? rest : { ...rest, capacity }))
    .filter(E.isRight)
    .map((valid) => valid.right)

// Commands.

/**
 * Options of {@link commandsArb}.
 *
 * @example
 * const options: CommandsArbOptions = { maxCommands: 20, kinds: ['add', 'advanceClock'], invalidTimes: false }
 * fc.assert(fc.property(configArb(), commandsArb(options), (config, commands) => {
 *   runCommands(checkedTimingWheelOps, TimingWheel.create<number>(config), commands)
 * }))
 */
export interface CommandsArbOptions {
  /** The least number of commands; default 0. */
  readonly minCommands?: number
  /** The greatest number of commands; default 50. */
  readonly maxCommands?: number
  /** Which commands to draw; default all six kinds. */
  readonly kinds?: readonly CommandKind[]
  /**
   * Whether alarm times may be invalid (NaN, infinite, before now's interval, at or past
   * `alarmUpperBound`) and clock times not finite; default true. With false, every
   * `add` and `reschedule` time is in range and every advance finite.
   */
  readonly invalidTimes?: boolean
  /** Whether `remove` and `reschedule` may pick alarms that are gone; default true. */
  readonly staleAlarms?: boolean
  /** Whether handlers act (add, remove, reschedule, throw, reenter); default true. */
  readonly handlerActions?: boolean
  /** How many intervals past now's a relative time reaches; default 70. */
  readonly maxAhead?: number
}

const nudgeArb = (values: readonly Nudge[]): fc.Arbitrary<Nudge> => fc.constantFrom(...values)
const fractionArb = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })

/** Times that are always valid for an alarm (see {@link TimeChoice}). */
const validAlarmTimeArb = (maxAhead: number): fc.Arbitrary<TimeChoice> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('intervalStart'), ahead: fc.nat(maxAhead), nudge: nudgeArb([0, 1]) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('withinInterval'), ahead: fc.nat(maxAhead), fraction: fractionArb }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('inAlarmRange'), fraction: fractionArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('now'), nudge: fc.constant<Nudge>(0) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('alarmUpperBound'), nudge: fc.constant<Nudge>(-1) }) },
  )

/** Times at the edges of the valid range, most of them just outside it. */
const edgeTimeArb = (maxAhead: number): fc.Arbitrary<TimeChoice> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('intervalStart'),
      ahead: fc.integer({ min: -2, max: maxAhead }),
      nudge: nudgeArb([-1, 0, 1]),
    }),
    fc.record({ kind: fc.constant('now'), nudge: nudgeArb([-1, 1]) }),
    fc.record({ kind: fc.constant('alarmUpperBound'), nudge: nudgeArb([0, 1]) }),
    fc.record({ kind: fc.constant('far'), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }),
  )

const notFiniteArb: fc.Arbitrary<TimeChoice> = fc.record({
  kind: fc.constant('notFinite'),
  value: fc.constantFrom(Number.NaN, Infinity, -Infinity),
})

const alarmTimeArb = (o: Required<CommandsArbOptions>): fc.Arbitrary<TimeChoice> =>
  o.invalidTimes
    ? fc.oneof(
        { weight: 8, arbitrary: validAlarmTimeArb(o.maxAhead) },
        { weight: 2, arbitrary: edgeTimeArb(o.maxAhead) },
        { weight: 1, arbitrary: notFiniteArb },
      )
    : validAlarmTimeArb(o.maxAhead)

/** Clock times: mostly among the alarms, now and then far ahead, where every level turns over. */
const clockTimeArb = (o: Required<CommandsArbOptions>): fc.Arbitrary<TimeChoice> => {
  const far = fc.record({ kind: fc.constant('far'), fraction: fc.double({ min: 0, max: 1, noNaN: true }) })
  const valid = fc.oneof({ weight: 8, arbitrary: validAlarmTimeArb(o.maxAhead) }, { weight: 1, arbitrary: far })
  // At the end of the representable range `alarmUpperBound` is past it, so edges may be refused.
  return o.invalidTimes
    ? fc.oneof(
        { weight: 9, arbitrary: valid },
        { weight: 2, arbitrary: edgeTimeArb(o.maxAhead) },
        { weight: 1, arbitrary: notFiniteArb },
      )
    : valid
}

const alarmChoiceArb = (o: Required<CommandsArbOptions>): fc.Arbitrary<AlarmChoice> =>
  o.staleAlarms
    ? fc.oneof(
        { weight: 5, arbitrary: fc.record({ kind: fc.constant('live'), index: fc.nat() }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('stale'), index: fc.nat() }) },
      )
    : fc.record({ kind: fc.constant('live'), index: fc.nat() })

const handlerActionArb = (o: Required<CommandsArbOptions>): fc.Arbitrary<HandlerAction> => {
  const at = alarmTimeArb(o)
  return fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('none') }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('add'), at }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove'), index: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reschedule'), index: fc.nat(), at }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('rescheduleSelf'), at }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('throw') }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reenter') }) },
  )
}

const handlersArb = (o: Required<CommandsArbOptions>): fc.Arbitrary<readonly HandlerAction[]> =>
  o.handlerActions ? fc.array(handlerActionArb(o), { maxLength: 4 }) : fc.constant([])

/** Each kind of command with its weight: adds outnumber the rest so that wheels fill up. */
const commandArbs = (o: Required<CommandsArbOptions>): Record<CommandKind, fc.WeightedArbitrary<Command>> => ({
  add: { weight: 6, arbitrary: fc.record({ kind: fc.constant('add'), at: alarmTimeArb(o) }) },
  remove: { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove'), alarm: alarmChoiceArb(o) }) },
  reschedule: {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('reschedule'), alarm: alarmChoiceArb(o), at: alarmTimeArb(o) }),
  },
  advanceClock: {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('advanceClock'), to: clockTimeArb(o), handlers: handlersArb(o) }),
  },
  advanceClockStopAtNextAlarm: {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('advanceClockStopAtNextAlarm'),
      to: clockTimeArb(o),
      handlers: handlersArb(o),
    }),
  },
  firePastAlarms: { weight: 1, arbitrary: fc.record({ kind: fc.constant('firePastAlarms'), handlers: handlersArb(o) }) },
})

const allKinds: readonly CommandKind[] = [
  'add',
  'remove',
  'reschedule',
  'advanceClock',
  'advanceClockStopAtNextAlarm',
  'firePastAlarms',
]

const withDefaults = (opts: CommandsArbOptions): Required<CommandsArbOptions> => ({
  minCommands: 0,
  maxCommands: 50,
  kinds: allKinds,
  invalidTimes: true,
  staleAlarms: true,
  handlerActions: true,
  maxAhead: 70,
  ...opts,
})

/**
 * Lists of {@link Command}s: add, remove, reschedule, advanceClock,
 * advanceClockStopAtNextAlarm and firePastAlarms, with times aimed at interval
 * boundaries and (unless `invalidTimes: false`) just outside the valid range, stale
 * handles (unless `staleAlarms: false`) and handlers that act on the wheel (unless
 * `handlerActions: false`). The commands are plain data: run them with `runCommands`
 * on a wheel, on `ReferenceWheel`, or on your own structure through a `WheelOps`. Throws
 * a `RangeError` for bad options. Shrinks to shorter lists of simpler commands.
 *
 * @example
 * fc.assert(fc.property(configArb(), commandsArb({ maxCommands: 100 }), (config, commands) => {
 *   runCommands(checkedTimingWheelOps, TimingWheel.create<number>(config), commands)
 * }))
 */
export const commandsArb = (opts: CommandsArbOptions = {}): fc.Arbitrary<Command[]> => {
  const o = withDefaults(opts)
  checkOption(o.kinds.length > 0, 'commandsArb: kinds is empty')
  checkOption(
    Number.isInteger(o.minCommands) && o.minCommands >= 0 && o.minCommands <= o.maxCommands,
    `commandsArb: need 0 <= minCommands ${o.minCommands} <= maxCommands ${o.maxCommands}`,
  )
  checkOption(Number.isInteger(o.maxAhead) && o.maxAhead >= 0, `commandsArb: maxAhead ${o.maxAhead} is not a natural number`)
  const arbs = commandArbs(o)
  const command = fc.oneof(...[...new Set(o.kinds)].map((kind) => arbs[kind]))
  // Size 'max': lengths spread up to maxCommands; fast-check's default would keep them near 10.
  return fc.array(command, { minLength: o.minCommands, maxLength: o.maxCommands, size: 'max' })
}
