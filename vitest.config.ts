import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

/**
 * Two runs, one convention:
 * - `npm test` (this file) runs every test/**\/*.test.ts except the slow ones: a new test file
 *   lands here by default, and is expected to keep this run under 90 s on 2 cores.
 * - `npm run test:slow` (vitest.slow.config.ts) runs the files named *.slow.test.ts or placed
 *   under test/slow/: the heavy cases (100,000 resources, the full fuzz run, the full fault matrix).
 *   Each heavy family keeps a smaller share in the fast run, so every kind of check runs on every
 *   `npm test`; CI (.ci/run) runs both.
 */
export const SLOW_TESTS = ['test/**/*.slow.test.ts', 'test/slow/**/*.test.ts']

/** What both runs share: files in child processes (tests chdir and swap process.env), one per core. */
export const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks',
  // At least two: vitest's default (cores - 1) is one worker on a 2-core machine.
  maxWorkers: Math.max(2, availableParallelism()),
  minWorkers: 1,
} as const

export default defineConfig({
  test: {
    ...shared,
    // One module cache per worker, not per file: the files' own set-up (importing src/ through
    // vite) was a third of the run. Files restore what they change (process.env, cwd, emulators);
    // the slow run keeps isolation, its heavy cases measure memory.
    poolOptions: { forks: { isolate: false } },
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...SLOW_TESTS],
  },
})
