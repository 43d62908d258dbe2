import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, only, reading, onRoutes, recordsOf } from './reading.js';

/**
 * Reading round 3: implementation choices the specification leaves open, each taken the other way
 * from the reference, as a Spring, Go, Rails, .NET or Laravel team reading only the specification and
 * docs/provider-states.md would take them. Every one must stay conformant. Each description quotes
 * the text that leaves the point open. Readings that need the server's memory (sessions revoked,
 * a TOTP code spent) keep it in the mutant, from the answers the server sends.
 */

const LOGIN_URL = '/api/v1/authenticate';
const JWT_URL = '/api/v1/authenticate-jwt/:platform';
const RESET_URL = '/api/v1/user/reset-password';
const BANK_CREATE = 'POST /api/v1/user/{user}/bank';
const BANK_LIST = 'GET /api/v1/user/{user}/bank';
const BANK_SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const BANK_ROUTES = [BANK_CREATE, BANK_LIST, BANK_SHOW];
const CARD_ROUTES = ['POST /api/v1/user/{user}/card', 'GET /api/v1/user/{user}/card', 'GET /api/v1/user/{user}/card/{card}'];
const BONUS_LIST = 'GET /api/v1/user/{user}/bonus';
const BONUS_SHOW = 'GET /api/v1/user/{user}/bonus/{bonus}';
const BALANCE_URLS = ['/api/v1/user/:user/balances/nft', '/api/v1/user/:user/balances/nft/:asset', '/api/v1/user/:user/balances', '/api/v1/user/:user/balances/:asset'];

/** Rewrites the JSON text of an answer that parses, leaving any other answer alone. */
function json(answer: WireAnswer, change: (value: any) => unknown): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(answer.payload);
  } catch {
    return undefined;
  }
  const changed = change(value);
  return JSON.stringify(changed === undefined ? value : changed);
}

const pathOf = (reply: FastifyReply) => reply.request.url.split('?')[0]!;
const bodyOf = (reply: FastifyReply) => (reply.request.body && typeof reply.request.body === 'object' ? (reply.request.body as Record<string, unknown>) : {});
const bearerOf = (reply: FastifyReply) => /^Bearer\s+(.+)$/i.exec(reply.request.headers.authorization ?? '')?.[1]?.trim();
const isProtected = (url: string) => url.startsWith('/api/v1/user/') && url !== '/api/v1/user/forgot-password' && url !== RESET_URL;
const UNAUTHENTICATED = JSON.stringify({ error: 'Unauthenticated.' });

/** A decimal string without trailing fractional zeros ("12.50" → "12.5", "3.00" → "3"). */
function trimDecimal(value: unknown): unknown {
  if (typeof value !== 'string' || !/^-?\d+\.\d+$/.test(value)) return value;
  const trimmed = value.replace(/0+$/, '').replace(/\.$/, '');
  return Number(trimmed) === 0 ? '0' : trimmed;
}

/** The sessions the server issued, as its answers showed them (token → user, time), for the readings that revoke them. */
function sessionBook() {
  const tokens = new Map<string, { userId: string; at: number }>();
  const usersByEmail = new Map<string, string>();
  const emailsByUser = new Map<string, string>();
  return {
    /** Notes a 200 of either login; answers the session's token and user. */
    note(answer: WireAnswer, reply: FastifyReply): { token: string; userId: string } | undefined {
      if (answer.status !== 200 || (answer.url !== LOGIN_URL && answer.url !== JWT_URL)) return undefined;
      let session: { id?: unknown; userId?: unknown } | undefined;
      try {
        session = JSON.parse(answer.payload)?.data;
      } catch {
        return undefined;
      }
      if (typeof session?.id !== 'string' || typeof session.userId !== 'string') return undefined;
      tokens.set(session.id, { userId: session.userId, at: Date.now() });
      const email = bodyOf(reply).email;
      if (answer.url === LOGIN_URL && typeof email === 'string') {
        usersByEmail.set(email.toLowerCase(), session.userId);
        emailsByUser.set(session.userId, email);
      }
      return { token: session.id, userId: session.userId };
    },
    session: (token: string | undefined) => (token ? tokens.get(token) : undefined),
    userOfEmail: (email: string) => usersByEmail.get(email.toLowerCase()),
    emailOfUser: (userId: string) => emailsByUser.get(userId),
  };
}

/** The bonus assets the service knows (its catalogue), for a summary of an asset without bonuses. */
const BONUS_ASSET_CATALOGUE: Record<string, { name: string; symbol: string; alias: string | null; type: string; precision: string }> = {
  BTC: { name: 'Bitcoin', symbol: 'BTC', alias: null, type: 'coin', precision: '8' },
  ETH: { name: 'Ethereum', symbol: 'ETH', alias: null, type: 'coin', precision: '18' },
  USDT: { name: 'Tether', symbol: 'USDT', alias: 'USDT-ERC20', type: 'coin', precision: '6' },
  EUR: { name: 'Euro', symbol: 'EUR', alias: '€', type: 'fiat', precision: '2' },
  USD: { name: 'US Dollar', symbol: 'USD', alias: '$', type: 'fiat', precision: '2' },
};

/** Each route's required body fields, as a framework that reads a malformed body as an empty one reports them. */
const REQUIRED_FIELDS: Record<string, string[]> = {
  [LOGIN_URL]: ['email', 'password'],
  '/api/v1/user/forgot-password': ['email'],
  [RESET_URL]: ['email', 'token', 'password'],
  '/api/v1/user/:user/bank': ['bankName', 'iban', 'swift', 'currency'],
};
const human = (field: string) => field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

const LIST_URLS = ['/api/v1/user/:user/bank', '/api/v1/user/:user/card', '/api/v1/user/:user/bonus', '/api/v1/user/:user/balances/nft'];
const PAGE_SIZE = 15;

export const readingsR3Mutants: Mutant[] = [
  // ---- Authentication and sessions (2.1, 1.4, 4.1, 4.2, 5)
  reading(
    'allowed-r3-session-created-whole-seconds',
    'authentication',
    '2.1',
    'a Session\u2019s `created` is the whole second it was stored in (a seconds column), written with microseconds `.000000Z`; `until` keeps its fraction (1.4: "ISO 8601 UTC strings with microseconds"; 2.1 gives created as "ISO 8601 UTC timestamp, creation", not to the microsecond)',
    {
      transforms: onRoutes(['POST /api/v1/authenticate', 'POST /api/v1/authenticate-jwt/{platform}'], (body) => {
        if (typeof body?.data?.created === 'string') body.data.created = body.data.created.replace(/\.\d+Z$/, '.000000Z');
      }, 200),
    },
    only('authentication', 'password'),
  ),
  reading(
    'allowed-r3-login-token-cookie',
    'authentication',
    '2.1',
    'both logins also set the access token as an HttpOnly, Secure, SameSite=Strict cookie (Sanctum/Rails SPA auth); the body is unchanged (2.1 and 5.1 say what the body returns, nothing of headers)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || (answer.url !== LOGIN_URL && answer.url !== JWT_URL)) return;
        const data = (() => {
          try {
            return JSON.parse(answer.payload)?.data;
          } catch {
            return undefined;
          }
        })();
        if (typeof data?.id === 'string') reply.header('set-cookie', `access_token=${encodeURIComponent(data.id)}; Max-Age=${Number(data.ttl) || 7200}; Path=/api; HttpOnly; Secure; SameSite=Strict`);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r3-totp-code-single-use',
    'authentication',
    '4.2',
    'a 2FA code that opened a session is refused (403) when sent again for the same account, as RFC 6238 \u00a75.2 asks of a verifier (4.2: "2fa exactly 6 digits"; nothing says a code can be used twice)',
    (() => {
      const spent = new Set<string>();
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (answer.url !== LOGIN_URL || answer.status !== 200) return;
          const body = bodyOf(reply);
          if (typeof body['2fa'] !== 'string' || typeof body.email !== 'string' || body['2fa'] === '') return;
          const key = `${body.email.toLowerCase()}|${body['2fa']}`;
          if (!spent.has(key)) {
            spent.add(key);
            return;
          }
          reply.code(403);
          return JSON.stringify({ error: 'The provided credentials are incorrect.' });
        },
      };
    })(),
    only('authentication', 'password'),
  ),
  reading(
    'allowed-r3-reset-ends-sessions',
    'password',
    '4.4',
    'a successful password reset ends every session the account had (OWASP: invalidate sessions on a password change): earlier tokens answer 401 (4.4 says only that reset finishes the reset; 5.2 gives ttl as a token\u2019s longest life)',
    (() => {
      const book = sessionBook();
      const endedAt = new Map<string, number>();
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (book.note(answer, reply)) return;
          if (answer.url === RESET_URL && answer.status === 200) {
            const email = bodyOf(reply).email;
            const userId = typeof email === 'string' ? book.userOfEmail(email) : undefined;
            if (userId) endedAt.set(userId, Date.now());
            return;
          }
          if (!isProtected(answer.url)) return;
          const session = book.session(bearerOf(reply));
          const ended = session ? endedAt.get(session.userId) : undefined;
          if (!session || ended === undefined || session.at > ended) return;
          reply.code(401);
          return UNAUTHENTICATED;
        },
      };
    })(),
    ALL,
  ),
  reading(
    'allowed-r3-retry-after-on-425',
    'authentication',
    '5',
    'a 425 carries `Retry-After` with the seconds the restriction has left (Laravel ThrottleRequests, ASP.NET rate limiter); the body is unchanged (5.5 and 8: "the threshold and duration are not shown")',
    {
      wire(answer, reply) {
        if (answer.status !== 425) return;
        const seconds = /(\d+)\s*seconds?/.exec(answer.payload)?.[1] ?? '900';
        reply.header('retry-after', seconds);
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r3-inactive-message-deactivated',
    'banks',
    '5',
    'an inactive account is told "Your account has been deactivated." (401 of login, 403 of bank, bonus and card endpoints): a message that the account is inactive, in other words (5.6: "403 with a message that the account is inactive"; 7 gives no text)',
    {
      wire: (answer) =>
        (answer.status === 401 || answer.status === 403) && /Your account is inactive\./.test(answer.payload)
          ? json(answer, (body) => {
              for (const key of ['error', 'message']) if (body?.[key] === 'Your account is inactive.') body[key] = 'Your account has been deactivated.';
            })
          : undefined,
    },
    ALL,
  ),

  // ---- Server-wide: error bodies, content negotiation, malformed bodies (1, 7)
  reading(
    'allowed-r3-error-bodies-spring-attributes',
    'authentication',
    '7',
    'every error body other than 422 also carries Spring Boot\u2019s error attributes `timestamp` (ISO 8601), `status` (the code) and `path`, beside its `error` or `message` (7 gives the member each format has, not that it has no other)',
    {
      wire: (answer, reply) =>
        answer.status >= 400 && answer.status !== 422
          ? json(answer, (body) => (body && typeof body === 'object' && !Array.isArray(body) ? { ...body, timestamp: new Date().toISOString(), status: answer.status, path: pathOf(reply) } : body))
          : undefined,
    },
    ALL,
  ),
  reading(
    'allowed-r3-not-acceptable-406',
    'authentication',
    '1',
    'a request whose Accept header names no JSON type (nor */*) is answered 406 `{ message }` (Rails respond_to, Spring content negotiation); a request without Accept is served (1.2: "Clients send ... Accept: application/json")',
    {
      wire(_answer, reply) {
        const accept = reply.request.headers.accept;
        if (accept === undefined || accept.trim() === '' || /json|\*\/\*|application\/\*/i.test(accept)) return;
        reply.code(406);
        return JSON.stringify({ message: 'Not Acceptable: this service answers application/json.' });
      },
    },
    ALL,
  ),
  reading(
    'allowed-r3-malformed-json-as-empty-body',
    'banks',
    '7',
    'a body that is not JSON is read as an empty one (Laravel\u2019s request parsing), so it is answered 422 with each required field missing instead of 400 (1.2 says clients send JSON; 7 lists no status for a body that is not)',
    {
      wire(answer, reply) {
        const fields = REQUIRED_FIELDS[answer.url];
        if (answer.status !== 400 || !fields || !/not valid JSON/.test(answer.payload)) return;
        reply.code(422);
        const errors = Object.fromEntries(fields.map((field) => [field, [`The ${human(field)} field is required.`]]));
        const more = fields.length - 1;
        return JSON.stringify({ message: `The ${human(fields[0]!)} field is required.${more > 0 ? ` (and ${more} more error${more > 1 ? 's' : ''})` : ''}`, errors });
      },
    },
    ALL,
  ),
  reading(
    'allowed-r3-validation-first-field-only',
    'banks',
    '7',
    'validation stops at the first invalid field (FluentValidation CascadeMode.Stop, Go validators returning the first error): a 422 of login, forgot, reset or bank create names one field (7: "errors: { <field_name>: [string, ...] }", not that every invalid field is named)',
    {
      wire: (answer) =>
        answer.status === 422 && answer.url !== '/api/v1/user/:user/card'
          ? json(answer, (body) => {
              const keys = body?.errors && typeof body.errors === 'object' ? Object.keys(body.errors) : [];
              if (keys.length < 2) return body;
              const first = keys[0]!;
              return { ...body, message: body.errors[first][0] ?? body.message, errors: { [first]: body.errors[first] } };
            })
          : undefined,
    },
    ALL,
  ),
  reading(
    'allowed-r3-list-pagination-members',
    'banks',
    '1',
    'the bank, card, bonus and NFT lists are Laravel paginators: `data` beside `links` and `meta` (current_page, per_page 15, total...), 15 records a page, the first page without a `page` query (1.3: lists are wrapped as `{ data: [...] }`; 8: "pagination of list endpoints: not shown")',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200 || !LIST_URLS.includes(answer.url)) return;
        return json(answer, (body) => {
          if (!Array.isArray(body?.data)) return body;
          const total = body.data.length;
          const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
          const path = `http://localhost${pathOf(reply)}`;
          return {
            data: body.data.slice(0, PAGE_SIZE),
            links: { first: `${path}?page=1`, last: `${path}?page=${lastPage}`, prev: null, next: lastPage > 1 ? `${path}?page=2` : null },
            meta: { current_page: 1, from: total === 0 ? null : 1, last_page: lastPage, path, per_page: PAGE_SIZE, to: Math.min(total, PAGE_SIZE) || null, total },
          };
        });
      },
    },
    only('banks', 'cards', 'bonuses', 'balances'),
  ),

  reading(
    'allowed-r3-auth-errors-also-message',
    'authentication',
    '7',
    'every `{ error }` body also carries the same text as `message` (a Laravel service that keeps its framework\u2019s `message` and adds the documented `error`; 7: "{ error: string } for authentication failures and for 401", nothing of other members)',
    {
      wire: (answer) =>
        answer.status >= 400
          ? json(answer, (body) => (body && typeof body === 'object' && typeof body.error === 'string' && body.message === undefined ? { error: body.error, message: body.error } : body))
          : undefined,
    },
    ALL,
  ),
  reading(
    'allowed-r3-path-uuids-case-insensitive',
    'banks',
    '1',
    'the UUIDs of a path are compared as UUIDs, letter case ignored (a uuid column): the caller\u2019s own id or a record id written upper-case names the same user or record (1.6: "{user} is the user ID (UUID string)"; RFC 9562: UUIDs are read without regard to case)',
    {
      wire(_answer: WireAnswer, reply: FastifyReply) {
        const [path, query] = reply.request.url.split('?') as [string, string | undefined];
        if (!path.startsWith('/api/v1/user/')) return;
        const lowered = path.replace(/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/g, (id) => id.toLowerCase());
        if (lowered === path) return;
        const type = String(reply.request.headers['content-type'] ?? '');
        if (reply.request.method !== 'GET' && reply.request.method !== 'DELETE' && !/^application\/json/i.test(type)) return;
        const headers = { ...reply.request.headers } as Record<string, string>;
        delete headers['content-length'];
        const body = reply.request.body === undefined || reply.request.method === 'GET' || reply.request.method === 'DELETE' ? undefined : JSON.stringify(reply.request.body);
        // Answered again as the lower-case path is (the reference refused the upper-case one before any change).
        return reply.server
          .inject({ method: reply.request.method as 'GET', url: `${lowered}${query === undefined ? '' : `?${query}`}`, headers, ...(body === undefined ? {} : { payload: body }) })
          .then((inner) => {
            reply.code(inner.statusCode);
            return inner.body;
          }) as unknown as string;
      },
    },
    ALL,
  ),

  // ---- Balances (2.2, 1.5, 1.6, 4.6-4.9)
  reading(
    'allowed-r3-balances-ordered-by-name',
    'balances',
    '4.8',
    'the coin and NFT lists are ordered by asset name, A to Z (4.6 and 4.8 give no order)',
    {
      wire: (answer) =>
        answer.method === 'GET' && answer.status === 200 && (answer.url === BALANCE_URLS[0] || answer.url === BALANCE_URLS[2])
          ? json(answer, (body) => {
              const list = recordsOf(body);
              list.sort((a, b) => String(a.name).localeCompare(String(b.name), 'en', { sensitivity: 'base' }) || String(a.symbol).localeCompare(String(b.symbol)));
            })
          : undefined,
    },
    only('balances'),
  ),
  reading(
    'allowed-r3-balance-description-empty',
    'balances',
    '2.2',
    'no asset carries a description: every balance record\u2019s `description` is `{}` (2.2: "Map from language code ... to text; may be an empty object")',
    { wire: (answer) => (answer.status === 200 && BALANCE_URLS.includes(answer.url) ? json(answer, (body) => void recordsOf(body).forEach((r) => (r.description = {}))) : undefined) },
    only('balances'),
  ),
  reading(
    'allowed-r3-balance-meta-sparse',
    'balances',
    '2.2',
    'a balance record\u2019s `meta` carries only what the service keeps: a coin\u2019s `genesis_date`, nothing for an NFT (2.2: meta "may be empty. Keys seen: ...")',
    {
      wire: (answer) =>
        answer.status === 200 && BALANCE_URLS.includes(answer.url)
          ? json(answer, (body) =>
              void recordsOf(body).forEach((r) => {
                const genesis = r.meta?.genesis_date;
                r.meta = r.type === 'coin' && genesis !== undefined ? { genesis_date: genesis } : {};
              }),
            )
          : undefined,
    },
    only('balances'),
  ),
  reading(
    'allowed-r3-fiat-amounts-trimmed',
    'balances',
    '1',
    'fiat amounts are written without trailing fractional zeros ("12.5", "3", "0") rather than with two decimals (1.5: "decimal strings (up to 25 fractional digits, or the bare string 0)")',
    {
      wire: (answer) =>
        answer.status === 200 && BALANCE_URLS.includes(answer.url)
          ? json(answer, (body) =>
              void recordsOf(body).forEach((r) => {
                const fiat = r.amounts?.fiat;
                if (fiat && typeof fiat === 'object') for (const key of Object.keys(fiat)) fiat[key] = trimDecimal(fiat[key]);
              }),
            )
          : undefined,
    },
    only('balances'),
  ),
  reading(
    'allowed-r3-precision-as-integer',
    'balances',
    '2.2',
    'every balance record\u2019s `precision` is an integer (NFTs 0, USDT 6) where the reference writes some as numeric strings (2.2: "integer or numeric string")',
    {
      wire: (answer) =>
        answer.status === 200 && BALANCE_URLS.includes(answer.url)
          ? json(answer, (body) => void recordsOf(body).forEach((r) => (typeof r.precision === 'string' && /^\d+$/.test(r.precision) ? (r.precision = Number(r.precision)) : undefined)))
          : undefined,
    },
    only('balances'),
  ),
  reading(
    'allowed-r3-coin-quantity-zero',
    'balances',
    '2.2',
    'a coin\u2019s `quantity` is 0 (no count applies to a fungible coin) rather than -1 (2.2: "quantity integer; Value -1 is seen for coins; NFT records carry a positive count": -1 is seen, not required)',
    { wire: (answer) => (answer.status === 200 && BALANCE_URLS.includes(answer.url) ? json(answer, (body) => void recordsOf(body).forEach((r) => (r.type === 'coin' && r.quantity === -1 ? (r.quantity = 0) : undefined))) : undefined) },
    only('balances'),
  ),
  reading(
    'allowed-r3-asset-symbol-case-sensitive',
    'balances',
    '1',
    'asset symbols are compared exactly as the service writes them: `balances/btc` is no asset (404, as an unknown one) and `assets[]=btc` selects nothing (1.6: "{asset} is an asset symbol string"; nothing says letter case is folded)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || !BALANCE_URLS.includes(answer.url)) return;
        const asked = (reply.request.params as { asset?: string }).asset;
        if (asked !== undefined) {
          const symbol = (() => {
            try {
              return JSON.parse(answer.payload)?.data?.symbol;
            } catch {
              return undefined;
            }
          })();
          if (symbol === undefined || symbol === asked) return;
          reply.code(404);
          return JSON.stringify({ message: `No query results for asset ${asked}` });
        }
        const query = (reply.request.query ?? {}) as Record<string, unknown>;
        const raw = query['assets[]'] ?? query.assets;
        if (raw === undefined) return;
        const wanted = (Array.isArray(raw) ? raw : [raw]).filter((s): s is string => typeof s === 'string' && s.trim() !== '');
        if (wanted.length === 0) return;
        return json(answer, (body) => {
          if (Array.isArray(body?.data)) body.data = body.data.filter((r: any) => wanted.includes(r.symbol));
          else if (Array.isArray(body?.data?.coins)) body.data.coins = body.data.coins.filter((r: any) => wanted.includes(r.symbol));
        });
      },
    },
    only('balances'),
  ),

  // ---- Banks (2.4, 4.10)
  reading(
    'allowed-r3-created-location-header',
    'banks',
    '4.10',
    'a 201 of bank or card create carries `Location` with the new record\u2019s show path (Spring ResponseEntity.created, Rails render location:); the body is unchanged (4.10 and 4.6a: "201 { data: <Bank> }", nothing of headers)',
    {
      wire(answer, reply) {
        if (answer.status !== 201) return;
        const id = (() => {
          try {
            return JSON.parse(answer.payload)?.data?.id;
          } catch {
            return undefined;
          }
        })();
        if (typeof id === 'string') reply.header('location', `${pathOf(reply).replace(/\/+$/, '')}/${id}`);
      },
    },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r3-swift-bic11',
    'banks',
    '2.4',
    'an 8-character SWIFT/BIC is kept in its 11-character form with the primary-office branch code XXX ("DEUTDEFF" shown as "DEUTDEFFXXX", the same BIC; 2.4: "swift: string"; 4.10 allows 8 to 11 characters)',
    {
      transforms: onRoutes(BANK_ROUTES, (body) => {
        for (const bank of recordsOf(body)) if (typeof bank?.swift === 'string' && bank.swift.length === 8) bank.swift = `${bank.swift}XXX`;
      }),
    },
    only('banks'),
  ),
  reading(
    'allowed-r3-iban-print-format',
    'banks',
    '2.4',
    'the bank record shows its IBAN in the print format of ISO 13616, groups of four separated by spaces ("DE89 3704 0044 0532 0130 00"; 2.4: "iban: string"; the alphanumeric rule of 4.10 is on the request)',
    {
      transforms: onRoutes(BANK_ROUTES, (body) => {
        for (const bank of recordsOf(body)) if (typeof bank?.iban === 'string') bank.iban = bank.iban.replace(/(.{4})(?=.)/g, '$1 ');
      }),
    },
    only('banks'),
  ),
  reading(
    'allowed-r3-bank-delete-idempotent',
    'banks',
    '4.10',
    'deleting a bank the user does not have (never had, or already deleted) is answered 200 `{ message }`, as an idempotent DELETE (4.10 lists delete\u2019s errors as 401, 403, 409: no 404)',
    {
      wire(answer, reply) {
        if (answer.method !== 'DELETE' || answer.url !== '/api/v1/user/:user/bank/:bank' || answer.status !== 404) return;
        reply.code(200);
        return JSON.stringify({ message: 'The bank has been deleted.' });
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r3-records-created-at-db-clock',
    'banks',
    '2.4',
    'banks\u2019 and cards\u2019 `createdAt` come from the database server\u2019s clock, 4 s behind the application\u2019s (2.4 and 2.5: "createdAt integer, Unix seconds")',
    {
      transforms: [
        ...onRoutes(BANK_ROUTES, (body) => void recordsOf(body).forEach((r) => (typeof r.createdAt === 'number' ? (r.createdAt -= 4) : undefined))),
        ...onRoutes(CARD_ROUTES, (body) => void recordsOf(body).forEach((r) => (typeof r.createdAt === 'number' ? (r.createdAt -= 4) : undefined))),
      ],
    },
    only('banks', 'cards'),
  ),

  // ---- Bonuses (2.5a, 2.5b, 2.6, 2.7, 4.11)
  reading(
    'allowed-r3-bonus-list-oldest-first',
    'bonuses',
    '4.11',
    'the bonus list is ordered by createdAt, oldest first (4.11 gives no order)',
    {
      transforms: onRoutes([BONUS_LIST], (body) => {
        if (Array.isArray(body?.data)) body.data.sort((a: any, b: any) => a.createdAt - b.createdAt || String(a.id).localeCompare(String(b.id)));
      }, 200),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r3-bonus-summary-zero-entry',
    'bonuses',
    '4.11',
    'the summary of one asset the service knows but the user has no bonuses in is one entry of zeros (orders 0, each status { bonuses: 0, amount: 0 }) rather than an empty list (4.11: "200 { data: [<Bonus asset summary>] }"; 2.5b gives the entry, not when there is none)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || answer.url !== '/api/v1/user/:user/bonus/assets/:asset?') return;
        const asked = (reply.request.params as { asset?: string }).asset;
        const asset = asked ? BONUS_ASSET_CATALOGUE[asked] : undefined;
        if (!asset) return;
        return json(answer, (body) => {
          if (!Array.isArray(body?.data) || body.data.length > 0) return body;
          const zero = { bonuses: 0, amount: 0 };
          return { data: [{ asset, orders: 0, distributed: zero, pending: zero, canceled: zero }] };
        });
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r3-bonus-summary-by-activity',
    'bonuses',
    '4.11',
    'the asset summary lists the assets with the most orders first, ties by symbol from Z to A (4.11: "200 { data: [<Bonus asset summary>] }", no order given)',
    {
      transforms: onRoutes(['GET /api/v1/user/{user}/bonus/assets/{asset?}'], (body) => {
        if (Array.isArray(body?.data)) body.data.sort((a: any, b: any) => b.orders - a.orders || String(b.asset?.symbol).localeCompare(String(a.asset?.symbol)));
      }, 200),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r3-email-mask-local-part',
    'bonuses',
    '2.6',
    'a bonus\u2019s user e-mail is masked in its local part only, first letter kept and the domain shown ("j*******@example.test"; 2.6: "masked by the service (partially replaced with asterisks)")',
    (() => {
      const book = sessionBook();
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (book.note(answer, reply)) return;
          if (answer.status !== 200 || (answer.url !== '/api/v1/user/:user/bonus' && answer.url !== '/api/v1/user/:user/bonus/:bonus')) return;
          return json(answer, (body) =>
            void recordsOf(body).forEach((bonus) => {
              const email = typeof bonus?.user?.id === 'string' ? book.emailOfUser(bonus.user.id) : undefined;
              const at = email?.lastIndexOf('@') ?? -1;
              if (!email || at < 1) return;
              bonus.user.email = `${email[0]}${'*'.repeat(at - 1)}${email.slice(at)}`;
            }),
          );
        },
      };
    })(),
    only('bonuses'),
  ),
  reading(
    'allowed-r3-anti-phishing-fully-masked',
    'bonuses',
    '2.6',
    'a bonus\u2019s user `options.guard.antiPhishing` is asterisks only, no character of the code shown (2.6: "antiPhishing (string, masked)")',
    {
      transforms: onRoutes([BONUS_LIST, BONUS_SHOW], (body) => {
        for (const bonus of recordsOf(body)) {
          const guard = bonus?.user?.options?.guard;
          if (guard && typeof guard.antiPhishing === 'string') guard.antiPhishing = '*'.repeat(guard.antiPhishing.length);
        }
      }, 200),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r3-order-meta-main-entries',
    'bonuses',
    '2.7',
    'an order\u2019s `meta.main` carries entries `{ key, value }` (the channel and the quote it came from) rather than being empty (2.7 gaps: "Entry shape of the meta.main array of an order: not shown")',
    {
      transforms: onRoutes([BONUS_LIST, BONUS_SHOW], (body) => {
        for (const bonus of recordsOf(body)) {
          const order = bonus?.order;
          if (order?.meta && Array.isArray(order.meta.main)) order.meta.main = [{ key: 'channel', value: 'web' }, { key: 'quote', value: String(order.quote?.publicId ?? '') }];
        }
      }, 200),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r3-order-transfer-empty-object',
    'bonuses',
    '2.7',
    'an order without a transfer shows `transfer: {}` (an empty transfer resource) rather than null (2.7: "transfer: null in the shown case"; gaps: "Fields of the transfer object of an order: not shown")',
    {
      transforms: onRoutes([BONUS_LIST, BONUS_SHOW], (body) => {
        for (const bonus of recordsOf(body)) if (bonus?.order && bonus.order.transfer === null) bonus.order.transfer = {};
      }, 200),
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r3-bonus-platform-filter-exact-case',
    'bonuses',
    '4.11',
    'the bonus list\u2019s `platform` filter compares the platform code exactly, letter case included (4.11: "platform (optional)", its matching not given)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || answer.url !== '/api/v1/user/:user/bonus') return;
        const raw = ((reply.request.query ?? {}) as Record<string, unknown>).platform;
        const platform = Array.isArray(raw) ? raw[0] : raw;
        if (typeof platform !== 'string' || platform.trim() === '') return;
        return json(answer, (body) => {
          if (Array.isArray(body?.data)) body.data = body.data.filter((bonus: any) => bonus?.order?.externalPlatform?.code === platform.trim());
        });
      },
    },
    only('bonuses'),
  ),

  // ---- Cards (2.5, 4.6a)
  reading(
    'allowed-r3-card-list-oldest-first',
    'cards',
    '4.6a',
    'the card list is in creation order, oldest first (4.6a gives no order)',
    { transforms: onRoutes([CARD_ROUTES[1]!], (body) => void (Array.isArray(body?.data) ? body.data.reverse() : undefined), 200) },
    only('cards'),
  ),
  reading(
    'allowed-r3-card-expiration-four-digit-year',
    'cards',
    '2.5',
    'a card\u2019s `expirationDate` is written with a four-digit year, "07/2031" for "07/31", as `m/y` reads in Java\u2019s or ICU\u2019s patterns where y is the full year (2.5: "Format m/y")',
    {
      transforms: onRoutes(CARD_ROUTES, (body) => {
        for (const card of recordsOf(body)) {
          const match = typeof card?.expirationDate === 'string' ? /^(\d{1,2})\/(\d{2})$/.exec(card.expirationDate) : null;
          if (match) card.expirationDate = `${match[1]}/${Number(match[2]) < 70 ? 2000 + Number(match[2]) : 1900 + Number(match[2])}`;
        }
      }),
    },
    only('cards'),
  ),
  reading(
    'allowed-r3-card-image-ids-per-upload',
    'cards',
    '2.5',
    'every uploaded image is stored on its own, so `cardImage1` and `cardImage2` are identifiers of that card\u2019s own files, never shared by two uploads of the same bytes (2.5: "Identifier of the stored first image")',
    {
      transforms: onRoutes(CARD_ROUTES, (body) => {
        for (const card of recordsOf(body)) {
          for (const [side, key] of [['1', 'cardImage1'], ['2', 'cardImage2']] as const) {
            if (typeof card?.[key] !== 'string' || typeof card.id !== 'string') continue;
            const ext = /\.([A-Za-z0-9]+)$/.exec(card[key])?.[1] ?? 'img';
            card[key] = `card-images/${createHash('sha256').update(`${card.id}:${side}`).digest('hex').slice(0, 40)}.${ext}`;
          }
        }
      }),
    },
    only('cards'),
  ),
];
