/**
 * The package as users import it: by name, through `exports`, from the built `dist/`.
 * `npm test` builds first, so this checks what would be published.
 */
import { describe, expect, it } from 'vitest'

describe('the package entry points', () => {
  it('timing-wheel exports the contract names', async () => {
    const pkg = await import('timing-wheel')
    for (const name of ['LevelBits', 'PriorityQueue', 'Elt', 'TimingWheelError']) {
      expect(pkg, name).toHaveProperty(name)
    }
    const pq = pkg.PriorityQueue.create<string>()
    pkg.PriorityQueue.add(pq, 1, 'x')
    expect(pkg.PriorityQueue.length(pq)).toBe(1)
  })

  it('importing timing-wheel does not load fast-check', async () => {
    const { files, packages } = await importGraph('timing-wheel')
    expect(files.size).toBeGreaterThan(3)
    expect([...packages].sort()).toEqual(['fp-ts', 'io-ts'])
  })

  it('timing-wheel/testing loads fast-check, its peer dependency', async () => {
    const { packages } = await importGraph('timing-wheel/testing')
    expect([...packages].sort()).toEqual(['fast-check', 'fp-ts', 'io-ts'])
    const pkg = JSON.parse(await (await import('node:fs/promises')).readFile(new URL('../package.json', import.meta.url), 'utf8'))
    // Each peer is needed by one entry only, so every one is optional.
    expect(pkg.peerDependencies).toMatchObject({ 'fast-check': '^4' })
    for (const peer of Object.keys(pkg.peerDependencies)) expect(pkg.peerDependenciesMeta[peer]).toEqual({ optional: true })
  })

  it('timing-wheel/simulation loads pure-rand, its dependency, and not fast-check (faultScheduleArb loads it when called)', async () => {
    const { packages } = await importGraph('timing-wheel/simulation')
    expect([...packages].sort()).toEqual(['fp-ts', 'node:async_hooks', 'node:fs', 'node:module', 'pure-rand'])
    const { Simulation } = await import('timing-wheel/simulation')
    expect(Simulation.integer(Simulation.create({ seed: 1 }), 1, 6)).toBe(Simulation.integer(Simulation.create({ seed: 1 }), 1, 6))
  })

  it('timing-wheel/linearizability loads edn-data and io-ts, its dependencies, and not the simulation', async () => {
    const { files, packages } = await importGraph('timing-wheel/linearizability')
    expect([...packages].sort()).toEqual(['edn-data', 'fp-ts', 'io-ts'])
    expect([...files].some((f) => f.includes('/simulation/'))).toBe(false)
    const { checkLinearizable, register } = await import('timing-wheel/linearizability')
    expect(checkLinearizable([], register()).kind).toBe('ok')
  })

  it('timing-wheel/testing exports the contract names', async () => {
    const testing = await import('timing-wheel/testing')
    for (const name of ['levelBitsArb', 'configArb', 'commandsArb', 'ReferenceWheel', 'checkGuarantees', 'runCommands']) {
      expect(testing, name).toHaveProperty(name)
    }
    const { TimingWheel } = await import('timing-wheel')
    const config = { alarmPrecision: 1 }
    const commands = [{ kind: 'add', at: { kind: 'now', nudge: 0 } }] as const
    expect(testing.runCommands(testing.checkedTimingWheelOps, TimingWheel.create<number>(config), commands)).toEqual(
      testing.runCommands(testing.referenceWheelOps, testing.ReferenceWheel.create<number>(config), commands),
    )
  })
})

/** The built files an entry point loads and the packages they import, by walking `dist/`. */
const importGraph = async (specifier: string): Promise<{ files: Set<string>; packages: Set<string> }> => {
  const { readFileSync } = await import('node:fs')
  const { dirname, resolve } = await import('node:path')
  const { fileURLToPath } = await import('node:url')
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string): void => {
    if (files.has(file)) return
    files.add(file)
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?from\s*["']([^"']+)["']/gm)) {
      if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!))
      else packages.add(spec!.replace(/^#/, '').split('/')[0]!)
    }
  }
  visit(fileURLToPath(import.meta.resolve(specifier)))
  // `#fp-ts/*` is the package's own map to fp-ts (package.json "imports").
  return { files, packages }
}
