import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../helpers/spec/openapi.js';

/** `conformance openapi [--out FILE]`: the interface as OpenAPI 3.1 JSON, on stdout or into FILE. */
export function openApiCommand(version: string, out?: string): number {
  const text = `${JSON.stringify(openApiDocument({ suiteVersion: version }), null, 2)}\n`;
  if (out === undefined) {
    process.stdout.write(text);
    return 0;
  }
  writeFileSync(out, text);
  console.log(`wrote the OpenAPI 3.1 description of the interface to ${out}`);
  return 0;
}
