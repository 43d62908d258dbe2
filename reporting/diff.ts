import { MAX_REPORT_FILE_BYTES, parseBoundedJson, readBounded, TooLargeError } from '../helpers/spec/bounded.js';
import { endpointById } from '../helpers/spec/catalogue.js';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { clausesText, expectedActual } from './facts.js';
import { code, md, VERDICT_MARK } from './markdown.js';
import type { Outcome, PairOutcome, Report, TestRecord, Verdict } from './model.js';

/**
 * Regression between two runs: which tests changed outcome, which documented endpoint x status
 * pairs and field constraints were gained or lost, and which response shapes newly drifted from
 * their schema. Tests are matched by id (stable: derived from the unique test name).
 */

/** 1.1.0: tests.newlySecurity (new security findings); 1.2.0: tests.expectationChanged (--expected-failures). */
export const DIFF_VERSION = '1.2.0';

/** A report that cannot be compared: the CLI says so in one line and exits 2. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
}

/** Reads and checks a report.json (against schemas/report.json); throws ReportInputError with one clear line. */
export function readReport(path: string, role = 'report'): Report {
  let text: string;
  try {
    text = readBounded(path, MAX_REPORT_FILE_BYTES, role).toString('utf8');
  } catch (error) {
    if (error instanceof TooLargeError) throw new ReportInputError(`cannot read ${error.message}`);
    const code = (error as { code?: string }).code;
    throw new ReportInputError(`cannot read ${role} ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : ((error as Error).message ?? code)}`);
  }
  let document: unknown;
  try {
    document = parseBoundedJson(text, `${role} ${path}`);
  } catch (error) {
    if (error instanceof TooLargeError) throw new ReportInputError(`cannot read ${role} ${path}: ${error.message}`);
    throw new ReportInputError(`cannot read ${role} ${path}: not JSON (${(error as Error).message})`);
  }
  const version = (document as { reportVersion?: unknown } | null)?.reportVersion;
  if (typeof version === 'string' && !version.startsWith('1.')) {
    throw new ReportInputError(`cannot read ${role} ${path}: report format ${version} is not supported (this suite reads 1.x)`);
  }
  const problems = schemaProblems('report', document);
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new ReportInputError(`cannot read ${role} ${path}: not a conformance report (${first.pointer}: ${first.message}${problems.length > 1 ? `, and ${problems.length - 1} more problems` : ''})`);
  }
  return document as Report;
}

export interface TestChange {
  id: string;
  name: string;
  endpoint: string;
  clauses: string[];
  /** The outcome in the base run; null when the test is new. */
  from: Outcome | null;
  to: Outcome | null;
  /** Failure's first line or skip reason in the head run (base run for removed tests). */
  reason: string | null;
  /** For newly failing tests: expected and actual, as the terminal shows them. */
  detail?: string;
  /** For newly advisory tests: the advisories the base run did not have. */
  advisories?: string[];
  /** For tests with new security findings: the findings the base run did not have. */
  security?: string[];
  /** For a change of expectation (--expected-failures): why the failure was expected in each run; null when it was not. */
  expected?: { from: string | null; to: string | null };
}

export interface CoverageChange {
  /** "METHOD /path status" for a pair, the constraint id for a field constraint, the rule id for a rule. */
  key: string;
  /** The endpoint of a pair or constraint; empty for a rule of the specification. */
  endpoint: string;
  status?: number;
  constraint?: string;
  rule?: string;
  from: PairOutcome | null;
  to: PairOutcome | null;
  reason: string | null;
}

export interface ShapeDrift {
  test: string;
  name: string;
  schema: string;
  pointer: string;
  rule: string;
  message: string;
}

interface RunSide {
  file: string;
  verdict: Verdict;
  finishedAt: string;
  suiteVersion: string;
  specVersion: string;
  target: string;
  summary: Report['summary'];
  pairsVerified: number;
  pairsTotal: number;
}

export interface ReportDiff {
  diffVersion: string;
  base: RunSide;
  head: RunSide;
  /** True when anything regressed: a newly failing test, lost coverage, or new shape drift. */
  regressed: boolean;
  /**
   * Set when either run was interrupted (Ctrl-C): only tests that finished in both are compared, and
   * coverage lost is listed but is no regression (an interrupted run's coverage is partial).
   */
  interrupted?: true;
  /** Set when the two reports are of different targets (two embedded references are one target): a comparison of two implementations, not of two runs. */
  differentTargets?: true;
  tests: {
    newlyFailing: TestChange[];
    newlyPassing: TestChange[];
    newlySkipped: TestChange[];
    newlyAdvisory: TestChange[];
    /** Tests with security findings (credentials in answers) the base run did not have. */
    newlySecurity: TestChange[];
    /**
     * Since 1.2.0: tests whose failure became expected, stopped being expected, or is expected for another
     * reason (--expected-failures): news, not a regression; a failure that starts being expected is no fix.
     */
    expectationChanged: TestChange[];
    added: TestChange[];
    removed: TestChange[];
  };
  coverage: {
    /** Pairs verified in the base run and not in the head run. */
    pairsLost: CoverageChange[];
    pairsGained: CoverageChange[];
    /** Other outcome changes (failed <-> not verified), and pairs that appeared or vanished from the catalogue. */
    pairsChanged: CoverageChange[];
    constraintsLost: CoverageChange[];
    constraintsGained: CoverageChange[];
    constraintsChanged: CoverageChange[];
    /** Rules of the specification, compared when both reports have them (1.2.0) and ran the same groups. */
    rulesLost: CoverageChange[];
    rulesGained: CoverageChange[];
    rulesChanged: CoverageChange[];
  };
  /** Schema problems (failure.schemaProblems) of the head run that the same test did not have in the base run. */
  shapeDrift: ShapeDrift[];
  /** Groups only one of the two runs ran: their tests and coverage are not compared. */
  groupsNotCompared: string[];
}

/** Findings name pointers and requests; ids in paths vary from run to run. */
const normalizeFinding = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>').replace(/\/\d+(?=\/|$|\s)/g, '/*');

function side(report: Report, file: string): RunSide {
  return {
    file,
    verdict: report.verdict,
    finishedAt: report.finishedAt,
    suiteVersion: report.suite.version,
    specVersion: report.spec.version,
    target: report.target.baseUrl,
    summary: report.summary,
    pairsVerified: report.coverage.pairs.filter((p) => p.outcome === 'passed').length,
    pairsTotal: report.coverage.pairs.length,
  };
}

function change(test: TestRecord, from: Outcome | null, to: Outcome | null): TestChange {
  return { id: test.id, name: test.name, endpoint: test.endpoint, clauses: test.clauses, from, to, reason: test.reason };
}

/** Why a test's failure was expected in a run (its reason and date), or null. */
const expectationOf = (test: TestRecord): string | null => (test.expectedFailure ? `${test.expectedFailure.reason}${test.expectedFailure.until ? ` (until ${test.expectedFailure.until})` : ''}` : null);

/** Advisory texts compared without the values that differ from run to run (ids, numbers). */
const normalizeAdvisory = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>').replace(/\d{3,}/g, '<n>');

/** Array indices vary with data: /data/3/amount and /data/0/amount are the same drift. */
const normalizePointer = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');

function driftKeys(test: TestRecord | undefined): Set<string> {
  const keys = new Set<string>();
  for (const { schema, problems } of test?.failure?.schemaProblems ?? []) for (const p of problems) keys.add(`${schema} ${normalizePointer(p.pointer)} ${p.rule}`);
  return keys;
}

interface Covered {
  key: string;
  endpoint: string;
  status?: number;
  constraint?: string;
  rule?: string;
  outcome: PairOutcome;
  reason: string | null;
}

function coverageChanges(base: Covered[], head: Covered[]): { lost: CoverageChange[]; gained: CoverageChange[]; changed: CoverageChange[] } {
  const before = new Map(base.map((c) => [c.key, c]));
  const after = new Map(head.map((c) => [c.key, c]));
  const lost: CoverageChange[] = [];
  const gained: CoverageChange[] = [];
  const changed: CoverageChange[] = [];
  const entry = (c: Covered, from: PairOutcome | null, to: PairOutcome | null, reason: string | null): CoverageChange => ({
    key: c.key,
    endpoint: c.endpoint,
    ...(c.status !== undefined ? { status: c.status } : {}),
    ...(c.constraint !== undefined ? { constraint: c.constraint } : {}),
    ...(c.rule !== undefined ? { rule: c.rule } : {}),
    from,
    to,
    reason,
  });
  for (const [key, now] of after) {
    const was = before.get(key);
    if (!was) changed.push(entry(now, null, now.outcome, now.reason));
    else if (was.outcome === now.outcome) continue;
    else if (was.outcome === 'passed') lost.push(entry(now, was.outcome, now.outcome, now.reason));
    else if (now.outcome === 'passed') gained.push(entry(now, was.outcome, now.outcome, null));
    else changed.push(entry(now, was.outcome, now.outcome, now.reason));
  }
  for (const [key, was] of before) {
    if (after.has(key)) continue;
    // A pair that vanished from the catalogue: coverage lost only if it was verified.
    (was.outcome === 'passed' ? lost : changed).push(entry(was, was.outcome, null, 'no longer in the specification catalogue'));
  }
  return { lost, gained, changed };
}

/** The groups a run ran: recorded since report 1.1.0, inferred from its tests before. */
export function groupsRun(report: Report): string[] {
  return report.groups ?? [...new Set(report.tests.map((t) => t.group))];
}

/** The report restricted to some groups: tests of them, and coverage of their endpoints. */
function onlyGroups(report: Report, groups: Set<string>): Report {
  const inGroups = (endpoint: string) => groups.has(endpointById.get(endpoint)?.group ?? '');
  return {
    ...report,
    tests: report.tests.filter((t) => groups.has(t.group)),
    coverage: { pairs: report.coverage.pairs.filter((p) => inGroups(p.endpoint)), constraints: report.coverage.constraints.filter((c) => inGroups(c.endpoint)) },
  };
}

/** The reason cli/interrupt.ts gives a test an interrupted run never finished. */
const NOT_RUN = 'not run: the run was interrupted';
const finished = (test: TestRecord) => !test.reason?.startsWith(NOT_RUN);

/** Both reports restricted to the tests that finished in both. */
function onlyFinishedInBoth(base: Report, head: Report): [Report, Report] {
  const done = (report: Report) => new Set(report.tests.filter(finished).map((t) => t.id));
  const inBase = done(base);
  const inHead = done(head);
  const keep = (report: Report): Report => ({ ...report, tests: report.tests.filter((t) => inBase.has(t.id) && inHead.has(t.id)) });
  return [keep(base), keep(head)];
}

/**
 * Compares two runs on the groups both ran: a test of a group that one run did not run is neither
 * regressed nor removed, and its coverage neither lost nor gained.
 */
export function diffReports(fullBase: Report, fullHead: Report, files: { base: string; head: string } = { base: 'base', head: 'head' }): ReportDiff {
  const baseGroups = groupsRun(fullBase);
  const headGroups = groupsRun(fullHead);
  const common = new Set(baseGroups.filter((g) => headGroups.includes(g)));
  const groupsNotCompared = [...new Set([...baseGroups, ...headGroups])].filter((g) => !common.has(g)).sort();
  const interrupted = Boolean(fullBase.interrupted || fullHead.interrupted);
  let base = groupsNotCompared.length > 0 ? onlyGroups(fullBase, common) : fullBase;
  let head = groupsNotCompared.length > 0 ? onlyGroups(fullHead, common) : fullHead;
  // A run that selected tests (--clause, --failed, ...) is compared on the tests both ran, like an interrupted one.
  const partial = interrupted || Boolean(fullBase.selection || fullHead.selection);
  if (partial) [base, head] = onlyFinishedInBoth(base, head);
  const before = new Map(base.tests.map((t) => [t.id, t]));
  const after = new Map(head.tests.map((t) => [t.id, t]));
  const tests: ReportDiff['tests'] = { newlyFailing: [], newlyPassing: [], newlySkipped: [], newlyAdvisory: [], newlySecurity: [], expectationChanged: [], added: [], removed: [] };
  const shapeDrift: ShapeDrift[] = [];

  for (const test of head.tests) {
    const was = before.get(test.id);
    const from = was?.outcome ?? null;
    if (!was) tests.added.push(change(test, null, test.outcome));
    if (test.outcome !== from) {
      if (test.outcome === 'failed') tests.newlyFailing.push({ ...change(test, from, 'failed'), detail: expectedActual(test) });
      else if (test.outcome === 'passed' && was) tests.newlyPassing.push(change(test, from, 'passed'));
      else if (test.outcome === 'skipped') tests.newlySkipped.push(change(test, from, 'skipped'));
    }
    const known = new Set((was?.advisories ?? []).map(normalizeAdvisory));
    const fresh = test.advisories.filter((a) => !known.has(normalizeAdvisory(a)));
    if (fresh.length > 0) tests.newlyAdvisory.push({ ...change(test, from, test.outcome), advisories: fresh });
    const knownFindings = new Set((was?.security ?? []).map(normalizeFinding));
    const freshFindings = (test.security ?? []).filter((f) => !knownFindings.has(normalizeFinding(f)));
    if (freshFindings.length > 0) tests.newlySecurity.push({ ...change(test, from, test.outcome), security: freshFindings });
    const expectedBefore = was ? expectationOf(was) : null;
    const expectedNow = expectationOf(test);
    if (expectedBefore !== expectedNow && (was || expectedNow !== null)) tests.expectationChanged.push({ ...change(test, from, test.outcome), expected: { from: expectedBefore, to: expectedNow } });
    const oldDrift = driftKeys(was);
    for (const { schema, problems } of test.failure?.schemaProblems ?? []) {
      for (const p of problems) {
        if (oldDrift.has(`${schema} ${normalizePointer(p.pointer)} ${p.rule}`)) continue;
        shapeDrift.push({ test: test.id, name: test.name, schema, pointer: p.pointer, rule: p.rule, message: p.message });
      }
    }
  }
  for (const test of base.tests) if (!after.has(test.id)) tests.removed.push(change(test, test.outcome, null));

  const pairs = (report: Report): Covered[] =>
    report.coverage.pairs.map((p) => ({ key: `${p.endpoint} ${p.status}`, endpoint: p.endpoint, status: p.status, outcome: p.outcome, reason: p.reason }));
  const constraints = (report: Report): Covered[] =>
    report.coverage.constraints.map((c) => ({ key: c.id, endpoint: c.endpoint, constraint: c.id, outcome: c.outcome, reason: c.reason }));
  const rules = (report: Report): Covered[] => (report.coverage.rules ?? []).map((r) => ({ key: r.id, endpoint: '', rule: r.id, outcome: r.outcome, reason: r.reason }));
  const ruleChanges = base.coverage.rules && head.coverage.rules ? coverageChanges(rules(base), rules(head)) : { lost: [], gained: [], changed: [] };
  const pairChanges = coverageChanges(pairs(base), pairs(head));
  const constraintChanges = coverageChanges(constraints(base), constraints(head));

  const coverage: ReportDiff['coverage'] = {
    pairsLost: pairChanges.lost,
    pairsGained: pairChanges.gained,
    pairsChanged: pairChanges.changed,
    constraintsLost: constraintChanges.lost,
    constraintsGained: constraintChanges.gained,
    constraintsChanged: constraintChanges.changed,
    rulesLost: ruleChanges.lost,
    rulesGained: ruleChanges.gained,
    rulesChanged: ruleChanges.changed,
  };
  const coverageLost = !partial && (coverage.pairsLost.length > 0 || coverage.constraintsLost.length > 0 || coverage.rulesLost.length > 0);
  const regressed = tests.newlyFailing.length > 0 || tests.newlySecurity.length > 0 || coverageLost || shapeDrift.length > 0;
  const differentTargets = !(fullBase.target.embedded && fullHead.target.embedded) && fullBase.target.baseUrl !== fullHead.target.baseUrl;
  return { diffVersion: DIFF_VERSION, base: side(fullBase, files.base), head: side(fullHead, files.head), regressed, ...(interrupted ? { interrupted: true as const } : {}), ...(differentTargets ? { differentTargets: true as const } : {}), tests, coverage, shapeDrift, groupsNotCompared };
}

/** Nothing at all changed between the runs' outcomes, advisories and coverage. */
export function isEmptyDiff(diff: ReportDiff): boolean {
  return Object.values(diff.tests).every((list) => list.length === 0) && Object.values(diff.coverage).every((list) => list.length === 0) && diff.shapeDrift.length === 0;
}

const outcomeWord = (outcome: string | null) => outcome ?? 'absent';

/** One short line: reasons carry response bodies, which belong in the report, not in a diff. */
const clip = (text: string, max = 140) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}\u2026` : flat;
};

function testLines(title: string, list: TestChange[], line: (c: TestChange) => string): string[] {
  if (list.length === 0) return [];
  return [`### ${title} (${list.length})`, '', ...list.map((c) => `- ${line(c)}`), ''];
}

function coverageLines(title: string, list: CoverageChange[]): string[] {
  if (list.length === 0) return [];
  return [
    `### ${title} (${list.length})`,
    '',
    ...list.map((c) => `- ${c.rule ? code(c.rule) : c.constraint ? `${code(c.constraint)} (${code(c.endpoint)})` : `${code(c.endpoint)} ${c.status}`}: ${outcomeWord(c.from)} \u2192 ${outcomeWord(c.to)}${c.reason ? ` \u2014 ${md(clip(c.reason))}` : ''}`),
    '',
  ];
}

export function diffMarkdown(diff: ReportDiff): string {
  const out: string[] = [];
  out.push(`## Conformance diff: ${diff.regressed ? '\u274c regressed' : '\u2705 no regression'}`, '');
  if (diff.differentTargets) out.push(`> **Different targets**: the base report is of ${code(diff.base.target)}, the head report of ${code(diff.head.target)}. This compares two implementations, not two runs of one.`, '');
  if (diff.interrupted) out.push('> A run was interrupted (Ctrl-C): only tests that finished in both runs are compared; coverage lost is listed but not counted as a regression.', '');
  const row = (label: string, pick: (s: RunSide) => string) => `| ${label} | ${md(pick(diff.base))} | ${md(pick(diff.head))} |`;
  out.push(
    '| | Base | Head |',
    '|---|---|---|',
    row('Report', (s) => s.file),
    row('Verdict', (s) => `${VERDICT_MARK[s.verdict]} ${s.verdict}`),
    row('Finished', (s) => s.finishedAt),
    row('Target', (s) => s.target),
    row('Suite / spec', (s) => `${s.suiteVersion} / ${s.specVersion}`),
    row('Passed / failed / skipped', (s) => `${s.summary.passed} / ${s.summary.failed}${s.summary.expectedFailures ? ` (${s.summary.expectedFailures} expected)` : ''} / ${s.summary.skipped}`),
    row('Security findings', (s) => String(s.summary.security ?? 0)),
    row('Advisories', (s) => String(s.summary.advisories)),
    row('Pairs verified', (s) => `${s.pairsVerified}/${s.pairsTotal}`),
    '',
  );
  if (diff.groupsNotCompared.length > 0) out.push(`Only the groups both runs ran are compared; not compared: ${diff.groupsNotCompared.map(code).join(', ')}.`, '');
  const t = diff.tests;
  out.push(...testLines('New security findings', t.newlySecurity, (c) => `${md(c.name)}: ${(c.security ?? []).map(md).join('; ')}`));
  out.push(...testLines('Newly failing', t.newlyFailing, (c) => `${md(c.name)} \u2014 ${md(clausesText(c))}: ${md(c.detail ?? '')}${c.from === null ? ' (new test)' : ` (was ${c.from})`}`));
  out.push(...coverageLines('Coverage lost: endpoint \u00d7 status pairs', diff.coverage.pairsLost));
  out.push(...coverageLines('Coverage lost: field constraints', diff.coverage.constraintsLost));
  out.push(...coverageLines('Coverage lost: rules of the specification', diff.coverage.rulesLost ?? []));
  if (diff.shapeDrift.length > 0) {
    out.push(`### New shape drift (${diff.shapeDrift.length})`, '', ...diff.shapeDrift.map((d) => `- ${md(d.name)}: schema ${code(d.schema)} at ${code(d.pointer)} (${md(d.rule)}: ${md(d.message)})`), '');
  }
  out.push(...testLines('Expectation changed (--expected-failures)', t.expectationChanged, (c) => `${md(c.name)}: ${c.expected?.from === null ? 'not expected' : `expected (${md(c.expected?.from ?? '')})`} \u2192 ${c.expected?.to === null ? `not expected${c.to === 'failed' ? ', fails' : ''}` : `expected (${md(c.expected?.to ?? '')})`}`));
  out.push(...testLines('Newly passing', t.newlyPassing, (c) => `${md(c.name)} (was ${c.from})`));
  out.push(...testLines('Newly skipped', t.newlySkipped, (c) => `${md(c.name)}: ${md(c.reason ?? 'skipped')}${c.from === null ? ' (new test)' : ` (was ${c.from})`}`));
  out.push(...testLines('Newly advisory', t.newlyAdvisory, (c) => `${md(c.name)}: ${(c.advisories ?? []).map(md).join('; ')}`));
  out.push(...testLines('Tests added', t.added, (c) => `${md(c.name)} (${c.to})`));
  out.push(...testLines('Tests removed', t.removed, (c) => `${md(c.name)} (was ${c.from})`));
  out.push(...coverageLines('Coverage gained: endpoint \u00d7 status pairs', diff.coverage.pairsGained));
  out.push(...coverageLines('Coverage gained: field constraints', diff.coverage.constraintsGained));
  out.push(...coverageLines('Coverage gained: rules of the specification', diff.coverage.rulesGained ?? []));
  out.push(...coverageLines('Other coverage changes: endpoint \u00d7 status pairs', diff.coverage.pairsChanged));
  out.push(...coverageLines('Other coverage changes: field constraints', diff.coverage.constraintsChanged));
  out.push(...coverageLines('Other coverage changes: rules of the specification', diff.coverage.rulesChanged ?? []));
  if (isEmptyDiff(diff)) out.push('No test changed outcome; coverage and advisories are unchanged.', '');
  return `${out.join('\n').trimEnd()}\n`;
}
