// Loaded with `node --import` by test/package.test.ts: better-sqlite3 resolves as if it were not installed.
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(`export async function resolve(specifier, context, next) {
  if (specifier === 'better-sqlite3') { const error = new Error("Cannot find package 'better-sqlite3' imported from x"); error.code = 'ERR_MODULE_NOT_FOUND'; throw error; }
  return next(specifier, context);
}`));
