/**
 * The lease table, property-tested with `timing-wheel/testing` as a user of the package
 * would: generated commands run on the table (seen as a wheel through a `WheelOps`) and on
 * `ReferenceWheel`, a plainly correct model, and the two traces must be equal; after every
 * command `checkGuarantees` looks inside the table's wheel.
 *
 * `npm run example:property-test`; `SEED=7 RUNS=1000 npm run example:property-test` to
 * look further.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TimingWheel } from 'timing-wheel'
import {
  ReferenceWheel,
  type WheelOps,
  checkGuarantees,
  commandsArb,
  configArb,
  referenceWheelOps,
  runCommands,
} from 'timing-wheel/testing'
import * as LeaseTable from './lease-table.js'

// A fixed seed checks the same cases on every run, and prints the same summary.
const seed = Number(process.env.SEED ?? 42)
const numRuns = Number(process.env.RUNS ?? 200)

type Table = LeaseTable.LeaseTable<number>

const unsupported = (): never => {
  throw new Error('the lease table has no such operation')
}

/**
 * The table seen as a wheel: a grant is an add (the key is the value `runCommands` hands
 * out), a renewal a reschedule, a release a remove, `expire` an advance. Times are read
 * from the table's wheel, so that the commands aim at its interval boundaries.
 */
const leaseTableOps: WheelOps<Table, number> = {
  now: (l) => TimingWheel.now(l.wheel),
  nowIntervalNum: (l) => TimingWheel.nowIntervalNum(l.wheel),
  maxAllowedAlarmIntervalNum: (l) => TimingWheel.maxAllowedAlarmIntervalNum(l.wheel),
  maxIntervalNum: (l) => TimingWheel.maxIntervalNum(l.wheel),
  intervalNumStart: (l, k) => TimingWheel.intervalNumStart(l.wheel, k),
  alarmUpperBound: (l) => TimingWheel.alarmUpperBound(l.wheel),
  nextAlarmFiresAt: (l) => TimingWheel.nextAlarmFiresAt(l.wheel),
  toArray: LeaseTable.holders,
  mem: LeaseTable.holds,
  alarmAt: LeaseTable.expiresAt,
  alarmValue: (_, key) => key,
  add: (l, until, key) => {
    LeaseTable.grant(l, key, until)
    return key
  },
  remove: LeaseTable.release,
  reschedule: LeaseTable.renew,
  advanceClock: (l, to, onExpired) => {
    for (const key of LeaseTable.expire(l, to)) onExpired(key)
  },
  advanceClockStopAtNextAlarm: unsupported,
  firePastAlarms: unsupported,
  afterCommand: (l) => {
    checkGuarantees(l.wheel)
    expect(l.leases.size).toBe(TimingWheel.length(l.wheel))
  },
}

// Only what the table can do; a released key is gone from the table, so no stale handles.
const leaseCommands = commandsArb({
  kinds: ['add', 'remove', 'reschedule', 'advanceClock'],
  staleAlarms: false,
  handlerActions: false,
})

describe('the lease table', () => {
  it('expires exactly what a plainly correct wheel fires', () => {
    let lists = 0
    let commands = 0
    let expired = 0
    fc.assert(
      fc.property(configArb(), leaseCommands, (config, cmds) => {
        const table = runCommands(leaseTableOps, LeaseTable.create<number>(config), cmds)
        const model = runCommands(referenceWheelOps, ReferenceWheel.create<number>(config), cmds)
        expect(table).toEqual(model)
        lists++
        commands += cmds.length
        expired += table.reduce((n, step) => n + step.fired.length, 0)
      }),
      { seed, numRuns },
    )
    console.log(`lease table: ${lists} command lists, ${commands} commands, ${expired} leases expired (seed ${seed})`)
  })

  it('keeps a renewed lease until its new time', () => {
    const table = LeaseTable.create<string>({ alarmPrecision: 1 })
    LeaseTable.grant(table, 'a', 100)
    LeaseTable.grant(table, 'b', 150)
    LeaseTable.renew(table, 'a', 200)
    expect(LeaseTable.expire(table, 160)).toEqual(['b'])
    expect(LeaseTable.holders(table)).toEqual(['a'])
    expect(LeaseTable.expire(table, 201)).toEqual(['a'])
  })

  it('refuses a second lease on a key and a lease in the past', () => {
    const table = LeaseTable.create<string>({ start: 50, alarmPrecision: 1 })
    LeaseTable.grant(table, 'a', 60)
    expect(() => LeaseTable.grant(table, 'a', 70)).toThrow(/already holds/)
    expect(() => LeaseTable.grant(table, 'b', 10)).toThrow(/TimeOutOfRange/)
    expect(LeaseTable.holds(table, 'b')).toBe(false)
  })
})
