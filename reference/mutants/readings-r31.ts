import { createHmac, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext, UserRow } from '../context.js';
import type { WireAnswer } from '../mutation.js';
import { findUserByEmail, sessionOf } from '../modules/authentication.js';
import type { Mutant } from './types.js';
import { ALL, answerWith, bankCreateRefused, claimsOf, isSessionAnswer, onAnswers, onBankCreate, onCardFields, onCardTexts, onParsedBody, only, parse, reading, refusalMarks, recordsOf, routeOf, signedBy, tokenShownAs } from './reading.js';
import { AUTH, BANK_ROUTES, BANKS, BONUS_ROUTES, BONUSES, CARD_ROUTES, CARDS, COINS, FORGOT, JWT, NFTS, RESET, SUMMARY } from './routes.js';

/**
 * Reading round 31 (issue 28, "fair to the readings nobody listed"): implementation choices the specification and the
 * provider-states contract leave open, each taken the other way from the reference, as teams would take them. New axes:
 * integers written as a Java BigDecimal with its trailing zeros stripped writes them (`3.6E+3`, an Oracle NUMBER team);
 * a Session that also carries OAuth 2.0's member names for the same token, or a second access token of the caller (a
 * JWT); a masked `password` member in the bonus's user object; the provider states' members in another order; answers
 * without a Date header; Caddy's Alt-Svc (HTTP/3) and the IETF RateLimit headers; a mobile team's client hints; a login
 * whose session cookies are split in chunks (8 KB of headers); a JSON request whose Content-Type carries a parameter
 * refused 415 (1.2: clients send exactly `application/json`); Django's CSRF check on requests that carry its session
 * cookie; Spring Security's 60 s of clock skew on a JWT's `expire`; a JWT whose `kid` names no key of the platform
 * refused; an unknown e-mail checked as a validation rule beside the others (forgot-password keyed by both); snake_case
 * aliases of the bank and card members; platform codes with a space and a hyphen, platform urls on port 8443; a taken
 * IBAN also reported under DRF's `non_field_errors`; a token secret with RFC 6750's `.` and `~`; X-Robots-Tag and
 * Permissions-Policy; text inputs with outer white space refused; line breaks stored as LF; answers 300 ms away; a
 * reset answer naming the last four characters of the token it spent; UUIDs upper-case in list answers only; a Session
 * listing the caller's live sessions by their numeric ids.
 * Run against the suite (bin/mutants.mjs --shards 1, in batches): 27 of 27 conformant, none refused (no false failure,
 * no fair refusal). Six never acted in a whole run, which is itself what they pin: the suite sends no JSON request with a
 * Content-Type parameter (request-content-type-parameters-415), sends back no cookie (django-csrf-on-session-cookie: its
 * cookies are set at login, its check never met), signs its expired JWTs an hour or more in the past
 * (jwt-expire-clock-skew-60s), sends no unknown e-mail with an invalid type (forgot-unknown-email-validated-with-rules),
 * and no bank or card text with outer white space or a CR (create-texts-outer-whitespace-refused,
 * texts-line-breaks-stored-as-lf); jwt-kid-checked-when-present met one JWT with a `kid` and answered it 412, which that
 * test allows. The others changed the answers of every test that met them.
 * Read only from the specification (/work/shared/spec/interface.md), docs/provider-states.md, README.md and reference/;
 * written without reading the suite (suites/, helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a
 * reading of rounds 1 to 30, of the reviews, of the white-box rounds or of the groups' own `allowed-*` mutants (their
 * names, and the descriptions of the near ones, were read for that: r1-bonus-summary-amount-exponent (PHP's exponent for
 * the summary amounts only), r23-total-supply-python-float-repr, r1-session-extra-members, session-refresh-tokens,
 * r10-token-secret-jwt, r29-bonus-user-password-changed-at, r27-state-answers-extra-members, r18-front-proxy-date-behind,
 * r2-rate-limit-headers, r30-authjs-jwe-session-and-csrf-cookies (one cookie), r29-django-csrftoken-cookie (the cookie,
 * no check), r10-jwt-expire-now-to-the-millisecond, r21-jwt-typ-header-checked, r29-reset-unknown-email-keyed-by-email,
 * r9-platform-codes-slugs). Each description quotes the text that leaves the point open. Readings change requests,
 * answers or the provider states' answers only: no edit to reference/modules/.
 */

const isObject = (value: unknown): value is Record<string, any> => !!value && typeof value === 'object' && !Array.isArray(value);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alnum = (length: number, alphabet = ALNUM): string => Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');

/** Every answer (success or not) with headers added by `add`. */
const everyAnswer = (add: (reply: FastifyReply, answer: WireAnswer) => void) => ({
  wire(answer: WireAnswer, reply: FastifyReply) {
    add(reply, answer);
    return undefined;
  },
});

/** Adds a header value, a Set-Cookie beside those already set, any other header's values joined with a comma. */
function addHeader(reply: FastifyReply, name: string, value: string): void {
  const prior = reply.getHeader(name);
  if (prior === undefined) reply.header(name, value);
  else if (name.toLowerCase() === 'set-cookie') reply.header(name, [...(Array.isArray(prior) ? prior.map(String) : [String(prior)]), value]);
  else reply.header(name, `${String(prior)}, ${value}`);
}

/**
 * An integer as java.math.BigDecimal writes it once `stripTrailingZeros()` ran (an Oracle NUMBER read into a BigDecimal):
 * its trailing zeros become a negative scale, which `toString()` writes in exponent form (3600 -> 3.6E+3, 100 -> 1E+2).
 */
function bigDecimalText(value: number): string {
  if (!Number.isSafeInteger(value) || value === 0 || value % 10 !== 0) return JSON.stringify(value);
  const sign = value < 0 ? '-' : '';
  let digits = String(Math.abs(value));
  let scale = 0;
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale -= 1;
  }
  const exponent = digits.length - 1 - scale;
  return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}E+${exponent}`;
}

/** JSON text written by hand, each number by `number`. */
function jsonWith(value: unknown, number: (value: number) => string): string {
  if (typeof value === 'number') return number(value);
  if (Array.isArray(value)) return `[${value.map((item) => jsonWith(item === undefined ? null : item, number)).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([key, inner]) => `${JSON.stringify(key)}:${jsonWith(inner, number)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A value whose objects' members are in reverse order, at every depth (arrays keep their order). */
function membersReversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(membersReversed);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, membersReversed(inner)]),
  );
}

/** camelCase -> snake_case (`cardImage1` -> `card_image1`, `lastFourDigits` -> `last_four_digits`). */
const snake = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** An HS256 JWT of `claims`, signed with `secret`. */
function hs256(claims: Record<string, unknown>, secret: Buffer): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

/** The JWT header (unverified) of a request's `Token`. */
function jwtHeaderOf(request: FastifyRequest): Record<string, unknown> | undefined {
  const token = request.headers.token;
  const head = typeof token === 'string' ? token.split('.')[0] : undefined;
  try {
    return head ? (JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Marks set on a request by a reading's request hook, read by its wire rewrite. */
function marks<T>() {
  const held = new WeakMap<object, T>();
  return { set: (request: object, value: T) => held.set(request, value), get: (reply: FastifyReply): T | undefined => held.get(reply.request) };
}

// ---- allowed-r31-request-content-type-parameters-415
const contentTypeRefused = marks<true>();

// ---- allowed-r31-django-csrf-on-session-cookie
const csrfRefused = marks<true>();
const UNSAFE = ['POST', 'PUT', 'PATCH', 'DELETE'];

// ---- allowed-r31-jwt-expire-clock-skew-60s
const skewed = marks<{ ctx: ReferenceContext; user: UserRow }>();

// ---- allowed-r31-jwt-kid-checked-when-present
const kidRefused = marks<true>();

// ---- allowed-r31-forgot-unknown-email-validated-with-rules
const forgotUnknown = marks<true>();

const SESSION_HMAC_KEY = randomBytes(32);

// ---- allowed-r31-reset-answer-names-spent-token-tail
const resetTails = marks<string>();

// ---- allowed-r31-session-lists-callers-devices
const devicesOf = marks<ReferenceContext>();

// ---- allowed-r31-ids-upper-case-in-lists-only
const WHOLE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ANY_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The platforms a two-platforms state or the state `platform` answers, with their codes. */
const TWO_PLATFORM_STATES = ['bank.two-platforms', 'card.two-platforms', 'bonuses.two-platforms'];

/** A platform code with a space and a hyphen (`P1A2B3C` -> `P1A 2B3-C`), as a SaaS whose tenants type their own codes. */
const spacedCode = (code: string): string => (code.length >= 5 && !/[ -]/.test(code) ? `${code.slice(0, 3)} ${code.slice(3, -1)}-${code.slice(-1)}` : code);

/** Replaces every string equal to a key of `renamed` at any depth. */
function renameStrings(value: unknown, renamed: Map<string, string>): unknown {
  if (typeof value === 'string') return renamed.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => renameStrings(item, renamed));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, renameStrings(inner, renamed)]));
}

const readingsR31Written: Mutant[] = [
  // ---- Numbers
  reading(
    'allowed-r31-integer-members-bigdecimal-exponent',
    'authentication',
    '1',
    'every integer an answer carries that ends in zeros is written as java.math.BigDecimal writes it after `stripTrailingZeros()`, in exponent form (`"ttl":7.2E+3`, `"createdAt":1.73281234E+9`, `"quantity":1E+1`), as a Spring team whose Oracle NUMBER columns are read into BigDecimal and serialised by Jackson with its defaults does; each is the same JSON number, an integer (1.4: "integers (Unix seconds)"; 2.1: "ttl | integer"; RFC 8259 6: "A number is represented in base 10 ... an optional exponent": how a number is written is not given)',
    {
      wire(answer: WireAnswer) {
        const body = parse(answer.payload);
        if (body === undefined || body === null || typeof body !== 'object') return undefined;
        const text = jsonWith(body, bigDecimalText);
        return text === answer.payload ? undefined : text;
      },
    },
    ALL,
  ),

  // ---- What a Session carries
  reading(
    'allowed-r31-session-oauth2-alias-members',
    'authentication',
    '2.1',
    'the Session also carries OAuth 2.0\u2019s names for what it holds (RFC 6749 5.1), `access_token` (the same token as `id`), `token_type: "Bearer"`, `expires_in` (= ttl), and `user_id`, `expires_at` (= until), as a gateway team that keeps its older mobile clients working does (2.1 lists five fields and does not forbid more; 1.3: "Successful single-record responses are wrapped as { data: <record> }")',
    onAnswers([AUTH, JWT], (body, answer) => {
      if (!isSessionAnswer(answer) || !isObject(body?.data)) return false;
      const session = body.data;
      Object.assign(session, { access_token: session.id, token_type: 'Bearer', expires_in: session.ttl, user_id: session.userId, expires_at: session.until });
      return true;
    }),
    ALL,
  ),
  reading(
    'allowed-r31-session-second-access-token-jwt',
    'authentication',
    '2.1',
    'the Session also carries `accessToken`, a JWT (HS256) the service signs for the caller (`sub` its user id, `iat`, `exp` = until, `jti`), which its own front-end services verify without a database, beside the bearer `id` of the form 2.1 gives: a second credential issued to the caller in the answer to its own login (2.1 does not forbid more members; 5.2: "Its `id` is the bearer token")',
    onAnswers([AUTH, JWT], (body, answer) => {
      if (!isSessionAnswer(answer) || !isObject(body?.data) || typeof body.data.userId !== 'string') return false;
      const session = body.data;
      const iat = Math.floor(Date.parse(String(session.created)) / 1000) || Math.floor(Date.now() / 1000);
      const exp = Math.floor(Date.parse(String(session.until)) / 1000) || iat + Number(session.ttl ?? 0);
      session.accessToken = hs256({ sub: session.userId, iat, exp, jti: alnum(16) }, SESSION_HMAC_KEY);
      return true;
    }),
    ALL,
  ),
  reading(
    'allowed-r31-bonus-user-password-member-masked',
    'bonuses',
    '2.6',
    'the user object inside a bonus also carries `password: "********"`, masked as the service masks its other secrets there (the e-mail, the anti-phishing code), as an admin-minded serializer that lists every column and masks the sensitive ones does: neither the password nor its hash (2.6: "email | string, masked by the service"; "antiPhishing (string, masked)"; the table does not forbid more members)',
    onAnswers(BONUS_ROUTES, (body) => {
      let changed = false;
      for (const record of recordsOf(body)) {
        if (isObject(record?.user)) {
          record.user.password = '********';
          changed = true;
        }
      }
      return changed;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r31-bank-and-card-snake-case-alias-members',
    'banks',
    '2.4',
    'bank and card records also carry every member under its snake_case name (`bank_name`, `created_at`, `external_platform`, `holder_name`, `last_four_digits`, `expiration_date`, `card_image1`, ...), as a Rails team halfway through moving its API from snake_case to camelCase writes both for its older clients (2.4 and 2.5 list the fields and do not forbid more; 1.3: "{ data: <record> }")',
    onAnswers([...BANK_ROUTES, ...CARD_ROUTES], (body) => {
      let changed = false;
      for (const record of recordsOf(body)) {
        if (!isObject(record)) continue;
        for (const [key, value] of Object.entries(record)) {
          const alias = snake(key);
          if (alias !== key && !(alias in record)) {
            record[alias] = isObject(value) ? { ...value } : value;
            changed = true;
          }
        }
      }
      return changed;
    }),
    only('banks', 'cards'),
  ),

  // ---- The provider states' answers
  reading(
    'allowed-r31-state-answers-members-reversed',
    'authentication',
    '1',
    'the provider-state hook writes the members of its data in another order, at every depth (`{ "password", "email", "id" }`, `{ "ids", "code", "id" }`), as a PHP hook that builds its arrays member by member in the order it made them does (docs/provider-states.md: "200 { "data": { ... } } | uses data (shapes below)": shapes name members, not their order; RFC 8259 4: "An object is an unordered collection")',
    { state: (_name, data) => membersReversed(data) },
    ALL,
  ),
  reading(
    'allowed-r31-state-platform-codes-with-space-and-hyphen',
    'banks',
    '4.10',
    'the platforms the provider states register have codes with a space and a hyphen (`P1A 2B3-C`), as a multi-tenant SaaS whose tenants type their own display code does; records on them show that code in `externalPlatform.code`, and the hook answers it (2.4: "externalPlatform | object | { code: string, name: string, url: string }": a code is a string, its characters are not given; docs/provider-states.md: "`code` the `externalPlatform.code` its banks show")',
    {
      state(name, data, ctx) {
        if (!isObject(data)) return data;
        const entries: { id: unknown; code: unknown }[] = name === 'platform' ? [data as { id: unknown; code: unknown }] : TWO_PLATFORM_STATES.includes(name) && Array.isArray(data.platforms) ? data.platforms : [];
        const renamed = new Map<string, string>();
        for (const entry of entries) {
          if (typeof entry?.id !== 'string' && typeof entry?.id !== 'number') continue;
          const row = ctx.db.prepare('SELECT code FROM platforms WHERE id = ?').get(entry.id) as { code: string } | undefined;
          if (!row) continue;
          const code = spacedCode(row.code);
          if (code === row.code) continue;
          if (ctx.db.prepare('UPDATE platforms SET code = ? WHERE id = ?').run(code, entry.id).changes === 1) renamed.set(row.code, code);
        }
        return renamed.size === 0 ? data : renameStrings(data, renamed);
      },
    },
    only('banks', 'cards', 'bonuses', 'authentication'),
  ),

  // ---- HTTP headers and framing
  reading(
    'allowed-r31-answers-without-date-header',
    'authentication',
    '1',
    'answers carry no Date header, as a service on an embedded HTTP stack configured without one (Node\u2019s `response.sendDate = false`, a serverless runtime\u2019s own front) does; RFC 9110 6.6.1 asks it of an origin "with a clock" and lets a recipient add one (1.2: "Requests and responses are JSON": the headers of answers are not given)',
    everyAnswer((reply) => {
      reply.raw.sendDate = false;
      reply.removeHeader('date');
    }),
    ALL,
  ),
  reading(
    'allowed-r31-caddy-alt-svc-http3-headers',
    'authentication',
    '1',
    'every answer carries what Caddy in front adds: `Server: Caddy` and `Alt-Svc: h3=":443"; ma=2592000`, an offer of HTTP/3 on another port that an HTTP/1.1 client may ignore (RFC 7838 2.4: a client "MAY" use it; 1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      reply.header('server', 'Caddy');
      reply.header('alt-svc', 'h3=":443"; ma=2592000');
    }),
    ALL,
  ),
  reading(
    'allowed-r31-ietf-ratelimit-headers',
    'authentication',
    '1',
    'every answer carries the IETF draft\u2019s RateLimit headers (draft-ietf-httpapi-ratelimit-headers-08: `RateLimit-Policy: "burst";q=600;w=60, "daily";q=20000;w=86400` and `RateLimit: "burst";r=<left>;t=<seconds>`), as a gateway that meters each client does, without ever answering 429 in a run (8: "Rate limits ... not shown")',
    (() => {
      let sent = 0;
      return everyAnswer((reply) => {
        sent += 1;
        reply.header('ratelimit-policy', '"burst";q=600;w=60, "daily";q=20000;w=86400');
        reply.header('ratelimit', `"burst";r=${Math.max(0, 599 - (sent % 600))};t=${60 - (Math.floor(Date.now() / 1000) % 60)}`);
      });
    })(),
    ALL,
  ),
  reading(
    'allowed-r31-mobile-client-hints-headers',
    'balances',
    '1',
    'every answer asks for client hints and varies on one, as a mobile-first team that shapes its answers for the device does: `Accept-CH: Sec-CH-UA-Mobile, Sec-CH-UA-Platform, Sec-CH-UA-Model`, `Critical-CH: Sec-CH-UA-Mobile` and `Vary: Sec-CH-UA-Mobile` (RFC 8942; a client that sends no hints gets the default answer; 1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      reply.header('accept-ch', 'Sec-CH-UA-Mobile, Sec-CH-UA-Platform, Sec-CH-UA-Model');
      reply.header('critical-ch', 'Sec-CH-UA-Mobile');
      addHeader(reply, 'vary', 'Sec-CH-UA-Mobile');
    }),
    ALL,
  ),
  reading(
    'allowed-r31-login-chunked-session-cookies',
    'authentication',
    '2.1',
    'a login (both kinds) answered 200 also sets the caller\u2019s session cookie split in chunks, as Auth.js does with a session over 4 KB: `__Secure-authjs.session-token.0=<3,900 characters>` and `.1=<2,600 characters>` (`Path=/; HttpOnly; Secure; SameSite=Lax`), over 6.5 KB of headers, under the 16 KB an HTTP client reads by default (2.1 and 5.2: the token is the Session\u2019s `id`; the headers of answers are not given)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (!isSessionAnswer(answer)) return undefined;
        const value = randomBytes(4925).toString('base64url');
        addHeader(reply, 'set-cookie', `__Secure-authjs.session-token.0=${value.slice(0, 3900)}; Path=/; HttpOnly; Secure; SameSite=Lax`);
        addHeader(reply, 'set-cookie', `__Secure-authjs.session-token.1=${value.slice(3900, 6500)}; Path=/; HttpOnly; Secure; SameSite=Lax`);
        return undefined;
      },
    },
    ALL,
  ),

  // ---- Requests
  reading(
    'allowed-r31-request-content-type-parameters-415',
    'authentication',
    '1',
    'a request with a body whose Content-Type is not exactly `application/json` (a parameter such as `; charset=utf-8`, another type) is refused 415, multipart forms (the card create) excepted, as a strict Kotlin/Ktor binder configured for the one media type the interface names does (1.2: "Clients send the headers `Content-Type: application/json` and `Accept: application/json`"; RFC 8259 11: "No charset parameter is defined for this registration")',
    {
      request(request: FastifyRequest) {
        if (!UNSAFE.includes(request.method)) return;
        const type = request.headers['content-type'];
        const length = Number(request.headers['content-length'] ?? 0);
        if (type === undefined || (length === 0 && request.headers['transfer-encoding'] === undefined)) return;
        const value = String(type).trim();
        if (/^multipart\/form-data\b/i.test(value) || value.toLowerCase() === 'application/json') return;
        contentTypeRefused.set(request, true);
        request.headers['content-type'] = 'application/x-refused-by-reading';
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (!contentTypeRefused.get(reply)) return undefined;
        return answerWith(reply, 415, { message: 'Unsupported Media Type: send Content-Type: application/json.' });
      },
    },
    ALL,
  ),
  reading(
    'allowed-r31-django-csrf-on-session-cookie',
    'authentication',
    '5',
    'a login (both kinds) also sets Django\u2019s `sessionid` and `csrftoken` cookies; a request that changes something (POST, PUT, PATCH, DELETE) and carries that `sessionid` cookie without an `X-CSRFToken` header is refused 403 `{ "message": "CSRF Failed: CSRF token missing." }` before anything happens, as DRF\u2019s SessionAuthentication, tried first, does; a request authenticated by its bearer alone is never checked (5.3: "Protected endpoints require the header Authorization: Bearer <ACCESS_TOKEN>": a client that sends the bearer and no cookie of its own meets no check)',
    {
      request(request: FastifyRequest) {
        if (!UNSAFE.includes(request.method)) return;
        const cookie = String(request.headers.cookie ?? '');
        if (!/(^|;\s*)sessionid=/.test(cookie) || request.headers['x-csrftoken'] !== undefined) return;
        csrfRefused.set(request, true);
        // Refused before anything happens: no bearer, no JWT, no body the handler could act on.
        request.headers.authorization = 'Bearer csrf-refused';
        delete request.headers.token;
        onParsedBody(request, (body) => {
          for (const key of Object.keys(body)) delete body[key];
        });
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (csrfRefused.get(reply)) return answerWith(reply, 403, { message: 'CSRF Failed: CSRF token missing.' });
        if (isSessionAnswer(answer)) {
          addHeader(reply, 'set-cookie', `csrftoken=${alnum(32)}; expires=${new Date(Date.now() + 31_449_600_000).toUTCString()}; Max-Age=31449600; Path=/; SameSite=Lax`);
          addHeader(reply, 'set-cookie', `sessionid=${alnum(32, 'abcdefghijklmnopqrstuvwxyz0123456789')}; expires=${new Date(Date.now() + 1_209_600_000).toUTCString()}; HttpOnly; Max-Age=1209600; Path=/; SameSite=Lax`);
        }
        return undefined;
      },
    },
    ALL,
  ),

  // ---- JWT details
  reading(
    'allowed-r31-jwt-expire-clock-skew-60s',
    'authentication',
    '4.1',
    'a JWT whose `expire` passed less than 60 seconds ago is still accepted, as Spring Security\u2019s JwtTimestampValidator (its default clock skew of 60 s) and php-jwt\u2019s `$leeway` accept it, so that clocks a few seconds apart do not refuse fresh tokens; one older than that is refused 416 (4.1: "`expire` (required, timestamp, must be now or later)": whose clock says "now" is not given)',
    {
      request(request: FastifyRequest, ctx?: ReferenceContext) {
        if (!ctx || request.method !== 'POST' || routeOf(request) !== JWT) return;
        const claims = claimsOf(request);
        const expire = typeof claims?.expire === 'number' ? claims.expire : typeof claims?.expire === 'string' && /^[0-9]+$/.test(claims.expire) ? Number(claims.expire) : undefined;
        const now = Math.floor(ctx.now() / 1000);
        if (expire === undefined || expire >= now || expire < now - 60) return;
        const platform = String((request.params as Record<string, string> | undefined)?.platform ?? '');
        const token = request.headers.token;
        if (typeof token !== 'string' || !signedBy(ctx, platform, token)) return;
        const id = typeof claims?.id === 'string' && claims.id !== '' ? claims.id : undefined;
        const email = typeof claims?.email === 'string' && claims.email !== '' ? claims.email : undefined;
        const user = (id ? ctx.db.prepare('SELECT * FROM users WHERE id = ?').get(id) : email ? findUserByEmail(ctx, email) : undefined) as UserRow | undefined;
        if (user && user.is_active === 1 && !user.locked) skewed.set(request, { ctx, user });
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        const held = skewed.get(reply);
        if (!held || answer.status !== 416) return undefined;
        return answerWith(reply, 200, sessionOf(held.ctx, held.user, 'jwt'));
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r31-jwt-kid-checked-when-present',
    'authentication',
    '4.1',
    'a JWT whose header carries a `kid` that names no key of the platform (its keys are named by the platform\u2019s ID) is refused 412, as a Go team that looks keys up by `kid` in the platform\u2019s key set and trusts a JWT without one to the platform\u2019s single key does (4.1: "Signature algorithm: RS512"; the JWT header beyond its algorithm is not given)',
    {
      request(request: FastifyRequest) {
        if (request.method !== 'POST' || routeOf(request) !== JWT) return;
        const header = jwtHeaderOf(request);
        if (header?.kid === undefined) return;
        const platform = String((request.params as Record<string, string> | undefined)?.platform ?? '');
        if (header.kid === platform) return;
        kidRefused.set(request, true);
        delete request.headers.token;
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (!kidRefused.get(reply)) return undefined;
        return answerWith(reply, 412, { error: 'The JWT names a key (kid) the platform does not have.' });
      },
    },
    only('authentication'),
  ),

  // ---- Precedence of errors
  reading(
    'allowed-r31-forgot-unknown-email-validated-with-rules',
    'password',
    '4.3',
    'forgot-password checks that the e-mail is known as one more validation rule (Laravel\u2019s `exists:users,email`) beside the others, so an unknown address sent with an invalid `type` is answered 422 keyed by both `email` and `type` (4.3: "422 when the e-mail is unknown (errors map keyed by `email`)"; which faults one answer reports when a request has two is not given)',
    {
      request(request: FastifyRequest, ctx?: ReferenceContext) {
        if (!ctx || request.method !== 'POST' || routeOf(request) !== FORGOT) return;
        onParsedBody(request, (body) => {
          if (typeof body.email === 'string' && body.email !== '' && !findUserByEmail(ctx, body.email)) forgotUnknown.set(request, true);
        });
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.status !== 422 || !forgotUnknown.get(reply)) return undefined;
        const body = parse(answer.payload);
        if (!isObject(body) || !isObject(body.errors) || body.errors.email !== undefined) return undefined;
        body.errors = { email: ['The selected email is invalid.'], ...body.errors };
        const messages = Object.values(body.errors as Record<string, string[]>).flat();
        body.message = `${messages[0]} (and ${messages.length - 1} more error${messages.length > 2 ? 's' : ''})`;
        return JSON.stringify(body);
      },
    },
    only('password'),
  ),
  // ---- More: validation bodies, the token's characters, headers
  reading(
    'allowed-r31-bank-iban-taken-non-field-error-too',
    'banks',
    '7',
    'a bank create whose IBAN the user already has is refused 422 keyed by `iban`, and the errors also carry DRF\u2019s `non_field_errors: ["The fields user, iban must make a unique set."]`, as a Django REST Framework team whose serializer has a UniqueTogetherValidator beside the field\u2019s own check does (7: "Validation (422): { message: string, errors: { <field_name>: [string, ...] } }": which other entries the map holds is not given)',
    {
      wire(answer: WireAnswer) {
        if (answer.method !== 'POST' || answer.url !== BANKS || answer.status !== 422) return undefined;
        const body = parse(answer.payload);
        const iban = body?.errors?.iban;
        if (!isObject(body?.errors) || !Array.isArray(iban) || !iban.some((message: unknown) => typeof message === 'string' && /taken/i.test(message))) return undefined;
        body.errors.non_field_errors = ['The fields user, iban must make a unique set.'];
        return JSON.stringify(body);
      },
    },
    only('banks'),
  ),
  reading(
    'allowed-r31-token-secret-b64token-dot-tilde',
    'authentication',
    '2.1',
    'the access token\u2019s secret also holds `.` and `~`, characters RFC 6750\u2019s b64token allows in a bearer token (`1|AbC.dEf~gHi...`), as a service that appends a version and a checksum to its random part with those separators does; the token is read back exactly as issued (2.1: "Access token, form `<numeric_id>|<secret>`": the secret\u2019s characters are not given; RFC 6750 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=")',
    // One map for every server (not perServer): the cards module answers in an encapsulated fastify context, whose
    // `request.server` is not the login's; a shown form is random, so no run meets another run's.
    tokenShownAs((id, secret) => `${id}|${secret.slice(0, 12)}.${secret.slice(12, 28)}~${secret.slice(28)}`),
    ALL,
  ),
  reading(
    'allowed-r31-robots-and-permissions-policy-headers',
    'authentication',
    '1',
    'every answer carries `X-Robots-Tag: noindex, nofollow, noarchive` and `Permissions-Policy: camera=(), microphone=(), geolocation=(), interest-cohort=()`, as a team whose staging and API hosts are kept out of search engines and browser features does (1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      reply.header('x-robots-tag', 'noindex, nofollow, noarchive');
      reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()');
    }),
    ALL,
  ),
  reading(
    'allowed-r31-create-texts-outer-whitespace-refused',
    'banks',
    '4.10',
    'a bank or card create whose text field begins or ends with white space (`bankName`, `iban`, `swift`, `currency`, `holderName`, `alias`, `lastFourDigits`, the expiry) is refused 422 keyed by that field ("The bank name must not begin or end with white space."), as a Kotlin team whose Jakarta validation puts `@Pattern("^\\S(.*\\S)?$")` on every text input rather than trimming it does; nothing is stored (4.10 and 4.6a give each field\u2019s constraints, and whether an input is trimmed, kept or refused for outer white space is not given: issue 28 lists outer white space among the open axes)',
    (() => {
      const outer = (value: unknown): value is string => typeof value === 'string' && value !== '' && value !== value.trim();
      const words = (field: string) => field.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
      const banks = bankCreateRefused((body) => {
        const field = ['bankName', 'iban', 'swift', 'currency'].find((name) => outer(body[name]));
        return field ? [field, `The ${words(field)} must not begin or end with white space.`] : undefined;
      });
      const { refuse, refusedAnswer } = refusalMarks();
      return {
        request(request: FastifyRequest) {
          banks.request!(request);
          onCardTexts(request, (get, spoil) => {
            for (const field of ['holderName', 'alias', 'lastFourDigits', 'expirationDate', 'expirationMonth', 'expirationYear']) {
              if (!outer(get(field))) continue;
              refuse(request, field, `The ${words(field)} must not begin or end with white space.`);
              spoil(field);
            }
          });
        },
        wire(answer: WireAnswer, reply: FastifyReply) {
          return banks.wire!(answer, reply) ?? refusedAnswer(answer, reply);
        },
      };
    })(),
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r31-platform-urls-on-port-8443',
    'banks',
    '2.4',
    'every platform\u2019s url carries an explicit port (`https://exchange.reference.test:8443`), as a staging deployment whose exchanges listen on 8443 behind no proxy shows them; records show it in `externalPlatform.url`, and the hook answers it (2.4: "externalPlatform | object | { code: string, name: string, url: string }": what the url holds is not given; docs/provider-states.md, `platform`: "url, what records on that platform show as externalPlatform")',
    {
      state(_name, data, ctx) {
        const rows = ctx.db.prepare('SELECT id, url FROM platforms').all() as { id: string; url: string | null }[];
        const renamed = new Map<string, string>();
        for (const row of rows) {
          if (typeof row.url !== 'string') continue;
          let url: URL;
          try {
            url = new URL(row.url);
          } catch {
            continue;
          }
          if (url.port !== '' || url.protocol !== 'https:') continue;
          url.port = '8443';
          const shown = url.pathname === '/' && !row.url.endsWith('/') ? url.href.replace(/\/$/, '') : url.href;
          ctx.db.prepare('UPDATE platforms SET url = ? WHERE id = ?').run(shown, row.id);
          renamed.set(row.url, shown);
        }
        return renamed.size === 0 ? data : renameStrings(data, renamed);
      },
    },
    only('banks', 'cards', 'bonuses', 'authentication'),
  ),
  reading(
    'allowed-r31-answers-300-ms-away',
    'authentication',
    '1',
    'every answer reaches the client 300 ms after the request, as a target in another region behind a TLS-terminating gateway does (a transatlantic round trip and its handshake); the answer is otherwise the same, its Content-Length kept (1: the interface is JSON over HTTP; its latency is not given, and a suite run from CI meets it)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        const body = Buffer.from(answer.payload);
        reply.header('content-length', String(body.length));
        const delayed = new Readable({ read() {} });
        setTimeout(() => {
          delayed.push(body);
          delayed.push(null);
        }, 300).unref();
        return delayed;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r31-texts-line-breaks-stored-as-lf',
    'banks',
    '4.10',
    'the line breaks of a bank or card create\u2019s text fields are stored as LF (CRLF and a lone CR become `\\n`), as a team whose inputs pass through a form-data normaliser (the HTML form rule of CRLF, then Unix line ends in its store) does; records show the stored text (4.10 and 4.6a: "string | max 191": how a text is stored is not given; issue 28 lists storage normalisation among the open axes)',
    {
      request(request: FastifyRequest) {
        const lf = (value: string) => value.replace(/\r\n?/g, '\n');
        onBankCreate(request, (body) => {
          for (const [field, value] of Object.entries(body)) if (typeof value === 'string' && /\r/.test(value)) body[field] = lf(value);
        });
        onCardFields(request, (_field, value) => (/\r/.test(value) ? lf(value) : undefined));
      },
    },
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r31-reset-answer-names-spent-token-tail',
    'password',
    '4.4',
    'a reset-password answered 200 names the last four characters of the token it just spent ("Your password has been reset with the code ending in 4f2a."), as a bank-grade team that lets its user match the answer to the e-mail they used does; the token is spent by then, and four of its characters are not the token (4.4: "200: { data: { message: string } }": what the message says is not given)',
    {
      request(request: FastifyRequest) {
        if (request.method !== 'POST' || routeOf(request) !== RESET) return;
        onParsedBody(request, (body) => {
          if (typeof body.token === 'string' && body.token.length >= 12) resetTails.set(request, body.token.slice(-4));
        });
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        const tail = resetTails.get(reply);
        if (answer.status !== 200 || tail === undefined) return undefined;
        const body = parse(answer.payload);
        if (!isObject(body?.data) || typeof body.data.message !== 'string') return undefined;
        body.data.message = `Your password has been reset with the code ending in ${tail}.`;
        return JSON.stringify(body);
      },
    },
    only('password'),
  ),
  reading(
    'allowed-r31-ids-upper-case-in-lists-only',
    'banks',
    '1',
    'every UUID in a list answer (banks, cards, bonuses, balances, the bonus summary) is written upper-case, while the shows, creates and the provider states write them lower-case, as a team whose list queries go through an Oracle view that formats RAW(16) with RAWTOHEX (upper-case) and whose shows go through the ORM (lower-case) does; UUIDs in paths and filters are read in any case (1.6: "{bank}, {bonus} and {card} are record IDs (UUID strings)": their letter case is not given; docs/provider-states.md: "Ids ... are UUID strings in whichever letter case the service writes them: the suite compares ids in any letter case")',
    {
      request(request: FastifyRequest) {
        const params = (request.params ?? {}) as Record<string, unknown>;
        for (const [key, value] of Object.entries(params)) if (typeof value === 'string' && WHOLE_UUID.test(value)) params[key] = value.toLowerCase();
        const query = (request.query ?? {}) as Record<string, unknown>;
        for (const [key, value] of Object.entries(query)) if (typeof value === 'string' && WHOLE_UUID.test(value)) query[key] = value.toLowerCase();
      },
      wire(answer: WireAnswer) {
        if (answer.method !== 'GET' || answer.status !== 200 || ![BANKS, CARDS, BONUSES, COINS, NFTS, SUMMARY].includes(answer.url)) return undefined;
        const upper = answer.payload.replace(ANY_UUID, (id) => id.toUpperCase());
        return upper === answer.payload ? undefined : upper;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r31-session-lists-callers-devices',
    'authentication',
    '2.1',
    'the Session also lists the caller\u2019s live sessions, `sessions: [{ "id": <numeric id of the token>, "kind": "password" | "jwt", "createdAt", "expiresAt", "current" }]`, as a mobile-first team that shows "you are signed in on 3 devices" at login does: the numeric ids of the caller\u2019s own tokens and their times, never a secret (2.1: "id | string | Access token, form <numeric_id>|<secret>"; the table does not forbid more members)',
    {
      request(request: FastifyRequest, ctx?: ReferenceContext) {
        if (ctx && request.method === 'POST' && (routeOf(request) === AUTH || routeOf(request) === JWT)) devicesOf.set(request, ctx);
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        const ctx = devicesOf.get(reply);
        if (!ctx || !isSessionAnswer(answer)) return undefined;
        const body = parse(answer.payload);
        const session = body?.data;
        if (!isObject(session) || typeof session.userId !== 'string' || typeof session.id !== 'string') return undefined;
        const current = Number(session.id.split('|')[0]);
        const rows = ctx.db.prepare('SELECT id, kind, created_ms, expires_ms FROM access_tokens WHERE user_id = ? AND expires_ms > ? ORDER BY id').all(session.userId, ctx.now()) as { id: number; kind: string; created_ms: number; expires_ms: number }[];
        session.sessions = rows.map((row) => ({ id: row.id, kind: row.kind, createdAt: Math.floor(row.created_ms / 1000), expiresAt: Math.floor(row.expires_ms / 1000), current: row.id === current }));
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
];

/**
 * The readings the suite refused and that were judged fair refusals (kept out of MUTANTS): none in round 31.
 */
const REFUSED = new Set<string>([]);

/** The readings of round 31 the suite refused (kept out of MUTANTS). */
export const readingsR31Refused: Mutant[] = readingsR31Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 31 (registered in index.ts): each must stay conformant. */
export const readingsR31Mutants: Mutant[] = readingsR31Written.filter((mutant) => !REFUSED.has(mutant.name));
