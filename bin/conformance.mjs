#!/usr/bin/env node
// The CLI as compiled by `npm run build` (dist/, built by `prepare` after `npm ci` and before `npm pack`).
import { importBuilt } from './dist.mjs';

const command = process.argv[2];
if (process.argv.length === 3 && (command === '--version' || command === '-v' || command === 'version')) {
  // Answered before the CLI loads what its other commands need (zod, undici, jose: about 0.3 s).
  const { suiteVersion } = await importBuilt('../dist/helpers/spec/version.js');
  console.log(suiteVersion());
} else {
  await import('./heap.mjs');
  await importBuilt('../dist/cli/main.js');
}
