import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPILED_ROOT } from '../helpers/spec/package-root.js';

/**
 * The provider states a test asks for, read from source (`conformance list`): the `.state('name')`
 * calls of its body and of the functions it calls, transitively, among the top-level functions of
 * its suite file and of helpers/arrange/. A reading of the code, not of a run: a state asked for only
 * on some path of a test (a row's parameter) is listed all the same.
 */

const STATE_CALL = /\.state\(\s*['"]([\w.-]+)['"]/g;
/** A line that begins a top-level declaration (or a describe block) in this code base's style. */
const TOP_LEVEL = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?\s+(\w+)|(?:const|let)\s+(\w+)\s*=|class\s+(\w+)|\/\*\*|\w+\.describe\()/;

/** Top-level functions (and constants) of a source file, by name, each with its text. */
export function declarationsOf(source: string): Map<string, string> {
  const out = new Map<string, string>();
  let name: string | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (name) out.set(name, (out.get(name) ?? '') + lines.join('\n'));
  };
  for (const line of source.split('\n')) {
    const match = TOP_LEVEL.exec(line);
    if (match) {
      flush();
      name = match[1] ?? match[2] ?? match[3];
      lines = [];
    }
    lines.push(line);
  }
  flush();
  return out;
}

export class StateNeeds {
  private readonly declarations = new Map<string, Map<string, string>>();
  private readonly helpers: Map<string, string>;

  constructor(private readonly root: string) {
    this.helpers = new Map();
    // A checkout has the TypeScript; an installed package ships helpers/ compiled only (dist/).
    const source = join(root, 'helpers', 'arrange');
    const [dir, extension] = existsSync(source) ? [source, '.ts'] : [join(COMPILED_ROOT, 'helpers', 'arrange'), '.js'];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(extension)).sort()) {
      for (const [name, text] of declarationsOf(readFileSync(join(dir, file), 'utf8'))) this.helpers.set(name, (this.helpers.get(name) ?? '') + text);
    }
  }

  /** The states `source` (a test body) asks for, in the order first found; `file` is its suite file (relative to the root). */
  of(source: string, file: string): string[] {
    let local = this.declarations.get(file);
    if (!local) {
      try {
        local = declarationsOf(readFileSync(join(this.root, file), 'utf8'));
      } catch {
        local = new Map();
      }
      this.declarations.set(file, local);
    }
    const table = new Map([...this.helpers, ...local]);
    const found: string[] = [];
    const seen = new Set<string>();
    const visit = (text: string) => {
      for (const match of text.matchAll(STATE_CALL)) if (!found.includes(match[1]!)) found.push(match[1]!);
      for (const match of text.matchAll(/\b([A-Za-z_$][\w$]*)\s*\(/g)) {
        const name = match[1]!;
        if (seen.has(name) || !table.has(name)) continue;
        seen.add(name);
        visit(table.get(name)!);
      }
    };
    visit(source);
    return found;
  }
}
