// The first setup file of every test worker (vitest.suite.config.ts): the suite's TypeScript is
// loaded by Node itself through tsx's loader, registered here because a worker thread does not
// inherit the loader of the process that started it. Plain JavaScript, as nothing loads it for us.
// Vitest imports a setup file again for every test file: the loader is registered once per worker.
import { register } from 'tsx/esm/api';

const REGISTERED = Symbol.for('account-api-conformance.tsx-registered');
if (!globalThis[REGISTERED]) {
  register();
  globalThis[REGISTERED] = true;
}
