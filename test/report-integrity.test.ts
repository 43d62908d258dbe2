import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../reference/app.js';
import { testId } from '../reporting/collector.js';
import type { Report } from '../reporting/model.js';
import { proxyEnv } from './loopback-road.js';
import { conformance, tempDir } from './support.js';

/**
 * Issue 22, blocker 1: a configured secret that is a word of the suite's own vocabulary. Redaction
 * rewrites the exchanged content only; the report the run writes is one its own commands accept.
 */

/** A word of many test names and of endpoint paths (/api/v1/user/password/...). */
const WEAK_TOKEN = 'password';

let reference: RunningReference;
beforeAll(async () => {
  reference = await startReference({ states: true, statesToken: WEAK_TOKEN });
});
afterAll(async () => {
  await reference?.close();
});

describe('a STATES_TOKEN that is a word of the test names', { timeout: 240_000 }, () => {
  it('leaves ids, names and endpoints alone, still redacts it in content, warns once, and render, diff, certify and verify accept the report', async () => {
    const dir = tempDir('weak-token-');
    const run = await conformance(['run', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--group', 'password', '--report-dir', dir], { ...proxyEnv(undefined), STATES_TOKEN: WEAK_TOKEN });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const text = readFileSync(join(dir, 'report.json'), 'utf8');
    const report = JSON.parse(text) as Report;
    expect(report.tests.length).toBeGreaterThan(10);
    for (const test of report.tests) {
      expect(test.id, test.name).toBe(testId(test.name));
      expect(`${test.name} ${test.endpoint}`).not.toContain('[REDACTED]');
    }
    expect(report.tests.some((t) => t.name.includes(WEAK_TOKEN))).toBe(true);
    expect(report.tests.some((t) => t.endpoint.includes(`-${WEAK_TOKEN}`))).toBe(true);
    // Coverage counts every pair the group verified: no pair lost to a rewritten endpoint or id.
    const groupPairs = report.coverage.pairs.filter((p) => p.endpoint.includes(`-${WEAK_TOKEN}`));
    expect(groupPairs.length).toBeGreaterThanOrEqual(4);
    expect(groupPairs.filter((p) => p.outcome !== 'passed')).toEqual([]);
    // Still redacted where it is content: every string of the exchanges (JSON keys are names, not content).
    const strings: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(report.tests.map((t) => t.exchanges));
    expect(strings.filter((s) => s.includes(WEAK_TOKEN)).slice(0, 3)).toEqual([]);
    expect(strings.some((s) => s.includes('/user/forgot-[REDACTED]'))).toBe(true);
    // One warning, which never prints the token.
    const weak = report.warnings.filter((w) => w.includes('STATES_TOKEN is weak'));
    expect(weak).toHaveLength(1);
    expect(run.stdout.split('\n').filter((line) => line.includes('STATES_TOKEN is weak'))).toHaveLength(1);

    const renderDir = tempDir('weak-render-');
    const rendered = await conformance(['render', '--report', join(dir, 'report.json'), '--out', renderDir]);
    expect(rendered.code, rendered.stderr).toBe(0);
    // The page carries report.json's SHA-256, and `render` makes the very same page again (how the HTML is checked).
    const sha256 = createHash('sha256').update(readFileSync(join(dir, 'report.json'))).digest('hex');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain(`SHA-256 <code class="sha">${sha256}</code>`);
    expect(html).toContain('conformance render --report report.json --out DIR');
    expect(readFileSync(join(renderDir, 'report.html'), 'utf8')).toBe(html);
    const diffed = await conformance(['diff', join(dir, 'report.json'), join(dir, 'report.json'), '--out', tempDir('weak-diff-')]);
    expect(diffed.code, diffed.stderr).toBe(0);
    const keys = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const keyDir = tempDir('weak-keys-');
    writeFileSync(join(keyDir, 'private.pem'), keys.privateKey);
    writeFileSync(join(keyDir, 'public.pem'), keys.publicKey);
    const certificate = join(keyDir, 'report.certificate.jws');
    const certified = await conformance(['certify', '--report', join(dir, 'report.json'), '--key', join(keyDir, 'private.pem'), '--out', certificate]);
    expect(certified.code, certified.stderr).toBe(0);
    expect(certified.stdout).toContain(`(sha256 ${sha256})`);
    const verified = await conformance(['verify', '--certificate', certificate, '--key', join(keyDir, 'public.pem'), '--report', join(dir, 'report.json')]);
    expect([verified.code, verified.stdout], verified.stderr).toEqual([0, expect.stringMatching(/^HOLDS: /)]);
  });
});
