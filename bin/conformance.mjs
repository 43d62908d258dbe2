#!/usr/bin/env node
import './heap.mjs';
import { register } from 'tsx/esm/api';
import { REFERENCE_PACKAGES } from '../reference/packages.mjs';

// Packages loaded before tsx's loader is registered are loaded by Node itself: through the loader
// (a hooks thread that sees every module's source) vitest alone costs about 200 MB more memory.
// Only `run`, `explore` and `list` need them; the reference's packages only when it runs embedded (no --target).
if (process.argv[2] === 'run' || process.argv[2] === 'explore' || process.argv[2] === 'list') {
  await import('vitest/node');
  if (process.argv[2] !== 'list' && !process.argv.some((arg) => arg === '--target' || arg.startsWith('--target=')) && !process.env.BASE_URL) {
    // Optional: when absent, the run explains what to install (reference/load.ts).
    await Promise.all(REFERENCE_PACKAGES.map((name) => import(name).catch(() => undefined)));
  }
}
register();
await import('../cli/main.ts');
