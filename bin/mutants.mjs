#!/usr/bin/env node
import { register } from 'tsx/esm/api';

// As bin/conformance.mjs: vitest and the reference's packages loaded by Node itself, not through
// tsx's loader (less memory and CPU in every shard).
if (!process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
  await import('vitest/node');
  await Promise.all(['fastify', '@fastify/multipart', 'better-sqlite3'].map((name) => import(name)));
}
register();
await import('../mutation/main.ts');
