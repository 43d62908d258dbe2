import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The mutation run first: it is most of `npm test` (its shards use both cores for most of it), so every other file
 * runs beside it rather than before it. Otherwise vitest's order (failed, then slowest by its cache, then largest).
 */
class MutationFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (spec: TestSpecification) => (spec.moduleId.replace(/\\/g, '/').endsWith('/test/mutation.test.ts') ? 0 : 1);
    return [...sorted].sort((a, b) => first(a) - first(b));
  }
}

/** The suite's own tests (`npm test`): unit tests of helpers, reference and reporting, and the suite run against the reference. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Two files at a time on this project's 2-core machines (vitest's default leaves one core idle); most files wait on
    // sockets. Three were tried: the mutation run's two shards and two files of whole runs at once took the CPU-bound
    // tests past their bounds on a loaded machine (a build test of 35 s alone past 90 s). Within a file, the long
    // waiting tests run side by side instead (states-preflight).
    maxWorkers: 2,
    // A bound against hangs, not a speed check: several tests run the CLI in a child process, and they share 2 cores with the rest.
    testTimeout: 90_000,
    hookTimeout: 300_000,
    allowOnly: false,
    sequence: { sequencer: MutationFirst },
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
