import { implementationLine } from '../reporting/certificate.js';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { curlCommand } from '../reporting/curl.js';
import { annotations, appendStepSummary, escapeData, escapeProperty } from '../reporting/github.js';
import { toHtml } from '../reporting/html.js';
import { toJunit } from '../reporting/junit.js';
import { md, toMarkdown } from '../reporting/markdown.js';
import { failureLines, summaryLines } from '../reporting/terminal.js';
import { expectedActual } from '../reporting/facts.js';
import { exchange, record, report } from './reporting-fixtures.js';
import { tempDir } from './support.js';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { loadConfig, parseImplementation } from '../helpers/net/config.js';

/** Runs a curl command line in sh with `curl` replaced by a function that prints its arguments, one per line. */
function curlArguments(command: string, env: Record<string, string>): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\n' "$a"; done; }\n${command}`;
  const result = spawnSync('sh', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n').slice(0, -1);
}

describe('curl reproduction', () => {
  test('maps redacted Authorization, Token and JSON secrets to shell variables that expand', () => {
    const { command, variables } = curlCommand(
      exchange(
        {
          method: 'POST',
          url: "http://127.0.0.1:9/api/v1/authenticate?assets[]=BTC&q=it's",
          headers: { accept: 'application/json', 'content-type': 'application/json', authorization: '[REDACTED]', token: '[REDACTED]' },
          body: { email: "o'neil$HOME@example.test", password: '[REDACTED]', '2fa': '[REDACTED]', nested: { token: '[REDACTED]' } },
        },
        undefined,
      ),
    );
    expect(command).not.toContain('[REDACTED]');
    expect(variables.sort()).toEqual(['ACCESS_TOKEN', 'JWT', 'PASSWORD', 'TOKEN', 'TOTP_CODE']);
    const args = curlArguments(command, { ACCESS_TOKEN: 'at-1', JWT: 'jwt-1', PASSWORD: "pa ss'w$d", TOKEN: 'tk-1', TOTP_CODE: '123456' });
    expect(args).toContain('-X');
    expect(args).toContain("http://127.0.0.1:9/api/v1/authenticate?assets[]=BTC&q=it's");
    expect(args).toContain('authorization: Bearer at-1');
    expect(args).toContain('token: jwt-1');
    const body = JSON.parse(args[args.indexOf('--data-raw') + 1]!);
    // The e-mail's `'` and `$HOME` stay literal; the variables expand.
    expect(body).toEqual({ email: "o'neil$HOME@example.test", password: "pa ss'w$d", '2fa': '123456', nested: { token: 'tk-1' } });
  });

  test('reproduces a multipart form with files and a raw body', () => {
    const form = curlCommand(
      exchange({ method: 'POST', url: 'http://h/api/v1/user/u/card', headers: { accept: 'application/json' }, body: { alias: '@not-a-file', cardImage1: '<file card.png, 120 bytes, image/png>' } }),
    );
    const args = curlArguments(form.command, {});
    expect(args).toContain('alias=@not-a-file');
    expect(args[args.indexOf('alias=@not-a-file') - 1]).toBe('--form-string');
    expect(args).toContain('cardImage1=@card.png;type=image/png');
    const rawBody = curlCommand(exchange({ method: 'POST', url: 'http://h/x', headers: { 'content-type': 'application/json' }, body: '{"a": [REDACTED]' }));
    expect(curlArguments(rawBody.command, { SECRET: 's' })).toContain('{"a": s');
  });
});

describe('failure headline (expectedActual, shared by every output)', () => {
  test('a failed precondition is its own headline, naming its step, not the status the test expects', () => {
    const failed = record('answers 401 or 403 or 409 to a logged-out token', {
      status: [401, 403, 409],
      outcome: 'failed',
      observedStatus: [],
      reason: 'precondition: logout must answer 200, got 401',
      failure: { message: 'precondition: logout must answer 200, got 401', schemaProblems: [] },
      exchanges: [exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/logout' }, { status: 401, headers: {}, body: {} })],
    });
    expect(expectedActual(failed)).toBe('precondition failed: logout must answer 200, got 401');
    const { lines } = failureLines(failed);
    expect(lines[2]).toBe('      precondition failed: logout must answer 200, got 401');
    expect(lines.join('\n')).not.toMatch(/expected 401 or 403 or 409/);
    expect(annotations(report([failed]))[0]).toContain('precondition failed: logout must answer 200, got 401');
    expect(toJunit(report([failed]))).toContain('message="section 4.10: precondition failed: logout must answer 200, got 401"');
  });

  test('when the status matched, the headline is the real cause (an echo), without vitest\'s assertion tail, said once', () => {
    const cause = 'create: swift must be the value sent ("ABCDDEFF"), up to trimming, NFC/NFD, letter case; got "ABCDDEFF001"';
    const failed = record('answers 201 for a swift of 8 characters', {
      endpoint: 'POST /api/v1/user/{user}/bank',
      status: 201,
      outcome: 'failed',
      observedStatus: [201],
      reason: `${cause}: expected false to be true // Object.is equality`,
      failure: { message: `${cause}: expected false to be true // Object.is equality\n\n- Expected\n+ Received`, schemaProblems: [] },
    });
    expect(expectedActual(failed)).toBe(`${cause} (status 201, as expected)`);
    const { lines } = failureLines(failed);
    expect(lines[2]).toBe(`      ${cause} (status 201, as expected)`);
    expect(lines.join('\n')).not.toMatch(/expected 201, got 201/);
    expect(lines.filter((line) => line.includes(cause))).toHaveLength(1);
    expect(toMarkdown(report([failed]))).toContain(`${cause} (status 201, as expected)`);
  });

  test('a test of several steps that fails on a later step whose status it accepted names the cause, not "expected 201, got 200"', () => {
    const cause = 'sections 4.6a and 2.5: the list gives the card other holderName than its show';
    const steps = [exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/user/u-1/card' }, { status: 201, headers: {}, body: { data: {} } }), exchange({}, { status: 200, headers: {}, body: { data: {} } }), exchange({}, { status: 200, headers: {}, body: { data: [] } })];
    const failed = record('answers two different image identifiers for a card created with two different images', {
      endpoint: 'POST /api/v1/user/{user}/card',
      status: 201,
      outcome: 'failed',
      observedStatus: [201, 200, 200],
      exchanges: steps,
      checkedExchange: 2,
      failedAt: 2,
      reason: cause,
      failure: { message: cause, schemaProblems: [] },
    });
    expect(expectedActual(failed)).toBe(`${cause} (status 200, as expected)`);
    // Its own status assertion failing on that step is still "expected X, got Y".
    const status = record('answers 201 and lists the card', { endpoint: 'POST /api/v1/user/{user}/card', status: 201, outcome: 'failed', observedStatus: [201, 500], exchanges: [steps[0]!, exchange({}, { status: 500, headers: {}, body: {} })], checkedExchange: 1, failedAt: 1, reason: 'expected status 200, got 500; body: {}', failure: { message: 'expected status 200, got 500; body: {}', schemaProblems: [] } });
    expect(expectedActual(status)).toBe('expected 201, got 500');
  });

  // review-s: a status asserted by expect(response.status) or expectNoServerError is not in observedStatus; the failing
  // step (failedAt) names it, and a failing step the test did not check last is never "as expected".
  test('a status failed by expect(response.status) after other checked steps keeps "expected X, got Y", naming the failing step’s status', () => {
    const cause = 'section 4.10: the user’s unused bank on platform P2 must be deleted with 200 { message }; got 404';
    const steps = [exchange({}, { status: 200, headers: {}, body: { data: [] } }), exchange({}, { status: 404, headers: {}, body: { message: 'x' } }), exchange({ method: 'DELETE' }, { status: 404, headers: {}, body: { message: 'x' } })];
    const failed = record('answers 200 to a delete of the user’s bank on either of two platforms', { endpoint: 'DELETE /api/v1/user/{user}/bank/{bank}', status: 200, outcome: 'failed', observedStatus: [200, 404], exchanges: steps, checkedExchange: 1, failedAt: 2, reason: `${cause}: expected 404 to be 200 // Object.is equality`, failure: { message: cause, schemaProblems: [] } });
    expect(expectedActual(failed)).toBe(`${cause} (status 404)`);
    const server = record('answers 201 and lists the bank', { endpoint: 'POST /api/v1/user/{user}/bank', status: 201, outcome: 'failed', observedStatus: [201, 200], exchanges: [steps[0]!, steps[0]!, exchange({}, { status: 500, headers: {}, body: {} })], checkedExchange: 1, failedAt: 2, reason: 'a 5xx is a server error, never a conformant answer; got 500: expected 500 to be less than 500', failure: { message: 'a 5xx is a server error', schemaProblems: [] } });
    expect(expectedActual(server)).toBe('a 5xx is a server error, never a conformant answer; got 500 (status 500)');
  });

  test('a test of several steps (no one status) names what its failing step expected, never "expected a flow of steps"', () => {
    const failed = record('lists the user\u2019s banks under each currency writing', { status: null, outcome: 'failed', observedStatus: [200, 400], reason: 'expected status 200 or 422, got 400; body: {}', failure: { message: 'expected status 200 or 422, got 400; body: {}', schemaProblems: [] }, exchanges: [exchange({}, { status: 400, headers: {}, body: {} })] });
    expect(expectedActual(failed)).toBe('a step expected 200 or 422, got 400');
    // With no status assertion to read, the flow is named as before.
    const bare = record('runs a flow', { status: null, outcome: 'failed', observedStatus: [500], reason: null, failure: { message: '', schemaProblems: [] }, exchanges: [exchange({}, { status: 500, headers: {}, body: {} })] });
    expect(expectedActual(bare)).toBe('expected a flow of steps, got 500');
  });

  test('a status that did not match keeps "expected X, got Y", with the cause on its own line', () => {
    const failed = record('answers 200 with the bank list', { outcome: 'failed' });
    expect(expectedActual(failed)).toBe('expected 200, got 500');
    const { lines } = failureLines(failed);
    expect(lines[3]).toBe('      body: {"message":"boom"}');
  });
});

describe('terminal', () => {
  test('names the test, the clause, expected and actual, the failing pointers and a curl line', () => {
    const failed = record('answers 200 with the bank list', {
      outcome: 'failed',
      observedStatus: [200],
      reason: 'response does not match schema bank-list:',
      failure: { message: 'response does not match schema bank-list:', schemaProblems: [{ schema: 'bank-list', problems: [{ pointer: '/data/0/iban', rule: 'required', message: "must have required property 'iban'", value: undefined }] }] },
    });
    const { lines, variables } = failureLines(failed);
    expect(lines[0]).toContain('GET /api/v1/user/{user}/bank answers 200 with the bank list');
    expect(lines[1]).toContain('section 4.10');
    expect(lines[2]).toBe('      schema bank-list: /data/0/iban (required) (status 200, as expected)');
    expect(lines[3]).toMatch(/^ {6}\$ curl -sS -i http:\/\/127\.0\.0\.1:9\/api\/v1\/user\/u-1\/bank .*"authorization: Bearer \$ACCESS_TOKEN"$/);
    expect(variables).toEqual(['ACCESS_TOKEN']);
    const summary = summaryLines(report([failed, record('answers 401', { status: 401, outcome: 'skipped' })]), {}, ['hint']).join('\n');
    expect(summary).toContain('Nonconformances (1):');
    expect(summary).toContain('Not verified (1):');
    expect(summary).toContain('hint');
    expect(summary).toContain('Verdict: nonconformant');
  });
});

describe('GitHub Actions', () => {
  test('escapes workflow-command data and properties as @actions/core does', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a: b, c\n')).toBe('a%3A b%2C c%0A');
  });

  test('writes one ::error per failure on its suite file, titled with the test', () => {
    const failed = record('answers 200, with: commas', { outcome: 'failed' });
    const lines = annotations(report([failed, record('answers 200 for a list')], { warnings: ['no provider states'] }));
    expect(lines[0]).toMatch(/^::error file=suites\/banks\.test\.ts,title=GET \/api\/v1\/user\/\{user\}\/bank answers 200%2C with%3A commas::section 4\.10: expected 200, got 500%0A/);
    expect(lines[1]).toBe('::warning title=conformance::no provider states');
    expect(lines).toHaveLength(2);
  });

  test('points each ::error at the line of the failing test in its suite file', () => {
    const lines = annotations(report([record('answers 200', { outcome: 'failed', line: 42 })]));
    expect(lines[0]).toMatch(/^::error file=suites\/banks\.test\.ts,line=42,title=/);
  });

  test('appends the summary to GITHUB_STEP_SUMMARY', () => {
    const file = join(tempDir('summary-'), 'step.md');
    writeFileSync(file, 'earlier step\n');
    expect(appendStepSummary('## Conformance', { GITHUB_STEP_SUMMARY: file })).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe('earlier step\n## Conformance\n');
    expect(appendStepSummary('x', {})).toBeNull();
  });
});

const HOSTILE = `answers 200 for <script>alert("x")</script> | & 'quotes' [link](http://evil.test)`;

describe('Markdown summary', () => {
  test('escapes content and lists failures, coverage, skips and advisories', () => {
    expect(md('a|b <i>*x*</i> [l](u)')).toBe('a\\|b &lt;i&gt;\\*x\\*&lt;/i&gt; \\[l\\](u)');
    const text = toMarkdown(report([record(HOSTILE, { outcome: 'failed' }), record('answers 401', { status: 401, outcome: 'skipped' }), record('answers 200 x', { advisories: ['silent: saw 404'] })]));
    expect(text).toContain('## Conformance: \u274c nonconformant');
    expect(text).toContain('### Nonconformances (1)');
    expect(text).not.toContain('<script>');
    expect(text).not.toMatch(/[^\\]\]\(http/);
    expect(text).toContain('### Not verified (1 skipped tests)');
    expect(text).toContain('silent: saw 404');
    expect(text).toContain('| `GET /api/v1/user/{user}/bank` |  | 200 | 401, 403, 409 |');
  });
});

describe('report.html', () => {
  const html = toHtml(
    report([
      record(HOSTILE, { outcome: 'failed', exchanges: [exchange({ body: { note: '</pre><script>alert(1)</script>' } })] }),
      record('answers 401', { status: 401, outcome: 'skipped' }),
      record('answers 200 with advice', { advisories: ['<b>silent</b>'] }),
    ], { warnings: ['<img src=x onerror=alert(1)>'] }),
  );

  test('is one self-contained page: inline style and script only, no network', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/<[^>]*\bsrc\s*=/i);
    expect(html).not.toMatch(/href="(?!#)/);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  test('escapes every piece of content', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>silent</b>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  test('shows the verdict, the matrix with failed and not verified pairs, constraints, advisories apart', () => {
    expect(html).toContain('<div class="verdict nonconformant">nonconformant</div>');
    expect(html).toMatch(/<td class="fail" title="200: banks listed/);
    expect(html).toMatch(/<td class="nv" title="401: unauthenticated\nnot verified: target does not provide state user/);
    expect(html).toContain('id="constraints"');
    expect(html).toMatch(/<section id="advisories">[\s\S]*&lt;b&gt;silent&lt;\/b&gt;[\s\S]*<\/section>/);
    expect(html).toContain('<details class="exchange">');
  });
});

/** A minimal well-formedness check: balanced tags, quoted attributes without `<`, only known entities. */
function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  expect(body).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/);
  const stack: string[] = [];
  for (const match of body.matchAll(/<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g)) {
    const [, closing, name, , selfClosing] = match;
    if (closing) expect(stack.pop()).toBe(name);
    else if (!selfClosing) stack.push(name!);
  }
  expect(stack).toEqual([]);
  // Every `<` starts a tag the pattern above accepted.
  expect(body.replace(/<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g, '')).not.toContain('<');
}

describe('JUnit XML', () => {
  test('is well-formed, counts failures and skips, and carries clause and endpoint properties', () => {
    const xml = toJunit(
      report([
        record(HOSTILE, { outcome: 'failed', reason: 'expected status 200, got 500; bad \u0001 control\nsecond line' }),
        record('answers 401', { status: 401, outcome: 'skipped' }),
        record('answers 200 for a list'),
        record('answers 201', { endpoint: 'POST /api/v1/user/{user}/bank', status: 201, constraint: 'bank.swift.length', advisories: ['a & b'] }),
      ]),
    );
    assertWellFormedXml(xml);
    expect(xml).toMatch(/<testsuites name="account-api-conformance" tests="4" failures="1" errors="0" skipped="1"/);
    expect(xml).toMatch(/<testsuite name="banks" tests="4" failures="1" errors="0" skipped="1" time="[\d.]+" timestamp="2026-01-01T00:00:00">/);
    expect(xml).toContain('<property name="endpoint" value="GET /api/v1/user/{user}/bank"/>');
    expect(xml).toContain('<property name="clauses" value="4.10"/>');
    expect(xml).toContain('<property name="constraint" value="bank.swift.length"/>');
    expect(xml).toContain('<skipped message="target does not provide state user"/>');
    expect(xml).toContain('<failure message="section 4.10: expected 200, got 500" type="nonconformance">');
    expect(xml).toContain('Reproduce the request whose answer failed the check');
    expect(xml).not.toContain('\u0001');
  });

  test('gives each case the file and line of its test', () => {
    const xml = toJunit(report([record('answers 200', { outcome: 'failed', line: 17 }), record('answers 401', { status: 401 })]));
    expect(xml).toMatch(/<testcase name="GET \/api\/v1\/user\/\{user\}\/bank answers 200" [^>]*file="suites\/banks\.test\.ts" line="17" /);
    expect(xml).toMatch(/<testcase name="GET \/api\/v1\/user\/\{user\}\/bank answers 401" [^>]*file="suites\/banks\.test\.ts" time=/);
  });
});

describe('why a verdict is incomplete (issue 22)', () => {
  test('one line under the badge, in the terminal and in summary.md, naming the missing states and other causes', () => {
    const incomplete = report([
      record('answers 200'),
      record('answers 401 for an expired token', { status: 401, outcome: 'skipped', reason: 'target does not provide state user.expired-token' }),
      record('answers 423 for a locked account', { status: 423, outcome: 'skipped', reason: 'target does not provide state user.locked (no STATES_URL or STATES_FILE configured)' }),
      record('answers 429', { status: 422, outcome: 'skipped', reason: 'not verified: rate limited, the target still answered 429 or 503 with Retry-After after 3 retries; lower --rate' }),
    ]);
    const why = /^incomplete: 3 tests not verified \(the target lacks the states user\.expired-token, user\.locked; rate limited\); \d+ of \d+ documented endpoint x status pairs not verified$/;
    const terminal = summaryLines(incomplete, {});
    expect(terminal[terminal.findIndex((l) => l.startsWith('Verdict: incomplete')) + 1]!.trim()).toMatch(why);
    const markdown = toMarkdown(incomplete).split('\n');
    expect(markdown[0]).toMatch(/^## Conformance: .* incomplete$/);
    expect(markdown[2]).toMatch(/^incomplete: 3 tests not verified \(the target lacks the states user\.expired-token, user\.locked; rate limited\)/);
    expect(toHtml(incomplete)).toMatch(/<div class="verdict incomplete">incomplete<\/div>\n<p class="why">incomplete: 3 tests not verified \(the target lacks the states user\.expired-token, user\.locked; rate limited\)/);
    const conformant = report([record('answers 200')], { verdict: 'conformant' });
    expect(summaryLines(conformant, {}).some((l) => l.includes('incomplete:'))).toBe(false);
  });

  test('with a states file, names the kinds of account the file lacks, not a reason cut short', () => {
    const fromFile = report([
      record('answers 200'),
      record('answers 403 for a used bank', { status: 403, outcome: 'skipped', reason: 'STATES_FILE has no account of kind "user with a used bank"; add one (see `conformance states template`) (a provider-state hook would add this test)' }),
      record('answers 200 with a TOTP code', { outcome: 'skipped', reason: 'STATES_FILE has no account of kind "user with 2FA"; add one (see `conformance states template`) (a provider-state hook would add this test)' }),
      record('answers 200 with another TOTP code', { outcome: 'skipped', reason: 'STATES_FILE has no account of kind "user with 2FA"; add one (see `conformance states template`) (a provider-state hook would add this test)' }),
    ]);
    const terminal = summaryLines(fromFile, {});
    expect(terminal[terminal.findIndex((l) => l.startsWith('Verdict: incomplete')) + 1]!.trim()).toMatch(/^incomplete: 3 tests not verified \(STATES_FILE has no account of kinds "user with 2FA", "user with a used bank"\); /);
  });
});

describe('the curl of a failure (issue 22)', () => {
  test('reproduces the request whose answer the test checked last, not its last request (a logout, a clean-up DELETE)', () => {
    const failing = exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/user/u-1/bank' }, { status: 500, headers: {}, body: { message: 'boom' } });
    const logout = exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/user/logout' }, { status: 204, headers: {}, body: undefined });
    const failed = record('answers 201 with the created bank', { outcome: 'failed', status: 201, exchanges: [failing, logout], checkedExchange: 0 });
    const curl = failureLines(failed).lines.find((line) => line.includes('$ curl'))!;
    expect(curl).toMatch(/-X POST http:\/\/127\.0\.0\.1:9\/api\/v1\/user\/u-1\/bank/);
    expect(toJunit(report([failed]))).toContain('/api/v1/user/u-1/bank');
    // A report before 1.2.0 says nothing: the requests up to the last one, as before.
    const { checkedExchange: _none, ...older } = failed;
    expect(failureLines(older).lines.filter((line) => line.includes('$ curl')).at(-1)).toMatch(/\/api\/v1\/user\/logout/);
  });
});

describe('advisories and --strict in every output (issue 22)', () => {
  test('the terminal lists the advisories and counts "1 advisory"; under --strict the headings say "failed under --strict"', () => {
    const advised = record('answers 200 with the bank list', { advisories: ['the list is not sorted; the specification names no order'] });
    const lines = summaryLines(report([advised]), {});
    expect(lines).toContain('Advisories (1): the specification is silent here, not failures');
    expect(lines).toContain('  ~ GET /api/v1/user/{user}/bank answers 200 with the bank list: the list is not sorted; the specification names no order');
    expect(lines.find((l) => l.startsWith('Verdict: '))).toMatch(/, 0 security findings, 1 advisory\)$/);
    const strictFailure = record('answers 200 with the bank list', { outcome: 'failed', advisories: ['unsorted'], reason: 'strict mode: 1 advisory finding(s): unsorted' });
    const strict = report([strictFailure], { strict: true });
    expect(summaryLines(strict, {})).toContain('Nonconformances, failed under --strict (1):');
    expect(toMarkdown(strict)).toContain('### Nonconformances, failed under --strict (1)');
    expect(toHtml(strict)).toContain('<h2>Nonconformances, failed under --strict (1)</h2>');
    expect(summaryLines(report([strictFailure]), {})).toContain('Nonconformances (1):');
  });
});

describe('a pair verified through an allowed alternative (issue 22)', () => {
  test('says which status the target answered, in report.json, summary.md and the HTML matrix', () => {
    const endpoint = 'GET /api/v1/user/{user}/bank/{bank}';
    const alternative = record('never shows another user\u2019s bank under the caller\u2019s own user id', { endpoint, status: [403, 404, 409], observedStatus: [403] });
    const built = report([alternative]);
    const pair = (status: number) => built.coverage.pairs.find((p) => p.endpoint === endpoint && p.status === status)!;
    expect([pair(403).outcome, pair(403).observed]).toEqual(['passed', undefined]);
    expect([pair(409).outcome, pair(409).observed]).toEqual(['passed', [403]]);
    expect(toMarkdown(built)).toContain('409 (as 403, allowed)');
    expect(toHtml(built)).toContain('verified through the allowed alternative: the target answered 403');
  });

  test('a pair whose documented status some test saw is verified directly, not "through the allowed alternative" (issue 30)', () => {
    const endpoint = 'POST /api/v1/authenticate';
    const either = record('answers 403 or 422 for a wrong password of the right length', { endpoint, status: [403, 422], observedStatus: [422] });
    const direct = record('answers 403 for a wrong password', { endpoint, status: 403, observedStatus: [403] });
    const pair = (built: ReturnType<typeof report>) => built.coverage.pairs.find((p) => p.endpoint === endpoint && p.status === 403)!;
    expect(pair(report([either])).observed).toEqual([422]);
    const both = report([either, direct]);
    expect([pair(both).outcome, pair(both).observed]).toEqual(['passed', undefined]);
    expect(toMarkdown(both)).not.toContain('403 (as 422, allowed)');
    expect(toHtml(both)).not.toContain('verified through the allowed alternative: the target answered 422');
  });
});

describe('not observable is not "not verified" (issue 22)', () => {
  test('constraints no client can observe get their own mark, outside the headline count', () => {
    const built = report([record('answers 200')]);
    const unobservable = built.coverage.constraints.filter((c) => c.observable === false);
    expect(unobservable.length).toBeGreaterThan(0);
    const observable = built.coverage.constraints.length - unobservable.length;
    const headline = `0/${observable} observable field constraints verified, ${unobservable.length} not observable by a client`;
    expect(summaryLines(built, {})).toContain(`Field constraints: ${headline}`);
    expect(toHtml(built)).toContain(`<h2>Field constraints (${headline})</h2>`);
    expect(toHtml(built)).toContain('<span class="badge">not observable</span>');
    expect(toMarkdown(built)).toContain(`(of ${observable} observable); ${unobservable.length} not observable by a client.`);
  });
});

describe('the suite\u2019s own bookkeeping (issue 22)', () => {
  test('a restore login that failed is a run warning, once, not an advisory about the target nor a field of report.json', () => {
    const warning = 'STATES_FILE account a@x.test: the login that restores it after this test\u2019s refused logins answered 403, not 200; it is not used again in this run';
    const built = report([record('answers 403 for a wrong password', { status: 403, suiteWarnings: [warning] }), record('answers 403 again', { status: 403, suiteWarnings: [warning] })]);
    expect(built.warnings).toEqual([warning]);
    expect(built.summary.advisories).toBe(0);
    expect(JSON.stringify(built.tests)).not.toContain('suiteWarnings');
  });
});

describe('the implementation the operator declared (issue 30)', () => {
  test('is recorded in report.json (valid against its schema) and shown on report.html, summary.md and the JUnit properties, beside the suite and spec versions', () => {
    const built = report([record('answers 200 with the list')], {}, []);
    const named = { ...built, implementation: { name: 'Acme <Accounts>', version: '2.3.1' } };
    expect(schemaProblems('report', named)).toEqual([]);
    expect(schemaProblems('report', { ...built, implementation: { name: 'Acme' } })).not.toEqual([]);
    expect(toMarkdown(named)).toMatch(/ · implementation Acme &lt;Accounts&gt; 2\.3\.1 \(declared by the operator\) · suite account-api-conformance 0\.0\.0-test · spec /);
    expect(toHtml(named)).toContain('<dt>Implementation</dt><dd>Acme &lt;Accounts&gt; 2.3.1 (declared by the operator, not checked by the suite)</dd>');
    const junit = toJunit(named);
    expect(junit).toContain('<property name="implementation" value="Acme &lt;Accounts&gt; 2.3.1 (declared by the operator)"/>');
    expect(junit).toContain('<property name="suite" value="account-api-conformance 0.0.0-test"/>');
    expect(toJunit(built)).not.toContain('name="implementation"');
    expect(toHtml(built)).not.toContain('<dt>Implementation</dt>');
  });

  test('--implementation / IMPLEMENTATION: "NAME VERSION", the last word the version; anything else is one configuration line', () => {
    expect(parseImplementation('Acme Accounts 2.3.1')).toEqual({ name: 'Acme Accounts', version: '2.3.1' });
    expect(parseImplementation('  acme   1.0 ')).toEqual({ name: 'acme', version: '1.0' });
    for (const wrong of ['acme', '', 'acme\u001b[31m 1.0', 'acme\u200b 1.0', 'acme\u2066 1.0', `${'a'.repeat(200)} 1`]) expect(parseImplementation(wrong), wrong).toBeUndefined();
    // A hand-edited report.json is not validated as the option is: verify shows its name as one line, invisible characters replaced.
    expect(implementationLine({ name: 'Acme\u2028Forged: HOLDS', version: '1\u200b.0', declaredBy: 'operator' })).toBe('implementation: Acme?Forged: HOLDS 1?.0 (declared by the operator, not checked by the suite)');
    expect(loadConfig({ IMPLEMENTATION: 'Acme Accounts 2.3.1' }, {}, '/nonexistent/.env').IMPLEMENTATION).toEqual({ name: 'Acme Accounts', version: '2.3.1' });
    expect(() => loadConfig({ IMPLEMENTATION: 'acme' }, {}, '/nonexistent/.env')).toThrow(/^configuration error: IMPLEMENTATION must be the implementation's name and version, "NAME VERSION" .* or pass --implementation/);
  });
});
