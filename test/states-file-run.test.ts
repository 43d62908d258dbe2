import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../reference/app.js';
import type { Report } from '../reporting/model.js';
import { conformance, tempDir } from './support.js';

/**
 * Certification without a hook, end to end (issue 30): a file of version 2 exported from the
 * reference's hook with `--runs 2` serves two consecutive whole runs against that reference with no
 * hook configured, both conformant with nothing skipped: every state has its place in the file, and
 * the accounts that serve once (disposable, brute-force, the card-less one) are there for both runs.
 * A wrong file stops a run with exit code 2 and one line (the other wrong files are covered
 * in-process by states-file.test.ts). Two whole runs: about 40 s each on an idle machine.
 */

const STATES_TOKEN = 'states-file-run-token';

let reference: RunningReference;
let dir: string;
let exported: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  reference = await startReference({ states: true, statesToken: STATES_TOKEN });
  dir = tempDir('states-export-');
  exported = await conformance(['states', 'export', '--runs', '2', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', join(dir, 'states.json')]);
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

  it('exported with --runs 2, serves two consecutive whole runs without a hook: both conformant, 0 skipped, exit 0 (issue 30)', async () => {
    for (const run of [1, 2]) {
      const reports = join(dir, `run-${run}`);
      const result = await conformance(['run', '--target', reference.baseUrl, '--states-file', join(dir, 'states.json'), '--report-dir', reports]);
      const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as Report;
      const notPassed = report.tests.filter((t) => t.outcome !== 'passed').map((t) => `${t.name}: ${t.outcome} ${t.reason}`);
      expect(notPassed, `run ${run}`).toEqual([]);
      expect(result.code, `run ${run}: ${result.stdout.slice(-2000)}${result.stderr}`).toBe(0);
      expect(report.target.states).toBe('file');
      expect(report.verdict, `run ${run}`).toBe('conformant');
      expect(report.summary.skipped, `run ${run}`).toBe(0);
    }
    // A bound against a hang, not a speed check: each run waits on TOTP steps and the spacing of reset e-mails to the
    // file's accounts (about two minutes), and shares two cores with the mutation run (a loaded machine took 300 s).
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

describe('export under an allowed reading', () => {
  it('of a target whose forgot- and reset-password require a bearer (allowed-password-bearer-required): writes the file, every reset-token account in it (review-an F8)', { timeout: 180_000 }, async () => {
    const bearerRequired = await startReference({ states: true, statesToken: STATES_TOKEN, mutation: { deviation: 'password.bearer-required' } });
    try {
      const out = join(tempDir('states-export-bearer-'), 'states.json');
      const result = await conformance(['states', 'export', '--minimum', '--target', bearerRequired.baseUrl, '--states', bearerRequired.statesUrl!, '--states-token', STATES_TOKEN, '--out', out]);
      expect(result.code, result.stderr).toBe(0);
      const file = JSON.parse(readFileSync(out, 'utf8')) as { accounts: { resetToken?: string; email: string }[] };
      const withToken = file.accounts.filter((account) => account.resetToken);
      expect(withToken.length).toBeGreaterThan(0);
      // The addresses login does not take (over 191 characters) got their reset tokens too, with another account's bearer.
      expect(withToken.some((account) => account.email.length > 191)).toBe(true);
    } finally {
      await bearerRequired.close();
    }
  });
});
