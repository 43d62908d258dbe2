import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The project's import graph and the direction its dependencies must run in (README, "Layout").
 * Files are project-relative POSIX paths; every import is read, type-only and dynamic ones included.
 */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(?:ts|mts|mjs|js)$/;
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'reports', 'dist']);

/** Every source file of the project under `root`, with the project files each one imports. */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root, root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = importedFiles.map((imported) => imported.fileName).filter((name) => name.startsWith('.')).map((name) => resolveImport(root, file, name));
    graph.set(file, [...new Set(targets.filter((target): target is string => target !== undefined))]);
  }
  return graph;
}

function sourceFiles(root: string, dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRECTORIES.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(root, path));
    else if (SOURCE.test(name)) files.push(relative(root, path).split(sep).join('/'));
  }
  return files;
}

/** The project file an import names: `./x.js` is `./x.ts` in source, `./x.mjs` may be declared by `./x.d.mts`. */
function resolveImport(root: string, from: string, specifier: string): string | undefined {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts')];
  return candidates.find((candidate) => SOURCE.test(candidate) && existsSync(join(root, candidate)));
}

/** A room of the house and what it may import, lowest first. */
interface Room {
  name: string;
  holds: (file: string) => boolean;
  mayImport: readonly string[];
}

const HELPER_LAYERS = [
  ['helpers/spec', "the specification's model"],
  ['helpers/net', 'the road to the target'],
  ['helpers/states', 'provider states'],
  ['helpers/check', 'the check framework'],
  ['helpers/arrange', 'the arrangements'],
] as const;

/** The rooms: each helpers layer may import itself and the layers below it; the reference only the model. */
export const ROOMS: readonly Room[] = [
  ...HELPER_LAYERS.map(([folder, name], rank) => ({
    name: `${name} (${folder}/)`,
    holds: (file: string) => file.startsWith(`${folder}/`),
    mayImport: HELPER_LAYERS.slice(0, rank + 1).map(([below]) => below),
  })),
  { name: 'the reference server (reference/)', holds: (file: string) => file.startsWith('reference/'), mayImport: ['reference', 'helpers/spec'] },
];

function roomOf(file: string): Room | undefined {
  return ROOMS.find((room) => room.holds(file));
}

/** Each import against the direction, as one line naming the two files and the rule. */
export function directionProblems(graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    if (/^helpers\/[^/]+$/.test(file)) problems.push(`${file} lies loose in helpers/: every helper belongs to one of its rooms (${HELPER_LAYERS.map(([folder]) => `${folder}/`).join(', ')})`);
    const room = roomOf(file);
    if (!room) continue;
    for (const target of targets) {
      if (room.mayImport.some((folder) => target.startsWith(`${folder}/`))) continue;
      problems.push(`${file} imports ${target}: ${room.name} may import only ${room.mayImport.map((folder) => `${folder}/`).join(', ')}`);
    }
  }
  return problems;
}

/** Each import cycle once, as the files in import order, the first repeated at the end. */
export function importCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/** One line per cycle: the import that closes it (two files) and the whole circle. */
export function cycleProblems(graph: ImportGraph): string[] {
  return importCycles(graph).map((cycle) => {
    const [from, to] = cycle.slice(-2);
    return `${from} imports ${to}, which closes an import cycle (no cycle anywhere, type-only imports included): ${cycle.join(' -> ')}`;
  });
}

export const PROJECT_ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
