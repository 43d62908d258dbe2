import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The project's import graph and the direction its dependencies must run in (CONTRIBUTING.md, "One direction").
 * Files are project-relative POSIX paths; every import is read, type-only and dynamic ones included.
 */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
/** Skipped wherever they are. */
const NEVER_READ = new Set(['node_modules', '.git']);
/** Skipped at the top only: the run's output and a build's output. */
const TOP_OUTPUT = new Set(['reports', 'dist']);

/** Every source file of the project under `root`, with the project files each one imports; `unresolved` gets each relative import that names no file. */
export function readImportGraph(root: string, unresolved: string[] = []): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of projectFiles(root).filter((name) => SOURCE.test(name))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets: string[] = [];
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(root, file, fileName);
      if (target) targets.push(target);
      else unresolved.push(`${file} imports ${fileName}, which names no file of the project`);
    }
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every file of the project under `root` (any kind), as POSIX paths relative to it. */
export function projectFiles(root: string, dir = root): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    if (NEVER_READ.has(name) || (dir === root && TOP_OUTPUT.has(name))) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...projectFiles(root, path));
    else files.push(relative(root, path).split(sep).join('/'));
  }
  return files;
}

/** The project file an import names: `./x.js` is `./x.ts` in source, and `./x.mjs` may be `./x.mts`. */
function resolveImport(root: string, from: string, specifier: string): string | undefined {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), target.replace(/\.cjs$/, '.cts')];
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
  // The validating proxy is a feature of its own, below the commands: cli/proxy.ts is its thin command.
  { name: 'the validating proxy (proxy/)', holds: (file: string) => file.startsWith('proxy/'), mayImport: ['proxy', 'helpers', 'reporting'] },
  // The reports are built from records and the specification's model, never from a command.
  { name: 'the reports (reporting/)', holds: (file: string) => file.startsWith('reporting/'), mayImport: ['reporting', 'helpers'] },
];

function roomOf(file: string): Room | undefined {
  return ROOMS.find((room) => room.holds(file));
}

/** Each file of helpers/ that is in none of its rooms (loose, or in a folder that is not a room), of any kind. */
export function strayHelperFiles(files: readonly string[]): string[] {
  return files
    .filter((file) => file.startsWith('helpers/') && !roomOf(file))
    .map((file) => `${file} lies in helpers/ outside its rooms: every helper belongs to one of ${HELPER_LAYERS.map(([folder]) => `${folder}/`).join(', ')}`);
}

/** Each import against the direction, as one line naming the two files and the rule. */
export function directionProblems(graph: ImportGraph): string[] {
  const problems: string[] = strayHelperFiles([...graph.keys()]);
  for (const [file, targets] of graph) {
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

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
