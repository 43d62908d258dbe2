import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.js';
import { DEFAULT_PLATFORM } from '../modules/authentication.js';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { isSessionAnswer, onAnswers, onParsedBody, only, parse, perServer, reading, recordsOf, routeOf, setCookie, onForgotToken } from './reading.js';
import { BANK_ROUTES, FORGOT, RESET } from './routes.js';

const isObject = (value: unknown): value is Record<string, any> => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * review-ay (issues 27 and 28): a code and fairness review of review-aw's and review-ax's fixes and reading round r29's:
 * daf1dc8 and 7e580fb (helpers/check/security.ts: the header scan's RFC 6265 cookies, base64/base64url and zlib decoding,
 * the `|`/`:` parts, the new hash formats), 04b47a2 (helpers/check/check.ts sentCredentials, learnAccountPassword,
 * sepaConvertedAlike, the never-sent reset token changed at its start, middle and end), aaaf419 and 3ee2e97 (r29's
 * fixes), b2a0f2c (review-aw F7). Each allowed-* probe takes a choice the text leaves open (a pin where it stays
 * conformant); each deviation (no `allowed-`) is a leak or fault the suite should catch, proving a loss of detection
 * when it survives. Verdicts (bin/mutants.mjs --shards 1 --mutant NAME, deviations with --no-hints; bin/conformance.mjs
 * run --mutant NAME --group G), 2026-11-28:
 * - F1 allowed-review-ay-anti-phishing-platform-name-header: REFUSED, 66 of 72 bonuses tests, 183 findings ("POST
 *   /api/v1/authenticate answered 200 whose header x-platform-name carries the anti-phishing code of another user than
 *   the one it answers"). aaaf419's `whole` verdict (a long code that is the whole value of a specified member) exists in
 *   scanCredentials only; scanHeaders calls verdict() without a member, so r29's reading (code = the platform's name) is
 *   a finding wherever a header names the platform.
 * - F2 allowed-review-ay-reset-token-scanner-prefix: REFUSED, 1 test (password: "answers 422 keyed by token for a token
 *   that was never sent ...": "expected 422, got 200"): 04b47a2's change at the START (`zzzzet_<secret>`) leaves the
 *   secret after the first `_` whole. Passed before b2a0f2c/04b47a2 (a short token was changed at its end only).
 * - F5 allowed-review-ay-bank-name-sepa-dk-charset: REFUSED, 3 tests (banks value rows: backslash "got \"AB Bank & Co
 *   Main\"", markup "got \"Barclays & Co Main Savings O'Briens\"", HTML entity "got \"AT&ampT Bank\""): the DK set keeps
 *   `&`, the very character 04b47a2 added to the backslash value to tell a converter from stripslashes.
 * - P1 allowed-review-ay-base64-framework-headers: conformant (a pin: base64 ETag of JSON, Content-Digest, a base64 CSRF
 *   cookie, a compressed Flask session holding the caller's own bearer, a login JWT cookie naming its own Session).
 * - F3 review-ay-forgot-django-session-cookie-carries-reset-token and F3b ...-compressed-...: SURVIVED (no test failed):
 *   base64DecodedTexts decodes a piece or a `.`-segment only when it is base64 whole; Django's signing joins payload,
 *   timestamp and signature with `:`, so the payload is never decoded.
 * - F4 review-ay-login-express-json-cookie-carries-bcrypt-hash: SURVIVED (no test failed): JSON in a header is parsed
 *   only when it came out of base64; Express's `j:` JSON cookie (percent-encoded) is never parsed, and headerPieces cuts
 *   the hash at `/` or leaves it inside `"..."`.
 * - Control of item 2: review-ay-401-cookie-renewed-with-another-users-token KILLED (--no-hints) by the banks `elsewhere`
 *   rows: sentCredentials does not excuse another user's token; no suite row sends another user's token, so the
 *   allowance "a token inside what the request sent" loses nothing today.
 * - Safety (daf1dc8, a throwaway mutant not kept): a Set-Cookie of 14 KiB of base64url zlib segments, each inflating to
 *   64 KiB (under undici's 16 KiB header bound), on every answer: `conformance run --group banks` 4.2 s -> 443 s wall,
 *   max RSS 239 MiB -> 941 MiB, 12 tests failed on vitest's 60 s timeout; one scanHeaders call 151 ms (2 ms for a plain
 *   header of the same size), 26 MB of decoded text, each segment inflated 3 times (once per piece that holds it).
 * After fix-ay (helpers/check/security.ts, helpers/net/secrets.ts, helpers/check/check.ts; same commands), 2026-11-28:
 * - S1: the header scan decodes at most 256 KiB (and 256 base64 candidates, 64 KiB from one) per answer, each distinct
 *   candidate once, kept for the rescan, and advises when it stopped. The 16 KiB 135-segment cookie: one scanHeaders call
 *   110-150 ms -> 2.7-3 ms (its rescan 1.4 ms, decoding nothing), 26 MB -> 256 KiB decoded (4 candidates); a throwaway
 *   banks mutant with a 13.8 KiB 112-segment bomb cookie on every answer: `conformance run --group banks` 28.7 s wall, max
 *   RSS 448 MiB, 170 passed, 0 failed (the plain run 9.7 s, 260 MiB, both beside a mutation batch on 2 shared cores).
 * - F1 allowed-review-ay-anti-phishing-platform-name-header: conformant. "Seen as a specified member's whole value" alone
 *   left 4, then 3 other bonus-assets tests failing (users without bonuses and 401s, whose tests never see a platform's
 *   name, judged before the tests that do): a long code as a whole header value or piece is now no finding once seen so,
 *   and advised on at the test's end before; inside a longer text, or under a JSON member of its own in a cookie, a finding.
 * - P1 allowed-review-ay-base64-framework-headers: conformant.
 * - F3, F3b review-ay-forgot-django-(compressed-)session-cookie-carries-reset-token: KILLED (--no-hints; `:`-segments
 *   decoded). F4 review-ay-login-express-json-cookie-carries-bcrypt-hash: KILLED (--no-hints; `j:` JSON parsed).
 *   Control review-ay-401-cookie-renewed-with-another-users-token: KILLED (--no-hints).
 * - F2 and F5 (allowed-review-ay-reset-token-scanner-prefix, allowed-review-ay-bank-name-sepa-dk-charset): the lead's, not
 *   re-judged here.
 * - The wb27, review-aw and review-ax mutants (48, in batches of 10, --shards 1, with hints): the 39 deviations killed
 *   (review-aw-bonus-user-carries-aspnet-identity-hash, V3, too), the 9 allowed readings conformant.
 */

/** The bearer token a request sent, if any. */
const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** `length` characters of crypt's alphabet, stable for a seed: a stand-in for a stored bcrypt hash's salt and digest. */
const itoa = (seed: string, length: number): string => Array.from(createHash('sha512').update(seed).digest(), (b) => ITOA64[b % 64]).join('').repeat(2).slice(0, length);

/** Django's base62 (django.utils.baseconv / signing.b62_encode), for a TimestampSigner's timestamp. */
function base62(n: number): string {
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = '';
  do {
    out = digits[n % 62] + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out;
}

/**
 * django.core.signing.dumps(data, compress=...) as SESSION_ENGINE `django.contrib.sessions.backends.signed_cookies`
 * writes a session: compact JSON, base64url without padding (behind a `.` when zlib made it shorter), then a
 * TimestampSigner's `:<base62 timestamp>:<base64url signature>`. Signed, not encrypted: the client reads it.
 */
function djangoSignedCookie(data: Record<string, unknown>, compress: boolean): string {
  const json = Buffer.from(JSON.stringify(data));
  const zipped = deflateSync(json);
  const payload = compress && zipped.length < json.length - 1 ? `.${zipped.toString('base64url')}` : json.toString('base64url');
  const stamp = base62(Math.floor(Date.now() / 1000));
  return `${payload}:${stamp}:${createHash('sha256').update(`${payload}:${stamp}`).digest('base64url').slice(0, 43)}`;
}

/**
 * A forgot-password answer that sets Django's signed_cookies session holding the e-mailed reset token (a two-step reset
 * view keeping `reset_token` in the session between its steps). The token is kept off a multiple of 3 bytes in the JSON,
 * as review-aw's Flask twin does, so that no learnt base64 form of the token stands in the cookie by alignment.
 */
function forgotDjangoSessionCarriesToken(compress: boolean): Mutation {
  return onForgotToken((_answer, reply, token, email) => {
    for (const step of ['1', '12', '123']) {
      const session = { reset_step: step, reset_email: email, reset_token: token, padding: compress ? 'x'.repeat(120) : '' };
      const prefix = JSON.stringify(session).indexOf(token);
      if (!compress && prefix % 3 === 0) continue;
      setCookie(reply, `sessionid=${djangoSignedCookie(session, compress)}; HttpOnly; Path=/; SameSite=Lax`);
      return undefined;
    }
    return undefined;
  });
}

/**
 * The German Banking Industry Committee's (DK) SEPA character set (DFÜ-Abkommen, Anlage 3: the EPC basic Latin set and
 * Ä Ö Ü ä ö ü ß & * $ %), as a German core-banking store that feeds its SEPA files keeps names: the set's characters
 * kept, other letters without their marks (é as e), everything else left out, runs of spaces made one.
 */
const DK_CHARACTER = /^[A-Za-z0-9/?:().,'+ \-\u00c4\u00d6\u00dc\u00e4\u00f6\u00fc\u00df&*$%]$/u;
const dkSepa = (text: string): string =>
  [...text]
    .map((c) => (DK_CHARACTER.test(c) ? c : [...c.normalize('NFD').replace(/\p{M}+/gu, '')].filter((x) => DK_CHARACTER.test(x)).join('')))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();

const written: Mutant[] = [
  // F1 (item 3, aaaf419's `whole` verdict): a long anti-phishing code equal to a platform's name is no finding as the whole
  // value of `externalPlatform.name` in a body; the same name in a response header (a white-label deployment naming its
  // platform) is scanned without a member, so it is "the anti-phishing code of another user" in every answer to a user
  // whose code it is not.
  reading(
    'allowed-review-ay-anti-phishing-platform-name-header',
    'bonuses',
    '2.6',
    'the provider-state hook gives each account it makes with bonuses the name of its platform (`Reference Exchange`) as its anti-phishing code (reading round r29, allowed-r29-state-anti-phishing-platform-name), and the deployment, a white-label exchange, names the platform it serves in a header of every answer, `X-Platform-Name: Reference Exchange` (1.2: which headers an answer carries is not given; docs/provider-states.md, `bonuses`: "antiPhishing ... that user\u2019s anti-phishing code in clear"; the platform\u2019s name is not the code shown)',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (name !== 'bonuses' || !isObject(data) || typeof data.antiPhishing !== 'string' || !Array.isArray(data.ids) || typeof data.ids[0] !== 'string') return data;
        const row = ctx.db.prepare('SELECT b.user_id AS userId, p.name AS platform FROM bonuses b JOIN bonus_orders o ON o.id = b.order_id JOIN platforms p ON p.id = o.platform_id WHERE b.id = ?').get(data.ids[0]) as { userId: string; platform: string } | undefined;
        if (!row) return data;
        ctx.db.prepare('UPDATE users SET anti_phishing = ? WHERE id = ?').run(row.platform, row.userId);
        return { ...data, antiPhishing: row.platform };
      },
      wire(_answer: WireAnswer, reply: FastifyReply) {
        reply.header('x-platform-name', DEFAULT_PLATFORM.name);
        return undefined;
      },
    },
    only('bonuses'),
  ),
  // F2 (item 4, b2a0f2c and 04b47a2's never-sent token changed at its START): a reset token carrying a prefix for secret
  // scanners (`pwreset_`, as GitHub's `ghp_` or Stripe's `sk_live_`), which the reset reads past the first `_`: the
  // secret after it is compared whole, so a token whose prefix differs but whose secret is the e-mailed one is accepted.
  reading(
    'allowed-review-ay-reset-token-scanner-prefix',
    'password',
    '4.4',
    'the reset token the e-mail carries is `pwreset_<secret>`, a prefix that secret scanners and support staff recognise (as GitHub\u2019s `ghp_` and Stripe\u2019s `sk_live_` prefixes), and reset-password compares the secret after the first `_` (whole, case-sensitively), the prefix being no part of the secret (4.4: "token | string | yes | max 255; the token received by e-mail"; "422 when the token is invalid": what makes a token invalid is not given; docs/provider-states.md `password-reset.token`: the token as e-mailed)',
    {
      request(request: FastifyRequest) {
        if (request.method !== 'POST' || routeOf(request) !== RESET) return;
        onParsedBody(request, (body) => {
          if (typeof body.token !== 'string') return;
          const at = body.token.indexOf('_');
          if (at >= 0) body.token = body.token.slice(at + 1);
        });
      },
      state(name: string, data: unknown) {
        if (name !== 'password-reset.token' || !isObject(data) || typeof data.token !== 'string') return data;
        return { ...data, token: `pwreset_${data.token}` };
      },
    },
    only('password'),
  ),
  // P1 (item 1, a pin): what frameworks put in headers in base64 (an ETag of JSON, a Content-Digest, a CSRF cookie, a
  // compressed Flask session holding the caller's own bearer, a login's JWT cookie naming its own Session) is the caller's
  // or no one's: the base64 decoding of daf1dc8 must find nothing in it.
  reading(
    'allowed-review-ay-base64-framework-headers',
    'banks',
    '1',
    'every answer carries what web frameworks put in headers in base64: `ETag: W/"<base64 of {\\"v\\":1,\\"path\\":...}>"`, `Content-Digest: sha-256=:<base64>:` (RFC 9530), a `csrftoken` cookie of 32 random bytes in base64, and, for a request with a bearer token, Flask-Login\u2019s zlib-compressed client-side session `.<base64url>.<timestamp>.<signature>` holding the caller\u2019s own user id and bearer token; a login answer also sets `jwt=<header>.<payload>.<signature>` whose payload names its own Session (`sid`) and user (`sub`) (1.2: which headers an answer carries is not given; issue 28: a credential issued to the caller, and the request\u2019s own token, are no finding)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        const b64u = (text: string) => Buffer.from(text).toString('base64url');
        reply.header('etag', `W/"${Buffer.from(JSON.stringify({ v: 1, path: answer.url, at: Date.now() })).toString('base64')}"`);
        reply.header('content-digest', `sha-256=:${createHash('sha256').update(answer.payload).digest('base64')}:`);
        setCookie(reply, `csrftoken=${randomBytes(32).toString('base64')}; Path=/; SameSite=Lax`);
        const bearer = bearerOf(reply.request);
        if (bearer !== undefined) {
          const session = deflateSync(Buffer.from(JSON.stringify({ _fresh: true, _id: randomBytes(16).toString('hex'), api_token: bearer, csrf_token: randomBytes(20).toString('hex') })));
          const payload = `.${session.toString('base64url')}`;
          setCookie(reply, `session=${payload}.${b64u(String(Math.floor(Date.now() / 1000)))}.${createHash('sha1').update(payload).digest('base64url')}; HttpOnly; Path=/`);
        }
        if (isSessionAnswer(answer)) {
          const data = parse(answer.payload)?.data;
          if (typeof data?.id === 'string' && typeof data?.userId === 'string') {
            const head = b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
            const body = b64u(JSON.stringify({ sub: data.userId, sid: data.id, iat: Math.floor(Date.now() / 1000) }));
            setCookie(reply, `jwt=${head}.${body}.${createHash('sha256').update(`${head}.${body}`).digest('base64url')}; HttpOnly; Path=/`);
          }
        }
        return undefined;
      },
    },
    only('banks', 'authentication'),
  ),
  // F5 (item 3, 3ee2e97 and 04b47a2's sepaConvertedAlike and the banks backslash value carrying `&`): the EPC basic set is
  // not the only SEPA character set; Germany's DK set keeps `&` (and umlauts, `*`, `$`, `%`), so a name converted to it
  // keeps the `&` that review-ax B1's fix relies on to tell a converter from stripslashes.
  reading(
    'allowed-review-ay-bank-name-sepa-dk-charset',
    'banks',
    '2.4',
    'a bank’s `bankName` is stored in the German SEPA character set of the DK (DFÜ-Abkommen Anlage 3: the EPC basic Latin set plus Ä Ö Ü ä ö ü ß & * $ %), as a German core-banking system that feeds its SEPA files stores names: those characters kept, other letters without their marks, every other character left out, spaces collapsed (`A\\B Bank & Co \\ Main\\` -> `AB Bank & Co Main`) (the reading allowed-r29-bank-name-sepa-character-set with the set German banks use; 4.10: "bankName | string | yes | max 191"; 2.4: "bankName | string")',
    onAnswers(BANK_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.bankName === 'string') record.bankName = dkSepa(record.bankName);
    }),
    only('banks'),
  ),
];

/**
 * A cookie middleware that "renews" the access_token cookie of a refused request with the session it last issued to
 * ANOTHER user (a shared cache keyed by the cookie's name, not by its value): the token of another user in an answer
 * to a request that carried the caller's own token in a cookie. sentCredentials (04b47a2) must not excuse it.
 */
function renewsCookieWithAnotherUsersToken(): Mutation {
  const issued = perServer(() => [] as { id: string; userId: string }[]);
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      const sessions = issued(reply.server);
      if (isSessionAnswer(answer)) {
        const data = parse(answer.payload)?.data;
        if (typeof data?.id === 'string' && typeof data?.userId === 'string') sessions.push({ id: data.id, userId: data.userId });
        if (sessions.length > 50) sessions.shift();
        return undefined;
      }
      const cookie = String(reply.request.headers.cookie ?? '');
      const sent = /(?:^|;\s*)access_token=([^;]*)/.exec(cookie)?.[1];
      if (answer.status !== 401 || sent === undefined) return undefined;
      const mine = sessions.find((session) => session.id === decodeURIComponent(sent));
      const other = [...sessions].reverse().find((session) => mine !== undefined && session.userId !== mine.userId);
      if (other === undefined) return undefined;
      setCookie(reply, `access_token=${encodeURIComponent(other.id)}; Path=/; Max-Age=3600; HttpOnly`);
      return undefined;
    },
  };
}

const deviations: Mutant[] = [
  // F3 (item 1, daf1dc8's base64 decoding): only a piece or a `.`-separated segment that is base64 as a whole is decoded.
  // Django's signing (the signed_cookies session engine, signing.dumps) joins payload, timestamp and signature with `:`,
  // so its payload is never decoded: the reset token in it is missed, as review-aw's Flask twin was before daf1dc8.
  {
    name: 'review-ay-forgot-django-session-cookie-carries-reset-token',
    clause: '4.4',
    group: 'password',
    description: 'sections 4.3/4.4 ("the token received by e-mail") and docs/judging.md ("the reset token in any answer of the interface"): a forgot-password answer sets Django\u2019s signed_cookies session (`sessionid=<base64url JSON>:<timestamp>:<signature>`, django.core.signing: signed, not encrypted), the session holding the e-mailed reset token for the view\u2019s next step',
    mutation: forgotDjangoSessionCarriesToken(false),
  },
  // F3b: the same, compressed as signing.dumps(compress=True) writes it (`.` before the zlib payload's base64url).
  {
    name: 'review-ay-forgot-django-compressed-session-cookie-carries-reset-token',
    clause: '4.4',
    group: 'password',
    description: 'sections 4.3/4.4 and docs/judging.md ("the reset token in any answer of the interface"): a forgot-password answer sets Django\u2019s signed_cookies session compressed (`sessionid=.<base64url of zlib JSON>:<timestamp>:<signature>`), the session holding the e-mailed reset token',
    mutation: forgotDjangoSessionCarriesToken(true),
  },
  // F4 (item 1, daf1dc8): JSON inside a header is parsed only when it came out of base64. Express's res.cookie(name, object)
  // writes `j:` and the object's JSON, percent-encoded: the user row serialised whole, its bcrypt hash inside, is one piece
  // whose `"..."` quotes and `,` keep every part from being the hash whole.
  {
    name: 'review-ay-login-express-json-cookie-carries-bcrypt-hash',
    clause: '4.2',
    group: 'authentication',
    description: 'sections 2.1/4.2 and docs/judging.md "Security findings" ("a password hash ... by a named hash format whatever field carries it"; headers searched too): every login answer sets Express\u2019s JSON cookie of the user row, `res.cookie(\'user\', user)` (`user=j%3A%7B%22id%22...%22password%22%3A%22%242b%2410%24...%22%7D`), the row\u2019s bcrypt hash inside',
    mutation: {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (!isSessionAnswer(answer)) return undefined;
        const data = parse(answer.payload)?.data;
        if (typeof data?.userId !== 'string') return undefined;
        const row = { id: data.userId, isActive: true, password: `$2b$10$${itoa(data.userId, 53)}`, createdAt: Math.floor(Date.now() / 1000) };
        setCookie(reply, `user=${encodeURIComponent(`j:${JSON.stringify(row)}`)}; Path=/; HttpOnly`);
        return undefined;
      },
    },
  },
  // Control of item 2 (04b47a2's sentCredentials, a pin): another user's token in a cookie answered to a request that sent
  // the caller's own token in a cookie is still a finding.
  {
    name: 'review-ay-401-cookie-renewed-with-another-users-token',
    clause: '5',
    group: 'banks',
    description: 'sections 5.3/5.6 and docs/judging.md ("a token the run knows to belong to another session or user"): a request refused 401 that carried an `access_token` cookie is answered `Set-Cookie: access_token=<the token last issued to another user>` (a cookie-renewal cache keyed by the cookie’s name): another user’s access token in a header',
    mutation: renewsCookieWithAnotherUsersToken(),
  },
];

export const probesReviewAyMutants: readonly Mutant[] = [...written, ...deviations];
