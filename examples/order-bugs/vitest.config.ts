import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// `npm run example:order-bugs` runs the tests of this folder only.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
  },
})
