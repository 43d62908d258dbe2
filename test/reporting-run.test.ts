import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { STATES_PATH } from '../reference/app.js';
import { MUTANTS } from '../reference/mutants/index.js';
import type { Mutant } from '../reference/mutants/types.js';
import type { ReportDiff } from '../reporting/diff.js';
import type { Report } from '../reporting/model.js';
import { SecretLedger, referenceWithLedger } from './secret-ledger.js';
import { conformance, tempDir, type CliResult } from './support.js';

/**
 * The report files of real runs, end to end: a run against the reference and one against a mutant
 * (through the CLI, as in CI with GITHUB_ACTIONS=true), each checked against schemas/report.json,
 * scanned for every secret the reference handed out, compared with `diff`, certified and verified.
 */

const GROUPS = ['authentication', 'password'];
const STATES_TOKEN = 'reporting-self-test-states-token';
/** Prefer a mutant whose access tokens have an unexpected shape: the hardest case for redaction. */
const MUTANT: Mutant | undefined = MUTANTS.find((m) => m.name === 'session-token-without-numeric-id') ?? MUTANTS.find((m) => GROUPS.includes(m.group));

const ledger = new SecretLedger();
const reference = (mutant?: Mutant) => referenceWithLedger(ledger, { states: true, statesToken: STATES_TOKEN, ...(mutant ? { mutation: mutant.mutation } : {}) });

const dirA = tempDir('reporting-run-a-');
const dirB = tempDir('reporting-run-b-');
const stepSummary = join(tempDir('reporting-step-'), 'summary.md');
let runA: CliResult;
let runB: CliResult;
let reportA: Report;
let reportB: Report;
const apps: { close(): Promise<unknown> }[] = [];

async function runAgainst(mutant: Mutant | undefined, dir: string, env: Record<string, string> = {}): Promise<CliResult> {
  const { app, base } = await reference(mutant);
  apps.push(app);
  const groupArgs = GROUPS.flatMap((g) => ['--group', g]);
  return conformance(['run', '--target', base, '--states', `${base}${STATES_PATH}`, '--report-dir', dir, ...groupArgs], { STATES_TOKEN, ...env });
}

beforeAll(async () => {
  if (!MUTANT) throw new Error(`no mutant of ${GROUPS.join(' or ')} in reference/mutants/`);
  [runA, runB] = await Promise.all([runAgainst(undefined, dirA), runAgainst(MUTANT, dirB, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary })]);
  reportA = JSON.parse(readFileSync(join(dirA, 'report.json'), 'utf8'));
  reportB = JSON.parse(readFileSync(join(dirB, 'report.json'), 'utf8'));
}, 300_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

describe('report files of a run', () => {
  it('writes report.json, junit.xml, summary.md and report.html; exit codes follow the outcome', () => {
    for (const dir of [dirA, dirB]) for (const file of ['report.json', 'junit.xml', 'summary.md', 'report.html']) expect(existsSync(join(dir, file)), `${dir}/${file}`).toBe(true);
    expect(runA.code, runA.stderr).toBe(reportA.summary.failed > 0 ? 1 : 0);
    expect(runB.code, runB.stderr).toBe(1);
    expect(reportB.tests.some((t) => t.outcome === 'failed' && t.clauses.includes(MUTANT!.clause))).toBe(true);
  });

  it('report.json validates against schemas/report.json', () => {
    expect(schemaProblems('report', reportA)).toEqual([]);
    expect(schemaProblems('report', reportB)).toEqual([]);
  });

  it('prints each failure with its clause, expected and actual and a curl line; in GitHub Actions also ::error annotations and the job summary', () => {
    const failed = reportB.tests.filter((t) => t.outcome === 'failed');
    for (const test of failed.slice(0, 30)) expect(runB.stdout).toContain(`  x ${test.name}\n      section`);
    expect(runB.stdout).toMatch(/^ {6}\$ curl -sS -i /m);
    const errors = runB.stdout.split('\n').filter((line) => line.startsWith('::error file=suites/'));
    expect(errors).toHaveLength(Math.min(failed.length, 50));
    expect(readFileSync(stepSummary, 'utf8')).toContain('## Conformance: \u274c nonconformant');
    expect(runA.stdout).not.toContain('::error');
  });

  it('writes no password, token, TOTP secret, JWT, private key or states token into any file or the terminal', () => {
    expect(ledger.secrets.size).toBeGreaterThan(10);
    const texts: [string, string][] = [
      ['stdout A', runA.stdout + runA.stderr],
      ['stdout B', runB.stdout + runB.stderr],
      ['step summary', readFileSync(stepSummary, 'utf8')],
    ];
    for (const dir of [dirA, dirB]) for (const file of readdirSync(dir)) texts.push([join(dir, file), readFileSync(join(dir, file), 'utf8')]);
    for (const [where, raw] of texts) {
      // HTML and XML escape quotes: scan the text as a reader sees it, too.
      const text = `${raw}\n${raw.replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')}`;
      expect(ledger.leakIn(text), `${where} contains a secret the reference issued`).toBe(false);
      expect(text, `${where} contains a JWT`).not.toMatch(/eyJ[\w-]{8,}\.eyJ[\w-]{8,}/);
      expect(text, `${where} contains a private key`).not.toMatch(/PRIVATE KEY-----/);
      expect(text, `${where} contains the states token`).not.toContain(STATES_TOKEN);
      expect(text, `${where} contains a bearer token`).not.toMatch(/Bearer (?!\[REDACTED\]|\$ACCESS_TOKEN|\$\{ACCESS_TOKEN\})[^\s"'<]+/);
      expect(text, `${where} contains an access token`).not.toMatch(/\b\d+\|(?!notARealTokenSecretValue)[A-Za-z0-9]{16,}/);
      // A reproduction's variable names (request.variables: "password": "NEW_PASSWORD") are the suite's words, not secrets.
      expect(text, `${where} shows a secret JSON field`).not.toMatch(/"(password|token|totpSecret|secret|access_token|jwt)"\s*:\s*"(?!\[REDACTED\]|\$|'"\$|(NEW_)?PASSWORD(_\d+)?")[^"]+"/i);
    }
  });

  it('diff names exactly the tests the mutant broke, and exits 1; a run compared with itself exits 0', async () => {
    const out = tempDir('reporting-diff-');
    const regressed = await conformance(['diff', join(dirA, 'report.json'), join(dirB, 'report.json'), '--out', out]);
    expect(regressed.code, regressed.stderr).toBe(1);
    const diff = JSON.parse(readFileSync(join(out, 'diff.json'), 'utf8')) as ReportDiff;
    const failedBefore = new Set(reportA.tests.filter((t) => t.outcome === 'failed').map((t) => t.id));
    const broken = reportB.tests.filter((t) => t.outcome === 'failed' && !failedBefore.has(t.id)).map((t) => t.id);
    expect(diff.tests.newlyFailing.map((c) => c.id).sort()).toEqual(broken.sort());
    expect(regressed.stdout).toContain('### Newly failing');
    expect(readFileSync(join(out, 'diff.md'), 'utf8')).toContain('## Conformance diff: \u274c regressed');

    const same = await conformance(['diff', join(dirA, 'report.json'), join(dirA, 'report.json'), '--out', out]);
    expect(same.code, same.stderr).toBe(0);
    const unreadable = await conformance(['diff', join(dirA, 'missing.json'), join(dirA, 'report.json')]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr.trim()).toBe(`cannot read base report ${join(dirA, 'missing.json')}: no such file`);
  });

  it('certifies a report; verify holds (exit 0) and fails on a tampered report (exit 1)', async () => {
    const keys = tempDir('reporting-keys-');
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    writeFileSync(join(keys, 'private.pem'), pair.privateKey);
    writeFileSync(join(keys, 'public.pem'), pair.publicKey);
    const certificate = join(keys, 'certificate.jws');
    const signed = await conformance(['certify', '--report', join(dirB, 'report.json'), '--key', join(keys, 'private.pem'), '--out', certificate]);
    expect(signed.code, signed.stderr).toBe(0);
    const holds = await conformance(['verify', '--certificate', certificate, '--key', join(keys, 'public.pem'), '--report', join(dirB, 'report.json')]);
    expect(holds.code, holds.stdout).toBe(0);
    expect(holds.stdout).toMatch(/^HOLDS: /);
    const tampered = join(keys, 'report.json');
    writeFileSync(tampered, readFileSync(join(dirB, 'report.json'), 'utf8').replace('"nonconformant"', '"conformant"'));
    const fails = await conformance(['verify', '--certificate', certificate, '--key', join(keys, 'public.pem'), '--report', tampered]);
    expect(fails.code).toBe(1);
    expect(fails.stdout).toMatch(/^DOES NOT HOLD: report .*: the report was altered/);
    const usage = await conformance(['verify', '--certificate', certificate, '--report', tampered]);
    expect(usage.code).toBe(2);
  });
});
