import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { PACKAGE_ROOT } from '../helpers/spec/package-root.js';

/**
 * `npm run bench:self-tests`: the wall time of the whole `npm test` (unit tests, the suite against the
 * reference, every mutant), against the budget of 5 minutes on this project's 2-core machines.
 */
const BUDGET_SECONDS = 300;
const root = PACKAGE_ROOT;
const vitest = resolve(root, 'node_modules', 'vitest', 'vitest.mjs');

const started = performance.now();
const code = await new Promise<number>((done) => {
  const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.self.config.ts'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (exit) => done(exit ?? 1));
});
const seconds = (performance.now() - started) / 1000;
console.log(`npm test: ${seconds.toFixed(1)} s wall time (budget ${BUDGET_SECONDS} s), ${code === 0 ? 'passed' : `failed with exit ${code}`}`);
process.exitCode = code !== 0 || seconds > BUDGET_SECONDS ? 1 : 0;
