import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { base32, hashPassword } from '../modules/authentication.js';
import type { ReferenceContext } from '../context.js';
import type { WireAnswer } from '../mutation.js';
import { issueToken, resolveToken } from '../tokens.js';
import type { Mutant } from './types.js';
import { ALL, digest, holderNamesEmbossed, onAnswers, onParsedBody, only, ordersOf, parse, reading, recordsOf, routeOf } from './reading.js';
import { AUTH, BANK_ROUTES, BONUS_ROUTES, CARD_ROUTES, FORGOT, JWT, LOGOUT, RESET, SUMMARY } from './routes.js';

/**
 * Reading round 29 (issue 28, "fair to the readings nobody listed"): implementation choices the specification and the
 * provider-states contract leave open, each taken the other way from the reference, as teams would take them. New axes:
 * response HEADERS as frameworks, fronts and observability agents write them (a sliding session cookie holding the
 * caller's own token, Django's csrftoken cookie, AWS ALB stickiness cookies, Symfony's profiler token headers, Sentry's
 * trace and baggage headers with the project's public key, oauth2-proxy's identity headers, a preload Link of presigned
 * image URLs, a reset that signs the user in by cookie, a login's signed JWT session cookie, a CSP nonce per answer, a
 * session fingerprint); what a record carries beside a password (when it changed, which algorithm hashes it, two-factor
 * columns), a card's PAN hash and PIN flag, an order's transaction and block hashes, a bank that embeds its owner, a
 * Laravel-signed payment URL; credentials in Unicode (decomposed accents, astral characters beyond 191 UTF-16 units,
 * German reset phrases), an all-digit password, the account's own address or id as its password, standard-base64 reset
 * tokens, TOTP secrets for every account, subaddressed e-mails, a platform named in NFD, anti-phishing codes that are a
 * platform's, a coin's or a chain's name; a negative zero and base-unit supplies beyond 2^53; Turkish letter case;
 * unaccented and SEPA-charset bank names; the key of a reset for an unknown address, the failed login that reaches the
 * threshold answered 425, Laravel's debug error bodies.
 * Read only from the specification (/work/shared/spec/interface.md), docs/provider-states.md, README.md and reference/;
 * written without reading the suite (suites/, helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a
 * reading of rounds 1 to 28, of the reviews, of the white-box rounds or of the groups' own `allowed-*` mutants (their
 * 975 names, and the descriptions of the near ones, were read for that: extra-headers-and-cookies, login-token-cookie,
 * login-refresh-token-cookie, request-id-headers, api-gateway-headers, cache-validators, reset-answer-signs-in,
 * session-password-changed-at, bank-iban-hash-member, card-psp-token-member, card-holder-name-stored-upper-case,
 * card-alias-stored-lower-case, state-platform-names-ampersand-plus, state-passwords-beyond-ascii,
 * reset-tokens-base64url, not-found-model-class, login-shows-own-anti-phishing-code, state-anti-phishing-common-word,
 * validation-echoes-rejected-values). Each description quotes the text that leaves the point open. Readings change
 * requests, answers or the provider states' answers (and the records a state makes, as the target's own hook would
 * make them) only: no edit to reference/modules/.
 * Run against the suite: 37 of 41 conformant, 4 refused, all four judged FALSE FAILURES and kept registered (see the
 * note above `REFUSED`).
 * Fixed after the round (the lead), all 41 conformant since: a state password equal to its account's id or e-mail is
 * redacted but no finding (helpers/net/secrets.ts learnAccountPassword); a long anti-phishing code that is the whole value
 * of a member the specification gives a meaning (a platform's name) is that value (helpers/check/security.ts); a bankName
 * converted to the SEPA character set is a normalisation, advised on (helpers/spec/normalisation.ts sepaConvertedAlike).
 */

const isObject = (value: unknown): value is Record<string, any> => !!value && typeof value === 'object' && !Array.isArray(value);
const ACCOUNT_STATES = ['user', 'user.inactive', 'user.expired-token', 'user.short-session', 'user.brute-force', 'user.locked', 'user.throttled', 'user.forbidden'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alnum = (length: number): string => Array.from(randomBytes(length), (byte) => ALNUM[byte % ALNUM.length]).join('');
const hexOf = (bytes: number): string => randomBytes(bytes).toString('hex');

/** Adds a header value, a Set-Cookie beside those already set. */
function addHeader(reply: FastifyReply, name: string, value: string): void {
  const prior = reply.getHeader(name);
  if (prior === undefined) reply.header(name, value);
  else if (name.toLowerCase() === 'set-cookie') reply.header(name, [...(Array.isArray(prior) ? prior.map(String) : [String(prior)]), value]);
  else reply.header(name, `${String(prior)}, ${value}`);
}

/** What a reading learnt of a request before it was routed: the reference's context and the caller its bearer names. */
interface Seen {
  ctx?: ReferenceContext;
  bearer?: string;
  caller?: { id: string; email: string };
  email?: string;
}
const SEEN = new WeakMap<object, Seen>();
const seenOf = (request: object): Seen => {
  let seen = SEEN.get(request);
  if (!seen) SEEN.set(request, (seen = {}));
  return seen;
};

/** A request hook that notes, for a POST of `route`, the context and the e-mail its JSON body names (read by the wire hook). */
const noteEmailOn =
  (route: string) =>
  (request: FastifyRequest, ctx?: ReferenceContext): void => {
    if (request.method !== 'POST' || routeOf(request) !== route) return;
    const seen = seenOf(request);
    if (ctx) seen.ctx = ctx;
    onParsedBody(request, (body) => {
      if (typeof body.email === 'string') seen.email = body.email;
    });
  };

/** A request hook that notes the context and the caller of a bearer (a valid token, resolved before the handler runs). */
function noteCaller(request: FastifyRequest, ctx?: ReferenceContext): void {
  const seen = seenOf(request);
  if (ctx) seen.ctx = ctx;
  const bearer = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]?.trim();
  if (!bearer || !ctx) return;
  const resolved = resolveToken(ctx.db, bearer, ctx.now());
  if (!resolved) return;
  seen.bearer = bearer;
  seen.caller = { id: resolved.user.id, email: resolved.user.email };
}

const httpDate = (ms: number): string => new Date(ms).toUTCString();

/** Every answer (success or not) with headers added by `add`. */
const everyAnswer = (add: (reply: FastifyReply, answer: WireAnswer) => void) => ({
  wire(answer: WireAnswer, reply: FastifyReply) {
    add(reply, answer);
    return undefined;
  },
});

/** An account state's password replaced by `make(password)`, its hash stored as the hook's own account would hold it. */
function statePasswords(make: (password: string) => string | undefined) {
  return {
    state(name: string, data: unknown, ctx: ReferenceContext) {
      if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.password !== 'string' || typeof data.id !== 'string') return data;
      const password = make(data.password);
      if (password === undefined) return data;
      const changed = ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(password), data.id).changes;
      return changed === 1 ? { ...data, password } : data;
    },
  };
}

/** A sentinel that the JSON text of an answer turns into a negative zero (JSON.stringify writes -0 as 0). */
const NEGATIVE_ZERO = '\u0000negative-zero\u0000';

/** The standard-base64 form of a reset token (`+/+/` and the token's bytes), and back. */
const RESET_PREFIX = Buffer.from([0xfb, 0xff, 0xbf]);
const resetShown = (token: string): string => Buffer.concat([RESET_PREFIX, Buffer.from(token, 'utf8')]).toString('base64');
function resetRead(shown: string): string | undefined {
  if (!shown.startsWith('+/+/')) return undefined;
  const bytes = Buffer.from(shown, 'base64');
  return bytes.subarray(0, 3).equals(RESET_PREFIX) ? bytes.subarray(3).toString('utf8') : undefined;
}

/** Reset phrases a reading issued, per database: phrase -> the token it stands for. */
const PHRASES = new WeakMap<object, Map<string, string>>();
const WORDS = ['B\u00e4r', 'K\u00fcrbis', 'Stra\u00dfe', '\u00d6l', 'M\u00f6we', 'Gr\u00fc\u00dfe', 'Fl\u00f6te', 'T\u00fcr', 'S\u00e4ge', 'H\u00f6hle', 'Fu\u00df', 'B\u00fccher'];


/** A text in the SEPA basic Latin character set (EPC217-08), transliterated where it can be. */
function sepaLatin(text: string): string {
  const spelled = text.replace(/\u00df/g, 'ss').replace(/\u00c6/g, 'AE').replace(/\u00e6/g, 'ae').replace(/\u00d8/g, 'O').replace(/\u00f8/g, 'o').replace(/&/g, '+');
  return spelled
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9/\-?:().,'+ ]/g, '.');
}

/** Platforms a reading renamed, per database. */
const RENAMED = new WeakMap<object, Set<string>>();

const FRAME = (file: string, line: number, fn: string, cls: string) => ({ file: `/var/www/html/vendor/laravel/framework/src/Illuminate/${file}`, line, function: fn, class: cls, type: '->' });

const readingsR29Written: Mutant[] = [
  // ---- Response headers: cookies frameworks and fronts set
  reading(
    'allowed-r29-sliding-session-cookie-of-caller',
    'authentication',
    '5',
    'every answer to a request with a valid bearer token (but logout\u2019s) sets a sliding session cookie holding that same token, `api_token=<the bearer sent>; Max-Age=7200; Path=/api; HttpOnly; Secure; SameSite=Lax`, as a Sanctum SPA setup that renews the cookie of the session on every authenticated request does: the caller\u2019s own token, in the answer to its own request, whatever the path\u2019s user (5.3: "Protected endpoints require the header Authorization: Bearer <ACCESS_TOKEN>": what an answer may carry in its headers is not given; 1.2: "Clients send the headers Content-Type ... and Accept": answers\u2019 headers are not listed; issue 28: "A credential issued to the caller ... is not a finding")',
    {
      request: noteCaller,
      wire(answer: WireAnswer, reply: FastifyReply) {
        const seen = SEEN.get(reply.request);
        if (!seen?.bearer || answer.status === 401 || answer.url === LOGOUT) return undefined;
        addHeader(reply, 'set-cookie', `api_token=${encodeURIComponent(seen.bearer)}; Max-Age=7200; Path=/api; HttpOnly; Secure; SameSite=Lax`);
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r29-django-csrftoken-cookie',
    'authentication',
    '1',
    'every answer sets Django\u2019s CSRF cookie, `csrftoken=<64 letters and digits>; expires=<a year on>; Max-Age=31449600; Path=/; SameSite=Lax`, and `Vary: Cookie`, as a Django REST framework service whose middleware stack keeps CsrfViewMiddleware and calls get_token does (1.2: "Requests and responses are JSON. Clients send the headers ...": the headers of answers are not given)',
    everyAnswer((reply) => {
      addHeader(reply, 'set-cookie', `csrftoken=${alnum(64)}; expires=${httpDate(Date.now() + 31449600000)}; Max-Age=31449600; Path=/; SameSite=Lax`);
      addHeader(reply, 'vary', 'Cookie');
    }),
    ALL,
  ),
  reading(
    'allowed-r29-aws-alb-stickiness-cookies',
    'authentication',
    '1',
    'every answer sets the stickiness cookies of an AWS Application Load Balancer in front, `AWSALB=<172 characters of standard base64>; Expires=<a week on>; Path=/` and `AWSALBCORS=<the same>; Expires=...; Path=/; SameSite=None; Secure` (1.2: "Requests and responses are JSON. Clients send the headers ...": the headers of answers are not given; a front may add cookies of its own)',
    everyAnswer((reply) => {
      const value = randomBytes(128).toString('base64');
      const expires = httpDate(Date.now() + 7 * 86400000);
      addHeader(reply, 'set-cookie', `AWSALB=${value}; Expires=${expires}; Path=/`);
      addHeader(reply, 'set-cookie', `AWSALBCORS=${value}; Expires=${expires}; Path=/; SameSite=None; Secure`);
    }),
    ALL,
  ),
  reading(
    'allowed-r29-symfony-profiler-debug-token-headers',
    'authentication',
    '1',
    'every answer carries the Symfony web profiler\u2019s headers, `X-Debug-Token: <6 hex>` and `X-Debug-Token-Link: https://staging-api.exchange.reference.test/_profiler/<the same>`, as a Symfony staging deployment with the profiler enabled adds them (1.2: "Requests and responses are JSON. Clients send the headers ...": the headers of answers are not given; the profiler\u2019s token names a profile, not a credential)',
    everyAnswer((reply) => {
      const token = hexOf(3);
      reply.header('x-debug-token', token);
      reply.header('x-debug-token-link', `https://staging-api.exchange.reference.test/_profiler/${token}`);
    }),
    ALL,
  ),
  reading(
    'allowed-r29-sentry-trace-and-baggage-headers',
    'authentication',
    '1',
    'every answer carries Sentry\u2019s tracing headers, `sentry-trace: <32 hex>-<16 hex>-1` and `baggage: sentry-trace_id=<32 hex>,sentry-environment=staging,sentry-release=accounts-api%401.42.0,sentry-public_key=<32 hex, the project\u2019s DSN public key>,sentry-sample_rate=1,sentry-sampled=true`, as a service instrumented with a Sentry SDK that propagates the trace to its callers does (1.2: "Requests and responses are JSON. Clients send the headers ...": the headers of answers are not given; a DSN\u2019s public key is public, it ships in every browser bundle)',
    (() => {
      const publicKey = hexOf(16);
      return everyAnswer((reply) => {
        const trace = hexOf(16);
        reply.header('sentry-trace', `${trace}-${hexOf(8)}-1`);
        reply.header('baggage', `sentry-trace_id=${trace},sentry-environment=staging,sentry-release=accounts-api%401.42.0,sentry-public_key=${publicKey},sentry-sample_rate=1,sentry-sampled=true`);
      });
    })(),
    ALL,
  ),
  reading(
    'allowed-r29-oauth2-proxy-identity-headers',
    'authentication',
    '5',
    'every answer to a request with a valid bearer token carries the caller\u2019s identity as oauth2-proxy (`--set-xauthrequest`) in front passes it on, `X-Auth-Request-User: <the caller\u2019s user id>` and `X-Auth-Request-Email: <the caller\u2019s e-mail address>`: the caller\u2019s own, in the answer to its own request, whatever the path\u2019s user (5.3: "Protected endpoints require the header Authorization: Bearer <ACCESS_TOKEN>": the headers of answers are not given; 2.6: "email | string, masked by the service" is said of the user object inside a bonus, not of the caller\u2019s own address in a header)',
    {
      request: noteCaller,
      wire(answer: WireAnswer, reply: FastifyReply) {
        const caller = SEEN.get(reply.request)?.caller;
        if (!caller || answer.status === 401) return undefined;
        reply.header('x-auth-request-user', caller.id);
        reply.header('x-auth-request-email', caller.email);
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r29-card-image-preload-link-presigned',
    'cards',
    '2.5',
    'card answers (create, list, show) carry a `Link` header that preloads each card\u2019s images from presigned S3 URLs, `<https://cards-bucket.s3.eu-west-1.amazonaws.com/<cardImage1>?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F...&X-Amz-Expires=300&X-Amz-SignedHeaders=host&X-Amz-Signature=<64 hex>>; rel=preload; as=image`, as a mobile-first team that lets the app fetch the images at once does (2.5: "cardImage1 | string | Identifier of the stored first image": how a client fetches it is not given; the headers of answers are not given; a presigned URL of the caller\u2019s own image is the caller\u2019s)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if ((answer.status !== 200 && answer.status !== 201) || !CARD_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        const links: string[] = [];
        const now = new Date();
        const day = now.toISOString().slice(0, 10).replace(/-/g, '');
        const stamp = `${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
        for (const record of recordsOf(body).slice(0, 10)) {
          for (const key of ['cardImage1', 'cardImage2']) {
            const image = record?.[key];
            if (typeof image !== 'string') continue;
            const url = `https://cards-bucket.s3.eu-west-1.amazonaws.com/${encodeURI(image)}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F${day}%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=${stamp}&X-Amz-Expires=300&X-Amz-SignedHeaders=host&X-Amz-Signature=${digest(`${image}:${stamp}`)}`;
            links.push(`<${url}>; rel=preload; as=image`);
          }
        }
        if (links.length > 0) reply.header('link', links.join(', '));
        return undefined;
      },
    },
    only('cards'),
  ),
  reading(
    'allowed-r29-reset-signs-in-by-cookie',
    'password',
    '4.4',
    'a reset-password answered 200 also signs the user in, as Laravel\u2019s ResetsPasswords does (`$this->guard()->login($user)`), and carries the new session\u2019s access token in a cookie, `laravel_token=<a new token of that user>; Max-Age=7200; Path=/; HttpOnly; Secure; SameSite=Lax`, the body unchanged (4.4: "200: { data: { message: string } }": the headers of the answer are not given; issue 28: "a token issued to the person who holds the reset token is no leak"; the groups\u2019 own `allowed-reset-answer-signs-in` gave it in the body)',
    {
      request: noteEmailOn(RESET),
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.status !== 200 || answer.url !== RESET) return undefined;
        const seen = SEEN.get(reply.request);
        if (!seen?.ctx || !seen.email) return undefined;
        const user = seen.ctx.db.prepare('SELECT id FROM users WHERE email = ?').get(seen.email) as { id: string } | undefined;
        if (!user) return undefined;
        const issued = issueToken(seen.ctx.db, user.id, 'password', seen.ctx.now());
        addHeader(reply, 'set-cookie', `laravel_token=${encodeURIComponent(issued.token)}; Max-Age=${issued.ttl}; Path=/; HttpOnly; Secure; SameSite=Lax`);
        return undefined;
      },
    },
    only('password'),
  ),
  reading(
    'allowed-r29-login-jwt-session-cookie',
    'authentication',
    '2.1',
    'a login (either way) answered 200 also sets a signed session cookie, `session=<a JWT (HS256) whose claims are { sub: <userId>, email: <the address logged in with, for the password login>, sid: <the token\u2019s numeric id>, exp }>; Path=/; HttpOnly; Secure; SameSite=Strict`, as a Node team behind a BFF that keeps a stateless web session beside the bearer token does; the body is unchanged (2.1: the Session\u2019s fields are given, the answer\u2019s headers are not; issue 28: "A credential issued to the caller in the answer to its own authentication ... is not a finding: a session, an access token or a refresh token")',
    {
      request: noteEmailOn(AUTH),
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.status !== 200 || (answer.url !== AUTH && answer.url !== JWT)) return undefined;
        const data = parse(answer.payload)?.data;
        if (!isObject(data) || typeof data.id !== 'string') return undefined;
        const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
        const claims: Record<string, unknown> = { sub: data.userId, sid: Number(data.id.split('|')[0]), exp: Math.floor(Date.now() / 1000) + (Number(data.ttl) || 7200) };
        const email = SEEN.get(reply.request)?.email;
        if (email) claims.email = email;
        const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
        const signature = Buffer.from(digest(`bff-secret:${unsigned}`), 'hex').toString('base64url');
        addHeader(reply, 'set-cookie', `session=${unsigned}.${signature}; Path=/; HttpOnly; Secure; SameSite=Strict`);
        return undefined;
      },
    },
    only('authentication', 'password'),
  ),
  reading(
    'allowed-r29-csp-nonce-per-answer',
    'authentication',
    '1',
    'every answer carries a Content-Security-Policy with a fresh nonce, `Content-Security-Policy: default-src \'none\'; script-src \'nonce-<24 characters of base64>\'; frame-ancestors \'none\'`, as helmet with a per-request nonce middleware sets it on a Node service that also serves pages (1.2: "Requests and responses are JSON. Clients send the headers ...": the headers of answers are not given)',
    everyAnswer((reply) => {
      reply.header('content-security-policy', `default-src 'none'; script-src 'nonce-${randomBytes(16).toString('base64')}'; frame-ancestors 'none'`);
    }),
    ALL,
  ),

  // ---- What a record carries beside a password, a hash, an owner, a signed URL
  reading(
    'allowed-r29-bonus-user-password-changed-at',
    'bonuses',
    '2.6',
    'the user object of a bonus carries `passwordChangedAt`, the Unix second the password last changed (its `createdAt` until a reset), as a Spring team whose UserDto maps the entity\u2019s audit column does (2.6: the user object\u2019s fields are listed, and extra members are not excluded; a date of a password is no password)',
    onAnswers(BONUS_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (isObject(record?.user)) record.user.passwordChangedAt = record.user.createdAt ?? null;
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r29-bonus-user-password-hash-algorithm',
    'bonuses',
    '2.6',
    'the user object of a bonus carries `passwordHashAlgorithm: "argon2id"`, which scheme the user\u2019s password is hashed with, as a team migrating its users from bcrypt to argon2id on login tracks per user and its DTO maps (2.6: the user object\u2019s fields are listed, and extra members are not excluded; the name of an algorithm is neither a password nor its hash)',
    onAnswers(BONUS_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (isObject(record?.user)) record.user.passwordHashAlgorithm = 'argon2id';
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r29-card-pan-hash-member',
    'cards',
    '2.5',
    'card records carry `panHash`, a keyed SHA-256 of the card number (64 hex), as a PCI DSS team keeps it to find the same card twice without storing the number (2.5: the card record\u2019s fields are listed, and extra members are not excluded; a hash of a card number is no credential of the interface)',
    onAnswers(CARD_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (isObject(record) && typeof record.id === 'string') record.panHash = digest(`pan:${record.id.toLowerCase()}`);
    }),
    only('cards'),
  ),
  reading(
    'allowed-r29-bank-records-embed-owner',
    'banks',
    '2.4',
    'bank records embed their owner, `user: { id, email }`, the address in clear (the owner reading its own banks), as a Rails team serialising `belongs_to :user` with `include: { user: { only: [:id, :email] } }` does (2.4: the bank record\u2019s fields are listed, and extra members are not excluded; 2.6 masks the e-mail of the user object inside a bonus, and says nothing of a bank)',
    {
      request(request: FastifyRequest, ctx?: ReferenceContext) {
        if (ctx && BANK_ROUTES.includes(routeOf(request))) seenOf(request).ctx = ctx;
      },
      ...onAnswers(BANK_ROUTES, (body, _answer, reply) => {
        const ctx = SEEN.get(reply.request)?.ctx;
        const userId = (reply.request.params as Record<string, unknown> | undefined)?.user;
        if (!ctx || typeof userId !== 'string') return false;
        const owner = ctx.db.prepare('SELECT id, email FROM users WHERE id = ? COLLATE NOCASE').get(userId) as { id: string; email: string } | undefined;
        if (!owner) return false;
        for (const record of recordsOf(body)) if (isObject(record)) record.user = { id: owner.id, email: owner.email };
        return true;
      }),
    },
    only('banks'),
  ),
  reading(
    'allowed-r29-order-payment-url-laravel-signed',
    'bonuses',
    '2.7',
    'an order\u2019s `payment.url` is a Laravel signed route to upload the payment\u2019s proof, `https://exchange.reference.test/payments/<payment id>/proof?expires=<Unix second>&signature=<64 hex HMAC-SHA256>` (2.7: "payment | object: method ..., id, meta, url, ...": what `url` holds is not given)',
    onAnswers(BONUS_ROUTES, (body) => {
      for (const order of ordersOf(body)) {
        if (!isObject(order.payment)) continue;
        const id = order.payment.id ?? order.id;
        const expires = (Number(order.createdAt) || 1764000000) + 86400;
        order.payment.url = `https://exchange.reference.test/payments/${id}/proof?expires=${expires}&signature=${digest(`app-key:${id}:${expires}`)}`;
      }
    }),
    only('bonuses'),
  ),

  // ---- Credentials and what the provider states answer
  reading(
    'allowed-r29-state-passwords-nfd-accents',
    'authentication',
    '4.2',
    'the accounts the provider states make have passwords holding accented letters in decomposed form (NFD: `n` and U+0303, `u` and U+0301), as a hook whose word list was written on macOS makes them; the service compares the password exactly as sent, byte for byte (docs/provider-states.md, `user`: "{ id, email, password, ... }": the password\u2019s characters are left to the target; 4.2: "password | string | yes | min 8, max 191 characters")',
    statePasswords((password) => (password.length > 170 ? undefined : `${password}-\u00d1and\u00fa-Zo\u00eb`.normalize('NFD'))),
    only('authentication', 'password'),
  ),
  reading(
    'allowed-r29-state-passwords-astral-characters',
    'authentication',
    '4.2',
    'the accounts the provider states make have passwords of 150 characters (code points), most of them emoji outside the Basic Multilingual Plane (`\u{1F511}`), so 290 UTF-16 units and about 580 UTF-8 bytes, as a hook proving that a passphrase of emoji works makes them; the service counts characters as code points (4.2: "password | ... min 8, max 191 characters": a character is not defined as a UTF-16 unit; docs/provider-states.md, `user`: "{ id, email, password, ... }")',
    statePasswords((password) => {
      const length = [...password].length;
      return length > 140 ? undefined : `${password}${'\u{1F511}'.repeat(150 - length)}`;
    }),
    only('authentication', 'password'),
  ),
  reading(
    'allowed-r29-state-passwords-eight-zeros',
    'authentication',
    '4.2',
    'every account the provider states make has the password `00000000`, as a QA hook that gives its accounts a PIN-like password of eight digits makes them (docs/provider-states.md, `user`: "{ id, email, password, ... }": the password is left to the target; 4.2: "password | string | yes | min 8, max 191 characters"): the digits occur in ids and amounts the service writes, which are no password',
    statePasswords(() => '00000000'),
    only('authentication', 'password', 'bonuses', 'banks'),
  ),
  reading(
    'allowed-r29-state-reset-tokens-standard-base64',
    'password',
    '4.4',
    'the forgot-password e-mail carries its reset token in standard base64 (RFC 4648 section 4: `+`, `/` and `=` padding), as a .NET team writing `Convert.ToBase64String` of the token\u2019s bytes does, and `password-reset.token` answers it so; reset-password reads it back (4.4: "token | string | yes | max 255; the token received by e-mail": its alphabet is not given; base64url tokens were round 9\u2019s reading)',
    {
      request(request: FastifyRequest) {
        if (request.method !== 'POST' || routeOf(request) !== RESET) return;
        onParsedBody(request, (body) => {
          const token = typeof body.token === 'string' ? resetRead(body.token) : undefined;
          if (token !== undefined) body.token = token;
        });
      },
      state(name: string, data: unknown) {
        if (name !== 'password-reset.token' || !isObject(data) || typeof data.token !== 'string') return data;
        const shown = resetShown(data.token);
        return shown.length <= 255 ? { ...data, token: shown } : data;
      },
    },
    only('password'),
  ),
  reading(
    'allowed-r29-state-platform-names-decomposed-umlauts',
    'banks',
    '4.10',
    'the second platform of the `bank.two-platforms`, `card.two-platforms` and `bonuses.two-platforms` states has a German name written in decomposed form (NFD, `Zu\u0308rcher Bo\u0308rse ...`), as its partner typed it into an admin form on a Mac, and the lists\u2019 `platform` and `company` filters compare the platform\u2019s code, ID or name exactly as stored (the reading of round 1) (docs/provider-states.md, `bank.two-platforms`: "The suite lists the user\u2019s banks with the company and platform filters given each platform\u2019s code, ID and the externalPlatform.name its banks show": the characters of a name are not given; 2.4: "externalPlatform | object | { code: string, name: string, url: string }")',
    {
      deviation: 'banks.platform-filter-code-id-or-name',
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (!['bank.two-platforms', 'card.two-platforms', 'bonuses.two-platforms'].includes(name) || !isObject(data) || !Array.isArray(data.platforms)) return data;
        const second = data.platforms[1]?.id;
        let renamed = RENAMED.get(ctx.db);
        if (!renamed) RENAMED.set(ctx.db, (renamed = new Set()));
        if (typeof second !== 'string' || renamed.has(second)) return data;
        const row = ctx.db.prepare('SELECT name FROM platforms WHERE id = ?').get(second) as { name: string } | undefined;
        if (!row) return data;
        ctx.db.prepare('UPDATE platforms SET name = ? WHERE id = ?').run(`Z\u00fcrcher B\u00f6rse ${row.name}`.normalize('NFD'), second);
        renamed.add(second);
        return data;
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),

  reading(
    'allowed-r29-state-emails-always-subaddressed',
    'authentication',
    '4.2',
    'every account the provider states make has an address with a `+` tag (`qa+<tag>@...`), asked for `emailTag` or not, as a QA hook that makes every test account a subaddress of one team mailbox does (docs/provider-states.md, `user`: "with emailTag: true the local part of its e-mail address carries a + tag (an RFC 5233 subaddress ..., a valid address)": nothing says an address without the param has none; 4.2: "email | ... valid e-mail, max 191 characters")',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.email !== 'string' || typeof data.id !== 'string' || data.email.includes('+')) return data;
        const at = data.email.lastIndexOf('@');
        if (at < 1 || data.email.length > 150) return data;
        const email = `qa+${data.email.slice(0, at)}${data.email.slice(at)}`;
        const changed = ctx.db.prepare('UPDATE users SET email = ? WHERE id = ?').run(email, data.id).changes;
        if (changed === 1) ctx.db.prepare('UPDATE login_failures SET email = ? WHERE email = ?').run(email, data.email);
        return changed === 1 ? { ...data, email } : data;
      },
    },
    only('authentication', 'password', 'bonuses'),
  ),
  reading(
    'allowed-r29-session-fingerprint-header',
    'authentication',
    '5',
    'every answer to a request with a valid bearer token carries `X-Session-Fingerprint: <the first 16 hex digits of the SHA-256 of that token>`, which the service\u2019s logs and support tools use to name a session without its token (5.3: the headers of answers are not given; a digest of the caller\u2019s own token cannot be used as one)',
    {
      request: noteCaller,
      wire(answer: WireAnswer, reply: FastifyReply) {
        const bearer = SEEN.get(reply.request)?.bearer;
        if (!bearer || answer.status === 401) return undefined;
        reply.header('x-session-fingerprint', digest(bearer).slice(0, 16));
        return undefined;
      },
    },
    ALL,
  ),

  reading(
    'allowed-r29-state-passwords-are-the-address',
    'password',
    '4.3',
    'every account the provider states make has its own e-mail address as its password (a QA hook that spares its testers a second value to remember; an address of 8 to 191 characters passes 4.2\u2019s rule), and a forgot-password answered 200 names the address it wrote to in clear, "We have e-mailed your password reset link to <address>." (docs/provider-states.md, `user`: "{ id, email, password, ... }": the password is left to the target; 4.3: "200: { data: { message: string } }": the message\u2019s words are not given; the address the caller sent, answered to the caller, is the address, not a password)',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.email !== 'string' || typeof data.id !== 'string' || data.email.length < 8 || data.email.length > 191) return data;
        const changed = ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(data.email), data.id).changes;
        return changed === 1 ? { ...data, password: data.email } : data;
      },
      request: noteEmailOn(FORGOT),
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.status !== 200 || answer.url !== FORGOT) return undefined;
        const email = SEEN.get(reply.request)?.email;
        const body = parse(answer.payload);
        if (!email || !isObject(body?.data) || typeof body.data.message !== 'string') return undefined;
        body.data.message = `We have e-mailed your password reset ${/code/.test(body.data.message) ? 'code' : 'link'} to ${email}.`;
        return JSON.stringify(body);
      },
    },
    only('password', 'authentication'),
  ),
  reading(
    'allowed-r29-state-passwords-are-the-user-id',
    'authentication',
    '4.2',
    'every account the provider states make has its own user id (the UUID, 36 characters) as its password, as a QA hook that keys each fixture account\u2019s password to its id (so a tester finds it from the id alone) makes them; the id appears, as always, in the paths and records of the account (docs/provider-states.md, `user`: "{ id, email, password, ... }": the password is left to the target; 4.2: "password | string | yes | min 8, max 191 characters"; 1.6: "{user} is the user ID (UUID string)": the id is the account\u2019s public name, not its password, whatever equals it)',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.id !== 'string' || typeof data.password !== 'string') return data;
        const changed = ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(data.id), data.id).changes;
        return changed === 1 ? { ...data, password: data.id } : data;
      },
    },
    only('authentication', 'password', 'banks', 'bonuses'),
  ),
  reading(
    'allowed-r29-brute-force-limit-failure-answers-425',
    'authentication',
    '5',
    'the failed login that reaches the brute-force threshold is itself answered 425, not 403, as django-axes locks out on the attempt that reaches AXES_FAILURE_LIMIT; `user.brute-force` answers that limit as `attempts` (after that many failed logins, login is restricted) (5.5: "Login is refused for ... wrong credentials (403), ... and temporarily after brute force detection (425)": which of the two answers the login that both fails and triggers the detection is not given; docs/provider-states.md, `user.brute-force`: "after that many failed logins of it, login is restricted (425)"; 8: "the threshold and duration are not shown")',
    {
      request: noteEmailOn(AUTH),
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.status !== 403 || answer.url !== AUTH) return undefined;
        const seen = SEEN.get(reply.request);
        if (!seen?.ctx || !seen.email) return undefined;
        const row = seen.ctx.db.prepare('SELECT restricted_until_ms FROM login_failures WHERE email = ?').get(seen.email) as { restricted_until_ms: number | null } | undefined;
        const until = row?.restricted_until_ms;
        if (typeof until !== 'number' || until <= seen.ctx.now()) return undefined;
        reply.code(425);
        return JSON.stringify({ error: `Too many login attempts. Please try again in ${Math.ceil((until - seen.ctx.now()) / 1000)} seconds.` });
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r29-bonus-user-two-factor-members',
    'bonuses',
    '2.6',
    'the user object of a bonus carries Laravel Fortify\u2019s two-factor state as its columns name it, `twoFactorConfirmedAt` (a Unix second or null) and `twoFactorRecoveryCodesLeft` (how many unused recovery codes remain, 8), neither secret nor codes (2.6: the user object\u2019s fields are listed, and extra members are not excluded; a count of codes is no code)',
    onAnswers(BONUS_ROUTES, (body) => {
      for (const record of recordsOf(body)) {
        if (!isObject(record?.user)) continue;
        const enabled = record.user.options?.guard?.actions?.login?.['2fa'] === true;
        record.user.twoFactorConfirmedAt = enabled ? (record.user.createdAt ?? null) : null;
        record.user.twoFactorRecoveryCodesLeft = enabled ? 8 : 0;
      }
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r29-coin-total-supply-base-units',
    'balances',
    '2.2',
    'a token\u2019s (a coin with an alias) `meta.total_supply` is its supply in base units, as its contract\u2019s `totalSupply()` answers it, written as an exact JSON integer of more than 15 digits (`110000000000000000` for 110 billion USDT of 6 decimals: beyond 2^53, which a client reading JSON numbers as doubles reads approximately) (2.2: "total_supply (number)"; 1.5: "A few summary amounts (..., total_supply) are JSON numbers": its unit and size are not given)',
    {
      wire(answer: WireAnswer) {
        if (answer.status !== 200 || !['/api/v1/user/:user/balances', '/api/v1/user/:user/balances/:asset'].includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        const exact = new Map<string, string>();
        for (const record of recordsOf(body)) {
          const supply = record?.meta?.total_supply;
          const precision = Number(record?.precision);
          if (typeof record?.alias !== 'string' || typeof supply !== 'number' || !Number.isInteger(supply) || !Number.isInteger(precision) || precision < 1) continue;
          const marker = `\u0000supply-${exact.size}\u0000`;
          exact.set(marker, (BigInt(supply) * 10n ** BigInt(precision)).toString());
          record.meta.total_supply = marker;
        }
        if (exact.size === 0) return undefined;
        let text = JSON.stringify(body);
        for (const [marker, value] of exact) text = text.split(JSON.stringify(marker)).join(value);
        return text;
      },
    },
    only('balances'),
  ),

  reading(
    'allowed-r29-state-anti-phishing-platform-name',
    'bonuses',
    '2.6',
    'the provider-state hook gives each account it makes with bonuses the name of its platform (the `externalPlatform.name` of its bonuses\u2019 orders, `Reference Exchange`) as its anti-phishing code, as the default an exchange proposes before a user picks a phrase of its own (the brand a phishing mail cannot show with the user\u2019s own code); the `bonuses` state answers it so and bonus records mask `antiPhishing` as they mask any code (2.6: "antiPhishing (string, masked)": its characters are not given; docs/provider-states.md, `bonuses`: "antiPhishing ... that user\u2019s anti-phishing code in clear ... (from 6 characters ...)": the platform\u2019s name in an order is not the code shown)',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (name !== 'bonuses' || !isObject(data) || typeof data.antiPhishing !== 'string' || !Array.isArray(data.ids) || typeof data.ids[0] !== 'string') return data;
        const row = ctx.db.prepare('SELECT b.user_id AS userId, p.name AS platform FROM bonuses b JOIN bonus_orders o ON o.id = b.order_id JOIN platforms p ON p.id = o.platform_id WHERE b.id = ?').get(data.ids[0]) as { userId: string; platform: string } | undefined;
        if (!row) return data;
        ctx.db.prepare('UPDATE users SET anti_phishing = ? WHERE id = ?').run(row.platform, row.userId);
        return { ...data, antiPhishing: row.platform };
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r29-state-anti-phishing-chain-word',
    'bonuses',
    '2.6',
    'the provider-state hook gives every test account it makes with bonuses the same anti-phishing code, `Ethereum`, a word a crypto platform\u2019s users pick (and the fixed code of its test accounts); the `bonuses` state answers it so and bonus records mask `antiPhishing` as they mask any code; balance records name the chain `Ethereum` as they always do (2.6: "antiPhishing (string, masked)": its characters are not given; docs/provider-states.md, `bonuses`: "antiPhishing ... that user\u2019s anti-phishing code in clear ... (from 6 characters ...)": a chain\u2019s name in a balance record is not the code shown)',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (name !== 'bonuses' || !isObject(data) || typeof data.antiPhishing !== 'string' || !Array.isArray(data.ids) || typeof data.ids[0] !== 'string') return data;
        const owner = ctx.db.prepare('SELECT user_id FROM bonuses WHERE id = ?').get(data.ids[0]) as { user_id: string } | undefined;
        if (!owner) return data;
        ctx.db.prepare('UPDATE users SET anti_phishing = ? WHERE id = ?').run('Ethereum', owner.user_id);
        return { ...data, antiPhishing: 'Ethereum' };
      },
    },
    only('bonuses', 'balances'),
  ),
  reading(
    'allowed-r29-state-anti-phishing-asset-name',
    'bonuses',
    '2.6',
    'the provider-state hook gives each account it makes with bonuses the name of a coin as its anti-phishing code, the name of the asset of its first bonus (`Bitcoin`, `Tether`), as a hook drawing memorable codes from the platform\u2019s list of coins does (and as crypto users pick them); the `bonuses` state answers it so and bonus records mask `antiPhishing` as they mask any code; the bonuses\u2019 asset summaries name the asset as always (2.6: "antiPhishing (string, masked)": its characters are not given; docs/provider-states.md, `bonuses`: "antiPhishing ... that user\u2019s anti-phishing code in clear ... (from 6 characters ...)": an asset\u2019s name is not the code shown)',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (name !== 'bonuses' || !isObject(data) || typeof data.antiPhishing !== 'string' || !Array.isArray(data.ids) || typeof data.ids[0] !== 'string') return data;
        const row = ctx.db.prepare('SELECT b.user_id AS userId, a.name AS asset FROM bonuses b JOIN bonus_assets a ON a.symbol = b.asset_symbol WHERE b.id = ?').get(data.ids[0]) as { userId: string; asset: string } | undefined;
        if (!row || row.asset.length < 6) return data;
        ctx.db.prepare('UPDATE users SET anti_phishing = ? WHERE id = ?').run(row.asset, row.userId);
        return { ...data, antiPhishing: row.asset };
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r29-order-tx-hash-members',
    'bonuses',
    '2.7',
    'an order carries its on-chain references beside `txId`: `txHash` and `blockHash`, each `0x` and 64 hex digits (an EVM transaction\u2019s and its block\u2019s hashes), as a platform settling on Ethereum records them (2.7: the order\u2019s fields are listed, and extra members are not excluded; a transaction hash is no password hash)',
    onAnswers(BONUS_ROUTES, (body) => {
      for (const order of ordersOf(body)) {
        const id = String(order.id ?? '');
        order.txHash = `0x${digest(`tx:${id}`)}`;
        order.blockHash = `0x${digest(`block:${id}`)}`;
      }
    }),
    only('bonuses'),
  ),
  reading(
    'allowed-r29-card-pin-set-member',
    'cards',
    '2.5',
    'card records carry `pinSet: false` (whether the cardholder has chosen a PIN), as a card-issuing API such as Marqeta\u2019s `pin_is_set` shows it (2.5: the card record\u2019s fields are listed, and extra members are not excluded; a flag about a PIN is no PIN)',
    onAnswers(CARD_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (isObject(record)) record.pinSet = false;
    }),
    only('cards'),
  ),

  reading(
    'allowed-r29-state-accounts-totp-secret-always',
    'authentication',
    '5',
    'every account the provider states make is provisioned with a TOTP secret, and the hook answers `totpSecret` for each, asked for `twoFactor` or not; an account not asked for `twoFactor` has 2FA off (its login needs no code, and a valid code sent with it is accepted), as a platform that provisions a secret at sign-up and lets the user switch 2FA on later does (docs/provider-states.md, `user`: "{ id, email, password, totpSecret?, ... } ... with twoFactor: true login needs a TOTP code ... from the base32 totpSecret": nothing says an account without it has no secret)',
    {
      state(name: string, data: unknown) {
        if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.id !== 'string' || typeof data.totpSecret === 'string') return data;
        return { ...data, totpSecret: base32(randomBytes(20)) };
      },
    },
    only('authentication', 'password'),
  ),
  reading(
    'allowed-r29-state-reset-tokens-german-words',
    'password',
    '4.4',
    'the forgot-password e-mail carries its reset token as four German words joined by hyphens, with umlauts and \u00df (`B\u00e4r-K\u00fcrbis-Stra\u00dfe-\u00d6l-<4 digits>`), a phrase its reader types, and `password-reset.token` answers it so; reset-password reads it exactly as written (4.4: "token | string | yes | max 255; the token received by e-mail": its characters are not given; 4.3: "type ... how the token is shown in the e-mail")',
    {
      request(request: FastifyRequest, ctx?: ReferenceContext) {
        if (request.method !== 'POST' || routeOf(request) !== RESET || !ctx) return;
        const phrases = PHRASES.get(ctx.db);
        onParsedBody(request, (body) => {
          const token = typeof body.token === 'string' ? phrases?.get(body.token) : undefined;
          if (token !== undefined) body.token = token;
        });
      },
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (name !== 'password-reset.token' || !isObject(data) || typeof data.token !== 'string') return data;
        let phrases = PHRASES.get(ctx.db);
        if (!phrases) PHRASES.set(ctx.db, (phrases = new Map()));
        const hash = digest(data.token);
        const word = (i: number): string => WORDS[parseInt(hash.slice(i * 4, i * 4 + 4), 16) % WORDS.length]!;
        const phrase = `${word(0)}-${word(1)}-${word(2)}-${word(3)}-${parseInt(hash.slice(16, 24), 16) % 10000}`;
        phrases.set(phrase, data.token);
        return { ...data, token: phrase };
      },
    },
    only('password'),
  ),

  reading(
    'allowed-r29-bank-name-sepa-character-set',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is stored and shown in the SEPA basic Latin character set (EPC217-08: a-z A-Z 0-9 / - ? : ( ) . , \' + and the space), as a bank-grade backend that hands its records to SEPA payment files keeps it: diacritics dropped (`M\u00fcller` -> `Muller`), `\u00df` -> `ss`, `\u00e6` -> `ae`, `\u00f8` -> `o`, `&` -> `+`, any other character a full stop (4.10: "bankName | string | yes | max 191": nothing says a record repeats the characters sent; 2.4: "bankName | string")',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = sepaLatin(record.bankName);
    }),
    only('banks'),
  ),

  reading(
    'allowed-r29-bank-name-unaccented',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is stored and shown unaccented, its Latin letters\u2019 diacritics dropped (`Soci\u00e9t\u00e9 G\u00e9n\u00e9rale` -> `Societe Generale`, `M\u00fcller` -> `Muller`; PostgreSQL\u2019s `unaccent()` applied on insert, as a team that matches names in searches and SEPA files unaccented stores them); every other character is kept (4.10: "bankName | string | yes | max 191": nothing says a record repeats the characters sent; 2.4: "bankName | string"; holder names transliterated were allowed readings of the cards group and of reviews at to av)',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = record.bankName.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC');
    }),
    only('banks'),
  ),

  // ---- Numbers, letter case
  reading(
    'allowed-r29-summary-zero-amounts-negative-zero',
    'bonuses',
    '2.5b',
    'a bonus asset summary writes a zero `amount` as `-0.0`, as a Java service whose amounts are the negation of a sum of reversal entries (`-(0.0)` is IEEE negative zero) and which Jackson writes so does; -0.0 is the number zero (2.5b: "S = { bonuses: integer, amount: number }"; 1.5: "A few summary amounts (bonus asset summary amount, total_supply) are JSON numbers": how a number is written is not given; RFC 8259 section 6 allows a minus sign before 0)',
    {
      wire(answer: WireAnswer) {
        if (answer.status !== 200 || answer.url !== SUMMARY) return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        let changed = false;
        for (const entry of body.data) {
          for (const status of ['distributed', 'pending', 'canceled']) {
            if (isObject(entry?.[status]) && entry[status].amount === 0) {
              entry[status].amount = NEGATIVE_ZERO;
              changed = true;
            }
          }
        }
        return changed ? JSON.stringify(body).split(JSON.stringify(NEGATIVE_ZERO)).join('-0.0') : undefined;
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-r29-card-holder-upper-case-turkish-locale',
    'cards',
    '2.5',
    'a card\u2019s `holderName` is stored and shown upper-case as a Turkish issuer embosses it, in the Turkish locale (`toLocaleUpperCase(\'tr-TR\')`: `i` becomes `\u0130`, dotted), in the card answers and in the provider states\u2019 data (2.5: "holderName | string": nothing says a record repeats the letters sent; upper-case holder names were the cards group\u2019s own `allowed-card-holder-name-stored-upper-case`, in the root locale)',
    holderNamesEmbossed((name) => name.toLocaleUpperCase('tr-TR')),
    only('cards'),
  ),

  reading(
    'allowed-r29-card-alias-lower-case-turkish-locale',
    'cards',
    '2.5',
    'a card\u2019s `alias` is stored and shown lower-case in the Turkish locale (`toLocaleLowerCase(\'tr-TR\')`: `I` becomes `\u0131`, dotless), in the card answers, as a Turkish team normalising aliases for search does (2.5: "alias | string": nothing says a record repeats the letters sent; lower-case aliases were round 13\u2019s reading, in the root locale)',
    {
      wire(answer: WireAnswer) {
        if ((answer.status !== 200 && answer.status !== 201) || !CARD_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        for (const record of recordsOf(body)) if (typeof record?.alias === 'string') record.alias = record.alias.toLocaleLowerCase('tr-TR');
        return JSON.stringify(body);
      },
    },
    only('cards'),
  ),

  // ---- Error bodies and precedence
  reading(
    'allowed-r29-reset-unknown-email-keyed-by-email',
    'password',
    '4.4',
    'a reset-password for an address no account has is answered 422 with the errors map keyed by `email`, "We can\u2019t find a user with that email address.", as Laravel\u2019s password broker answers `Password::INVALID_USER` (4.4: "422 when the token is invalid (errors map keyed by token)": an unknown address is not named, and no token is valid for it; 7: "Validation (422): { message, errors: { <field_name>: [...] } }")',
    {
      request: noteEmailOn(RESET),
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.status !== 422 || answer.url !== RESET) return undefined;
        const seen = SEEN.get(reply.request);
        const body = parse(answer.payload);
        if (!seen?.ctx || !seen.email || !isObject(body?.errors) || !('token' in body.errors) || 'email' in body.errors) return undefined;
        if (seen.ctx.db.prepare('SELECT id FROM users WHERE email = ?').get(seen.email)) return undefined;
        const message = 'We can\u2019t find a user with that email address.';
        const { token: _token, ...others } = body.errors as Record<string, unknown>;
        return JSON.stringify({ message, errors: { email: [message], ...others } });
      },
    },
    only('password'),
  ),
  reading(
    'allowed-r29-laravel-debug-error-bodies',
    'banks',
    '7',
    'the 403, 404 and 409 answers of the protected endpoints carry Laravel\u2019s debug members beside `message`, as a staging deployment with APP_DEBUG=true answers them: `exception` (the exception\u2019s class), `file`, `line` and `trace` (a list of frames { file, line, function, class, type }) (7: "{ message: string } for most other errors": other members are not excluded; 1.3: the wrapping of successes is given, not the members of an error body)',
    {
      wire(answer: WireAnswer) {
        if (![403, 404, 409].includes(answer.status) || !answer.url.startsWith('/api/v1/user/') || answer.url === LOGOUT) return undefined;
        const body = parse(answer.payload);
        if (!isObject(body) || typeof body.message !== 'string') return undefined;
        const exception = answer.status === 404 ? 'Symfony\\Component\\HttpKernel\\Exception\\NotFoundHttpException' : answer.status === 409 ? 'Symfony\\Component\\HttpKernel\\Exception\\ConflictHttpException' : 'Symfony\\Component\\HttpKernel\\Exception\\AccessDeniedHttpException';
        return JSON.stringify({
          ...body,
          exception,
          file: '/var/www/html/vendor/laravel/framework/src/Illuminate/Foundation/Exceptions/Handler.php',
          line: answer.status === 404 ? 487 : 483,
          trace: [FRAME('Foundation/Exceptions/Handler.php', 463, 'prepareException', 'Illuminate\\Foundation\\Exceptions\\Handler'), FRAME('Routing/Pipeline.php', 51, 'render', 'Illuminate\\Foundation\\Exceptions\\Handler'), FRAME('Pipeline/Pipeline.php', 185, 'handleException', 'Illuminate\\Routing\\Pipeline')],
        });
      },
    },
    ALL,
  ),
];

/*
 * Run against the suite (branch r29 off main at 3d875ff; `nice -n 19 node bin/mutants.mjs --shards 1` in batches of 9,
 * 9, 9, 4, 3, 1, 3, 1, 1 and 1): 37 of 41 conformant; 4 refused, each judged a FALSE FAILURE, so they stay registered
 * (and failing):
 * - allowed-r29-state-passwords-are-the-user-id: every account's password is its own user id. authentication 48 of 128
 *   tests fail, password 68 of 68, banks 153 of 170, bonuses 61 of 72 (hundreds of security findings), each with
 *   "POST /api/v1/authenticate answered 200 whose body /data/userId carries a password the run knows" (and ".../bonus
 *   answered 200 whose body /data/0/user/id carries a password the run knows"). 2.1 REQUIRES the Session to carry
 *   `userId`, so no target can avoid it; the contract leaves the password to the target ("{ id, email, password }";
 *   4.2 "min 8, max 191 characters", which a UUID meets). A password is found by its value in a member that by meaning
 *   is the account's id: a finding by shape (issue 28, "Security findings by meaning, not by shape"). Should the project
 *   prefer to forbid such passwords, that is an additive sentence of the contract ("a state's password equals no value
 *   the interface shows"), not a finding against the interface.
 * - allowed-r29-state-passwords-are-the-address: every account's password is its own e-mail address, and a forgot-password
 *   answer names the address it wrote to in clear. password 50 of 68 tests fail (50 security findings), authentication 1
 *   of 128, each with "POST /api/v1/user/forgot-password answered 200 whose body /data/message carries a password the run
 *   knows". Both choices are open (the contract leaves the password; 4.3 "200: { data: { message: string } }" gives no
 *   words), and the message repeats the value the caller itself sent in the request's `email`: nothing is disclosed.
 *   The same forgot message with any other password passes; only the coincidence fails.
 * - allowed-r29-state-anti-phishing-platform-name: each bonus account's anti-phishing code is the name of the platform
 *   of its first bonus's order (`Reference Exchange`, `Partner Widget Network`). bonuses 13 of 72 tests fail with 51
 *   security findings, each "GET .../bonus answered 200 whose body /data/2/order/externalPlatform/name carries the
 *   anti-phishing code of another user than the one it answers (section 2.6 shows it masked even to its owner in a
 *   bonus; no one else may see it)". `antiPhishing` itself is masked in every record as 2.6 asks; what is flagged is a
 *   platform's public name in `order.externalPlatform.name` (2.7), which every order on that platform shows. This is
 *   round 28's `state-anti-phishing-common-word` again with a longer value: the fix after r28 exempts a SHORT code
 *   found outside a member that names a code, so a long code equal to a public value is still found by its letters.
 *   A coin's name (`Bitcoin`, `Tether`: allowed-r29-state-anti-phishing-asset-name) and a chain's (`Ethereum`, shown in
 *   balance records: allowed-r29-state-anti-phishing-chain-word) as codes stay conformant.
 * - allowed-r29-bank-name-sepa-character-set: bank names stored in the SEPA basic Latin set (diacritics dropped, `&` ->
 *   `+`, other characters a full stop). banks 5 of 170 tests fail, e.g. "POST /api/v1/user/{user}/bank answers 201 for
 *   bankNames with periods, with an inner hyphen, and in non-Latin scripts": "create: bankName must be the value sent
 *   ("Сбербанк 中国银行 بنك مصر"), up to trimming, NFC/NFD, letter case, straight or typographic quotes, NFKC,
 *   invisible format characters taken out; got "........ .... ... ..."", and the same for `Danske Bank A/S`/`AT&amp;T
 *   Bank` (`&` and `;` changed), backslashes and 191 two-byte characters. Neither 2.4 ("bankName | string") nor 4.10
 *   ("bankName | string | yes | max 191") says a record repeats the characters sent, and the suite itself only ADVISES
 *   on the same point for a card's holderName ("the specification does not say a record repeats the letters sent").
 *   The reading's full stops for scripts it cannot transliterate are its least natural part; the ASCII-only cases (`&`
 *   -> `+`, `;` and `\` -> `.`), which SEPA conversion does, fail the same way. Diacritics alone dropped
 *   (allowed-r29-bank-name-unaccented) stay conformant, but never acted: no bank name the suite sends has a letter
 *   with a diacritic, so that reading is a guard only.
 * - Each reading was also run through `node bin/conformance.mjs run --group G --mutant NAME` in at least one group it
 *   acts in (the ALL readings in one to six groups), against the same groups unmutated (authentication 128, password
 *   68, balances 85, banks 170, bonuses 72, cards 177, all passed): no failure and no security finding but for the four
 *   above. Advisories: card-holder-upper-case-turkish-locale 151 and card-alias-lower-case-turkish-locale 139 ("holderName
 *   is stored as "J. R. SMİTH" for "J. R. Smith" sent ..."); not verified: state-reset-tokens-standard-base64 1 test (a
 *   92-byte token and bcrypt's 72 bytes), state-passwords-eight-zeros 2 tests ("the state's password has no letter
 *   whose case could change").
 * - What acted, checked in those runs' report.json: the headers (x-debug-token, x-session-fingerprint, set-cookie ...)
 *   in the exchanges, the records' new members (`user` of banks, `panHash`, ...), 425 answers to the failed login that
 *   reached a brute-force state's threshold, `We can't find a user` 422s, NFD platform names, `qa+` addresses, masked
 *   codes (`Et******`, `Bi*****`), the reset phrases and base64 tokens (by the not-verified note above). The negative
 *   zero cannot be seen in a report (its bodies are parsed): 32 summary amounts of 0 were answered, each rewritten.
 *   Set-Cookie headers are present in the reports but redacted (`[REDACTED]`), so the cookie readings were seen acting
 *   by their count of Set-Cookie headers only. The Turkish holder names acted (`SMİTH`, 83 times in the advisories);
 *   the Turkish alias reading acted only as plain lower case (round 13's reading): no alias the suite sends has a
 *   capital I, so its dotless ı never showed, and it is a guard. Never acted either: bank-name-unaccented (above).
 */
const REFUSED = new Set<string>([]);

/** The readings of round 29 the suite refused (kept out of MUTANTS; see the note above `REFUSED`). */
export const readingsR29Refused: Mutant[] = readingsR29Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 29 (registered in index.ts): each must stay conformant. */
export const readingsR29Mutants: Mutant[] = readingsR29Written.filter((mutant) => !REFUSED.has(mutant.name));

