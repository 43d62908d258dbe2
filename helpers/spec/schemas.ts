import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { PACKAGE_ROOT } from './package-root.js';

/** The folder of JSON Schema files: the single source of truth for every shape. */
export const SCHEMA_DIR = join(PACKAGE_ROOT, 'schemas');
export const SCHEMA_BASE = 'https://account-api-conformance.local/schemas/';

export interface SchemaProblem {
  /** JSON pointer into the validated document. */
  pointer: string;
  rule: string;
  message: string;
  value: unknown;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** All schema documents in schemas/, keyed by file name without `.json`. */
export function loadSchemaDocuments(dir = SCHEMA_DIR): Map<string, Record<string, unknown>> {
  const documents = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(dir, { recursive: true }) as string[]) {
    if (!file.endsWith('.json')) continue;
    documents.set(file.replace(/\\/g, '/').replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8')));
  }
  return documents;
}

function instance(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const document of loadSchemaDocuments().values()) ajv.addSchema(document);
  return ajv;
}

function validatorFor(name: string): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    const found = instance().getSchema(`${SCHEMA_BASE}${name}.json`);
    if (!found) throw new Error(`no schema named "${name}" in schemas/ (looked for ${SCHEMA_BASE}${name}.json)`);
    validate = found;
    compiled.set(name, validate);
  }
  return validate;
}

function valueAt(document: unknown, pointer: string): unknown {
  let current: any = document;
  for (const part of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = current[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

function toProblem(error: ErrorObject, document: unknown): SchemaProblem {
  let pointer = error.instancePath || '';
  if (error.keyword === 'required') pointer += `/${(error.params as { missingProperty: string }).missingProperty}`;
  if (error.keyword === 'additionalProperties') pointer += `/${(error.params as { additionalProperty: string }).additionalProperty}`;
  return { pointer: pointer || '/', rule: error.keyword, message: error.message ?? error.keyword, value: error.keyword === 'required' ? undefined : valueAt(document, error.instancePath) };
}

/** Every problem of `document` against schema `name` (all of them, not only the first). */
export function schemaProblems(name: string, document: unknown): SchemaProblem[] {
  const validate = validatorFor(name);
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => toProblem(error, document));
}

export function formatProblems(name: string, problems: SchemaProblem[]): string {
  const lines = problems.slice(0, 10).map((p) => {
    const shown = p.value === undefined ? '' : ` (value ${JSON.stringify(p.value)?.slice(0, 80)})`;
    return `  ${p.pointer}: ${p.rule}: ${p.message}${shown}`;
  });
  const more = problems.length > 10 ? `\n  ... and ${problems.length - 10} more` : '';
  return `response does not match schema ${name}:\n${lines.join('\n')}${more}`;
}

/** Compiles every schema once: a broken schema file fails here rather than in the middle of a run. */
export function compileAll(): string[] {
  const names = [...loadSchemaDocuments().keys()];
  for (const name of names) validatorFor(name);
  return names;
}
