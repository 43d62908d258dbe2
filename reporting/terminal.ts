import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { exactReproduction, reproductionSteps, VARIABLE_SOURCES } from './curl.js';
import { advisedTests, clausesText, conformantScope, constraintsHeadline, counted, expectedFailedTests, expectedReason, failuresHeading, gateLine, incompleteReason, expectedActual, failedTests, notedTests, reasonDetail, schemaPointers, securityCount, securityTests, skipReasons, verifiedPairs } from './facts.js';
import type { Report, TestRecord } from './model.js';
import { sourceFileOf } from './source-lines.js';
import { FAILED_LOGINS_PER_ACCOUNT } from '../helpers/spec/logins.js';

type Write = (line: string) => void;

/** One line per finished suite file while the run goes on. */
export class ProgressReporter implements Reporter {
  constructor(
    private readonly root: string,
    private readonly write: Write,
  ) {}

  onTestModuleEnd(module: TestModule): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const test of module.children.allTests()) {
      if (test.meta().unselected) continue;
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed') failed++;
      else skipped++;
    }
    // A file whose every test the selection left out (--clause, --endpoint, --grep, --failed) says nothing.
    if (passed + failed + skipped === 0) return;
    const mark = failed > 0 ? 'x' : '\u2713';
    // `conformance run` runs a file's tests that provoke a restriction in a last phase (vitest.run.config.ts): their own line.
    const last = module.project.name === 'last' ? ' (run last: they provoke the brute-force restriction, or need no other test\u2019s login between their own)' : '';
    this.write(`  ${mark} ${relative(this.root, sourceFileOf(module.moduleId))}  ${passed} passed${failed ? `, ${failed} failed` : ''}${skipped ? `, ${skipped} skipped` : ''}${last}`);
  }
}

/** Failures detailed in the terminal; the rest are named only (every one is in the report files). */
const DETAILED_FAILURES = 30;

/** What a person needs to act on one failure: the test, the clause, expected and actual, and a curl command. */
export function failureLines(test: TestRecord, target?: Pick<Report['target'], 'mutant'>): { lines: string[]; variables: string[] } {
  const lines = [`  x ${test.name}`, `      ${clausesText(test)} \u00b7 ${test.file}`, `      ${expectedActual(test)}`];
  const reason = reasonDetail(test, 200);
  if (schemaPointers(test).length === 0 && reason) lines.push(`      ${reason}`);
  const steps = reproductionSteps(test);
  if (steps.commands.length > 1) lines.push(`      the requests in order up to the failing one${steps.omitted > 0 ? ` (${steps.omitted} earlier in report.json)` : ''}:`);
  for (const command of steps.commands) lines.push(`      $ ${command}`);
  lines.push(`      reproduce exactly: ${exactReproduction(test, target)}`);
  return { lines, variables: steps.variables };
}

/** The closing summary: failures in detail, skips by reason, warnings, coverage, files, verdict, counts. */
export function summaryLines(report: Report, files: Record<string, string>, hints: string[] = [], gate: { incompleteFails?: boolean } = {}): string[] {
  const lines: string[] = [''];
  const insecure = securityTests(report);
  if (insecure.length > 0) {
    lines.push(`Security findings (${securityCount(report)}): credentials in the target's answers`);
    for (const test of insecure) for (const finding of test.security ?? []) lines.push(`  ! ${test.name}: ${finding}`);
  }
  const failed = failedTests(report);
  if (failed.length > 0) {
    lines.push(`${failuresHeading(report, failed.length)}:`);
    const variables = new Set<string>();
    for (const test of failed.slice(0, DETAILED_FAILURES)) {
      const detail = failureLines(test, report.target);
      lines.push(...detail.lines);
      detail.variables.forEach((v) => variables.add(v));
    }
    for (const test of failed.slice(DETAILED_FAILURES)) lines.push(`  x ${test.name} (${clausesText(test)})`);
    if (variables.size > 0) {
      lines.push(`  (the curl commands read ${[...variables].map((v) => `$${v}`).join(', ')} from the environment: secrets are never printed)`);
      for (const variable of variables) lines.push(`    $${variable}: ${VARIABLE_SOURCES[variable] ?? "a secret the run used: the provider state's answer or your states file"}`);
    }
  }
  const expected = expectedFailedTests(report);
  if (report.expectedFailures && (expected.length > 0 || report.expectedFailures.problems.length > 0)) {
    lines.push(`Expected failures (${expected.length}), listed in ${report.expectedFailures.file}: the target deviates, the gate carries them`);
    for (const test of expected) {
      const reason = reasonDetail(test, 200);
      lines.push(`  ~x ${test.name} (${clausesText(test)}): ${expectedReason(test)}`, `      ${expectedActual(test)}${reason ? `: ${reason}` : ''}`);
    }
    for (const problem of report.expectedFailures.problems) lines.push(`  ! ${problem}`);
  }
  const skips = skipReasons(report);
  if (skips.length > 0) {
    lines.push(`Not verified (${report.summary.skipped}):`);
    for (const { reason, count } of skips) lines.push(`  - ${count} test${count > 1 ? 's' : ''}: ${reason}`);
  }
  const advised = advisedTests(report);
  if (advised.length > 0) {
    lines.push(`Advisories (${report.summary.advisories}): the specification is silent here${report.strict ? '; under --strict they fail their tests' : ', not failures'}`);
    for (const test of advised.slice(0, DETAILED_FAILURES)) for (const advisory of test.advisories) lines.push(`  ~ ${test.name}: ${advisory}`);
    if (advised.length > DETAILED_FAILURES) lines.push(`  ... and ${advised.length - DETAILED_FAILURES} more tests with advisories (see the reports)`);
  }
  for (const test of notedTests(report)) for (const note of test.notes ?? []) lines.push(`note: ${note}`);
  const leftBehind = report.tests.filter((t) => (t.leftBehind?.length ?? 0) > 0);
  if (leftBehind.length > 0) {
    lines.push(`Left behind: clean-up steps that could not finish${report.interrupted ? ' (cut short by the interrupt)' : ''}; delete these by hand:`);
    for (const test of leftBehind) for (const step of test.leftBehind ?? []) lines.push(`  ! ${test.name}: ${step}`);
  }
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  if (report.summary.rateLimited) lines.push(`Rate limited: ${report.summary.rateLimited} answer${report.summary.rateLimited > 1 ? 's were' : ' was'} 429 or 503 with Retry-After and retried; --rate N caps the suite's requests per second`);
  if (report.summary.failedLogins) lines.push(`Failed logins: the run sent ${report.summary.failedLogins} login${report.summary.failedLogins > 1 ? 's' : ''} the target refused, from one client address: wrong credentials and the refusals of accounts a state made inactive, locked or restricted; at most ${FAILED_LOGINS_PER_ACCOUNT} to one account but in the brute-force tests (section 8 says neither the brute-force threshold nor whose failures count; a test that met a 425 it did not provoke is not verified)`);
  lines.push(`Coverage: ${verifiedPairs(report)}/${report.coverage.pairs.length} documented endpoint x status pairs verified${report.coverage.ruleSummary ? `, ${report.coverage.ruleSummary.verified}/${report.coverage.ruleSummary.observable} observable rules of the specification${report.coverage.ruleSummary.pending ? ` (${report.coverage.ruleSummary.pending} checked by no test of this suite version)` : ''}` : ''}${report.coverage.instanceSummary ? `, ${report.coverage.instanceSummary.verified}/${report.coverage.instanceSummary.observable} rule instances` : ''}`);
  lines.push(`Field constraints: ${constraintsHeadline(report)}`);
  if (Object.keys(files).length > 0) lines.push(`Reports: ${Object.values(files).join(', ')}`);
  lines.push(...hints);
  lines.push(`Verdict: ${report.verdict}${report.interrupted ? ' (interrupted: only the tests that finished)' : ''} (${(report.durationMs / 1000).toFixed(1)} s, ${counted(securityCount(report), 'security finding', 'security findings')}, ${counted(report.summary.advisories, 'advisory', 'advisories')})`);
  const why = incompleteReason(report) ?? conformantScope(report);
  if (why) lines.push(`  ${why}`);
  const s = report.summary;
  lines.push(`${s.passed} passed, ${s.failed - expected.length} failed, ${expected.length > 0 ? `${expected.length} failed as expected, ` : ''}${s.skipped} skipped`);
  const gateText = gateLine(report, gate);
  if (gateText) lines.push(gateText);
  return lines;
}
