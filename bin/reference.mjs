#!/usr/bin/env node
await import('../dist/reference/main.js');
