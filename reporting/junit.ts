import { escapeControls, escapeControlsButLayout } from '../helpers/spec/quote.js';
import { curlCommand, exactReproduction, failingExchange } from './curl.js';
import { clausesText, expectedActual, expectedReason } from './facts.js';
import type { Report, TestRecord } from './model.js';

/**
 * Text content: markup characters escaped; control characters (C0 but line feed and tab, DEL, C1,
 * line separators, bidi controls) as visible escapes (issue 29: XML 1.0 forbids most C0, and a CI
 * page showing C1 or bidi controls would obey them); the other characters XML 1.0 forbids removed.
 */
export const escapeXml = (text: string) =>
  escapeControlsButLayout(text)
    .replace(/[\ufffe\uffff]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Attribute values: also line breaks and tabs as character references (a parser would turn them into spaces). */
const escapeAttr = (text: string) => escapeXml(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');

/** xs:dateTime as the JUnit schema writes it (no fraction, no zone; the run's times are UTC). */
const junitTimestamp = (iso: string) => iso.replace(/\.\d+Z$|Z$/, '');

function properties(test: TestRecord): string {
  const rows: [string, string][] = [
    ['endpoint', test.endpoint],
    ['expected_status', test.status === null ? 'flow' : Array.isArray(test.status) ? test.status.join(' or ') : String(test.status)],
    ['clauses', test.clauses.join(', ')],
  ];
  if (test.rules && test.rules.length > 0) rows.push(['rules', test.rules.join(', ')]);
  if (test.constraint) rows.push(['constraint', test.constraint]);
  if (test.observedStatus.length > 0) rows.push(['observed_status', test.observedStatus.join(', ')]);
  for (const finding of test.security ?? []) rows.push(['security', finding]);
  for (const advisory of test.advisories) rows.push(['advisory', advisory]);
  for (const note of test.notes ?? []) rows.push(['note', note]);
  return `      <properties>\n${rows.map(([name, value]) => `        <property name="${name}" value="${escapeAttr(value)}"/>`).join('\n')}\n      </properties>\n`;
}

function testcase(test: TestRecord, target?: Report['target']): string {
  const head = `    <testcase name="${escapeAttr(test.name)}" classname="${escapeAttr(`${test.group}.${test.endpoint}`)}" file="${escapeAttr(test.file)}"${test.line ? ` line="${test.line}"` : ''} time="${(test.durationMs / 1000).toFixed(3)}">\n`;
  let body = properties(test);
  if (test.expectedFailure && (test.security?.length ?? 0) === 0) {
    // As pytest writes an xfail: skipped, typed, with why it was expected; a CI reading JUnit stays green.
    body += `      <skipped type="expected-failure" message="${escapeAttr(`expected failure: ${expectedReason(test)} \u2014 ${clausesText(test)}: ${expectedActual(test)}`)}"/>\n`;
  } else if (test.outcome === 'failed') {
    const exchange = failingExchange(test);
    const detail = [`${clausesText(test)}: ${expectedActual(test)}`, '', test.failure?.message ?? test.reason ?? 'failed'];
    if (exchange) detail.push('', 'Reproduce the request whose answer failed the check (secrets are shell variables):', escapeControls(curlCommand(exchange).command));
    detail.push('', `Reproduce exactly: ${exactReproduction(test, target)}`);
    const type = (test.security?.length ?? 0) > 0 ? 'security' : 'nonconformance';
    body += `      <failure message="${escapeAttr(`${clausesText(test)}: ${expectedActual(test)}`)}" type="${type}">${escapeXml(detail.join('\n'))}</failure>\n`;
  } else if (test.outcome === 'skipped') {
    body += `      <skipped message="${escapeAttr(test.reason ?? 'skipped')}"/>\n`;
  }
  return `${head}${body}    </testcase>\n`;
}

/** JUnit XML as Jenkins, GitLab and GitHub read it: one testsuite per endpoint group. */
export function toJunit(report: Report): string {
  // A selected run (or the proxy's judgement of traffic) says so in every suite: its cases are not the whole suite.
  const scopeRows = [...(report.selection ? [['selection', report.selection.text]] : []), ...(report.proxy ? [['proxy', `traffic to ${report.proxy.target}`]] : [])];
  // What was tested, as the operator declared it (--implementation), beside the suite's and the specification's versions.
  if (report.implementation) {
    scopeRows.push(['implementation', `${report.implementation.name} ${report.implementation.version} (declared by the operator)`], ['suite', `${report.suite.name} ${report.suite.version}`], ['spec', `${report.spec.title} ${report.spec.version}`]);
  }
  const scope = scopeRows.length > 0 ? `    <properties>\n${scopeRows.map(([name, value]) => `      <property name="${name}" value="${escapeAttr(value!)}"/>`).join('\n')}\n    </properties>\n` : '';
  const groups = new Map<string, TestRecord[]>();
  for (const test of report.tests) groups.set(test.group, [...(groups.get(test.group) ?? []), test]);
  const suites = [...groups].map(([group, tests]) => {
    const excused = (t: TestRecord) => t.expectedFailure !== undefined && (t.security?.length ?? 0) === 0;
    const failures = tests.filter((t) => t.outcome === 'failed' && !excused(t)).length;
    const skipped = tests.filter((t) => t.outcome === 'skipped' || excused(t)).length;
    const time = tests.reduce((s, t) => s + t.durationMs, 0) / 1000;
    return `  <testsuite name="${escapeAttr(group)}" tests="${tests.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}" timestamp="${junitTimestamp(report.startedAt)}">\n${scope}${tests.map((test) => testcase(test, report.target)).join('')}  </testsuite>\n`;
  });
  const s = report.summary;
  const excused = report.tests.filter((t) => t.expectedFailure !== undefined && (t.security?.length ?? 0) === 0).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="account-api-conformance" tests="${s.total}" failures="${s.failed - excused}" errors="0" skipped="${s.skipped + excused}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('')}</testsuites>\n`;
}
