import { describe, expect, it } from 'vitest';
import { rowLines } from '../reporting/row-lines.js';

/** A suite file in miniature: two tables with a shared description, a title template, a short-valued loop. */
const SOURCE = [
  "const FORGOT = [", //                                                               1
  "  { description: 'answers 422 keyed by email when email is missing', input: {} },", // 2
  "  { description: `answers 422 for an e-mail of ${LONG} characters`, input: {} },", //   3
  "];",
  "for (const row of FORGOT) forgot.check(row.description, {}, body);", //              5
  "const RESET = [",
  "  { description: 'answers 422 keyed by email when email is missing', input: {} },", // 7
  "];",
  "for (const row of RESET) {",
  "  const title = `answers 422 with errors.${row.field} ${row.description}`;", //      10
  "  reset.check(title, {}, body);", //                                                 11
  "}",
  "for (const status of ['pending', 'canceled']) list.check(`answers 200 for status=${status}`, {}, body);", // 13
  "single.check('answers 200 when email is missing', {}, body);", //                    14
].join('\n');

describe('table rows at their own lines (JUnit, annotations)', () => {
  it('finds each row by its description among the rows of the table the loop reads', () => {
    const rows = rowLines(SOURCE, [
      { name: 'POST /forgot answers 422 keyed by email when email is missing', line: 5 },
      { name: 'POST /forgot answers 422 for an e-mail of 256 characters', line: 5 },
      { name: 'POST /reset answers 422 with errors.email answers 422 keyed by email when email is missing', line: 11 },
      { name: 'POST /reset answers 422 with errors.token answers 422 for an e-mail of 256 characters', line: 11 },
    ]);
    expect(Object.fromEntries(rows)).toEqual({
      'POST /forgot answers 422 keyed by email when email is missing': 2,
      'POST /forgot answers 422 for an e-mail of 256 characters': 3,
      // The same text in the other table, and the title template of line 10: only RESET's rows count.
      'POST /reset answers 422 with errors.email answers 422 keyed by email when email is missing': 7,
      // RESET has no such row: the FORGOT row that matches is another table's, so the loop's line stays.
    });
  });

  it('leaves a test at its loop when no row of its own table is found, or when it shares its line with no other test', () => {
    const rows = rowLines(SOURCE, [
      { name: 'GET /list answers 200 for status=pending', line: 13 },
      { name: 'GET /list answers 200 for status=canceled', line: 13 },
      { name: 'GET /single answers 200 when email is missing', line: 14 },
    ]);
    expect(rows.size).toBe(0);
  });

  it('does not take a longer description of another table, a template row for another loop, or a row claimed twice', () => {
    const source = [
      "const A = [", //                                                                   1
      "  { description: 'an email of 192 characters', input: {} },", //                    2
      "  { description: `a password of ${LONG} characters`, input: {} },", //             3
      "];",
      "for (const row of A) a.check(`answers 422 for ${row.description}`, {}, body);", //  5
      "const B: Row[] = [", //                                                            6
      "  { description: 'email of 192 characters', input: {} },", //                      7
      "  { description: 'a name of 192 characters', input: {} },", //                     8
      "];",
      "for (const row of B) {", //                                                        10
      "  b.check(`answers 422 for an ${row.description}`, {}, body);", //                 11
      "}",
      "for (const n of [7, 8]) a.check(`answers 422 for a password of ${n} characters`, {}, body);", // 13
      "const C = [", //                                                                   14
      "  { description: `a field of ${N} characters`, input: {} },", //                   15
      "];",
      "for (const row of C) for (const n of [1, 2]) c.check(`answers 422 for ${row.description.replace('${N}', String(n))}`, {}, body);", // 17
    ].join('\n');
    const rows = rowLines(source, [
      { name: 'POST /a answers 422 for an email of 192 characters', line: 5 },
      { name: 'POST /a answers 422 for a password of 192 characters', line: 5 },
      { name: 'POST /b answers 422 for an email of 192 characters', line: 11 },
      { name: 'POST /b answers 422 for an a name of 192 characters', line: 11 },
      { name: 'POST /a answers 422 for a password of 7 characters', line: 13 },
      { name: 'POST /a answers 422 for a password of 8 characters', line: 13 },
      { name: 'POST /c answers 422 for a field of 1 characters', line: 17 },
      { name: 'POST /c answers 422 for a field of 2 characters', line: 17 },
    ]);
    expect(Object.fromEntries(rows)).toEqual({
      'POST /a answers 422 for an email of 192 characters': 2,
      'POST /a answers 422 for a password of 192 characters': 3,
      // Table A's longer 'an email of 192 characters' also ends this name, but the loop reads B.
      'POST /b answers 422 for an email of 192 characters': 7,
      'POST /b answers 422 for an a name of 192 characters': 8,
      // Line 13 reads no table (row 3's template would match); line 17's two tests would share row 15.
    });
  });

  it('reads the table declared nearest above its loop (two blocks with a local `rows`), past a type annotation with `=>`, with escapes', () => {
    const source = [
      "describe('PUT', () => {", //                                                        1
      "  const rows = [", //                                                               2
      "    { description: 'a bankName of 256 characters', input: {} },", //                3
      "  ];",
      "  for (const row of rows) put.check(`answers 422 for ${row.description}`, {}, body);", // 5
      "});",
      "describe('POST', () => {",
      "  const rows: { description: string; make: (n: number) => string }[] = [", //       8
      "    { description: 'a bankName of 256 characters', make: (n) => 'x'.repeat(n) },", // 9
      "    { description: 'a name that isn\\u2019t ASCII', make: () => '\\u00e9' },", //  10
      "  ];",
      "  for (const row of rows) post.check(`answers 422 for ${row.description}`, {}, body);", // 12
      "});",
    ].join('\n');
    const rows = rowLines(source, [
      { name: 'PUT /bank answers 422 for a bankName of 256 characters', line: 5 },
      { name: 'PUT /bank answers 422 for another case', line: 5 },
      { name: 'POST /bank answers 422 for a bankName of 256 characters', line: 12 },
      { name: 'POST /bank answers 422 for a name that isn\u2019t ASCII', line: 12 },
    ]);
    expect(Object.fromEntries(rows)).toEqual({
      'PUT /bank answers 422 for a bankName of 256 characters': 3,
      'POST /bank answers 422 for a bankName of 256 characters': 9,
      'POST /bank answers 422 for a name that isn\u2019t ASCII': 10,
    });
  });
});
