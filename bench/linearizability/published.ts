/**
 * The published histories with known verdicts, read from a Porcupine checkout (never
 * committed here): the Jepsen etcd logs `test_data/jepsen/etcd_NNN.log` whose verdict a
 * `checkJepsen(t, N, verdict)` line of its `porcupine_test.go` states, and the key-value
 * histories `test_data/kv/*.txt` with the verdicts of its `checkKv(t, name, verdict, true)`
 * lines. The verdicts are read from that test file, not written down here.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** One history: its name, format, text, and whether it is linearizable. */
export interface Published {
  readonly name: string
  /** `util`: jepsen.util log lines, checked with the cas register; `edn`: kv maps, with the key-value map. */
  readonly format: 'util' | 'edn'
  readonly text: string
  readonly linearizable: boolean
}

export const published = (checkout: string | undefined): Published[] => {
  if (checkout === undefined) {
    throw new Error('usage: give the path of a Porcupine checkout (github anishathalye/porcupine), the folder holding porcupine_test.go')
  }
  const tests = readFileSync(join(checkout, 'porcupine_test.go'), 'utf8')
  const etcd = [...tests.matchAll(/checkJepsen\(t, (\d+), (true|false)\)/g)].map((m) => {
    const name = `etcd_${m[1]!.padStart(3, '0')}`
    return { name, format: 'util' as const, text: readFileSync(join(checkout, 'test_data', 'jepsen', `${name}.log`), 'utf8'), linearizable: m[2] === 'true' }
  })
  const kv = [...tests.matchAll(/checkKv\(t, "([^"]+)", (true|false), true\)/g)].map((m) => ({
    name: `kv ${m[1]!}`,
    format: 'edn' as const,
    text: readFileSync(join(checkout, 'test_data', 'kv', `${m[1]!}.txt`), 'utf8'),
    linearizable: m[2] === 'true',
  }))
  if (etcd.length === 0 || kv.length === 0) throw new Error(`no checkJepsen or checkKv verdicts found in ${join(checkout, 'porcupine_test.go')}`)
  return [...etcd, ...kv]
}
