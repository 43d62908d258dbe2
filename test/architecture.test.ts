import { describe, expect, it } from 'vitest';
import { cycleProblems, directionProblems, PROJECT_ROOT, projectFiles, readImportGraph, strayHelperFiles, type ImportGraph } from './import-graph.js';

describe('architecture: dependencies run one way, from the specification to the commands', () => {
  const unresolved: string[] = [];
  const graph = readImportGraph(PROJECT_ROOT, unresolved);

  it('reads the whole project, type-only and dynamic imports included', () => {
    expect(graph.get('helpers/check/check.ts')).toContain('helpers/spec/catalogue.ts');
    expect(graph.get('helpers/arrange/balances.ts')).toContain('helpers/check/check.ts');
    expect(graph.get('cli/run.ts')).toContain('reference/load.ts');
    expect(graph.size).toBeGreaterThan(100);
  });

  it('resolves every relative import to a file of the project', () => {
    expect(unresolved).toEqual([]);
  });

  it('keeps every file of helpers/, of any kind, in one of its rooms', () => {
    expect(strayHelperFiles(projectFiles(PROJECT_ROOT))).toEqual([]);
  });

  it('has no import against the direction of the layers', () => {
    expect(directionProblems(graph)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycleProblems(graph)).toEqual([]);
  });
});

describe('architecture: the rules themselves catch what they forbid', () => {
  const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

  it('names both files and the rule for an import against the direction', () => {
    const problems = directionProblems(graphOf({ 'helpers/net/http.ts': ['helpers/check/check.ts', 'helpers/spec/catalogue.ts'], 'helpers/check/check.ts': [] }));
    expect(problems).toEqual(["helpers/net/http.ts imports helpers/check/check.ts: the road to the target (helpers/net/) may import only helpers/spec/, helpers/net/"]);
  });

  it('lets the reference import only the specification model', () => {
    const problems = directionProblems(graphOf({ 'reference/load.ts': ['helpers/net/config.ts', 'helpers/spec/catalogue.ts', 'reference/packages.ts'] }));
    expect(problems).toEqual(['reference/load.ts imports helpers/net/config.ts: the reference server (reference/) may import only reference/, helpers/spec/']);
  });

  it('refuses a helper outside the rooms, loose or in another folder, and a helper importing a command', () => {
    const problems = directionProblems(graphOf({ 'helpers/loose.ts': [], 'helpers/misc/x.ts': ['helpers/net/http.ts'], 'helpers/spec/catalogue.ts': ['reporting/model.ts'] }));
    expect(problems).toEqual([
      expect.stringMatching(/^helpers\/loose\.ts lies in helpers\/ outside its rooms/),
      expect.stringMatching(/^helpers\/misc\/x\.ts lies in helpers\/ outside its rooms/),
      "helpers/spec/catalogue.ts imports reporting/model.ts: the specification's model (helpers/spec/) may import only helpers/spec/",
    ]);
    expect(strayHelperFiles(['helpers/data.json', 'helpers/spec/catalogue.ts'])).toEqual([expect.stringMatching(/^helpers\/data\.json lies in helpers\//)]);
  });

  it('keeps the validating proxy and the reports below the commands: neither imports cli/, the reports never the proxy', () => {
    const problems = directionProblems(
      graphOf({
        'proxy/ledger.ts': ['cli/run.ts', 'reporting/build.ts', 'helpers/spec/version.ts', 'proxy/judge.ts'],
        'reporting/build.ts': ['cli/exit-code.ts', 'proxy/judge.ts', 'helpers/spec/rules.ts'],
      }),
    );
    expect(problems).toEqual([
      'proxy/ledger.ts imports cli/run.ts: the validating proxy (proxy/) may import only proxy/, helpers/, reporting/',
      'reporting/build.ts imports cli/exit-code.ts: the reports (reporting/) may import only reporting/, helpers/',
      'reporting/build.ts imports proxy/judge.ts: the reports (reporting/) may import only reporting/, helpers/',
    ]);
  });

  it('finds a cycle, type-only or not, and names the import that closes it', () => {
    const problems = cycleProblems(graphOf({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'], 'd.ts': ['a.ts'] }));
    expect(problems).toEqual(['c.ts imports a.ts, which closes an import cycle (no cycle anywhere, type-only imports included): a.ts -> b.ts -> c.ts -> a.ts']);
  });
});
