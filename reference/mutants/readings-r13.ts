import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, HttpAnswer } from '../errors.js';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, assetSummariesOf, onAnswers, only, ordersOf, parse, reading, recordsOf, routeOf } from './reading.js';
import { AUTH as LOGIN, JWT as JWT_LOGIN, FORGOT, RESET, CARDS, CARD, BONUSES, BONUS, SUMMARY, BONUS_ROUTES, BALANCE_ROUTES, COIN_ROUTES, NFT_ROUTES } from './routes.js';

/**
 * Reading round 13 (issue 28): implementation choices the specification leaves open, each taken the other way from
 * the reference, as a Kotlin Ktor team behind Cloudflare, an Elixir/Phoenix team, a Laravel Octane team on MySQL, a Rust
 * axum team, a team on MongoDB, a team behind Apache or Kong would take them, reading only the specification
 * (/work/shared/spec/interface.md) and docs/provider-states.md. Written without reading the suite (suites/, helpers/,
 * test/, explore/, schemas/, docs/judging.md). None repeats a reading of rounds 1 to 12 or of the groups' own
 * `allowed-*` mutants. Each description quotes the text that leaves the point open.
 * Run against the suite: 19 of 22 stayed conformant (registered); the 3 refused are listed below with their failing
 * tests, messages and the argument from the text. All three were judged false failures, fixed, and are registered.
 */


/** The bearer token of a request, when it carries one. */
const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();

/** A decimal string multiplied by `factor`, written with the same number of fractional digits; "0" stays "0". */
function scaled(amount: string, factor: number): string {
  if (!/^\d+(\.\d+)?$/.test(amount) || Number(amount) === 0) return amount;
  const digits = amount.includes('.') ? amount.split('.')[1]!.length : 0;
  return (Number(amount) * factor).toFixed(digits);
}

/** RFC 5321 4.5.3.1: a local part of at most 64 octets; RFC 1035 2.3.4: domain labels of at most 63 octets. */
function withinSmtpLengths(email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return true;
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  return Buffer.byteLength(local, 'utf8') <= 64 && labels.every((label) => Buffer.byteLength(label, 'utf8') <= 63);
}

/** The base64url JSON payload of a JWT, undefined when it cannot be read. */
function jwtPayload(jwt: string): any {
  const part = jwt.split('.')[1];
  if (part === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const readingsR13Written: Mutant[] = [
  // ---- Balances (2.2): records that move between reads, forms of values
  reading(
    'allowed-r13-fiat-amounts-at-live-rate',
    'balances',
    '2.2',
    'the fiat amount set of a balance record is valued at the market rate of the moment of the read, so two reads a few seconds apart show slightly different fiat amounts (the crypto amounts unchanged), as a Kotlin exchange team pricing holdings from a live ticker does (2.2: "amounts | object | { crypto: <amount set>, fiat: <amount set> }"; 3: "Transitions: not shown": nothing says a fiat value is fixed between reads, or taken at one rate)',
    (() => {
      let reads = 0;
      return onAnswers(BALANCE_ROUTES, (body) => {
        const sets = recordsOf(body).map((record) => record?.amounts?.fiat).filter((set) => set && typeof set === 'object');
        if (sets.length === 0) return false;
        reads += 1;
        const factor = 1 + ((reads % 7) - 3) * 0.0007;
        for (const set of sets) for (const key of Object.keys(set)) if (typeof set[key] === 'string') set[key] = scaled(set[key], factor);
      });
    })(),
    only('balances'),
  ),
  reading(
    'allowed-r13-meta-image-signed-per-read',
    'balances',
    '2.2',
    'a balance record\u2019s `meta.image` is a signed CDN URL minted at each read (`?exp=<unix>&sig=<hmac>`, valid for 5 minutes), so list and show, or two reads, give different image URLs, as a team serving asset images through Cloudflare Images\u2019 signed URLs does (2.2: "meta | object | May be empty. Keys seen: image, url, owner, creator ...": what an image value is, and that it is the same at every read, is not given)',
    onAnswers(BALANCE_ROUTES, (body) => {
      const metas = recordsOf(body).map((record) => record?.meta).filter((meta) => meta && typeof meta.image === 'string');
      if (metas.length === 0) return false;
      const exp = Math.floor(Date.now() / 1000) + 300;
      for (const meta of metas) {
        const sig = createHash('sha256').update(`${meta.image}:${exp}:${randomBytes(8).toString('hex')}`).digest('hex').slice(0, 32);
        meta.image = `${meta.image.split('?')[0]}?exp=${exp}&sig=${sig}`;
      }
    }),
    only('balances'),
  ),
  reading(
    'allowed-r13-coin-type-token-on-other-chain',
    'balances',
    '2.2',
    'a coin that lives on another coin\u2019s chain (its `chain` name and symbol given, as USDT on Ethereum) is typed `token`; a native coin stays `coin` and NFTs `nft`, as an exchange that tells tokens from native coins does; the records still come in `data.coins` (2.2: "type | string | Values seen: coin, nft": the values are those seen, not a closed list)',
    onAnswers(COIN_ROUTES, (body) => {
      const tokens = recordsOf(body).filter((record) => record?.type === 'coin' && typeof record.chain?.symbol === 'string' && record.chain.symbol !== record.symbol);
      if (tokens.length === 0) return false;
      for (const record of tokens) record.type = 'token';
    }),
    only('balances'),
  ),
  reading(
    'allowed-r13-description-language-codes-upper-case',
    'balances',
    '2.2',
    'the language codes that key a balance record\u2019s `description` are written upper-case (`EN`), as a team storing ISO 639-1 codes in an upper-case enum writes them (2.2: "description | object | Map from language code (for example en) to text": "for example" is an example; BCP 47 2.1.1: "The tags and their subtags ... are case insensitive")',
    onAnswers(BALANCE_ROUTES, (body) => {
      const records = recordsOf(body).filter((record) => record?.description && typeof record.description === 'object' && Object.keys(record.description).length > 0);
      if (records.length === 0) return false;
      for (const record of records) record.description = Object.fromEntries(Object.entries(record.description).map(([code, text]) => [code.toUpperCase(), text]));
    }),
    only('balances'),
  ),
  reading(
    'allowed-r13-nft-meta-url-and-creator-null',
    'balances',
    '2.2',
    'an NFT record\u2019s `meta.url` and `meta.creator` are null, the platform keeping no page of the item and no record of who minted it (imported items), as a team on MongoDB writes the absent fields of a document (2.2: "meta | object | May be empty. Keys seen: image, url, owner, creator": these keys are seen; their types are not given)',
    onAnswers(NFT_ROUTES, (body) => {
      const metas = recordsOf(body).map((record) => record?.meta).filter((meta) => meta && typeof meta === 'object' && ('url' in meta || 'creator' in meta));
      if (metas.length === 0) return false;
      for (const meta of metas) {
        if ('url' in meta) meta.url = null;
        if ('creator' in meta) meta.creator = null;
      }
    }),
    only('balances'),
  ),
  reading(
    'allowed-r13-amounts-decimal-format-no-leading-zero',
    'balances',
    '1',
    'an amount below one is written without its leading zero (".50000000" for 0.5), as a Kotlin team formatting amounts with `DecimalFormat("#.00000000")` writes it; whole amounts and the bare "0" are written as before (1.5: "Monetary and crypto amounts are decimal strings (up to 25 fractional digits, or the bare string 0)": a decimal numeral with no integer digit is a decimal string; nothing says it has one)',
    onAnswers(BALANCE_ROUTES, (body) => {
      const sets = recordsOf(body).flatMap((record) => [record?.amounts?.crypto, record?.amounts?.fiat]).filter((set) => set && typeof set === 'object');
      if (sets.length === 0) return false;
      for (const set of sets) for (const key of Object.keys(set)) if (typeof set[key] === 'string' && /^0\.\d+$/.test(set[key])) set[key] = set[key].slice(1);
    }),
    only('balances'),
  ),
  reading(
    'allowed-r13-precision-decimal-column',
    'bonuses',
    '2.3',
    'an asset summary\u2019s `precision` is read from a MySQL DECIMAL(4,2) column, which PDO hands back as the string "8.00", and written so, as a Laravel Octane team on MySQL writes it (2.3: "precision: numeric string": "8.00" is a numeric string; the count of its fractional digits is not given)',
    onAnswers([BONUSES, BONUS, SUMMARY], (body) => {
      const summaries = assetSummariesOf(body).filter((summary) => typeof summary.precision === 'string' && /^\d+$/.test(summary.precision));
      if (summaries.length === 0) return false;
      for (const summary of summaries) summary.precision = `${summary.precision}.00`;
    }),
    only('bonuses'),
  ),

  reading(
    'allowed-r13-total-supply-updated-per-read',
    'balances',
    '2.2',
    'a coin\u2019s `meta.total_supply` is the supply of the moment, refreshed from the market-data feed at each read, so it grows a little between two reads of an inflationary coin (list, then show), as a team serving CoinGecko\u2019s figures does (2.2: "meta ... for coins also ... total_supply (number)"; 3: "Transitions: not shown": nothing says the figure is fixed)',
    (() => {
      let reads = 0;
      return onAnswers(COIN_ROUTES, (body) => {
        const metas = recordsOf(body).map((record) => record?.meta).filter((meta) => meta && typeof meta.total_supply === 'number');
        if (metas.length === 0) return false;
        reads += 1;
        for (const meta of metas) meta.total_supply += reads;
      });
    })(),
    only('balances'),
  ),
  // ---- Bonuses and orders (2.5a, 2.7)
  reading(
    'allowed-r13-order-life-seconds-remaining',
    'bonuses',
    '2.7',
    'an order\u2019s `payment.lifeSeconds` is the time left of the payment\u2019s life at the moment of the read, `lifeUntilAt` minus now, and 0 once it is over, as a team showing a count-down does (2.7: "payment ... lifeSeconds (integer), lifeUntilAt (integer)": what lifeSeconds counts is not given; 3: "Transitions: not shown")',
    onAnswers(BONUS_ROUTES, (body) => {
      const payments = ordersOf(body).map((order) => order.payment).filter((payment) => payment && typeof payment.lifeUntilAt === 'number');
      if (payments.length === 0) return false;
      const now = Math.floor(Date.now() / 1000);
      for (const payment of payments) payment.lifeSeconds = Math.max(0, payment.lifeUntilAt - now);
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r13-order-payment-untyped-members-null',
    'bonuses',
    '2.7',
    'an order paid by bank transfer writes null for the payment members a transfer has none of: `id`, `meta` and `url` (no payment-provider session, no checkout page), as an Elixir team rendering an Ecto schema with nil fields writes them (2.7: "payment | object: method (value seen: bank), id, meta, url, currency, amount (nullable), ...": id, meta and url are named with no type)',
    onAnswers(BONUS_ROUTES, (body) => {
      const payments = ordersOf(body).map((order) => order.payment).filter((payment) => payment && typeof payment === 'object');
      if (payments.length === 0) return false;
      for (const payment of payments) Object.assign(payment, { id: null, meta: null, url: null });
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r13-order-mode-members-filled',
    'bonuses',
    '2.7',
    'an order\u2019s `mode` of type `normal` writes values, not null, for its other members: `status: "none"`, the decimal strings "0" for `amount`, `rate`, `total`, `commission` and `additional`, an empty `observation`, `expireAt: 0` and an empty `url`, as a Rust team whose struct has no `Option` fields writes its defaults (2.7: "mode | object: type (value seen: normal), and nullable status, amount, rate, total, commission, additional, observation, expireAt, url": nullable, not null; their types are not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      const modes = ordersOf(body).map((order) => order.mode).filter((mode) => mode && typeof mode === 'object');
      if (modes.length === 0) return false;
      for (const mode of modes) Object.assign(mode, { status: 'none', amount: '0', rate: '0', total: '0', commission: '0', additional: '0', observation: '', expireAt: 0, url: '' });
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r13-color-code-argb',
    'bonuses',
    '2.7',
    'an order\u2019s `externalPlatform.color_code` is written as Android\u2019s ARGB hex, alpha first and upper-case ("#FF1F6FEB" for an opaque #1f6feb), as a Kotlin team sharing its colour values with its Android app writes it (2.7: "externalPlatform | object: id, code, name, color_code (string), ...": a string, its form not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      const platforms = ordersOf(body).map((order) => order.externalPlatform).filter((platform) => platform && typeof platform.color_code === 'string' && /^#[0-9a-f]{6}$/i.test(platform.color_code));
      if (platforms.length === 0) return false;
      for (const platform of platforms) platform.color_code = `#FF${platform.color_code.slice(1).toUpperCase()}`;
    }),
    only('bonuses'),
  ),

  reading(
    'allowed-r13-bonus-status-filter-unknown-ignored',
    'bonuses',
    '4.11',
    'a bonus list whose `status` filter names no status of the three (`status=refunded`) ignores the filter and lists every bonus of the user, as a team whose query builder applies only the filters it recognises (Spatie\u2019s QueryBuilder with an allowed-filter callback, Phoenix\u2019s Flop dropping invalid filters) does (4.11: "query status (optional; distributed, pending, canceled)": what a value outside the three does is not given; the list\u2019s errors, "401, 403, 409", name no 422)',
    {
      request(request) {
        if (request.method !== 'GET' || routeOf(request) !== BONUSES) return;
        const query = (request.query ?? {}) as Record<string, unknown>;
        const status = query.status;
        if (typeof status === 'string' && status !== '' && !['distributed', 'pending', 'canceled'].includes(status.trim().toLowerCase())) delete query.status;
      },
    },
    only('bonuses'),
  ),

  // ---- Cards (2.5)
  reading(
    'allowed-r13-card-alias-stored-lower-case',
    'cards',
    '2.5',
    'a card\u2019s `alias` is stored, and answered everywhere, in lower case ("my travel card" for "My Travel Card"), as a team on MongoDB keeping aliases in a lower-cased field for a case-insensitive index writes it back (2.5: "alias | string"; 4.6a: "alias | string | yes | max 191": nothing says a record repeats the letters sent)',
    onAnswers([CARDS, CARD], (body) => {
      const records = recordsOf(body).filter((record) => typeof record?.alias === 'string');
      if (records.length === 0) return false;
      for (const record of records) record.alias = record.alias.toLowerCase();
    }),
    only('cards'),
  ),

  reading(
    'allowed-r13-card-expiration-month-and-year-members',
    'cards',
    '2.5',
    'card records also carry `expirationMonth` and `expirationYear` ("07", "31"), the parts of `expirationDate`, as a team whose card resource mirrors the create body\u2019s fields does (2.5 lists the fields of a card record, not that it has no others; 4.6a: "expirationMonth ... format m", "expirationYear ... format y")',
    onAnswers([CARDS, CARD], (body) => {
      const records = recordsOf(body).filter((record) => typeof record?.expirationDate === 'string' && /^\d{1,2}\/\d{2,4}$/.test(record.expirationDate));
      if (records.length === 0) return false;
      for (const record of records) {
        const [month, year] = record.expirationDate.split('/');
        Object.assign(record, { expirationMonth: month, expirationYear: year });
      }
    }),
    only('cards'),
  ),

  // ---- Authentication (2.1, 4.1, 4.2, 5)
  reading(
    'allowed-r13-jwt-missing-token-401',
    'authentication',
    '4.1',
    'a JWT login with no `Token` header (or an empty one) is answered 401 `{ error: "Unauthenticated." }`: no credential was presented, as Ktor\u2019s `authenticate` block challenges a request without one (4.1: "Errors: 401 (account inactive), 403 (wrong credentials), ... 412 (JWT payload invalid)": a request that carries no credential at all is none of these causes; 5.3: "Without valid authentication the response is 401")',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== JWT_LOGIN) return;
        const header = request.headers.token;
        const value = Array.isArray(header) ? header[0] : header;
        if (value === undefined || value.trim() === '') throw new HttpAnswer(ERRORS.unauthenticated());
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r13-jwt-claims-before-signature',
    'authentication',
    '4.1',
    'a JWT login reads the payload before it verifies the signature: a payload without `email` or `id`, or without `expire`, is answered 412, and a numeric `expire` in the past 416, whatever the signature; a well-formed payload is then verified as before (403 when the signature is not the platform\u2019s), as a team whose middleware routes by the claims before its verifier runs does (4.1: "Errors: ... 403 (wrong credentials), ... 412 (JWT payload invalid), 416 (JWT expired)": no precedence is given among them)',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== JWT_LOGIN) return;
        const header = request.headers.token;
        const jwt = Array.isArray(header) ? header[0] : header;
        if (typeof jwt !== 'string' || jwt.split('.').length !== 3) return;
        const payload = jwtPayload(jwt);
        const names = payload && ((typeof payload.email === 'string' && payload.email !== '') || (typeof payload.id === 'string' && payload.id !== ''));
        if (!payload || typeof payload !== 'object' || !names || payload.expire === undefined) throw new HttpAnswer(ERRORS.jwtInvalid());
        if (typeof payload.expire === 'number' && payload.expire < Math.floor(Date.now() / 1000) - 1) throw new HttpAnswer(ERRORS.jwtExpired());
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r13-email-rfc5321-lengths',
    'authentication',
    '4.2',
    'an e-mail address whose local part is over 64 octets, or one of whose domain labels is over 63, is not a valid e-mail: login, forgot-password and reset-password refuse it with 422 keyed by `email`, as a Rust team validating addresses with a crate that applies RFC 5321 4.5.3.1.1 and RFC 1035 does; its provider-state hook makes long addresses from short labels (the reference\u2019s does) (4.2: "email | string | yes | valid e-mail, max 191 characters"; 4.3, 4.4: "valid e-mail, max 255": which definition of a valid address applies is not given, and RFC 5321 is the one that sets lengths)',
    {
      request(request) {
        const route = routeOf(request);
        if (request.method !== 'POST' || (route !== LOGIN && route !== FORGOT && route !== RESET)) return;
        const email = ((request.body ?? {}) as Record<string, unknown>).email;
        if (typeof email !== 'string' || withinSmtpLengths(email)) return;
        throw new HttpAnswer(ERRORS.validation({ email: ['The email must be a valid email address.'] }));
      },
    },
    only('authentication', 'password'),
  ),

  // ---- Extra credentials and headers (2.1, 5)
  reading(
    'allowed-r13-refreshed-token-in-authorization-header',
    'authentication',
    '5',
    'each successful answer to a request authenticated by a bearer token carries a fresh token of the same session in the answer header `Authorization: Bearer <id>|<secret>`, which the client may use from then on; the token it sent stays valid until the Session\u2019s `until`, and logout with either destroys the session, as a Laravel team with jwt-auth\u2019s `RefreshToken` middleware hands it out: a credential issued to the caller, for its own session (5.2: "Its id is the bearer token, valid for ttl seconds, until until"; 2xx answers list their bodies, not their headers; nothing says the service issues no other credential)',
    (() => {
      const original = new Map<string, string>();
      return {
        request(request: FastifyRequest) {
          const shown = bearerOf(request);
          const token = shown ? original.get(shown) : undefined;
          if (token) request.headers.authorization = `Bearer ${token}`;
        },
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (answer.status !== 200 && answer.status !== 201) return undefined;
          if (answer.url === LOGIN || answer.url === JWT_LOGIN || answer.url === '/api/v1/user/logout') return undefined;
          const token = bearerOf(reply.request);
          if (!token || !/^\d+\|\S+$/.test(token)) return undefined;
          const fresh = `${randomInt(1_000_000, 9_000_000)}|${randomBytes(30).toString('base64url')}`;
          original.set(fresh, token);
          reply.header('authorization', `Bearer ${fresh}`);
          return undefined;
        },
      };
    })(),
    only('authentication', 'balances', 'banks', 'bonuses', 'cards', 'password'),
  ),

  // ---- HTTP (1.2)
  reading(
    'allowed-r13-interim-100-continue',
    'authentication',
    '1',
    'every answer to a request that carries a body (POST) is preceded by an interim `100 Continue`, whether or not the client sent `Expect: 100-continue`, as a server behind a proxy that forwards the origin\u2019s interim answers sends it (1.2: "Requests and responses are JSON": the exchange is HTTP\u2019s; RFC 9110 15.2: "A client MUST be able to parse one or more 1xx responses received prior to a final response, even if the client does not expect one")',
    {
      wire(_answer, reply) {
        if (reply.request.method !== 'POST') return undefined;
        const raw = reply.raw as unknown as { headersSent: boolean; writeContinue(): void };
        if (!raw.headersSent) raw.writeContinue();
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r13-apache-h2c-upgrade-offer',
    'authentication',
    '1',
    'every answer offers the upgrade to HTTP/2, with `Upgrade: h2,h2c` and `Connection: Upgrade`, as Apache with mod_http2 (`Protocols h2 h2c http/1.1`) in front of the service adds to its HTTP/1.1 answers (1.2: "Requests and responses are JSON"; RFC 9110 7.8: "A server MAY send an Upgrade header field in any other response to advertise that it implements support for upgrading to the listed protocols": the client decides, and a final answer stays the answer)',
    {
      wire(_answer, reply) {
        reply.header('upgrade', 'h2,h2c');
        reply.header('connection', 'Upgrade');
        return undefined;
      },
    },
    ALL,
  ),

  // ---- Balances filter errors (4.6, 4.8, 7)
  reading(
    'allowed-r13-assets-errors-keyed-by-item',
    'balances',
    '7',
    'a 422 about the `assets[]` filter keys each refused item by its position, as Laravel does for a rule on `assets.*` (`"assets.1": ["The selected assets.1 is invalid."]`) (4.6, 4.8: "Query: assets[] (optional, repeatable; asset symbols to return)"; 7: "Validation (422): { message: string, errors: { <field_name>: [string, ...] } }": the field name of the n-th value of a repeated parameter is not given)',
    {
      wire(answer, reply) {
        if (answer.status !== 422 || !BALANCE_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        const texts = body?.errors?.assets;
        if (!Array.isArray(texts)) return undefined;
        const raw = ((reply.request.query ?? {}) as Record<string, unknown>)['assets[]'] ?? ((reply.request.query ?? {}) as Record<string, unknown>).assets;
        const sent = (Array.isArray(raw) ? raw : [raw]).map(String);
        const errors: Record<string, string[]> = {};
        for (const text of texts) {
          const index = Math.max(0, sent.findIndex((symbol) => typeof text === 'string' && text.includes(symbol)));
          const key = `assets.${index}`;
          (errors[key] ??= []).push(String(text).replace(/\bassets\b/, key));
        }
        delete body.errors.assets;
        Object.assign(body.errors, errors);
        body.message = Object.values(body.errors).flat()[0] ?? body.message;
        return JSON.stringify(body);
      },
    },
    only('balances'),
  ),
];

/**
 * Readings of round 13 the suite refused (candidate false failures). Run on 2026-11-26 against main at 54a92b4
 * (`node bin/mutants.mjs --mutant allowed-r13-... --shards 1`, then `conformance run --mutant NAME --grep ...` for the
 * messages). 19 of 22 stayed conformant. The three refused, not registered, for the lead to judge:
 * - allowed-r13-interim-100-continue (every test: the run stops before any test, "target unreachable: POST
 *   .../api/v1/user/logout: the connection was closed by the target (UND_ERR_SOCKET)"). The suite's HTTP client,
 *   undici 7, destroys the socket on any 100 response it did not ask for (lib/dispatcher/client-h1.js: `if (statusCode
 *   === 100) util.destroy(socket, new SocketError('bad response'))`; nodejs/undici#197, open, "wontfix"). RFC 9110 15.2:
 *   "A client MUST be able to parse one or more 1xx responses received prior to a final response, even if the client
 *   does not expect one. A user agent MAY ignore unexpected 1xx responses."; 15.2.1: "If the request did not contain an Expect header field
 *   containing the 100-continue expectation, the client can simply discard this interim response." Servers do send it unasked (LocalStack's S3
 *   sends 100 on a slow first byte, mswjs/interceptors#599). A false failure of the client stack, not of an `expect`; and
 *   the message blames the target ("closed by the target") for a valid answer.
 * - allowed-r13-precision-decimal-column (17 bonus tests: "schema bonus-list-response: /data/0/asset/precision
 *   (pattern), /data/0/order/fromAsset/precision (pattern) ..."; "schema bonus-asset-summary-list-response:
 *   /data/0/asset/precision (pattern)"). 2.3 gives `precision: numeric string`, not "integer string": "8.00" is a
 *   numeric string (PHP's is_numeric, MySQL DECIMAL through PDO) whose value is the whole number 8; 2.2 sets "integer or
 *   numeric string" side by side, so a numeric string is not by definition a string of digits.
 * - allowed-r13-amounts-decimal-format-no-leading-zero (3 balance tests, whichever coins have an amount below one:
 *   "schema balance-coin-list-response: /data/coins/0/amounts/crypto/available (pattern), .../vesting (pattern)";
 *   "schema balance-response: /data/amounts/crypto/staking (pattern), .../reserve (pattern)"). 1.5 gives "decimal strings
 *   (up to 25 fractional digits, or the bare string 0)" and no grammar; ".50000000" is a decimal numeral (Java's
 *   BigDecimal, Python's Decimal, SQL's numeric literal all read it), and `DecimalFormat("#.00000000")` writes it. The
 *   weakest of the three: "decimal string" may fairly be read as requiring an integer digit.
 */
// The lead's judgement: the two schema readings are false failures, fixed (schemas/common.json decimalString and
// numericString, the comparisons in helpers/arrange): registered. The interim 100 Continue, first left out as a limit of
// the client, is fixed in the client (helpers/net/interim.ts: the suite's connections read through every interim 1xx
// answer but 101 before undici's parser sees it): registered too.
const REFUSED = new Set<string>([]);

export const readingsR13Refused: Mutant[] = readingsR13Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 13 (registered in index.ts): each must stay conformant. */
export const readingsR13Mutants: Mutant[] = readingsR13Written.filter((mutant) => !REFUSED.has(mutant.name));
