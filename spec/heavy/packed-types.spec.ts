/**
 * The packed package's types as each `moduleResolution` resolves them: a consumer importing
 * every entry is type-checked by tsc per resolution. A tsc run each (about 10 s alone, 40 s
 * beside the suite), so not in `npm test`: `npm run test:heavy` runs it, and CI does.
 */
import { mkdirSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { type PackedProject, bin, env, esmOnly, exec, packedProject } from '../support/packed-project.js'

let packed: PackedProject

beforeAll(async () => {
  packed = await packedProject()
}, 60_000)

describe('the packed package’s types', () => {
  it.each([
    ['node16', 'node16', 'mts'],
    ['nodenext', 'nodenext', 'mts'],
    ['bundler', 'esnext', 'ts'],
    ['node', 'commonjs', 'ts'],
    ['node16', 'node16', 'cts'],
  ])('resolves its types under moduleResolution %s (module %s, a .%s file)', async (resolution, module, ext) => {
    const dir = `types-${resolution}-${ext}`
    mkdirSync(`${packed.dir}/${dir}`)
    // fast-check's own declarations need `exports` (pure-rand's), which resolution `node`
    // ignores: its users type-check timing-wheel/testing, /simulation and /campaign under the other resolutions.
    const skip = (e: string): boolean => (ext === 'cts' && esmOnly.has(e)) || (resolution === 'node' && (e === 'timing-wheel/testing' || e === 'timing-wheel/simulation' || e === 'timing-wheel/campaign'))
    const imports = packed.entries.filter((e) => !skip(e)).map((e, i) => `import * as M${i} from '${e}'\nvoid M${i}`)
    packed.write(
      `${dir}/consumer.${ext}`,
      `${imports.join('\n')}
import { PriorityQueue, TimingWheel } from 'timing-wheel'
import type { Option } from 'fp-ts/lib/Option.js'
const t = TimingWheel.create<string>({ alarmPrecision: 1 })
const next: Option<number> = TimingWheel.nextAlarmFiresAt(t)
// @ts-expect-error an Option is not a number: the fp-ts types resolved
const wrong: number = next
// @ts-expect-error the wheel's fields are not published
t.now = -123
// @ts-expect-error a wheel of strings is not a wheel of numbers
const numbers: TimingWheel.TimingWheel<number> = t
// @ts-expect-error nor is any object a queue
const queue: PriorityQueue.PriorityQueue<string> = {}
void wrong, numbers, queue
`,
    )
    packed.write(
      `${dir}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          module,
          moduleResolution: resolution,
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          ...(resolution === 'node' ? { ignoreDeprecations: '6.0' } : {}),
        },
        include: [`consumer.${ext}`],
      }),
    )
    const run = exec(bin('tsc'), ['-p', dir], { cwd: packed.dir, env })
    await expect(run.catch((e: { stdout: string }) => Promise.reject(new Error(e.stdout)))).resolves.toBeDefined()
  }, 60_000)

})
