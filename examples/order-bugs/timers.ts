/** The timer functions the code below is written against: the host's, a fake clock's, or an exploring clock's. */
export interface Timers {
  readonly now: number
  readonly setTimeout: (callback: () => void, ms: number) => unknown
  readonly clearTimeout: (id: unknown) => void
  readonly setInterval: (callback: () => void, ms: number) => unknown
  readonly clearInterval: (id: unknown) => void
}
