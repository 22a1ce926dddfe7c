/**
 * The reference documentation's shape: TypeDoc renders everything after `@example` up to
 * the next tag as code, so prose that follows an example shows as code. Every example
 * must close its comment's prose (followed by other tags at most).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const lib = fileURLToPath(new URL('../lib', import.meta.url))
const sources = readdirSync(lib, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))

it('puts every @example after the prose of its comment', () => {
  const misplaced: string[] = []
  for (const file of sources) {
    const text = readFileSync(join(lib, file), 'utf8')
    for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
      const lines = comment[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, ''))
      const example = lines.findIndex((line) => line.startsWith('@example'))
      if (example === -1) continue
      // Code may have blank lines; a sentence after one ("A no-op if", "Throws", "`to` is")
      // is prose that belongs before the example.
      const prose = lines.slice(example + 1).find((line, i, rest) => i > 0 && rest[i - 1]!.trim() === '' && /^([A-Z][a-z]*[ :,]|`)/.test(line))
      if (prose !== undefined) misplaced.push(`${file}:${text.slice(0, comment.index).split('\n').length}: ${prose}`)
    }
  }
  expect(misplaced).toEqual([])
})
