/** `timing-wheel/game`: one clock, the far timers with `after`, the busy ones with `every`. */
import { Game } from '../../dist/lib/game/index.js'
import type { GameImpl } from '../adapter.js'

export const game: GameImpl = {
  name: 'timing-wheel/game',
  create: (load, onBusy) => {
    const g = Game.create({ stepMs: load.frameMs, handlers: { far: () => {}, busy: (e) => onBusy(e.time) }, maxStepsPerUpdate: 1 })
    for (let i = 0; i < load.far.length; i++) Game.after(g, Game.root, load.far[i]!, 'far')
    for (let i = 0; i < load.busy; i++) {
      Game.every(g, Game.root, load.period, 'busy', null, { delayMs: ((i + 0.5) * load.period) / load.busy })
    }
    return { frame: () => Game.step(g) }
  },
}
