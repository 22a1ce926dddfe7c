import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Vitest leaves a core to its main process, which here sits idle: on the 2-core
    // machines CI runs on that is one worker, and the suite's files would run one at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The default reporter, and a line every 5 s while a file runs with nothing finished.
    reporters: ['default', './spec/support/heartbeat-reporter.ts'],
    projects: [
      {
        extends: true,
        // spec/heavy/: a minute or more each; `npm run test:heavy` (vitest.heavy.config.ts).
        test: { name: 'spec', include: ['spec/**/*.spec.ts'], exclude: [...configDefaults.exclude, 'spec/heavy/**'] },
      },
      {
        // Tests written for Vitest's own fake timers, run with the one setup line (the built
        // dist/: npm test builds first) and a fakeTimers config the tests read back.
        extends: true,
        test: {
          name: 'vitest-setup',
          include: ['spec/vitest-setup/**/*.test.ts'],
          setupFiles: ['timing-wheel/vitest/setup'],
          fakeTimers: { loopLimit: 50, shouldClearNativeTimers: true },
        },
      },
    ],
  },
})
