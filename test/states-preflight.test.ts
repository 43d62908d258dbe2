import { readFileSync, writeFileSync } from 'node:fs';
import type { Report } from '../reporting/model.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../helpers/net/config.js';
import { preflight } from '../helpers/states/preflight.js';
import { HookStates } from '../helpers/states/transport.js';
import { startReference, type RunningReference } from '../reference/app.js';
import { conformance, tempDir } from './support.js';

/**
 * Issue 30: a states file serves only while its accounts can log in. The preflight logs in with the
 * file's user account and reads its own banks; a refused login stops the run (exit 2, one line naming
 * the file, the account by its e-mail and the cause by the status), never a run of failed tests.
 */

const STATES_TOKEN = 'states-preflight-token';
let reference: RunningReference;
let hook: HookStates;

beforeAll(async () => {
  reference = await startReference({ states: true, statesToken: STATES_TOKEN });
  hook = new HookStates(reference.statesUrl!, STATES_TOKEN, 30_000);
});
afterAll(async () => {
  await hook?.close();
  await reference?.close();
});

async function account(state: 'user' | 'user.inactive' | 'user.locked' | 'user.throttled') {
  const outcome = await hook.get(state, {});
  if (!outcome.provided) throw new Error(outcome.reason);
  const { id, email, password } = outcome.data;
  return { id, email, password };
}

function fileWith(user: { id: string; email: string; password: string }): string {
  const path = join(tempDir('states-preflight-'), 'states.json');
  writeFileSync(path, JSON.stringify({ version: 1, accounts: [{ state: 'user', ...user }] }));
  return path;
}

const preflightOf = (path: string) => preflight(loadConfig({ BASE_URL: reference.baseUrl, STATES_FILE: path, REQUEST_TIMEOUT_MS: '30000' }, {}, join(tempDir('pf-'), '.env')), reference.baseUrl, {});

describe.concurrent('the preflight of a states file logs in with its user account', { timeout: 60_000 }, () => {
  it('an account that logs in and reads its own banks passes', async () => {
    await expect(preflightOf(fileWith(await account('user')))).resolves.toEqual([]);
  });

  it.each([
    ['a password that is not the account\u2019s (a stale file)', async () => ({ ...(await account('user')), password: 'Not-the-password-1' }), /answered 403: the password is not the account\u2019s .*the file is stale.*export it again/],
    ['an inactive account', () => account('user.inactive'), /answered 401: the account is inactive/],
    ['a locked account', () => account('user.locked'), /answered 423: the account is locked/],
    ['an account restricted after failed logins', () => account('user.throttled'), /answered 425: login is restricted after failed logins/],
  ])('%s: one line naming the file, the account by e-mail and the cause; never the password', async (_what, make, cause) => {
    const user = await make();
    const path = fileWith(user);
    const error = await preflightOf(path).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(new RegExp(`^configuration error: STATES_FILE ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: its user account ${user.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot log in: the target answered \\d+: `));
    expect(error?.message).toMatch(cause);
    expect(error?.message).not.toContain(user.password);
    expect(error?.message.split('\n')).toHaveLength(1);
  });

  it('an id that is not the account\u2019s: one line naming the id', async () => {
    const user = await account('user');
    const other = await account('user');
    await expect(preflightOf(fileWith({ ...user, id: other.id }))).rejects.toThrowError(new RegExp(`its user account .* logs in as the user ${user.id}, not as the id ${other.id} the file gives it`));
  });

  it('the run: exit 2 and that one line on stderr, no test ran', async () => {
    const user = { ...(await account('user')), password: 'Stale-password-2' };
    const path = fileWith(user);
    const dir = tempDir('states-preflight-run-');
    const result = await conformance(['run', '--target', reference.baseUrl, '--states-file', path, '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^configuration error: STATES_FILE .*states\.json: its user account .* cannot log in: the target answered 403: /)]);
    expect(result.stdout + result.stderr).not.toContain('Stale-password-2');
  });

  it('a later account of the file whose own credentials no longer open it: the tests that need it are not verified, with that reason, never failed', async () => {
    const dir = tempDir('states-later-');
    const path = join(dir, 'states.json');
    const exported = await conformance(['states', 'export', '--minimum', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', path]);
    expect(exported.code, exported.stderr).toBe(0);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { accounts: { state: string; password: string; bonuses?: unknown }[] };
    for (const account of file.accounts) if (account.state === 'user' && account.bonuses) account.password = 'Changed-since-export-3';
    writeFileSync(path, JSON.stringify(file));
    const result = await conformance(['run', '--target', reference.baseUrl, '--states-file', path, '--group', 'bonuses', '--report-dir', join(dir, 'reports')]);
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report;
    expect(report.summary.failed, result.stdout.slice(-2000)).toBe(0);
    expect(result.code).toBe(0);
    const reasons = report.tests.filter((t) => t.outcome === 'skipped').map((t) => t.reason);
    expect(reasons).toContainEqual(expect.stringMatching(/^not verified: the states file's account for state user with bonuses \(\S+@\S+\) cannot log in: the target answered 403: the password is not the account\u2019s/));
    expect(result.stdout + result.stderr + JSON.stringify(report)).not.toContain('Changed-since-export-3');
  }, 300_000);

  it('a later account refused by the login tests themselves (the 2FA account, the short-session one): not verified with that reason, never failed (issue 30 review)', async () => {
    const dir = tempDir('states-later-login-');
    const path = join(dir, 'states.json');
    const exported = await conformance(['states', 'export', '--minimum', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', path]);
    expect(exported.code, exported.stderr).toBe(0);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { accounts: { state: string; password: string; totpSecret?: string }[] };
    for (const account of file.accounts) if (account.totpSecret || account.state === 'user.short-session') account.password = 'Changed-since-export-4';
    writeFileSync(path, JSON.stringify(file));
    const result = await conformance(['run', '--target', reference.baseUrl, '--states-file', path, '--grep', 'a valid TOTP code|state user\\.short-session', '--report-dir', join(dir, 'reports')]);
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report;
    expect(report.tests.length, result.stdout.slice(-2000)).toBeGreaterThanOrEqual(2);
    expect(report.summary.failed, result.stdout.slice(-2000)).toBe(0);
    // A JWT login of the short-session account does not need its password (it names the user by id): it may pass.
    const notPassed = report.tests.filter((t) => t.outcome !== 'passed');
    expect(notPassed.length, result.stdout.slice(-2000)).toBeGreaterThanOrEqual(2);
    for (const test of notPassed) expect(test.reason, test.name).toMatch(/^not verified: the states file's account for state (user with 2FA|user\.short-session(?: with 2FA)?) \(\S+@\S+\) cannot log in: the target answered 403/);
    for (const test of report.tests.filter((t) => t.outcome === 'passed')) expect(test.name, 'only a JWT login may pass without the password').toMatch(/JWT/i);
    expect(result.stdout + result.stderr + JSON.stringify(report)).not.toContain('Changed-since-export-4');
  }, 300_000);
});

// Side by side: each is a run from its own exported file (its own accounts), and each spends most of its minutes waiting
// for TOTP steps and leases, not computing.
describe.concurrent('failed logins per STATES_FILE account (issue 28 review)', () => {
  it('the login tests from a --minimum file: every test runs, and no account of the file meets more than FAILED_LOGINS_PER_ACCOUNT refused logins, but the brute-force tests', async () => {
    const { FAILED_LOGINS_PER_ACCOUNT, failedLoginsPerAccount } = await import('../helpers/spec/logins.js');
    const dir = tempDir('states-failed-logins-');
    const path = join(dir, 'states.json');
    const exported = await conformance(['states', 'export', '--minimum', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', path]);
    expect(exported.code, exported.stderr).toBe(0);
    const result = await conformance(['run', '--target', reference.baseUrl, '--states-file', path, '--group', 'authentication', '--report-dir', join(dir, 'reports')]);
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report;
    expect(report.summary.failed, result.stdout.slice(-2000)).toBe(0);
    // The minimum of `states template` (22 user, 9 user with 2FA) leaves no test that fails logins without an account.
    expect(report.tests.filter((t) => t.outcome === 'skipped').map((t) => `${t.name}: ${t.reason}`)).toEqual([]);
    // Here the accounts are shared by the tests, so a test that fails a login without saying so (failsLogins) shows.
    const provokes = (name: string) => /after repeated failed logins|once it has failed as many logins as/.test(name);
    const counts = failedLoginsPerAccount(report.tests.filter((t) => !provokes(t.name)).flatMap((t) => t.exchanges ?? []));
    expect(counts.size).toBeGreaterThan(10);
    expect([...counts].filter(([, failed]) => failed > FAILED_LOGINS_PER_ACCOUNT)).toEqual([]);
  }, 300_000);

  it('a file with too few user accounts: the tests that would fail a login beyond the bound are not verified, with the reason, never sent', async () => {
    const { FAILED_LOGINS_PER_ACCOUNT, failedLoginsPerAccount } = await import('../helpers/spec/logins.js');
    const dir = tempDir('states-failed-logins-few-');
    const path = join(dir, 'states.json');
    const exported = await conformance(['states', 'export', '--minimum', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', path]);
    expect(exported.code, exported.stderr).toBe(0);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { accounts: Record<string, unknown>[] };
    // Plain user accounts, not the one whose e-mail carries a + tag (a kind of its own, which the login tests also need).
    const plain = (a: Record<string, unknown>) => a.state === 'user' && Object.keys(a).sort().join() === 'email,id,password,state' && !/\+[^@]*@/.test(String(a.email));
    let kept = 0;
    file.accounts = file.accounts.filter((a) => !plain(a) || ++kept <= 4);
    writeFileSync(path, JSON.stringify(file));
    const result = await conformance(['run', '--target', reference.baseUrl, '--states-file', path, '--group', 'authentication', '--report-dir', join(dir, 'reports')]);
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report;
    expect(report.summary.failed, result.stdout.slice(-2000)).toBe(0);
    const skipped = report.tests.filter((t) => t.outcome === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    // Not verified and never sent: the account a test would fail a login with already met the bound, or (the file's
    // few accounts held by longer tests, such as the valid-token table) none became free within the lease's wait.
    for (const test of skipped) expect(test.reason, test.name).toMatch(/already met the 2 failed logins a run sends one account|no account of kind "user" (became free within 120 s|was granted to this test within 300 s)/);
    expect(skipped.some((t) => /already met the 2 failed logins a run sends one account/.test(t.reason ?? '')), 'some test was kept from a failed login beyond the bound').toBe(true);
    const provokes = (name: string) => /after repeated failed logins|once it has failed as many logins as/.test(name);
    const counts = failedLoginsPerAccount(report.tests.filter((t) => !provokes(t.name)).flatMap((t) => t.exchanges ?? []));
    expect([...counts].filter(([, failed]) => failed > FAILED_LOGINS_PER_ACCOUNT)).toEqual([]);
    // A bound against a hang: tests wait up to 120 s for one of the four accounts.
  }, 480_000);
});
