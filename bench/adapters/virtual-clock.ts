/**
 * `timing-wheel/sim`'s VirtualClock, loaded when it exists. The specifier is a variable so
 * that neither the type checker nor a bundler insists on the module before it is written.
 */
import type { Clock, ClockImpl } from '../adapter.js'

const simModule: string = '../../lib/sim/index.js'

interface SimModule {
  readonly VirtualClock: { readonly create: () => Clock }
}

const isSimModule = (m: unknown): m is SimModule =>
  typeof m === 'object' &&
  m !== null &&
  typeof (m as { VirtualClock?: { create?: unknown } }).VirtualClock?.create === 'function'

/** The VirtualClock implementation, or the reason it cannot be measured yet. */
export const loadVirtualClock = async (): Promise<ClockImpl | string> => {
  let m: unknown
  try {
    m = await import(simModule)
  } catch (e) {
    const code = (e as { code?: unknown }).code
    if (code === 'ERR_MODULE_NOT_FOUND' || /Cannot find module|Failed to load/.test(String(e))) {
      return 'pending: VirtualClock not yet available'
    }
    throw e
  }
  if (!isSimModule(m)) return 'pending: VirtualClock not yet available'
  const create = m.VirtualClock.create
  return { name: 'VirtualClock', create: () => create() }
}
