import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Imports a module of the build (dist/), named relative to bin/ ('../dist/cli/main.js'). A checkout that was never built (`npm ci --ignore-scripts`,
 * a fresh worktree) gets one clear line and exit 2, not Node's stack trace of a missing module.
 */
export async function importBuilt(specifier) {
  const url = new URL(specifier, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    console.error(`conformance: ${fileURLToPath(url)} is missing: the TypeScript is not compiled here; run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))} (\`npm ci\` runs it, unless --ignore-scripts)`);
    process.exit(2);
  }
  return import(url.href);
}
