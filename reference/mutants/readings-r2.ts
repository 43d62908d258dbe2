import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import type { ResponseTransform, WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';

/**
 * Reading round 2 (issue 28): implementation choices the specification leaves open, each taken the
 * other way from the reference, as a Spring, Go, Rails or .NET team reading only the specification
 * and docs/provider-states.md would take them. Every one must stay conformant.
 */

const ALL = { groups: 'all', clauses: 'all' } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const BALANCE_ROUTES = ['GET /api/v1/user/{user}/balances/nft', 'GET /api/v1/user/{user}/balances/nft/{asset}', 'GET /api/v1/user/{user}/balances', 'GET /api/v1/user/{user}/balances/{asset}'];
const RECORD_ROUTES = [
  'POST /api/v1/user/{user}/bank',
  'GET /api/v1/user/{user}/bank',
  'GET /api/v1/user/{user}/bank/{bank}',
  'DELETE /api/v1/user/{user}/bank/{bank}',
  'GET /api/v1/user/{user}/bonus/assets/{asset?}',
  'GET /api/v1/user/{user}/bonus',
  'GET /api/v1/user/{user}/bonus/{bonus}',
  'POST /api/v1/user/{user}/card',
  'GET /api/v1/user/{user}/card',
  'GET /api/v1/user/{user}/card/{card}',
];
const CARD_ROUTES = ['POST /api/v1/user/{user}/card', 'GET /api/v1/user/{user}/card', 'GET /api/v1/user/{user}/card/{card}'];

/** The interface's paths with the methods each one answers (for 405 and OPTIONS). */
const PATHS: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/api\/v1\/authenticate-jwt\/[^/]+$/, methods: ['POST'] },
  { pattern: /^\/api\/v1\/authenticate$/, methods: ['POST'] },
  { pattern: /^\/api\/v1\/user\/(forgot-password|reset-password|logout)$/, methods: ['POST'] },
  { pattern: /^\/api\/v1\/user\/[^/]+\/balances(\/nft)?(\/[^/]+)?$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/api\/v1\/user\/[^/]+\/bank$/, methods: ['GET', 'HEAD', 'POST'] },
  { pattern: /^\/api\/v1\/user\/[^/]+\/bank\/[^/]+$/, methods: ['GET', 'HEAD', 'DELETE'] },
  { pattern: /^\/api\/v1\/user\/[^/]+\/bonus(\/assets)?(\/[^/]+)?$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/api\/v1\/user\/[^/]+\/card$/, methods: ['GET', 'HEAD', 'POST'] },
  { pattern: /^\/api\/v1\/user\/[^/]+\/card\/[^/]+$/, methods: ['GET', 'HEAD'] },
];

const pathOf = (reply: FastifyReply) => reply.request.url.split('?')[0]!;
const methodsOf = (path: string) => PATHS.find((entry) => entry.pattern.test(path))?.methods;

/** The same transform on several routes. */
function onRoutes(routes: readonly string[], apply: ResponseTransform['apply'], status?: number): ResponseTransform[] {
  return routes.map((route) => ({ route, ...(status === undefined ? {} : { status }), apply }));
}

/** Rewrites the JSON text of an answer that parses, leaving any other answer alone. */
function json(answer: WireAnswer, change: (value: any) => unknown): string | void {
  let value: unknown;
  try {
    value = JSON.parse(answer.payload);
  } catch {
    return;
  }
  return JSON.stringify(change(value) ?? value);
}

/** Java's Double.toString: `0.0`, `12.5`, `2.1E7`, `1.0E-4`. */
function javaDouble(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (value === 0) return '0.0';
  if (magnitude >= 1e-3 && magnitude < 1e7) return Number.isInteger(value) ? `${value}.0` : String(value);
  const [mantissa, exponent] = value.toExponential().split('e');
  return `${mantissa!.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

const REASONS: Record<number, string> = { 413: 'Content Too Large', 416: 'Range Not Satisfiable', 422: 'Unprocessable Content', 425: 'Too Early', 409: 'Conflict', 423: 'Locked', 412: 'Precondition Failed' };

export const readingsR2Mutants: Mutant[] = [
  {
    name: 'allowed-r2-json-without-charset',
    clause: '1',
    group: 'authentication',
    description: 'every answer is labelled `Content-Type: application/json` without a charset parameter (1.2 names only the media type; RFC 8259 has no charset parameter)',
    mutation: { contentType: 'application/json' },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-pretty-printed-json',
    clause: '1',
    group: 'authentication',
    description: 'answers are pretty-printed JSON with two-space indentation and a final newline (Spring INDENT_OUTPUT; 1.2 says only "JSON")',
    mutation: {
      wire(answer) {
        const text = json(answer, () => undefined);
        return text === undefined ? undefined : `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-gzip-when-accepted',
    clause: '1',
    group: 'authentication',
    description: 'answers are gzip-compressed (Content-Encoding: gzip, Vary: Accept-Encoding) whenever the request\'s Accept-Encoding allows gzip (1.2 is silent on content codings; HTTP lets the server choose)',
    mutation: {
      wire(answer, reply) {
        const accepted = String(reply.request.headers['accept-encoding'] ?? '');
        if (!/\bgzip\b/i.test(accepted) || answer.payload.length === 0) return;
        reply.header('content-encoding', 'gzip');
        reply.header('vary', 'Accept-Encoding');
        reply.removeHeader('content-length');
        return Readable.from([gzipSync(answer.payload)]);
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-cache-validators',
    clause: '1',
    group: 'authentication',
    description: 'every answer carries a weak ETag, Last-Modified and `Cache-Control: no-cache, private` (ASP.NET/Rails conditional GET; the specification says nothing about caching headers)',
    mutation: {
      wire(answer, reply) {
        reply.header('etag', `W/"${createHash('sha1').update(answer.payload).digest('hex')}"`);
        reply.header('last-modified', new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString());
        reply.header('cache-control', 'no-cache, private');
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-rate-limit-headers',
    clause: '8',
    group: 'authentication',
    description: 'every answer carries X-RateLimit-Limit: 600 and a decreasing X-RateLimit-Remaining, never reaching 0 (Laravel/ASP.NET throttling middleware; 8: "Rate limits ... not shown")',
    mutation: (() => {
      let sent = 0;
      return {
        wire(_answer: WireAnswer, reply: FastifyReply) {
          sent = (sent + 1) % 500;
          reply.header('x-ratelimit-limit', '600');
          reply.header('x-ratelimit-remaining', String(599 - sent));
        },
      };
    })(),
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-rfc9110-reason-phrases',
    clause: '7',
    group: 'authentication',
    description: 'status lines use RFC 9110 reason phrases (422 Unprocessable Content, 413 Content Too Large, 416 Range Not Satisfiable, 425 Too Early); 7 gives statuses by number only',
    mutation: {
      wire(answer, reply) {
        const reason = REASONS[answer.status];
        if (reason) reply.raw.statusMessage = reason;
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-www-authenticate-on-401',
    clause: '5',
    group: 'authentication',
    description: 'a 401 of a protected endpoint carries `WWW-Authenticate: Bearer realm="api", error="invalid_token"` (RFC 6750, as Spring Security sends it; 5.3 and 7 fix only the status and `{ error }`)',
    mutation: {
      wire(answer, reply) {
        if (answer.status === 401 && answer.url.startsWith('/api/v1/user/')) reply.header('www-authenticate', 'Bearer realm="api", error="invalid_token"');
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-cors-preflight',
    clause: '1',
    group: 'authentication',
    description: 'CORS middleware: OPTIONS on any interface path answers 204 with Access-Control-Allow-* headers, and every answer carries Access-Control-Allow-Origin: * (the specification names no OPTIONS behaviour)',
    mutation: {
      wire(answer, reply) {
        reply.header('access-control-allow-origin', '*');
        if (answer.method !== 'OPTIONS') return;
        const methods = methodsOf(pathOf(reply));
        if (!methods) return;
        reply.code(204);
        reply.header('access-control-allow-methods', [...methods, 'OPTIONS'].join(', '));
        reply.header('access-control-allow-headers', 'Authorization, Content-Type, Accept, Token');
        reply.header('allow', [...methods, 'OPTIONS'].join(', '));
        reply.removeHeader('content-type');
        return '';
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-method-not-allowed',
    clause: '1',
    group: 'banks',
    description: 'a method a known path does not take (PUT on a bank, DELETE on a card) answers 405 with Allow and `{ message }` instead of 404 (Spring/ASP.NET routing; 7 lists no status for it)',
    mutation: {
      wire(answer, reply) {
        if (answer.status !== 404 || answer.url !== '') return;
        const methods = methodsOf(pathOf(reply));
        if (!methods || methods.includes(answer.method)) return;
        reply.code(405);
        reply.header('allow', methods.join(', '));
        return JSON.stringify({ message: `The ${answer.method} method is not supported for this route. Supported methods: ${methods.join(', ')}.` });
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-trailing-slash-redirect',
    clause: '1',
    group: 'banks',
    description: 'a path with a trailing slash is answered 301 to the same path without it (Laravel\'s public/.htaccess; 1.1 gives the paths without a slash and says nothing of other forms)',
    mutation: {
      wire(answer, reply) {
        const [path, query] = reply.request.url.split('?');
        if (answer.status !== 404 || answer.url !== '' || !path!.endsWith('/') || !methodsOf(path!.replace(/\/+$/, ''))) return;
        reply.code(301);
        reply.header('location', `${path!.replace(/\/+$/, '')}${query === undefined ? '' : `?${query}`}`);
        return JSON.stringify({ message: 'Moved Permanently' });
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-malformed-id-route-not-found',
    clause: '1',
    group: 'banks',
    description: 'a {user}, {bank}, {bonus} or {card} segment that is not a UUID matches no route (404, before authentication), as a route constraint on the UUID form does (1.6 says these are UUIDs; nothing orders it against 401)',
    mutation: {
      wire(_answer, reply) {
        const match = /^\/api\/v1\/user\/([^/]+)\/(bank|bonus|card|balances)(?:\/([^/]+))?/.exec(pathOf(reply));
        if (!match) return;
        const [, user, kind, id] = match;
        const recordId = (kind === 'bank' || kind === 'card' || kind === 'bonus') && id !== undefined && id !== 'assets' ? decodeURIComponent(id) : undefined;
        if (UUID.test(decodeURIComponent(user!)) && (recordId === undefined || UUID.test(recordId))) return;
        reply.code(404);
        return JSON.stringify({ message: 'The route could not be found.' });
      },
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-unknown-user-not-found',
    clause: '5',
    group: 'banks',
    description: 'a well-formed {user} that names no user is answered 404 "No query results for model [User]" (route-model binding) rather than 403/409: 5.6 covers another user\'s resources, and a user that does not exist has none',
    mutation: { deviation: 'r2.unknown-user-not-found' },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-inactive-before-owner',
    clause: '5',
    group: 'banks',
    description: 'an inactive caller is refused 403 "account inactive" even on another user\'s path, its own state checked before the path\'s owner (5.6 and 7 give both refusals and no order)',
    mutation: { deviation: 'r2.inactive-before-owner' },
    allowed: true,
    judgedBy: { groups: ['banks', 'bonuses', 'cards'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-balances-unauthorized-409',
    clause: '5',
    group: 'balances',
    description: 'another user\'s balances are refused with 409 "This action is unauthorized." instead of 403 (4.6 to 4.9 list both; 5.6 says "403 or 409")',
    mutation: { transforms: onRoutes(BALANCE_ROUTES, (body) => (body?.message === 'This action is unauthorized.' ? { status: 409 } : undefined), 403) },
    allowed: true,
    judgedBy: { groups: ['balances'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-records-unauthorized-403',
    clause: '5',
    group: 'banks',
    description: 'another user\'s banks, bonuses and cards are refused with 403 "This action is unauthorized." instead of 409 (5.6: "403 or 409"; 7 lists 403 for bank delete as unauthorized too)',
    mutation: { transforms: onRoutes(RECORD_ROUTES, (body) => (body?.message === 'This action is unauthorized.' ? { status: 403 } : undefined), 409) },
    allowed: true,
    judgedBy: { groups: ['banks', 'bonuses', 'cards'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-validation-message-generic',
    clause: '7',
    group: 'banks',
    description: 'a 422\'s top-level `message` is always "The given data was invalid." (Laravel 5-8), not the first field error (7 fixes only `{ message: string, errors }`)',
    mutation: {
      wire: (answer) => (answer.status === 422 ? json(answer, (value) => (value && typeof value === 'object' && 'errors' in value ? { ...value, message: 'The given data was invalid.' } : value)) : undefined),
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-validation-texts-own-words',
    clause: '7',
    group: 'banks',
    description: 'every 422 field message is the service\'s own words ("<field> is invalid.") and the body has an extra `code: "validation_failed"` member (7 gives no message texts)',
    mutation: {
      wire: (answer) =>
        answer.status === 422
          ? json(answer, (value) => {
              if (!value || typeof value !== 'object' || !value.errors || typeof value.errors !== 'object') return value;
              const errors = Object.fromEntries(Object.entries(value.errors as Record<string, string[]>).map(([field, list]) => [field, list.map(() => `${field} is invalid.`)]));
              return { message: Object.values(errors)[0]?.[0] ?? 'Validation failed.', code: 'validation_failed', errors };
            })
          : undefined,
    },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-java-double-numbers',
    clause: '1',
    group: 'bonuses',
    description: 'the JSON numbers of 1.5 (bonus summary `amount`, meta `total_supply`) are written as Java\'s Double.toString writes them: `0.0`, `12.5`, `2.1E7` (JSON allows fraction and exponent forms)',
    mutation: {
      wire(answer) {
        if (!/\/(bonus\/assets|balances)/.test(answer.url)) return;
        // The key names are unique to the 1.5 numbers; rewrite their number literals in place.
        return answer.payload.replace(/("(?:amount|total_supply)":)(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g, (_all, key: string, number: string) => `${key}${javaDouble(Number(number))}`);
      },
    },
    allowed: true,
    judgedBy: { groups: ['bonuses', 'balances'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-precision-as-numeric-string',
    clause: '2.2',
    group: 'balances',
    description: 'every balance record\'s `precision` is a numeric string ("8") rather than an integer (2.2: "integer or numeric string")',
    mutation: {
      transforms: onRoutes(BALANCE_ROUTES, (body) => {
        const records: any[] = Array.isArray(body?.data) ? body.data : Array.isArray(body?.data?.coins) ? body.data.coins : body?.data && typeof body.data === 'object' ? [body.data] : [];
        for (const record of records) if (typeof record?.precision === 'number') record.precision = String(record.precision);
      }, 200),
    },
    allowed: true,
    judgedBy: { groups: ['balances'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-card-month-unpadded',
    clause: '2.5',
    group: 'cards',
    description: 'a card\'s `expirationDate` is stored month without a leading zero ("3/2031" for "03/2031"), as `m/y` in Java\'s M/y or Go\'s 1/2006 reads (2.5 and 4.6a give only "m/y")',
    mutation: {
      transforms: onRoutes(CARD_ROUTES, (body) => {
        const records: any[] = Array.isArray(body?.data) ? body.data : body?.data && typeof body.data === 'object' ? [body.data] : [];
        for (const record of records) if (typeof record?.expirationDate === 'string') record.expirationDate = record.expirationDate.replace(/^0(\d)\//, '$1/');
      }),
    },
    allowed: true,
    judgedBy: { groups: ['cards'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-card-images-as-paths',
    clause: '2.5',
    group: 'cards',
    description: '`cardImage1`/`cardImage2` are storage paths (`cards/<identifier>.img`) rather than bare identifiers (2.5: "identifier of the stored image", its form not given)',
    mutation: {
      transforms: onRoutes(CARD_ROUTES, (body) => {
        const records: any[] = Array.isArray(body?.data) ? body.data : body?.data && typeof body.data === 'object' ? [body.data] : [];
        for (const record of records) for (const key of ['cardImage1', 'cardImage2']) if (typeof record?.[key] === 'string') record[key] = `cards/${record[key]}.img`;
      }),
    },
    allowed: true,
    judgedBy: { groups: ['cards'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-logout-status-words',
    clause: '4.5',
    group: 'authentication',
    description: 'logout answers `{ status: "Token revoked" }` (4.5 fixes only `{ status: string }`)',
    mutation: { transform: { route: 'POST /api/v1/user/logout', status: 200, apply: () => ({ body: { status: 'Token revoked' } }) } },
    allowed: true,
    judgedBy: { groups: ['authentication', 'password'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-bank-delete-message-words',
    clause: '4.10',
    group: 'banks',
    description: 'bank delete answers `{ message: "Bank account 1234 deleted successfully." }` with words of its own (4.10 fixes only `{ message: string }`)',
    mutation: { transform: { route: 'DELETE /api/v1/user/{user}/bank/{bank}', status: 200, apply: () => ({ body: { message: 'Bank account deleted successfully.' } }) } },
    allowed: true,
    judgedBy: { groups: ['banks'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-unknown-query-refused',
    clause: '4.10',
    group: 'banks',
    description: 'the bank, bonus and card lists refuse a query parameter they do not name with 422 `{ message, errors: { <param>: [...] } }` (a strict Go/.NET binder; 4.10, 4.11 and 4.6a name the filters and say nothing of others)',
    mutation: {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200) return;
        const known = answer.url === '/api/v1/user/:user/bank' ? ['status', 'currency', 'company', 'platform'] : answer.url === '/api/v1/user/:user/bonus' ? ['status', 'platform'] : answer.url === '/api/v1/user/:user/card' ? ['status', 'company', 'platform'] : undefined;
        if (!known) return;
        const unknown = Object.keys((reply.request.query ?? {}) as Record<string, unknown>).filter((name) => !known.includes(name));
        if (unknown.length === 0) return;
        reply.code(422);
        return JSON.stringify({ message: `The ${unknown[0]} parameter is not supported.`, errors: Object.fromEntries(unknown.map((name) => [name, [`The ${name} parameter is not supported.`]])) });
      },
    },
    allowed: true,
    judgedBy: { groups: ['banks', 'bonuses', 'cards'], clauses: 'all' },
  },
  // Readings of the authentication part that need the reference's own code.
  {
    name: 'allowed-r2-email-case-sensitive',
    clause: '4.2',
    group: 'authentication',
    description: 'e-mail addresses are compared exactly as stored (a case-sensitive column; RFC 5321 lets the local part be case-sensitive): 4.2, 4.3 and 4.1 say "valid e-mail" and nothing of letter case',
    mutation: { deviation: 'r2.email-case-sensitive' },
    allowed: true,
    judgedBy: { groups: ['authentication', 'password'], clauses: 'all' },
  },
  {
    name: 'allowed-r2-session-year-ttl',
    clause: '2.1',
    group: 'authentication',
    description: 'a Session lives a year (`ttl` 31536000, `until` a year on) unless the account\'s sessions are short (8: "Session lifetime is given per session by ttl")',
    mutation: { deviation: 'r2.session-year-ttl' },
    allowed: true,
    judgedBy: ALL,
  },
  {
    name: 'allowed-r2-token-long-secret',
    clause: '2.1',
    group: 'authentication',
    description: 'the access token\'s secret is 80 characters rather than 40 (2.1 gives only the form `<numeric_id>|<secret>`)',
    mutation: { deviation: 'r2.token-long-secret' },
    allowed: true,
    judgedBy: ALL,
  },
];
