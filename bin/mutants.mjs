#!/usr/bin/env node
import { register } from 'tsx/esm/api';
import { REFERENCE_PACKAGES } from '../reference/packages.mjs';

// As bin/conformance.mjs: vitest and the reference's packages loaded by Node itself, not through
// tsx's loader (less memory and CPU in every shard). Only a shard (`--shard`, spawned by the
// runner after it validated the arguments) runs the suite; the runner itself never loads them,
// so a bad argument or --help answers at once.
if (process.argv.slice(2).some((arg) => arg === '--shard' || arg.startsWith('--shard='))) {
  await import('vitest/node');
  await Promise.all(REFERENCE_PACKAGES.map((name) => import(name)));
}
register();
await import('../mutation/main.ts');
