import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
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
const standaloneCode = standaloneCodeModule as unknown as (ajv: Ajv2020, refs: Record<string, string>) => string;

/** The options of every validator, compiled at run time or at build time (the same code either way). */
const AJV_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true } as const;

/**
 * The validators of every schema as ajv's standalone code, written by `npm run build` (tools/build.mjs): a worker
 * then loads them instead of compiling every schema again (≈0.4 s of CPU per worker). Used only when its digest is
 * that of the schema files and options of this run; otherwise (schemas changed since the build) they are compiled.
 */
export const STANDALONE_FILE = join(PACKAGE_ROOT, 'dist', 'helpers', 'spec', 'schemas.standalone.cjs');

/**
 * This module as the build compiled it. What makes the validators is code as well as data: the ajv-formats mode
 * (`fullFormats` or `fastFormats` is written into the standalone code), a keyword or format registered in `newAjv`.
 * None of it is in the schema files or AJV_OPTIONS, so the digest covers this module's compiled text: a change to it
 * makes the build write the validators again and a run with an older file compile them. (Code that configures ajv
 * belongs in this module for that reason.) The compiled file, not import.meta.url: the self-tests run this as TypeScript.
 */
const COMPILED_MODULE = join(PACKAGE_ROOT, 'dist', 'helpers', 'spec', 'schemas.js');

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();
let standalone: Record<string, ValidateFunction> | null | undefined;

/** All schema documents in schemas/, keyed by file name without `.json`. */
export function loadSchemaDocuments(dir = SCHEMA_DIR): Map<string, Record<string, unknown>> {
  const documents = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(dir, { recursive: true }) as string[]) {
    if (!file.endsWith('.json')) continue;
    documents.set(file.replace(/\\/g, '/').replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8')));
  }
  return documents;
}

const require = createRequire(import.meta.url);

/** What the standalone validators were made from: the schema documents, the options, ajv's version and the code that set ajv up. */
export function schemasDigest(documents = loadSchemaDocuments()): string {
  const entries = [...documents].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const versions = ['ajv', 'ajv-formats'].map((name) => (require(`${name}/package.json`) as { version: string }).version);
  const code = existsSync(COMPILED_MODULE) ? createHash('sha256').update(readFileSync(COMPILED_MODULE)).digest('hex') : null;
  return createHash('sha256').update(JSON.stringify({ options: AJV_OPTIONS, versions, code, entries })).digest('hex');
}

function newAjv(source: boolean, documents = loadSchemaDocuments()): Ajv2020 {
  const made = new Ajv2020({ ...AJV_OPTIONS, code: { source } });
  addFormats(made);
  for (const document of documents.values()) made.addSchema(document);
  return made;
}

function instance(): Ajv2020 {
  return (ajv ??= newAjv(false));
}

/** The source of STANDALONE_FILE (CommonJS: loaded synchronously): every schema's validator and the digest. */
export function standaloneModule(): string {
  const documents = loadSchemaDocuments();
  const code = standaloneCode(newAjv(true, documents), Object.fromEntries([...documents.keys()].map((name) => [name, `${SCHEMA_BASE}${name}.json`])));
  return `${code}\n${standaloneDigestLine(schemasDigest(documents))}`;
}

/** The last line of STANDALONE_FILE: by it, the build sees that the file is current without compiling anything. */
export function standaloneDigestLine(digest = schemasDigest()): string {
  return `exports[${JSON.stringify(STANDALONE_DIGEST_EXPORT)}] = ${JSON.stringify(digest)};\n`;
}

/** The export holding the digest (no schema is named so: names are file names, without `.json`). */
const STANDALONE_DIGEST_EXPORT = '.digest';

/** The standalone validators when they were made from this run's schemas, else null (then compiled here). */
export function standaloneValidators(): Record<string, ValidateFunction> | null {
  if (standalone !== undefined) return standalone;
  standalone = null;
  if (!existsSync(STANDALONE_FILE)) return null;
  let module: Record<string, ValidateFunction> & Record<typeof STANDALONE_DIGEST_EXPORT, unknown>;
  try {
    module = require(STANDALONE_FILE) as typeof module;
  } catch {
    // A stale file is run before its digest is read: made by another ajv, it may require a runtime module this one lacks.
    return null;
  }
  if (module[STANDALONE_DIGEST_EXPORT] === schemasDigest()) standalone = module;
  return standalone;
}

/** Schema `name`'s validator compiled here, never the standalone one (for the self-test comparing the two). */
export function compiledHere(name: string): ValidateFunction | undefined {
  return instance().getSchema(`${SCHEMA_BASE}${name}.json`);
}

function validatorFor(name: string): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    const prebuilt = standaloneValidators();
    const found = prebuilt ? (Object.hasOwn(prebuilt, name) ? prebuilt[name] : undefined) : compiledHere(name);
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
