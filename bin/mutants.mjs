#!/usr/bin/env node
// The mutation runner as compiled by `npm run build` (a development tool: not in the package).
import { importBuilt } from './dist.mjs';

await importBuilt('../dist/mutation/main.js');
