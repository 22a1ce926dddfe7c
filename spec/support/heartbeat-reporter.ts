/**
 * A Vitest reporter that speaks when the default one would be silent: every 5 s without a
 * finished file, it names the files still running and for how long. A file of long
 * property runs prints nothing until it ends, and a silent minute reads as a hang.
 */
import type { Reporter, TestModule } from 'vitest/node'

const quiet = 5_000

export default class HeartbeatReporter implements Reporter {
  private readonly started = new Map<string, number>()
  private last = Date.now()
  private timer: ReturnType<typeof setInterval> | undefined

  onTestRunStart(): void {
    this.last = Date.now()
    this.timer = setInterval(() => this.beat(), 1_000)
    this.timer.unref()
  }

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.moduleId, Date.now())
  }

  onTestModuleEnd(module: TestModule): void {
    this.started.delete(module.moduleId)
    this.last = Date.now()
  }

  onTestRunEnd(): void {
    clearInterval(this.timer)
  }

  private beat(): void {
    const now = Date.now()
    if (now - this.last < quiet || this.started.size === 0) return
    this.last = now
    const files = [...this.started].map(([id, at]) => `${id.slice(id.lastIndexOf('/spec/') + 1)} (${Math.round((now - at) / 1000)} s)`)
    process.stdout.write(`  ... still running: ${files.join(', ')}\n`)
  }
}
