import { GROUPS } from '../helpers/spec/catalogue.js';
import { STATUS_ASSERTION } from '../helpers/check/status-message.js';
import type { Report, RuleCoverage, TestRecord } from './model.js';

/**
 * Short plain-text facts about a test, shared by every output (terminal, Markdown, GitHub
 * annotations, HTML) so that they all say the same thing the same way.
 */

/** "200", "403 or 409", or "a flow" (a multi-step test asserts several statuses). */
export function expectedText(test: TestRecord): string {
  if (test.status === null) return 'a flow of steps';
  return Array.isArray(test.status) ? test.status.join(' or ') : String(test.status);
}

/** The status of the last asserted answer, else of the last response; "no answer" when none came. */
export function actualStatus(test: TestRecord): string {
  // The failing step's own answer first (since 1.4.0 `failedAt`: the last request the test's body sent), so that a
  // status asserted by `expect(response.status)` or `expectNoServerError`, which observedStatus does not hold, is named.
  const failing = test.failedAt === undefined ? undefined : test.exchanges[test.failedAt];
  if (failing?.response) return String(failing.response.status);
  const observed = test.observedStatus[test.observedStatus.length - 1];
  if (observed !== undefined) return String(observed);
  const last = test.exchanges[test.exchanges.length - 1];
  if (last?.response) return String(last.response.status);
  if (last?.error) return 'no answer';
  return 'no request';
}

export interface PointerProblem {
  schema: string;
  pointer: string;
  rule: string;
  message: string;
}

/** Every schema problem of a failure, flattened: the failing JSON pointers. */
export function schemaPointers(test: TestRecord): PointerProblem[] {
  return (test.failure?.schemaProblems ?? []).flatMap(({ schema, problems }) => problems.map((p) => ({ schema, pointer: p.pointer, rule: p.rule, message: p.message })));
}

/** "schema session-response: /data/ttl (required), /data/id (type)" — at most `limit` pointers. */
export function schemaSummary(test: TestRecord, limit = 5): string | null {
  const problems = schemaPointers(test);
  if (problems.length === 0) return null;
  const bySchema = new Map<string, string[]>();
  for (const p of problems) bySchema.set(p.schema, [...(bySchema.get(p.schema) ?? []), `${p.pointer} (${p.rule})`]);
  const parts: string[] = [];
  let shown = 0;
  for (const [schema, pointers] of bySchema) {
    const room = Math.max(0, limit - shown);
    if (room === 0) break;
    parts.push(`schema ${schema}: ${pointers.slice(0, room).join(', ')}`);
    shown += Math.min(room, pointers.length);
  }
  const more = problems.length - shown;
  return `${parts.join('; ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** A precondition's own failure (helpers/arrange/: `throw new Error('precondition: ...')`): a step before what the test checks. */
const PRECONDITION = /^(?:\w*Error: )?precondition:\s*/;

/** vitest's tail of an assertion the suite wrote a message for (": expected false to be true // Object.is equality"). */
const ASSERTION_TAIL = /^: expected .* to (?:be|equal|deeply equal|strictly equal|include|contain|have|match|satisfy)\b/;

/** A failed test's cause as the suite wrote it: the failure's first line without vitest's assertion tail. */
export function failureCause(test: TestRecord, max = 300): string | null {
  if (test.outcome !== 'failed') return null;
  let line = (test.reason ?? test.failure?.message.split('\n')[0] ?? '').trim();
  const tail = line.lastIndexOf(': expected ');
  if (tail > 0 && ASSERTION_TAIL.test(line.slice(tail))) line = line.slice(0, tail);
  line = line.replace(/\s+/g, ' ').trim();
  if (!line) return null;
  return line.length > max ? `${line.slice(0, max - 1)}\u2026` : line;
}


/**
 * Whether the failing step's status is one the test expects: one it declares, or, when the failing step is the answer
 * the test checked last, the one its own status assertion accepted (a create, then its list: the list's 200).
 */
function statusMatched(test: TestRecord): boolean {
  if (test.status === null) return false;
  const expected = Array.isArray(test.status) ? test.status : [test.status];
  if (expected.map(String).includes(actualStatus(test))) return true;
  const checked = test.checkedExchange === undefined ? undefined : test.exchanges[test.checkedExchange]?.response?.status;
  return test.failedAt !== undefined && test.failedAt === test.checkedExchange && checked !== undefined && String(checked) === String(test.observedStatus[test.observedStatus.length - 1]);
}

/**
 * Which headline a failure has: a failed precondition names its step; a failure of a status assertion (or with no
 * cause written) names the expected and actual status; any other names its cause (an echo, a schema problem, a list's
 * content) with the failing step's status, "as expected" only when it was (review-r, review-s, review-t): never
 * "expected 201, got 200" for a failure that is not about a status, never "as expected" for a status that was not.
 */
function headlineKind(test: TestRecord): 'precondition' | 'cause' | 'status' {
  const cause = failureCause(test);
  if (cause !== null && PRECONDITION.test(cause)) return 'precondition';
  if (test.outcome !== 'failed') return 'status';
  if (cause !== null && STATUS_ASSERTION.test(cause)) return 'status';
  if (cause !== null || schemaPointers(test).length > 0) return 'cause';
  return 'status';
}

/**
 * A failure's headline, shared by every output: "expected 200, got 500" plus the schema problems when there are
 * any; "precondition failed: logout must answer 200, got 401" when a step before the tested request failed; the
 * cause itself, then "(status 201, as expected)", when the status was the expected one.
 */
export function expectedActual(test: TestRecord): string {
  const schema = schemaSummary(test);
  const kind = headlineKind(test);
  if (kind === 'precondition') return `precondition failed: ${failureCause(test)!.replace(PRECONDITION, '')}`;
  if (kind === 'cause') return `${schema ?? failureCause(test)} (status ${actualStatus(test)}${statusMatched(test) ? ', as expected' : ''})`;
  // A test of several steps declares no one status: its failing step's own assertion says what that step expected.
  const stepExpected = test.status === null ? failureCause(test)?.match(STEP_EXPECTED)?.[1] : undefined;
  if (stepExpected !== undefined) return `a step expected ${stepExpected}, got ${actualStatus(test)}${schema ? `; ${schema}` : ''}`;
  return `expected ${expectedText(test)}, got ${actualStatus(test)}${schema ? `; ${schema}` : ''}`;
}

/** The statuses a failed status assertion names ("expected status 200 or 422, got 400": "200 or 422"). */
const STEP_EXPECTED = /expected status ((?:\d{3})(?: or \d{3})*), got /;

/** The clauses a test cites, as the specification numbers them. */
export function clausesText(test: Pick<TestRecord, 'clauses'>): string {
  return `${test.clauses.length > 1 ? 'sections' : 'section'} ${test.clauses.join(', ')}`;
}

export function failedTests(report: Report): TestRecord[] {
  return report.tests.filter((t) => t.outcome === 'failed' && !t.expectedFailure);
}

/** Failed tests an expectations entry expected (--expected-failures): shown apart, with their reasons. */
export function expectedFailedTests(report: Report): TestRecord[] {
  return report.tests.filter((t) => t.outcome === 'failed' && t.expectedFailure);
}

/** An expected failure's reason as one phrase: the reason, its entry when a rule's, its end date. */
export function expectedReason(test: TestRecord): string {
  const e = test.expectedFailure!;
  return `${e.reason}${e.entry.startsWith('rule ') ? ` (${e.entry})` : ''}${e.until ? ` (until ${e.until})` : ''}`;
}

/**
 * The gate's line when an expectations file was given: "gate passed with N expected failures", or what
 * fails it; undefined without a file.
 */
export function gateLine(report: Report, options: { incompleteFails?: boolean } = {}): string | undefined {
  const expected = report.expectedFailures;
  if (!expected) return undefined;
  const count = expectedFailedTests(report).length;
  const unexpected = failedTests(report).length;
  const passed = expected.problems.length === 0 && unexpected === 0 && securityCount(report) === 0;
  // --fail-on-incomplete failed a run whose every failure was expected: the gate line says so, as the exit code does.
  if (passed && options.incompleteFails) return `gate failed: the run is incomplete besides its ${counted(count, 'expected failure', 'expected failures')} (--fail-on-incomplete; ${expected.file})`;
  if (passed) return `gate passed with ${counted(count, 'expected failure', 'expected failures')} (${expected.file})`;
  const why = [
    ...(unexpected > 0 ? [`${counted(unexpected, 'failure', 'failures')} not expected`] : []),
    ...(securityCount(report) > 0 ? ['security findings (never expected)'] : []),
    ...(expected.problems.length > 0 ? [counted(expected.problems.length, 'expectation entry fails it', 'expectation entries fail it')] : []),
  ];
  return `gate failed: ${why.join(', ')} (${count} expected, ${expected.file})`;
}

/** Tests with security findings (credentials in answers): a category of their own, apart from clauses. */
export function securityTests(report: Report): TestRecord[] {
  return report.tests.filter((t) => (t.security?.length ?? 0) > 0);
}

export function securityCount(report: Report): number {
  return report.summary.security ?? report.tests.reduce((n, t) => n + (t.security?.length ?? 0), 0);
}

/** Tests with measured facts to report (notes). */
export function notedTests(report: Report): TestRecord[] {
  return report.tests.filter((t) => (t.notes?.length ?? 0) > 0);
}

export function advisedTests(report: Report): TestRecord[] {
  return report.tests.filter((t) => t.advisories.length > 0);
}

/** "1 advisory", "3 advisories", "1 security finding": a count with its noun. */
export function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The heading of the failures: under --strict an advisory fails a test, and the heading says so. */
export function failuresHeading(report: Pick<Report, 'strict'>, count: number): string {
  return report.strict ? `Nonconformances, failed under --strict (${count})` : `Nonconformances (${count})`;
}

/** Skipped tests grouped by their reason, most frequent first. */
export function skipReasons(report: Report): { reason: string; count: number }[] {
  const reasons = new Map<string, number>();
  for (const test of report.tests) if (test.outcome === 'skipped') reasons.set(test.reason ?? 'skipped', (reasons.get(test.reason ?? 'skipped') ?? 0) + 1);
  return [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}

/** The test's own name, without the "METHOD /path" prefix its describe block adds. */
export function shortName(test: TestRecord): string {
  return test.name.startsWith(`${test.endpoint} `) ? test.name.slice(test.endpoint.length + 1) : test.name;
}

/** "50/50 observable field constraints verified, 4 not observable": not observable is its own mark, outside the headline count. */
export function constraintsHeadline(report: Report): string {
  const observable = report.coverage.constraints.filter((c) => c.observable !== false);
  const unobservable = report.coverage.constraints.length - observable.length;
  const verified = observable.filter((c) => c.outcome === 'passed').length;
  return `${verified}/${observable.length} observable field constraints verified${unobservable > 0 ? `, ${unobservable} not observable by a client` : ''}`;
}

export function verifiedPairs(report: Report): number {
  return report.coverage.pairs.filter((p) => p.outcome === 'passed').length;
}

/**
 * The failure's first line without what "expected X, got Y" already says (the body snippet stays),
 * cut to `max` characters; the skip reason for a skipped test.
 */
export function reasonDetail(test: TestRecord, max = 220): string | null {
  // The headline already is the cause (a precondition's step, or the cause of a failure whose status matched).
  if (headlineKind(test) !== 'status' && schemaPointers(test).length === 0) return null;
  const reason = test.reason
    ?.replace(/^expected status [^,]+, got \d+;?\s*/, '')
    .replace(/: expected \[.*\] to include \d+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!reason) return null;
  return reason.length > max ? `${reason.slice(0, max - 1)}\u2026` : reason;
}

/** A skip reason as a short cause: "the target lacks the state user.locked", "rate limited", or the reason cut short. */
function shortCause(reason: string): { state?: string; kind?: string; text: string } {
  const state = reason.match(/^target does not provide state ([\w.-]+)/)?.[1];
  if (state) return { state, text: `the target lacks the state ${state}` };
  const kind = reason.match(/^STATES_FILE has no account of kind "([^"]+)"/)?.[1];
  if (kind) return { kind, text: `STATES_FILE has no account of kind "${kind}"` };
  if (/^not verified: rate limited/.test(reason)) return { text: 'rate limited' };
  const text = reason.replace(/^not verified: /, '').replace(/\s+/g, ' ').trim();
  return { text: text.length > 80 ? `${text.slice(0, 79)}\u2026` : text };
}

/**
 * Why the verdict is `incomplete`, in one line for the terminal, summary.md and the HTML badge:
 * "incomplete: 4 tests not verified (the target lacks the states user.expired-token, user.locked); 2 of 80 documented pairs not verified".
 * Undefined for any other verdict.
 */
export function incompleteReason(report: Report): string | undefined {
  if (report.verdict !== 'incomplete') return undefined;
  const parts: string[] = [];
  const skipped = report.tests.filter((t) => t.outcome === 'skipped');
  if (skipped.length > 0) {
    const states = new Set<string>();
    const kinds = new Set<string>();
    const others = new Map<string, number>();
    for (const test of skipped) {
      const cause = shortCause(test.reason ?? 'skipped');
      if (cause.state) states.add(cause.state);
      else if (cause.kind) kinds.add(cause.kind);
      else others.set(cause.text, (others.get(cause.text) ?? 0) + 1);
    }
    const causes = [
      ...(states.size > 0 ? [`the target lacks the state${states.size > 1 ? 's' : ''} ${[...states].sort().join(', ')}`] : []),
      ...(kinds.size > 0 ? [`STATES_FILE has no account of kind${kinds.size > 1 ? 's' : ''} ${[...kinds].sort().map((k) => `"${k}"`).join(', ')}`] : []),
      ...[...others].sort((a, b) => b[1] - a[1]).map(([text]) => text),
    ];
    const shown = causes.slice(0, 3).join('; ');
    parts.push(`${skipped.length} test${skipped.length > 1 ? 's' : ''} not verified (${shown}${causes.length > 3 ? `; ${causes.length - 3} more reasons` : ''})`);
  }
  const unverified = report.coverage.pairs.filter((p) => p.outcome === 'not verified');
  if (unverified.length > 0) {
    const partial = report.groups && report.groups.length < GROUPS.length ? ` (only ${report.groups.join(', ')} ran)` : '';
    parts.push(`${unverified.length} of ${report.coverage.pairs.length} documented endpoint x status pairs not verified${partial}`);
  }
  const rules = report.coverage.rules?.filter((r) => r.observable && r.pending !== true);
  const rulesLeft = rules?.filter((r) => r.outcome !== 'passed').length ?? 0;
  // The pairs explain an incomplete run first; the rules only when every pair was verified.
  if (rules && rulesLeft > 0 && unverified.length === 0) parts.push(`${rulesLeft} of ${rules.length} observable rules the suite checks not verified`);
  if (report.selection) parts.push(`only the selected tests ran (${report.selection.text})`);
  if (report.proxy) parts.push('a proxy judges only the traffic that passed');
  return `incomplete: ${parts.join('; ') || 'not every documented pair was verified'}`;
}

/** The observable rules no test of the report's suite version checks (`pending`, since report 1.3.0). */
export function pendingRules(report: Pick<Report, 'coverage'>): RuleCoverage[] {
  return report.coverage.rules?.filter((r) => r.observable && r.pending === true) ?? [];
}

/**
 * What a `conformant` verdict covers when some observable rules are checked by no test of this suite
 * version: "conformant on the 318 observable rules this suite version checks; 17 rules are checked by no
 * test yet: S26, S28, ...". Undefined for any other verdict, and when no rule is pending.
 */
export function conformantScope(report: Pick<Report, 'verdict' | 'coverage'>): string | undefined {
  if (report.verdict !== 'conformant') return undefined;
  const pending = pendingRules(report);
  if (pending.length === 0) return undefined;
  const observable = report.coverage.rules!.filter((r) => r.observable).length;
  const checked = observable - pending.length;
  return `conformant on the ${checked} observable rule${checked === 1 ? '' : 's'} this suite version checks; ${pending.length} rule${pending.length === 1 ? ' is' : 's are'} checked by no test yet (${pending.map((r) => r.id).join(', ')}), so a certificate says incomplete`;
}
