import { validate as readmeValidate, compileErrors } from '@readme/openapi-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSTRAINTS, documentedPairs } from '../helpers/spec/catalogue.js';
import { openApiDocument } from '../helpers/spec/openapi.js';
import { loadSchemaDocuments } from '../helpers/spec/schemas.js';
import { conformance, tempDir } from './support.js';

const document = openApiDocument() as any;
const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

describe('conformance openapi: the interface as OpenAPI 3.1', () => {
  it('is a valid OpenAPI 3.1 document for @readme/openapi-parser', async () => {
    const result = await readmeValidate(structuredClone(document));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('is a valid OpenAPI 3.1 document for @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names every documented (endpoint, status) pair of the catalogue, and no other', () => {
    const named = new Set(operations.flatMap(({ op }) => Object.keys(op.responses).map((status) => `${op['x-catalogue-endpoint']} ${status}`)));
    const documented = new Set(documentedPairs().map(({ endpoint, status }) => `${endpoint.id} ${status.status}`));
    expect(documented.size).toBe(80);
    expect([...named].sort()).toEqual([...documented].sort());
  });

  it('cites its section on every operation and keeps open choices open', () => {
    for (const { path, method, op } of operations) expect(op['x-spec-section'], `${method} ${path}`).toMatch(/^\d+(\.\d+)?[a-z]?$/);
    const balances = document.paths['/api/v1/user/{user}/balances'].get.responses;
    expect(balances['403']['x-alternative-statuses']).toEqual([409]);
    expect(balances['409']['x-alternative-statuses']).toEqual([403]);
    expect(document.components.schemas['error-jwt'].anyOf).toHaveLength(2);
    // The optional {asset?} segment of section 4.11 is two paths.
    expect(document.paths['/api/v1/user/{user}/bonus/assets'].get['x-catalogue-endpoint']).toBe('GET /api/v1/user/{user}/bonus/assets/{asset?}');
    expect(document.paths['/api/v1/user/{user}/bonus/assets/{asset}'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['user', 'asset']);
  });

  it('carries the response shapes of schemas/ unchanged except for references (never copied by hand)', () => {
    const strip = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, inner) => (key === '$id' || key === '$schema' || key === '$ref' ? undefined : inner)));
    for (const [name, schema] of loadSchemaDocuments()) {
      if (name === 'report') continue;
      expect(strip(document.components.schemas[name]), name).toEqual(strip(schema));
    }
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) expect(ref).toMatch(/"\$ref":"#\/components\/schemas\/[\w-]+(\/\$defs\/\w+)?"/);
  });

  it('states the request bodies with the limits of sections 4 and 8: JSON bodies and the multipart card form', () => {
    const login = document.paths['/api/v1/authenticate'].post.requestBody.content['application/json'].schema;
    expect(login.required).toEqual(['email', 'password']);
    expect(login.properties.email).toMatchObject({ format: 'email', maxLength: 191 });
    expect(login.properties.password).toMatchObject({ minLength: 8, maxLength: 191 });
    expect(login.properties['2fa']).toMatchObject({ pattern: '^[0-9]{6}$' });
    const bank = document.paths['/api/v1/user/{user}/bank'].post.requestBody.content['application/json'].schema;
    expect(bank.properties.swift).toMatchObject({ minLength: 8, maxLength: 11, pattern: '^[A-Za-z0-9]+$' });
    const card = document.paths['/api/v1/user/{user}/card'].post.requestBody.content['multipart/form-data'];
    expect(card.schema.properties.cardImage1).toMatchObject({ type: 'string', contentMediaType: 'application/octet-stream' });
    expect(card.schema.properties.cardImage1.description).toMatch(/10240 KB/);
    expect(card.encoding.cardImage2.contentType).toMatch(/image\/png/);
    expect(card.schema.required).not.toContain('expirationDate');
    expect(card.schema.anyOf).toEqual([{ required: ['expirationDate'] }, { required: ['expirationMonth', 'expirationYear'] }]);
    const cited = operations.flatMap(({ op }) => Object.values(op.requestBody?.content ?? {}).flatMap((c: any) => Object.values(c.schema.properties).flatMap((p: any) => p['x-constraints'])));
    expect(new Set(cited)).toEqual(new Set(CONSTRAINTS.map((c) => c.id)));
  });

  it('declares the two security schemes: bearer access token and the Token JWT header of section 4.1', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.platformJwt).toMatchObject({ type: 'apiKey', in: 'header', name: 'Token' });
    expect(document.paths['/api/v1/authenticate-jwt/{platform}'].post.security).toEqual([{ platformJwt: [] }]);
    expect(document.paths['/api/v1/user/{user}/card'].get.security).toEqual([{ bearerAuth: [] }]);
  });

  it('is printed by `conformance openapi`, or written with --out', async () => {
    const printed = await conformance(['openapi']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout).openapi).toBe('3.1.0');
    const out = join(tempDir('openapi-'), 'interface.json');
    const written = await conformance(['openapi', '--out', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).paths).toEqual(JSON.parse(printed.stdout).paths);
  });
});
