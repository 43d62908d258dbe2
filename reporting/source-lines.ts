import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';

/**
 * The suites run compiled (dist/suites/x.test.js), while reports, JUnit and annotations name the
 * TypeScript a reader opens (suites/x.test.ts, shipped with the package). A compiled module's source
 * map, written next to it by the build, takes its lines back to the source. A module without a map is
 * its own source.
 */
interface Compiled {
  source: string;
  map: SourceMap;
}

const compiledModules = new Map<string, Compiled | undefined>();

function compiledModule(moduleId: string): Compiled | undefined {
  if (!compiledModules.has(moduleId)) {
    let compiled: Compiled | undefined;
    try {
      const payload = JSON.parse(readFileSync(`${moduleId}.map`, 'utf8')) as { sources: string[]; sourceRoot?: string };
      // One source per compiled suite file (tsc compiles file by file).
      if (payload.sources.length === 1) compiled = { source: resolve(dirname(moduleId), payload.sourceRoot ?? '', payload.sources[0]!), map: new SourceMap(payload as never) };
    } catch {
      compiled = undefined;
    }
    compiledModules.set(moduleId, compiled);
  }
  return compiledModules.get(moduleId);
}

/** The TypeScript file a test module was compiled from (absolute), or the module itself. */
export function sourceFileOf(moduleId: string): string {
  return compiledModule(moduleId)?.source ?? moduleId;
}

/** The source line (1-based) of a position (1-based line and column) in a test module, or its own line when there is no map. */
export function sourceLineOf(moduleId: string, line: number, column: number): number {
  const compiled = compiledModule(moduleId);
  if (!compiled) return line;
  const entry = compiled.map.findEntry(line - 1, Math.max(0, column - 1)) as { originalLine?: number };
  return entry.originalLine === undefined ? line : entry.originalLine + 1;
}
