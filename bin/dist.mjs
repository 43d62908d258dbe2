import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Imports a module of the build (dist/), named relative to bin/ ('../dist/cli/main.js'). A checkout
 * that was never built (`npm ci --ignore-scripts`, a fresh worktree), or a package installed from a
 * git URL with --ignore-scripts (which skips the `prepare` that builds it), gets one clear line and
 * exit 2, not Node's stack trace of a missing module.
 */
export async function importBuilt(specifier) {
  const url = new URL(specifier, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const fix = existsSync(new URL('../tsconfig.build.json', import.meta.url))
      ? `run \`npm run build\` in ${root} (\`npm ci\` runs it, unless --ignore-scripts)`
      : 'install the package from its tarball, or from a git URL without --ignore-scripts (its `prepare` script builds dist/)';
    console.error(`conformance: ${fileURLToPath(url)} is missing: the TypeScript is not compiled here; ${fix}`);
    process.exit(2);
  }
  return import(url.href);
}
