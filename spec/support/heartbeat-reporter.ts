/**
 * A Vitest reporter that speaks when the default one would be silent: every 5 s without a
 * finished file, it names the files still running and for how long, or, when none has
 * started, how many are queued. A file of long property runs prints nothing until it ends,
 * and a silent minute reads as a hang. Once the run has ended it says so, and if the
 * process is still alive after Vitest's own teardown limit, it names what keeps it (its
 * child processes and open handles): a CI log that ends in silence tells nothing.
 */
import { execFileSync } from 'node:child_process'
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node'

const quiet = 5_000

export default class HeartbeatReporter implements Reporter {
  private readonly queued = new Set<string>()
  private readonly started = new Map<string, number>()
  private last = Date.now()
  private timer: ReturnType<typeof setInterval> | undefined
  private teardown = 10_000

  onInit(vitest: Vitest): void {
    this.teardown = vitest.config.teardownTimeout
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    for (const s of specifications) this.queued.add(s.moduleId)
    this.last = Date.now()
    this.timer = setInterval(() => this.beat(), 1_000)
    this.timer.unref()
  }

  onTestModuleStart(module: TestModule): void {
    this.queued.delete(module.moduleId)
    this.started.set(module.moduleId, Date.now())
  }

  onTestModuleEnd(module: TestModule): void {
    this.queued.delete(module.moduleId)
    this.started.delete(module.moduleId)
    this.last = Date.now()
  }

  onTestRunEnd(): void {
    clearInterval(this.timer)
    const ended = Date.now()
    // Vitest exits by itself `teardownTimeout` after the run; past twice that, say who holds it.
    setTimeout(() => this.holding(ended), 2 * this.teardown + 5_000).unref()
  }

  private beat(): void {
    const now = Date.now()
    if (now - this.last < quiet) return
    this.last = now
    const name = (id: string): string => id.slice(id.lastIndexOf('/spec/') + 1)
    const files = [...this.started].map(([id, at]) => `${name(id)} (${Math.round((now - at) / 1000)} s)`)
    process.stdout.write(
      files.length > 0
        ? `  ... still running: ${files.join(', ')}\n`
        : `  ... no file running; ${this.queued.size} queued${this.queued.size > 0 ? ` (${[...this.queued].slice(0, 3).map(name).join(', ')}${this.queued.size > 3 ? ', ...' : ''})` : ''}\n`,
    )
  }

  private holding(ended: number): void {
    const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles().map((h) => h.constructor.name)
    let children = ''
    try {
      children = execFileSync('ps', ['-o', 'pid,stat,etime,pcpu,args', '--ppid', String(process.pid)], { encoding: 'utf8' })
    } catch {
      children = '(ps failed)'
    }
    process.stdout.write(
      `  ... the run ended ${Math.round((Date.now() - ended) / 1000)} s ago and Vitest has not exited. Open handles: ${handles.join(', ')}\n${children}`,
    )
  }
}
