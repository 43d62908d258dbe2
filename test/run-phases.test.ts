import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markNotRun, NOT_RUN } from '../cli/interrupt.js';
import { CollectingReporter } from '../reporting/collector.js';
import { ROOT } from './support.js';

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

describe('the last phase runs every test that asks for it', () => {
  it('lists in RUNS_LAST every suite file with a runsLast test (a test of another file would run in neither phase)', () => {
    const config = readFileSync(join(ROOT, 'vitest.run.config.ts'), 'utf8');
    const runsLast = JSON.parse(/const RUNS_LAST = (\[[^\]]*\])/.exec(config)![1]!.replace(/'/g, '"')) as string[];
    const files = readdirSync(join(ROOT, 'suites')).filter((file) => file.endsWith('.test.ts'));
    const asking = files.filter((file) => /runsLast: true/.test(readFileSync(join(ROOT, 'suites', file), 'utf8')));
    expect(asking.length).toBeGreaterThan(0);
    for (const file of asking) expect(runsLast, file).toContain(`suites/${file.replace(/\.ts$/, '.js')}`);
  });
});
