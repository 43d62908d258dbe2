import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../reference/app.js';
import type { Report } from '../reporting/model.js';
import { conformance, tempDir } from './support.js';

let reference: RunningReference;
beforeAll(async () => {
  reference = await startReference({ states: true, statesToken: 'cli-test-token' });
});
afterAll(async () => {
  await reference?.close();
});

const oneLine = (text: string) => text.trim().split('\n');

describe.concurrent('conformance run: exit codes and one clear line', () => {
  it('runs against the embedded reference when BASE_URL is unset, writes report.json and junit.xml, exits 0', async () => {
    const dir = tempDir('cli-embedded-');
    const result = await conformance(['run', '--group', 'authentication', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('(embedded reference)');
    expect(existsSync(join(dir, 'junit.xml'))).toBe(true);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.summary.failed).toBe(0);
    expect(report.tests.every((t) => t.group === 'authentication')).toBe(true);
  });

  it('exits 2 with one line when the target refuses connections', async () => {
    const result = await conformance(['run', '--target', 'http://127.0.0.1:9', '--report-dir', tempDir('cli-')]);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/^target unreachable: .*refused \(ECONNREFUSED\).*check BASE_URL/)]);
  });

  it('never shows the credentials of a BASE_URL, even when the target is unreachable', async () => {
    const result = await conformance(['run', '--target', 'http://ci:s3cret-pass@127.0.0.1:9', '--report-dir', tempDir('cli-')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^target unreachable: POST http:\/\/127\.0\.0\.1:9\/api\/v1\/user\/logout was refused/);
    expect(result.stdout + result.stderr).not.toContain('s3cret-pass');
  });

  it('exits 2 with one line for a malformed BASE_URL', async () => {
    const result = await conformance(['run'], { BASE_URL: 'localhost:8080' });
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/^configuration error: BASE_URL /)]);
  });

  it('exits 2 naming STATES_TOKEN when the hook refuses the token', async () => {
    const result = await conformance(['run', '--target', reference.baseUrl, '--states', reference.statesUrl!], { STATES_TOKEN: 'wrong' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/STATES_TOKEN is wrong/);
    expect(result.stderr).not.toContain('cli-test-token');
  });

  it('exits 2 for an unknown command or flag', async () => {
    expect((await conformance(['frobnicate'])).code).toBe(2);
    const flag = await conformance(['run', '--no-such-flag']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/no-such-flag/);
  });

  it('reports tests that need a state as skipped with the reason when no states are configured, and exits 0', async () => {
    const dir = tempDir('cli-nostates-');
    const result = await conformance(['run', '--target', reference.baseUrl, '--group', 'authentication', '--report-dir', dir]);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(result.code, result.stdout).toBe(0);
    expect(report.verdict).toBe('incomplete');
    const skipped = report.tests.filter((t) => t.outcome === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((t) => /does not provide state/.test(t.reason ?? ''))).toBe(true);
    expect(result.stdout).toMatch(/Not verified/);
  });
});
