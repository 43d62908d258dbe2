import type { Reporter, TestModule } from 'vitest/node';

/** Closes `npm test` with one plain line, `Summary: N passed, N failed, N skipped`, that any CI can read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = errors.length;
    let skipped = 0;
    for (const module of modules) {
      if (module.errors().length > 0) failed += module.errors().length;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else if (state === 'skipped') skipped++;
      }
    }
    process.stdout.write(`\nSummary: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
