/**
 * `@colyseus/timer`'s ClockTimer, which walks every timer on every tick (as Phaser's clock
 * does), told the loop's time instead of reading the real one.
 */
import { ClockTimer } from '@colyseus/timer'
import type { GameImpl } from '../adapter.js'

export const colyseus: GameImpl = {
  name: '@colyseus/timer',
  create: (load, onBusy) => {
    let now = 0
    const timer = new ClockTimer(false)
    ;(timer as unknown as { now: () => number }).now = () => now
    timer.tick()
    for (let i = 0; i < load.far.length; i++) timer.setTimeout(() => {}, load.far[i]!)
    // Its intervals restart from the tick that fired them and drift; each firing arms the next exactly.
    const arm = (due: number): void =>
      void timer.setTimeout(() => {
        onBusy(due)
        arm(due + load.period)
      }, due - now)
    for (let i = 0; i < load.busy; i++) arm(((i + 0.5) * load.period) / load.busy)
    let frames = 0
    return {
      frame: () => {
        now = ++frames * load.frameMs
        timer.tick()
      },
    }
  },
}
