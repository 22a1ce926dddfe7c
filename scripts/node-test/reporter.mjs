/**
 * A `node --test` reporter for scripts/node-test-suite.mjs: one JSON line per test
 * result (its full name, from the `test:start` events before it) and the probe's lines
 * from the test files' stderr (see probe.mjs).
 */
export default async function* reporter(source) {
  const path = new Map()
  for await (const event of source) {
    const { type, data } = event
    if (type === 'test:start') {
      const names = path.get(data.file) ?? []
      names.length = data.nesting
      names.push(data.name)
      path.set(data.file, names)
    } else if (type === 'test:pass' || type === 'test:fail') {
      const names = [...(path.get(data.file) ?? []).slice(0, data.nesting), data.name]
      const error = data.details?.error
      yield `${JSON.stringify({ result: type === 'test:pass' ? 'pass' : 'fail', file: data.file, name: names.join(' > '), suite: data.details?.type === 'suite', error: error ? String(error.cause?.message ?? error.message).split('\n')[0] : undefined })}\n`
    } else if (type === 'test:stderr' && String(data.message).startsWith('node-test-probe ')) {
      yield `${String(data.message).trim()}\n`
    }
  }
}
