/**
 * `npm install` in a clone (the `prepare` script), `npm test`, `npm start`, `npm run bench`
 * and the examples run this before they use dist/: it builds dist/ only when it is not
 * current, that is when dist/.built (written by scripts/build.mjs as a build's last
 * step) is missing or older than a file the build reads: lib/, the tsconfigs, the build
 * script, package.json. A build takes 10 to 40 s on a shared 2-core machine; a check,
 * milliseconds. Says which it did, so the wait before the first line is never unexplained.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const mtime = (file) => {
  try {
    return statSync(join(root, file)).mtimeMs
  } catch {
    return undefined
  }
}
const inputs = [
  ...readdirSync(join(root, 'lib'), { recursive: true }).map((f) => join('lib', f)),
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'package.json',
]
const built = mtime('dist/.built')
const changed = built === undefined ? undefined : inputs.find((f) => (mtime(f) ?? 0) > built)
if (built !== undefined && changed === undefined) {
  console.log('dist/ is current (no change in lib/ since the last build): not rebuilding.')
} else {
  console.log(built === undefined ? 'Building dist/ (not built yet): tsc, then esbuild.' : `Building dist/ (${changed} changed since the last build): tsc, then esbuild.`)
  // Through parallel.mjs, which says every 5 s that the build is still running.
  const { status } = spawnSync(process.execPath, [join(root, 'scripts', 'parallel.mjs'), 'build'], { cwd: root, stdio: 'inherit' })
  if (status !== 0) process.exit(status ?? 1)
}
