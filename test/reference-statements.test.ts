import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

/**
 * reference/app.ts prepares each SQL text once and hands the same better-sqlite3 statement to every caller. That is
 * safe only while no caller changes a statement for the next one (pluck, raw, expand, safeIntegers, a permanent bind)
 * or keeps one busy across another use (iterate: "This statement is busy executing a query"; a SQL function that
 * runs JavaScript inside a query). Every use is a synchronous get, all or run.
 */
describe('the reference\u2019s shared prepared statements', () => {
  const files = sources(join(ROOT, 'reference')).map((file) => ({ file: relative(ROOT, file), text: readFileSync(file, 'utf8') }));

  it('are never switched to another mode, bound for good, iterated lazily or re-entered from a SQL function', () => {
    const risky = /\.(pluck|raw|expand|safeIntegers|iterate|function|aggregate|table)\(|\.bind\((?!db\))/g;
    const found = files.flatMap(({ file, text }) => [...text.matchAll(risky)].map((m) => `${file}: ${text.slice(Math.max(0, m.index - 40), m.index + m[0].length)}`));
    expect(found).toEqual([]);
  });
});
