// The second half of `npm run build`: tsc writes dist/ but never deletes from it, so a suite renamed or
// removed in the TypeScript (a branch switched, a file moved) would still run from its old compiled
// file (`conformance run` takes every dist/suites/*.test.js) and be packed. This removes every compiled
// file of dist/ whose TypeScript source is gone.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

function* compiledFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* compiledFiles(path);
    else if (/\.js(\.map)?$/.test(entry.name)) yield path;
  }
}

if (existsSync(dist)) {
  for (const file of compiledFiles(dist)) {
    const source = join(root, relative(dist, file).replace(/\.js(\.map)?$/, '.ts'));
    if (!existsSync(source)) {
      rmSync(file);
      console.log(`removed ${relative(root, file)} (no ${relative(root, source)})`);
    }
  }
}
