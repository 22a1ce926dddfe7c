/**
 * `npm run docs` runs this after TypeDoc: every exported function, variable, class,
 * interface, type alias, enum and namespace, and every member of an exported namespace, that
 * the package entries reach (typedoc.json's entryPoints) has a doc comment with an
 * `@example`. Interface and class members need none: their owner carries the example.
 *
 * It converts the project with TypeDoc's own API and options, so "reachable" means what
 * the reference shows, re-exports counted once. The file each item is declared in comes
 * from its TypeScript symbol, which TypeDoc keeps even with `disableSources`.
 *
 * `pending` lists the files other issues are rewriting at the time of writing; their items
 * are reported but do not fail the check. Empty it once those rewrites have landed.
 *
 * Exit code 1 names each item without an example and its file; 0 says how many it checked.
 */
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Application, ReflectionKind } from 'typedoc'

const root = fileURLToPath(new URL('..', import.meta.url))

const pending = []

const checked =
  ReflectionKind.Function |
  ReflectionKind.Variable |
  ReflectionKind.Class |
  ReflectionKind.Interface |
  ReflectionKind.TypeAlias |
  ReflectionKind.Enum |
  ReflectionKind.Namespace

const app = await Application.bootstrapWithPlugins({
  // The conversion only: no validation output, HTML or JSON (`typedoc` did those).
  treatWarningsAsErrors: false,
  validation: { notExported: false, invalidLink: false, notDocumented: false },
  logLevel: 'Error',
})
const project = await app.convert()
if (project === undefined) {
  console.error('doc-examples: TypeDoc could not convert the project (run npm run docs for why)')
  process.exit(1)
}

const hasExample = (reflection) =>
  reflection.comment?.getTag('@example') !== undefined ||
  (reflection.signatures ?? []).some((s) => s.comment?.getTag('@example') !== undefined)

// Members of classes and interfaces are not checked, those of namespaces are: a namespace's
// members are the package's functions and types under another name (`Sim.install`).
const inNamespaceOrModule = (reflection) =>
  reflection.parent !== undefined && reflection.parent.kindOf(ReflectionKind.SomeModule | ReflectionKind.Project)

const missing = []
const waiting = []
let count = 0
for (const reflection of project.getReflectionsByKind(checked)) {
  if (!inNamespaceOrModule(reflection)) continue
  count++
  if (hasExample(reflection)) continue
  const fileName = project.getSymbolIdFromReflection(reflection)?.fileName
  const file = fileName === undefined ? '(unknown file)' : relative(root, fileName)
  const line = `${file}: ${ReflectionKind.singularString(reflection.kind)} ${reflection.getFriendlyFullName()}`
  ;(pending.some((p) => file.startsWith(p)) ? waiting : missing).push(line)
}

if (waiting.length > 0) {
  console.log(`doc-examples: ${waiting.length} items in files still being rewritten (not failing):`)
  for (const line of waiting.sort()) console.log(`  ${line}`)
}
if (missing.length > 0) {
  console.error(`doc-examples: ${missing.length} of ${count} exported items have no @example:`)
  for (const line of missing.sort()) console.error(`  ${line}`)
  process.exit(1)
}
console.log(`doc-examples: ${count - waiting.length} of ${count} exported items have an @example`)
