/**
 * The lines of data-driven table rows. Vitest locates a test where its `check(` is called; the tests
 * of a table are declared in a loop, so every row would point at the loop's line. A row is found
 * instead by its description: the string literal of the suite file that the test's name ends with
 * (a template literal's `${...}` matching any text), a row's `description:` before any other text,
 * the longest, and of the same text in two tables the one nearest above the loop. Done once per
 * file, and only for tests that share a line; a row not found keeps the loop's line.
 */

/** Fixed text a literal needs before it may name a row: shorter ones ("pending") match by chance. */
const MIN_FIXED = 10;

const LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

interface Literal {
  line: number;
  /** Matches a test name that ends with the literal, starting at a word. */
  pattern: RegExp;
  fixed: number;
  /** The value of a row's `description:` (the house style of a table row): preferred to any other text. */
  described: boolean;
}

function unescape(text: string): string {
  return text.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, code: string) => {
    if (code.startsWith('u{')) return String.fromCodePoint(parseInt(code.slice(2, -1), 16));
    if (code.length > 1) return String.fromCharCode(parseInt(code.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[code] ?? code;
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function literals(source: string, skip: ReadonlySet<number>): Literal[] {
  const found: Literal[] = [];
  source.split('\n').forEach((text, index) => {
    const line = index + 1;
    if (skip.has(line)) return;
    for (const { 0: quoted, index: at } of text.matchAll(LITERAL)) {
      const body = quoted.slice(1, -1);
      const parts = (quoted.startsWith('`') ? body.split(/\$\{[^}]*\}/) : [body]).map(unescape);
      const fixed = parts.reduce((sum, part) => sum + part.length, 0);
      if (fixed < MIN_FIXED) continue;
      found.push({ line, fixed, described: /\bdescription:\s*$/.test(text.slice(0, at)), pattern: new RegExp(`(?:^|\\s)${parts.map(escapeRegExp).join('.+?')}$`, 's') });
    }
  });
  return found;
}

/**
 * For the tests of one file (name and vitest's line), the line of each table row found: name -> line.
 * Tests that do not share their line with another are never moved.
 */
export function rowLines(source: string, tests: readonly { name: string; line: number }[]): Map<string, number> {
  const perLine = new Map<number, number>();
  for (const test of tests) perLine.set(test.line, (perLine.get(test.line) ?? 0) + 1);
  const rows = new Map<string, number>();
  const looped = tests.filter((test) => perLine.get(test.line)! > 1);
  if (looped.length === 0) return rows;
  // A literal on a line that declares a test is that test's own name, never a row.
  const candidates = literals(source, new Set(perLine.keys()));
  for (const test of looped) {
    let matching = candidates.filter((literal) => literal.pattern.test(test.name));
    // A title template near the loop (`answers 422 with ${...} ${row.description}`) matches too: a row's description wins.
    if (matching.some((literal) => literal.described)) matching = matching.filter((literal) => literal.described);
    const best = Math.max(...matching.map((literal) => literal.fixed));
    const lines = [...new Set(matching.filter((literal) => literal.fixed === best).map((literal) => literal.line))];
    // The same description in two tables (forgot- and reset-password): the one nearest above the loop.
    const above = lines.filter((line) => line < test.line);
    const line = lines.length === 1 ? lines[0] : above.length > 0 ? Math.max(...above) : undefined;
    if (line !== undefined) rows.set(test.name, line);
  }
  return rows;
}
