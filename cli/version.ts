import { readFileSync } from 'node:fs';

/** The suite's version, from its package.json (light: `conformance --version` loads nothing else). */
export function suiteVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
