/** The loop most engines write: a list of timers, every one checked every frame. */
import type { GameImpl } from '../adapter.js'

export const frameScan: GameImpl = {
  name: 'per-frame scan',
  create: (load, onBusy) => {
    const timers: Array<{ due: number; period: number }> = []
    for (let i = 0; i < load.far.length; i++) timers.push({ due: load.far[i]!, period: 0 })
    for (let i = 0; i < load.busy; i++) timers.push({ due: ((i + 0.5) * load.period) / load.busy, period: load.period })
    let frames = 0
    return {
      frame: () => {
        const now = ++frames * load.frameMs
        for (let i = 0; i < timers.length; i++) {
          const t = timers[i]!
          while (t.due <= now) {
            if (t.period === 0) {
              t.due = Infinity
            } else {
              onBusy(t.due)
              t.due += t.period
            }
          }
        }
      },
    }
  },
}
