import { defineConfig } from 'vitest/config'
import { shared, SLOW_TESTS } from './vitest.config.js'

/** `npm run test:slow`: the heavy cases (see the convention in vitest.config.ts). */
export default defineConfig({
  test: {
    ...shared,
    include: SLOW_TESTS,
    // A heavy case is allowed minutes, not the fast run's 30 s.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
})
