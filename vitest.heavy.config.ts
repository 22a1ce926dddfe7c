import { defineConfig } from 'vitest/config'

// `npm run test:heavy`: the checks too slow for `npm test` (minutes on a shared 2-core
// machine), on the dist/ that `npm test` built. CI runs it after `npm test`.
export default defineConfig({
  test: {
    include: ['spec/heavy/**/*.spec.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ['verbose', './spec/support/heartbeat-reporter.ts'],
  },
})
