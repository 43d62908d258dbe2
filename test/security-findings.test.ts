import { describe, expect, test } from 'vitest';
import { REDACTED, redactJson, registerSecret } from '../helpers/net/redact.js';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { credentialFindings, isCredentialKey, ownSessionToken } from '../helpers/check/security.js';
import { isSecretKey } from '../helpers/spec/credential-names.js';
import { scrubRecords } from '../reporting/scrub.js';
import { exitCodeOf } from '../cli/exit-code.js';
import { toRecord } from '../reporting/collector.js';
import { diffMarkdown, diffReports } from '../reporting/diff.js';
import { toHtml } from '../reporting/html.js';
import { toJunit } from '../reporting/junit.js';
import { toMarkdown } from '../reporting/markdown.js';
import { summaryLines } from '../reporting/terminal.js';
import { record, report } from './reporting-fixtures.js';

/** Security findings (credentials in answers): found by name and by value, and a category of their own in every report. */

describe('credential findings in an answer', () => {
  test('name a credential field by its JSON pointer, never its value', () => {
    const findings = credentialFindings({ data: [{ id: 'b-1', remember_token: 'abcdef123456' }, { user: { passwordHash: '$2y$10$xyz' } }] });
    expect(findings).toEqual(['/data/0/remember_token is a credential field (remember_token)', '/data/1/user/passwordHash is a credential field (passwordHash)']);
    expect(findings.join(' ')).not.toContain('abcdef123456');
  });

  test('are redacted from the exchanges a report shows, like any credential', () => {
    expect(redactJson({ data: [{ rememberToken: 'abcdef123456', user: { password_hash: '$2y$10$xyz', two_factor_secret: 'JBSWY3DP' } }] })).toEqual({
      data: [{ rememberToken: REDACTED, user: { password_hash: REDACTED, two_factor_secret: REDACTED } }],
    });
  });

  test('leave settings, error maps and empty values alone', () => {
    const answer = {
      data: { options: { guard: { actions: { login: { '2fa': false, password: true } } } } },
      errors: { password: ['The password field must be at least 8 characters.'] },
      password: '',
    };
    expect(credentialFindings(answer)).toEqual([]);
  });

  test('find a secret the run knows inside any string, except the Session\u2019s own token', () => {
    registerSecret('JBSWY3DPEHPK3PXPsecret');
    registerSecret('41|ownTokenSecretValue0123456789');
    registerSecret('42|otherTokenSecretValue012345678');
    expect(credentialFindings({ data: { otpauth: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXPsecret' } })).toEqual([
      "/data/otpauth carries a secret the run knows (a password, TOTP secret or another session's token)",
    ]);
    const session = { data: { id: '41|ownTokenSecretValue0123456789', userId: 'u-1', ttl: 7200 } };
    expect(credentialFindings(session, ownSessionToken(session))).toEqual([]);
    const leaking = { data: { id: '41|ownTokenSecretValue0123456789', userId: 'u-1', ttl: 7200, previous: '42|otherTokenSecretValue012345678' } };
    expect(credentialFindings(leaking, ownSessionToken(leaking))).toHaveLength(1);
  });
});

describe('no false findings, no unredacted credentials (review of issue 11: M1, M2, should-fix 4)', () => {
  test('a short secret is a finding only as a whole value, never inside ordinary text', () => {
    registerSecret('password');
    registerSecret('123456');
    const answer = {
      errors: { password: ['The password field must be at least 8 characters.'] },
      data: { created: '2026-11-23T02:45:28.123456Z', amount: '0.0000000000001234567890123' },
    };
    expect(credentialFindings(answer)).toEqual([]);
    expect(credentialFindings({ data: { note: 'password' } })).toEqual(["/data/note carries a secret the run knows (a password, TOTP secret or another session's token)"]);
  });

  test('a short secret echoed back whole is still a finding', () => {
    registerSecret('Echoed-Weak-Pw1');
    expect(credentialFindings({ data: { name: 'Echoed-Weak-Pw1' } })).toHaveLength(1);
  });

  test('a masked credential field is not a finding', () => {
    expect(credentialFindings({ data: { password: '********', rememberToken: '\u2022\u2022\u2022\u2022' } })).toEqual([]);
  });

  test('every name that is a finding is redacted, whatever its separators, lists of codes included', () => {
    const leaking = { data: { 'password-hash': '$2y$10$abc', 'Remember-Token': 'rt-abcdef', two_factor_recovery_codes: ['code-aaaa-1111', 'code-bbbb-2222'] } };
    expect(credentialFindings(leaking)).toEqual([
      '/data/password-hash is a credential field (password-hash)',
      '/data/Remember-Token is a credential field (Remember-Token)',
      '/data/two_factor_recovery_codes is a credential field (two_factor_recovery_codes)',
    ]);
    expect(redactJson(leaking)).toEqual({ data: { 'password-hash': REDACTED, 'Remember-Token': REDACTED, two_factor_recovery_codes: REDACTED } });
    const [scrubbed] = scrubRecords([{ ...record('answers 200'), exchanges: [{ request: { method: 'GET', url: 'http://127.0.0.1/api/v1/user/u/bank', headers: {} }, response: { status: 200, headers: {}, body: leaking }, durationMs: 1 }] }]);
    expect(JSON.stringify(scrubbed)).not.toMatch(/abc|rt-abcdef|code-aaaa/);
    // Error messages under a credential name are not credentials, and stay readable.
    expect(redactJson({ errors: { password: ['This field is required.'] } })).toEqual({ errors: { password: ['This field is required.'] } });
    for (const name of ['password', 'password_hash', 'PasswordDigest', 'remember-token', 'twoFactorRecoveryCodes', 'google2fa_secret']) {
      expect(isCredentialKey(name), name).toBe(true);
      expect(isSecretKey(name), name).toBe(true);
    }
  });
});

describe('the security category in every report', () => {
  const finding = 'GET /api/v1/user/u-1/bank answered 200 whose body /data/0/rememberToken is a credential field (rememberToken)';
  const insecure = report([
    record('answers 200 with the list', { outcome: 'failed', security: [finding], reason: 'security: 1 credential(s) in answers' }),
    record('answers 401 without a token', { status: 401 }),
  ]);

  test('report.json counts it, validates against schemas/report.json, and the verdict is nonconformant', () => {
    expect(insecure.summary.security).toBe(1);
    expect(insecure.verdict).toBe('nonconformant');
    expect(schemaProblems('report', JSON.parse(JSON.stringify(insecure)))).toEqual([]);
    // A finding on a test that did not fail (for example one that was skipped after it) still makes the verdict nonconformant.
    expect(report([record('answers 200', { outcome: 'skipped', security: [finding] })]).verdict).toBe('nonconformant');
  });

  test('a finding line is redacted as it is captured (a path may carry a secret)', () => {
    registerSecret('9|PathSecretTokenValueAbCdEfGhIj');
    const line = 'GET /api/v1/authenticate-jwt/9|PathSecretTokenValueAbCdEfGhIj answered 200 whose body /data/password is a credential field (password)';
    const conformance = { endpoint: 'GET /api/v1/user/{user}/bank', group: 'banks', status: 200, clauses: ['4.10'] };
    const run = { exchanges: [], advisories: [], observedStatus: [], schemaProblems: [], security: [line], notes: [] };
    const testCase = { meta: () => ({ conformance, run }), result: () => ({ state: 'passed' }), name: 'answers 200', parent: { type: 'module' }, module: { moduleId: '/x/suites/banks.test.ts' }, diagnostic: () => ({ duration: 1 }) };
    const captured = toRecord(testCase as never, '/x');
    expect(captured?.security).toHaveLength(1);
    expect(captured!.security![0]).not.toContain('PathSecretTokenValueAbCdEfGhIj');
    expect(captured!.security![0]).toContain(`authenticate-jwt/${REDACTED}`);
  });

  test('the exit code follows the verdict: a finding on a skipped test exits 1, a plain skip 0', () => {
    expect(exitCodeOf(report([record('answers 200', { outcome: 'skipped', security: [finding] })]), 0)).toBe(1);
    expect(exitCodeOf(report([record('answers 200', { outcome: 'skipped', reason: 'no state' })]), 0)).toBe(0);
    expect(exitCodeOf(insecure, 0)).toBe(1);
  });

  test('the terminal, summary.md, JUnit and report.html name it apart from the nonconformances', () => {
    const terminal = summaryLines(insecure, {}).join('\n');
    expect(terminal).toContain('Security findings (1)');
    expect(terminal).toContain(finding);
    expect(terminal).toMatch(/Verdict: nonconformant \(.*, 1 security finding, /);
    const markdown = toMarkdown(insecure);
    expect(markdown).toContain('### Security findings (1)');
    expect(markdown).toContain('| Security findings |');
    const junit = toJunit(insecure);
    expect(junit).toContain('type="security"');
    expect(junit).toContain('<property name="security"');
    const html = toHtml(insecure);
    expect(html).toContain('<section id="security"><h2>Security findings (1)</h2>');
    expect(html).toContain('rememberToken');
  });

  test('a clean run still shows the category, with none found', () => {
    const clean = report([record('answers 200 with the list')]);
    expect(clean.summary.security).toBe(0);
    expect(toMarkdown(clean)).toContain('| Security findings |');
    expect(toHtml(clean)).toContain('Security findings (0)');
    expect(summaryLines(clean, {}).join('\n')).toContain('0 security findings');
  });

  test('diff lists new security findings and counts them as a regression', () => {
    const base = report([record('answers 200 with the list')]);
    const diff = diffReports(base, insecure, { base: 'base.json', head: 'head.json' });
    expect(diff.diffVersion).toBe('1.2.0');
    expect(diff.tests.newlySecurity.map((c) => c.security)).toEqual([[finding]]);
    expect(diff.regressed).toBe(true);
    const markdown = diffMarkdown(diff);
    expect(markdown).toContain('### New security findings (1)');
    expect(markdown).toContain('| Security findings | 0 | 1 |');
  });

  test('a 1.0 report without the category is still read', () => {
    const old = JSON.parse(JSON.stringify(report([record('answers 200 with the list')])));
    old.reportVersion = '1.0.0';
    delete old.summary.security;
    for (const t of old.tests) (delete t.security, delete t.notes);
    expect(schemaProblems('report', old)).toEqual([]);
    expect(diffReports(old, insecure).tests.newlySecurity).toHaveLength(1);
  });
});
