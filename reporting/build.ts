import { GROUPS, SPEC } from '../helpers/spec/catalogue.js';
import { constraintCoverage, pairCoverage, ruleCoverage, ruleSummary } from './coverage.js';
import { scrubLines, scrubRecords } from './scrub.js';
import { REPORT_VERSION, type PairCoverage, type Report, type RuleCoverage, type TestRecord, type Verdict } from './model.js';
import { withoutCredentials } from '../helpers/net/redact.js';

export interface RunFacts {
  suiteVersion: string;
  target: Report['target'];
  startedAt: Date;
  finishedAt: Date;
  strict: boolean;
  warnings: string[];
  /** The groups that ran; undefined for all. */
  groups?: string[];
  interrupted?: boolean;
}

/** Nonconformant on any failure; incomplete while a test was skipped, a documented pair or an observable rule is not verified. */
export function verdictOf(tests: TestRecord[], pairs: PairCoverage[], rules: RuleCoverage[] = []): Verdict {
  if (tests.some((t) => t.outcome === 'failed' || (t.security?.length ?? 0) > 0)) return 'nonconformant';
  if (tests.some((t) => t.outcome === 'skipped') || pairs.some((p) => p.outcome !== 'passed')) return 'incomplete';
  if (rules.some((r) => r.observable && r.outcome !== 'passed')) return 'incomplete';
  return 'conformant';
}


export function buildReport(records: TestRecord[], facts: RunFacts): Report {
  const tests = scrubRecords(records).map((t) => ({
    ...t,
    exchanges: t.exchanges.map((e) => ({ ...e, request: { ...e.request, url: withoutCredentials(e.request.url) } })),
  }));
  const count = (outcome: TestRecord['outcome']) => tests.filter((t) => t.outcome === outcome).length;
  const pairs = pairCoverage(tests);
  const rules = ruleCoverage(tests);
  return {
    reportVersion: REPORT_VERSION,
    suite: { name: 'account-api-conformance', version: facts.suiteVersion },
    spec: { title: SPEC.title, version: SPEC.version },
    target: { ...facts.target, baseUrl: withoutCredentials(facts.target.baseUrl) },
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    durationMs: facts.finishedAt.getTime() - facts.startedAt.getTime(),
    strict: facts.strict,
    verdict: verdictOf(tests, pairs, rules),
    summary: {
      total: tests.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      advisories: tests.reduce((n, t) => n + t.advisories.length, 0),
      security: tests.reduce((n, t) => n + (t.security?.length ?? 0), 0),
      rateLimited: tests.reduce((n, t) => n + (t.rateLimited ?? 0), 0),
    },
    groups: facts.groups ?? [...GROUPS],
    ...(facts.interrupted ? { interrupted: true } : {}),
    warnings: scrubLines(facts.warnings, records),
    tests,
    coverage: { pairs, constraints: constraintCoverage(tests), rules, ruleSummary: ruleSummary(rules) },
  };
}
