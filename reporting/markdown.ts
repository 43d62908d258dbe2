import { escapeControls, hasControls } from '../helpers/spec/quote.js';
import { advisedTests, conformantScope, expectedActual, expectedFailedTests, expectedReason, failuresHeading, gateLine, incompleteReason, failedTests, notedTests, securityCount, securityTests, skipReasons, verifiedPairs } from './facts.js';
import type { PairCoverage, Report, RuleCoverage, RuleTally, Verdict } from './model.js';

/**
 * summary.md: the run in a page of Markdown (GitHub-flavoured), for a CI job summary, a pull request
 * comment or a person reading the report folder.
 */

/** Escapes text for Markdown prose and table cells: no markup, no HTML, no table breaks, one line. */
export function md(text: string): string {
  // Line breaks become spaces (a table row stays one line); every other control a visible escape (issue 29).
  return escapeControls(text.replace(/\r?\n|\r/g, ' '))
    .replace(/[\\`*_[\]|~<>]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`))
    .replace(/&(?!lt;|gt;)/g, '&amp;');
}

/** Inline code, for endpoints and file names; falls back to escaped text when a backtick would break it. */
export function code(text: string): string {
  return /[`\r\n|]/.test(text) || hasControls(text) ? md(text) : `\`${text}\``;
}

export const VERDICT_MARK: Record<Verdict, string> = { conformant: '\u2705', nonconformant: '\u274c', incomplete: '\u26a0\ufe0f' };

const MAX_ROWS = 100;

function endpointRows(pairs: PairCoverage[]): string[] {
  const byEndpoint = new Map<string, PairCoverage[]>();
  for (const pair of pairs) byEndpoint.set(pair.endpoint, [...(byEndpoint.get(pair.endpoint) ?? []), pair]);
  return [...byEndpoint].map(([endpoint, list]) => {
    const statuses = (outcome: PairCoverage['outcome']) =>
      list
        .filter((p) => p.outcome === outcome)
        .map((p) => (p.observed ? `${p.status} (as ${p.observed.join(' or ')}, allowed)` : p.status))
        .join(', ');
    return `| ${code(endpoint)} | ${statuses('passed')} | ${statuses('failed')} | ${statuses('not verified')} |`;
  });
}

/**
 * Coverage by rule: verified out of observable, per section (pending apart); the rules no test of this
 * suite version checks, before the observable rules not verified in this run (that list is cut at
 * MAX_ROWS, the pending one never); the unobservable ones with their reason.
 */
function ruleLines(report: Report): string[] {
  const rules = report.coverage.rules;
  const summary = report.coverage.ruleSummary;
  if (!rules || !summary) return [];
  const pending = rules.filter((r) => r.observable && r.pending === true);
  const inRun = (t: RuleTally) => t.notVerified - (t.pending ?? 0);
  const out = [
    '### Coverage by rule',
    '',
    `${summary.verified} of ${summary.observable} observable rules of the specification verified${summary.failed ? `, ${summary.failed} failed` : ''}${inRun(summary) ? `, ${inRun(summary)} not verified in this run` : ''}${pending.length ? `, ${pending.length} checked by no test of this suite version` : ''}; ${summary.unobservable} rules cannot be observed by a client.`,
    '',
  ];
  out.push('| Section | Verified / observable | Failed | Not verified | Pending (no test yet) | Unobservable |', '|---|---:|---:|---:|---:|---:|');
  for (const c of summary.sections) out.push(`| \u00a7${md(c.section)} ${md(c.title)} | ${c.verified}/${c.observable} | ${c.failed || ''} | ${inRun(c) || ''} | ${c.pending || ''} | ${c.unobservable || ''} |`);
  out.push('');
  const line = (r: RuleCoverage) => `- ${r.id} (\u00a7${md(r.sections.join(', '))}) ${md(r.quote)}`;
  if (pending.length > 0) {
    out.push(`Checked by no test of this suite version (${pending.length}): the suite's gap, not the target's, yet not verified on any target, so a certificate says at best incomplete:`, '');
    for (const r of pending) out.push(line(r));
    out.push('');
  }
  const open = rules.filter((r) => r.observable && r.outcome !== 'passed' && r.pending !== true);
  if (open.length > 0) {
    out.push(`Observable rules not verified in this run (${open.length}):`, '');
    for (const r of open.slice(0, MAX_ROWS)) out.push(`${line(r)}: ${r.outcome}${r.reason ? `, ${md(r.reason)}` : ''}`);
    if (open.length > MAX_ROWS) out.push(`- \u2026 and ${open.length - MAX_ROWS} more in report.json`);
    out.push('');
  }
  out.push(...instanceLines(report));
  const unobservable = rules.filter((r) => !r.observable);
  if (unobservable.length > 0) {
    out.push(`Rules no client can observe (${unobservable.length}):`, '');
    for (const r of unobservable) out.push(`${line(r)}: ${md((r.reason ?? '').replace(/^not observable by a client: /, ''))}`);
    out.push('');
  }
  return out;
}

/** Since 1.4.0: instance coverage beside rule coverage, and the instances not verified (cut at MAX_ROWS). */
function instanceLines(report: Report): string[] {
  const summary = report.coverage.instanceSummary;
  const instances = report.coverage.instances;
  if (!summary || !instances) return [];
  const out = [`${summary.verified} of ${summary.observable} rule instances verified${summary.failed ? `, ${summary.failed} failed` : ''}${summary.notVerified ? `, ${summary.notVerified} not verified` : ''} (an instance is one place a rule applies: an endpoint, a path shape, a class; a rule of several places is verified only when each is).`, ''];
  const open = instances.filter((i) => i.observable && i.outcome !== 'passed');
  if (open.length > 0) {
    out.push(`Rule instances not verified (${open.length}):`, '');
    for (const i of open.slice(0, MAX_ROWS)) out.push(`- ${md(i.id)}: ${i.outcome}${i.reason ? `, ${md(i.reason)}` : ''}`);
    if (open.length > MAX_ROWS) out.push(`- \u2026 and ${open.length - MAX_ROWS} more in report.json`);
    out.push('');
  }
  return out;
}

export function toMarkdown(report: Report, files: Record<string, string> = {}): string {
  const s = report.summary;
  const out: string[] = [];
  out.push(`## Conformance: ${VERDICT_MARK[report.verdict]} ${report.verdict}`, '');
  const why = incompleteReason(report) ?? conformantScope(report);
  if (why) out.push(md(why), '');
  if (report.interrupted) out.push('**Interrupted (Ctrl-C): only the tests that finished are reported; the others are skipped as not run.**', '');
  if (s.rateLimited) out.push(`Rate limited: ${s.rateLimited} answers were 429 or 503 with Retry-After and retried.`, '');
  out.push(
    `Target ${code(report.target.baseUrl)}${report.target.embedded ? ' (embedded reference)' : ''}${report.implementation ? ` \u00b7 implementation ${md(`${report.implementation.name} ${report.implementation.version}`)} (declared by the operator)` : ''} \u00b7 suite ${md(report.suite.name)} ${md(report.suite.version)} \u00b7 spec ${md(report.spec.title)} ${md(report.spec.version)} \u00b7 ${md(report.finishedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))} \u00b7 ${(report.durationMs / 1000).toFixed(1)} s${report.strict ? ' \u00b7 strict' : ''}`,
    '',
  );
  const rules = report.coverage.ruleSummary;
  const instances = report.coverage.instanceSummary;
  out.push(`| Passed | Failed | Skipped | Security findings | Advisories | Endpoint x status pairs verified |${rules ? ' Observable rules verified |' : ''}${instances ? ' Rule instances verified |' : ''}`, `|---:|---:|---:|---:|---:|---:|${rules ? '---:|' : ''}${instances ? '---:|' : ''}`);
  out.push(`| ${s.passed} | ${s.failed} | ${s.skipped} | ${securityCount(report)} | ${s.advisories} | ${verifiedPairs(report)}/${report.coverage.pairs.length} |${rules ? ` ${rules.verified}/${rules.observable} |` : ''}${instances ? ` ${instances.verified}/${instances.observable} |` : ''}`, '');

  const insecure = securityTests(report);
  if (insecure.length > 0) {
    out.push(`### Security findings (${securityCount(report)}): credentials in the target's answers`, '');
    for (const test of insecure.slice(0, MAX_ROWS)) for (const finding of test.security ?? []) out.push(`- ${md(test.name)}: ${md(finding)}`);
    out.push('');
  }

  const failed = failedTests(report);
  if (failed.length > 0) {
    out.push(`### ${failuresHeading(report, failed.length)}`, '', '| Test | Clauses | Expected / actual |', '|---|---|---|');
    for (const test of failed.slice(0, MAX_ROWS)) out.push(`| ${md(test.name)} | ${md(test.clauses.join(', '))} | ${md(expectedActual(test))} |`);
    if (failed.length > MAX_ROWS) out.push('', `\u2026 and ${failed.length - MAX_ROWS} more in the report files.`);
    out.push('');
  }

  const expected = expectedFailedTests(report);
  if (report.expectedFailures) {
    out.push(`### Expected failures (${expected.length}), listed in ${code(report.expectedFailures.file)}`, '', md(gateLine(report)!), '');
    if (expected.length > 0) {
      out.push('| Test | Clauses | Expected / actual | Why expected |', '|---|---|---|---|');
      for (const test of expected.slice(0, MAX_ROWS)) out.push(`| ${md(test.name)} | ${md(test.clauses.join(', '))} | ${md(expectedActual(test))} | ${md(expectedReason(test))} |`);
      out.push('');
    }
    for (const problem of report.expectedFailures.problems) out.push(`- ${md(problem)}`);
    if (report.expectedFailures.problems.length > 0) out.push('');
  }

  out.push('### Coverage by endpoint', '', '| Endpoint | Passed | Failed | Not verified |', '|---|---|---|---|', ...endpointRows(report.coverage.pairs), '');
  const constraints = report.coverage.constraints;
  const observable = constraints.filter((c) => c.observable !== false);
  const constraintCount = (outcome: string) => observable.filter((c) => c.outcome === outcome).length;
  const unobservable = constraints.length - observable.length;
  out.push(
    `Field constraints: ${constraintCount('passed')} verified, ${constraintCount('failed')} failed, ${constraintCount('not verified')} not verified (of ${observable.length} observable)${unobservable > 0 ? `; ${unobservable} not observable by a client` : ''}.`,
    '',
  );
  out.push(...ruleLines(report));

  const skips = skipReasons(report);
  if (skips.length > 0) {
    out.push(`### Not verified (${s.skipped} skipped tests)`, '');
    for (const { reason, count } of skips) out.push(`- ${count} test${count > 1 ? 's' : ''}: ${md(reason)}`);
    out.push('');
  }

  const advised = advisedTests(report);
  if (advised.length > 0) {
    out.push(`### Advisories (${s.advisories}): the specification is silent, not failures`, '');
    for (const test of advised.slice(0, MAX_ROWS)) for (const advisory of test.advisories) out.push(`- ${md(test.name)}: ${md(advisory)}`);
    out.push('');
  }

  const noted = notedTests(report);
  if (noted.length > 0) {
    out.push('### Measured', '');
    for (const test of noted) for (const note of test.notes ?? []) out.push(`- ${md(test.name)}: ${md(note)}`);
    out.push('');
  }

  const leftBehind = report.tests.filter((t) => (t.leftBehind?.length ?? 0) > 0);
  if (leftBehind.length > 0) {
    out.push('### Left behind: clean-up steps that could not finish', '');
    for (const test of leftBehind) for (const step of test.leftBehind ?? []) out.push(`- ${md(test.name)}: ${md(step)}`);
    out.push('');
  }

  if (report.warnings.length > 0) {
    out.push('### Warnings', '');
    for (const warning of report.warnings) out.push(`- ${md(warning)}`);
    out.push('');
  }

  const fileNames = Object.values(files);
  if (fileNames.length > 0) out.push(`Report files: ${fileNames.map(code).join(', ')}`, '');
  return `${out.join('\n').trimEnd()}\n`;
}
