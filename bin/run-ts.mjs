#!/usr/bin/env node
// Runs a TypeScript entry point of this checkout with tsx's loader (no build step needed).
import './heap.mjs';
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

// As bin/conformance.mjs: vitest loaded by Node itself, not through tsx's loader (about 200 MB less).
await import('vitest/node');
register();
const [entry, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], entry, ...rest];
await import(pathToFileURL(resolve(entry)).href);
