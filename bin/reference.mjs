#!/usr/bin/env node
import { importBuilt } from './dist.mjs';

await importBuilt('../dist/reference/main.js');
