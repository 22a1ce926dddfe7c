import { defineConfig } from 'vitest/config'

// The one line that moves vi's timers onto the wheel is `setupFiles`; the rest makes
// `npm run example:vitest-clock` run just this example.
export default defineConfig({
  test: { include: ['examples/vitest-clock/**/*.test.ts'], setupFiles: ['timing-wheel/vitest/setup'] },
})
