import { describe, expect, it } from 'vitest';
import { compiledHere, loadSchemaDocuments, SCHEMA_BASE, schemasDigest, standaloneValidators } from '../helpers/spec/schemas.js';

/**
 * The validators that `npm run build` writes as ajv's standalone code (helpers/spec/schemas.ts STANDALONE_FILE) judge
 * exactly as the ones compiled at run time: for every schema, a sample document made from the schema and its variants
 * (each member removed, made null, a string, a number, an empty object, an extra member added) get the same errors,
 * message and parameters included, from both.
 */
const documents = loadSchemaDocuments();
const byId = new Map([...documents.values()].map((document) => [String(document.$id), document]));

function resolve(ref: string, base: string): { schema: any; base: string } {
  const [file, pointer = ''] = new URL(ref, base).href.split('#');
  let schema: any = byId.get(file!);
  for (const part of pointer.split('/').slice(1)) schema = schema?.[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
  return { schema, base: file! };
}

const FORMATS: Record<string, string> = { 'date-time': '2026-01-02T03:04:05Z', date: '2026-01-02', email: 'someone@example.com', uri: 'https://example.com/a', uuid: '123e4567-e89b-12d3-a456-426614174000' };

const PATTERNS: Record<string, string> = {
  '^[a-z0-9-]+$': 'a-1', '^[a-z][a-z0-9-]*$': 'a-1', '^[A-Za-z0-9_-]{1,64}$': 'a_1', '^[A-Za-z0-9]{3}$': 'USD', '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': '2026-01-02',
  '^[0-9]{4}$': '2030', '^[0-9]+\\|.+$': '1|x', '^[0-9]+(\\.[0-9]+)?$': '12.5', '^[0-9]+$': '12', '^S[1-9][0-9]*$': 'S1',
  '^-?[0-9]+(\\.[0-9]{1,25})?$': '12.5', '\\*': 'a***@example.com', '^(0?[1-9]|1[0-2])/([0-9]{2}|[0-9]{4})$': '12/2030', '^1\\.[0-9]+\\.[0-9]+$': '1.0.0',
  '^(GET|POST|PUT|PATCH|DELETE) /': 'GET /api', '^([0-9]{4}-([0-9]{2}-[0-9]{2}|[0-9]{3}|W[0-9]{2}-[1-7])T[0-9]{2}:[0-9]{2}:[0-9]{2}|[0-9]{4}([0-9]{4}|[0-9]{3}|W[0-9]{2}[1-7])T[0-9]{6})([.,][0-9]+)?(Z|\\+00(:?00)?)$': '2026-01-02T03:04:05.123456Z',
};

/** A document shaped by the schema (its first alternative, enum value, format), not necessarily valid. */
function sample(schema: any, base: string, depth = 0): unknown {
  if (schema === true || schema === undefined || depth > 12) return 'x';
  if (schema === false) return null;
  if (schema.$ref) return sample(resolve(schema.$ref, base).schema, resolve(schema.$ref, base).base, depth + 1);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternative = schema.allOf?.[0] ?? schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative && !schema.type && !schema.properties) return sample(alternative, base, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') ?? 'null' : schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : 'string');
  switch (type) {
    case 'object':
      return schema.properties ? Object.fromEntries(Object.entries(schema.properties).map(([key, member]) => [key, sample(member, base, depth + 1)])) : { member: sample(schema.additionalProperties, base, depth + 1) };
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items, base, depth + 1));
    case 'integer':
      return schema.minimum ?? 1;
    case 'number':
      return schema.minimum ?? 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return FORMATS[schema.format] ?? PATTERNS[schema.pattern] ?? 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** The document and, for each member or item at any depth, variants where it is removed or replaced. */
function variants(document: unknown): unknown[] {
  const found: unknown[] = [document, null, {}, [], 'x', 1, true];
  const replacements = [undefined, null, 'x', -1, {}, [], 1.5];
  const visit = (value: unknown, rebuild: (replacement: unknown) => unknown) => {
    if (value === null || typeof value !== 'object') return;
    const entries = Object.entries(value);
    for (const [key, member] of entries) {
      const at = (replacement: unknown) => {
        const copy: any = Array.isArray(value) ? [...value] : { ...value };
        if (replacement === undefined && !Array.isArray(copy)) delete copy[key];
        else copy[key] = replacement;
        return rebuild(copy);
      };
      for (const replacement of replacements) found.push(at(replacement));
      visit(member, at);
    }
    if (!Array.isArray(value)) found.push(rebuild({ ...value, unexpectedMember: 'x' }));
  };
  visit(document, (replacement) => replacement);
  return found;
}

describe('schema validators made at build time (ajv standalone code)', () => {
  it('are the ones of this build: made from the schema files and options of this run, one per schema', () => {
    const validators = standaloneValidators();
    expect(validators, 'dist/helpers/spec/schemas.standalone.cjs missing or stale: run npm run build').not.toBeNull();
    for (const name of documents.keys()) expect(typeof validators![name], name).toBe('function');
    expect(schemasDigest()).toBe(schemasDigest(loadSchemaDocuments()));
    const changed = new Map(documents);
    changed.set('bank', { ...changed.get('bank'), title: 'changed' });
    expect(schemasDigest(changed)).not.toBe(schemasDigest());
  });

  it('judge every sample and variant with the same errors as the validators compiled at run time', () => {
    const validators = standaloneValidators()!;
    let compared = 0;
    let failedSomewhere = 0;
    let validSamples = 0;
    for (const [name, schema] of documents) {
      const here = compiledHere(name)!;
      const built = validators[name]!;
      if (here(sample(schema, `${SCHEMA_BASE}${name}.json`))) validSamples++;
      for (const document of variants(sample(schema, `${SCHEMA_BASE}${name}.json`))) {
        const verdict = here(document);
        const errorsHere = JSON.stringify(here.errors ?? null);
        expect(built(document), `${name}: ${JSON.stringify(document)}`).toBe(verdict);
        expect(JSON.stringify(built.errors ?? null), `${name}: ${JSON.stringify(document)}`).toBe(errorsHere);
        compared++;
        if (!verdict) failedSomewhere++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(failedSomewhere).toBeGreaterThan(compared / 2);
    expect(validSamples, 'samples valid against their schema (both validators say so)').toBeGreaterThan(documents.size / 2);
  });
});
