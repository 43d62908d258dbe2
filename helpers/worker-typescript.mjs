// The first setup file of every test worker (vitest.suite.config.ts): the suite's TypeScript is
// loaded by Node itself through tsx's loader, registered here because a worker thread does not
// inherit the loader of the process that started it. Plain JavaScript, as nothing loads it for us.
import { register } from 'tsx/esm/api';

register();
