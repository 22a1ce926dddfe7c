import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['spec/**/*.spec.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
})
