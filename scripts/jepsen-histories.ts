/**
 * Checks the published Jepsen etcd histories and Porcupine's key-value histories against
 * their known verdicts (issue 42), from a Porcupine checkout given as the argument (its
 * test data is never committed here):
 *
 *     npm run check:jepsen -- /path/to/porcupine
 *
 * Reading rules the verdicts rely on: a `:fail` compare-and-set failed its compare and
 * changed nothing; an `:info` operation (and one never answered) stays open to the end and
 * may or may not have taken effect. Prints one line per history whose verdict differs, the
 * pass counts and the time; exits 1 on any difference.
 */
import { published } from '../bench/linearizability/published.js'
import { Jepsen, casRegister, checkLinearizable, keyValue } from '../lib/linearizability/index.js'

const histories = published(process.argv[2])
const counts = { util: [0, 0], edn: [0, 0] }
const t0 = performance.now()
for (const h of histories) {
  const history = h.format === 'util' ? Jepsen.readUtilLog(h.text) : Jepsen.readEdn(h.text)
  const r = checkLinearizable(history, h.format === 'util' ? casRegister() : keyValue(''))
  const count = counts[h.format]
  count[1]!++
  if ((r.kind === 'ok') === h.linearizable) count[0]!++
  else console.log(`${h.name}: expected ${h.linearizable ? 'ok' : 'illegal'}, got ${r.kind}`)
}
console.log(`etcd (jepsen.util logs, cas register): ${counts.util[0]} of ${counts.util[1]} give their known verdict`)
console.log(`kv (EDN, key-value map by key): ${counts.edn[0]} of ${counts.edn[1]} give their known verdict`)
console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s in all, reading included`)
if (counts.util[0] !== counts.util[1] || counts.edn[0] !== counts.edn[1]) process.exit(1)
