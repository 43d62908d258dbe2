import { RULES } from '../helpers/spec/rules.js';
import type { ExpectedFailures, ExpectationOutcome, TestRecord } from './model.js';

/**
 * Expected failures (`--expected-failures FILE`, EXPECTED_FAILURES): a gate that carries known
 * failures while their fix is under way, like pytest's strict xfail. Each entry names a test (its id
 * or name) or a rule (a test citing it fails), why, and until when (an ISO date, inclusive).
 * The verdict never changes (the target does deviate); the gate does: it passes when every failure
 * was expected, and fails when an expected failure passed or an entry outlived its date.
 */
export interface Expectation {
  test?: string;
  rule?: string;
  reason: string;
  /** YYYY-MM-DD: the last day the entry holds. */
  until?: string;
}

/** A test as the expectations know it: the manifest's entries and the run's records both fit. */
export interface KnownTest {
  id: string;
  name: string;
}

/** One line naming an entry, as reports and messages show it. */
export function entryName(entry: Pick<Expectation, 'test' | 'rule'>): string {
  return entry.test !== undefined ? `test ${entry.test}` : `rule ${entry.rule}`;
}

/**
 * The entries of a parsed expectations file (JSON or YAML: a list, or `{ expectedFailures: [...] }`),
 * checked for shape; every problem is one line naming the entry. Names are checked by `unknownNames`.
 */
export function parseExpectations(document: unknown): { entries: Expectation[]; problems: string[] } {
  const list = Array.isArray(document) ? document : (document as { expectedFailures?: unknown } | null)?.expectedFailures;
  if (!Array.isArray(list)) return { entries: [], problems: ['it is neither a list of entries nor an object with a list "expectedFailures"'] };
  const entries: Expectation[] = [];
  const problems: string[] = [];
  list.forEach((raw, index) => {
    const at = `entry ${index + 1}`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return problems.push(`${at} is not an object { test | rule, reason, until }`);
    const { test, rule, reason, until, ...rest } = raw as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) return problems.push(`${at} has unknown field(s) ${unknown.join(', ')}; an entry has test or rule, reason and until`);
    const named = [test, rule].filter((v) => typeof v === 'string' && v.trim() !== '');
    if (named.length === 0) return problems.push(`${at} names nothing: give "test" (a test's id or name, see \`conformance list\`) or "rule" (a rule id such as S13)`);
    if (named.length > 1) return problems.push(`${at} names both a test and a rule: one entry expects one of them`);
    if (typeof reason !== 'string' || reason.trim() === '') return problems.push(`${at} (${entryName({ test: test as string, rule: rule as string })}) has no "reason": say why the failure is expected`);
    const date = until instanceof Date ? until.toISOString().slice(0, 10) : until;
    if (date !== undefined && (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))) {
      return problems.push(`${at} (${entryName({ test: test as string, rule: rule as string })}): "until" is not a date YYYY-MM-DD (got ${JSON.stringify(until)})`);
    }
    entries.push({ ...(typeof test === 'string' ? { test: test.trim() } : { rule: (rule as string).trim() }), reason: reason.trim(), ...(date !== undefined ? { until: date as string } : {}) });
    return undefined;
  });
  return { entries, problems };
}

/** The names (or ids) nearest to `wanted`, by edit distance over ids and names, at most `count`. */
export function nearest(wanted: string, candidates: readonly string[], count = 3): string[] {
  const target = wanted.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, distance: distance(target, candidate.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((c) => c.candidate);
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** One line per entry naming a test or rule the suite does not have, with the nearest ones it has. */
export function unknownNames(entries: Expectation[], tests: readonly KnownTest[], ruleIds: readonly string[] = RULES.map((r) => r.id)): string[] {
  const known = new Set(tests.flatMap((t) => [t.id, t.name]));
  const rules = new Set(ruleIds);
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.test !== undefined && !known.has(entry.test)) {
      problems.push(`no test "${entry.test}" (it was renamed or removed?); the nearest: ${nearest(entry.test, tests.map((t) => t.id)).join(', ')}`);
    }
    if (entry.rule !== undefined && !rules.has(entry.rule)) {
      problems.push(`no rule "${entry.rule}"; the nearest: ${nearest(entry.rule, ruleIds).join(', ')} (helpers/spec/rules.ts; \`conformance list --json\` shows each test's rules)`);
    }
  }
  return problems;
}

/** Today's date (UTC) as YYYY-MM-DD. */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Applies the expectations to a run's records: each failed test an entry covers is marked (`expectedFailure`);
 * returns what became of each entry and the problems that fail the gate. An expired entry excuses nothing.
 */
export function applyExpectations(records: TestRecord[], entries: Expectation[], file: string, date = today()): { records: TestRecord[]; expected: ExpectedFailures } {
  const marks = new Map<string, { reason: string; until?: string; entry: string }>();
  const outcomes: ExpectationOutcome[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    const covered = records.filter((t) => (entry.test !== undefined ? t.id === entry.test || t.name === entry.test : (t.rules ?? []).includes(entry.rule!)));
    const failed = covered.filter((t) => t.outcome === 'failed');
    const ran = covered.filter((t) => t.outcome !== 'skipped');
    const expired = entry.until !== undefined && entry.until < date;
    let outcome: ExpectationOutcome['outcome'];
    if (expired) {
      outcome = 'expired';
      problems.push(`expected failure expired: ${entryName(entry)} was expected until ${entry.until} ("${entry.reason}"): fix it, or renew the entry with a new date`);
    } else if (failed.length > 0) {
      outcome = 'failed as expected';
      for (const t of failed) if (!marks.has(t.id)) marks.set(t.id, { reason: entry.reason, ...(entry.until ? { until: entry.until } : {}), entry: entryName(entry) });
    } else if (ran.length > 0) {
      outcome = 'passed';
      problems.push(`expected failure passed: remove it: ${entryName(entry)} ("${entry.reason}") ${entry.rule !== undefined ? `: none of the ${ran.length} test(s) citing it failed` : 'passed'}`);
    } else {
      outcome = 'not run';
    }
    outcomes.push({ ...entry, outcome, tests: (outcome === 'failed as expected' ? failed : ran).map((t) => t.id) });
  }
  return {
    records: records.map((t) => (marks.has(t.id) ? { ...t, expectedFailure: marks.get(t.id)! } : t)),
    expected: { file, entries: outcomes, problems },
  };
}
