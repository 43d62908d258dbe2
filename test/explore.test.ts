import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digitsVerdict, lengthReadings, lengthVerdict } from '../explore/values.js';
import { schemaProblems } from '../helpers/schemas.js';
import { twoByteText } from '../helpers/text.js';
import type { Report } from '../reporting/model.js';
import { conformance, tempDir } from './support.js';

describe('explore: judging a value when the specification can be read several ways', () => {
  it('counts characters, never bytes: two-byte letters inside a limit are inside under every reading', () => {
    expect(lengthVerdict(twoByteText(191), 1, 191)).toBe('inside');
    expect(lengthVerdict(twoByteText(192), 1, 191)).toBe('outside');
    expect(lengthVerdict(twoByteText(4), 8, 191)).toBe('outside');
  });

  it('calls a value ambiguous when characters outside the BMP, trimmed ends or normalisation change its side of the limit', () => {
    expect(lengthVerdict(`${'a'.repeat(190)}\u{1F600}`, 1, 191)).toBe('ambiguous'); // 191 code points, 192 UTF-16 units
    expect(lengthVerdict(` ${'a'.repeat(191)}`, 1, 191)).toBe('ambiguous'); // 192, or 191 once trimmed
    expect(lengthVerdict(`${'a'.repeat(190)}e\u0301`, 1, 191)).toBe('ambiguous'); // 192, or 191 after NFC
    expect(lengthReadings('\u00e9')).toEqual([1, 1, 1, 2, 1]);
  });

  it('reads "exactly n digits" as ASCII digits, ambiguous for other decimal digits and trimmed ends', () => {
    expect(digitsVerdict('123456', 6)).toBe('inside');
    expect(digitsVerdict('12a456', 6)).toBe('outside');
    expect(digitsVerdict('\u0661\u0662\u0663\u0664\u0665\u0666', 6)).toBe('ambiguous');
    expect(digitsVerdict(' 123456', 6)).toBe('ambiguous');
  });
});

describe.concurrent('conformance explore against the embedded reference', () => {
  it('explores every group with a small budget: 0 failures, the seed printed and recorded, the cards it created counted', async () => {
    const dir = tempDir('explore-');
    const result = await conformance(['explore', '--seed', '1', '--runs', '4', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Exploring with seed 1, 4 runs per property/m);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(schemaProblems('report', report)).toEqual([]);
    expect(report.summary.failed).toBe(0);
    expect(report.tests.length).toBeGreaterThanOrEqual(30);
    expect(report.tests.every((t) => t.name.includes(' property: '))).toBe(true);
    expect(new Set(report.tests.map((t) => t.group)).size).toBe(6);
    expect(report.exploration).toMatchObject({ seed: 1, runs: 4, properties: report.tests.length });
    expect(report.exploration!.cardsCreated).toBe(2);
    expect(result.stdout).toMatch(/cards created: 2 \(cards cannot be deleted\); seed 1$/m);
  }, 180_000);

  it('fails a target that counts a limit in bytes, with the shrunk counterexample and a curl that replays it', async () => {
    const dir = tempDir('explore-mutant-');
    const result = await conformance(['explore', '--seed', '1', '--runs', '4', '--group', 'banks', '--mutant', 'banks-bank-name-max-in-bytes', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/property: bank fields inside the rules/);
    expect(result.stdout).toMatch(/counterexample bankName of 191 characters \(382 UTF-8 bytes\) "(\\u[0-9a-f]{4})+/);
    expect(result.stdout).toMatch(/\$ curl .* -X POST .*\/bank /);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    const failed = report.tests.filter((t) => t.outcome === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.failure!.message).toMatch(/replay: conformance explore --seed 1/);
    expect(failed[0]!.exchanges.at(-1)!.request.method).toBe('POST');
  }, 180_000);

  it('exits 2 with one line for a seed that is not a whole number', async () => {
    const result = await conformance(['explore', '--seed', 'soon']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^configuration error: --seed must be a whole number/);
  });
});
