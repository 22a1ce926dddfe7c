/**
 * Finishes dist/ after `tsc` has written the ES modules and declarations to dist/lib:
 *
 * - fp-ts is imported as `#fp-ts/*` (and io-ts as `#io-ts`, whose `main` is CommonJS too), which package.json maps to its ES modules wherever the
 *   `module` condition is set (esbuild, Vite, webpack and Rollup set it for every platform:
 *   the only form they can tree-shake) and to its CommonJS build under Node (whose
 *   runtime knows no `module` condition, and fp-ts' es6/ is not marked as ES modules). Published
 *   declarations name `fp-ts/lib/*` instead, so they resolve under every moduleResolution,
 *   `node` (which has no subpath imports) included.
 * - The JavaScript is printed again by esbuild, without comments: the declarations keep
 *   every doc comment for editors, and no source maps are shipped, so the package is
 *   what users run and read (sizes against fake-timers in the CHANGELOG).
 * - dist/cjs holds the same modules as CommonJS, with declarations, for `require` (Node
 *   20.0 to 20.18 cannot require an ES module, and Jest's module system never can). Built
 *   for the node platform, so each file ends with the annotation of its export names that
 *   Node's cjs-module-lexer reads: an `import` of the CommonJS build sees named exports.
 */
import { transformSync } from 'esbuild'
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const esm = join(root, 'dist', 'lib')
const cjs = join(root, 'dist', 'cjs')

const toFpTsLib = (code) => code.replaceAll(`'#fp-ts/`, `'fp-ts/lib/`).replaceAll(`'#io-ts'`, `'io-ts'`)
const write = (file, text) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

for (const file of readdirSync(esm, { recursive: true }).map((f) => join(esm, f))) {
  const target = join(cjs, relative(esm, file))
  // Vitest is ES modules only, and so are its entries (package.json exports no require).
  const esmOnly = relative(esm, file).startsWith(`vitest${sep}`)
  if (file.endsWith('.d.ts')) {
    const declarations = toFpTsLib(readFileSync(file, 'utf8'))
    writeFileSync(file, declarations)
    if (!esmOnly) write(target, declarations)
  } else if (file.endsWith('.js')) {
    const source = readFileSync(file, 'utf8')
    writeFileSync(file, transformSync(source, { format: 'esm', platform: 'node', target: 'es2022', loader: 'js' }).code)
    if (esmOnly) continue
    const code = toFpTsLib(source)
    // A module exporting a value as 'module.exports' (what Node's require of an ES module
    // returns) is that value when required from the CommonJS build too.
    const own = /as ['"]module\.exports['"]/.test(code) ? `module.exports = module.exports['module.exports']\n` : ''
    let cjsCode = transformSync(code, { format: 'cjs', platform: 'node', target: 'es2022', loader: 'js' }).code
    // That value is the module itself, so it is no export name of its own.
    if (own) cjsCode = cjsCode.replace(/^\s*"module\.exports": null,\n/m, '')
    write(target, cjsCode + own)
  }
}
write(join(cjs, 'package.json'), '{ "type": "commonjs" }\n')
// Last: what scripts/built.mjs compares lib/ against.
write(join(root, 'dist', '.built'), `${new Date().toISOString()}\n`)
