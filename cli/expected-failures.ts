import { relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../helpers/net/config.js';
import { MAX_CONFIG_FILE_BYTES, readBounded, TooLargeError } from '../helpers/spec/bounded.js';
import { tooDeep } from '../helpers/spec/quote.js';
import { parseExpectations, unknownNames, type Expectation, type KnownTest } from '../reporting/expectations.js';

/** The expectations file as read: its path as the reports show it, and its entries. */
export interface LoadedExpectations {
  file: string;
  entries: Expectation[];
}

/** The path as the terminal and reports show it: relative to the working directory when inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

/**
 * Reads --expected-failures FILE (EXPECTED_FAILURES): JSON, or YAML for any other content. Every problem
 * of shape (an entry naming nothing, no reason, a date that is none) stops the run here with exit 2.
 */
export function readExpectations(path: string): LoadedExpectations {
  const file = shown(resolve(path));
  const problem = (what: string) => new ConfigError(`configuration error: EXPECTED_FAILURES (--expected-failures) ${file}: ${what}`);
  let text: string;
  try {
    // A byte stream from outside has a limit (issue 29): a list of expected failures is a few kilobytes.
    text = readBounded(path, MAX_CONFIG_FILE_BYTES, 'expected-failures file').toString('utf8');
  } catch (error) {
    if (error instanceof TooLargeError) throw problem(error.message);
    throw problem(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // Flow brackets (JSON, or YAML's [ ] and { }) nested deeper than the suite walks are refused in plain words.
  const deep = tooDeep(text, 'the file');
  if (deep) throw problem(deep);
  let document: unknown;
  try {
    document = /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw problem(`is neither JSON nor YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const { entries, problems } = parseExpectations(document);
  if (problems.length > 0) throw problem(problems.join('; '));
  return { file, entries };
}

/** Names no test or rule of the suite has stop the run (exit 2), each with the nearest names it has. */
export function checkNames(loaded: LoadedExpectations, tests: readonly KnownTest[]): void {
  const problems = unknownNames(loaded.entries, tests);
  if (problems.length > 0) throw new ConfigError(`configuration error: EXPECTED_FAILURES (--expected-failures) ${loaded.file}: ${problems.join('; ')}`);
}

/** Checks the names against the suite's manifest (collected without a request, a few seconds; run alongside the preflight). */
export async function checkNamesAgainstSuite(loaded: LoadedExpectations): Promise<void> {
  if (!loaded.entries.some((entry) => entry.test !== undefined)) return checkNames(loaded, []);
  const { manifest } = await import('./list.js');
  checkNames(loaded, await manifest({ bruteForce: true }));
}
