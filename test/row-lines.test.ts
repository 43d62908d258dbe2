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
  it('finds each row by its description, the same text in two tables by the nearest table above the loop', () => {
    const rows = rowLines(SOURCE, [
      { name: 'POST /forgot answers 422 keyed by email when email is missing', line: 5 },
      { name: 'POST /forgot answers 422 for an e-mail of 256 characters', line: 5 },
      { name: 'POST /reset answers 422 with errors.email answers 422 keyed by email when email is missing', line: 11 },
      { name: 'POST /reset answers 422 with errors.token answers 422 for an e-mail of 256 characters', line: 11 },
    ]);
    expect(Object.fromEntries(rows)).toEqual({
      'POST /forgot answers 422 keyed by email when email is missing': 2,
      'POST /forgot answers 422 for an e-mail of 256 characters': 3,
      // The title template of line 10 matches too, and longer: a row's description wins.
      'POST /reset answers 422 with errors.email answers 422 keyed by email when email is missing': 7,
      'POST /reset answers 422 with errors.token answers 422 for an e-mail of 256 characters': 3,
    });
  });

  it('leaves a test at its line when no row is found with certainty, or when it shares its line with no other test', () => {
    const rows = rowLines(SOURCE, [
      { name: 'GET /list answers 200 for status=pending', line: 13 },
      { name: 'GET /list answers 200 for status=canceled', line: 13 },
      { name: 'GET /single answers 200 when email is missing', line: 14 },
    ]);
    expect(rows.size).toBe(0);
  });
});
