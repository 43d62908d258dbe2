import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mutant } from './types.js';
import { ALL, answerWith, bankCreateRefused, claimsOf, createdIdsShownAs, digest, onAnswers, only, onParsedBody, ordersOf, parse, reading, recordsOf, routeOf, tokenShownAs, onBalanceAnswers } from './reading.js';
import { AUTH, JWT, FORGOT, BANKS, CARDS, SUMMARY, COINS, COIN, NFTS, BONUS_ROUTES, BANK_ROUTES } from './routes.js';

/**
 * Reading round 20 (issue 28, "fair to the readings nobody listed"): implementation choices the specification leaves
 * open, each taken the other way from the reference, as a team on a multi-region active-active store (region-tagged
 * UUIDs of version 8, a region header), a team behind Kong, a team that versions its API with headers and publishes
 * its description (RFC 8631), a team validating currencies against an ISO 4217 list bundled before 2024, a Laravel
 * Sanctum 4 team (its token secrets end with a CRC32 checksum), a Firestore team (an `in` query takes at most ten
 * values), a PostgreSQL team on citext columns, a GitHub-style API (a `documentation_url` in error bodies), a mobile
 * first team whose reset e-mails carry codes by default, a Symfony team whose order ids are UUIDs of version 6, an
 * exchange that charges its commission in the asset received, and teams that order lists, add members or write link
 * values their own way, would take them, reading only the specification (/work/shared/spec/interface.md),
 * docs/provider-states.md, README.md, docs/implementers.md and reference/. Written without reading the suite (suites/,
 * helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a reading of rounds 1 to 19, of the reviews, of
 * the white-box rounds or of the groups' own `allowed-*` mutants (their 640 names, and the descriptions of the near
 * ones, were read for that). Each description quotes the text that leaves the point open. Readings change requests or
 * answers only (no edit to reference/modules/): a reading that refuses a request the reference accepts empties the
 * field before the handler reads it (so nothing is stored) and writes its own message for that field.
 * Run against the suite: 25 of 25 conformant, none refused; see the note above `REFUSED` at the end of this file.
 */


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const key = (id: unknown): string => String(id).toLowerCase();

/**
 * The fields a reading refuses in a request the reference would accept, with the reading's message: the field is
 * emptied before the handler reads it (so the reference refuses the request with 422 and stores nothing), and the 422's
 * message for that field is the reading's (as round 18 does).
 */

/** A UUID of version 8 (RFC 9562 5.8, custom): 48 bits of Unix milliseconds, 12 bits of the region, the variant, 62 random bits. */
const REGION = 0x2a7;
function uuidV8(): string {
  const bytes = randomBytes(16);
  let ms = BigInt(Date.now());
  for (let i = 5; i >= 0; i -= 1) {
    bytes[i] = Number(ms & 0xffn);
    ms >>= 8n;
  }
  bytes[6] = 0x80 | ((REGION >> 8) & 0x0f);
  bytes[7] = REGION & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A UUID of version 6 (RFC 9562 5.6) for an order id: its time the order's creation (Unix seconds, with a sub-second
 * offset taken from the id), its clock sequence and node from a digest of the id, so the same order is shown the same.
 */
function uuidV6Of(id: string, seconds: number): string {
  const hash = digest(`r20-order-${key(id)}`);
  const offset = BigInt(parseInt(hash.slice(0, 6), 16) % 10_000_000);
  const ticks = BigInt(Math.max(0, Math.floor(seconds))) * 10_000_000n + 0x01b21dd213814000n + offset;
  const high = (ticks >> 12n).toString(16).padStart(12, '0');
  const low = (ticks & 0xfffn).toString(16).padStart(3, '0');
  const clock = ((parseInt(hash.slice(6, 10), 16) & 0x3fff) | 0x8000).toString(16).padStart(4, '0');
  return `${high.slice(0, 8)}-${high.slice(8, 12)}-6${low}-${clock}-${hash.slice(10, 22)}`;
}

/** CRC-32 (IEEE), as PHP's hash('crc32b') writes it: eight lower-case hex digits. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32b(text: string): string {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}
const sanctumTokens = tokenShownAs((id, secret) => `${id}|${secret}${crc32b(secret)}`);

/** Failed password logins per address (lower-cased) within the window the reference restricts after (5 in 15 minutes). */
const LOGIN_LIMIT = 5;
const LOGIN_WINDOW_MS = 15 * 60_000;
const loginFailures = new Map<string, number[]>();

/** The users of the sessions issued, by bearer token, for the `me` alias. */
const sessionUsers = new Map<string, string>();
const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];

/** Codes ISO 4217 introduced in 2024 and later (ZWG, the Zimbabwe Gold, June 2024; XCG, the Caribbean guilder, 2025). */
const NEWER_CODES = new Set(['ZWG', 'XCG']);

/** The symbols an `assets[]` query names (fastify keeps the bracketed key; one value a string, several an array). */
function assetsAsked(reply: FastifyReply): string[] {
  const query = (reply.request.query ?? {}) as Record<string, unknown>;
  const raw = query['assets[]'] ?? query.assets;
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).filter((s): s is string => typeof s === 'string' && s.trim() !== '');
}

/** The minor unit (decimal places) of an ISO currency, as ICU's currency data gives it. */
function minorUnit(currency: unknown): number | null {
  if (typeof currency !== 'string') return null;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? null;
  } catch {
    return null;
  }
}

/** A decimal string times a percent (a decimal string), written with `places` fractional digits (at most 25). */
function percentOf(amount: string, percent: string, places: number): string | undefined {
  const a = Number(amount);
  const p = Number(percent);
  if (!Number.isFinite(a) || !Number.isFinite(p)) return undefined;
  const value = (a * p) / 100;
  const digits = Math.max(0, Math.min(25, places));
  const text = value.toFixed(digits);
  return Number(text) === 0 ? '0' : text;
}

const readingsR20Written: Mutant[] = [
  // ---- Server-wide (1, 9, 7)
  reading(
    'allowed-r20-created-ids-uuid-v8-region',
    'banks',
    '1',
    'the banks and cards created through the interface get UUIDs of version 8 (RFC 9562 5.8, the custom layout): 48 bits of Unix milliseconds, 12 bits naming the region that wrote the row, then random bits, as a team on a multi-region active-active store makes ids no two regions can both make; records written before (the provider states\u2019) keep theirs, and every id is read back in paths as it was answered (1.6: "{bank}, {bonus} and {card} are record IDs (UUID strings)"; 2.4 and 2.5: "id | string (UUID)": which version of UUID is not given; RFC 9562 defines versions 1 to 8)',
    createdIdsShownAs(uuidV8),
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r20-kong-gateway-headers',
    'authentication',
    '1',
    'every answer passes a Kong gateway, which adds its own headers: `Via: 1.1 kong/3.7.1`, `X-Kong-Upstream-Latency` and `X-Kong-Proxy-Latency` (milliseconds) and `X-Kong-Request-Id` (1.2: "Requests and responses are JSON. Clients send the headers Content-Type: application/json and Accept: application/json": what clients send, nothing of the headers an answer carries; RFC 9110 7.6.3: intermediaries add Via)',
    {
      wire(_answer, reply) {
        reply.header('via', '1.1 kong/3.7.1');
        reply.header('x-kong-upstream-latency', String(Math.max(0, Math.round(reply.elapsedTime))));
        reply.header('x-kong-proxy-latency', '0');
        reply.header('x-kong-request-id', randomBytes(16).toString('hex'));
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r20-api-version-response-header',
    'banks',
    '9',
    'every answer names the version that served it in an `API-Version: 1` header, as a team that versions its API with headers (Stripe-Version, X-GitHub-Api-Version) does beside the path prefix (9: "The version is part of every path as the prefix /api/v1. Deprecation and change policy: not shown": that the path carries the version does not forbid a header that names it too)',
    {
      wire(_answer, reply) {
        reply.header('api-version', '1');
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r20-service-desc-link-header',
    'banks',
    '9',
    'every answer links the API\u2019s description and documentation in a `Link` header, `</api/v1/openapi.json>; rel="service-desc", </api/v1/docs>; rel="service-doc"`, as RFC 8631 lets a service publish them (1 and 9 say nothing of the headers an answer carries; no list of the text is paged by Link, and the relations are not "next")',
    {
      wire(_answer, reply) {
        if (reply.getHeader('link') !== undefined) return undefined;
        reply.header('link', '</api/v1/openapi.json>; rel="service-desc", </api/v1/docs>; rel="service-doc"');
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r20-region-served-by-header',
    'banks',
    '1',
    'every answer names the region that served it, `X-Served-By-Region: eu-west-1`, as a team on a multi-region active-active deployment writes it for support and tracing (1.2: "Requests and responses are JSON. Clients send the headers ...": nothing of the headers an answer carries)',
    {
      wire(_answer, reply) {
        reply.header('x-served-by-region', 'eu-west-1');
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r20-content-language-en',
    'banks',
    '1',
    'every answer says the language of its texts, `Content-Language: en` (its messages are English), as a team whose framework sets it from the application locale does (1.2: "Requests and responses are JSON": nothing of the headers an answer carries; RFC 9110 8.5: Content-Language describes the natural language of the content)',
    {
      wire(_answer, reply) {
        if (reply.getHeader('content-language') === undefined) reply.header('content-language', 'en');
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r20-error-bodies-documentation-url',
    'banks',
    '7',
    'every error body (status 400 and over, a JSON object) also carries `documentation_url`, the page of the API\u2019s documentation for that status, as GitHub\u2019s REST API writes `{ "message", "documentation_url" }` (7: "{ error: string } for authentication failures ...", "{ message: string } for most other errors", "Validation (422): { message: string, errors: {...} }": the members an error body must have, not that it has no others; readings adding members to error bodies were allowed)',
    {
      wire(answer) {
        if (answer.status < 400) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
        body.documentation_url = `https://docs.example.test/api/v1/errors#${answer.status}`;
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r20-user-path-me-alias',
    'banks',
    '1',
    'a path whose `{user}` is `me` names the authenticated user, as many APIs alias the caller (GitHub\u2019s /user, Microsoft Graph\u2019s /me); a path with a user ID is read as by the reference (1.6: "A path segment written {user} is the user ID (UUID string)": what the service answers to a segment that is no UUID is not given)',
    {
      request(request) {
        const params = request.params as Record<string, string> | undefined;
        if (!params || params.user !== 'me') return;
        const bearer = bearerOf(request);
        const user = bearer ? sessionUsers.get(bearer) : undefined;
        if (user) params.user = user;
      },
      wire(answer) {
        if (answer.status !== 200 || (answer.url !== AUTH && answer.url !== JWT)) return undefined;
        const session = parse(answer.payload)?.data;
        if (typeof session?.id === 'string' && typeof session?.userId === 'string') sessionUsers.set(session.id, session.userId);
        return undefined;
      },
    },
    ALL,
  ),

  // ---- Authentication (2.1, 4.1, 7)
  reading(
    'allowed-r20-token-secret-crc32-suffix',
    'authentication',
    '2.1',
    'the secret of an access token ends with the CRC32 checksum of its random part (eight hex digits), as Laravel Sanctum 4 writes `<id>|<40 random characters><crc32b>` so that secret scanners can tell a token from noise; the token is read back as issued (2.1: "id | string | Access token, form <numeric_id>|<secret>": how the secret is written is not given)',
    { request: sanctumTokens.request, wire: sanctumTokens.wire },
    ALL,
  ),
  reading(
    'allowed-r20-login-refusal-attempts-left-member',
    'authentication',
    '7',
    'a login refused for wrong credentials (403) also carries `attemptsLeft`, the failed logins the address may still make before the 425 restriction, beside its `error`, as a team that warns the user before locking does (7: "{ error: string } for authentication failures"; 8: "Repeated failed logins lead to a temporary restriction (425); the threshold and duration are not shown": no rule of the text forbids an error body more members)',
    {
      wire(answer, reply) {
        if (answer.method !== 'POST' || answer.url !== AUTH) return undefined;
        const sent = reply.request.body as Record<string, unknown> | undefined;
        const email = typeof sent?.email === 'string' ? sent.email.trim().toLowerCase() : undefined;
        if (!email) return undefined;
        const now = Date.now();
        const recent = (loginFailures.get(email) ?? []).filter((at) => now - at < LOGIN_WINDOW_MS);
        if (answer.status === 200) {
          loginFailures.delete(email);
          return undefined;
        }
        if (answer.status !== 403) return undefined;
        recent.push(now);
        loginFailures.set(email, recent);
        const body = parse(answer.payload);
        if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
        body.attemptsLeft = Math.max(0, LOGIN_LIMIT - recent.length);
        return JSON.stringify(body);
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r20-jwt-platform-path-any-case',
    'authentication',
    '4.1',
    'the `{platform}` segment of a JWT login is read in any letter case (`/authenticate-jwt/9F3C...` is the platform `9f3c...`), as a PostgreSQL team whose platform ids live in a citext column finds them (4.1: "Path parameter: platform (required), the platform ID": whether the ID is compared in its letter case is not given)',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== JWT) return;
        const params = request.params as Record<string, string> | undefined;
        if (params && typeof params.platform === 'string' && UUID.test(params.platform)) params.platform = params.platform.toLowerCase();
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r20-jwt-expire-before-2000-invalid',
    'authentication',
    '4.1',
    'a platform JWT whose `expire` is a number before 2000-01-01 (`0`, `-1`, `86400`) is refused 412 (payload invalid) and not 416 (expired), as a team that takes such a value as no timestamp at all (a field left at its zero value) does; an `expire` after that is judged as by the reference (4.1: "expire (required, timestamp, must be now or later)"; "412 (JWT payload invalid), 416 (JWT expired)": whether a value that is no plausible timestamp is an invalid payload or an expired one is not given)',
    {
      wire(answer, reply) {
        if (answer.method !== 'POST' || answer.url !== JWT || answer.status !== 416) return undefined;
        const expire = claimsOf(reply.request)?.expire;
        const seconds = typeof expire === 'number' ? expire : typeof expire === 'string' && /^-?\d+$/.test(expire) ? Number(expire) : Number.NaN;
        if (!Number.isFinite(seconds) || seconds >= 946_684_800) return undefined;
        const body = parse(answer.payload);
        const text = 'The JWT payload is invalid.';
        return answerWith(reply, 412, body && typeof body === 'object' && 'message' in body && !('error' in body) ? { message: text } : { error: text });
      },
    },
    only('authentication'),
  ),

  // ---- Password (4.3)
  reading(
    'allowed-r20-forgot-type-defaults-to-text',
    'password',
    '4.3',
    'a forgot-password without `type` (absent or null) e-mails the token as a code (`text`), as a mobile-first team whose users type the code into the app does; `link` is sent when asked (4.3: "type | string | no | nullable; one of text, link (how the token is shown in the e-mail)": which way is used when none is asked is not given)',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== FORGOT) return;
        onParsedBody(request, (body) => {
          if (body.type === undefined || body.type === null) body.type = 'text';
        });
      },
    },
    only('password'),
  ),

  // ---- Banks (4.10, 2.4)
  reading(
    'allowed-r20-currency-codes-from-2024-unknown',
    'banks',
    '4.10',
    'a bank create whose currency is one of the ISO 4217 codes introduced in 2024 and later (ZWG, the Zimbabwe Gold, June 2024; XCG, the Caribbean guilder, 2025) is refused 422 keyed by `currency`, as a team validating against the currency list of its platform (a JDK 17 `java.util.Currency`, an ICU of 2023) does; every other code is judged as by the reference (4.10: "currency | string | yes | alphanumeric, a valid ISO currency code"; 7: "422 | bank create | invalid field, for example an unknown currency": which edition of the list is not given)',
    bankCreateRefused(({ currency }) => (typeof currency === 'string' && NEWER_CODES.has(currency.trim().toUpperCase()) ? ['currency', 'The selected currency is invalid.'] : undefined)),
    only('banks'),
  ),
  reading(
    'allowed-r20-bank-list-grouped-by-platform',
    'banks',
    '4.10',
    'the bank list is grouped by platform (`externalPlatform.code` in alphabetical order), the newest first within a platform, as a payouts screen that shows a user\u2019s banks per platform orders them (4.10: "List | GET /api/v1/user/{user}/bank | ... | 200 { data: [<Bank>] }": the order of the list is not given)',
    onAnswers([BANKS], (body) => {
      if (!Array.isArray(body?.data) || body.data.length < 2) return false;
      const code = (bank: any): string => String(bank?.externalPlatform?.code ?? '');
      body.data = body.data.map((bank: any, index: number) => ({ bank, index })).sort((a: any, b: any) => (code(a.bank) < code(b.bank) ? -1 : code(a.bank) > code(b.bank) ? 1 : a.index - b.index)).map((entry: any) => entry.bank);
    }),
    only('banks'),
  ),
  reading(
    'allowed-r20-bank-currency-minor-unit-member',
    'banks',
    '2.4',
    'a bank record also carries `currencyMinorUnit`, the decimal places of its currency (ISO 4217\u2019s minor unit: 2 for EUR, 0 for JPY, 3 for KWD), as a payouts team that formats the amounts paid to the account writes it (2.4 lists the fields a bank record has, not that it has no others; readings adding members to records were allowed)',
    onAnswers(BANK_ROUTES, (body) => {
      const records = recordsOf(body);
      if (records.length === 0) return false;
      for (const bank of records) if (bank && typeof bank === 'object') bank.currencyMinorUnit = minorUnit(bank.currency);
    }),
    only('banks'),
  ),

  // ---- Cards (4.6a)
  reading(
    'allowed-r20-card-list-by-last-four-digits',
    'cards',
    '4.6a',
    'the card list is ordered by `lastFourDigits` (as text, the smallest first), the newest first among equal ones, as a wallet screen that lists cards by their number does (4.6a: "List | GET /api/v1/user/{user}/card | ... | 200 { data: [<Card>] }": the order of the list is not given)',
    onAnswers([CARDS], (body) => {
      if (!Array.isArray(body?.data) || body.data.length < 2) return false;
      const digits = (card: any): string => String(card?.lastFourDigits ?? '');
      body.data = body.data.map((card: any, index: number) => ({ card, index })).sort((a: any, b: any) => (digits(a.card) < digits(b.card) ? -1 : digits(a.card) > digits(b.card) ? 1 : a.index - b.index)).map((entry: any) => entry.card);
    }),
    only('cards'),
  ),

  // ---- Balances (4.6, 4.8, 2.2)
  reading(
    'allowed-r20-assets-filter-at-most-ten',
    'balances',
    '4.8',
    'a balance list asked for more than ten symbols in `assets[]` is refused 422 keyed by `assets` ("At most 10 assets may be asked at once."), as a team on Firestore, whose `in` query took at most ten values, caps the filter; ten or fewer are judged as by the reference (4.6 and 4.8: "Query: assets[] (optional, repeatable; asset symbols to return)": how many may be asked is not given; 8: "Rate limits and pagination of list endpoints: not shown"; a 422 for an assets[] the service refuses was an allowed reading of round 8)',
    {
      wire(answer, reply) {
        if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== COINS && answer.url !== NFTS)) return undefined;
        if (assetsAsked(reply).length <= 10) return undefined;
        const message = 'At most 10 assets may be asked at once.';
        return answerWith(reply, 422, { message, errors: { assets: [message] } });
      },
    },
    only('balances'),
  ),
  reading(
    'allowed-r20-coin-list-by-symbol-favorites-not-first',
    'balances',
    '4.8',
    'the coin list is ordered by symbol alone, favorites among the others, as a team whose list query orders by its key does (4.8: "200 { data: { coins: [<Balance record>, ...] } }": the order of the list is not given)',
    onAnswers([COINS], (body) => {
      const coins = body?.data?.coins;
      if (!Array.isArray(coins) || coins.length < 2) return false;
      const symbol = (coin: any): string => String(coin?.symbol ?? '').toUpperCase();
      coins.sort((a: any, b: any) => (symbol(a) < symbol(b) ? -1 : symbol(a) > symbol(b) ? 1 : 0));
    }),
    only('balances'),
  ),
  reading(
    'allowed-r20-nft-list-by-name',
    'balances',
    '4.6',
    'the NFT list is ordered by `name` (alphabetically, any letter case), as a gallery that shows a collection by its titles does (4.6: "200 { data: [<Balance record>, ...] }": the order of the list is not given)',
    onAnswers([NFTS], (body) => {
      if (!Array.isArray(body?.data) || body.data.length < 2) return false;
      const name = (nft: any): string => String(nft?.name ?? '').toLowerCase();
      body.data.sort((a: any, b: any) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
    }),
    only('balances'),
  ),
  reading(
    'allowed-r20-coin-links-website-without-scheme',
    'balances',
    '2.2',
    'a coin\u2019s `meta.links.website` is written as its host and path without the scheme and trailing slash (`bitcoin.org`), as a team that stores the link as CoinGecko\u2019s display form shows it (2.2: "meta | ... links (object with website, github, facebook, twitter)": the form of a link is not given; social handles for the other links were an allowed reading of round 14)',
    onBalanceAnswers([COINS, COIN], (body) => {
      let changed = false;
      for (const coin of recordsOf(body)) {
        const links = coin?.meta?.links;
        if (links && typeof links.website === 'string' && /^https?:\/\//i.test(links.website)) {
          links.website = links.website.replace(/^https?:\/\//i, '').replace(/\/+$/, '');
          changed = true;
        }
      }
      return changed;
    }),
    only('balances'),
  ),

  // ---- Bonuses (4.11, 2.5a, 2.7)
  reading(
    'allowed-r20-bonus-summary-largest-distributed-first',
    'bonuses',
    '4.11',
    'the bonus asset summary lists the assets with the largest distributed amount first (ties by symbol), as a rewards page that shows what paid most on top does (4.11: "Asset summary | ... | 200 { data: [<Bonus asset summary>] }": the order of the list is not given)',
    onAnswers([SUMMARY], (body) => {
      if (!Array.isArray(body?.data) || body.data.length < 2) return false;
      const amount = (entry: any): number => Number(entry?.distributed?.amount ?? 0);
      const symbol = (entry: any): string => String(entry?.asset?.symbol ?? '');
      body.data.sort((a: any, b: any) => amount(b) - amount(a) || (symbol(a) < symbol(b) ? -1 : symbol(a) > symbol(b) ? 1 : 0));
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r20-canceled-bonus-canceled-at-member',
    'bonuses',
    '2.5a',
    'a bonus record also carries `canceledAt`: for a canceled bonus the Unix seconds it was canceled (its `bonusedAt`), for the others null, as a team that keeps the moment of each state writes it (2.5a lists the fields a bonus has, not that it has no others; readings adding members to records were allowed)',
    onAnswers(BONUS_ROUTES, (body) => {
      const records = recordsOf(body);
      if (records.length === 0) return false;
      for (const bonus of records) if (bonus && typeof bonus === 'object') bonus.canceledAt = bonus.status === 'canceled' ? (typeof bonus.bonusedAt === 'number' ? bonus.bonusedAt : bonus.createdAt ?? null) : null;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r20-order-ids-uuid-v6',
    'bonuses',
    '2.7',
    'an order\u2019s `id` (and the ids of its parent and child orders) is a UUID of version 6 (RFC 9562 5.6, the reordered time-based UUID) dated by the order\u2019s creation, as a Symfony team whose Doctrine entities take `UuidV6` ids makes them, the same order shown the same at every read (2.7: "id | string (UUID)": which version of UUID is not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      const orders = ordersOf(body);
      let changed = false;
      for (const order of orders) {
        const seconds = typeof order.createdAt === 'number' ? order.createdAt : 0;
        if (typeof order.id === 'string' && UUID.test(order.id)) {
          order.id = uuidV6Of(order.id, seconds);
          changed = true;
        }
        for (const link of [order.parentOrder, order.childOrder]) {
          if (link && typeof link.id === 'string' && UUID.test(link.id)) {
            link.id = uuidV6Of(link.id, seconds);
            changed = true;
          }
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r20-order-commission-in-received-asset',
    'bonuses',
    '2.7',
    'an order\u2019s `commissions.amount` is counted in the asset received: `toAmount` times `commissions.percent` / 100, at the precision of `toAsset`, as an exchange that takes its fee from what it pays out (Binance\u2019s fee on the received asset) writes it (2.7: "commissions | { percent: decimal string, amount: decimal string }": the asset of the amount is not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const order of ordersOf(body)) {
        const commissions = order.commissions;
        if (!commissions || typeof commissions.percent !== 'string' || typeof order.toAmount !== 'string') continue;
        const places = Number(order.toAsset?.precision ?? 8);
        const amount = percentOf(order.toAmount, commissions.percent, Number.isFinite(places) ? places : 8);
        if (amount === undefined) continue;
        commissions.amount = amount;
        changed = true;
      }
      return changed;
    }),
    only('bonuses'),
  ),
];

/*
 * Run against the suite (branch readings-r20 off main at 68de260, `nice -n 19 node bin/mutants.mjs --shards 1` in three
 * batches of 9, 8 and 8): 25 of 25 stayed conformant; none was refused, so `readingsR20Refused` is empty.
 * Conformant but changing nothing the suite sees (the runner said "changed no answer of its run", or judged it alone
 * after it "changed nothing when together" with others):
 * - allowed-r20-jwt-platform-path-any-case (the suite sends platform ids as the state answered them);
 * - allowed-r20-jwt-expire-before-2000-invalid (the suite's expired JWTs carry an `expire` after 2000);
 * - allowed-r20-currency-codes-from-2024-unknown (no bank create sends ZWG or XCG);
 * - allowed-r20-bank-list-grouped-by-platform (no bank list the suite reads is ordered otherwise by it);
 * - allowed-r20-user-path-me-alias (no path sends `me`);
 * - allowed-r20-assets-filter-at-most-ten (judged alone after changing nothing together; no list is seen asked for more
 *   than ten symbols, as far as the runner reports).
 * These are pinned for later suites only. Every other reading acted on answers of its run as far as the runner reports.
 */
const REFUSED = new Set<string>([]);

export const readingsR20Refused: Mutant[] = readingsR20Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 20 (registered in index.ts): each must stay conformant. */
export const readingsR20Mutants: Mutant[] = readingsR20Written.filter((mutant) => !REFUSED.has(mutant.name));
