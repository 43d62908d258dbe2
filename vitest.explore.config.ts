import { defineConfig } from 'vitest/config';
import suite from './vitest.suite.config.js';

/**
 * The properties of `conformance explore` (explore/*.explore.ts): the suite's configuration with
 * other files. `conformance explore` loads it and adds the target, the seed and the budget.
 */
export default defineConfig({
  test: { ...suite.test, include: ['explore/**/*.explore.js'] },
});
