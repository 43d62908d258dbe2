import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's folder (the one holding its package.json, schemas/ and docs/), found from this module
 * whether it runs compiled from dist/ (as the CLI does) or as TypeScript (as the self-tests do).
 */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot();

/** Where the build (`npm run build`) writes the compiled JavaScript: the suites, the CLI and the vitest configurations that run. */
export const COMPILED_ROOT = join(PACKAGE_ROOT, 'dist');
