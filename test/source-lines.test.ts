import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFileOf, sourceLineOf } from '../reporting/source-lines.js';
import { tempDir } from './support.js';

// A suite file as tsc compiles it: type-only lines vanish, so the compiled lines differ from the source's.
const SOURCE = [
  "import type { Row } from './rows.js';", //                     1
  '', //                                                          2
  'interface Local {', //                                         3
  '  description: string;', //                                    4
  '}', //                                                         5
  '', //                                                          6
  "const rows: Local[] = [{ description: 'a row' }];", //          7
  'for (const row of rows) check(row.description);', //           8
  "check('a test of its own');", //                               9
].join('\n');

function compiled(): { moduleId: string; js: string[]; source: string } {
  const root = tempDir('source-lines-');
  mkdirSync(join(root, 'dist', 'suites'), { recursive: true });
  mkdirSync(join(root, 'suites'));
  const source = join(root, 'suites', 'x.test.ts');
  writeFileSync(source, SOURCE);
  const out = ts.transpileModule(SOURCE, { fileName: source, compilerOptions: { sourceMap: true, module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true } });
  const moduleId = join(root, 'dist', 'suites', 'x.test.js');
  const map = JSON.parse(out.sourceMapText!);
  map.sources = ['../../suites/x.test.ts'];
  writeFileSync(moduleId, out.outputText);
  writeFileSync(`${moduleId}.map`, JSON.stringify(map));
  return { moduleId, js: out.outputText.split('\n'), source };
}

describe('test locations in compiled suites, taken back to their TypeScript (JUnit, annotations)', () => {
  it('maps a compiled file to its source and a compiled position to the source line', () => {
    const { moduleId, js, source } = compiled();
    expect(sourceFileOf(moduleId)).toBe(source);
    const loopLine = js.findIndex((line) => line.startsWith('for (const row of rows)')) + 1;
    const ownLine = js.findIndex((line) => line.startsWith("check('a test of its own')")) + 1;
    expect(loopLine).toBeGreaterThan(0);
    expect(loopLine).not.toBe(8);
    expect(sourceLineOf(moduleId, loopLine, js[loopLine - 1]!.indexOf('check(') + 1)).toBe(8);
    expect(sourceLineOf(moduleId, ownLine, 1)).toBe(9);
  });

  it('leaves a module without a source map as it is', () => {
    const moduleId = join(tempDir('source-lines-'), 'plain.test.js');
    writeFileSync(moduleId, "check('x');\n");
    expect(sourceFileOf(moduleId)).toBe(moduleId);
    expect(sourceLineOf(moduleId, 1, 1)).toBe(1);
  });
});
