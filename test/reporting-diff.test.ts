import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { diffCommand, UsageError } from '../reporting/commands.js';
import { diffMarkdown, diffReports } from '../reporting/diff.js';
import { record, report } from './reporting-fixtures.js';
import { tempDir } from './support.js';

const SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const drift = (pointer: string) => ({ message: 'response does not match schema bank-response:', schemaProblems: [{ schema: 'bank-response', problems: [{ pointer, rule: 'required', message: 'must have required property', value: undefined }] }] });

const base = report([
  record('answers 200 with the list'),
  record('answers 401 without a token', { status: 401 }),
  record('answers 404 for an unknown bank', { endpoint: SHOW, status: 404, outcome: 'failed' }),
  record('answers 409 for another user', { status: 409, outcome: 'skipped' }),
  record('answers 403 for an inactive account', { status: 403 }),
  record('answers 200 with one bank', { endpoint: SHOW, outcome: 'failed', failure: drift('/data/iban') }),
]);

const head = report([
  record('answers 200 with the list', { outcome: 'failed', failure: drift('/data/0/iban') }),
  record('answers 401 without a token', { status: 401, advisories: ['the target also sent WWW-Authenticate'] }),
  record('answers 404 for an unknown bank', { endpoint: SHOW, status: 404 }),
  record('answers 409 for another user', { status: 409, outcome: 'skipped' }),
  record('answers 200 with one bank', { endpoint: SHOW, outcome: 'failed', failure: drift('/data/iban') }),
  record('answers 200 for a currency filter', { outcome: 'skipped' }),
]);

describe('diff', () => {
  const diff = diffReports(base, head, { base: 'base.json', head: 'head.json' });
  const ids = (list: { name: string }[]) => list.map((c) => c.name.replace(/^\S+ \S+ /, ''));

  test('lists newly failing, passing, skipped, advisory, added and removed tests', () => {
    expect(ids(diff.tests.newlyFailing)).toEqual(['answers 200 with the list']);
    expect(diff.tests.newlyFailing[0]).toMatchObject({ from: 'passed', to: 'failed', detail: 'expected 200, got 500; schema bank-response: /data/0/iban (required)' });
    expect(ids(diff.tests.newlyPassing)).toEqual(['answers 404 for an unknown bank']);
    expect(ids(diff.tests.newlySkipped)).toEqual(['answers 200 for a currency filter']);
    expect(ids(diff.tests.newlyAdvisory)).toEqual(['answers 401 without a token']);
    expect(ids(diff.tests.added)).toEqual(['answers 200 for a currency filter']);
    expect(ids(diff.tests.removed)).toEqual(['answers 403 for an inactive account']);
  });

  test('reports coverage lost and gained, and only new shape drift', () => {
    expect(diff.coverage.pairsLost.map((c) => c.key)).toEqual(['GET /api/v1/user/{user}/bank 200', 'GET /api/v1/user/{user}/bank 403']);
    expect(diff.coverage.pairsLost[0]).toMatchObject({ from: 'passed', to: 'failed' });
    expect(diff.coverage.pairsGained.map((c) => c.key)).toEqual([`${SHOW} 404`]);
    expect(diff.shapeDrift).toEqual([expect.objectContaining({ schema: 'bank-response', pointer: '/data/0/iban', rule: 'required' })]);
    expect(diff.regressed).toBe(true);
  });

  test('renders Markdown with every section', () => {
    const text = diffMarkdown(diff);
    for (const heading of ['Newly failing (1)', 'Coverage lost: endpoint \u00d7 status pairs (2)', 'New shape drift (1)', 'Newly passing (1)', 'Newly skipped (1)', 'Newly advisory (1)', 'Tests added (1)', 'Tests removed (1)', 'Coverage gained: endpoint \u00d7 status pairs (1)']) {
      expect(text).toContain(`### ${heading}`);
    }
    expect(text.startsWith('## Conformance diff: \u274c regressed')).toBe(true);
  });

  test('a report compared with itself has no change and no regression', () => {
    const same = diffReports(head, head);
    expect(same.regressed).toBe(false);
    expect(diffMarkdown(same)).toContain('No test changed outcome');
  });

  test('warns when the two reports are of different targets (issue 22); two embedded references are one target', () => {
    const dir = tempDir('diff-targets-');
    const other = { ...head, target: { ...head.target, baseUrl: 'https://other.example.test', embedded: false } };
    writeFileSync(join(dir, 'base.json'), JSON.stringify(head));
    writeFileSync(join(dir, 'other.json'), JSON.stringify(other));
    const errors: string[] = [];
    const io = { out: () => {}, err: (line: string) => errors.push(line) };
    diffCommand(join(dir, 'base.json'), join(dir, 'other.json'), join(dir, 'out'), io);
    expect(errors).toEqual([`warning: the two reports are of different targets (base ${head.target.baseUrl}, head https://other.example.test): this compares two implementations, not two runs of one`]);
    expect(readFileSync(join(dir, 'out', 'diff.md'), 'utf8')).toContain('> **Different targets**');
    const embedded = (port: number) => ({ ...head, target: { ...head.target, baseUrl: `http://127.0.0.1:${port}`, embedded: true } });
    expect(diffReports(embedded(1), embedded(2)).differentTargets).toBeUndefined();
  });

  test('the command writes diff.md and diff.json, exits 1 on regression, 0 otherwise, and refuses unreadable input', () => {
    const dir = tempDir('diff-');
    writeFileSync(join(dir, 'base.json'), JSON.stringify(base));
    writeFileSync(join(dir, 'head.json'), JSON.stringify(head));
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(diffCommand(join(dir, 'base.json'), join(dir, 'head.json'), join(dir, 'out'), io)).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'diff.json'), 'utf8')).tests.newlyFailing).toHaveLength(1);
    expect(readFileSync(join(dir, 'out', 'diff.md'), 'utf8')).toContain('### Newly failing (1)');
    expect(lines.at(-1)).toMatch(/^Regressed: 1 newly failing, 2 coverage lost, 1 new shape drift/);
    expect(diffCommand(join(dir, 'head.json'), join(dir, 'head.json'), undefined, io)).toBe(0);
    expect(lines.at(-1)).toMatch(/^No regression\./);

    writeFileSync(join(dir, 'broken.json'), '{"tests": [');
    writeFileSync(join(dir, 'other.json'), '{"tests": []}');
    expect(() => diffCommand(join(dir, 'missing.json'), join(dir, 'head.json'), undefined, io)).toThrow(new UsageError(`cannot read base report ${join(dir, 'missing.json')}: no such file`));
    expect(() => diffCommand(join(dir, 'base.json'), join(dir, 'broken.json'), undefined, io)).toThrow(/^cannot read head report .*broken\.json: not JSON/);
    expect(() => diffCommand(join(dir, 'base.json'), join(dir, 'other.json'), undefined, io)).toThrow(/^cannot read head report .*other\.json: not a conformance report \(\/reportVersion: must have required property/);
  });
});
