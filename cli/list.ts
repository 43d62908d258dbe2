import { createVitest } from 'vitest/node';
import { join, relative } from 'node:path';
import { GROUPS } from '../helpers/spec/catalogue.js';
import type { ConformanceMeta } from '../helpers/check/check.js';
import type { TargetInfo } from '../helpers/check/target.js';
import { selects, type Selection } from '../helpers/check/selection.js';
import { COMPILED_ROOT, PACKAGE_ROOT } from '../helpers/spec/package-root.js';
import { atRowLines, toRecord } from '../reporting/collector.js';
import { sourceFileOf } from '../reporting/source-lines.js';
import { SUITE_CONFIG_LOADER } from './run.js';
import { StateNeeds } from './needs.js';

/** One test of the manifest (`conformance list --json`). */
export interface ManifestEntry {
  id: string;
  name: string;
  group: string;
  file: string;
  line: number | null;
  endpoint: string;
  clauses: string[];
  /** The status it expects; a list where the specification allows several; null for a flow. */
  status: number | number[] | null;
  /** The field constraint (catalogue id) a boundary test checks. */
  constraint: string | null;
  /** The specification's atomic rules it checks (helpers/spec/rules.ts ids), its constraint's included. */
  rules: string[];
  /** The rule instances it cites (helpers/spec/instances.ts ids); empty when none. */
  instances: string[];
  /**
   * Set when the test accepts several outcomes (a flow, or several statuses other than 403 or 409) and judges its
   * rules on every one of them: why (CheckMeta.rulesOnEveryBranch); null otherwise.
   */
  rulesOnEveryBranch: string | null;
  /** `'advisory'` for a test that judges no rule and only advises where the specification is silent (rules empty); null otherwise. */
  judges: 'advisory' | null;
  /** The provider states it asks for (read from its source and the helpers it calls). */
  states: string[];
}

/** Collecting never sends a request: the target is never contacted, its address is a placeholder. */
const NO_TARGET: TargetInfo = { baseUrl: 'http://127.0.0.1:9', embedded: false, states: { kind: 'none' }, timeoutMs: 1, maxResponseBytes: 1, maxConcurrency: 1, strict: false };

/** What one collection gave: the modules vitest collected (with their load errors) and the errors around them. */
export interface Collected {
  modules: { moduleId: string; state: string; errors: string[] }[];
  unhandled: string[];
}

/** Collections a manifest tries before it gives up: a retry survives a collection a loaded machine broke. */
export const COLLECT_ATTEMPTS = 3;

/**
 * Why a collection is not the whole manifest, one phrase per problem; empty when it is. Every expected
 * suite file must be collected, none with a load error, and nothing may have gone wrong around the
 * collection: a worker that timed out or never started leaves files out without an error of their own,
 * and a manifest that silently lacks a file's tests is worse than none.
 */
export function collectionProblems(collected: Collected, expectedFiles: string[]): string[] {
  const byId = new Map(collected.modules.map((m) => [m.moduleId, m]));
  const problems: string[] = [];
  for (const file of expectedFiles) {
    const module = byId.get(file);
    const shown = relative(PACKAGE_ROOT, sourceFileOf(file));
    if (!module) problems.push(`${shown} was not collected`);
    else if (module.errors.length > 0) problems.push(`${shown}: ${module.errors.join('; ')}`);
    else if (module.state === 'queued') problems.push(`${shown} was queued but never collected`);
  }
  for (const error of collected.unhandled) problems.push(error);
  return problems;
}

/** Collects until a collection is whole, at most `attempts` times; throws the last one's problems, in one line. */
export async function collectWhole<T>(collect: () => Promise<{ collected: Collected; value: T }>, expectedFiles: string[], attempts = COLLECT_ATTEMPTS, warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<T> {
  let problems: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    // Said on stderr (the manifest on stdout stays whole), so a loaded machine's retries can be seen.
    if (attempt > 1) warn(`warning: collecting the suite files again (attempt ${attempt} of ${attempts}): ${problems.join('; ').replace(/\s*\n\s*/g, ' ')}`);
    let result: { collected: Collected; value: T };
    try {
      result = await collect();
    } catch (error) {
      problems = [(error as Error).message ?? String(error)];
      continue;
    }
    problems = collectionProblems(result.collected, expectedFiles);
    if (problems.length === 0) return result.value;
  }
  throw new Error(`the suite files could not be collected (${attempts} attempts): ${problems.join('; ').replace(/\s*\n\s*/g, ' ')}`);
}

const suiteFile = (group: string) => join(COMPILED_ROOT, 'suites', `${group}.test.js`);

/** The suite's tests as data, without running them (the opt-in brute-force test only with `bruteForce`, as in a run): vitest collects the suite files (a few seconds). */
export async function manifest(options: { selection?: Selection; groups?: string[]; bruteForce?: boolean } = {}): Promise<ManifestEntry[]> {
  const groups = options.groups ?? [...GROUPS];
  const entries = await collectWhole(() => collectOnce(groups, options.bruteForce === true), groups.map(suiteFile));
  entries.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
  return entries.filter((entry) => selects(options.selection, entry));
}

/** One collection by a fresh vitest: its entries, and what to judge its wholeness by. */
async function collectOnce(groups: string[], bruteForce: boolean): Promise<{ collected: Collected; value: ManifestEntry[] }> {
  const vitest = await createVitest(
    'test',
    {
      // The compiled suites, as a run collects them; entries name their TypeScript sources.
      root: COMPILED_ROOT,
      config: join(COMPILED_ROOT, 'vitest.suite.config.js'),
      watch: false,
      reporters: [],
      // Collecting is importing: one worker shares the imports of every file (isolate: false) and, on two
      // cores, was faster (about 4.5 s against 6) and 30 MB lighter than two; one thread fewer to starve.
      maxWorkers: 1,
      provide: { target: { ...NO_TARGET, ...(bruteForce ? { bruteForce: true } : {}) }, selection: undefined, listing: true },
      ...SUITE_CONFIG_LOADER,
    },
    {},
    { stdout: process.stdout, stderr: process.stderr },
  );
  try {
    const { testModules, unhandledErrors } = await vitest.collect(groups.map((group) => `suites/${group}.test.js`));
    const collected: Collected = {
      modules: testModules.map((m) => ({ moduleId: m.moduleId, state: m.state(), errors: m.errors().map((e) => e.message ?? String(e)) })),
      unhandled: unhandledErrors.map((error) => (error as { message?: string }).message ?? String(error)),
    };
    const needs = new StateNeeds(PACKAGE_ROOT);
    const entries: ManifestEntry[] = [];
    for (const module of testModules) {
      const cases = [...module.children.allTests()];
      const records = cases.map((testCase) => ({ testCase, record: toRecord(testCase, PACKAGE_ROOT) })).filter((c) => c.record);
      const located = atRowLines(sourceFileOf(module.moduleId), records.map((c) => c.record!));
      records.forEach(({ testCase }, i) => {
        const r = located[i]!;
        const source = (testCase.meta() as { source?: string }).source ?? '';
        entries.push({
          id: r.id,
          name: r.name,
          group: r.group,
          file: r.file,
          line: r.line ?? null,
          endpoint: r.endpoint,
          clauses: r.clauses,
          status: r.status,
          constraint: r.constraint,
          rules: r.rules ?? [],
          instances: r.instances ?? [],
          rulesOnEveryBranch: (testCase.meta() as { conformance?: ConformanceMeta }).conformance?.rulesOnEveryBranch ?? null,
          judges: (testCase.meta() as { conformance?: ConformanceMeta }).conformance?.judges ?? null,
          states: needs.of(source, r.file),
        });
      });
    }
    return { collected, value: entries };
  } finally {
    await vitest.close();
  }
}

function statusText(status: ManifestEntry['status']): string {
  return status === null ? 'flow' : Array.isArray(status) ? status.join('|') : String(status);
}

/** One line per test: id, expected status, clauses, states; then the name. */
export function manifestLines(entries: ManifestEntry[]): string[] {
  const lines = entries.map((e) => `${e.id}  ${statusText(e.status)}  §${e.clauses.join(',')}${e.constraint ? `  [${e.constraint}]` : ''}${e.states.length ? `  states: ${e.states.join(',')}` : ''}\n    ${e.name}`);
  return [...lines, `${entries.length} test(s)`];
}
