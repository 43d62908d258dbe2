import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../reference/app.js';
import type { Report } from '../reporting/model.js';
import { conformance, tempDir } from './support.js';

/**
 * Certification without a hook, end to end: a file exported from the reference's hook serves two
 * consecutive runs against that reference with no hook configured, and a wrong file stops a run with
 * exit code 2 and one line (the other wrong files are covered in-process by states-file.test.ts).
 * The groups below exercise leases (two accounts of a kind at once), the file's platform key, reset
 * tokens (disposable accounts serve once: the second run gets fresh ones, as the docs say), throttled,
 * expired-token and 2FA accounts, a 230-character address, banks listed before and after, and
 * inactive accounts with their own bonuses and bank. The card group (cards left by earlier tests or
 * runs) is left out for time: its 10 MB uploads are the costliest part of a run.
 */

const GROUPS = ['authentication', 'password', 'banks', 'bonuses'];
const STATES_TOKEN = 'states-file-run-token';

let reference: RunningReference;
let dir: string;
let exported: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  reference = await startReference({ states: true, statesToken: STATES_TOKEN });
  dir = tempDir('states-export-');
  exported = await conformance(['states', 'export', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', join(dir, 'states.json')]);
});
afterAll(async () => {
  await reference?.close();
});

describe('a file exported from the reference\u2019s hook', () => {
  it('is written with the platform key next to it, both owner-only, saying where, without a secret', () => {
    expect(exported.code, exported.stderr).toBe(0);
    const file = JSON.parse(readFileSync(join(dir, 'states.json'), 'utf8')) as { accounts: { password: string; resetToken?: string }[]; platform: { privateKeyFile: string } };
    expect(exported.stdout).toContain(`wrote ${join(dir, 'states.json')} (owner-only)`);
    expect(exported.stdout).toContain(`wrote ${join(dir, file.platform.privateKeyFile)} (owner-only): the private key of platform`);
    for (const name of ['states.json', file.platform.privateKeyFile]) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    for (const account of file.accounts) {
      expect(exported.stdout).not.toContain(account.password);
      if (account.resetToken) expect(exported.stdout).not.toContain(account.resetToken);
    }
    expect(exported.stdout).not.toContain('PRIVATE KEY');
  });

  it('serves two consecutive runs without a hook (fresh disposable accounts for the second): exit 0, 0 failed, at most 5% skipped, each skip with its reason', async () => {
    for (const run of [1, 2]) {
      if (run === 2) {
        // The first run spent the disposable accounts; the docs tell users to add fresh ones, which a second export gives.
        const fresh = join(dir, 'fresh', 'states.json');
        expect((await conformance(['states', 'export', '--minimum', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', fresh])).code).toBe(0);
        type Accounts = { accounts: { disposable?: boolean }[] };
        const file = JSON.parse(readFileSync(join(dir, 'states.json'), 'utf8')) as Accounts;
        const disposable = (JSON.parse(readFileSync(fresh, 'utf8')) as Accounts).accounts.filter((a) => a.disposable);
        file.accounts = [...file.accounts.filter((a) => !a.disposable), ...disposable];
        writeFileSync(join(dir, 'states.json'), JSON.stringify(file));
      }
      const reports = join(dir, `run-${run}`);
      const result = await conformance(['run', '--target', reference.baseUrl, '--states-file', join(dir, 'states.json'), '--report-dir', reports, ...GROUPS.flatMap((group) => ['--group', group])]);
      expect(result.code, `run ${run}: ${result.stdout.slice(-2000)}${result.stderr}`).toBe(0);
      const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as Report;
      expect(report.target.states).toBe('file');
      expect(report.summary.failed, `run ${run}`).toBe(0);
      expect(report.summary.skipped / report.tests.length, `run ${run}: ${report.summary.skipped} of ${report.tests.length} skipped`).toBeLessThanOrEqual(0.05);
      const skipped = report.tests.filter((t) => t.outcome === 'skipped');
      expect(skipped).toHaveLength(report.summary.skipped);
      for (const test of skipped) expect(test.reason, test.name).toMatch(/a provider-state hook would add this test/);
      expect(report.warnings.join('\n')).toMatch(/skipped that a provider-state hook would have added/);
    }
  }, 600_000);
});

describe.concurrent('a wrong file stops the run with exit code 2 and one line', () => {
  it('(and export stops the same way when the hook refuses its token)', async () => {
    const result = await conformance(['states', 'export', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', 'wrong-token', '--out', join(tempDir('states-export-'), 'states.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/hook .* answered 401: STATES_TOKEN is wrong/)]);
  });

  const account = { state: 'user', id: 'u-1', email: 'u1@x.test', password: 'Pw-run-file-1' };
  it.each([
    ['one account in conflicting roles', { version: 1, accounts: [account, { ...account, state: 'user.throttled' }] }, /one account \(same id\) in conflicting roles plain and user\.throttled/],
  ])('%s', async (_name, content, expected) => {
    const path = join(tempDir('states-wrong-'), 'states.json');
    writeFileSync(path, JSON.stringify(content));
    const result = await conformance(['run', '--target', reference.baseUrl, '--states-file', path, '--report-dir', tempDir('states-wrong-report-')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(expected)]);
    expect(result.stdout + result.stderr).not.toContain('Pw-run-file-1');
  });
});
