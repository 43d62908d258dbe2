import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { brotliCompressSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, only, reading, onRoutes, recordsOf, parse } from './reading.js';

/**
 * Reading round 4: implementation choices the specification leaves open, each taken the other way
 * from the reference, as a Spring, Go, Rails, .NET, Laravel or Node team reading only the
 * specification and docs/provider-states.md would take them. None repeats a reading of rounds 1 to 3
 * or of the groups' own `allowed-*` mutants. Every one must stay conformant; each description quotes
 * the text that leaves the point open.
 */

const LOGIN_URL = '/api/v1/authenticate';
const JWT_URL = '/api/v1/authenticate-jwt/:platform';
const LOGOUT_URL = '/api/v1/user/logout';
const BANK_CREATE = 'POST /api/v1/user/{user}/bank';
const BANK_LIST = 'GET /api/v1/user/{user}/bank';
const BANK_SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const CARD_CREATE = 'POST /api/v1/user/{user}/card';
const CARD_LIST = 'GET /api/v1/user/{user}/card';
const CARD_SHOW = 'GET /api/v1/user/{user}/card/{card}';
const BANK_ROUTES = [BANK_CREATE, BANK_LIST, BANK_SHOW];
const CARD_ROUTES = [CARD_CREATE, CARD_LIST, CARD_SHOW];
const BONUS_LIST = 'GET /api/v1/user/{user}/bonus';
const BONUS_SHOW = 'GET /api/v1/user/{user}/bonus/{bonus}';
const BONUS_SUMMARY = 'GET /api/v1/user/{user}/bonus/assets/{asset?}';
const BALANCE_ROUTES = ['GET /api/v1/user/{user}/balances/nft', 'GET /api/v1/user/{user}/balances/nft/{asset}', 'GET /api/v1/user/{user}/balances', 'GET /api/v1/user/{user}/balances/{asset}'];
const COIN_LIST = 'GET /api/v1/user/{user}/balances';
const NFT_LIST = 'GET /api/v1/user/{user}/balances/nft';

const bearerOf = (reply: FastifyReply) => /^Bearer\s+(.+)$/i.exec(reply.request.headers.authorization ?? '')?.[1]?.trim();
const isProtected = (url: string) => url.startsWith('/api/v1/user/') && url !== '/api/v1/user/forgot-password' && url !== '/api/v1/user/reset-password';
const UNAUTHENTICATED = JSON.stringify({ error: 'Unauthenticated.' });
const paramOf = (reply: FastifyReply, name: string) => (reply.request.params as Record<string, string> | undefined)?.[name];

/** A UUID-shaped identifier derived from `seed` (stable: the same record shows the same one on every answer). */
function uuidOf(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The sessions the server issued (token → user, time), from its login answers. */
function sessions() {
  const byToken = new Map<string, { userId: string; at: number }>();
  return {
    note(answer: WireAnswer): boolean {
      if (answer.status !== 200 || (answer.url !== LOGIN_URL && answer.url !== JWT_URL)) return false;
      const session = parse(answer.payload)?.data;
      if (typeof session?.id !== 'string' || typeof session.userId !== 'string') return false;
      byToken.set(session.id, { userId: session.userId, at: Date.now() });
      return true;
    },
    of: (token: string | undefined) => (token ? byToken.get(token) : undefined),
  };
}

/** A decimal zero written with `places` fractional digits (at most 25, 1.5). */
const zeroWith = (places: number) => (places > 0 ? `0.${'0'.repeat(Math.min(25, places))}` : '0');

const STATUS_ORDER: Record<string, number> = { distributed: 0, pending: 1, canceled: 2 };

export const readingsR4Mutants: Mutant[] = [
  // ---- Authentication, sessions and logout (2.1, 1.4, 4.5, 5)
  reading(
    'allowed-r4-session-quarter-hour',
    'authentication',
    '2.1',
    'a session lives 15 minutes (ttl 900, until 15 min after created; a Spring/JWT team\u2019s default) instead of 2 hours, and its token is refused (401) after that; short sessions of user.short-session are kept (8: "Session lifetime is given per session by ttl"; 2.1: "ttl integer, lifetime in seconds")',
    (() => {
      const book = sessions();
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (book.note(answer)) {
            const body = parse(answer.payload);
            const session = body.data;
            if (session.ttl <= 900) return;
            session.ttl = 900;
            const fraction = /\.\d+Z$/.exec(session.created)?.[0] ?? 'Z';
            session.until = new Date(Math.floor(Date.parse(session.created) / 1000) * 1000 + 900_000).toISOString().replace(/\.\d{3}Z$/, '') + fraction;
            return JSON.stringify(body);
          }
          if (!isProtected(answer.url)) return;
          const session = book.of(bearerOf(reply));
          if (!session || Date.now() - session.at <= 900_000) return;
          reply.code(401);
          return UNAUTHENTICATED;
        },
      };
    })(),
    only('authentication', 'password'),
  ),
  reading(
    'allowed-r4-session-true-microseconds',
    'authentication',
    '1',
    'until and created carry real microseconds ("…40.577318Z", Java Instant / PHP DateTime), not milliseconds padded with 000 (1.4: "ISO 8601 UTC strings with microseconds")',
    {
      transforms: onRoutes([`POST ${LOGIN_URL}`, 'POST /api/v1/authenticate-jwt/{platform}'], (body) => {
        const micro = String(1 + Math.floor(Math.random() * 999)).padStart(3, '0');
        for (const field of ['until', 'created']) if (typeof body.data?.[field] === 'string') body.data[field] = body.data[field].replace(/\.(\d{3})0{3}Z$/, `.$1${micro}Z`);
      }, 200),
    },
    only('authentication'),
  ),
  reading(
    'allowed-r4-token-answer-no-store',
    'authentication',
    '2.1',
    'both logins\u2019 200 carry `Cache-Control: no-store` and `Pragma: no-cache`, as RFC 6749 \u00a75.1 asks of token answers (2.1 and 5.2 say what the body returns, nothing of headers)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || (answer.url !== LOGIN_URL && answer.url !== JWT_URL)) return;
        reply.header('cache-control', 'no-store');
        reply.header('pragma', 'no-cache');
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r4-logout-clear-site-data',
    'authentication',
    '4.5',
    'a 200 of logout carries `Clear-Site-Data: "cache", "cookies", "storage"` (OWASP logout advice; 4.5 fixes only `200 { status: string }`)',
    {
      wire(answer, reply) {
        if (answer.url === LOGOUT_URL && answer.status === 200) reply.header('clear-site-data', '"cache", "cookies", "storage"');
      },
    },
    only('authentication'),
  ),
  // False failure found in round 4 (kept registered, not fixed here): the 14 "answers the whole access
  // table in every path shape" tests log one session of a user out (row logged-out-password) and then
  // use another session of the same user (row another-user), expecting 403/409; this reading answers 401.
  reading(
    'allowed-r4-logout-ends-every-session',
    'authentication',
    '4.5',
    'logout destroys every token of the user (Laravel\u2019s `$user->tokens()->delete()`, "log out everywhere"), so the user\u2019s other sessions answer 401 too (4.5: "Destroys the token"; 5.4: nothing says the user\u2019s other tokens survive)',
    (() => {
      const book = sessions();
      const endedAt = new Map<string, number>();
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (book.note(answer)) return;
          if (!isProtected(answer.url)) return;
          const session = book.of(bearerOf(reply));
          if (!session) return;
          const ended = endedAt.get(session.userId);
          if (ended !== undefined && session.at <= ended) {
            reply.code(401);
            return UNAUTHENTICATED;
          }
          if (answer.url === LOGOUT_URL && answer.status === 200) endedAt.set(session.userId, Date.now());
        },
      };
    })(),
    ALL,
  ),

  // ---- Password reset (4.3, 4.4)
  reading(
    'allowed-r4-reset-earlier-tokens-valid',
    'password',
    '4.4',
    'a second forgot-password does not void the token of the first: every token sent and not yet spent is valid for its hour, until a reset spends them all (signed-token resets, Rails generates_token_for; 4.4: "the token received by e-mail", not only the latest)',
    { deviation: 'r4.reset-earlier-tokens-valid' },
    only('password'),
  ),

  reading(
    'allowed-r4-password-answers-broker-status',
    'password',
    '4.3',
    'the 200 of forgot-password and reset-password also carries the password broker\u2019s status key beside the text, `{ data: { message, status: "passwords.sent" | "passwords.reset" } }` (Laravel Password::sendResetLink/reset; 4.3 and 4.4: "200 { data: { message: string } }", the member it has, not that it has no other)',
    {
      transforms: [
        { route: 'POST /api/v1/user/forgot-password', status: 200, apply: (body) => void (body?.data && typeof body.data === 'object' ? (body.data.status = 'passwords.sent') : undefined) },
        { route: 'POST /api/v1/user/reset-password', status: 200, apply: (body) => void (body?.data && typeof body.data === 'object' ? (body.data.status = 'passwords.reset') : undefined) },
      ],
    },
    only('password'),
  ),

  // ---- Balances (2.2, 1.5, 4.6-4.9)
  reading(
    'allowed-r4-balances-largest-value-first',
    'balances',
    '4.8',
    'the coin and NFT lists are ordered by fiat value available, largest first, ties by symbol (a wallet\u2019s view; 4.6 and 4.8 give no order)',
    {
      transforms: onRoutes([COIN_LIST, NFT_LIST], (body) => {
        recordsOf(body).sort((a, b) => Number(b?.amounts?.fiat?.available ?? 0) - Number(a?.amounts?.fiat?.available ?? 0) || String(a.symbol).localeCompare(String(b.symbol)));
      }, 200),
    },
    only('balances'),
  ),
  reading(
    'allowed-r4-zero-amounts-with-precision',
    'balances',
    '1',
    'a zero amount is written with the asset\u2019s decimal places like every other amount of it ("0.00000000", fiat "0.00") rather than the bare "0" (1.5: "decimal strings (up to 25 fractional digits, or the bare string 0)": the bare 0 is allowed, not required)',
    {
      transforms: onRoutes(BALANCE_ROUTES, (body) => {
        for (const record of recordsOf(body)) {
          const places = Number(record?.precision);
          for (const [kind, digits] of [['crypto', Number.isInteger(places) ? places : 0], ['fiat', 2]] as const) {
            const set = record?.amounts?.[kind];
            if (set) for (const key of Object.keys(set)) if (set[key] === '0') set[key] = zeroWith(digits);
          }
        }
      }, 200),
    },
    only('balances'),
  ),
  reading(
    'allowed-r4-balance-extra-members',
    'balances',
    '2.2',
    'every balance record also carries `fiatCurrency: "EUR"` and `rate` (the fiat price of one unit, a decimal string), which a UI needs beside the fiat amounts (2.2 lists the fields a record has, not that it has no others)',
    {
      transforms: onRoutes(BALANCE_ROUTES, (body) => {
        for (const record of recordsOf(body)) Object.assign(record, { fiatCurrency: 'EUR', rate: '1.00' });
      }, 200),
    },
    only('balances'),
  ),

  // ---- Banks (2.4, 4.10, 7)
  reading(
    'allowed-r4-bank-list-by-name',
    'banks',
    '4.10',
    'the bank list is ordered by bank name, A to Z, ties by id (4.10 gives no order)',
    { transforms: onRoutes([BANK_LIST], (body) => void recordsOf(body).sort((a, b) => String(a.bankName).localeCompare(String(b.bankName)) || String(a.id).localeCompare(String(b.id))), 200) },
    only('banks'),
  ),
  reading(
    'allowed-r4-not-found-model-class',
    'banks',
    '7',
    'a 404 names the model by its class, as Laravel words it: "No query results for model [App\\Models\\Bank] <id>" (7: "no record found (message: no query results)")',
    {
      wire(answer) {
        if (answer.status !== 404) return;
        const body = parse(answer.payload);
        if (typeof body?.message !== 'string' || !body.message.startsWith('No query results for model [')) return;
        body.message = body.message.replace(/\[(\w+)\]/, '[App\\Models\\$1]');
        return JSON.stringify(body);
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r4-records-updated-at',
    'banks',
    '2.4',
    'bank, card and bonus records also carry `updatedAt` (Unix seconds, the framework\u2019s second timestamp; 2.4, 2.5 and 2.5a list the fields a record has, not that it has no others)',
    {
      transforms: onRoutes([...BANK_ROUTES, ...CARD_ROUTES, BONUS_LIST, BONUS_SHOW], (body) => {
        for (const record of recordsOf(body)) if (typeof record?.createdAt === 'number') record.updatedAt = record.createdAt;
      }),
    },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r4-records-user-id',
    'cards',
    '2.5',
    'bank and card records also carry `userId`, their owner (a serialized entity with its foreign key; 2.4 and 2.5 list fields, not that there are no others)',
    {
      wire(answer, reply) {
        if (!/^\/api\/v1\/user\/:user\/(bank|card)/.test(answer.url) || answer.status >= 300) return;
        const body = parse(answer.payload);
        const records = recordsOf(body);
        if (records.length === 0) return;
        for (const record of records) record.userId = paramOf(reply, 'user');
        return JSON.stringify(body);
      },
    },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r4-external-platform-extra-members',
    'banks',
    '2.4',
    'a bank\u2019s and a card\u2019s `externalPlatform` also carries `id` and `color_code`, as the order\u2019s does (2.4: "externalPlatform object { code, name, url }": the members it has, not that it has no others)',
    {
      transforms: onRoutes([...BANK_ROUTES, ...CARD_ROUTES], (body) => {
        for (const record of recordsOf(body)) if (record?.externalPlatform && typeof record.externalPlatform === 'object') Object.assign(record.externalPlatform, { id: uuidOf(`platform:${record.externalPlatform.code}`), color_code: '#1A73E8' });
      }),
    },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r4-platform-url-trailing-slash',
    'banks',
    '2.4',
    'a platform\u2019s `url` is written with a trailing slash ("https://exchange.reference.test/", the WHATWG URL serialisation of an origin\u2019s root; 2.4: "url: string")',
    {
      transforms: onRoutes([...BANK_ROUTES, ...CARD_ROUTES], (body) => {
        for (const record of recordsOf(body)) {
          const platform = record?.externalPlatform;
          if (typeof platform?.url === 'string' && !platform.url.endsWith('/')) platform.url = `${platform.url}/`;
        }
      }),
    },
    only('banks', 'cards'),
  ),

  // ---- Cards (2.5, 4.6a)
  reading(
    'allowed-r4-card-image-ids-uuid',
    'cards',
    '2.5',
    '`cardImage1`/`cardImage2` are the UUIDs of rows of a media table (Spatie media library, Active Storage blobs), not storage paths with a hash (2.5: "Identifier of the stored first image")',
    {
      transforms: onRoutes(CARD_ROUTES, (body) => {
        for (const card of recordsOf(body)) for (const field of ['cardImage1', 'cardImage2']) if (typeof card?.[field] === 'string' && card[field] !== '') card[field] = uuidOf(`${card.id}:${field}`);
      }),
    },
    only('cards'),
  ),
  reading(
    'allowed-r4-card-list-by-alias',
    'cards',
    '4.6a',
    'the card list is ordered by alias, A to Z, ties by id (4.6a gives no order)',
    { transforms: onRoutes([CARD_LIST], (body) => void recordsOf(body).sort((a, b) => String(a.alias).localeCompare(String(b.alias)) || String(a.id).localeCompare(String(b.id))), 200) },
    only('cards'),
  ),

  // ---- Bonuses (2.5a, 2.5b, 2.7, 4.11)
  reading(
    'allowed-r4-bonus-list-by-status',
    'bonuses',
    '4.11',
    'the bonus list is grouped by status (distributed, pending, canceled), each group in the reference\u2019s order (4.11 gives no order)',
    { transforms: onRoutes([BONUS_LIST], (body) => void recordsOf(body).sort((a, b) => (STATUS_ORDER[a.status] ?? 9) - (STATUS_ORDER[b.status] ?? 9)), 200) },
    only('bonuses'),
  ),
  reading(
    'allowed-r4-bonus-summary-unordered',
    'bonuses',
    '4.11',
    'the asset summary comes in no fixed order, a new one each answer (a Go map ranged over; 4.11: "200 { data: [<Bonus asset summary>] }", no order given)',
    {
      transforms: onRoutes([BONUS_SUMMARY], (body) => {
        const list = recordsOf(body);
        for (let i = list.length - 1; i > 0; i--) {
          const j = Math.floor(Math.random() * (i + 1));
          [list[i], list[j]] = [list[j], list[i]];
        }
      }, 200),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r4-bonus-summary-float-sums',
    'bonuses',
    '2.5b',
    'the summary `amount`s are sums in binary floating point, with the last-bit error such sums carry (0.00039925 written 0.00039925000000000006; 1.5: "A few summary amounts (bonus asset summary amount...) are JSON numbers")',
    {
      transforms: onRoutes([BONUS_SUMMARY], (body) => {
        for (const entry of recordsOf(body)) for (const status of ['distributed', 'pending', 'canceled']) {
          const set = entry?.[status];
          if (typeof set?.amount === 'number' && set.amount !== 0) set.amount = set.amount * (1 + Number.EPSILON);
        }
      }, 200),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r4-order-public-id-numeric',
    'bonuses',
    '2.7',
    'an order\u2019s `publicId` is a 10-digit number written as a string ("4817203945") rather than a prefixed code (2.7: "publicId string")',
    {
      transforms: onRoutes([BONUS_LIST, BONUS_SHOW], (body) => {
        for (const bonus of recordsOf(body)) {
          const order = bonus?.order;
          if (typeof order?.id !== 'string') continue;
          const digits = (seed: string) => String(BigInt(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 15)}`) % 9_000_000_000n + 1_000_000_000n);
          order.publicId = digits(order.id);
          if (typeof order.quote?.publicId === 'string') order.quote.publicId = digits(`quote:${order.quote.id}`);
        }
      }, 200),
    },
    only('bonuses'),
  ),

  // ---- Server-wide: encodings, headers, error bodies (1, 7)
  reading(
    'allowed-r4-brotli-when-accepted',
    'balances',
    '1',
    'answers are brotli-compressed (Content-Encoding: br, Vary: Accept-Encoding) when the request\u2019s Accept-Encoding names br, and sent plain otherwise (1.2 is silent on content codings; HTTP lets the server choose among those accepted)',
    {
      wire(answer, reply) {
        if (!/\bbr\b/i.test(String(reply.request.headers['accept-encoding'] ?? '')) || answer.payload.length === 0) return;
        reply.header('content-encoding', 'br');
        reply.header('vary', 'Accept-Encoding');
        reply.removeHeader('content-length');
        return Readable.from([brotliCompressSync(answer.payload)]);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r4-errors-problem-json',
    'banks',
    '7',
    'every error answer (4xx) is labelled `Content-Type: application/problem+json` (Spring 6 / ASP.NET ProblemDetails), the body unchanged; successes stay application/json (1.2: "Requests and responses are JSON"; problem+json is a JSON media type)',
    {
      wire(answer, reply) {
        if (answer.status >= 400) reply.header('content-type', 'application/problem+json');
      },
    },
    ALL,
  ),
  reading(
    'allowed-r4-validation-message-all-errors',
    'banks',
    '7',
    'a 422\u2019s `message` is every error in one sentence, as Rails\u2019 `errors.full_messages.to_sentence` writes it ("A, B and C"), rather than the first error and "(and N more errors)" (7 fixes `{ message: string, errors }`, no text)',
    {
      wire(answer) {
        if (answer.status !== 422) return;
        const body = parse(answer.payload);
        if (!body?.errors || typeof body.message !== 'string') return;
        const texts = Object.values(body.errors as Record<string, unknown[]>).flatMap((list) => (Array.isArray(list) ? list.map((text) => String(text).replace(/\.$/, '')) : []));
        if (texts.length === 0) return;
        body.message = `${texts.length === 1 ? texts[0] : `${texts.slice(0, -1).join(', ')} and ${texts[texts.length - 1]}`}.`;
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r4-keep-alive-one-second',
    'authentication',
    '1',
    'idle keep-alive connections are closed after 1 s (`Keep-Alive: timeout=1`; a Go server\u2019s IdleTimeout, an nginx keepalive_timeout) (1 says JSON over HTTP, nothing of connection reuse)',
    {
      wire(_answer, reply) {
        const server = reply.server.server as { keepAliveTimeout?: number };
        if (server && server.keepAliveTimeout !== 1000) server.keepAliveTimeout = 1000;
        reply.header('keep-alive', 'timeout=1');
      },
    },
    ALL,
  ),
  reading(
    'allowed-r4-request-id-headers',
    'bonuses',
    '1',
    'every answer carries `X-Request-Id` (a UUID) and a W3C `traceparent` (an OpenTelemetry-instrumented .NET/Spring service; 1 lists what clients send, not what answers may add)',
    {
      wire(_answer, reply) {
        const id = randomUUID();
        reply.header('x-request-id', id);
        reply.header('traceparent', `00-${id.replace(/-/g, '')}-${id.replace(/-/g, '').slice(0, 16)}-01`);
      },
    },
    ALL,
  ),
];
