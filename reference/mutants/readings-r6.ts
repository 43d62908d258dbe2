import { deflateSync } from 'node:zlib';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, isSessionAnswer, only, reading, onRoutes, recordsOf, parse, tokenShownAs } from './reading.js';

/**
 * Reading round 6 (issue 28): implementation choices the specification leaves open, each taken the
 * other way from the reference, as a Python/FastAPI, Go, ASP.NET, Java/Spring (behind an HTTP/1.0
 * proxy) or Laravel/PHP (behind nginx) team reading only the specification and
 * docs/provider-states.md would take them. Written without reading the suite. None repeats a reading
 * of rounds 1 to 5 or of the groups' own `allowed-*` mutants. Each description quotes the text that
 * leaves the point open. Readings that need the server's own data are deviations (`r6.*`) the
 * modules honour; the rest change answers only. Run against the suite: 36 of 38 stayed conformant; the
 * two it refused (ordinal and week dates in Session times) were false failures, fixed by issue 28 (see the note
 * at the end of this file), and all 38 are registered.
 */

const JWT_URL = '/api/v1/authenticate-jwt/:platform';
const LOGOUT_URL = '/api/v1/user/logout';
const FORGOT_URL = '/api/v1/user/forgot-password';
const RESET_URL = '/api/v1/user/reset-password';
const BANK_DELETE_URL = '/api/v1/user/:user/bank/:bank';
const BALANCE_URLS = ['/api/v1/user/:user/balances/nft', '/api/v1/user/:user/balances/nft/:asset', '/api/v1/user/:user/balances', '/api/v1/user/:user/balances/:asset'];
const LIST_URLS = ['/api/v1/user/:user/bank', '/api/v1/user/:user/card', '/api/v1/user/:user/bonus'];
const BONUS_ROUTES = ['GET /api/v1/user/{user}/bonus', 'GET /api/v1/user/{user}/bonus/{bonus}'];

const bodyOf = (reply: FastifyReply) => (reply.request.body && typeof reply.request.body === 'object' ? (reply.request.body as Record<string, unknown>) : {});

// ---- JSON writers of other traditions

type Writer = { string(text: string): string; comma: string; colon: string; keys?(keys: string[]): string[] };

/** JSON text of `value` written with the writer's string escaping, separators and key order. */
function write(value: unknown, writer: Writer): string {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? writer.string(value) : JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => write(item === undefined ? null : item, writer)).join(writer.comma)}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  const order = writer.keys ? writer.keys(entries.map(([key]) => key)) : entries.map(([key]) => key);
  const map = new Map(entries);
  return `{${order.map((key) => `${writer.string(key)}${writer.colon}${write(map.get(key), writer)}`).join(writer.comma)}}`;
}

/** Each answer's JSON rewritten by `writer`; a non-JSON answer is left alone. */
function rewriteWith(writer: Writer) {
  return {
    wire(answer: WireAnswer) {
      if (answer.payload === '') return undefined;
      const body = parse(answer.payload);
      return body === undefined ? undefined : write(body, writer);
    },
  };
}

const hex4 = (code: number, upper: boolean) => {
  const text = code.toString(16).padStart(4, '0');
  return `\\u${upper ? text.toUpperCase() : text}`;
};

/** System.Text.Json's default encoder: non-ASCII, HTML-sensitive characters, `+`, `'`, `` ` `` and `"` as \uXXXX (upper-case hex). */
function dotnetString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const char = text[i]!;
    if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\b') out += '\\b';
    else if (char === '\f') out += '\\f';
    else if (code < 0x20 || code > 0x7e || '"&\'+<>`'.includes(char)) out += hex4(code, true);
    else out += char;
  }
  return `${out}"`;
}

/** Java's String.hashCode, the order a HashMap's buckets give its keys. */
function javaHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return hash;
}
const hashMapOrder = (keys: string[]) => {
  const buckets = Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(1, keys.length) / 0.75)));
  const bucketOf = (key: string) => {
    const h = javaHash(key);
    return ((h ^ (h >>> 16)) & (buckets - 1)) >>> 0;
  };
  return [...keys].sort((a, b) => bucketOf(a) - bucketOf(b));
};

// ---- ISO 8601 forms of a session time

const SESSION_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})\.(\d+)Z$/;

/** Rewrites `until` and `created` of a Session answer with `form` (from the parts of the reference's extended writing). */
function sessionTimes(form: (year: number, month: number, day: number, time: string, fraction: string) => string) {
  return {
    wire(answer: WireAnswer) {
      if (!isSessionAnswer(answer)) return undefined;
      const body = parse(answer.payload);
      const session = body?.data;
      if (!session || typeof session !== 'object') return undefined;
      for (const key of ['until', 'created']) {
        const match = typeof session[key] === 'string' ? SESSION_TIME.exec(session[key]) : null;
        if (match) session[key] = form(Number(match[1]), Number(match[2]), Number(match[3]), match[4]!, match[5]!);
      }
      return JSON.stringify(body);
    },
  };
}

const dayOfYear = (year: number, month: number, day: number) => (Date.UTC(year, month - 1, day) - Date.UTC(year, 0, 1)) / 86_400_000 + 1;

/** ISO 8601 week date (year, week, weekday) of a calendar date. */
function isoWeek(year: number, month: number, day: number): [number, number, number] {
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = date.getUTCDay() === 0 ? 7 : date.getUTCDay();
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const weekYear = date.getUTCFullYear();
  const week = Math.ceil(((date.getTime() - Date.UTC(weekYear, 0, 1)) / 86_400_000 + 1) / 7);
  return [weekYear, week, weekday];
}

// ---- Tokens shown in another form (mapped back before the request is authenticated)


const perUserCounter = () => {
  const counts = new Map<string, number>();
  return (_id: string, secret: string, userId: string) => {
    const next = (counts.get(userId) ?? 0) + 1;
    counts.set(userId, next);
    return `${next}|${secret}`;
  };
};

// ---- Records of answers

function onAnswers(urls: readonly string[], change: (body: any, answer: WireAnswer, reply: FastifyReply) => unknown) {
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.status !== 200 || !urls.includes(answer.url) || answer.method !== 'GET') return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      const changed = change(body, answer, reply);
      return JSON.stringify(changed === undefined ? body : changed);
    },
  };
}

const ERROR_CODES: Record<number, string> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  412: 'JWT_PAYLOAD_INVALID',
  416: 'JWT_EXPIRED',
  422: 'VALIDATION_FAILED',
  423: 'ACCOUNT_LOCKED',
  425: 'LOGIN_RESTRICTED',
};

/** The payload of a JWT, read without its signature (the server has already verified it). */
function jwtPayload(token: unknown): any {
  if (typeof token !== 'string') return undefined;
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const maskDomain = (email: string) => {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const label = dot > 0 ? domain.slice(0, dot) : domain;
  const masked = label.length <= 1 ? '*' : `${label[0]}${'*'.repeat(label.length - 1)}`;
  return `${email.slice(0, at)}@${masked}${dot > 0 ? domain.slice(dot) : ''}`;
};

const readingsR6Written: Mutant[] = [
  // ---- JSON encodings (1.2: "Requests and responses are JSON"; RFC 8259 allows each writing)
  reading(
    'allowed-r6-json-python-separators',
    'authentication',
    '1',
    'every answer written as Python\u2019s json.dumps writes it by default: one line with a space after each `,` and `:` (`{"data": {"id": "..."}}`) (1.2: "Requests and responses are JSON"; RFC 8259 allows insignificant white space around structural characters)',
    rewriteWith({ string: (text) => JSON.stringify(text), comma: ', ', colon: ': ' }),
    ALL,
  ),
  reading(
    'allowed-r6-json-trailing-newline',
    'authentication',
    '1',
    'every JSON answer ends with a newline, as Go\u2019s json.Encoder writes it (1.2: "responses are JSON"; RFC 8259: white space may follow the value)',
    {
      wire(answer) {
        return answer.payload !== '' && parse(answer.payload) !== undefined ? `${answer.payload}\n` : undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-json-go-html-escapes',
    'authentication',
    '1',
    'strings written as Go\u2019s encoding/json writes them: `<`, `>`, `&`, U+2028 and U+2029 as \\u003c, \\u003e, \\u0026, \\u2028, \\u2029 (1.2: "JSON"; RFC 8259: any character may be escaped)',
    {
      wire(answer) {
        if (answer.payload === '' || parse(answer.payload) === undefined) return undefined;
        return answer.payload.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-json-dotnet-escapes',
    'authentication',
    '1',
    'strings written as ASP.NET\u2019s System.Text.Json default encoder writes them: every non-ASCII character and `"`, `&`, `\'`, `+`, `<`, `>`, `` ` `` as \\uXXXX with upper-case hex (`\\u0022`, `\\u002B`, `\\u00E9`) (1.2: "JSON"; RFC 8259: any character may be escaped, hex digits in either case)',
    rewriteWith({ string: dotnetString, comma: ',', colon: ':' }),
    ALL,
  ),
  reading(
    'allowed-r6-json-keys-hash-order',
    'bonuses',
    '1',
    'the members of every object written in a Java HashMap\u2019s order (by the key\u2019s hash bucket), neither alphabetical nor the table\u2019s order: `{"data":...}` keeps its member, a record\u2019s keys are shuffled (1.2: "JSON"; RFC 8259: an object is an unordered collection)',
    rewriteWith({ string: (text) => JSON.stringify(text), comma: ',', colon: ':', keys: hashMapOrder }),
    ALL,
  ),

  // ---- HTTP framing and headers
  reading(
    'allowed-r6-content-type-charset-quoted',
    'authentication',
    '1',
    'answers labelled `application/json; charset="utf-8"`, the parameter value quoted as an HTTP/1.0 proxy rewrites it (1.2: "Requests and responses are JSON"; RFC 9110 8.3.1: a parameter value may be a quoted-string, equivalent to the token)',
    { contentType: 'application/json; charset="utf-8"' },
    ALL,
  ),
  reading(
    'allowed-r6-connection-close',
    'authentication',
    '1',
    'every answer says `Connection: close` and the connection is closed after it, as behind an HTTP/1.0 proxy without keep-alive (1 names no transport rule; HTTP lets either side close after an answer)',
    {
      wire(_answer, reply) {
        reply.header('connection', 'close');
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-deflate-when-accepted',
    'authentication',
    '1',
    'answers compressed with `Content-Encoding: deflate` (zlib) whenever the request\u2019s Accept-Encoding names deflate, in preference to gzip, as IIS\u2019s dynamic compression may choose (1.2 is silent on content codings; HTTP lets the server choose among those accepted)',
    {
      wire(answer, reply) {
        const accepted = String(reply.request.headers['accept-encoding'] ?? '');
        if (!/\bdeflate\b(?!\s*;\s*q=0(\.0*)?\b)/i.test(accepted) || answer.payload.length === 0) return undefined;
        reply.header('content-encoding', 'deflate');
        reply.header('vary', 'Accept-Encoding');
        reply.removeHeader('content-length');
        return Readable.from([deflateSync(answer.payload)]);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-login-token-in-headers',
    'authentication',
    '2.1',
    'a login\u2019s answer also carries the issued token in the headers `Authorization: Bearer <id>` and `X-Auth-Token: <id>`, as a Spring Security team\u2019s filter returns it (5.2: "Both return a Session (2.1)"; extra headers, and credentials issued to the caller in the answer to its own authentication, are not forbidden)',
    {
      wire(answer, reply) {
        if (!isSessionAnswer(answer)) return undefined;
        const id = parse(answer.payload)?.data?.id;
        if (typeof id !== 'string') return undefined;
        reply.header('authorization', `Bearer ${id}`);
        reply.header('x-auth-token', id);
        return undefined;
      },
    },
    ALL,
  ),

  // ---- Session times: other ISO 8601 forms (1.4: "ISO 8601 UTC strings with microseconds")
  reading(
    'allowed-r6-session-times-seven-digits',
    'authentication',
    '2.1',
    '`until` and `created` written as .NET\u2019s round-trip format "o" writes a UTC DateTime: seven fraction digits (ticks of 100 ns), `2026-11-26T08:18:18.8911570Z` (1.4: "ISO 8601 UTC strings with microseconds": the microseconds are there; ISO 8601 allows more fraction digits)',
    sessionTimes((year, month, day, time, fraction) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${time}.${fraction.padEnd(6, '0').slice(0, 6)}0Z`),
    ALL,
  ),
  reading(
    'allowed-r6-session-times-ordinal-date',
    'authentication',
    '2.1',
    '`until` and `created` written with ISO 8601\u2019s ordinal date (year and day of the year), `2026-330T08:18:18.891157Z` (1.4: "ISO 8601 UTC strings with microseconds"; ISO 8601-1 5.2.3 makes the ordinal date a complete representation of a calendar day, combinable with a time of day)',
    sessionTimes((year, month, day, time, fraction) => `${year}-${String(dayOfYear(year, month, day)).padStart(3, '0')}T${time}.${fraction}Z`),
    ALL,
  ),
  reading(
    'allowed-r6-session-times-week-date',
    'authentication',
    '2.1',
    '`until` and `created` written with ISO 8601\u2019s week date (week-year, week, weekday), `2026-W48-4T08:18:18.891157Z` (1.4: "ISO 8601 UTC strings with microseconds"; ISO 8601-1 5.2.4 makes the week date a complete representation of a calendar day, combinable with a time of day)',
    sessionTimes((year, month, day, time, fraction) => {
      const [weekYear, week, weekday] = isoWeek(year, month, day);
      return `${weekYear}-W${String(week).padStart(2, '0')}-${weekday}T${time}.${fraction}Z`;
    }),
    ALL,
  ),

  // ---- Tokens: the numeric id's scope and form (2.1: "form <numeric_id>|<secret>")
  reading(
    'allowed-r6-token-id-counted-per-user',
    'authentication',
    '2.1',
    'the `<numeric_id>` of a token counts the user\u2019s own tokens (1, 2, 3 for each user), so two users hold tokens `1|...`; the secret tells them apart (2.1: "Access token, form <numeric_id>|<secret>": the scope of the numeric id is not given)',
    tokenShownAs(perUserCounter()),
    ALL,
  ),
  reading(
    'allowed-r6-token-id-zero-padded',
    'authentication',
    '2.1',
    'the `<numeric_id>` of a token is written with ten digits, zero-padded (`0000000042|...`), as a fixed-width key column gives it (2.1: "form <numeric_id>|<secret>": the writing of the number is not given)',
    tokenShownAs((id, secret) => `${id.padStart(10, '0')}|${secret}`),
    ALL,
  ),

  // ---- Extra members of the exceptional answers (1.3: "logout returns { status }; bank delete returns { message }")
  reading(
    'allowed-r6-logout-extra-members',
    'authentication',
    '4.5',
    'logout answers `{ status, message, revokedAt }`: the status, a sentence and the Unix second the token was revoked (4.5: "200: { status: string }"; extra members are not forbidden)',
    {
      wire(answer) {
        if (answer.url !== LOGOUT_URL || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object') return undefined;
        return JSON.stringify({ ...body, message: 'Token revoked.', revokedAt: Math.floor(Date.now() / 1000) });
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-bank-delete-names-record',
    'banks',
    '4.10',
    'a bank delete answers `{ message, data: { id, deletedAt } }`: the message and which bank was deleted when, as a Laravel resource answer carries (4.10: "Delete ... 200 { message: string }"; extra members are not forbidden)',
    {
      wire(answer, reply) {
        if (answer.method !== 'DELETE' || answer.url !== BANK_DELETE_URL || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object') return undefined;
        const id = (reply.request.params as Record<string, unknown> | undefined)?.bank;
        return JSON.stringify({ ...body, data: { id, deletedAt: Math.floor(Date.now() / 1000) } });
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-forgot-answer-extra-members',
    'password',
    '4.3',
    'forgot-password answers `{ data: { message, type, expiresIn } }`: the message, how the token is shown (`text` unless `link` was asked) and the token\u2019s lifetime in seconds (4.3: "200: { data: { message: string } }"; extra members are not forbidden)',
    {
      wire(answer, reply) {
        if (answer.url !== FORGOT_URL || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        if (!body?.data || typeof body.data !== 'object') return undefined;
        body.data.type = bodyOf(reply).type === 'link' ? 'link' : 'text';
        body.data.expiresIn = 3600;
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-reset-answer-names-account',
    'password',
    '4.4',
    'reset-password answers `{ data: { message, email } }`: the message and the address whose password was changed (the caller\u2019s own, which it sent) (4.4: "200: { data: { message: string } }"; extra members are not forbidden)',
    {
      wire(answer, reply) {
        if (answer.url !== RESET_URL || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        const email = bodyOf(reply).email;
        if (!body?.data || typeof body.data !== 'object' || typeof email !== 'string') return undefined;
        body.data.email = email;
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-answers-self-links',
    'banks',
    '1',
    'every successful answer with `data` also carries `links: { self: <the request\u2019s path> }`, as a Spring HATEOAS team writes it (1.3: "wrapped as { data: <record> }"; members beside `data` are not forbidden)',
    {
      wire(answer, reply) {
        if (answer.status < 200 || answer.status > 299) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object' || Array.isArray(body) || !('data' in body)) return undefined;
        return JSON.stringify({ ...body, links: { self: reply.request.url } });
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-error-codes',
    'banks',
    '7',
    'every error body also carries a machine-readable `code` (`"UNAUTHENTICATED"`, `"VALIDATION_FAILED"`, `"JWT_EXPIRED"`...) beside its `error` or `message` (7: "Machine-readable error codes beyond HTTP status and message: not shown")',
    {
      wire(answer) {
        if (answer.status < 400) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
        return JSON.stringify({ ...body, code: ERROR_CODES[answer.status] ?? `HTTP_${answer.status}` });
      },
    },
    ALL,
  ),

  // ---- Balances (2.2, 4.6 to 4.9)
  reading(
    'allowed-r6-balances-data-extra-members',
    'balances',
    '4.8',
    'the coin list answers `{ data: { coins: [...], fiatCurrency: "EUR", updatedAt: <Unix seconds> } }`: the currency of the fiat amounts and the time of the valuation beside the list (4.8: "200: { data: { coins: [<Balance record>, ...] } }"; extra members are not forbidden)',
    onAnswers(['/api/v1/user/:user/balances'], (body) => {
      if (body?.data && typeof body.data === 'object' && !Array.isArray(body.data)) {
        body.data.fiatCurrency = 'EUR';
        body.data.updatedAt = Math.floor(Date.now() / 1000);
      }
    }),
    only('balances'),
  ),
  reading(
    'allowed-r6-balance-alias-null',
    'balances',
    '2.2',
    'a balance record\u2019s `alias` is null for every asset: the service keeps no alias of its own (2.2: "alias | string or null")',
    onAnswers(BALANCE_URLS, (body) => {
      for (const record of recordsOf(body)) if (record && typeof record === 'object' && 'alias' in record) record.alias = null;
    }),
    only('balances'),
  ),
  reading(
    'allowed-r6-balance-description-more-languages',
    'balances',
    '2.2',
    'a balance record\u2019s `description` holds more languages than `en`: `es` and `de` entries beside it (2.2: "Map from language code (for example en) to text")',
    onAnswers(BALANCE_URLS, (body) => {
      for (const record of recordsOf(body)) {
        const description = record?.description;
        if (description && typeof description === 'object' && typeof description.en === 'string') {
          description.es = `(es) ${description.en}`;
          description.de = `(de) ${description.en}`;
        }
      }
    }),
    only('balances'),
  ),

  // ---- Lists: order and size (8: "Rate limits and pagination of list endpoints: not shown")
  reading(
    'allowed-r6-lists-ordered-by-id',
    'banks',
    '4.10',
    'the bank, card and bonus lists are ordered by record id (the primary key a query without ORDER BY follows), which for random UUIDs is no order of time (4.10, 4.6a, 4.11: "{ data: [<Bank>] }": no order given)',
    onAnswers(LIST_URLS, (body) => {
      if (Array.isArray(body?.data)) body.data.sort((a: any, b: any) => String(a?.id).localeCompare(String(b?.id)));
    }),
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r6-lists-first-page-of-15',
    'banks',
    '8',
    'the bank, card and bonus lists are paginated as Laravel\u2019s paginate() does by default: the newest 15 records in `data`, and `meta: { current_page, per_page, total }` (8: "pagination of list endpoints: not shown")',
    onAnswers(LIST_URLS, (body) => {
      if (!Array.isArray(body?.data)) return undefined;
      const total = body.data.length;
      return { ...body, data: body.data.slice(0, 15), meta: { current_page: 1, per_page: 15, total } };
    }),
    only('banks', 'cards', 'bonuses'),
  ),

  // ---- Bonuses (2.6)
  reading(
    'allowed-r6-email-mask-domain-too',
    'bonuses',
    '2.6',
    'a bonus\u2019s user `email` is masked in its domain too: the domain\u2019s first label keeps its first letter only (`jo**@e******.com`) (2.6: "masked by the service (partially replaced with asterisks)": which part is not given)',
    {
      transforms: onRoutes(BONUS_ROUTES, (body) => {
        for (const bonus of recordsOf(body)) if (typeof bonus?.user?.email === 'string') bonus.user.email = maskDomain(bonus.user.email);
      }, 200),
    },
    only('bonuses'),
  ),

  // ---- Precedence of errors (4.1 and 7 give no order between 412 and 416)
  reading(
    'allowed-r6-jwt-expiry-before-payload',
    'authentication',
    '4.1',
    'a JWT whose `expire` is past answers 416 even when its payload names no user (no `email` nor `id`): expiry is checked first, as a JWT library checks registered claims before the application reads its own (4.1: "412 (JWT payload invalid), 416 (JWT expired)": which wins when both hold is not given)',
    {
      wire(answer, reply) {
        if (answer.url !== JWT_URL || answer.status !== 412) return undefined;
        const expire = jwtPayload(reply.request.headers.token)?.expire;
        if (typeof expire !== 'number' || !Number.isFinite(expire) || expire >= Date.now() / 1000) return undefined;
        reply.code(416);
        return JSON.stringify({ error: 'The JWT has expired.' });
      },
    },
    ALL,
  ),

  reading(
    'allowed-r6-texts-stored-nfd',
    'cards',
    '2.5',
    'bank and card texts (`bankName`, `holderName`, `alias`) are stored and shown in Unicode NFD, as a file system or a macOS client normalises them (`Mu\\u0308ller` for `M\\u00fcller`) (2.4/2.5 and 4.10/4.6a state no normalisation of what is stored; the same text, canonically equivalent)',
    {
      wire(answer) {
        if (answer.status !== 200 && answer.status !== 201) return undefined;
        if (!['/api/v1/user/:user/bank', '/api/v1/user/:user/bank/:bank', '/api/v1/user/:user/card', '/api/v1/user/:user/card/:card'].includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        for (const record of recordsOf(body)) {
          for (const key of ['bankName', 'holderName', 'alias']) if (typeof record?.[key] === 'string') record[key] = record[key].normalize('NFD');
        }
        return JSON.stringify(body);
      },
    },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r6-reads-cacheable-privately',
    'authentication',
    '1',
    'a successful GET answer says `Cache-Control: private, max-age=5` with `Expires`, so a browser may reuse it for five seconds and no shared cache (an HTTP/1.0 proxy) may store it (1 and 8 say nothing of caching; HTTP lets the origin set freshness)',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200) return undefined;
        reply.header('cache-control', 'private, max-age=5');
        reply.header('expires', new Date(Date.now() + 5000).toUTCString());
        return undefined;
      },
    },
    ALL,
  ),

  reading(
    'allowed-r6-create-answers-message',
    'banks',
    '1',
    'a bank or card create answers `{ message, data }`: a sentence ("Bank created.", "Card created.") beside the record, as a Laravel controller returns it (1.3: "Successful single-record responses are wrapped as { data: <record> }"; members beside `data` are not forbidden)',
    {
      wire(answer) {
        if (answer.method !== 'POST' || answer.status !== 201) return undefined;
        const kind = answer.url === '/api/v1/user/:user/bank' ? 'Bank' : answer.url === '/api/v1/user/:user/card' ? 'Card' : undefined;
        const body = kind ? parse(answer.payload) : undefined;
        if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
        return JSON.stringify({ message: `${kind} created.`, ...body });
      },
    },
    only('banks', 'cards'),
  ),

  reading(
    'allowed-r6-error-bodies-data-null',
    'banks',
    '7',
    'every error body also carries `data: null` beside its `error` or `message` (and `errors`), as a JSend-minded or Laravel API-resource team writes each answer with a `data` member (7: the formats name the members an error has; members beside them are not forbidden)',
    {
      wire(answer) {
        if (answer.status < 400) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object' || Array.isArray(body) || 'data' in body) return undefined;
        return JSON.stringify({ ...body, data: null });
      },
    },
    ALL,
  ),
  reading(
    'allowed-r6-card-image-ids-counted-per-user',
    'cards',
    '2.5',
    '`cardImage1`/`cardImage2` are the user\u2019s own sequence numbers of stored images, as strings ("1", "2", "3"...): two users both have an image "1" (2.5: "Identifier of the stored first image": neither form nor scope given)',
    (() => {
      const numbers = new Map<string, Map<string, string>>();
      const CARD_URLS = ['/api/v1/user/:user/card', '/api/v1/user/:user/card/:card'];
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if ((answer.status !== 200 && answer.status !== 201) || !CARD_URLS.includes(answer.url)) return undefined;
          const user = String((reply.request.params as Record<string, unknown> | undefined)?.user ?? '').toLowerCase();
          const body = parse(answer.payload);
          if (body === undefined) return undefined;
          const own = numbers.get(user) ?? new Map<string, string>();
          numbers.set(user, own);
          for (const card of recordsOf(body)) {
            for (const key of ['cardImage1', 'cardImage2']) {
              const id = card?.[key];
              if (typeof id !== 'string' || id === '') continue;
              if (!own.has(id)) own.set(id, String(own.size + 1));
              card[key] = own.get(id);
            }
          }
          return JSON.stringify(body);
        },
      };
    })(),
    only('cards'),
  ),

  // ---- Server data (deviations the modules honour)
  reading(
    'allowed-r6-iban-unique-per-platform',
    'banks',
    '4.10',
    'an iban is unique among the banks of one platform (the tenant the account belongs to): a duplicate on the caller\u2019s platform is refused 422, the same iban on another platform\u2019s account is accepted (4.10: "iban ... unique"; 8: "bank.iban | max 191, unique": among what is not given)',
    { deviation: 'r6.iban-unique-per-platform' },
    only('banks'),
  ),
  reading(
    'allowed-r6-ids-uuid-v7',
    'banks',
    '2.4',
    'bank and card ids are time-ordered UUIDs of version 7 (RFC 9562), as a Postgres 18 or Go team\u2019s uuid.NewV7 makes them (2.4/2.5: "id | string (UUID)": the version is not given)',
    { deviation: 'r6.ids-uuid-v7' },
    ALL,
  ),
  reading(
    'allowed-r6-alphanumeric-ascii-only',
    'banks',
    '4.10',
    '"alphanumeric" is ASCII letters and digits only (`[A-Za-z0-9]`, as a Java or Go pattern writes it): an iban or swift with a letter outside ASCII (`É`, `ß`) is refused 422 (4.10: "iban ... alphanumeric"; "swift ... alphanumeric": which alphabet is not given)',
    { deviation: 'r6.alphanumeric-ascii-only' },
    only('banks'),
  ),
  reading(
    'allowed-r6-company-filter-search',
    'banks',
    '4.10',
    'the `company` filter of the bank and card lists is a search term: it matches a record whose platform\u2019s code or name contains it, in any letter case (SQL LIKE \u2019%value%\u2019), as a Laravel team\u2019s search scope does (4.10: "query: status, currency, company, platform (all optional filters, strings)"; 4.6a the same: what `company` is compared with, and how, is not given)',
    { deviation: 'r6.company-filter-search' },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r6-lengths-in-graphemes',
    'cards',
    '8',
    'the 191-character limits of `bankName`, `holderName` and `alias` count user-perceived characters (extended grapheme clusters, UAX #29, as Swift\u2019s String.count or ICU counts them): `e` with a combining accent is one character, so 191 of them pass (8: "max 191"; 4.10/4.6a: "max 191": what a character is, code point or grapheme, is not given)',
    { deviation: 'r6.lengths-in-graphemes' },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r6-image-limit-si-kilobytes',
    'cards',
    '8',
    'the image limit counts kilobytes of the SI, 1000 bytes: 10240 KB is 10 240 000 bytes, and an image between that and 10 485 760 bytes is refused 422 (4.6a/8: "max 10240 KB": KB is 1000 bytes in the SI and IEC 80000-13, 1024 only by custom (KiB))',
    { deviation: 'r6.image-limit-si-kilobytes' },
    only('cards'),
  ),
];

/**
 * Readings of round 6 the suite refused at first (false failures), now fixed and registered with the rest.
 *
 * - allowed-r6-session-times-ordinal-date and allowed-r6-session-times-week-date: caught as false failures, 12
 *   authentication tests each, every test that reads a Session (post-authenticate-answers-200-with-a-session-for-a-
 *   valid-e-mail-and-password, the microsecond, ttl and created tests, their authenticate-jwt twins, the 2fa logins
 *   ...), each with "schema session-response: /data/until (pattern), /data/created (pattern)". Argument: 1.4 asks
 *   for "ISO 8601 UTC strings with microseconds" and nothing more. ISO 8601-1 gives three complete representations
 *   of a calendar day, calendar (YYYY-MM-DD), ordinal (YYYY-DDD, 5.2.3) and week (YYYY-Www-D, 5.2.4), each
 *   combinable with a time of day and `Z` (5.4.2); the suite's pattern admitted the calendar date alone (RFC 3339's
 *   profile, which the specification does not name). Fixed by issue 28: schemas/common.json's `isoMicrosUtc`
 *   pattern (which the OpenAPI document takes) and helpers/spec/utc-time.ts's parser read every complete ISO 8601
 *   UTC date and time, calendar, ordinal or week date, basic or extended (test/utc-time.test.ts). Only what holds
 *   under every reading (an ISO 8601 UTC time, with six or more fraction digits across Sessions) may fail.
 */

/** The readings of round 6 (registered in index.ts): each must stay conformant. */
export const readingsR6Mutants: Mutant[] = readingsR6Written;
