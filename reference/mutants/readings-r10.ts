import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import { claimsOf, type Seen } from './make.js';
import type { Mutant } from './types.js';
import { ALL, eachText, only, onSuccess, parse, reading, recordsOf, tokenShownAs } from './reading.js';

/**
 * Reading round 10 (issue 28): implementation choices the specification leaves open, each taken the other
 * way from the reference, as an ASP.NET Core team on SQL Server, a Go team behind nginx, a Rails team or a team
 * behind an API gateway, reading only the specification and docs/provider-states.md, would take them. Written
 * without reading the suite (suites/, helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a
 * reading of rounds 1 to 9 or of the groups' own `allowed-*` mutants. Each description quotes the text that
 * leaves the point open. Readings that need the server's own data are deviations (`r10.*`) the modules honour;
 * the rest change requests or answers only.
 * Run against the suite: 22 of 23 stayed conformant and were registered; the 1 refused (allowed-r10-ids-upper-case) was
 * judged a reading, the suite fixed (ids compared case-free) and it is registered too. `readingsR10Refused` is empty.
 */

const BANK_URLS = ['/api/v1/user/:user/bank', '/api/v1/user/:user/bank/:bank'];
const CARD_URLS = ['/api/v1/user/:user/card', '/api/v1/user/:user/card/:card'];
const BONUS_URLS = ['/api/v1/user/:user/bonus', '/api/v1/user/:user/bonus/:bonus'];
const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;
const WHOLE_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A decimal string without the trailing zeros of its fraction ("100.50000000" as "100.5", "2.000" as "2"). */
function minimal(text: string): string {
  return /^-?\d+\.\d+$/.test(text) ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** A decimal string divided by 100, exactly (decimal shift), "1.5" as "0.015". */
function hundredth(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return text;
  const digits = `${match[2]!.padStart(3, '0')}${match[3] ?? ''}`;
  const point = digits.length - (match[3] ?? '').length - 2;
  const shifted = minimal(`${digits.slice(0, point).replace(/^0+(?=\d)/, '')}.${digits.slice(point)}`);
  return shifted === '0' ? '0' : `${match[1]}${shifted}`;
}

/** The `expire` claim of a JWT as Unix seconds, in the forms an implementation may take it (seconds, milliseconds, ISO 8601). */
function expireSeconds(expire: unknown): number | undefined {
  const number = typeof expire === 'number' ? expire : typeof expire === 'string' && /^\d+(\.\d+)?$/.test(expire) ? Number(expire) : undefined;
  if (number !== undefined) return number > 1e11 ? Math.floor(number / 1000) : Math.floor(number);
  if (typeof expire === 'string') {
    const at = Date.parse(expire);
    return Number.isNaN(at) ? undefined : Math.floor(at / 1000);
  }
  return undefined;
}

/** The bearer token of a request, when it sends one. */
function bearerOf(request: FastifyRequest): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]?.trim();
}

/** Each JWT-login session's end, capped at its JWT's `expire` (allowed-r10-jwt-session-ends-with-jwt). */
function jwtBoundSessions() {
  const ends = new Map<string, number>();
  return {
    request(request: FastifyRequest) {
      const token = bearerOf(request);
      const end = token === undefined ? undefined : ends.get(token);
      if (end !== undefined && Date.now() >= end) request.headers.authorization = 'Bearer 0|session-ended-with-its-jwt';
    },
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.status !== 200 || answer.url !== '/api/v1/authenticate-jwt/:platform') return undefined;
      const body = parse(answer.payload);
      const session = body?.data;
      const expire = expireSeconds(claimsOf(reply.request as unknown as Seen)?.expire);
      const created = typeof session?.created === 'string' ? Date.parse(session.created) : NaN;
      if (!session || expire === undefined || Number.isNaN(created) || typeof session.ttl !== 'number') return undefined;
      const createdSeconds = Math.floor(created / 1000);
      if (expire >= createdSeconds + session.ttl) return undefined;
      session.ttl = Math.max(0, expire - createdSeconds);
      session.until = new Date(expire * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
      ends.set(String(session.id), expire * 1000 + 999);
      return JSON.stringify(body);
    },
  };
}

const jwtSecret = tokenShownAs((id, secret, userId) => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${id}|${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: userId, jti: secret })}.${Buffer.from(secret).toString('base64url').slice(0, 43)}`;
});
const barSecret = tokenShownAs((id, secret) => `${id}|${secret.slice(0, 16)}|${secret.slice(16)}`);

/** JWTs that logged in once (allowed-r10-jwt-single-use): a replay is sent on as a token no platform signed (403). */
function singleUseJwts() {
  const used = new Set<string>();
  return {
    request(request: FastifyRequest) {
      if (request.method !== 'POST' || !request.url.startsWith('/api/v1/authenticate-jwt/')) return;
      const token = request.headers.token;
      if (typeof token === 'string' && used.has(token)) request.headers.token = 'eyJhbGciOiJSUzUxMiJ9.eyJyZXBsYXllZCI6dHJ1ZX0.cmVwbGF5ZWQ';
    },
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.status !== 200 || answer.url !== '/api/v1/authenticate-jwt/:platform') return undefined;
      const token = reply.request.headers.token;
      if (typeof token === 'string') used.add(token);
      return undefined;
    },
  };
}

/** JSON as Jackson's DefaultPrettyPrinter writes it: two-space indent, `"key" : value`, `[ ]` and `{ }` when empty. */
function jackson(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length === 0 ? '[ ]' : `[ ${value.map((item) => jackson(item, indent)).join(', ')} ]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return entries.length === 0 ? '{ }' : `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)} : ${jackson(item, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A decimal string rounded half up to two fraction digits ("12.3456" as "12.35", "7" as "7.00"); the bare "0" stays "0". */
function cents(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || text === '0') return text;
  const fraction = (match[3] ?? '').padEnd(3, '0');
  let value = BigInt(`${match[2]}${fraction.slice(0, 2)}`);
  if (Number(fraction[2]) >= 5) value += 1n;
  const digits = value.toString().padStart(3, '0');
  return `${match[1]}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const INVISIBLE = /[\u00AD\u200B\u200C\u200E\u200F\u2060\uFEFF]/g;

const readingsR10Written: Mutant[] = [
  // ---- Identifiers and issued credentials (1.6, 2.1, 5.2)
  reading(
    'allowed-r10-ids-upper-case',
    'authentication',
    '1',
    'every UUID in an answer (userId, record ids, the ids inside bonuses) is written upper-case ("3F2504E0-4F89-11D3-9A0C-0305E82C3301"), as a .NET team on SQL Server, whose uniqueidentifier reads back upper-case, writes it; UUIDs in a path are read in any case (1.6: "A path segment written {user} is the user ID (UUID string) ... {bank}, {bonus} and {card} are record IDs (UUID strings)"; 2.1 "userId | string (UUID)": the letter case of a UUID is not given; RFC 9562 4, which the specification does not cite, describes lower-case output and reads UUIDs in any case on input)',
    {
      deviation: 'r8.jwt-id-any-case',
      request(request) {
        const params = (request.params ?? {}) as Record<string, unknown>;
        for (const [key, value] of Object.entries(params)) if (typeof value === 'string' && WHOLE_UUID.test(value)) params[key] = value.toLowerCase();
        const query = (request.query ?? {}) as Record<string, unknown>;
        for (const [key, value] of Object.entries(query)) if (typeof value === 'string' && WHOLE_UUID.test(value)) query[key] = value.toLowerCase();
      },
      wire(answer) {
        if (answer.payload.length === 0) return undefined;
        const upper = answer.payload.replace(UUID, (id) => id.toUpperCase());
        return upper === answer.payload ? undefined : upper;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r10-token-secret-jwt',
    'authentication',
    '2.1',
    'the secret part of the access token is itself a signed JWT (`17|eyJhbGciOiJIUzI1NiIs....eyJzdWIiOi....<signature>`: dots and base64url), as an ASP.NET Core team that issues JWTs and keeps Sanctum\u2019s `<id>|` prefix for the token table writes it (2.1: "id | string | Access token, form <numeric_id>|<secret>; sent later as the bearer token": the secret\u2019s alphabet and length are not given)',
    { request: jwtSecret.request, wire: jwtSecret.wire },
    ALL,
  ),
  reading(
    'allowed-r10-token-secret-contains-bar',
    'authentication',
    '2.1',
    'the secret part of the access token itself holds a `|` (`17|3kq9...|x8Zt...`: a key id and a secret joined), the token being split at its first `|` only, as Sanctum\u2019s `explode("|", $token, 2)` splits it (2.1: "form <numeric_id>|<secret>": what characters the secret may hold is not given)',
    { request: barSecret.request, wire: barSecret.wire },
    ALL,
  ),
  reading(
    'allowed-r10-jwt-session-ends-with-jwt',
    'authentication',
    '5',
    'a session obtained with a platform JWT ends no later than the JWT\u2019s `expire`: its `until` is the JWT\u2019s expiry and its `ttl` the seconds left to it when that comes before the usual lifetime, and the token is refused (401) after it, as an API gateway that validates the platform\u2019s JWT on every request and maps it to a session would (4.1: "expire (required, timestamp, must be now or later)"; 5.2: "Its id is the bearer token, valid for ttl seconds, until until"; 8: "Session lifetime is given per session by ttl (seconds)": how a session\u2019s lifetime relates to the JWT\u2019s expiry is not given)',
    jwtBoundSessions(),
    ALL,
  ),
  reading(
    'allowed-r10-jwt-unknown-user-412',
    'authentication',
    '4.1',
    'a correctly signed JWT whose `email` or `id` names no user of the service is answered 412 "The JWT payload is invalid." rather than 403: the platform vouched for the token, so the fault is in what it carries, as a .NET team\u2019s claims-principal validation (a `sub` that resolves to nobody fails the payload) answers (4.1: "Errors: ... 403 (wrong credentials) ... 412 (JWT payload invalid)"; 7: "403 | authentication | provided credentials incorrect", "412 | authenticate-jwt | JWT payload invalid": which of the two a payload naming nobody is, is not given)',
    { deviation: 'r10.jwt-unknown-user-412' },
    only('authentication'),
  ),

  // ---- Extra members and headers
  reading(
    'allowed-r10-envelope-success-flag',
    'authentication',
    '1',
    'every JSON object answer also carries a top-level `success` boolean (true for 2xx, false otherwise), as a .NET team\u2019s result-envelope middleware or a Rails `render json:` helper adds it, beside `data`, `status`, `message`, `error` and `errors` (1.3: "Successful single-record responses are wrapped as { data: <record> } ... Exceptions: logout returns { status }; bank delete returns { message }"; 7: the error formats: none says the wrapper holds nothing else)',
    {
      wire(answer) {
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object' || Array.isArray(body) || 'success' in body) return undefined;
        body.success = answer.status >= 200 && answer.status < 300;
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r10-bank-delete-returns-id',
    'banks',
    '4.10',
    'bank delete answers `{ message, data: { id, deletedAt } }`: the message and the deleted bank\u2019s id and deletion time (Unix seconds), as a Rails `destroy` action rendering the destroyed record\u2019s key does (4.10: "Delete | DELETE /api/v1/user/{user}/bank/{bank} | none | 200 { message: string }"; 1.3: "bank delete returns { message }": other members are not excluded)',
    {
      wire(answer, reply) {
        if (answer.method !== 'DELETE' || answer.status !== 200 || answer.url !== '/api/v1/user/:user/bank/:bank') return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
        body.data = { id: String((reply.request.params as { bank?: string }).bank ?? ''), deletedAt: Math.floor(Date.now() / 1000) };
        return JSON.stringify(body);
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r10-deprecation-sunset-headers',
    'authentication',
    '9',
    'every answer announces the end of version 1: `Deprecation: @1798761600`, `Sunset: Fri, 01 Jan 2027 00:00:00 GMT` and `Link: </api/v2>; rel="successor-version"` (RFC 9745, RFC 8594), as an API gateway\u2019s versioning policy adds them (9: "The version is part of every path as the prefix /api/v1. Deprecation and change policy: not shown.")',
    {
      wire(_answer, reply) {
        reply.header('deprecation', '@1798761600');
        reply.header('sunset', 'Fri, 01 Jan 2027 00:00:00 GMT');
        reply.header('link', '</api/v2>; rel="successor-version"');
      },
    },
    ALL,
  ),

  // ---- Storage normalisation (2.4, 2.5)
  reading(
    'allowed-r10-bank-codes-stored-upper-case',
    'banks',
    '2.4',
    'a bank\u2019s `iban` and `swift` are stored and shown upper-case ("de89..." sent, "DE89..." shown; "deutdeff" as "DEUTDEFF"), the form ISO 13616 and ISO 9362 print them in, as a Rails `before_save { iban.upcase! }` stores them (2.4: "iban | string", "swift | string"; 4.10: "alphanumeric": no normalisation is stated, and nothing says a record repeats the letters sent)',
    onSuccess(BANK_URLS, (body) => eachText(body, ['iban', 'swift'], (text) => text.toUpperCase())),
    only('banks'),
  ),
  reading(
    'allowed-r10-texts-invisible-characters-removed',
    'cards',
    '2.5',
    'bank and card texts (`bankName`, `holderName`, `alias`) are stored without invisible format characters (soft hyphen U+00AD, zero-width space U+200B, zero-width non-joiner U+200C, direction marks U+200E/U+200F, word joiner U+2060, BOM U+FEFF; the emoji joiner U+200D kept), as a .NET input sanitizer strips them against spoofing (2.4/2.5: "bankName | string", "holderName | string", "alias | string"; 4.10/4.6a: "max 191": no normalisation is stated; round r8\u2019s "control characters removed" is of the same kind)',
    onSuccess([...BANK_URLS, ...CARD_URLS], (body) => eachText(body, ['bankName', 'holderName', 'alias'], (text) => text.replace(INVISIBLE, ''))),
    only('banks', 'cards'),
  ),

  // ---- Filters (4.10, 4.6a name them and nothing more)
  reading(
    'allowed-r10-company-filter-by-platform-name',
    'banks',
    '4.10',
    'the bank and card lists compare `company` with the external platform\u2019s `name` (the company that runs it) and `platform` with its `code`, each filter its own field, as a Rails scope `where(external_platforms: { name: params[:company] })` does (4.10: "query: status, currency, company, platform (all optional filters, strings)"; 4.6a: "query status, company, platform (optional filters, strings)"; 2.4: "externalPlatform | object | { code: string, name: string, url: string }": what `company` is compared with is not given)',
    { deviation: 'r10.company-filter-by-platform-name' },
    only('banks', 'cards'),
  ),

  // ---- Order (7)
  reading(
    'allowed-r10-validation-messages-reversed',
    'banks',
    '7',
    'a field that breaks several rules lists its messages in the reverse order of the reference (the last rule checked first), as a Rails model\u2019s validators declared in another order give them (7: "Validation (422): { message: string, errors: { <field_name>: [string, ...] } }": the order of a field\u2019s messages is not given)',
    {
      wire(answer) {
        if (answer.status !== 422) return undefined;
        const body = parse(answer.payload);
        const errors = body?.errors;
        if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return undefined;
        let changed = false;
        for (const messages of Object.values(errors)) if (Array.isArray(messages) && messages.length > 1) (messages.reverse(), (changed = true));
        return changed ? JSON.stringify(body) : undefined;
      },
    },
    only('authentication', 'password', 'banks', 'cards'),
  ),

  // ---- Precedence of errors (4.10, 7)
  reading(
    'allowed-r10-iban-uniqueness-after-rules',
    'banks',
    '4.10',
    'bank create checks that the iban is unique only once every field rule passed (a unique index met on insert, as a Rails `rescue ActiveRecord::RecordNotUnique` or a .NET `DbUpdateException` handler gives it): a taken iban beside an invalid currency or swift is refused 422 keyed by the broken fields alone (4.10: "iban | ... | max 191, alphanumeric, unique"; 7: "422 | bank create | invalid field, for example an unknown currency": which keys a 422 with two causes names is not given)',
    {
      wire(answer) {
        if (answer.method !== 'POST' || answer.status !== 422 || answer.url !== '/api/v1/user/:user/bank') return undefined;
        const body = parse(answer.payload);
        const errors = body?.errors;
        if (!errors || typeof errors !== 'object' || !Array.isArray(errors.iban)) return undefined;
        const others = Object.keys(errors).filter((key) => key !== 'iban');
        if (others.length === 0 || !errors.iban.every((m: unknown) => typeof m === 'string' && /taken|already/i.test(m))) return undefined;
        delete errors.iban;
        const first = errors[others[0]!];
        if (Array.isArray(first) && typeof first[0] === 'string') body.message = first[0];
        return JSON.stringify(body);
      },
    },
    only('banks'),
  ),

  // ---- Orders inside bonuses (2.7)
  reading(
    'allowed-r10-percent-as-fraction',
    'bonuses',
    '2.7',
    'an order\u2019s `commissions.percent` and `payment.feePercent` are written as fractions of one ("0.015" for 1.5 %), as a .NET `decimal Rate` column stores a rate (2.7: "commissions | { percent: decimal string, amount: decimal string }", "feePercent (string)": the scale of a percent value is not given)',
    onSuccess(BONUS_URLS, (body) => {
      for (const bonus of recordsOf(body)) {
        const order = bonus?.order;
        if (typeof order?.commissions?.percent === 'string') order.commissions.percent = hundredth(order.commissions.percent);
        if (typeof order?.payment?.feePercent === 'string') order.payment.feePercent = hundredth(order.payment.feePercent);
      }
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r10-order-decimals-trailing-zeros-dropped',
    'bonuses',
    '2.7',
    'an order\u2019s decimal strings (`fromAmount`, `toAmount`, `rate`, `payment.feeAmount`, `commissions.amount`, `commissions.percent`) are written without the trailing zeros of their fraction ("100.5" for "100.50000000", "2" for "2.00"), as Go\u2019s `shopspring/decimal` String() writes them (2.7: "fromAmount, toAmount, rate | decimal string"; 1.5: "decimal strings (up to 25 fractional digits, or the bare string 0)": a scale is not given)',
    onSuccess(BONUS_URLS, (body) => {
      for (const bonus of recordsOf(body)) {
        const order = bonus?.order;
        if (!order || typeof order !== 'object') continue;
        for (const key of ['fromAmount', 'toAmount', 'rate']) if (typeof order[key] === 'string') order[key] = minimal(order[key]);
        if (typeof order.payment?.feeAmount === 'string') order.payment.feeAmount = minimal(order.payment.feeAmount);
        for (const key of ['amount', 'percent']) if (typeof order.commissions?.[key] === 'string') order.commissions[key] = minimal(order.commissions[key]);
      }
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r10-jwt-single-use',
    'authentication',
    '4.1',
    'a platform JWT logs in once: the same JWT sent again (byte for byte) is refused 403 as wrong credentials, as an API gateway with a replay cache (a `jti`-less token keyed by its hash until its expiry) or Spring Security\u2019s one-time-token filter does; a new JWT from the platform logs in as before (4.1: "Authenticates a user through a platform-issued JWT ... expire (required, timestamp, must be now or later)": whether one JWT may be presented more than once is not given; the accepted reading "a TOTP code is single use" is of the same kind)',
    singleUseJwts(),
    ALL,
  ),
  reading(
    'allowed-r10-login-slow-hashing',
    'authentication',
    '4.2',
    'a login takes 400 ms before it is answered (argon2id with a 64 MiB memory cost, or bcrypt cost 12, and a constant-time guard that makes a JWT login as slow), as a security-minded Go or .NET team configures it (4.2 and 4.1 give no time for an answer; 8: "Rate limits ...: not shown")',
    {
      wire(answer) {
        if (answer.method !== 'POST' || (answer.url !== '/api/v1/authenticate' && answer.url !== '/api/v1/authenticate-jwt/:platform')) return undefined;
        return new Promise<string>((resolve) => setTimeout(() => resolve(answer.payload), 400)) as unknown as string;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r10-list-total-count-headers',
    'banks',
    '4.10',
    'the bank, card and bonus lists carry `X-Total-Count: <n>` and `Link: <...?page=1>; rel="first", <...?page=1>; rel="last"` headers, as a Rails team with `api-pagination` (or json-server) answers every list, all records on its one page (4.10, 4.11, 4.6a: "200 { data: [<Bank>] }"; 8: "Rate limits and pagination of list endpoints: not shown": extra headers are not excluded)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || !['/api/v1/user/:user/bank', '/api/v1/user/:user/card', '/api/v1/user/:user/bonus'].includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        const path = reply.request.url.split('?')[0];
        reply.header('x-total-count', String(body.data.length));
        reply.header('link', `<${path}?page=1>; rel="first", <${path}?page=1>; rel="last"`);
        return undefined;
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r10-session-embeds-user',
    'authentication',
    '2.1',
    'the Session also embeds the signed-in user, `user: { id, email, isActive }` (the caller\u2019s own address, as it logged in), as a Rails `render json: session, include: :user` or a .NET login DTO gives it (2.1 lists the fields the Session has, not that it has no others; the caller\u2019s own address is no secret of another)',
    {
      wire(answer, reply) {
        if (!['/api/v1/authenticate', '/api/v1/authenticate-jwt/:platform'].includes(answer.url) || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        if (!body?.data || typeof body.data !== 'object') return undefined;
        const sent = (reply.request.body ?? {}) as { email?: unknown };
        const claims = claimsOf(reply.request as unknown as Seen);
        const email = typeof sent.email === 'string' ? sent.email : typeof claims?.email === 'string' ? claims.email : null;
        body.data.user = { id: body.data.userId, email, isActive: true };
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r10-json-jackson-pretty-printer',
    'authentication',
    '1',
    'every JSON answer is written by Jackson\u2019s DefaultPrettyPrinter, as a Spring Boot team with `spring.jackson.serialization.indent_output=true` sends it: a space on both sides of each colon (`"id" : "..."`), arrays on one line (`[ 1, 2 ]`), empty ones as `[ ]` and `{ }` (1.2: "Requests and responses are JSON"; RFC 8259 2: "Insignificant whitespace is allowed before or after any of the six structural characters")',
    {
      wire(answer) {
        const body = parse(answer.payload);
        return body === undefined ? undefined : jackson(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r10-public-ids-prefixed',
    'bonuses',
    '2.7',
    'an order\u2019s public ids carry a type prefix (`publicId` "ORD-48213", its parent\u2019s and child\u2019s "ORD-...", the quote\u2019s "QUO-..."), as Stripe-style public identifiers are written (2.7: "publicId | string", "parentOrder, childOrder | { id: string or null, publicId: string or null }", "quote | { id: string, publicId: string }": the form of a public id is not given)',
    onSuccess(BONUS_URLS, (body) => {
      const prefixed = (text: unknown, prefix: string) => (typeof text === 'string' && text !== '' && !text.startsWith(prefix) ? `${prefix}${text}` : text);
      for (const bonus of recordsOf(body)) {
        const order = bonus?.order;
        if (!order || typeof order !== 'object') continue;
        order.publicId = prefixed(order.publicId, 'ORD-');
        for (const key of ['parentOrder', 'childOrder']) if (order[key] && typeof order[key] === 'object') order[key].publicId = prefixed(order[key].publicId, 'ORD-');
        if (order.quote && typeof order.quote === 'object') order.quote.publicId = prefixed(order.quote.publicId, 'QUO-');
      }
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r10-jwt-expire-now-to-the-millisecond',
    'authentication',
    '4.1',
    '"now" is the present instant, not the present second: an `expire` of whole seconds that names the current second is already past once that second has begun (10:00:00 when the login arrives at 10:00:00.400), so it is refused 416, as a .NET team comparing `DateTimeOffset.FromUnixTimeSeconds(expire) < DateTimeOffset.UtcNow` (RFC 7519 4.1.4: "the current date/time MUST be before the expiration date/time") does (4.1: "expire (required, timestamp, must be now or later)"; 7: "416 | authenticate-jwt | JWT expired": the resolution of "now" is not given)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || answer.url !== '/api/v1/authenticate-jwt/:platform') return undefined;
        const created = Date.parse(String(parse(answer.payload)?.data?.created ?? ''));
        const expire = claimsOf(reply.request as unknown as Seen)?.expire;
        const at = typeof expire === 'number' ? (expire > 1e11 ? expire : expire * 1000) : typeof expire === 'string' && /^\d+$/.test(expire) ? Number(expire) * (Number(expire) > 1e11 ? 1 : 1000) : typeof expire === 'string' ? Date.parse(expire) : NaN;
        if (Number.isNaN(created) || Number.isNaN(at) || at >= created) return undefined;
        reply.code(416);
        return JSON.stringify({ error: 'The JWT has expired.' });
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r10-fiat-amounts-in-cents',
    'balances',
    '2.2',
    'a balance record\u2019s fiat amounts are written rounded half up to cents, two fraction digits ("1234.57" for 1234.5678, "0.00" for a zero that is not the bare "0"), as a Go team keeping fiat values in integer minor units (ISO 4217 exponent 2) writes them (2.2: "amounts | object | { crypto: <amount set>, fiat: <amount set> }"; 1.5: "Monetary and crypto amounts are decimal strings (up to 25 fractional digits, or the bare string 0)": the scale of a fiat amount is not given)',
    {
      wire(answer) {
        if (answer.status !== 200 || !answer.url.startsWith('/api/v1/user/:user/balances')) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        for (const record of recordsOf(body)) {
          const fiat = record?.amounts?.fiat;
          if (!fiat || typeof fiat !== 'object') continue;
          for (const key of Object.keys(fiat)) if (typeof fiat[key] === 'string') fiat[key] = cents(fiat[key]);
        }
        return JSON.stringify(body);
      },
    },
    only('balances'),
  ),
];

/**
 * Readings of round 10 the suite refused (false failures), kept out of index.ts until the suite is fixed. Run on
 * 2026-11-26 against main at 1cc1c54 (`npm run mutants -- --mutant allowed-r10-... --shards 1`): 22 of 23 conformant.
 * Fixed since (issue 28, branch fix-uuid): every comparison of ids goes through `idKey` / `sameId` / `hasId`
 * (helpers/spec/normalisation.ts), a UUID in any letter case being one id (docs/judging.md, "Letter case of an id"),
 * and the reading is registered; another user's UUID written upper-case still fails (session-userid-another-uuid-upper-case).
 *
 * - allowed-r10-ids-upper-case (34 tests, authentication, banks, bonuses, cards): the suite compares UUIDs as strings,
 *   so the provider state's (lower-case) id and the answer's (upper-case) id differ: "data.userId must be the
 *   authenticated user (section 2.1)"; "the list must hold bonus 58ba94ea-... of the provider state; it holds 5
 *   bonus(es)"; "precondition failed: provider state card.two-platforms reports 2 record(s) on platform REF, but the
 *   user's unfiltered list shows 1b6cca2e-..., 758aad30-... not listed with externalPlatform.code REF". The
 *   specification says "UUID string" (1.6, 2.1, 2.4 ...) and never a letter case; RFC 9562 reads UUIDs in any case on input (it
 *   describes lower-case output, but the specification does not cite it). Not judged yet: the lead's call.
 *   Probe (not committed): with the provider-state hook also writing its UUIDs upper-case (and reading them in any
 *   case), ten of these tests pass: the failures come from the hook and the interface writing one UUID in two
 *   letter cases, which docs/provider-states.md ("id (UUID)") does not exclude.
 */
const REFUSED = new Set<string>([]);

/** The readings of round 10 the suite refused (false failures), kept out of index.ts until the suite is fixed. */
export const readingsR10Refused: Mutant[] = readingsR10Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 10 (registered in index.ts): each must stay conformant. */
export const readingsR10Mutants: Mutant[] = readingsR10Written.filter((mutant) => !REFUSED.has(mutant.name));

