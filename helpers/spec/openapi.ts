import { CONSTRAINTS, ENDPOINTS, SPEC, type Constraint, type Endpoint } from './catalogue.js';
import { errorFormat } from './error-formats.js';
import { loadSchemaDocuments } from './schemas.js';

/**
 * The interface as an OpenAPI 3.1 document, generated from the catalogue (endpoints, statuses,
 * field constraints) and schemas/ (response shapes, already JSON Schema 2020-12, OpenAPI 3.1's
 * dialect), with section 7's error formats from helpers/spec/error-formats.ts. Nothing here restates a
 * shape, a success schema or a query filter. Where the specification leaves a choice open the
 * document leaves it open too.
 */

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** schemas/ as components: `$id`/`$schema` dropped, file references turned into component references. */
function components(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, document] of loadSchemaDocuments()) {
    if (name === 'report') continue; // the suite's own report format, not the interface
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== 'object') return value;
      const copy: Json = {};
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$id' || key === '$schema') continue;
        if (key === '$ref' && typeof inner === 'string') {
          const [file, pointer = ''] = inner.split('#');
          copy.$ref = `#/components/schemas/${file ? file!.replace(/\.json$/, '') : name}${pointer}`;
        } else copy[key] = rewrite(inner);
      }
      return copy;
    };
    out[name] = rewrite(document) as Json;
  }
  return out;
}

/** The card image rule (section 8): its field is a file of the multipart form. */
const FILE_RULE = 'jpg, jpeg, bmp or png image';

/**
 * Catalogue rules with no JSON Schema keyword of their own: they stay in the description, or the
 * request body expresses them otherwise (`required`, the multipart file, the expiry's anyOf).
 */
const DESCRIPTION_ONLY: ReadonlySet<string> = new Set([
  'required',
  'a string',
  'unique',
  'a valid ISO currency code',
  FILE_RULE,
  'at most 10240 KB',
  'required unless expirationMonth and expirationYear are given',
  'format m/y',
  'not in the past',
  'required with expirationYear',
  'format m',
  'format y',
  'required with expirationMonth',
]);

/** A catalogue constraint rule as JSON Schema keywords; a rule neither translated nor listed above throws (a reworded rule must not silently lose its keyword). */
function ruleKeywords(constraint: Constraint): Json {
  const rule = constraint.rule;
  let match: RegExpMatchArray | null;
  if ((match = rule.match(/^at most (\d+) characters$/))) return { maxLength: Number(match[1]) };
  if ((match = rule.match(/^at least (\d+) characters$/))) return { minLength: Number(match[1]) };
  if ((match = rule.match(/^(\d+) to (\d+) characters$/))) return { minLength: Number(match[1]), maxLength: Number(match[2]) };
  if ((match = rule.match(/^exactly (\d+) digits$/))) return { pattern: `^[0-9]{${match[1]}}$` };
  if (rule === 'alphanumeric') return { pattern: '^[A-Za-z0-9]+$' };
  if (rule === 'a valid e-mail') return { format: 'email' };
  if (rule === 'null, text or link') return { type: ['string', 'null'], enum: ['text', 'link', null] };
  if (DESCRIPTION_ONLY.has(rule)) return {};
  throw new Error(`openapi: the catalogue rule "${rule}" (${constraint.id}) has no JSON Schema translation: add one in helpers/spec/openapi.ts, or list it as description only`);
}

const isFile = (rules: Constraint[]) => rules.some((c) => c.rule === FILE_RULE);

/** The request body of an endpoint with field constraints (sections 4 and 8): JSON, or the multipart card form. */
function requestBody(endpoint: Endpoint): Json | undefined {
  const rows = CONSTRAINTS.filter((c) => c.endpoint === endpoint.id);
  if (rows.length === 0) return undefined;
  const fields = new Map<string, Constraint[]>();
  for (const row of rows) fields.set(row.field, [...(fields.get(row.field) ?? []), row]);
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  let multipart = false;
  for (const [field, rules] of fields) {
    const file = isFile(rules);
    multipart ||= file;
    const schema: Json = file ? { type: 'string', contentMediaType: 'application/octet-stream' } : { type: 'string' };
    for (const rule of rules) Object.assign(schema, ruleKeywords(rule));
    schema.description = rules.map((c) => `${c.rule} (${c.clauses.map((s) => `section ${s}`).join(', ')})`).join('; ');
    schema['x-constraints'] = rules.map((c) => c.id);
    properties[field] = schema;
    if (rules.some((c) => c.rule === 'required')) required.push(field);
  }
  const schema: Json = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  // Section 4.6a: an expiry date, or a month and a year; each of month and year requires the other.
  if ('expirationDate' in properties && 'expirationMonth' in properties) {
    schema.anyOf = [{ required: ['expirationDate'] }, { required: ['expirationMonth', 'expirationYear'] }];
    schema.dependentRequired = { expirationMonth: ['expirationYear'], expirationYear: ['expirationMonth'] };
  }
  if (!multipart) return { required: true, content: { 'application/json': { schema } } };
  const encoding: Record<string, Json> = {};
  for (const [field, rules] of fields) if (isFile(rules)) encoding[field] = { contentType: 'image/jpeg, image/png, image/bmp' };
  return { required: true, content: { 'multipart/form-data': { schema, encoding } } };
}

function operationId(method: string, path: string): string {
  const segments = path.replace(/^\/api\/v1\//, '').split('/');
  const words = segments.filter((s) => !s.startsWith('{')).flatMap((s) => s.split('-'));
  const last = segments.at(-1)!;
  const by = last.startsWith('{') ? `By${last.replace(/[{}?]/g, '').replace(/^./, (c) => c.toUpperCase())}` : '';
  return method.toLowerCase() + words.map((w) => w.replace(/^./, (c) => c.toUpperCase())).join('') + by;
}

/** The catalogue's `{asset?}` (an optional path segment) becomes two paths: OpenAPI path parameters are always required. */
function concretePaths(template: string): string[] {
  const optional = template.match(/\/\{(\w+)\?\}$/);
  return optional ? [template.slice(0, optional.index), template.replace('?}', '}')] : [template];
}

function operation(endpoint: Endpoint, method: string, path: string): Json {
  const parameters: Json[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  for (const { name, schema, description } of endpoint.query ?? []) {
    parameters.push({ name, in: 'query', required: false, description, schema, ...(schema.type === 'array' ? { style: 'form', explode: true } : {}) });
  }
  const responses: Record<string, Json> = {};
  for (const status of endpoint.statuses) {
    const success = status.status < 300;
    const schema = success ? endpoint.success : errorFormat(endpoint.group, status.status);
    const alternatives = status.alternatives ? ` (the specification allows ${[status.status, ...status.alternatives].join(' or ')} for this condition)` : '';
    responses[String(status.status)] = {
      description: `${status.condition}${alternatives}`,
      content: { 'application/json': { schema: ref(schema) } },
      ...(status.alternatives ? { 'x-alternative-statuses': status.alternatives } : {}),
      ...(success ? {} : { 'x-spec-section': '7' }),
    };
  }
  const section = endpoint.clauses[0]!;
  const security = endpoint.id.startsWith('POST /api/v1/authenticate-jwt')
    ? [{ platformJwt: [] }]
    : endpoint.id === 'POST /api/v1/authenticate'
      ? []
      : endpoint.group === 'password'
        ? // Section 4: no auth is stated, but the reference calls also send a bearer header: either.
          [{}, { bearerAuth: [] }]
        : [{ bearerAuth: [] }];
  const body = requestBody(endpoint);
  return {
    operationId: operationId(method, path),
    summary: endpoint.id,
    tags: [endpoint.group],
    'x-spec-section': section,
    'x-spec-sections': endpoint.clauses,
    'x-catalogue-endpoint': endpoint.id,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    security,
    responses,
  };
}

export interface OpenApiOptions {
  /** The suite's version, recorded in `info`. */
  suiteVersion?: string;
}

/** The OpenAPI 3.1 document of the interface. */
export function openApiDocument(options: OpenApiOptions = {}): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const endpoint of ENDPOINTS) {
    const [method, template] = endpoint.id.split(' ') as [string, string];
    for (const path of concretePaths(template)) {
      paths[path] ??= {};
      paths[path]![method.toLowerCase()] = operation(endpoint, method, path);
    }
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: SPEC.title,
      version: SPEC.version,
      description:
        'Generated by account-api-conformance from its catalogue of the specification and its JSON Schemas. ' +
        'It states only what the specification states: where the specification allows two answers both are listed, and extra fields are allowed.',
      ...(options.suiteVersion ? { 'x-generated-by': `account-api-conformance ${options.suiteVersion}` } : {}),
    },
    servers: [{ url: '{baseUrl}', variables: { baseUrl: { default: 'http://127.0.0.1:8080', description: 'the deployment under test' } } }],
    tags: [...new Set(ENDPOINTS.map((e) => e.group))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components(),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Section 5.3: the access token, the `id` of a Session (section 2.1), as `Authorization: Bearer <token>`' },
        platformJwt: { type: 'apiKey', in: 'header', name: 'Token', description: 'Section 4.1: a platform-issued JWT signed with RS512, payload `email` or `id` and `expire`' },
      },
    },
  };
}
