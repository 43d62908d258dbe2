import type { Report, TestRecord } from './model.js';

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

function properties(test: TestRecord): string {
  const rows: [string, string][] = [
    ['endpoint', test.endpoint],
    ['expected_status', test.status === null ? 'flow' : Array.isArray(test.status) ? test.status.join(' or ') : String(test.status)],
    ['clauses', test.clauses.join(', ')],
  ];
  if (test.constraint) rows.push(['constraint', test.constraint]);
  if (test.observedStatus.length > 0) rows.push(['observed_status', test.observedStatus.join(', ')]);
  for (const advisory of test.advisories) rows.push(['advisory', advisory]);
  return `      <properties>\n${rows.map(([name, value]) => `        <property name="${name}" value="${escapeXml(value)}"/>`).join('\n')}\n      </properties>\n`;
}

function testcase(test: TestRecord): string {
  const head = `    <testcase name="${escapeXml(test.name)}" classname="${escapeXml(`${test.group}.${test.endpoint}`)}" file="${escapeXml(test.file)}" time="${(test.durationMs / 1000).toFixed(3)}">\n`;
  let body = properties(test);
  if (test.outcome === 'failed') {
    body += `      <failure message="${escapeXml(test.reason ?? 'failed')}" type="nonconformance">${escapeXml(`clauses ${test.clauses.join(', ')}\n${test.failure?.message ?? ''}`)}</failure>\n`;
  } else if (test.outcome === 'skipped') {
    body += `      <skipped message="${escapeXml(test.reason ?? 'skipped')}"/>\n`;
  }
  return `${head}${body}    </testcase>\n`;
}

/** JUnit XML as Jenkins, GitLab and GitHub read it: one testsuite per endpoint group. */
export function toJunit(report: Report): string {
  const groups = new Map<string, TestRecord[]>();
  for (const test of report.tests) groups.set(test.group, [...(groups.get(test.group) ?? []), test]);
  const suites = [...groups].map(([group, tests]) => {
    const failures = tests.filter((t) => t.outcome === 'failed').length;
    const skipped = tests.filter((t) => t.outcome === 'skipped').length;
    const time = tests.reduce((s, t) => s + t.durationMs, 0) / 1000;
    return `  <testsuite name="${escapeXml(group)}" tests="${tests.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}" timestamp="${report.startedAt}">\n${tests.map(testcase).join('')}  </testsuite>\n`;
  });
  const s = report.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="account-api-conformance" tests="${s.total}" failures="${s.failed}" errors="0" skipped="${s.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('')}</testsuites>\n`;
}
