import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['spec/**/*.spec.ts'],
    // Vitest leaves a core to its main process, which here sits idle: on the 2-core
    // machines CI runs on that is one worker, and the suite's files would run one at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
})
