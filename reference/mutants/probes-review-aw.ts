import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { ReferenceContext } from '../context.js';
import type { Mutant } from './types.js';
import { holderNamesEmbossed, isSessionAnswer, onParsedBody, only, parse, perServer, reading, routeOf, setCookie, onForgotToken } from './reading.js';
import { BONUS, BONUSES, FORGOT, LOGOUT, RESET } from './routes.js';

/**
 * review-aw (issues 27 and 28): a code and fairness review of fix-wb27a (the security scan of every response header:
 * helpers/check/check.ts, helpers/check/security.ts headerPieces/scanHeaders, helpers/net/secrets.ts resetTokenForms),
 * fix-wb27b (helpers/check/security.ts HASH_FORMATS, hashFormatOf and its {scheme} prefixes), the review-av fixes (e98ac03)
 * and perServer (3d875ff). Each allowed-* probe takes a choice the text leaves open (a pin where it stays conformant);
 * each deviation (no `allowed-`) is a leak the scan should find, proving a loss of detection when it survives. Verdicts
 * (bin/mutants.mjs --shards 1 --mutant NAME; deviations with --no-hints), 2026-11-28:
 * - P1 allowed-review-aw-gateway-headers-and-login-cookie: conformant (a pin: X-Request-Id, weak ETag, Content-Location
 *   echoing path and query, Link to public pages, an XSRF-TOKEN cookie, the login's own Session in an HttpOnly cookie).
 * - P2 allowed-review-aw-sliding-token-cookie: conformant (a pin: the request's own bearer renewed in a cookie, cleared on
 *   logout). Its first version also set the cookie on 401s and was refused as P2b is.
 * - P2b allowed-review-aw-401-names-refused-bearer: REFUSED, 15 tests (the access tables of logout and the bank routes,
 *   "answered 401 whose header www-authenticate carries a token the run knows to belong to another session or user"):
 *   the rows `malformed` (<id><secret>), `another-id` (<other id>|<secret>) and `secret-appended` (<id>|<secret>x) send a
 *   bearer holding the real token or its secret part; helpers/check/security.ts tokenAllowed allows a found token only
 *   when a sent value IS it (or is learnt), so the request's own bearer echoed is judged another session's token (the
 *   same in a body).
 * - P3 allowed-review-aw-card-holder-embossed-iso9: suites conformant (a pin; the suites send no щ); conformance explore
 *   --group cards --endpoint 'POST /api/v1/user/{user}/card' --runs 200 --seed 4: the holderName property fails ("stored as
 *   sent"), on Щ written S alone (seeds 1-3, 5-11 pass): LATIN_WRITINGS gives щ shch, sch, sh, shh, sht and not ISO 9's ŝ
 *   with its mark off. (GOST 7.79 System B's ASCII writings, ъ as ``, э as e`, ц as cz, are missing too: unit-checked.)
 * - P4 allowed-review-aw-card-holder-embossed-charset: REFUSED, 2 tests (suites/cards.test.ts: the backslash test,
 *   holderName "Doe, Jo \\ Jr." got "DOE, JO JR."; the apostrophes/markup/= + - @ test, "=Acme Ltd" got "ACME LTD").
 * - Deviations, all SURVIVED (no test failed): review-aw-login-recaller-cookie-carries-bcrypt-hash and
 *   review-aw-login-cookie-carries-argon2-hash (headerPieces never yields the hash whole: a Laravel recaller value
 *   `<id>|<token>|<hash>` is one piece, and an argon2 PHC string is cut at its commas), review-aw-forgot-session-cookie-
 *   carries-reset-token (a base64url JSON session cookie: no learnt form of the token appears in it),
 *   review-aw-bonus-user-carries-django-scrypt-hash, review-aw-bonus-user-carries-spring-argon2-hash ({id} with `@`),
 *   review-aw-bonus-user-carries-aspnet-identity-hash (HASH_FORMATS names none of the three). Controls killed:
 *   wb27-bonus-user-carries-werkzeug-hash (3.3 s, same wire as the bonus deviations), wb27-forgot-reset-token-in-cookie.
 * - review-aw-reset-split-token-verifier-unchecked (review-av F2's fix, suites/password.test.ts "a token that was never
 *   sent"): SURVIVED (--no-hints, no test failed; the valid resets with the 89-character split token pass, so the
 *   mapping is live): a token of 72 bytes or more is now changed at its first four characters only, which a
 *   selector/verifier lookup refuses for its selector, and nothing changes a character the lookup never compares (the
 *   verifier), though bcrypt would see one before byte 72.
 * After the review (the lead and fix-aw), every finding fixed: F1 (tokenAllowed: a token inside what the request sent),
 * F5 and F6 (the embossed form, ISO 9 and GOST System B writings), F7 (the never-sent token changed in its middle, then
 * also at its start: review-ax E1) by the lead; F2, F3, F4 by fix-aw (a Set-Cookie read as RFC 6265 reads it, hashes
 * in the `|`/`:` parts of a piece, base64-decoded pieces scanned; Django scrypt, Spring ids with a version, stripped
 * prefixes repeated, ASP.NET Core Identity V2/V3). All 4 readings conformant, all 7 deviations killed.
 */

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** `length` characters of crypt's alphabet (./0-9A-Za-z), stable for a seed: a stand-in for a stored hash's salt and digest. */
const itoa = (seed: string, length: number): string => Array.from(createHash('sha512').update(seed).digest(), (b) => ITOA64[b % 64]).join('').repeat(2).slice(0, length);
const b64 = (seed: string, bytes: number): string => createHash('sha512').update(seed).digest().subarray(0, bytes).toString('base64').replace(/=+$/, '');

/** The stored hash of a user in formats fix-wb27b should know (each a real format a framework writes by default or by one setting). */
const HASHES = {
  /** PHP password_hash(PASSWORD_BCRYPT), Laravel's default driver. */
  bcrypt: (seed: string) => `$2y$10$${itoa(seed, 53)}`,
  /** PHP password_hash(PASSWORD_ARGON2ID), Laravel's `argon2id` driver: PHC string with m, t, p (commas inside). */
  argon2id: (seed: string) => `$argon2id$v=19$m=65536,t=4,p=1$${b64(`s${seed}`, 16)}$${b64(seed, 32)}`,
  /** Django 4.0+ ScryptPasswordHasher: `scrypt$<n>$<salt>$<r>$<p>$<base64 of 64 bytes>`. */
  djangoScrypt: (seed: string) => `scrypt$16384$${itoa(`s${seed}`, 22).replace(/[./]/g, 'x')}$8$1$${createHash('sha512').update(seed).digest('base64')}`,
  /** Spring Security's DelegatingPasswordEncoder id `argon2@SpringSecurity_v5_8` (PasswordEncoderFactories), before a PHC argon2 string. */
  springArgon2V58: (seed: string) => `{argon2@SpringSecurity_v5_8}$argon2id$v=19$m=16384,t=2,p=1$${b64(`s${seed}`, 16)}$${b64(seed, 32)}`,
  /** ASP.NET Core Identity's PasswordHasher V3 (.NET 7+): base64 of 0x01, PRF 2 (HMAC-SHA512), 100000 rounds, a 16-byte salt, a 32-byte subkey. */
  aspnetIdentityV3: (seed: string) => {
    const head = Buffer.from([0x01, 0, 0, 0, 2, 0, 0x01, 0x86, 0xa0, 0, 0, 0, 16]);
    const digest = createHash('sha512').update(seed).digest();
    return Buffer.concat([head, digest.subarray(0, 16), digest.subarray(16, 48)]).toString('base64');
  },
} as const;

/** Each bonus's user object (list and show) carries `user[field]` set to a hash of the user (a user table serialised whole). */
function bonusUserCarries(field: string, hash: (seed: string) => string): Mutation {
  return {
    wire(answer: WireAnswer) {
      if ((answer.url !== BONUSES && answer.url !== BONUS) || answer.status !== 200) return undefined;
      const body = parse(answer.payload);
      const records = Array.isArray(body?.data) ? body.data : body?.data ? [body.data] : [];
      let changed = false;
      for (const record of records) {
        if (!record?.user || typeof record.user !== 'object') continue;
        record.user[field] = hash(String(record.user.id));
        changed = true;
      }
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

/** Every login answer (both routes) sets a cookie `cookie(userId, token)` beside its Session. */
function loginSetsCookie(cookie: (userId: string, token: string) => string): Mutation {
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (!isSessionAnswer(answer)) return undefined;
      const data = parse(answer.payload)?.data;
      if (typeof data?.id !== 'string') return undefined;
      setCookie(reply, cookie(String(data.userId), data.id));
      return undefined;
    },
  };
}

/** The bearer token a request sent, if any. */
const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];

/**
 * ISO 9:1995 (GOST 7.79 System A), the one-to-one table with diacritics, as an issuer whose embosser has no marks writes
 * it: the marks taken off (щ ŝ as S, ч č as C, ж ž as Z, ю û as U, я â as A, й j as J, х h as H, ц c as C; ъ ʺ and ь ʹ,
 * modifier letters, dropped). Latin letters without a decomposition and Greek as ICAO 9303 writes them. ASCII capitals.
 */
const ISO9_OF: Readonly<Record<string, string>> = {
  '\u0430': 'a', '\u0431': 'b', '\u0432': 'v', '\u0433': 'g', '\u0434': 'd', '\u0435': 'e', '\u0451': '\u00eb', '\u0436': '\u017e', '\u0437': 'z',
  '\u0438': 'i', '\u0439': 'j', '\u043a': 'k', '\u043b': 'l', '\u043c': 'm', '\u043d': 'n', '\u043e': 'o', '\u043f': 'p', '\u0440': 'r', '\u0441': 's',
  '\u0442': 't', '\u0443': 'u', '\u0444': 'f', '\u0445': 'h', '\u0446': 'c', '\u0447': '\u010d', '\u0448': '\u0161', '\u0449': '\u015d', '\u044a': '\u02ba',
  '\u044b': 'y', '\u044c': '\u02b9', '\u044d': '\u00e8', '\u044e': '\u00fb', '\u044f': '\u00e2', '\u0454': '\u00ea', '\u0456': '\u00ec', '\u0457': '\u00ef', '\u0491': 'g',
  '\u00e6': 'ae', '\u00f8': 'oe', '\u00df': 'ss', '\u00fe': 'th', '\u0153': 'oe', '\u00f0': 'd', '\u0142': 'l', '\u0111': 'd', '\u0127': 'h', '\u014b': 'n', '\u0131': 'i',
  '\u03b1': 'a', '\u03b2': 'v', '\u03b3': 'g', '\u03b4': 'd', '\u03b5': 'e', '\u03b6': 'z', '\u03b7': 'i', '\u03b8': 'th', '\u03b9': 'i', '\u03ba': 'k', '\u03bb': 'l',
  '\u03bc': 'm', '\u03bd': 'n', '\u03be': 'x', '\u03bf': 'o', '\u03c0': 'p', '\u03c1': 'r', '\u03c2': 's', '\u03c3': 's', '\u03c4': 't', '\u03c5': 'y', '\u03c6': 'f',
  '\u03c7': 'ch', '\u03c8': 'ps', '\u03c9': 'o',
};
/** A holderName in Latin capitals by `table` (lower case, NFC, the table, then marks off: NFKD), ASCII only. */
const embossedBy = (table: Readonly<Record<string, string>>) => (name: string): string =>
  [...name.normalize('NFC').toLowerCase()]
    // A letter the table lacks (Macedonian ѓ, Cyrillic ӯ) by its base letter's writing (ISO 9 writes ѓ ǵ, ӯ ū).
    .map((c) => (Object.hasOwn(table, c) ? table[c]! : [...c.normalize('NFKD').replace(/\p{M}+/gu, '')].map((b) => b.toLowerCase()).map((b) => (Object.hasOwn(table, b) ? table[b]! : b)).join('')))
    .join('')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]/gu, '')
    .toUpperCase();
/** The characters a card embosser prints on the name line (ISO/IEC 7811 embossing, the schemes' name rules): A-Z, 0-9, space, . , - / & '; others left out, spaces collapsed. */
const embossableOnly = (name: string): string => name.replace(/[^A-Z0-9 .,\-/&']/g, '').replace(/ {2,}/g, ' ').trim();

const written: Mutant[] = [
  // P1 (fix-wb27a, helpers/check/security.ts scanHeaders): the headers a real gateway, CDN and framework add, and a login
  // that also sets its own Session as an HttpOnly cookie (an SPA's cookie authentication beside the bearer one).
  reading(
    'allowed-review-aw-gateway-headers-and-login-cookie',
    'authentication',
    '4.2',
    'every answer carries what a framework and a gateway add (X-Request-Id, a weak ETag, Content-Location echoing the request\u2019s path and query, a Link to the public documentation, an XSRF-TOKEN cookie of its own), and a login also sets its Session as an HttpOnly cookie for a browser client (1.2: "Requests and responses are JSON": which headers an answer carries is not given; 2.1 and 5.2: the Session\u2019s id is the caller\u2019s own token; docs/judging.md: "a login\u2019s Set-Cookie or Authorization carrying its own new Session is the caller\u2019s")',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        reply.header('x-request-id', randomUUID());
        reply.header('etag', `W/"${answer.payload.length.toString(16)}-${createHash('sha1').update(answer.payload).digest('base64').replace(/=+$/, '')}"`);
        reply.header('content-location', reply.request.url);
        reply.header('link', '<https://docs.example.test/api/v1/reference>; rel="help", <https://example.test/password/forgot>; rel="alternate"');
        setCookie(reply, `XSRF-TOKEN=${encodeURIComponent(randomBytes(30).toString('base64'))}; Path=/; Max-Age=7200; SameSite=Lax`);
        if (isSessionAnswer(answer)) {
          const data = parse(answer.payload)?.data;
          if (typeof data?.id === 'string') setCookie(reply, `access_token=${encodeURIComponent(data.id)}; Path=/; Max-Age=${Number(data.ttl) || 3600}; HttpOnly; Secure; SameSite=Lax`);
        }
        return undefined;
      },
    },
    only('authentication', 'password', 'banks'),
  ),
  // P2 (fix-wb27a, the request's own token in a header): a sliding cookie, renewed on every answer to a bearer request
  // with the bearer itself, and cleared on logout with its last value (Max-Age=0), as cookie-session middlewares do.
  reading(
    'allowed-review-aw-sliding-token-cookie',
    'authentication',
    '5',
    'every answer to a request with a bearer header renews a cookie holding that bearer (`access_token=<bearer>; Max-Age=...`, a sliding expiry for a browser client), and logout answers it with `Max-Age=0` (1.2: which headers an answer carries is not given; 5.3: the bearer is the request\u2019s own credential; docs/judging.md: "the request\u2019s own token ... in any answer" is no finding)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        const bearer = bearerOf(reply.request);
        // Renewed only where the bearer authenticated the request (a refusal for another reason than its token).
        if (bearer === undefined || answer.status === 401) return undefined;
        const clear = answer.url === LOGOUT && answer.status === 200;
        setCookie(reply, `access_token=${encodeURIComponent(bearer)}; Path=/; Max-Age=${clear ? 0 : 3600}; HttpOnly; SameSite=Lax`);
        return undefined;
      },
    },
    only('authentication', 'banks', 'password'),
  ),
  // P2b (fix-wb27a and the body scan alike: helpers/check/security.ts tokenAllowed): a 401 that names the bearer it
  // refused (RFC 6750 3: WWW-Authenticate with error="invalid_token" and a human-readable error_description). The bearer
  // is the request's own; the access tables' `secret-appended` row sends a real token with characters appended, which
  // the scan then finds inside the request's own bearer as "a token of another session".
  reading(
    'allowed-review-aw-401-names-refused-bearer',
    'authentication',
    '5',
    'a protected route refused for its bearer (401 `{ error }`) says which bearer it refused, in `WWW-Authenticate: Bearer realm="api", error="invalid_token", error_description="The access token <bearer> is invalid or expired"` (RFC 6750 3 and 3.1; 5.3: "Without valid authentication the response is 401"; 7: `{ error: string }`; which headers an answer carries is not given; docs/judging.md: the request\u2019s own token "in any answer" is no finding)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        const bearer = bearerOf(reply.request);
        if (bearer === undefined || answer.status !== 401) return undefined;
        reply.header('www-authenticate', `Bearer realm="api", error="invalid_token", error_description="The access token ${bearer.replace(/["\\]/g, '')} is invalid or expired"`);
        return undefined;
      },
    },
    only('authentication', 'banks'),
  ),
  // P3 (review-av F3's tables, helpers/spec/normalisation.ts LATIN_WRITINGS): ISO 9, which docs/judging.md names, writes
  // щ as ŝ; an embosser without marks writes it S, which LATIN_WRITINGS (shch, sch, sh, shh, sht) lacks. The suites send
  // no щ in a holderName (a pin there); conformance explore's holderName property does.
  reading(
    'allowed-review-aw-card-holder-embossed-iso9',
    'cards',
    '2.5',
    'a card\u2019s holderName is stored as embossed, in Latin capitals by ISO 9 (GOST 7.79 System A) with the marks an embosser cannot print taken off: "\u0429\u0443\u043a\u0438\u043d" as SUKIN (\u0449 \u015d), "\u0427\u0435\u0445\u043e\u0432" as CEHOV, "\u00f8" as OE (2.5: holderName "string"; no clause says a record repeats the letters sent; docs/judging.md, "Storage normalisation": letters "in any writing ICAO 9303, ISO 9, GOST, BGN/PCGN, Unidecode or Laravel\u2019s Str::ascii gives them", "marks taken off")',
    holderNamesEmbossed(embossedBy(ISO9_OF)),
    only('cards'),
  ),
  // P4 (docs/judging.md "Storage normalisation": "every ASCII character kept as sent"): an embosser prints a name line of
  // capitals, digits, space and . , - / & ' only; a holderName stored as embossed (the reading the suite accepts for its
  // letter case and its non-ASCII letters) leaves out the ASCII characters it cannot print as well (= @ + \ # : ( )).
  reading(
    'allowed-review-aw-card-holder-embossed-charset',
    'cards',
    '2.5',
    'a card\u2019s holderName is stored as embossed, in the embosser\u2019s character set (A-Z, 0-9, space, . , - / & \u2019 as ISO/IEC 7811 name lines and the card schemes\u2019 name rules allow): letters in capitals and transliterated (ISO 9, marks off), every other character left out and spaces collapsed ("=Acme Ltd" as ACME LTD, "Doe, Jo \\ Jr." as DOE, JO JR.) (2.5: holderName "string"; no clause says a record repeats the characters sent; docs/judging.md accepts the embossed upper case and transliteration for the same reason)',
    holderNamesEmbossed((name) => embossableOnly(embossedBy(ISO9_OF)(name))),
    only('cards'),
  ),
];

const SECURITY = 'docs/judging.md "Security findings" ("a password hash ... a value in a named hash format whatever field carries it"; round wb27 "Headers are searched too")';

/** Flask's default session cookie (itsdangerous, uncompressed): base64url of compact JSON, a timestamp, a signature. */
function flaskSession(data: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify(data)).toString('base64url');
  const stamp = Buffer.from(Math.floor(Date.now() / 1000).toString(16), 'hex').toString('base64url');
  return `${payload}.${stamp}.${createHash('sha1').update(payload).digest('base64url')}`;
}

function forgotSessionCookieCarriesToken(): Mutation {
  return onForgotToken((_answer, reply, token, email) => {
    // Keys in the order Flask writes them; `_fresh` shifts the token off a multiple of 3 bytes when it would sit on one,
    // as any other member before it would (a session's content decides where the token falls).
    for (const fresh of [false, true, 0]) {
      const prefix = JSON.stringify({ _fresh: fresh, reset_email: email, reset_token: '' }).slice(0, -2);
      if (prefix.length % 3 === 0) continue;
      setCookie(reply, `session=${flaskSession({ _fresh: fresh, reset_email: email, reset_token: token })}; HttpOnly; Path=/`);
      return undefined;
    }
    return undefined;
  });
}

/**
 * A split reset token (the selector/verifier pattern: `<selector>.<verifier>`, 89 characters: a 24-character selector
 * that finds the row, then the e-mailed token as verifier), where the reset looks the row up by its selector and never
 * compares the verifier: any token that starts with a sent selector resets the password.
 */
function splitTokenVerifierUnchecked(): Mutation {
  const tokensOf = perServer(() => new Map<string, string>());
  const selectorOf = (token: string) => createHash('sha256').update(`selector ${token}`).digest('hex').slice(0, 24);
  return {
    request(request: FastifyRequest, ctx?: ReferenceContext) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== RESET) return;
      // Kept per server (its database), as perServer asks: the tokens of one run are nothing to the next.
      const tokens = tokensOf(ctx.db);
      onParsedBody(request, (body) => {
        if (typeof body.token !== 'string') return;
        const dot = body.token.indexOf('.');
        const token = dot === 24 ? tokens.get(body.token.slice(0, 24)) : undefined;
        if (token !== undefined) body.token = token;
      });
    },
    state(name: string, data: unknown, ctx: ReferenceContext) {
      const record = data as Record<string, unknown> | undefined;
      if (name !== 'password-reset.token' || !record || typeof record.token !== 'string') return data;
      const selector = selectorOf(record.token);
      tokensOf(ctx.db).set(selector, record.token);
      return { ...record, token: `${selector}.${record.token}` };
    },
  };
}

const deviations: Mutant[] = [
  {
    name: 'review-aw-login-recaller-cookie-carries-bcrypt-hash',
    clause: '4.2',
    group: 'authentication',
    description: `sections 2.1/4.2 and ${SECURITY}: every login answer sets Laravel's remember-me cookie as SessionGuard writes it, \`remember_web_<sha1>=<user id>|<remember token>|<password hash>\`, left out of EncryptCookies, the hash a bcrypt one ($2y$10$...): the account's password hash in a header`,
    mutation: loginSetsCookie((userId) => `remember_web_59ba36addc2b2f9401580f014c7f58ea4e30989d=${userId}|${itoa(`r${userId}`, 60)}|${HASHES.bcrypt(userId)}; expires=Sat, 28 Nov 2031 00:00:00 GMT; Max-Age=157680000; path=/; httponly; samesite=lax`),
  },
  {
    name: 'review-aw-login-cookie-carries-argon2-hash',
    clause: '4.2',
    group: 'authentication',
    description: `sections 2.1/4.2 and ${SECURITY}: every login answer sets a cookie \`pw_hash=<the account's argon2id hash>\` ($argon2id$v=19$m=65536,t=4,p=1$..., PHP's PASSWORD_ARGON2ID) for a "confirm password" screen: the account's password hash in a header`,
    mutation: loginSetsCookie((userId) => `pw_hash=${HASHES.argon2id(userId)}; Path=/; HttpOnly`),
  },
  {
    name: 'review-aw-forgot-session-cookie-carries-reset-token',
    clause: '4.4',
    group: 'password',
    description: `sections 4.3/4.4 ("the token received by e-mail") and docs/judging.md ("the reset token in any answer of the interface"): a forgot-password answer sets Flask's default client-side session cookie (base64url of its JSON, a timestamp and a signature: signed, not encrypted), the session holding the e-mailed reset token`,
    mutation: forgotSessionCookieCarriesToken(),
  },
  {
    name: 'review-aw-bonus-user-carries-django-scrypt-hash',
    clause: '4.11',
    group: 'bonuses',
    description: `sections 2.6/4.11 and ${SECURITY}: each bonus's user carries \`hash\`, the user's Django ScryptPasswordHasher hash (scrypt$16384$salt$8$1$..., Django 4.0+)`,
    mutation: bonusUserCarries('hash', HASHES.djangoScrypt),
  },
  {
    name: 'review-aw-bonus-user-carries-spring-argon2-hash',
    clause: '4.11',
    group: 'bonuses',
    description: `sections 2.6/4.11 and ${SECURITY}: each bonus's user carries \`hash\`, the user's Spring Security hash under the id \`argon2@SpringSecurity_v5_8\` ({argon2@SpringSecurity_v5_8}$argon2id$..., an id of PasswordEncoderFactories)`,
    mutation: bonusUserCarries('hash', HASHES.springArgon2V58),
  },
  {
    name: 'review-aw-bonus-user-carries-aspnet-identity-hash',
    clause: '4.11',
    group: 'bonuses',
    description: `sections 2.6/4.11 and docs/judging.md "Security findings" ("a password hash ... by a named hash format"): each bonus's user carries \`hash\`, the user's ASP.NET Core Identity PasswordHasher V3 hash (AQAAAAIAAYag..., base64 of version 1, HMAC-SHA512, 100000 rounds, salt, subkey)`,
    mutation: bonusUserCarries('hash', HASHES.aspnetIdentityV3),
  },
  {
    name: 'review-aw-reset-split-token-verifier-unchecked',
    clause: '4.4',
    group: 'password',
    description: 'sections 4.4/7 ("token ... the token received by e-mail"; 422 "token invalid"): the e-mailed reset token is a split token `<selector>.<verifier>` of 89 characters, and the reset finds the row by the selector and never compares the verifier, so a token whose verifier differs (never sent) resets the password',
    mutation: splitTokenVerifierUnchecked(),
  },
];

export const probesReviewAwMutants: readonly Mutant[] = [...written, ...deviations];
