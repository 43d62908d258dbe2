#!/usr/bin/env node
// The CLI as compiled by `npm run build` (dist/, built by `prepare` after `npm ci` and before `npm pack`).
const command = process.argv[2];
if (command === 'run' || command === 'explore') {
  // Ctrl-C while the CLI loads (a second or two): one line and exit 130, as at any later moment; the run's own handler takes over (cli/interrupt.ts).
  const early = (signal) => {
    process.stderr.write(`interrupted by ${signal === 'SIGINT' ? 'SIGINT (Ctrl-C)' : signal} before any test ran; nothing was created, no report written\n`);
    process.exit(130);
  };
  process.on('SIGINT', early).on('SIGTERM', early);
}
const { importBuilt } = await import('./dist.mjs');
if (process.argv.length === 3 && (command === '--version' || command === '-v' || command === 'version')) {
  // Answered before the CLI loads what its other commands need (zod, undici, jose: about 0.3 s).
  const { suiteVersion } = await importBuilt('../dist/helpers/spec/version.js');
  console.log(suiteVersion());
} else {
  await import('./heap.mjs');
  await importBuilt('../dist/cli/main.js');
}
