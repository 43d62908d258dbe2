import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, HttpAnswer } from '../errors.js';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, bicCompanyOfState, isSessionAnswer, only, ownCompany, parse, perServerMutation, reading, recordsOf, routeOf, onBalanceAnswers } from './reading.js';

/**
 * Reading round 12 (issue 28): implementation choices the specification leaves open, each taken the other way from
 * the reference, as a Django REST team (behind nginx), a Python team on PostgreSQL, a Symfony team, a NestJS team
 * behind an Express rate limiter, a Spring team, a Rails team, an Apache team with a small keep-alive budget would take
 * them, reading only the specification and docs/provider-states.md. Written without reading the suite (suites/,
 * helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a reading of rounds 1 to 11 or of the groups'
 * own `allowed-*` mutants. Each description quotes the text that leaves the point open.
 * Run against the suite: 19 of 27 stayed conformant; of the 8 refused, 4 were false failures the suite no longer makes
 * (registered since), and 4 are judged deviations, kept in `readingsR12Refused` (not registered) with the reason.
 */

const LOGIN = '/api/v1/authenticate';
const JWT_LOGIN = '/api/v1/authenticate-jwt/:platform';
const LOGOUT = '/api/v1/user/logout';
const FORGOT = '/api/v1/user/forgot-password';
const RESET = '/api/v1/user/reset-password';
const BANKS = '/api/v1/user/:user/bank';
const BANK = '/api/v1/user/:user/bank/:bank';
const CARDS = '/api/v1/user/:user/card';
const BONUSES = '/api/v1/user/:user/bonus';
const BONUS = '/api/v1/user/:user/bonus/:bonus';
const BONUS_ROUTES = [BONUSES, BONUS];
const BALANCE_LISTS = ['/api/v1/user/:user/balances', '/api/v1/user/:user/balances/nft'];
const NFT_ROUTES = ['/api/v1/user/:user/balances/nft', '/api/v1/user/:user/balances/nft/:asset'];

/** The bearer token of a request, when it carries one. */
const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();

/** A field of a request's JSON body. */
const sent = (reply: FastifyReply, field: string): unknown => ((reply.request.body ?? {}) as Record<string, unknown>)[field];

/**
 * A list filter read the reading's way: the query member `key` of the list `routes` is taken out of the reference's hands
 * (so it neither filters nor refuses it), and the list answered is kept to the records `matches` with the value sent.
 */
function filteredBy(routes: readonly string[], key: string, matches: (record: any, value: string) => boolean): Mutation {
  const asked = new WeakMap<FastifyRequest, string[]>();
  return {
    request(request) {
      if (request.method !== 'GET' || !routes.includes(routeOf(request))) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const raw = query[key];
      const values = (Array.isArray(raw) ? raw : [raw]).filter((value): value is string => typeof value === 'string' && value !== '');
      if (values.length === 0) return;
      asked.set(request, values);
      delete query[key];
    },
    wire(answer, reply) {
      const values = asked.get(reply.request);
      if (values === undefined || answer.status !== 200) return undefined;
      const body = parse(answer.payload);
      const list = Array.isArray(body?.data) ? body.data : Array.isArray(body?.data?.coins) ? body.data.coins : undefined;
      if (list === undefined) return undefined;
      const kept = list.filter((record: any) => values.some((value) => matches(record, value)));
      if (Array.isArray(body.data)) body.data = kept;
      else body.data.coins = kept;
      return JSON.stringify(body);
    },
  };
}

/** The bank list's `company` compared with the institution code of the bank's SWIFT (its first four letters, any letter case). */
export function bicCompanyFilter(): Mutation {
  return filteredBy([BANKS], 'company', (record, value) => typeof record?.swift === 'string' && record.swift.slice(0, 4).toUpperCase() === value.trim().toUpperCase());
}

/** The host of a URL, lower-case; '' when it is none. */
function hostOf(url: unknown): string {
  try {
    return typeof url === 'string' ? new URL(url).hostname.toLowerCase() : '';
  } catch {
    return '';
  }
}

/** ISO 13616: two letters, two check digits, 11 to 30 letters or digits, mod 97 = 1. */
function validIban(value: string): boolean {
  const iban = value.toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  let rest = 0;
  for (const char of `${iban.slice(4)}${iban.slice(0, 4)}`) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

/** ISO 9362: four letters (institution), two letters (country), two letters or digits (location), optionally three (branch). */
const validBic = (value: string): boolean => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/i.test(value);

/**
 * A bank create rule the reference does not have, on `field`: a value of letters and digits that is not `valid` is refused
 * with 422 keyed by the field. The reference has stored such a bank already: it is kept hidden from every later answer
 * (the list leaves it out, show and delete answer 404), as if never made. A value the rule refuses is refused whenever it
 * is sent, so the hidden bank's IBAN, which the reference still holds, is never sent again with a valid value.
 */
function bankFieldRule(field: string, valid: (value: string) => boolean, message: string): Mutation {
  const hidden = new Set<string>();
  return {
    wire(answer, reply) {
      if (answer.method === 'POST' && answer.url === BANKS) {
        const value = sent(reply, field);
        if (typeof value !== 'string' || !/^[A-Za-z0-9]+$/.test(value) || valid(value)) return undefined;
        const body = parse(answer.payload);
        if (answer.status === 201) {
          if (typeof body?.data?.id === 'string') hidden.add(body.data.id.toLowerCase());
          reply.code(422);
          return JSON.stringify({ message, errors: { [field]: [message] } });
        }
        if (answer.status === 422 && body?.errors && typeof body.errors === 'object' && !body.errors[field]) {
          body.errors[field] = [message];
          return JSON.stringify(body);
        }
        return undefined;
      }
      if (hidden.size === 0 || answer.status !== 200) return undefined;
      if (answer.method === 'GET' && answer.url === BANKS) {
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        body.data = body.data.filter((record: any) => !hidden.has(String(record?.id).toLowerCase()));
        return JSON.stringify(body);
      }
      const id = (reply.request.params as Record<string, unknown> | undefined)?.bank;
      if (answer.url === BANK && typeof id === 'string' && hidden.has(id.toLowerCase())) {
        reply.code(404);
        return JSON.stringify({ message: `No query results for model [Bank] ${id}` });
      }
      return undefined;
    },
  };
}

/** Python's str.title(): each run of letters with its first letter upper-case and the rest lower-case. */
const pythonTitle = (text: string): string => text.replace(/\p{L}+/gu, (word) => `${word.charAt(0).toUpperCase()}${word.slice(1).toLowerCase()}`);

/** The fields of each create or login body, as the model of the request lists them. */
const BODY_FIELDS: Record<string, readonly string[]> = {
  [LOGIN]: ['email', 'password', '2fa'],
  [FORGOT]: ['email', 'type'],
  [RESET]: ['email', 'token', 'password'],
  [BANKS]: ['bankName', 'iban', 'swift', 'currency'],
  [CARDS]: ['cardImage1', 'cardImage2', 'holderName', 'expirationDate', 'expirationMonth', 'expirationYear', 'lastFourDigits', 'alias'],
};

/** The paths of the interface's endpoints (section 4), whatever the method. */
const ENDPOINT_PATHS: readonly RegExp[] = [
  /^\/api\/v1\/authenticate$/,
  /^\/api\/v1\/authenticate-jwt\/[^/]+$/,
  /^\/api\/v1\/user\/(forgot-password|reset-password|logout)$/,
  /^\/api\/v1\/user\/[^/]+\/balances(\/nft)?(\/[^/]+)?$/,
  /^\/api\/v1\/user\/[^/]+\/(bank|card|bonus)(\/[^/]+)?$/,
  /^\/api\/v1\/user\/[^/]+\/bonus\/assets(\/[^/]+)?$/,
];

const DJANGO_NOT_FOUND = '<!doctype html>\n<html lang="en">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n';

/** Requests one connection may carry before the server closes it (Apache's MaxKeepAliveRequests). */
const REQUESTS_PER_CONNECTION = 3;

/** Failed logins (403 or 422) of one e-mail after which its login is restricted, and for how long. */
const REFUSALS_BEFORE_RESTRICTION = 5;
const RESTRICTION_MS = 15 * 60_000;

const readingsR12Written: Mutant[] = [
  // ---- Sessions and tokens (2.1, 4.1, 4.5, 5)
  reading(
    'allowed-r12-login-reuses-live-token',
    'authentication',
    '5',
    'a login (either kind) of an account that still has a live session answers that same Session again (same `id`, `ttl`, `until`, `created`) instead of issuing a second token, as a Django REST team using `Token.objects.get_or_create(user=user)` (one token per user) does; after logout destroys it, or once it expired, the next login issues a new one (5.1: "Two ways to obtain an access token"; 5.2: "Both return a Session (2.1). Its id is the bearer token, valid for ttl seconds, until until"; 4.5: "Destroys the token": nothing says that each login issues a token of its own)',
    (() => {
      const live = new Map<string, any>();
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (answer.url === LOGOUT && answer.status === 200) {
            const token = bearerOf(reply.request);
            for (const [user, session] of live) if (session.id === token) live.delete(user);
            return undefined;
          }
          if (!isSessionAnswer(answer)) return undefined;
          const body = parse(answer.payload);
          const session = body?.data;
          if (typeof session?.userId !== 'string' || typeof session.id !== 'string') return undefined;
          const earlier = live.get(session.userId);
          if (earlier && Date.parse(earlier.until) > Date.now() + 1000) {
            body.data = earlier;
            return JSON.stringify(body);
          }
          live.set(session.userId, session);
          return undefined;
        },
      };
    })(),
    ALL,
  ),
  reading(
    'allowed-r12-session-times-lower-case-t-z',
    'authentication',
    '2.1',
    'the Session\u2019s `until` and `created` write the date-time separator and the UTC designator lower-case ("2026-11-26t08:18:18.891157z"), as a team whose formatter lower-cases its output writes them (1.4: "The authentication response uses ISO 8601 UTC strings with microseconds (until, created)"; RFC 3339 5.6, the profile of ISO 8601 for the Internet: "Per [ABNF] and ISO8601, the \'T\' and \'Z\' characters in this syntax may alternatively be lower case \'t\' or \'z\' respectively")',
    {
      wire(answer) {
        if (!isSessionAnswer(answer)) return undefined;
        const body = parse(answer.payload);
        if (!body?.data) return undefined;
        for (const key of ['until', 'created']) if (typeof body.data[key] === 'string') body.data[key] = body.data[key].replace('T', 't').replace(/Z$/, 'z');
        return JSON.stringify(body);
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r12-jwt-also-from-authorization',
    'authentication',
    '4.1',
    'a JWT login without a `Token` header also reads the JWT from `Authorization: Bearer <JWT>`, as a team whose JWT extractor tries the header `Token` and then the bearer header (passport-jwt\u2019s `ExtractJwt.fromExtractors`) does (4.1: "Auth: header Token: <JWT> (no bearer header)": the client sends no bearer header; whether the service also reads the JWT there is not given)',
    {
      request(request) {
        if (request.method !== 'POST' || routeOf(request) !== JWT_LOGIN || request.headers.token !== undefined) return;
        const jwt = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)$/i.exec(request.headers.authorization ?? '')?.[1];
        if (jwt) request.headers.token = jwt;
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r12-jwt-session-echoes-platform-jwt',
    'authentication',
    '2.1',
    'the Session of a JWT login also carries the platform\u2019s JWT it was given, as `platformToken`, as a team that keeps the platform\u2019s token in its session for its own calls back to the platform (NextAuth\u2019s session with the provider\u2019s `id_token`) returns it: the caller gets back only the credential it sent (2.1 lists the fields of a Session, not that it has no others; 4.1: "header Token: <JWT>": whether the answer may repeat it is not given)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || answer.url !== JWT_LOGIN) return undefined;
        const body = parse(answer.payload);
        const jwt = reply.request.headers.token;
        if (!body?.data || typeof jwt !== 'string') return undefined;
        body.data.platformToken = jwt;
        return JSON.stringify(body);
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r12-password-invalid-bearer-401',
    'password',
    '4.4',
    'forgot-password and reset-password, sent with a bearer header whose token is not valid (logged out, expired, or not of the form `<id>|<secret>`), are answered 401 `{ error }`; without a bearer header, or with a valid one, they are served as usual, as Django REST framework\u2019s TokenAuthentication answers a bad token on every view, AllowAny ones too (4: "Forgot-password and reset-password requests are also sent with a bearer header in the reference calls"; 5.3: "Without valid authentication the response is 401": what a public endpoint does with an invalid bearer header is not given)',
    (() => {
      const until = new Map<string, number>();
      const destroyed = new Set<string>();
      return {
        request(request: FastifyRequest) {
          const route = routeOf(request);
          if (request.method !== 'POST' || (route !== FORGOT && route !== RESET)) return;
          const token = bearerOf(request);
          if (token === undefined) return;
          const expiry = until.get(token);
          if (!/^\d+\|\S+$/.test(token) || destroyed.has(token) || (expiry !== undefined && expiry <= Date.now())) throw new HttpAnswer(ERRORS.unauthenticated());
        },
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (isSessionAnswer(answer)) {
            const session = parse(answer.payload)?.data;
            if (typeof session?.id === 'string') until.set(session.id, Date.parse(session.until));
          } else if (answer.url === LOGOUT && answer.status === 200) {
            const token = bearerOf(reply.request);
            if (token) destroyed.add(token);
          }
          return undefined;
        },
      };
    })(),
    only('password', 'authentication'),
  ),
  reading(
    'allowed-r12-login-failures-count-every-refusal',
    'authentication',
    '8',
    'every refused login of an e-mail counts towards its restriction, a 422 (a password under 8 characters, a malformed 2FA code) as well as a 403, five of them restricting the e-mail\u2019s login for 15 minutes (425), and a successful login clearing the count, as a NestJS team whose express-rate-limit is keyed by the body\u2019s e-mail with `skipSuccessfulRequests: true` counts them (5.5: "temporarily after brute force detection (425)"; 8: "Repeated failed logins lead to a temporary restriction (425); the threshold and duration are not shown": whether a login refused by validation is a failed login is not given)',
    perServerMutation(() => {
      const refusals = new Map<string, { count: number; until?: number }>();
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (answer.method !== 'POST' || answer.url !== LOGIN) return undefined;
          const email = sent(reply, 'email');
          if (typeof email !== 'string' || email.trim() === '') return undefined;
          const key = email.trim().toLowerCase();
          const now = Date.now();
          let entry = refusals.get(key) ?? { count: 0 };
          if (entry.until !== undefined && entry.until <= now) entry = { count: 0 };
          if (entry.until !== undefined && answer.status !== 425) {
            reply.code(425);
            return JSON.stringify({ error: `Too many login attempts. Please try again in ${Math.ceil((entry.until - now) / 1000)} seconds.` });
          }
          if (answer.status === 200) refusals.delete(key);
          else if (answer.status === 403 || answer.status === 422) {
            entry.count += 1;
            if (entry.count >= REFUSALS_BEFORE_RESTRICTION) entry.until = now + RESTRICTION_MS;
            refusals.set(key, entry);
          }
          return undefined;
        },
      };
    }),
    only('authentication'),
  ),

  // ---- Banks (2.4, 4.10, 8)
  reading(
    'allowed-r12-iban-checksum-validated',
    'banks',
    '4.10',
    'a bank\u2019s `iban` must be an IBAN by ISO 13616 (country letters, check digits, 11 to 30 letters or digits, mod 97 = 1): any other value of letters and digits is refused with 422 keyed by `iban`, as a Symfony team\u2019s `Iban` constraint or a Python team\u2019s `stdnum.iban.validate` refuses it (4.10: "iban | string | yes | max 191, alphanumeric, unique": the field is named IBAN, and whether a value that is no IBAN is one is not given; the limits given do not say that every value within them is accepted)',
    bankFieldRule('iban', validIban, 'This is not a valid International Bank Account Number (IBAN).'),
    only('banks'),
  ),
  reading(
    'allowed-r12-swift-bic-structure',
    'banks',
    '4.10',
    'a bank\u2019s `swift` must have the structure of an ISO 9362 BIC: four letters (institution), two letters (country), two letters or digits (location), and optionally three more (branch), so 8 or 11 characters; any other value is refused with 422 keyed by `swift`, as a Symfony team\u2019s `Bic` constraint refuses it (4.10: "swift | string | yes | alphanumeric, length 8 to 11"; 8: "bank.swift | 8 to 11 characters": the field is a SWIFT code, and the limits given do not say that every value within them is one)',
    bankFieldRule('swift', validBic, 'This is not a valid Business Identifier Code (BIC).'),
    only('banks'),
  ),
  reading(
    'allowed-r12-bank-company-filter-by-bic-institution',
    'banks',
    '4.10',
    'the bank list\u2019s `company` filter is compared with the institution code of the bank\u2019s SWIFT (its first four letters, any letter case: `company=DEUT` lists the Deutsche Bank accounts), as a team that identifies a bank company by its BIC institution code does (4.10: "query: status, currency, company, platform (all optional filters, strings)": what `company` is compared with is not given)',
    // Its hook answers the optional company of bank.two-platforms in this meaning: a SWIFT institution code of the state's banks.
    { ...bicCompanyFilter(), state: bicCompanyOfState },
    only('banks'),
  ),
  reading(
    'allowed-r12-bank-name-title-case',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is stored, and answered everywhere, in title case ("Deutsche Bank Ag" for "DEUTSCHE BANK AG", "Ing-Diba" for "ING-DiBa"), as a Python team normalising names with `str.title()` on save does (2.4: "bankName | string"; 4.10: "bankName | string | yes | max 191": nothing says a record repeats the letters sent)',
    {
      wire(answer) {
        if ((answer.status !== 200 && answer.status !== 201) || (answer.url !== BANKS && answer.url !== BANK)) return undefined;
        const body = parse(answer.payload);
        const records = recordsOf(body).filter((record) => typeof record?.bankName === 'string');
        if (records.length === 0) return undefined;
        for (const record of records) record.bankName = pythonTitle(record.bankName);
        return JSON.stringify(body);
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r12-platform-filter-by-url-host',
    'banks',
    '4.10',
    'the `platform` filter of the bank, card and bonus lists is compared with the host of the platform\u2019s URL (`platform=ref.platform.test`; for a bonus, its order\u2019s `externalPlatform.urls.website`), as a multi-tenant team that names its tenants by their domain does (4.10: "query: status, currency, company, platform (all optional filters, strings)"; 4.11: "platform (optional)"; 4.6a: "query status, company, platform (optional filters, strings)": what a platform is named by in a filter is not given; the records name it by code, name and url)',
    filteredBy([BANKS, CARDS, BONUSES], 'platform', (record, value) => {
      const url = record?.externalPlatform?.url ?? record?.order?.externalPlatform?.urls?.website;
      return hostOf(url) !== '' && hostOf(url) === value.trim().toLowerCase();
    }),
    only('banks', 'cards', 'bonuses'),
  ),

  // ---- Cards (2.5, 4.6a)
  reading(
    'allowed-r12-card-company-filter-by-holder-name',
    'cards',
    '4.6a',
    'the card list\u2019s `company` filter is compared with the card\u2019s `holderName`, any letter case, as a team issuing corporate cards (embossed with the company\u2019s name) reads it (4.6a: "List | GET /api/v1/user/{user}/card | query status, company, platform (optional filters, strings)": what `company` is compared with is not given)',
    {
      ...filteredBy([CARDS], 'company', (record, value) => typeof record?.holderName === 'string' && record.holderName.toLowerCase() === value.trim().toLowerCase()),
      // Its hook answers the optional company of card.two-platforms in this meaning: the holder of the state's first card.
      state: ownCompany('card.two-platforms', (data, ctx) => {
        const first = data?.platforms?.[0]?.ids?.[0];
        const card = typeof first === 'string' ? (ctx.db.prepare('SELECT user_id, holder_name FROM cards WHERE id = ?').get(first) as { user_id: string; holder_name: string } | undefined) : undefined;
        if (!card) return undefined;
        const cards = ctx.db.prepare('SELECT id, holder_name FROM cards WHERE user_id = ? ORDER BY rowid').all(card.user_id) as { id: string; holder_name: string }[];
        return { value: card.holder_name, ids: cards.filter((c) => c.holder_name.toLowerCase() === card.holder_name.toLowerCase()).map((c) => c.id) };
      }),
    },
    only('cards'),
  ),

  reading(
    'allowed-r12-card-expiration-shown-four-digit-year',
    'cards',
    '2.5',
    'a card\u2019s `expirationDate` sent with a two-digit year is stored as a year-month and answered with the four-digit year ("07/2031" for "07/31"), as a Java team keeping a `YearMonth` and formatting it `MM/yyyy` does (2.5: "expirationDate | string | Format m/y"; 4.6a: "expirationDate ... format m/y": how many digits `y` has in an answer, and that a record repeats the digits sent, is not given)',
    {
      wire(answer) {
        if ((answer.status !== 200 && answer.status !== 201) || !answer.url.startsWith(CARDS)) return undefined;
        const body = parse(answer.payload);
        const records = recordsOf(body).filter((record) => typeof record?.expirationDate === 'string' && /^\d{1,2}\/\d{2}$/.test(record.expirationDate));
        if (records.length === 0) return undefined;
        for (const record of records) record.expirationDate = record.expirationDate.replace(/\/(\d{2})$/, '/20$1');
        return JSON.stringify(body);
      },
    },
    only('cards'),
  ),

  reading(
    'allowed-r12-card-image-presigned-urls',
    'cards',
    '2.5',
    'card records also carry `cardImage1Url` and `cardImage2Url`, S3 pre-signed URLs of the stored images valid for 5 minutes (`X-Amz-Credential`, `X-Amz-Signature` in the query), as a team keeping the images in S3 hands its owner a link to them: a capability to the caller\u2019s own images, not another\u2019s credential (2.5 lists the fields of a card record, not that it has no others; "cardImage1 | string | Identifier of the stored first image")',
    {
      wire(answer) {
        if ((answer.status !== 200 && answer.status !== 201) || !answer.url.startsWith(CARDS)) return undefined;
        const body = parse(answer.payload);
        const records = recordsOf(body).filter((record) => typeof record?.cardImage1 === 'string' && typeof record?.cardImage2 === 'string');
        if (records.length === 0) return undefined;
        const date = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
        const signed = (key: string): string => {
          const signature = createHash('sha256').update(`${key}${date}`).digest('hex');
          return `https://card-images.s3.eu-west-1.amazonaws.com/${encodeURIComponent(key)}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F${date.slice(0, 8)}%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=${date}&X-Amz-Expires=300&X-Amz-SignedHeaders=host&X-Amz-Signature=${signature}`;
        };
        for (const record of records) Object.assign(record, { cardImage1Url: signed(record.cardImage1), cardImage2Url: signed(record.cardImage2) });
        return JSON.stringify(body);
      },
    },
    only('cards'),
  ),

  // ---- Balances (2.2, 4.6, 4.8)
  reading(
    'allowed-r12-nft-chain-null',
    'balances',
    '2.2',
    'NFT balance records carry `chain: { name: null, symbol: null }`, as a platform that mints its NFTs on its own ledger, on no public chain, writes them (2.2: "chain | object | { name: string or null, symbol: string or null } (both null for a native coin)": what an NFT\u2019s chain is, and whether only a native coin has both null, is not given)',
    // Its hook answers the NFTs' chain so too (round wb23: the state's optional assets are what the records hold).
    onBalanceAnswers(NFT_ROUTES, (body) => {
      const records = recordsOf(body).filter((record) => record && typeof record === 'object');
      if (records.length === 0) return false;
      for (const record of records) record.chain = { name: null, symbol: null };
    }),
    only('balances'),
  ),
  reading(
    'allowed-r12-assets-filter-reads-aliases',
    'balances',
    '4.8',
    'the balances\u2019 `assets[]` filter names an asset by its symbol or by its alias, in any letter case (`assets[]=usdt-erc20` lists USDT), as a team whose asset lookup tries both columns does (4.6, 4.8: "Query: assets[] (optional, repeatable; asset symbols to return)": whether another name of an asset selects it is not given)',
    filteredBy(BALANCE_LISTS, 'assets[]', (record, value) => [record?.symbol, record?.alias].some((name) => typeof name === 'string' && name.toLowerCase() === value.trim().toLowerCase())),
    only('balances'),
  ),

  reading(
    'allowed-r12-balance-deposit-addresses',
    'balances',
    '2.2',
    'each coin balance record also carries the user\u2019s deposit address for the coin, `depositAddress` ("0x" and 40 hex digits for coins on Ethereum, a bech32 `bc1q...` address for BTC, 34 base58 characters for the rest), as an exchange that shows where to send funds does: a public address, no secret (2.2 lists the fields of a balance record, not that it has no others; "meta | object | May be empty. Keys seen: ...")',
    {
      wire(answer) {
        if (answer.status !== 200 || !answer.url.startsWith('/api/v1/user/:user/balances') || answer.url.includes('/nft')) return undefined;
        const body = parse(answer.payload);
        const records = recordsOf(body).filter((record) => record && typeof record.symbol === 'string');
        if (records.length === 0) return undefined;
        for (const record of records) {
          const digest = createHash('sha256').update(`${answer.url}:${record.symbol}`).digest('hex');
          const base58 = Array.from(digest, (char) => '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'[parseInt(char, 16) * 3]).join('');
          record.depositAddress = record.symbol === 'BTC' ? `bc1q${digest.slice(0, 38)}` : record.chain?.symbol === 'ETH' || record.symbol === 'ETH' ? `0x${digest.slice(0, 40)}` : `1${base58.slice(0, 33)}`;
        }
        return JSON.stringify(body);
      },
    },
    only('balances'),
  ),

  // ---- Bonuses (2.3, 2.5a, 2.7, 4.11)
  reading(
    'allowed-r12-order-nullable-members-null',
    'bonuses',
    '2.7',
    'a bonus\u2019s order writes null for every member the text lets be null and the platform does not record: `statusReason`, `txId`, `wallet`, `walletAddress`, `payment.amount`, `payment.proofUploaded`, and the ids of `parentOrder` and `childOrder` (2.7: "statusReason | string or null", "txId, wallet, walletAddress | string or null", "parentOrder, childOrder | { id: string or null, publicId: string or null }", "payment ... amount (nullable) ... proofUploaded (nullable)")',
    {
      wire(answer) {
        if (answer.status !== 200 || !BONUS_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        const orders = recordsOf(body).map((record) => record?.order).filter((order) => order && typeof order === 'object');
        if (orders.length === 0) return undefined;
        for (const order of orders) {
          for (const key of ['statusReason', 'txId', 'wallet', 'walletAddress']) order[key] = null;
          order.parentOrder = { id: null, publicId: null };
          order.childOrder = { id: null, publicId: null };
          if (order.payment && typeof order.payment === 'object') Object.assign(order.payment, { amount: null, proofUploaded: null });
        }
        return JSON.stringify(body);
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r12-asset-summary-alias-null',
    'bonuses',
    '2.3',
    'the asset summaries of bonuses and orders write `alias: null` for every asset, as a platform whose bonus ledger keeps no alias of an asset writes them (2.3: "{ name: string, symbol: string, alias: string or null, type: string ..., precision: numeric string }")',
    {
      wire(answer) {
        if (answer.status !== 200 || !answer.url.startsWith('/api/v1/user/:user/bonus')) return undefined;
        const body = parse(answer.payload);
        const summaries: any[] = [];
        for (const record of recordsOf(body)) summaries.push(record?.asset, record?.order?.fromAsset, record?.order?.toAsset);
        const found = summaries.filter((summary) => summary && typeof summary === 'object' && 'alias' in summary);
        if (found.length === 0) return undefined;
        for (const summary of found) summary.alias = null;
        return JSON.stringify(body);
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r12-bonused-at-zero-until-distributed',
    'bonuses',
    '2.5a',
    'a bonus not distributed (pending or canceled) has `bonusedAt: 0`, the Unix epoch a team writes for "no date yet" in a NOT NULL integer column (2.5a: "bonusedAt | integer | Unix seconds": nothing says when a bonus is bonused, nor what a bonus never bonused carries)',
    {
      wire(answer) {
        if (answer.status !== 200 || !BONUS_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        const open = recordsOf(body).filter((record) => record && typeof record.bonusedAt === 'number' && record.status !== 'distributed');
        if (open.length === 0) return undefined;
        for (const record of open) record.bonusedAt = 0;
        return JSON.stringify(body);
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r12-order-platform-widget-null',
    'bonuses',
    '2.7',
    'an order\u2019s `externalPlatform.urls.widget` is null, the platform having no widget, as a platform that sells through its website only writes it (2.7: "externalPlatform | object: id, code, name, color_code (string), urls = { website, widget }": only color_code is typed; whether a platform has a widget URL is not given)',
    {
      wire(answer) {
        if (answer.status !== 200 || !BONUS_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        const urls = recordsOf(body).map((record) => record?.order?.externalPlatform?.urls).filter((value) => value && typeof value === 'object');
        if (urls.length === 0) return undefined;
        for (const value of urls) value.widget = null;
        return JSON.stringify(body);
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r12-bonus-status-filter-comma-list',
    'bonuses',
    '4.11',
    'the bonus list\u2019s `status` filter reads a comma-separated list of statuses (`status=pending,canceled` lists both), as a team following JSON:API\u2019s filter convention does; one status is read as before (4.11: "query status (optional; distributed, pending, canceled)": whether one request may name several is not given)',
    (() => {
      const byList = filteredBy([BONUSES], 'status', (record, value) => value.split(',').map((status) => status.trim()).includes(record?.status));
      return {
        request(request: FastifyRequest) {
          const status = ((request.query ?? {}) as Record<string, unknown>).status;
          if (typeof status === 'string' && status.includes(',')) byList.request!(request);
        },
        wire: byList.wire,
      };
    })(),
    only('bonuses'),
  ),

  // ---- Errors (7)
  reading(
    'allowed-r12-not-found-django-words',
    'banks',
    '7',
    'a 404 for a record id that names no record says so in Django\u2019s words, `{ message: "No Bank matches the given query." }` (`get_object_or_404`), not in Laravel\u2019s "No query results for model [Bank] <id>" (7: "404 | bank show, bonus show, card show | no record found (message: no query results)": unlike 5.6\u2019s quoted "This action is unauthorized.", the message is described, not quoted)',
    {
      wire(answer) {
        if (answer.status !== 404) return undefined;
        const body = parse(answer.payload);
        const model = typeof body?.message === 'string' ? /^No query results for model \[(?:[\w\\]*\\)?(\w+)\]/.exec(body.message)?.[1] : undefined;
        if (model === undefined) return undefined;
        body.message = `No ${model} matches the given query.`;
        return JSON.stringify(body);
      },
    },
    only('banks', 'bonuses', 'cards'),
  ),
  reading(
    'allowed-r12-validation-errors-list-every-field',
    'banks',
    '7',
    'a 422 of a create or login body names every field of the request\u2019s model in `errors`, the valid ones with an empty list (`"swift": []`), as a Rails team rendering `record.errors.messages` after looking every attribute up (Rails before 6.1 adds a key for each attribute read) does (7: "Validation (422): { message: string, errors: { <field_name>: [string, ...] } }": whether a valid field may be named with no text is not given)',
    {
      wire(answer) {
        const fields = BODY_FIELDS[answer.url];
        if (answer.status !== 422 || answer.method !== 'POST' || fields === undefined) return undefined;
        const body = parse(answer.payload);
        if (!body?.errors || typeof body.errors !== 'object' || Array.isArray(body.errors)) return undefined;
        for (const field of fields) if (!(field in body.errors)) body.errors[field] = [];
        return JSON.stringify(body);
      },
    },
    only('authentication', 'password', 'banks', 'cards'),
  ),

  // ---- HTTP (1.2)
  reading(
    'allowed-r12-unknown-path-html-404',
    'authentication',
    '1',
    'a path that names no endpoint of the interface (no route of section 4, whatever the method) is answered 404 with Django\u2019s HTML page (`text/html`), as a Django REST team behind nginx answers it with DEBUG off: the URL resolver\u2019s 404 is not a view of the API (1.2: "Requests and responses are JSON" is said of the interface\u2019s requests and responses; section 4 lists its endpoints; nothing is said of a path that is none of them)',
    {
      wire(answer, reply) {
        if (answer.url !== '' || answer.status !== 404) return undefined;
        const path = reply.request.url.split('?')[0] ?? '';
        if (ENDPOINT_PATHS.some((endpoint) => endpoint.test(path))) return undefined;
        reply.header('content-type', 'text/html; charset=utf-8');
        return DJANGO_NOT_FOUND;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r12-keep-alive-three-requests',
    'authentication',
    '1',
    'a connection carries at most three requests: the first answers say `Connection: keep-alive` and `Keep-Alive: timeout=5, max=N` (the requests left), the third says `Connection: close` and the server closes the connection, as Apache with `MaxKeepAliveRequests 3` in front of the service does (1.2: "Requests and responses are JSON": the connection handling is HTTP/1.1\u2019s, RFC 9112 9.3, 9.6, which lets a server close a persistent connection after any response that says `close`)',
    (() => {
      const served = new WeakMap<object, number>();
      return {
        wire(_answer: WireAnswer, reply: FastifyReply) {
          const socket = reply.request.raw.socket;
          if (!socket) return undefined;
          const count = (served.get(socket) ?? 0) + 1;
          served.set(socket, count);
          if (count >= REQUESTS_PER_CONNECTION) reply.header('connection', 'close');
          else {
            reply.header('connection', 'keep-alive');
            reply.header('keep-alive', `timeout=5, max=${REQUESTS_PER_CONNECTION - count}`);
          }
          return undefined;
        },
      };
    })(),
    ALL,
  ),
  reading(
    'allowed-r12-content-disposition-inline',
    'authentication',
    '1',
    'every answer carries `Content-Disposition: inline;filename=f.txt`, as Spring MVC adds it against reflected file download, with `Content-Type` still `application/json` (1.2: "Requests and responses are JSON": the headers of an answer beyond its content type are not given; RFC 6266: `inline` means the body is shown as it is, the file name only if it is saved)',
    {
      wire(_answer, reply) {
        reply.header('content-disposition', 'inline;filename=f.txt');
        return undefined;
      },
    },
    ALL,
  ),
];

/**
 * Readings of round 12 the suite refused (candidate false failures). Run on 2026-11-26 against main at 4008bee
 * (`npm run mutants -- --mutant allowed-r12-... --shards 1`, then `conformance run --mutant NAME --grep ...` for the
 * messages), then judged by the lead (issue 28). Three were false failures, fixed and registered (fix-r12):
 * - allowed-r12-bank-company-filter-by-bic-institution, allowed-r12-card-company-filter-by-holder-name: "company must
 *   list the user's records on platform REF when given its code, its ID or its name; none did". 4.10 and 4.6a name
 *   `company` and nothing more: the company test now judges only what holds under every reading (only the user's
 *   records, each once) and advises on whether the platform's code, ID, name or url host lists its records.
 * - allowed-r12-platform-filter-by-url-host: "platform must list the user's records on platform REF when given its
 *   code, its ID or its name; none did". The records name a platform by code, name and url: the url's host is now sent
 *   as one more value (helpers/check/filters.ts).
 * - allowed-r12-session-times-lower-case-t-z: "schema session-response: /data/until (pattern)". RFC 3339 5.6: "Per
 *   [ABNF] and ISO8601, the 'T' and 'Z' characters in this syntax may alternatively be lower case": schemas/common.json
 *   isoMicrosUtc and helpers/spec/utc-time.ts accept `t` and `z`.
 * Judged deviations, kept here and not registered (docs/judging.md, "Judgements beyond the letter"):
 * - allowed-r12-iban-checksum-validated (2 tests, banks: "iban "71219704299983" is valid (bank.iban.alphanumeric), so
 *   bank create must answer 201; got 422"; "... an iban of 191 characters": expected 201, got 422) and
 *   allowed-r12-swift-bic-structure (1 test: "swift "xrqq8xgi" is valid (bank.swift.length), so bank create must answer
 *   201; got 422"). Deviation: 4.10's constraint column is the whole rule of a field ("the constraint columns are
 *   exhaustive", issue 27): "max 191, alphanumeric, unique" and "alphanumeric, length 8 to 11" accept every value within
 *   them, and the text itself accepts swift codes of 9 and 10 characters, which are no BIC.
 * - allowed-r12-not-found-django-words (4 tests, banks, bonuses, cards: "section 7: the 404 for the record must say "no
 *   query results""). Deviation: section 7's table gives the 404 "(message: no query results)"; the suite requires
 *   those words in the message, in any letter case, anywhere in it (Laravel's "No query results for model [Bank] <id>"
 *   and any wording that contains them pass), and "No Bank matches the given query." does not contain them.
 * - allowed-r12-validation-errors-list-every-field (134 tests: "schema error-validation: /errors/password (minItems)").
 *   Deviation: section 7 gives `errors: { <field_name>: [string, ...] }`, the fields in error each with one or more
 *   texts; a field named with an empty list is no field in error, and says nothing of why.
 */
const REFUSED = new Set<string>([
  'allowed-r12-iban-checksum-validated',
  'allowed-r12-swift-bic-structure',
  'allowed-r12-not-found-django-words',
  'allowed-r12-validation-errors-list-every-field',
]);

/** The readings of round 12 the suite refused (see REFUSED), not registered as allowed readings. */
export const readingsR12Refused: Mutant[] = readingsR12Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 12 (registered in index.ts): each must stay conformant. */
export const readingsR12Mutants: Mutant[] = readingsR12Written.filter((mutant) => !REFUSED.has(mutant.name));
