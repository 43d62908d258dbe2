import { defineConfig } from 'vitest/config';

/** The suite's own tests (`npm test`): unit tests of helpers, reference and reporting, and the suite run against the reference. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 300_000,
    allowOnly: false,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
