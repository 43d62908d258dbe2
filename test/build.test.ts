import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './support.js';

/** A small project built by the package's own build script (tools/build.mjs), as `npm run build` runs it. */
function project(): { dir: string; build: () => void } {
  const dir = tempDir('build-');
  mkdirSync(join(dir, 'tools'));
  mkdirSync(join(dir, 'src'));
  copyFileSync(join(ROOT, 'tools', 'build.mjs'), join(dir, 'tools', 'build.mjs'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'tsconfig.build.json'), '{\n  // as the package\'s: a comment first\n  "compilerOptions": { "outDir": "dist", "rootDir": ".", "incremental": true, "tsBuildInfoFile": "dist/.tsbuildinfo", "sourceMap": true, "module": "NodeNext", "types": [] },\n  "include": ["src", "top.ts"]\n}\n');
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a: number = 1;\n');
  writeFileSync(join(dir, 'top.ts'), 'export const top: number = 1;\n');
  const build = () => {
    const result = spawnSync(process.execPath, ['tools/build.mjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  };
  return { dir, build };
}

describe('the build (npm run build: tools/build.mjs)', () => {
  it('writes again a compiled file deleted from dist/ (incremental tsc alone leaves it missing) and removes those of a source that is gone (tsc never deletes)', () => {
    const { dir, build } = project();
    writeFileSync(join(dir, 'src', 'old.test.ts'), 'export const old: number = 1;\n');
    build();
    for (const file of ['src/a.js', 'top.js', 'src/old.test.js', 'src/old.test.js.map']) expect(existsSync(join(dir, 'dist', file)), file).toBe(true);
    rmSync(join(dir, 'dist', 'src', 'a.js'));
    rmSync(join(dir, 'dist', 'top.js'));
    rmSync(join(dir, 'src', 'old.test.ts'));
    build();
    for (const file of ['src/a.js', 'top.js']) expect(existsSync(join(dir, 'dist', file)), file).toBe(true);
    for (const file of ['src/old.test.js', 'src/old.test.js.map']) expect(existsSync(join(dir, 'dist', file)), file).toBe(false);
  });
});
