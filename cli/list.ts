import { createVitest } from 'vitest/node';
import { join } from 'node:path';
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
  /** The provider states it asks for (read from its source and the helpers it calls). */
  states: string[];
}

/** Collecting never sends a request: the target is never contacted, its address is a placeholder. */
const NO_TARGET: TargetInfo = { baseUrl: 'http://127.0.0.1:9', embedded: false, states: { kind: 'none' }, timeoutMs: 1, maxResponseBytes: 1, maxConcurrency: 1, strict: false };

/** The suite's tests as data, without running them (the opt-in brute-force test only with `bruteForce`, as in a run): vitest collects the suite files (a few seconds). */
export async function manifest(options: { selection?: Selection; groups?: string[]; bruteForce?: boolean } = {}): Promise<ManifestEntry[]> {
  const vitest = await createVitest(
    'test',
    {
      // The compiled suites, as a run collects them; entries name their TypeScript sources.
      root: COMPILED_ROOT,
      config: join(COMPILED_ROOT, 'vitest.suite.config.js'),
      watch: false,
      reporters: [],
      provide: { target: { ...NO_TARGET, ...(options.bruteForce ? { bruteForce: true } : {}) }, selection: undefined, listing: true },
      ...SUITE_CONFIG_LOADER,
    },
    {},
    { stdout: process.stdout, stderr: process.stderr },
  );
  try {
    const { testModules, unhandledErrors } = await vitest.collect(options.groups?.map((group) => `suites/${group}.test.js`) ?? []);
    // A suite file that fails to load leaves its tests out: an error. An error of the machinery around
    // collection (a worker's message timing out on a loaded machine) leaves the tests collected whole.
    const errors = testModules.flatMap((m) => m.errors().map((e) => `${sourceFileOf(m.moduleId)}: ${e.message ?? String(e)}`));
    if (errors.length > 0 || testModules.length === 0) throw new Error(`the suite files could not be collected: ${errors.join('; ') || 'none found'}`);
    for (const error of unhandledErrors) process.stderr.write(`warning: while collecting: ${(error as { message?: string }).message ?? String(error)}\n`);
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
          states: needs.of(source, r.file),
        });
      });
    }
    entries.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
    return entries.filter((entry) => selects(options.selection, entry));
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
