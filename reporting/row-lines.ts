/**
 * The lines of data-driven table rows. Vitest locates a test where its `check(` is called; the tests
 * of a table are declared in a loop, so every row would point at the loop's line. A row is found
 * instead by its `description:`, the string literal the test's name ends with (a template literal's
 * `${...}` matching any text), among the rows of the table the loop reads. Done once per file, and
 * only for tests that share a line; a row not found beyond doubt keeps the loop's line (see rowLines),
 * as does a loop that destructures its row (`for (const { description } of rows)`).
 */

/** Fixed text a literal needs before it may name a row: shorter ones ("pending") match by chance. */
const MIN_FIXED = 10;

const LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

/** The value of a row's `description:` (the house style of a table row): the only text that names a row. */
interface Description {
  line: number;
  /** Matches a test name that ends with the literal, starting at a word. */
  pattern: RegExp;
}

/** The text of a literal's body, its escapes resolved. */
export function unescapeLiteral(text: string): string {
  return text.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, code: string) => {
    if (code.startsWith('u{')) return String.fromCodePoint(parseInt(code.slice(2, -1), 16));
    if (code.length > 1) return String.fromCharCode(parseInt(code.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[code] ?? code;
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function descriptions(lines: readonly string[], skip: ReadonlySet<number>): Description[] {
  const found: Description[] = [];
  lines.forEach((text, index) => {
    const line = index + 1;
    if (skip.has(line)) return;
    for (const { 0: quoted, index: at } of text.matchAll(LITERAL)) {
      if (!/\bdescription:\s*$/.test(text.slice(0, at))) continue;
      const body = quoted.slice(1, -1);
      const parts = (quoted.startsWith('`') ? body.split(/\$\{[^}]*\}/) : [body]).map(unescapeLiteral);
      if (parts.reduce((sum, part) => sum + part.length, 0) < MIN_FIXED) continue;
      found.push({ line, pattern: new RegExp(`(?:^|\\s)${parts.map(escapeRegExp).join('.+?')}$`, 's') });
    }
  });
  return found;
}

/**
 * The lines (first, last) of the array literal a `const NAME = [` declares, the nearest declaration
 * above the loop at `loopLine` whose table ends before it (two blocks may each declare a `rows`).
 */
function tableExtent(lines: readonly string[], name: string, loopLine: number): [number, number] | undefined {
  // Lazy up to the `= [`: a type annotation may hold `=>` and `Row[]`.
  const declaration = new RegExp(`(\\bconst ${name}\\b.*?=\\s*)\\[`);
  for (let first = loopLine - 1; first >= 1; first--) {
    const found = declaration.exec(lines[first - 1]!);
    if (!found) continue;
    const last = closingLine(lines, first, found.index + found[1]!.length);
    return last !== undefined && last < loopLine ? [first, last] : undefined;
  }
  return undefined;
}

/** The line of the `]` that closes the `[` at column `at` of line `first`. */
function closingLine(lines: readonly string[], first: number, at: number): number | undefined {
  let depth = 0;
  for (let line = first; line <= lines.length; line++) {
    const text = line === first ? lines[line - 1]!.slice(at) : lines[line - 1]!;
    for (const char of text.replace(LITERAL, "''").replace(/\/\/.*$/, '')) {
      if (char === '[') depth++;
      else if (char === ']' && --depth === 0) return line;
    }
  }
  return undefined;
}

/** Whether the code from `from` to `to` (lines) leaves a block open: `to` is inside the block `from` opens. */
function insideBlock(lines: readonly string[], from: number, to: number): boolean {
  let depth = 0;
  for (let line = from; line < to; line++) {
    for (const char of lines[line - 1]!.replace(LITERAL, "''").replace(/\/\/.*$/, '')) {
      if (char === '{') depth++;
      else if (char === '}') depth--;
    }
    if (depth <= 0 && line > from) return false;
  }
  return depth > 0;
}

/** The tables the loop around a test reads: `for (const row of NAME)` or `of [...A, ...B]`, on the test's line or a loop block enclosing it. */
function loopTables(lines: readonly string[], testLine: number): [number, number][] {
  const LOOP = /\bfor \(const \w+ of (.+?)\)(?:\s*\{\s*$| \w)/;
  for (let line = testLine; line >= Math.max(1, testLine - 80); line--) {
    const loop = LOOP.exec(lines[line - 1]!);
    if (!loop) continue;
    if (line !== testLine && !insideBlock(lines, line, testLine)) continue;
    const expression = loop[1]!.trim();
    const names = expression.startsWith('[') ? [...expression.matchAll(/\.\.\.(\w+)/g)].map((match) => match[1]!) : [/^\w+/.exec(expression)?.[0]].filter((name): name is string => Boolean(name));
    return names.map((name) => tableExtent(lines, name, line)).filter((extent): extent is [number, number] => extent !== undefined);
  }
  return [];
}

/**
 * For the tests of one file (name and vitest's line), the line of each table row found: name -> line.
 * Tests that do not share their line with another are never moved. Where there is any doubt the
 * test keeps the loop's line, which is always the code that ran: only a row's `description:` names a
 * row, only a row of the table(s) the loop reads (`for (const row of TABLE)`, TABLE an array literal
 * of the file), only one description may match, and a row claimed by two tests is given to neither.
 */
export function rowLines(source: string, tests: readonly { name: string; line: number }[]): Map<string, number> {
  const perLine = new Map<number, number>();
  for (const test of tests) perLine.set(test.line, (perLine.get(test.line) ?? 0) + 1);
  const rows = new Map<string, number>();
  const looped = tests.filter((test) => perLine.get(test.line)! > 1);
  if (looped.length === 0) return rows;
  const lines = source.split('\n');
  // A literal on a line that declares a test is that test's own name, never a row.
  const described = descriptions(lines, new Set(perLine.keys()));
  const claims = new Map<number, number>();
  for (const test of looped) {
    // A file changed since the run started: its lines say nothing about these tests.
    if (test.line > lines.length) continue;
    const tables = loopTables(lines, test.line);
    const matching = described.filter((literal) => tables.some(([first, last]) => literal.line >= first && literal.line <= last) && literal.pattern.test(test.name));
    if (matching.length !== 1) continue;
    const line = matching[0]!.line;
    rows.set(test.name, line);
    claims.set(line, (claims.get(line) ?? 0) + 1);
  }
  for (const [name, line] of rows) if (claims.get(line)! > 1) rows.delete(name);
  return rows;
}
