import { INSTANCES } from '../helpers/spec/instances.js';
import type { Exchange } from '../helpers/net/http.js';
import { documentedPairs } from '../helpers/spec/catalogue.js';
import { OBSERVABLE_RULES } from '../helpers/spec/rules.js';
import { buildReport } from '../reporting/build.js';
import { testId } from '../reporting/collector.js';
import type { Report, TestRecord } from '../reporting/model.js';

/** Synthetic report records for the reporting unit tests (built through the real buildReport). */

export function exchange(overrides: Partial<Exchange['request']> = {}, response: Exchange['response'] = { status: 200, headers: {}, body: { data: {} } }): Exchange {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1:9/api/v1/user/u-1/bank', headers: { accept: 'application/json', authorization: '[REDACTED]' }, ...overrides },
    response,
    durationMs: 3,
  };
}

export function record(name: string, overrides: Partial<TestRecord> = {}): TestRecord {
  const endpoint = overrides.endpoint ?? 'GET /api/v1/user/{user}/bank';
  const full = `${endpoint} ${name}`;
  const outcome = overrides.outcome ?? 'passed';
  return {
    id: testId(full),
    name: full,
    group: 'banks',
    file: 'suites/banks.test.ts',
    endpoint,
    status: 200,
    clauses: ['4.10'],
    constraint: null,
    outcome,
    reason: outcome === 'skipped' ? 'target does not provide state user' : outcome === 'failed' ? 'expected status 200, got 500; body: {"message":"boom"}' : null,
    observedStatus: outcome === 'skipped' ? [] : [outcome === 'failed' ? 500 : 200],
    advisories: [],
    durationMs: 5,
    failure: outcome === 'failed' ? { message: 'expected status 200, got 500; body: {"message":"boom"}', schemaProblems: [] } : null,
    exchanges: outcome === 'skipped' ? [] : [exchange({}, { status: outcome === 'failed' ? 500 : 200, headers: {}, body: { data: [] } })],
    ...overrides,
  };
}

/**
 * A report built from `tests`. `pendingRules` stands in for PENDING_RULES (none by default), so that no
 * reporting self-test depends on which rules the suite leaves unchecked today.
 */
export function report(tests: TestRecord[], overrides: Partial<Report> = {}, pendingRules: readonly string[] = []): Report {
  const built = buildReport(tests, {
    pendingRules,
    suiteVersion: '0.0.0-test',
    target: { baseUrl: 'http://127.0.0.1:9', embedded: true, states: 'hook' },
    startedAt: new Date('2026-01-01T00:00:00.000Z'),
    finishedAt: new Date('2026-01-01T00:00:02.500Z'),
    strict: false,
    warnings: [],
  });
  return { ...built, ...overrides };
}

/**
 * Passing records that verify every documented pair and every observable rule but those of `unverified`:
 * the tests of a run whose verdict is conformant (when `unverified` holds only pending rules).
 */
export function passingEverything(unverified: readonly string[] = []): TestRecord[] {
  const pairs = documentedPairs().map(({ endpoint, status }) => record(`answers ${status.status}`, { endpoint: endpoint.id, status: status.status, group: endpoint.group, rules: [] }));
  const rules = OBSERVABLE_RULES.map((r) => r.id).filter((id) => !unverified.includes(id));
  // Rules of several places (helpers/spec/instances.ts) are verified only with each instance cited.
  const instances = INSTANCES.filter((i) => i.endpoint !== null && !unverified.includes(i.rule)).map((i) => i.id);
  return [...pairs, record('checks every rule but the pending ones', { rules, instances })];
}
