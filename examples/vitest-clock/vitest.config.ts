import { defineConfig } from 'vitest/config'

// The example's own configuration, so that `npm run example:vitest-clock` runs just it.
export default defineConfig({ test: { include: ['examples/vitest-clock/**/*.test.ts'] } })
