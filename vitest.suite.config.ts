import { defineConfig } from 'vitest/config';

/**
 * The conformance suite's own vitest configuration. `conformance run` loads it and adds the target
 * (through `provide`) and the reporters; running vitest on it directly is not supported.
 */
export default defineConfig({
  test: {
    // Compiled to dist/ with the suites (npm run build), where `conformance run` finds it: the paths are dist/'s.
    include: ['suites/**/*.test.js'],
    pool: 'threads',
    // The suite waits on the network, not the CPU: the tests of a file run concurrently (maxConcurrency).
    // Two workers: one saves about 45 MB but is about 1 s slower; four cost about 70 MB more (bench/memory.md).
    maxWorkers: 2,
    isolate: false,
    maxConcurrency: 8,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    passWithNoTests: false,
    allowOnly: false,
    // Each test's line in its suite file: JUnit cases and GitHub annotations point at it.
    includeTaskLocation: true,
    // Locations in the compiled files, taken back to the TypeScript by the reporter (cli/worker-positions.ts).
    setupFiles: ['./cli/worker-positions.js'],
    // Memory: the test files are imported by Node itself, not through Vite's module runner, whose
    // transforms of this TypeScript cost about 90 MB in the run's process (bench/memory.md). None of
    // what the runner adds (vi.mock, import.meta.vitest, Vite plugins) is used here.
    experimental: { viteModuleRunner: false, nodeLoader: false },
  },
});
