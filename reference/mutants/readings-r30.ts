import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.js';
import type { WireAnswer } from '../mutation.js';
import { resolveToken } from '../tokens.js';
import type { Mutant } from './types.js';
import { ALL, claimsOf, isSessionAnswer, judgedDeviations, onAnswers, onParsedBody, only, parse, reading, recordsOf, routeOf } from './reading.js';
import { AUTH, BANK_ROUTES, BONUS_ROUTES, CARD_ROUTES, JWT, LOGOUT } from './routes.js';

/**
 * Reading round 30 (issue 28, "fair to the readings nobody listed"): implementation choices the specification and the
 * provider-states contract leave open, each taken the other way from the reference, as teams would take them. New axes:
 * the cookies and headers that real frameworks and fronts write, in their real forms, where a value may look like a
 * leaked credential or a hash and is neither (Tomcat's JSESSIONID of 32 upper-case hex digits, PHP's PHPSESSID with its
 * 1981 Expires, Azure App Service's ARRAffinity of 64 hex digits, express-session's signed `s:` cookie, Laravel's
 * encrypted cookies as they really are: base64 of { iv, value, mac, tag } and a remember cookie named by a SHA-1, Rails'
 * AES-GCM session cookie and its MD5 ETag, Flask-Login's zlib-compressed signed session holding the caller's own id and
 * a SHA-512 of its client, Auth.js's JWE session and its `token|sha256` CSRF cookie, ASP.NET Core's antiforgery cookies,
 * Django's quoted cookie values, a CHIPS `__Host-` cookie with `Partitioned` and `Priority`, cookies cleared at logout
 * (`deleted`, empty values), Fastly's debug digest, Akamai's GRN and Server-Timing, build commit ids, Content-MD5 and a
 * strong base64 ETag, B3/Datadog/traceresponse trace headers, standard-base64 request ids, NEL and Report-To naming a
 * Sentry key, a tenant header, public caching that varies on Authorization); what the caller sent, shown back to the
 * caller (the e-mail of its own login, the claims of its own JWT, a device id given at login); an extra member in Unix
 * nanoseconds beyond 2^53; an interim 102 Processing; stored names transliterated (SWIFT's Cyrillic for bank names, ICU's
 * Latin-ASCII for card aliases), squished, HTML-escaped, or kept in MySQL utf8mb3 and latin1 columns; provider states' addresses in UTF-8 and on IDN domains, and
 * numbers written as strings.
 * Run against the suite: 32 of 38 conformant, 6 refused: 5 FALSE FAILURES kept registered, 1 fair refusal (see the note
 * above `REFUSED`).
 * Read only from the specification (/work/shared/spec/interface.md), docs/provider-states.md, README.md and reference/;
 * written without reading the suite (suites/, helpers/, test/, explore/, schemas/, docs/judging.md). None repeats a
 * reading of rounds 1 to 29, of the reviews, of the white-box rounds or of the groups' own `allowed-*` mutants (their
 * 978 names, and the descriptions and code of the near ones, were read for that: r1-extra-headers-and-cookies (a toy
 * XSRF-TOKEN), r2-cache-validators (a weak SHA-1 hex ETag), review-aw-gateway-headers-and-login-cookie (Express's weak
 * ETag), r4-request-id-headers (traceparent), r16-signed-answers-digest-headers (Content-Digest), r29's cookies and
 * headers (csrftoken, AWSALB, Sentry trace and baggage, Symfony profiler, oauth2-proxy, sliding cookie)). Each
 * description quotes the text that leaves the point open. Readings change requests, answers or the provider states'
 * answers only: no edit to reference/modules/.
 */

const isObject = (value: unknown): value is Record<string, any> => !!value && typeof value === 'object' && !Array.isArray(value);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alnum = (length: number, alphabet = ALNUM): string => Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
const hexOf = (bytes: number): string => randomBytes(bytes).toString('hex');
const b64 = (bytes: Buffer): string => bytes.toString('base64');
const b64url = (bytes: Buffer): string => bytes.toString('base64url');
const httpDate = (ms: number): string => new Date(ms).toUTCString();

/** Adds a header value, a Set-Cookie beside those already set. */
function addHeader(reply: FastifyReply, name: string, value: string): void {
  const prior = reply.getHeader(name);
  if (prior === undefined) reply.header(name, value);
  else if (name.toLowerCase() === 'set-cookie') reply.header(name, [...(Array.isArray(prior) ? prior.map(String) : [String(prior)]), value]);
  else reply.header(name, `${String(prior)}, ${value}`);
}

/** Every answer (success or not) with headers added by `add`. */
const everyAnswer = (add: (reply: FastifyReply, answer: WireAnswer) => void) => ({
  wire(answer: WireAnswer, reply: FastifyReply) {
    add(reply, answer);
    return undefined;
  },
});

/** What a reading learnt of a request before it was routed: the caller its bearer names, the e-mail its body sent. */
interface Seen {
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

/** A request hook that notes the caller of a valid bearer token (resolved before the handler runs). */
function noteCaller(request: FastifyRequest, ctx?: ReferenceContext): void {
  const bearer = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]?.trim();
  if (!bearer || !ctx) return;
  const resolved = resolveToken(ctx.db, bearer, ctx.now());
  if (resolved) seenOf(request).caller = { id: resolved.user.id, email: resolved.user.email };
}

/** A request hook that notes the e-mail a login's JSON body sends. */
function noteLoginEmail(request: FastifyRequest): void {
  if (request.method !== 'POST' || routeOf(request) !== AUTH) return;
  const seen = seenOf(request);
  onParsedBody(request, (body) => {
    if (typeof body.email === 'string') seen.email = body.email;
  });
}

/** Laravel's encrypted cookie value (Illuminate\Encryption\Encrypter, AES-256-CBC): base64 of { iv, value, mac, tag }, URL-encoded as Laravel sets it. */
function laravelEncrypted(): string {
  const iv = b64(randomBytes(16));
  const value = b64(randomBytes(48));
  const mac = createHmac('sha256', randomBytes(32)).update(iv + value).digest('hex');
  return encodeURIComponent(b64(Buffer.from(JSON.stringify({ iv, value, mac, tag: '' }))));
}

/** ASP.NET Core Data Protection's payload form (`CfDJ8` and base64url). */
const dataProtected = (bytes: number): string => `CfDJ8${b64url(randomBytes(bytes))}`;

/** Unix nanoseconds of a Unix-seconds time, as a decimal text (beyond 2^53, so never a JS number). */
const nanosOf = (seconds: number): string => `${seconds}${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

const NANOS_MARK = '\u0000nanos:';

/** ICU's Latin-ASCII folding of the Latin letters that have no decomposition, then diacritics dropped; other characters kept. */
const LATIN_ASCII: Record<string, string> = { '\u00df': 'ss', '\u00e6': 'ae', '\u00c6': 'AE', '\u00f8': 'o', '\u00d8': 'O', '\u00f0': 'd', '\u00d0': 'D', '\u00fe': 'th', '\u00de': 'TH', '\u0142': 'l', '\u0141': 'L', '\u0111': 'd', '\u0110': 'D', '\u0127': 'h', '\u0126': 'H', '\u014b': 'n', '\u014a': 'N', '\u0153': 'oe', '\u0152': 'OE', '\u0131': 'i' };
const latinAscii = (text: string): string =>
  [...text]
    .map((char) => LATIN_ASCII[char] ?? char)
    .join('')
    .normalize('NFD')
    .replace(/([A-Za-z])[\u0300-\u036f]+/g, '$1')
    .normalize('NFC');

/** SWIFT's transliteration of Russian Cyrillic for MT messages (upper and lower case), other characters kept. */
const SWIFT_CYRILLIC: Record<string, string> = { А: 'A', Б: 'B', В: 'V', Г: 'G', Д: 'D', Е: 'E', Ё: 'E', Ж: 'J', З: 'Z', И: 'I', Й: 'I', К: 'K', Л: 'L', М: 'M', Н: 'N', О: 'O', П: 'P', Р: 'R', С: 'S', Т: 'T', У: 'U', Ф: 'F', Х: 'H', Ц: 'C', Ч: 'CH', Ш: 'SH', Щ: 'SC', Ъ: "'", Ы: 'Y', Ь: "'", Э: 'E', Ю: 'IU', Я: 'IA' };
export function swiftCyrillic(text: string): string {
  return [...text]
    .map((char) => {
      const upper = SWIFT_CYRILLIC[char];
      if (upper !== undefined) return upper;
      const lower = SWIFT_CYRILLIC[char.toUpperCase()];
      return lower !== undefined ? lower.toLowerCase() : char;
    })
    .join('');
}

const ACCOUNT_STATES = ['user', 'user.inactive', 'user.expired-token', 'user.short-session', 'user.brute-force', 'user.locked', 'user.throttled', 'user.forbidden'];

/** The accounts a state makes given another address by `move` (local part, domain), as the target's hook would make them; long or tagged addresses kept. */
function movedAddresses(move: (local: string, domain: string) => string) {
  return (name: string, data: unknown, ctx: ReferenceContext): unknown => {
    if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.email !== 'string' || typeof data.id !== 'string') return data;
    const email = data.email;
    const at = email.lastIndexOf('@');
    if (at < 1 || email.length > 60 || email.includes('+') || /[^\x00-\x7f]/.test(email)) return data;
    const moved = move(email.slice(0, at), email.slice(at + 1));
    if (ctx.db.prepare('UPDATE users SET email = ? WHERE id = ?').run(moved, data.id).changes !== 1) return data;
    // What the state recorded under the address (a restriction, mail) follows it, as the hook would have made it.
    ctx.db.prepare('UPDATE login_failures SET email = ? WHERE email = ?').run(moved, email);
    ctx.db.prepare('UPDATE outbox SET recipient = ? WHERE recipient = ?').run(moved, email);
    ctx.db.prepare('UPDATE password_reset_tokens SET email = ? WHERE email = ?').run(moved, email);
    return { ...data, email: moved };
  };
}

const readingsR30Written: Mutant[] = [
  // ---- Session and security cookies as frameworks write them
  reading(
    'allowed-r30-tomcat-jsessionid-cookie',
    'authentication',
    '1',
    'every answer sets Tomcat\u2019s session cookie, `JSESSIONID=<32 upper-case hex digits>; Path=/; Secure; HttpOnly`, as a Spring MVC service whose security configuration keeps the default session creation policy (`IF_REQUIRED`, and a filter that touches the session) does; 32 hex digits are the shape of an MD5 and are a random session id (1.2: "Requests and responses are JSON. Clients send the headers Content-Type ... and Accept ...": the headers of answers are not given)',
    everyAnswer((reply) => addHeader(reply, 'set-cookie', `JSESSIONID=${hexOf(16).toUpperCase()}; Path=/; Secure; HttpOnly`)),
    ALL,
  ),
  reading(
    'allowed-r30-php-session-start-headers',
    'authentication',
    '1',
    'every answer carries what PHP\u2019s `session_start()` adds with its default `session.cache_limiter = nocache`: `Set-Cookie: PHPSESSID=<26 characters 0-9a-v>; path=/; HttpOnly`, `Expires: Thu, 19 Nov 1981 08:52:00 GMT`, `Cache-Control: no-store, no-cache, must-revalidate` and `Pragma: no-cache`, as a plain PHP service that opens a session on every request does (1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      addHeader(reply, 'set-cookie', `PHPSESSID=${alnum(26, '0123456789abcdefghijklmnopqrstuv')}; path=/; HttpOnly`);
      reply.header('expires', 'Thu, 19 Nov 1981 08:52:00 GMT');
      reply.header('cache-control', 'no-store, no-cache, must-revalidate');
      reply.header('pragma', 'no-cache');
    }),
    ALL,
  ),
  reading(
    'allowed-r30-azure-app-service-affinity-cookies',
    'authentication',
    '1',
    'every answer carries what Azure App Service\u2019s front adds to an ASP.NET Core app with ARR affinity on: `Set-Cookie: ARRAffinity=<64 hex digits, the instance>;Path=/;HttpOnly;Secure;Domain=accounts-api.azurewebsites.net`, the same as `ARRAffinitySameSite=...;SameSite=None`, `X-Powered-By: ASP.NET` and `Request-Context: appId=cid-v1:<uuid>`; 64 hex digits are the shape of a SHA-256 and name an instance (1.2: the headers of answers are not given)',
    (() => {
      const instance = hexOf(32);
      const appId = randomUUID();
      return everyAnswer((reply) => {
        addHeader(reply, 'set-cookie', `ARRAffinity=${instance};Path=/;HttpOnly;Secure;Domain=accounts-api.azurewebsites.net`);
        addHeader(reply, 'set-cookie', `ARRAffinitySameSite=${instance};Path=/;HttpOnly;SameSite=None;Secure;Domain=accounts-api.azurewebsites.net`);
        reply.header('x-powered-by', 'ASP.NET');
        reply.header('request-context', `appId=cid-v1:${appId}`);
      });
    })(),
    ALL,
  ),
  reading(
    'allowed-r30-express-session-signed-cookie',
    'authentication',
    '1',
    'every answer sets express-session\u2019s signed cookie, `connect.sid=s%3A<32-character session id>.<43 characters of base64, its HMAC-SHA256>; Path=/; HttpOnly`, and `X-Powered-By: Express`, as a Node service behind a proxy whose session middleware keeps `saveUninitialized: true` does (1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      const id = alnum(32, `${ALNUM}-_`);
      const signature = createHmac('sha256', 'keyboard cat').update(id).digest('base64').replace(/=+$/, '');
      addHeader(reply, 'set-cookie', `connect.sid=${encodeURIComponent(`s:${id}.${signature}`)}; Path=/; HttpOnly`);
      reply.header('x-powered-by', 'Express');
    }),
    ALL,
  ),
  reading(
    'allowed-r30-laravel-encrypted-cookies-real-form',
    'authentication',
    '1',
    'every answer sets Laravel\u2019s XSRF-TOKEN and session cookies as Laravel really writes them, each the URL-encoded base64 of an encrypted payload `{"iv":...,"value":...,"mac":"<64 hex digits>","tag":""}` (EncryptCookies, AES-256-CBC), and a login answered 200 also sets the guard\u2019s remember cookie, `remember_web_59ba36addc2b2f9401580f014c7f58ea4e30989d=<the same form>; Max-Age=34560000` (its name carries the SHA-1 of the guard\u2019s class), as a Laravel service with the `web` middleware group on its API routes and "remember me" on does (1.2: the headers of answers are not given; 5.1: the Session is the token the caller gets, other cookies are not excluded)',
    everyAnswer((reply, answer) => {
      const expires = httpDate(Date.now() + 7200000);
      addHeader(reply, 'set-cookie', `XSRF-TOKEN=${laravelEncrypted()}; expires=${expires}; Max-Age=7200; path=/; samesite=lax`);
      addHeader(reply, 'set-cookie', `accounts_api_session=${laravelEncrypted()}; expires=${expires}; Max-Age=7200; path=/; httponly; samesite=lax`);
      if (isSessionAnswer(answer)) addHeader(reply, 'set-cookie', `remember_web_59ba36addc2b2f9401580f014c7f58ea4e30989d=${laravelEncrypted()}; expires=${httpDate(Date.now() + 34560000000)}; Max-Age=34560000; path=/; httponly; samesite=lax`);
    }),
    ALL,
  ),
  reading(
    'allowed-r30-rails-encrypted-session-cookie-and-md5-etag',
    'authentication',
    '1',
    'every answer sets Rails 7\u2019s encrypted session cookie, `_accounts_api_session=<base64 ciphertext>--<base64 IV>--<base64 auth tag>; path=/; secure; httponly; samesite=lax` (AES-256-GCM), and each 200 carries Rack::ETag\u2019s weak ETag, `W/"<32 hex digits, the MD5 of the body>"`, with `Cache-Control: max-age=0, private, must-revalidate`, as a Rails API app with the cookie store and Rack::ETag kept in its middleware does (1.2: the headers of answers are not given)',
    everyAnswer((reply, answer) => {
      addHeader(reply, 'set-cookie', `_accounts_api_session=${encodeURIComponent(`${b64(randomBytes(96))}--${b64(randomBytes(12))}--${b64(randomBytes(16))}`)}; path=/; secure; httponly; samesite=lax`);
      if (answer.status === 200) {
        reply.header('etag', `W/"${createHash('md5').update(answer.payload).digest('hex')}"`);
        reply.header('cache-control', 'max-age=0, private, must-revalidate');
      }
    }),
    ALL,
  ),
  reading(
    'allowed-r30-flask-login-compressed-session-cookie',
    'authentication',
    '5',
    'every answer to a login answered 200 or to a request with a valid bearer token sets Flask-Login\u2019s session as itsdangerous signs it, compressed: `session=.<base64url of zlib({"_fresh":true,"_id":<128 hex digits, the SHA-512 of the client\u2019s address and agent>,"_user_id":<the caller\u2019s own user id>})>.<timestamp>.<signature>; HttpOnly; Path=/` (three dot-separated base64url pieces, as a JWT is), as a Flask service with Flask-Login\u2019s session protection does: the caller\u2019s own id, in the answer to its own request (5.3: the headers of answers are not given; issue 28: "A credential issued to the caller ... is not a finding", and this is no credential)',
    {
      request: noteCaller,
      wire(answer: WireAnswer, reply: FastifyReply) {
        const userId = isSessionAnswer(answer) ? parse(answer.payload)?.data?.userId : SEEN.get(reply.request)?.caller?.id;
        if (typeof userId !== 'string' || answer.status === 401) return undefined;
        const clientId = createHash('sha512').update(`127.0.0.1|${String(reply.request.headers['user-agent'] ?? '')}`).digest('hex');
        const payload = b64url(deflateSync(Buffer.from(JSON.stringify({ _fresh: true, _id: clientId, _user_id: userId }))));
        const timestamp = b64url(Buffer.from(Math.floor(Date.now() / 1000).toString(16).padStart(8, '0'), 'hex'));
        const signature = b64url(createHmac('sha1', 'flask-secret').update(`.${payload}.${timestamp}`).digest());
        addHeader(reply, 'set-cookie', `session=.${payload}.${timestamp}.${signature}; HttpOnly; Path=/`);
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r30-authjs-jwe-session-and-csrf-cookies',
    'authentication',
    '5',
    'a login answered 200 (either way) sets Auth.js\u2019s encrypted session cookie, `__Secure-authjs.session-token=<a compact JWE: {"alg":"dir","enc":"A256CBC-HS512","kid":...}..<iv>.<ciphertext>.<tag>>; Path=/; HttpOnly; Secure; SameSite=Lax`, and every answer Auth.js\u2019s CSRF cookie, `__Host-authjs.csrf-token=<64 hex digits>%7C<64 hex digits, the SHA-256 of the token and the secret>; Path=/; HttpOnly; Secure; SameSite=Lax`, as a Next.js back end that fronts the API with Auth.js does: the session is the caller\u2019s own, encrypted to the server (5.1, 5.2: the Session is the token the caller gets; what else an answer sets is not given)',
    everyAnswer((reply, answer) => {
      const token = hexOf(32);
      addHeader(reply, 'set-cookie', `__Host-authjs.csrf-token=${token}%7C${createHash('sha256').update(`${token}auth-secret`).digest('hex')}; Path=/; HttpOnly; Secure; SameSite=Lax`);
      if (!isSessionAnswer(answer)) return;
      const header = b64url(Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256CBC-HS512', kid: b64url(randomBytes(32)) })));
      addHeader(reply, 'set-cookie', `__Secure-authjs.session-token=${header}..${b64url(randomBytes(16))}.${b64url(randomBytes(160))}.${b64url(randomBytes(32))}; Path=/; Expires=${httpDate(Date.now() + 2592000000)}; HttpOnly; Secure; SameSite=Lax`);
    }),
    ALL,
  ),
  reading(
    'allowed-r30-aspnetcore-antiforgery-cookies',
    'authentication',
    '1',
    'every answer sets ASP.NET Core\u2019s antiforgery cookies for a SPA client, `.AspNetCore.Antiforgery.<11 base64url characters>=CfDJ8<Data Protection payload>; path=/; samesite=strict; httponly` and the readable request token `XSRF-TOKEN=CfDJ8<payload>; path=/; samesite=strict`, as an ASP.NET Core API following Microsoft\u2019s guidance for Angular clients (IAntiforgery.GetAndStoreTokens in a middleware) does (1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      addHeader(reply, 'set-cookie', `.AspNetCore.Antiforgery.${b64url(randomBytes(8)).slice(0, 11)}=${dataProtected(110)}; path=/; samesite=strict; httponly`);
      addHeader(reply, 'set-cookie', `XSRF-TOKEN=${dataProtected(130)}; path=/; samesite=strict`);
    }),
    ALL,
  ),
  reading(
    'allowed-r30-django-quoted-cookie-values',
    'authentication',
    '1',
    'every answer sets Django\u2019s session cookie, `sessionid=<32 lower-case letters and digits>; expires=...; HttpOnly; Max-Age=1209600; Path=/; SameSite=Lax`, and its messages cookie with a DOUBLE-QUOTED value, `messages="<base64 with = padding>:<timestamp>:<signature>"; Path=/; SameSite=Lax`, as Python\u2019s http.cookies quotes a value holding `=` (RFC 6265 4.1.1: cookie-value = *cookie-octet / ( DQUOTE *cookie-octet DQUOTE )) (1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      addHeader(reply, 'set-cookie', `sessionid=${alnum(32, 'abcdefghijklmnopqrstuvwxyz0123456789')}; expires=${httpDate(Date.now() + 1209600000)}; HttpOnly; Max-Age=1209600; Path=/; SameSite=Lax`);
      const messages = b64(Buffer.from(JSON.stringify([['__json_message', 0, 25, 'Saved.']])));
      addHeader(reply, 'set-cookie', `messages="${messages.endsWith('=') ? messages : `${messages}=`}:1r30zq:${b64url(randomBytes(32))}"; Path=/; SameSite=Lax`);
    }),
    ALL,
  ),
  reading(
    'allowed-r30-chips-host-prefixed-cookie',
    'authentication',
    '1',
    'every answer sets a partitioned `__Host-` cookie with Chrome\u2019s newer attributes, `__Host-sid=<43 base64url characters>; Path=/; Secure; HttpOnly; SameSite=None; Partitioned; Priority=High`, as a service embedded in partners\u2019 widgets (CHIPS) does; RFC 6265 5.2 ignores attributes it does not know (1.2: the headers of answers are not given)',
    everyAnswer((reply) => addHeader(reply, 'set-cookie', `__Host-sid=${b64url(randomBytes(32))}; Path=/; Secure; HttpOnly; SameSite=None; Partitioned; Priority=High`)),
    ALL,
  ),
  reading(
    'allowed-r30-logout-clears-cookies',
    'authentication',
    '4.5',
    'logout, answered 200, also clears the cookies a browser client may hold, as PHP and Laravel write a removal: `laravel_session=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; httponly`, `api_token=; Max-Age=0; Path=/api; Expires=Thu, 01 Jan 1970 00:00:00 GMT` (an empty value) and `XSRF-TOKEN=deleted; ...` (4.5: "Destroys the token ... 200: { status: string }": what else the answer carries is not given)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.url !== LOGOUT || answer.status !== 200) return undefined;
        addHeader(reply, 'set-cookie', 'laravel_session=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; httponly');
        addHeader(reply, 'set-cookie', 'api_token=; Max-Age=0; Path=/api; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
        addHeader(reply, 'set-cookie', 'XSRF-TOKEN=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/');
        return undefined;
      },
    },
    only('authentication', 'password'),
  ),

  // ---- Fronts, builds and observability: hash-like values that are no hashes of a secret
  reading(
    'allowed-r30-interim-102-processing',
    'authentication',
    '1',
    'every answer is preceded by an interim `102 Processing` (RFC 2518 10.1), as a WebDAV-derived PHP front (or an IIS/ARR front that keeps a slow request alive) sends it (1.2 names no transport rule; RFC 9110 15.2: "A client MUST be able to parse one or more 1xx responses received prior to a final response, even if the client does not expect one")',
    {
      wire(_answer: WireAnswer, reply: FastifyReply) {
        if (!reply.raw.headersSent) (reply.raw as unknown as { writeProcessing(): void }).writeProcessing();
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r30-fastly-front-headers',
    'authentication',
    '1',
    'every answer carries what a Fastly service in front adds, with its debug headers on: `Via: 1.1 varnish`, `X-Served-By: cache-fra-eddf8230089-FRA`, `X-Cache: MISS`, `X-Cache-Hits: 0`, `X-Timer: S<seconds>.<micros>,VS0,VE<ms>` and `Fastly-Debug-Digest: <64 hex digits>` (1.2: the headers of answers are not given)',
    (() => {
      const digest = hexOf(32);
      return everyAnswer((reply) => {
        const now = Date.now();
        addHeader(reply, 'via', '1.1 varnish');
        reply.header('x-served-by', 'cache-fra-eddf8230089-FRA');
        reply.header('x-cache', 'MISS');
        reply.header('x-cache-hits', '0');
        reply.header('x-timer', `S${Math.floor(now / 1000)}.${String((now % 1000) * 1000).padStart(6, '0')},VS0,VE12`);
        reply.header('fastly-debug-digest', digest);
      });
    })(),
    ALL,
  ),
  reading(
    'allowed-r30-akamai-front-headers',
    'authentication',
    '1',
    'every answer carries what Akamai in front adds: `Akamai-GRN: 0.<8 hex>.<seconds>.<8 hex>`, `Akamai-Cache-Status: Miss from child, Miss from parent` and `Server-Timing: cdn-cache; desc=MISS, edge; dur=11, origin; dur=42, ak_p; desc="<seconds>_<8 hex>_<8 hex>_4200_11_0_0_-";dur=1` (1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      const seconds = Math.floor(Date.now() / 1000);
      reply.header('akamai-grn', `0.${hexOf(4)}.${seconds}.${hexOf(4)}`);
      reply.header('akamai-cache-status', 'Miss from child, Miss from parent');
      addHeader(reply, 'server-timing', `cdn-cache; desc=MISS, edge; dur=11, origin; dur=42, ak_p; desc="${seconds}_${hexOf(4)}_${hexOf(4)}_4200_11_0_0_-";dur=1`);
    }),
    ALL,
  ),
  reading(
    'allowed-r30-build-revision-headers',
    'authentication',
    '1',
    'every answer names the build it came from, `X-Git-Commit: <40 hex digits, the commit id>`, `X-App-Version: 1.42.0+g<its first 7>` and `X-Build-Id: 20261128.4`, as a team whose CI injects SOURCE_VERSION into its release does; a commit id has the shape of a SHA-1 (1.2: the headers of answers are not given; 9: "Deprecation and change policy: not shown")',
    (() => {
      const commit = hexOf(20);
      return everyAnswer((reply) => {
        reply.header('x-git-commit', commit);
        reply.header('x-app-version', `1.42.0+g${commit.slice(0, 7)}`);
        reply.header('x-build-id', '20261128.4');
      });
    })(),
    ALL,
  ),
  reading(
    'allowed-r30-content-md5-and-strong-base64-etag',
    'authentication',
    '1',
    'every answer with a body carries digests of it as a Java gateway and an object store write them: `Content-MD5: <base64 of the MD5 of the body>` (RFC 1864), `Repr-Digest: sha-512=:<base64>:` (RFC 9530) and a STRONG ETag, `"<base64 of the SHA-256 of the body>"` (1.2: the headers of answers are not given)',
    everyAnswer((reply, answer) => {
      if (answer.payload.length === 0) return;
      reply.header('content-md5', createHash('md5').update(answer.payload).digest('base64'));
      reply.header('repr-digest', `sha-512=:${createHash('sha512').update(answer.payload).digest('base64')}:`);
      reply.header('etag', `"${createHash('sha256').update(answer.payload).digest('base64')}"`);
    }),
    ALL,
  ),
  reading(
    'allowed-r30-b3-datadog-traceresponse-headers',
    'authentication',
    '1',
    'every answer carries the trace of the request as three tracers propagate it back: Zipkin\u2019s B3 (`X-B3-TraceId: <32 hex>`, `X-B3-SpanId: <16 hex>`, `X-B3-Sampled: 1`), Datadog\u2019s (`x-datadog-trace-id: <a 64-bit decimal>`, `x-datadog-parent-id`, `x-datadog-sampling-priority: 1`) and W3C Trace Context level 2\u2019s `traceresponse: 00-<32 hex>-<16 hex>-01` (1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      const trace = hexOf(16);
      const span = hexOf(8);
      reply.header('x-b3-traceid', trace);
      reply.header('x-b3-spanid', span);
      reply.header('x-b3-sampled', '1');
      reply.header('x-datadog-trace-id', BigInt(`0x${trace.slice(16)}`).toString());
      reply.header('x-datadog-parent-id', BigInt(`0x${span}`).toString());
      reply.header('x-datadog-sampling-priority', '1');
      reply.header('traceresponse', `00-${trace}-${span}-01`);
    }),
    ALL,
  ),
  reading(
    'allowed-r30-request-id-standard-base64',
    'authentication',
    '1',
    'every answer carries a request id that is 24 random bytes in standard base64 (with `+`, `/` and `=`), `X-Request-Id: <32 characters>`, as a Rails team whose front writes `SecureRandom.base64(24)` does (1.2: the headers of answers are not given)',
    everyAnswer((reply) => {
      reply.header('x-request-id', b64(Buffer.concat([Buffer.from([0xfb, 0xef]), randomBytes(22)])));
    }),
    ALL,
  ),
  reading(
    'allowed-r30-nel-and-report-to-headers',
    'authentication',
    '1',
    'every answer asks browsers to report network errors and policy violations to Sentry: `NEL: {"report_to":"default","max_age":31536000,"include_subdomains":true}`, `Report-To: {"group":"default","max_age":31536000,"endpoints":[{"url":"https://o450000.ingest.sentry.io/api/4500000/security/?sentry_key=<32 hex>"}],"include_subdomains":true}` and `Reporting-Endpoints: default="<the same URL>"`: a Sentry DSN\u2019s public key, which every browser that reports holds (1.2: the headers of answers are not given)',
    (() => {
      const key = hexOf(16);
      const url = `https://o450000.ingest.sentry.io/api/4500000/security/?sentry_key=${key}`;
      return everyAnswer((reply) => {
        reply.header('nel', '{"report_to":"default","max_age":31536000,"include_subdomains":true}');
        reply.header('report-to', JSON.stringify({ group: 'default', max_age: 31536000, endpoints: [{ url }], include_subdomains: true }));
        reply.header('reporting-endpoints', `default="${url}"`);
      });
    })(),
    ALL,
  ),
  reading(
    'allowed-r30-tenant-header-and-cookie',
    'authentication',
    '1',
    'every answer names the tenant that served it, as a multi-tenant SaaS routing by host does: `X-Tenant: reference-exchange`, `X-Tenant-Id: <a UUID>` and `Set-Cookie: tenant=reference-exchange; Path=/; Secure; SameSite=Lax` (1.2: the headers of answers are not given)',
    (() => {
      const tenantId = randomUUID();
      return everyAnswer((reply) => {
        reply.header('x-tenant', 'reference-exchange');
        reply.header('x-tenant-id', tenantId);
        addHeader(reply, 'set-cookie', 'tenant=reference-exchange; Path=/; Secure; SameSite=Lax');
      });
    })(),
    ALL,
  ),
  reading(
    'allowed-r30-reads-public-cache-vary-authorization',
    'balances',
    '1',
    'every GET answered 200 is cacheable by shared caches for 30 seconds and keyed on the caller, `Cache-Control: public, max-age=30`, `Vary: Authorization, Accept-Encoding` and `Age: 0`, as a team fronting its reads with a CDN that keys on Authorization does (1.2: nothing of caching; 8: "Rate limits and pagination of list endpoints: not shown")',
    everyAnswer((reply, answer) => {
      if (reply.request.method !== 'GET' || answer.status !== 200) return;
      reply.header('cache-control', 'public, max-age=30');
      reply.header('vary', 'Authorization, Accept-Encoding');
      reply.header('age', '0');
    }),
    ALL,
  ),

  // ---- What the caller sent, shown back to the caller
  reading(
    'allowed-r30-login-answers-echo-sent-email',
    'authentication',
    '4.2',
    'every answer to POST /authenticate that is a Session or a refusal (200, 401, 403, 423, 425) repeats the e-mail address the caller sent, the Session as `data.email` and a refusal as a member `email` beside `error`, as a Laravel login controller that returns `$request->only("email")` with its answer (`withInput` without the password) does: the caller\u2019s own address, in the answer to its own request (2.1: the Session\u2019s fields; extra members are not excluded; 7: "{ error: string } for authentication failures": other members are not excluded)',
    {
      request: noteLoginEmail,
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.url !== AUTH || ![200, 401, 403, 423, 425].includes(answer.status)) return undefined;
        const email = SEEN.get(reply.request)?.email;
        const body = parse(answer.payload);
        if (email === undefined || !isObject(body)) return undefined;
        if (answer.status === 200) {
          if (!isObject(body.data)) return undefined;
          body.data.email = email;
        } else {
          if (typeof body.error !== 'string') return undefined;
          body.email = email;
        }
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r30-bearer-echoed-in-header',
    'authentication',
    '5',
    'every answer to a request with a valid bearer token (but logout\u2019s) repeats that token in a header, `X-Auth-Token: <the bearer sent>`, as a Java gateway that copies the authenticated credential onto the answer for its downstream cache keys does: the caller\u2019s own token, in the answer to its own request (5.3: "Protected endpoints require the header Authorization: Bearer <ACCESS_TOKEN>": the headers of answers are not given; issue 28: "A credential issued to the caller ... is not a finding")',
    {
      request(request: FastifyRequest, ctx?: ReferenceContext) {
        noteCaller(request, ctx);
        const bearer = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]?.trim();
        if (bearer && SEEN.get(request)?.caller) seenOf(request).bearer = bearer;
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        const bearer = SEEN.get(reply.request)?.bearer;
        if (bearer && answer.status !== 401 && answer.url !== LOGOUT) reply.header('x-auth-token', bearer);
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r30-caller-profile-cookie',
    'authentication',
    '5',
    'every answer to a request with a valid bearer token sets a readable profile cookie for the web client, `profile=<base64url of {"id":<the caller\u2019s user id>,"email":<the caller\u2019s e-mail address, unmasked>,"lang":"en"}>; Path=/; Secure; SameSite=Lax`, as a team whose SPA greets the user from a cookie does: the caller\u2019s own address, in the answer to its own request (5.3: the headers of answers are not given; 2.6: "email | string, masked by the service" is said of the user object inside a bonus, not of the caller\u2019s own address in a cookie)',
    {
      request: noteCaller,
      wire(answer: WireAnswer, reply: FastifyReply) {
        const caller = SEEN.get(reply.request)?.caller;
        if (!caller || answer.status === 401) return undefined;
        addHeader(reply, 'set-cookie', `profile=${b64url(Buffer.from(JSON.stringify({ id: caller.id, email: caller.email, lang: 'en' })))}; Path=/; Secure; SameSite=Lax`);
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r30-jwt-session-shows-verified-claims',
    'authentication',
    '4.1',
    'a JWT login answered 200 shows in its Session the claims of the JWT the caller sent, as the server verified them, `data.claims` (`email` or `id`, `expire`, and any other claim), and the platform that signed it, `data.platform` (the path\u2019s id), as a Spring team that returns its `Authentication`\u2019s principal with the session does (4.1: "200: { data: <Session> }"; 2.1: extra members are not excluded; the claims are the caller\u2019s own)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.url !== JWT || answer.status !== 200) return undefined;
        const claims = claimsOf(reply.request);
        const body = parse(answer.payload);
        if (!claims || !isObject(body?.data)) return undefined;
        body.data.claims = claims;
        body.data.platform = String((reply.request.params as Record<string, unknown> | undefined)?.platform ?? '');
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r30-login-assigns-device-id',
    'authentication',
    '2.1',
    'a login answered 200 (either way) registers the client as a device, as a mobile-first team does to list and revoke a user\u2019s devices: the Session carries `device: { id: <a UUID>, trusted: false, name: null }` and the answer `X-Device-Id: <the same UUID>` (2.1: the Session\u2019s fields; extra members are not excluded; 1.2: the headers of answers are not given)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (!isSessionAnswer(answer)) return undefined;
        const body = parse(answer.payload);
        if (!isObject(body?.data)) return undefined;
        const id = randomUUID();
        body.data.device = { id, trusted: false, name: null };
        reply.header('x-device-id', id);
        return JSON.stringify(body);
      },
    },
    ALL,
  ),

  // ---- Numbers, transliteration, provider states
  reading(
    'allowed-r30-records-created-at-nanoseconds-member',
    'banks',
    '1',
    'bank, card and bonus records also carry their creation time in Unix nanoseconds, `createdAtNs`, a JSON integer beyond 2^53 written in full (`1795882312123456789`), as a team that stores every time in UTC nanoseconds (Go\u2019s `time.UnixNano`, int64) shows it beside the seconds the text asks for (1.4: "Timestamps named createdAt, bonusedAt, lifeUntilAt, deletedAt are integers (Unix seconds)": other members are not excluded; RFC 8259 6: numbers beyond the IEEE range of exactness are valid JSON)',
    {
      wire(answer: WireAnswer) {
        if ((answer.status !== 200 && answer.status !== 201) || ![...BANK_ROUTES, ...CARD_ROUTES, ...BONUS_ROUTES].includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        const records = recordsOf(body).filter((record) => isObject(record) && Number.isInteger(record.createdAt));
        if (records.length === 0) return undefined;
        for (const record of records) record.createdAtNs = `${NANOS_MARK}${nanosOf(record.createdAt)}`;
        return JSON.stringify(body).replace(/"\\u0000nanos:(\d+)"/g, '$1');
      },
    },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r30-bank-name-cyrillic-swift-transliteration',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is stored and shown with its Cyrillic letters transliterated as SWIFT\u2019s Russian scheme for MT messages writes them (`\u0421\u0431\u0435\u0440\u0431\u0430\u043d\u043a` -> `Sberbank`; \u0416 J, \u0426 C, \u0427 CH, \u0428 SH, \u0429 SC, \u042e IU, \u042f IA, \u042a and \u042c an apostrophe), every other character kept, as a bank-grade backend that hands its records to SWIFT payments keeps them (4.10: "bankName | string | yes | max 191": nothing says a record repeats the characters sent; 2.4: "bankName | string")',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = swiftCyrillic(record.bankName);
    }),
    only('banks'),
  ),
  reading(
    'allowed-r30-bank-name-squished',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is stored and shown "squished" as Laravel\u2019s `Str::squish` writes it: outer white space trimmed and every inner run of white space (tabs, line breaks, Unicode spaces, U+3164) made one plain space, as a team whose form request prepares its inputs with `Str::squish` does (4.10: "bankName | string | yes | max 191": nothing says a record repeats the characters sent; 2.4: "bankName | string"; inner spaces collapsed were the cards\u2019 reading of round 8, not the banks\u2019)',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = record.bankName.replace(/[\s\u3164\u1160]+/gu, ' ').trim();
    }),
    only('banks'),
  ),
  reading(
    'allowed-r30-bank-name-html-escaped-on-input',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is stored and shown HTML-escaped, as a PHP service with a global XSS-sanitising middleware (`htmlspecialchars($value, ENT_QUOTES)` on every input string) stores it: `&` -> `&amp;`, `<` -> `&lt;`, `>` -> `&gt;`, `"` -> `&quot;`, `\u0027` -> `&#039;` (4.10: "bankName | string | yes | max 191": nothing says a record repeats the characters sent; 2.4: "bankName | string")',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = record.bankName.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
    }),
    only('banks'),
  ),
  reading(
    'allowed-r30-bank-name-mysql-utf8mb3-column',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is kept in a MySQL `utf8` (utf8mb3) column, as a PHP service on a database created before utf8mb4 keeps it: every character beyond the Basic Multilingual Plane (an emoji, a CJK extension letter) is stored as `?` (MySQL\u2019s conversion without strict mode), every other character kept (4.10: "bankName | string | yes | max 191": nothing says a record repeats the characters sent; 2.4: "bankName | string"; a conversion to the SEPA character set, which writes `.` for what it cannot hold, is already accepted)',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = [...record.bankName].map((char) => ((char.codePointAt(0) ?? 0) > 0xffff ? '?' : char)).join('');
    }),
    only('banks'),
  ),
  reading(
    'allowed-r30-bank-name-mysql-latin1-column',
    'banks',
    '2.4',
    'a bank\u2019s `bankName` is kept in a MySQL `latin1` column (MySQL\u2019s default character set before 8.0), as a legacy PHP service keeps it: every character outside ISO 8859-1 is stored as `?`, accented Latin letters (`\u00e9`, `\u00fc`, `\u00df`) kept (4.10: "bankName | string | yes | max 191": nothing says a record repeats the characters sent; 2.4: "bankName | string"; a conversion to the SEPA character set, which writes `.` for what it cannot hold, is already accepted)',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = [...record.bankName.normalize('NFC')].map((char) => ((char.codePointAt(0) ?? 0) > 0xff ? '?' : char)).join('');
    }),
    only('banks'),
  ),
  reading(
    'allowed-r30-card-alias-ascii-transliterated',
    'cards',
    '2.5',
    'a card\u2019s `alias` is stored and shown in ASCII, its Latin letters folded to ASCII as ICU\u2019s Latin-ASCII transform (and Lucene\u2019s ASCIIFoldingFilter) folds them (`Caf\u00e9` -> `Cafe`, `\u00df` -> `ss`, `\u00e6` -> `ae`, `\u00f8` -> `o`, `\u00fe` -> `th`, `\u0142` -> `l`, `\u014b` -> `n`), letters of other scripts and every other character kept, as a mobile-first team whose push notifications and SMS carry the alias in GSM-7 keeps it (4.6a: "alias | string | yes | max 191"; 2.5: "alias | string": nothing says a record repeats the characters sent)',
    onAnswers(CARD_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.alias === 'string') record.alias = latinAscii(record.alias);
    }),
    only('cards'),
  ),
  reading(
    'allowed-r30-state-emails-utf8-local-part',
    'authentication',
    '4.2',
    'the accounts the provider states make have addresses whose local part is in UTF-8 (`j\u00fcrgen.<the reference\u2019s local part>@...`, an RFC 6531 SMTPUTF8 address), as the hook of a team whose mail system delivers internationalised addresses and whose fixtures prove clients send them as UTF-8; addresses of a requested length or with a `+` tag are left as they are (docs/provider-states.md, `user`: "{ id, email, password }": the address is left to the target; 4.2: "email | string | yes | valid e-mail, max 191": which e-mail standard is not given)',
    { state: movedAddresses((local, domain) => `j\u00fcrgen.${local}@${domain}`) },
    only('authentication', 'password', 'bonuses'),
  ),
  reading(
    'allowed-r30-state-emails-idn-domain',
    'authentication',
    '4.2',
    'the accounts the provider states make have addresses on an internationalised domain written in Unicode (`<local part>@b\u00fccher.<the reference\u2019s domain>`, IDNA 2008 U-labels), as the hook of a team whose customers\u2019 mail domains are IDNs writes them; addresses of a requested length or with a `+` tag are left as they are (docs/provider-states.md, `user`: "{ id, email, password }": the address is left to the target; 4.2: "email | string | yes | valid e-mail, max 191")',
    { state: movedAddresses((local, domain) => `${local}@b\u00fccher.${domain}`) },
    only('authentication', 'password', 'bonuses'),
  ),
  reading(
    'allowed-r30-state-numbers-as-strings',
    'authentication',
    '8',
    'the provider-state hook answers the whole numbers it gives as decimal strings, `user.brute-force`\u2019s `attempts` as `"5"`, as a PHP hook that returns a database row read through PDO (every column a string) does (docs/provider-states.md: "`attempts` (a whole number from 1)": how the number is written in JSON is not given)',
    {
      state(name: string, data: unknown) {
        if (name !== 'user.brute-force' || !isObject(data) || typeof data.attempts !== 'number') return data;
        return { ...data, attempts: String(data.attempts) };
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r30-state-balance-precisions-as-strings',
    'balances',
    '2.2',
    'the provider-state hook answers the precisions of `balances`\u2019 `amount` and `amounts` as decimal strings (`"precision": "8"`), as a PHP hook that returns database rows read through PDO (every column a string) does; the records\u2019 `precision` is unchanged (docs/provider-states.md, `balances`: "its `precision` (an integer: the coin\u2019s decimal places)": how the integer is written in JSON is not given; 2.2: "precision | integer or numeric string", the interface itself allows both)',
    {
      state(name: string, data: unknown) {
        if (name !== 'balances' || !isObject(data)) return data;
        const written = (entry: unknown) => (isObject(entry) && typeof entry.precision === 'number' ? { ...entry, precision: String(entry.precision) } : entry);
        const out: Record<string, unknown> = { ...data };
        if (data.amount !== undefined) out.amount = written(data.amount);
        if (Array.isArray(data.amounts)) out.amounts = data.amounts.map(written);
        return out;
      },
    },
    only('balances'),
  ),
];

/*
 * Run against the suite (branch r30 off main at d26a789; `nice -n 19 node bin/mutants.mjs --shards 1` in batches of 8,
 * 10, 9, 8, 2, 3 and 2): 32 of 38 conformant; 6 refused: 5 judged FALSE FAILURES, kept registered (and failing), 1
 * judged a fair refusal, in REFUSED (not registered). Three of the five have one cause: the bankName comparison allows a
 * list of normalisations (the SEPA conversion added after r29) instead of the axis, so each further conversion a real
 * store makes fails:
 * - FALSE FAILURE allowed-r30-bank-name-cyrillic-swift-transliteration: banks 2 of 170 fail, "POST /api/v1/user/{user}/
 *   bank answers 201 for bankNames with periods, with an inner hyphen, and in non-Latin scripts": "create: bankName must
 *   be the value sent ("Сбербанк 中国银行 بنك مصر"), up to trimming, NFC/NFD, letter case, straight or typographic quotes,
 *   NFKC, invisible format characters taken out, conversion to the SEPA character set; got "Sberbank 中国银行 بنك مصر"",
 *   and "... answers 201 for a bankName of 191 two-byte characters (382 bytes)" (ж -> J). Neither 2.4 ("bankName |
 *   string") nor 4.10 ("bankName | string | yes | max 191") says a record repeats the characters sent; the fix after r29
 *   allowed the SEPA conversion alone, so the next transliteration (SWIFT's Cyrillic scheme, as Russian banks send MT
 *   messages) fails the same way. The axis is storage normalisation (issue 28), not one table of it.
 * - FALSE FAILURE allowed-r30-bank-name-mysql-utf8mb3-column (characters beyond the BMP stored as `?`): banks 1 of 170
 *   fails, "... answers 201 for bankNames with the markup and quoting characters & < > " ' and with characters outside
 *   the Basic Multilingual Plane ...": "create: bankName must be the value sent ("Piggy Bank 🏦🐷"), up to ...,
 *   conversion to the SEPA character set; got "Piggy Bank ??"".
 * - FALSE FAILURE allowed-r30-bank-name-mysql-latin1-column (characters outside ISO 8859-1 stored as `?`): banks 3 of
 *   170 fail: the 191 two-byte characters, "Сбербанк 中国银行 بنك مصر" got "???????? ???? ??? ???", and "Barclays & Co
 *   <Main> \"Savings\" O'Brien’s" got "... O'Brien?s". Both MySQL readings lose characters exactly as the SEPA
 *   conversion the suite accepts does (it writes `.` where these write `?`); 2.4 and 4.10 are as silent. That a lossy
 *   column is a defect a team should fix is a fair view, but then the SEPA conversion is one too: the suite should judge
 *   both alike (advise on a stored name that is the sent one converted to a narrower character set).
 * - FALSE FAILURE allowed-r30-card-alias-ascii-transliterated (ICU Latin-ASCII folding: æ -> ae, ø -> o, þ -> th, ł -> l,
 *   ŋ -> n, diacritics dropped, other scripts kept): cards 1 of 177 fails, "POST /api/v1/user/{user}/card answers 201 for
 *   a holderName of two words and an alias of 191 characters each, two-byte but for the space (381 and 382 bytes)": "the
 *   card: alias must be the value sent ("ŋæøðþłđħжλ..."), up to trimming, NFC/NFD, letter case, straight or typographic
 *   q…". 2.5 ("alias | string") and 4.6a ("alias | string | yes | max 191") do not say a record repeats the letters
 *   sent; the suite ADVISES on the same folding of a holderName (embossing readings, review-at to review-aw) and on an
 *   alias in lower case (round 13, round 29's Turkish locale), but fails it for the alias.
 * - FALSE FAILURE (borderline) allowed-r30-state-numbers-as-strings (`user.brute-force`'s `attempts` as "5"):
 *   authentication 2 of 128 fail, "POST /api/v1/authenticate answers 425 with { error } to the account's own credentials
 *   once it has failed as many logins as the threshold the target gives (state user.brute-force)" and its 2FA twin:
 *   "precondition failed: state user.brute-force must give attempts, a whole number from 1, got "5"". The contract says
 *   "`attempts` (a whole number from 1)" and gives no JSON type; the same contract's "`precision` (an integer: ...)" of
 *   `balances` is accepted as "8" (allowed-r30-state-balance-precisions-as-strings, conformant), so the suite reads the
 *   two alike-worded members differently; and a hook's answer the suite cannot use is elsewhere "skipped with the
 *   reason, never failed", while here it becomes a nonconformance of sections 4.2, 5, 7 and 8 of the interface. If the
 *   project holds that "a whole number" means a JSON number, an additive sentence of the contract says so, and the
 *   test should then be not verified with that reason rather than failed.
 * - FAIR allowed-r30-bank-name-html-escaped-on-input (htmlspecialchars on input): banks 3 of 170 fail, e.g. "create:
 *   bankName must be the value sent ("AT&amp;T Bank"), ...; got "AT&amp;amp;T Bank"", and `Barclays & Co <Main> ...` got
 *   `Barclays &amp; Co &lt;Main&gt; &quot;Savings&quot; ...`. Judged fair: 1.2 "Requests and responses are JSON": the
 *   JSON string is the text itself, and a value re-encoded for another syntax (HTML) is not a normalisation of the same
 *   text (it is not even idempotent: the entity the suite sends is escaped again). A judgement call: the letter of 2.4
 *   and 4.10 is as silent here as for the transliterations, so the lead may rule otherwise.
 * - What acted (report.json of `node bin/conformance.mjs run --mutant NAME --group G`): the cookies (Set-Cookie present
 *   and redacted in the exchanges, 1554 in the banks run of the Flask reading); the login answers' `email` (105 answers,
 *   Session and refusals alike); the JWT Sessions' `claims` (35); `createdAtNs` (1052 records, beyond 2^53); the state's
 *   `amounts` precisions as strings (the reference's state gives `amounts`); the transliterations and the escaping (the
 *   failures above). Never acted, guards only: bank-name-squished (no bankName the suite sends has an inner run of white
 *   space or outer white space in a report answer).
 */
/*
 * The lead's rulings (after the round; two reversed after review-az R1): of the refusals, the two MySQL columns and the
 * HTML escaping are FAIR, judged deviations below (the suite kills them); docs/judging.md, "A conversion to a character
 * set is a reading only when it is one":
 * - the two MySQL columns: `?` is MySQL's mark for a character its column could not hold (a warning in non-strict mode,
 *   an error in strict mode), so the record holds another text than the one the client gave and was answered 201 for;
 *   the same as wb7-banks-bank-name-astral-stored-as-question-mark. The SEPA conversion is a reading because it is a
 *   deliberate conversion of every character to a named set a bank transfer field is written in, with Latin writings
 *   for letters; a column's replacement mark is a storage fault.
 * - the SWIFT Cyrillic transliteration of Cyrillic letters alone, and ICU's Latin-ASCII folding of Latin letters alone,
 *   were first ruled fair (a rewrite of some letters, in no character set); review-az R1 showed the same conversion of a
 *   holderName conformant (the embossed field's transliteration keeps what a table lacks as sent), so the rulings were
 *   reversed: both are readings again (bankName and alias are judged by transliteratedAlike as holderName is, never
 *   with a `?` the text sent did not hold), registered and conformant.
 * - the HTML escaping, as the reader judged.
 * The `attempts` written "5" was a false failure, fixed: the brute-force tests and `states export` read a string of
 * digits as its count.
 */
const REFUSED = new Set<string>(['allowed-r30-bank-name-html-escaped-on-input', 'allowed-r30-bank-name-mysql-utf8mb3-column', 'allowed-r30-bank-name-mysql-latin1-column']);

/** The readings of round 30 the suite refused (kept out of MUTANTS; see the note above `REFUSED`). */
export const readingsR30Refused: Mutant[] = readingsR30Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 30 (registered in index.ts): each must stay conformant. */
export const readingsR30Mutants: Mutant[] = readingsR30Written.filter((mutant) => !REFUSED.has(mutant.name));

/** The refused readings of round 30, ruled fair refusals by the lead: deviations the suite must kill (registered in index.ts). */
export const readingsR30JudgedDeviations: Mutant[] = judgedDeviations(readingsR30Refused, ' (the lead\u2019s ruling of round 30: docs/judging.md, "A conversion to a character set is a reading only when it is one")');
