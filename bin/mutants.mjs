#!/usr/bin/env node
// The mutation runner as compiled by `npm run build` (a development tool: not in the package).
await import('../dist/mutation/main.js');
