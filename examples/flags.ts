/** The `--name N` flags of an example's command line: positive integers, each with a default. */
import { parseArgs } from 'node:util'

export const positiveFlags = <K extends string>(defaults: Record<K, number>): Record<K, number> => {
  const names = Object.keys(defaults) as K[]
  const { values } = parseArgs({ options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])) })
  const flags = { ...defaults }
  for (const name of names) {
    const given = (values as Record<string, string | undefined>)[name]
    if (given === undefined) continue
    const value = Number(given)
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} ${given} is not valid: a positive integer`)
    flags[name] = value
  }
  return flags
}
