import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { markNotRun, NOT_RUN } from '../cli/interrupt.js';
import { CollectingReporter } from '../reporting/collector.js';
import { ROOT } from './support.js';
import { SUITE_CONFIG_LOADER } from '../cli/run.js';
import { RUNS_LAST } from '../cli/main-phase.js';
import { lastPhaseTests } from '../mutation/runner.js';

/** A vitest test case as the collector reads it (reporting/collector.ts toRecord). */
function testCase(name: string, meta: Record<string, unknown>, state: 'passed' | 'skipped') {
  const conformance = { endpoint: 'POST /api/v1/authenticate', group: 'authentication', status: 425, clauses: ['4.2'], runsLast: true };
  return { meta: () => ({ conformance, ...meta }), result: () => ({ state }), name, parent: { type: 'module' }, module: { moduleId: '/x/suites/authentication.test.ts' }, diagnostic: () => ({ duration: 0 }) };
}

function moduleOf(...cases: ReturnType<typeof testCase>[]) {
  return { moduleId: '/x/suites/authentication.test.ts', errors: () => [], children: { allTests: () => cases } };
}

describe('conformance run in two phases (vitest.run.config.ts)', () => {
  it('reports a last-phase test an interrupt kept from being collected as not run, never drops it; a plain selection stays out', () => {
    const collector = new CollectingReporter('/x');
    // The main phase's file: one test it ran, one it left to the last phase, one the selection left out.
    const main = moduleOf(
      testCase('answers 200', {}, 'passed'),
      testCase('answers 425 after repeated failed logins', { unselected: true, later: true }, 'skipped'),
      testCase('answers 422', { unselected: true }, 'skipped'),
    );
    collector.onTestRunEnd([main as never], []);
    expect(collector.records.map((r) => r.name)).toEqual(['answers 200']);
    collector.addUnreachedLater();
    markNotRun(collector.records, 'SIGINT');
    expect(collector.records.map((r) => [r.name, r.outcome, r.reason])).toEqual([
      ['answers 200', 'passed', null],
      ['answers 425 after repeated failed logins', 'skipped', `${NOT_RUN} (SIGINT (Ctrl-C))`],
    ]);
  });

  it('adds nothing when the last phase collected its tests', () => {
    const collector = new CollectingReporter('/x');
    const main = moduleOf(testCase('answers 425 after repeated failed logins', { unselected: true, later: true }, 'skipped'));
    const last = moduleOf(testCase('answers 425 after repeated failed logins', {}, 'passed'));
    collector.onTestRunEnd([main as never, last as never], []);
    collector.addUnreachedLater();
    expect(collector.records.map((r) => [r.name, r.outcome])).toEqual([['answers 425 after repeated failed logins', 'passed']]);
  });
});

/** RUNS_LAST (cli/main-phase.ts), which vitest.run.config.ts and the mutation runner share. */
function runsLastFiles(): string[] {
  return [...RUNS_LAST];
}

describe('the last phase runs every test that asks for it', () => {
  it('lists in RUNS_LAST every suite file with a runsLast test (a test of another file would run in neither phase)', () => {
    const runsLast = runsLastFiles();
    const files = readdirSync(join(ROOT, 'suites')).filter((file) => file.endsWith('.test.ts'));
    const asking = files.filter((file) => /runsLast: true/.test(readFileSync(join(ROOT, 'suites', file), 'utf8')));
    expect(asking.length).toBeGreaterThan(0);
    for (const file of asking) expect(runsLast, file).toContain(`suites/${file.replace(/\.ts$/, '.js')}`);
  });

  it('declares runsLast only in the suite files themselves: a runsLast from a shared helper would escape the check above and run in neither phase', () => {
    const built = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { include: string[] };
    const sources = (path: string): string[] => {
      const full = join(ROOT, path);
      if (!statSync(full).isDirectory()) return path.endsWith('.ts') ? [path] : [];
      return readdirSync(full).flatMap((entry) => sources(`${path}/${entry}`));
    };
    const allowed = new Set(['helpers/check/check.ts', 'vitest.run.config.ts', 'cli/main-phase.ts', 'mutation/runner.ts', ...runsLastFiles().map((file) => file.replace(/\.js$/, '.ts'))]);
    const naming = built.include.flatMap(sources).filter((file) => /\brunsLast\b/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(naming.filter((file) => !allowed.has(file))).toEqual([]);
  });

  it('collects every suite file in the main phase and only the files of RUNS_LAST in the last (as `conformance run` loads dist/)', async () => {
    const root = join(ROOT, 'dist');
    const vitest = await createVitest('test', { root, config: join(root, 'vitest.run.config.js'), watch: false, reporters: [], ...SUITE_CONFIG_LOADER }, {}, {});
    try {
      const files: Record<string, string[]> = {};
      for (const project of vitest.projects) files[project.name] = (await project.globTestFiles()).testFiles.map((file) => file.slice(root.length + 1).replace(/\\/g, '/')).sort();
      const suites = readdirSync(join(ROOT, 'suites')).filter((file) => file.endsWith('.test.ts')).map((file) => `suites/${file.replace(/\.ts$/, '.js')}`).sort();
      expect(files.main).toEqual(suites);
      expect(files.last).toEqual(runsLastFiles().sort());
    } finally {
      await vitest.close();
    }
  });
});

describe('the mutation runner\u2019s last phase (mutation/runner.ts)', () => {
  it('runs it until the first run has told its tests, then only when one of them could run: a focused clause it cites, a narrowed-to test', () => {
    const phase = lastPhaseTests();
    expect(phase.wanted(['4.3'], undefined)).toBe(true);
    expect(() => lastPhaseTests().heard([])).toThrow(/recorded no test/);
    phase.heard([{ id: 'brute-force', clauses: ['4.2', '5'] } as never, { id: 'other-2fa-code', clauses: ['4.2'] } as never]);
    phase.heard([]);
    expect(phase.wanted(undefined, undefined)).toBe(true);
    expect(phase.wanted(['4.2'], undefined)).toBe(true);
    expect(phase.wanted(['4.3', '7'], undefined)).toBe(false);
    expect(phase.wanted(['4.2'], ['other-2fa-code'])).toBe(true);
    expect(phase.wanted(['4.2'], ['a-main-phase-test'])).toBe(false);
    expect(phase.wanted(['5'], ['other-2fa-code'])).toBe(false);
  });
});
