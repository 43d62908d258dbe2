import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import suite from './vitest.suite.config.js';
import { LAST_PROJECT, RUNS_LAST } from './cli/main-phase.js';

/**
 * The files that hold a test that mostly waits (the session-lifetime test of authentication.test.ts waits out a
 * short session, 4 s against the reference): started first, so that the wait overlaps the rest of the run. Inside
 * the file that test is the first one declared (its tests start in order, maxConcurrency at a time).
 */
const LONG_WAITS_FIRST = ['suites/authentication.test.js'];
/**
 * The other suite files, which the last phase must not collect: a project that `extends` the root adds its `include`
 * to the root's (every suite file), so without this exclusion the last phase booted two workers that imported all six
 * files again (about 3 s of a run, spent after every other test had ended) to run the one file's few tests.
 */
const NOT_LAST = readdirSync(join(dirname(fileURLToPath(import.meta.url)), 'suites'))
  .filter((file) => file.endsWith('.test.js'))
  .map((file) => `suites/${file}`)
  .filter((file) => !RUNS_LAST.includes(file));

/**
 * vitest's order (longest or failed first, from its cache), with the files of a long wait before all others, and the
 * last phase's file after every file of the main phase: a worker takes it only once no file of the main phase waits.
 */
class LongWaitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (spec: TestSpecification) => spec.project.name === LAST_PROJECT;
    const waits = (spec: TestSpecification) => LONG_WAITS_FIRST.some((file) => spec.moduleId.endsWith(file));
    const main = sorted.filter((spec) => !last(spec));
    return [...main.filter(waits), ...main.filter((spec) => !waits(spec)), ...sorted.filter(last)];
  }
}

/**
 * `conformance run`'s configuration: the suite's (vitest.suite.config.ts) in two phases. `main` runs every test but
 * those that run last, the files of long waits first; `last` runs the tests that provoke a restriction (the
 * brute-force lockout, 425) once every test of every file has ended, so that the accounts or the address it
 * restricts block no other test. Both are scheduled together, the last phase's file after all others: its worker
 * starts and imports it while the main phase ends, and its tests wait for that end (cli/last-phase.ts, told by
 * cli/main-phase.ts), instead of a phase of its own whose worker started only then. Each test knows its phase
 * through `inject('phase')` (helpers/check/check.ts).
 */
export default defineConfig({
  test: {
    ...suite.test,
    sequence: { sequencer: LongWaitsFirst },
    // A project's setupFiles are added to the root's (cli/worker-positions.js): the last one adds its wait.
    projects: [
      { extends: true, test: { name: 'main', provide: { phase: 'main' } } },
      { extends: true, test: { name: LAST_PROJECT, include: RUNS_LAST, exclude: NOT_LAST, setupFiles: ['./cli/last-phase.js'], provide: { phase: 'last' } } },
    ],
  },
});
