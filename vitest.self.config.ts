import { defineConfig } from 'vitest/config';

/** The suite's own tests (`npm test`): unit tests of helpers, reference and reporting, and the suite run against the reference. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Two files at a time on this project's 2-core machines (vitest's default leaves one core idle); most files wait on sockets.
    maxWorkers: 2,
    // A bound against hangs, not a speed check: several tests run the CLI in a child process, and they share 2 cores with the rest.
    testTimeout: 90_000,
    hookTimeout: 300_000,
    allowOnly: false,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
