import { GROUPS, SPEC } from '../helpers/spec/catalogue.js';
import { escapeControls } from '../helpers/spec/quote.js';
import { constraintCoverage, instanceCoverage, instanceSummary, pairCoverage, ruleCoverage, ruleSummary } from './coverage.js';
import { scrubLines, scrubRecords } from './scrub.js';
import { REPORT_VERSION, type PairCoverage, type Report, type RuleCoverage, type TestRecord, type Verdict } from './model.js';
import { withoutCredentials } from '../helpers/net/redact.js';
import type { Selection } from '../helpers/check/selection.js';
import { applyExpectations, type Expectation } from './expectations.js';

export interface RunFacts {
  suiteVersion: string;
  target: Report['target'];
  startedAt: Date;
  finishedAt: Date;
  strict: boolean;
  /** The seed the run drew its value classes from (--seed replays it). */
  seed?: string;
  warnings: string[];
  /**
   * Warnings the suite writes wholly in its own words from names (STATES_TOKEN, a header's name),
   * never from a configured value: kept as written after the others. Redacting a word there would
   * tell the secret by its place ("STATES_TOKEN is [REDACTED] (shorter than ...)" for the token "weak").
   */
  ownWarnings?: string[];
  /** The groups that ran; undefined for all. */
  groups?: string[];
  interrupted?: boolean;
  /** The run's selection (--grep, --clause, --endpoint, --failed), with the text that names it. */
  selection?: { selection: Selection; text: string };
  /** `conformance proxy`: the traffic it judged. */
  proxy?: NonNullable<Report['proxy']>;
  /** What the operator declared the target to be (--implementation, IMPLEMENTATION). */
  implementation?: { name: string; version: string };
  /** The rules no test of this suite version checks; PENDING_RULES unless a reporting self-test gives its own. */
  pendingRules?: readonly string[];
  /** The expectations file (--expected-failures): its path as shown and its entries; `date` (YYYY-MM-DD) is today's unless a self-test gives one. */
  expectations?: { file: string; entries: Expectation[]; date?: string };
}

/** The warning every report of a selected run carries: what was selected, and what it means for the verdict. */
export function selectionWarning(text: string): string {
  return `only the tests selected by ${text} ran: the verdict is at best incomplete, and the report of a selected run is never certified`;
}

/**
 * The run's verdict, a CI gate's: nonconformant on any failure; incomplete while a test was skipped, a
 * documented pair or an observable rule some test checks is not verified. A rule no test of this suite
 * version checks (`pending`) is the suite's gap, not the target's: it does not hold back this verdict,
 * but every report says "conformant on the rules this suite version checks" and names it, and a
 * certificate never says conformant while one is left (reporting/certificate.ts certifiedVerdict).
 */
export function verdictOf(tests: TestRecord[], pairs: PairCoverage[], rules: RuleCoverage[] = []): Verdict {
  if (tests.some((t) => t.outcome === 'failed' || (t.security?.length ?? 0) > 0)) return 'nonconformant';
  if (tests.some((t) => t.outcome === 'skipped') || pairs.some((p) => p.outcome !== 'passed')) return 'incomplete';
  if (rules.some((r) => r.observable && r.outcome !== 'passed' && r.pending !== true)) return 'incomplete';
  return 'conformant';
}


export function buildReport(allRecords: TestRecord[], facts: RunFacts): Report {
  // The suite's own bookkeeping is a run warning, once per message, not part of any test's record.
  const bookkeeping = [...new Set(allRecords.flatMap((t) => t.suiteWarnings ?? []))];
  const records = allRecords.map(({ suiteWarnings: _moved, ...record }) => record);
  const scrubbed = scrubRecords(records).map((t) => ({
    ...t,
    exchanges: t.exchanges.map((e) => ({ ...e, request: { ...e.request, url: withoutCredentials(e.request.url) } })),
  }));
  const expectations = facts.expectations ? applyExpectations(scrubbed, facts.expectations.entries, facts.expectations.file, facts.expectations.date) : undefined;
  const tests = expectations?.records ?? scrubbed;
  const count = (outcome: TestRecord['outcome']) => tests.filter((t) => t.outcome === outcome).length;
  const pairs = pairCoverage(tests);
  const instances = instanceCoverage(tests);
  const rules = ruleCoverage(tests, facts.pendingRules, instances);
  return {
    reportVersion: REPORT_VERSION,
    suite: { name: 'account-api-conformance', version: facts.suiteVersion },
    spec: { title: SPEC.title, version: SPEC.version },
    target: { ...facts.target, baseUrl: withoutCredentials(facts.target.baseUrl) },
    ...(facts.implementation ? { implementation: { name: facts.implementation.name, version: facts.implementation.version } } : {}),
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    durationMs: facts.finishedAt.getTime() - facts.startedAt.getTime(),
    strict: facts.strict,
    ...(facts.seed ? { seed: facts.seed } : {}),
    // A selection checks part of the interface: passing all of it is not conformance.
    // So does the proxy's judgement of whatever traffic passed.
    verdict: (facts.selection || facts.proxy) && verdictOf(tests, pairs, rules) === 'conformant' ? 'incomplete' : verdictOf(tests, pairs, rules),
    summary: {
      total: tests.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      advisories: tests.reduce((n, t) => n + t.advisories.length, 0),
      security: tests.reduce((n, t) => n + (t.security?.length ?? 0), 0),
      rateLimited: tests.reduce((n, t) => n + (t.rateLimited ?? 0), 0),
      failedLogins: tests.reduce((n, t) => n + (t.failedLogins ?? 0), 0),
      ...(expectations ? { expectedFailures: tests.filter((t) => t.expectedFailure).length } : {}),
    },
    ...(expectations ? { expectedFailures: expectations.expected } : {}),
    groups: facts.groups ?? [...GROUPS],
    ...(facts.interrupted ? { interrupted: true } : {}),
    ...(facts.selection ? { selection: selectionRecord(facts.selection) } : {}),
    ...(facts.proxy ? { proxy: facts.proxy } : {}),
    warnings: [...scrubLines([...(facts.selection ? [selectionWarning(facts.selection.text)] : []), ...facts.warnings, ...bookkeeping], records).map(escapeControls), ...(facts.ownWarnings ?? [])],
    tests,
    coverage: { pairs, constraints: constraintCoverage(tests), rules, ruleSummary: ruleSummary(rules), instances, instanceSummary: instanceSummary(instances) },
  };
}

function selectionRecord({ selection, text }: { selection: Selection; text: string }): NonNullable<Report['selection']> {
  return {
    text,
    ...(selection.grep !== undefined ? { grep: selection.grep } : {}),
    ...(selection.clauses?.length ? { clauses: selection.clauses } : {}),
    ...(selection.endpoints?.length ? { endpoints: selection.endpoints } : {}),
    ...(selection.ids !== undefined ? { ids: selection.ids } : {}),
  };
}
