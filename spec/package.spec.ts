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
    // Walk the built import graph from the main entry and collect the packages it loads.
    const { readFileSync } = await import('node:fs')
    const { dirname, resolve } = await import('node:path')
    const { fileURLToPath } = await import('node:url')
    const entry = fileURLToPath(import.meta.resolve('timing-wheel'))
    const seen = new Set<string>()
    const packages = new Set<string>()
    const visit = (file: string): void => {
      if (seen.has(file)) return
      seen.add(file)
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?from\s*'([^']+)'/gm)) {
        if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!))
        else packages.add(spec!.split('/')[0]!)
      }
    }
    visit(entry)
    expect(seen.size).toBeGreaterThan(3)
    expect([...packages].sort()).toEqual(['fp-ts', 'io-ts'])
  })
})
