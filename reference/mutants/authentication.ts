import { randomBytes, randomUUID } from 'node:crypto';
import { perServer } from './reading.js';
import type { Mutant } from './types.js';

/**
 * Mutants of sections 4.1, 4.2, 4.5, 5, 7 and 8: each breaks one clause of authentication or logout.
 * Behaviour mutants turn on a deviation of reference/modules/authentication.ts; shape and status
 * mutants rewrite one route's answer.
 */

const LOGIN = 'POST /api/v1/authenticate';
const JWT = 'POST /api/v1/authenticate-jwt/{platform}';
const LOGOUT = 'POST /api/v1/user/logout';

function deviation(name: string, clause: string, description: string, deviationName = name.replace(/^(login|jwt|logout|authenticate)-/, '$1.')): Mutant {
  return { name, clause, group: 'authentication', description, mutation: { deviation: deviationName } };
}

/** Answers `to` instead of `from` on `route`, keeping the body. */
function restatus(name: string, clause: string, route: string, from: number, to: number, description: string): Mutant {
  return { name, clause, group: 'authentication', description, mutation: { transform: { route, status: from, apply: () => ({ status: to }) } } };
}

/** Answers `{ message }` instead of `{ error }` on `route` for `status`. */
function asMessage(name: string, route: string, status: number, description: string): Mutant {
  return {
    name,
    clause: '7',
    group: 'authentication',
    description,
    mutation: { transform: { route, status, apply: (body) => ({ body: { message: body.error } }) } },
  };
}

/** Changes the Session of a successful login. */
function session(name: string, clause: string, description: string, apply: (data: Record<string, any>, body: Record<string, any>, server: object) => { body?: unknown } | void, route = LOGIN): Mutant {
  return { name, clause, group: 'authentication', description, mutation: { transform: { route, status: 200, apply: (body, _status, server) => apply(body.data, body, server) } } };
}

/** Section 1.4 written as Java's Instant.toString() writes it: the fraction cut to `digits` and its trailing zero groups dropped. */
function javaInstant(value: unknown, digits: 0 | 3): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})[.,](\d{6})\d*(?:Z|\+00(?::?00)?)$/.exec(String(value));
  if (!match) return String(value);
  const fraction = match[2]!.slice(0, digits);
  return `${match[1]}${/^0*$/.test(fraction) ? '' : `.${fraction}`}Z`;
}

function sessionTimesTrailingZerosDropped(): Mutant {
  const logins = new Map<string, number>();
  return session('allowed-session-times-trailing-zeros-dropped', '1', 'until and created written as Java\u2019s Instant.toString() writes a round time: on every second login of a user, until at a whole second (2026-11-26T08:18:18Z) and created at a round millisecond (2026-11-26T08:18:18.891Z)', (data) => {
    const count = (logins.get(String(data.userId)) ?? 0) + 1;
    logins.set(String(data.userId), count);
    if (count % 2 !== 0) return;
    data.until = javaInstant(data.until, 0);
    data.created = javaInstant(data.created, 3);
  });
}

/** A refresh token of the reference's own (per login, 40 characters): what a leak mutant hands out. */
const refreshToken = (): string => `rt.${randomBytes(30).toString('base64url')}`;

/**
 * Every Session issues its own refresh token, and also carries the refresh token of the login the server answered
 * just before (any user's): a rolling leak. Each leaked value is seen in exactly two login answers, its owner's and
 * the next user's, so a rule that calls a value in two users' logins "a shared constant" would only advise on it.
 */
function sessionLeaksPreviousRefreshToken(): Mutant {
  const memory = perServer((): { previous?: string } => ({}));
  return session('login-session-leaks-previous-refresh-token', '2.1', 'every Session carries its own refresh token and, as previousRefreshToken, the one issued by the login answered before it (another user\u2019s credential): a security finding', (data, _body, server) => {
    const own = refreshToken();
    const seen = memory(server);
    data.refreshToken = own;
    if (seen.previous !== undefined) data.previousRefreshToken = seen.previous;
    seen.previous = own;
  });
}

/**
 * Every Session issues its own refresh token, and also carries, as serviceToken, the refresh token that the server's
 * first login issued (one user's credential, handed to every later user alike).
 */
function sessionLeaksFirstRefreshToken(): Mutant {
  const memory = perServer((): { first?: string } => ({}));
  return session('login-session-leaks-first-refresh-token', '2.1', 'every Session carries its own refresh token and, as serviceToken, the refresh token issued to the first login the server answered (one user\u2019s credential, alike in every later login): a security finding', (data, _body, server) => {
    const own = refreshToken();
    const seen = memory(server);
    data.refreshToken = own;
    seen.first ??= own;
    if (seen.first !== own) data.serviceToken = seen.first;
  });
}

export const authenticationMutants: Mutant[] = [
  // Behaviour: section 5.5 refusals, shared by both login flows.
  deviation('login-locked-allowed', '5', 'a locked account logs in instead of 423'),
  deviation('login-inactive-allowed', '5', 'an inactive account logs in instead of 401'),
  // Review of fix-wb7a: the inactive account with 2FA (states user.inactive with twoFactor) is judged by a row of its own; this proves it.
  deviation('login-2fa-inactive-allowed', '5', 'an inactive account with 2FA logs in with its password and a valid code instead of 401 (the active check lives in the password-only branch; without 2FA it is refused)'),
  deviation('login-throttle-ignored', '5', 'the brute-force restriction is ignored: login succeeds instead of 425'),
  deviation('login-2fa-ignored', '4.2', 'a 2FA account logs in without (or with a wrong) TOTP code'),
  deviation('login-unknown-email-422', '4.2', 'an unknown e-mail answers 422 (errors.email) instead of 403'),
  deviation('login-unknown-email-404', '4.2', 'an unknown e-mail answers 404 { message } instead of 403'),

  // Field limits of 4.2 / section 8.
  deviation('authenticate-email-max-unenforced', '8', 'an e-mail longer than 191 characters passes validation'),
  deviation('authenticate-password-min-unenforced', '8', 'a password shorter than 8 characters passes validation'),
  deviation('authenticate-2fa-digits-unenforced', '8', 'a 2fa code that is not exactly 6 digits passes validation'),
  {
    name: 'authenticate-422-without-errors-map',
    clause: '7',
    group: 'authentication',
    description: 'a validation failure answers 422 { message } without the errors map',
    mutation: { transform: { route: LOGIN, status: 422, apply: (body) => ({ body: { message: body.message } }) } },
  },

  // Behaviour: section 4.1, the JWT flow.
  deviation('jwt-signature-unchecked', '4.1', 'the JWT signature is not verified at all'),
  deviation('jwt-alg-none-accepted', '4.1', 'an unsigned JWT (alg none) is accepted'),
  deviation('jwt-hmac-public-key-accepted', '4.1', 'an HS512 JWT keyed with the platform public key is accepted (algorithm confusion)'),
  deviation('jwt-any-platform-key', '4.1', 'a JWT for an unknown platform is verified with any registered platform key'),
  deviation('jwt-id-unsupported', '4.1', 'a payload naming the user by id is not understood (412)'),
  deviation('jwt-expiry-ignored', '4.1', 'an expired JWT (expire in the past) logs in instead of 416'),
  deviation('jwt-payload-unchecked', '4.1', 'an invalid payload (no email nor id, bad expire) is not answered 412'),

  // Behaviour: section 4.5.
  // Section 4.5 destroys the token "for both kinds of authentication": one mutant per kind.
  deviation('logout-keeps-password-token', '4.5', 'logout answers 200 but a token from e-mail and password login stays valid'),
  deviation('logout-keeps-jwt-token', '4.5', 'logout answers 200 but a token from JWT login stays valid'),
  {
    name: 'logout-without-token-allowed',
    clause: '4.5',
    group: 'authentication',
    description: 'logout without valid authentication answers 200 { status } instead of 401',
    mutation: { transform: { route: LOGOUT, status: 401, apply: () => ({ status: 200, body: { status: 'success' } }) } },
  },
  {
    name: 'logout-without-status',
    clause: '4.5',
    group: 'authentication',
    description: 'logout answers 200 { message } instead of { status }',
    mutation: { transform: { route: LOGOUT, status: 200, apply: () => ({ body: { message: 'Logged out.' } }) } },
  },

  // Status rows of 4.2 answered with another status.
  restatus('login-inactive-answers-403', '5', LOGIN, 401, 403, 'an inactive account answers 403 instead of 401'),
  restatus('login-wrong-credentials-answer-401', '5', LOGIN, 403, 401, 'wrong credentials answer 401 instead of 403'),
  restatus('login-locked-answers-403', '5', LOGIN, 423, 403, 'a locked account answers 403 instead of 423'),
  restatus('login-throttled-answers-429', '5', LOGIN, 425, 429, 'the brute-force restriction answers 429 instead of 425'),

  // Status rows of 4.1 answered with another status.
  restatus('jwt-inactive-answers-403', '4.1', JWT, 401, 403, 'JWT login of an inactive account answers 403 instead of 401'),
  restatus('jwt-wrong-credentials-answer-404', '4.1', JWT, 403, 404, 'JWT login naming an unknown user answers 404 instead of 403'),
  restatus('jwt-locked-answers-403', '4.1', JWT, 423, 403, 'JWT login of a locked account answers 403 instead of 423'),
  restatus('jwt-throttled-answers-429', '4.1', JWT, 425, 429, 'JWT login of a restricted account answers 429 instead of 425'),
  restatus('jwt-invalid-payload-answers-422', '4.1', JWT, 412, 422, 'an invalid JWT payload answers 422 instead of 412'),
  restatus('jwt-expired-answers-401', '4.1', JWT, 416, 401, 'an expired JWT answers 401 instead of 416'),

  // Error formats of section 7.
  asMessage('login-403-as-message', LOGIN, 403, 'wrong credentials answer { message } instead of { error }'),
  asMessage('login-423-as-message', LOGIN, 423, 'a locked account answers { message } instead of { error }'),
  asMessage('jwt-401-as-message', JWT, 401, 'JWT login of an inactive account answers { message } instead of { error }'),
  asMessage('logout-401-as-message', LOGOUT, 401, 'logout without valid authentication answers 401 { message } instead of { error }'),

  // Session shape (2.1, 1.3, 1.4).
  session('session-ttl-string', '2.1', 'ttl is a string of digits instead of an integer', (data) => {
    data.ttl = String(data.ttl);
  }),
  session('session-until-without-microseconds', '1', 'until has three fractional digits instead of six', (data) => {
    data.until = String(data.until).replace(/\.(\d{3})\d{3}/, '.$1');
  }),
  session('session-created-not-utc', '1', 'created carries a +02:00 offset instead of UTC', (data) => {
    data.created = String(data.created).replace(/(Z|\+00:00)$/, '+02:00');
  }),
  // ISO 8601 writes the fraction after a comma or a full stop, and UTC as Z, +00:00, +0000 or +00 (section 1.4 names only ISO 8601).
  {
    ...session('allowed-session-times-comma-and-basic-utc-offset', '1', 'until and created carry a comma before their six fractional digits and +0000 for UTC', (data) => {
      for (const field of ['until', 'created']) data[field] = String(data[field]).replace(/\.(\d{6})(Z|\+00:00)$/, ',$1+0000');
    }),
    allowed: true,
    judgedBy: { clauses: ['1', '2.1', '4.1', '4.2', '5'] },
  },
  // Issue 28: the basic format of ISO 8601 is ISO 8601 too, and a finer clock may give more than six fraction digits.
  {
    ...session('allowed-session-times-basic-format', '1', 'until and created are written in the basic format of ISO 8601 (20261126T081818.891157Z)', (data) => {
      for (const field of ['until', 'created']) data[field] = String(data[field]).replace(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})(Z|\+00:00)$/, '$1$2$3T$4$5$6.$7Z');
    }),
    allowed: true,
    judgedBy: { clauses: ['1', '2.1', '4.1', '4.2', '5'] },
  },
  {
    ...session('allowed-session-times-nanoseconds-and-short-offset', '1', 'until and created carry nine fraction digits and +00 for UTC (2026-11-26T08:18:18.891157000+00)', (data) => {
      for (const field of ['until', 'created']) data[field] = String(data[field]).replace(/\.(\d{6})(Z|\+00:00)$/, '.$1000+00');
    }),
    allowed: true,
    judgedBy: { clauses: ['1', '2.1', '4.1', '4.2', '5'] },
  },
  // Java's Instant.toString() (and other writers) drop trailing zero groups of the fraction: a time at .891000 is
  // written .891, one at a whole second has no fraction. Such a writer has microseconds, and gives six digits 999
  // times in 1000. Forced here on every second login of a user (counted per user, so the three fresh users of the
  // microsecond test log in once each, as a run's Sessions mostly show six digits): its until at a whole second,
  // its created at a round millisecond, both written as Instant.toString() writes them.
  {
    ...sessionTimesTrailingZerosDropped(),
    allowed: true,
    judgedBy: { clauses: ['1', '2.1', '4.2', '5'] },
  },
  session('session-token-without-numeric-id', '2.1', 'the access token lacks its "<numeric_id>|" prefix', (data) => {
    data.id = String(data.id).split('|').pop();
  }),
  session('session-userid-not-uuid', '2.1', 'userId is a numeric string instead of the user UUID', (data) => {
    data.userId = '1024';
  }),
  // UUIDs compare in any letter case (allowed-r10-ids-upper-case): another UUID written upper-case is still another user.
  session('session-userid-another-uuid-upper-case', '2.1', 'userId is another UUID than the user\u2019s, written upper-case (as a reading that writes UUIDs upper-case would write it): the Session names someone else', (data) => {
    data.userId = randomUUID().toUpperCase();
  }),
  session('session-until-not-created-plus-ttl', '2.1', 'until is not created + ttl (it equals created)', (data) => {
    data.until = data.created;
  }),
  session('session-missing-data-envelope', '1', 'the Session is answered bare, without { data }', (data) => ({ body: data })),
  session('jwt-session-missing-data-envelope', '1', 'the JWT login answers the Session bare, without { data }', (data) => ({ body: data }), JWT),
  session('jwt-session-ttl-string', '2.1', 'JWT login answers ttl as a string', (data) => {
    data.ttl = String(data.ttl);
  }, JWT),

  // Issue 11: deviations that passed before.
  deviation('jwt-other-platform-key-accepted', '4.1', 'a JWT signed by another registered platform\u2019s key authenticates at this platform', 'jwt.other-platform-key-accepted'),
  // Review of issue 28: an RS256 JWT under the platform's own key is authentic (no forgery); 4.1 says the platform signs
  // with RS512, and a verifier that also takes RS256 is a security note (advisory), not a failure. A wrong key or `none`
  // stays a failure (jwt-alg-none-accepted, jwt-other-platform-key-accepted, jwt-signature-unchecked, killed).
  { ...deviation('allowed-jwt-rs256-own-key', '4.1', 'a JWT signed with the platform\u2019s own key but RS256 (not RS512) authenticates (a security note, not a failure)', 'jwt.rs256-accepted'), allowed: true },
  deviation('token-expiry-ignored', '5', 'an access token whose lifetime is over still authenticates (no 401)', 'tokens.expiry-ignored'),
  // Issue 28: section 8 does not say whose failed logins count. A target counting them per client address (10 in 10
  // minutes, any account) restricts every later login of the run: the tests it blocks are not verified, never failed.
  {
    ...deviation('allowed-login-failures-per-address', '8', 'failed logins are counted per client address, whatever the account: 10 within 10 minutes from one address answer every later login from it 425', 'login.failures-per-address'),
    allowed: true,
    judgedBy: { groups: 'all', clauses: 'all' },
  },
  deviation('login-failures-uncounted', '8', 'failed logins are never counted, so no number of them leads to the 425 restriction of section 8 (only --brute-force sees it)', 'login.failures-uncounted'),
  // Issue 28: key order, list order, extra members, JSON escapes and HTTP framing are no part of the interface.
  {
    name: 'allowed-php-style-answers',
    clause: '1',
    group: 'authentication',
    description: 'every answer keeps its JSON values but reverses every object\u2019s keys, lists oldest first, adds updatedAt to every record, escapes / as \\/ and non-ASCII as \\uXXXX, and says X-Powered-By: PHP with Connection: close',
    mutation: { deviation: 'http.php-style-answers' },
    allowed: true,
    judgedBy: { groups: 'all', clauses: 'all' },
  },
  {
    name: 'responses-labelled-text-html',
    clause: '1',
    group: 'authentication',
    description: 'every answer carries the right JSON body but Content-Type: text/html',
    mutation: { contentType: 'text/html; charset=utf-8' },
  },
  session('session-times-local-labelled-utc', '2.1', 'until and created are a local time (UTC-3) labelled as UTC, so a fresh session\u2019s until is in the past', (data) => {
    const shift = (value: string) => new Date(Date.parse(value) - 3 * 3600 * 1000).toISOString().replace(/\.(\d{3})Z$/, `.$1${value.slice(23, 26)}Z`);
    data.until = shift(String(data.until));
    data.created = shift(String(data.created));
  }),
  deviation('login-session-leaks-totp-secret', '4.2', 'the Session of a 2FA account carries its TOTP secret (inside an otpauth URI): a security finding', 'login.session-leaks-totp-secret'),
  session('session-carries-password-hash', '2.1', 'the Session carries the account\u2019s password hash (data.user.password_hash): a security finding', (data) => {
    data.user = { id: data.userId, password_hash: '$2y$10$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY' };
  }),

  // Issue 28 (review): refresh-token leaks that a shared-constant rule must not turn into advisories.
  sessionLeaksPreviousRefreshToken(),
  sessionLeaksFirstRefreshToken(),

  // Allowed readings: the reference answering as the specification also allows; they must survive.
  {
    ...deviation('allowed-session-refresh-tokens', '2.1', 'every Session also issues refresh tokens (extra members): one in the access token\u2019s <id>|<secret> form, one shaped like a JWT, one in base64 named remember_token; credentials of the caller, no security finding', 'login.session-refresh-tokens'),
    allowed: true,
    // Issue 28: 272 tests failed on a refresh token taken for another session's token. Every login of these groups reads a Session.
    judgedBy: { groups: ['authentication', 'banks'], clauses: ['2.1', '4.1', '4.2', '4.10'] },
  },
  {
    ...session('allowed-session-public-map-token', '2.1', 'every Session carries the same public constant under a token name (mapToken, a public map key, alike for every user): an extra member, no user\u2019s credential, so no security finding (an advisory)', (data) => {
      data.mapToken = 'pk.publicMapKeyOfTheReference0123456789';
    }),
    allowed: true,
    // Issue 28: a value every login carries alike was taken for another user's token. Every login of these groups reads a Session.
    judgedBy: { groups: ['authentication', 'banks'], clauses: ['2.1', '4.1', '4.2', '4.10'] },
  },
  { ...deviation('allowed-jwt-expire-milliseconds', '4.1', 'reads the JWT expire as milliseconds since the epoch (4.1 gives it no unit)', 'jwt.expire-in-milliseconds'), allowed: true },
  { ...deviation('allowed-login-malformed-answers-403', '4.2', 'a login without e-mail, with a malformed e-mail or without password answers 403 (wrong credentials) instead of 422', 'login.malformed-answers-403'), allowed: true },
  {
    ...session('allowed-session-ttl-remaining-seconds', '2.1', 'ttl is the whole seconds the session has left when answered (one less than its lifetime)', (data) => {
      data.ttl = Number(data.ttl) - 1;
    }),
    allowed: true,
    // Every test that reads a Session's times: the 200s citing 2.1 and the accepted rows of the login boundary tables (8).
    judgedBy: { clauses: ['2.1', '8'] },
  },
  {
    name: 'allowed-content-type-problem-json',
    clause: '1',
    group: 'authentication',
    description: 'every answer is labelled application/vnd.api+json; charset=utf-8 (a +json media type)',
    mutation: { contentType: 'application/vnd.api+json; charset=utf-8' },
    allowed: true,
    // Server-wide: every group's happy paths (each endpoint's cites clause 1), and forgot-password's answers (4.3), whose tests cite no 1.
    judgedBy: { groups: 'all', clauses: ['1', '4.3'] },
  },
  // Characters, not bytes (section 8): found by `conformance explore`, pinned by fixed rows of two-byte characters.
  {
    name: 'authenticate-password-min-in-bytes',
    clause: '8',
    group: 'authentication',
    description: 'the 8-character password minimum counts UTF-8 bytes, so four two-byte letters pass as eight',
    mutation: { deviation: 'authenticate.password-min-bytes' },
  },
  {
    name: 'authenticate-password-max-in-bytes',
    clause: '8',
    group: 'authentication',
    description: 'the 191-character password maximum counts UTF-8 bytes, so 191 two-byte letters are refused',
    mutation: { deviation: 'authenticate.password-max-bytes' },
  },
  // Section 4.1 gives `email` and `id` as strings: a payload with a number there is invalid (412), and a server
  // that reads the number as text finds no such user (403, wrong credentials); both hold.
  {
    name: 'allowed-jwt-number-claim-read-as-text',
    clause: '4.1',
    group: 'authentication',
    description: 'authenticate-jwt reads a JSON number as email or id as its text, finds nobody and answers 403 rather than 412',
    mutation: { deviation: 'jwt.number-claims-as-text' },
    allowed: true,
  },
  // Issue 19: section 4.1's "one of email or id" with both given.
  {
    name: 'jwt-conflicting-claims-third-user',
    clause: '4.1',
    group: 'authentication',
    description: 'a JWT whose email and id name two different users authenticates a third user of the platform',
    mutation: { deviation: 'jwt.conflicting-claims-third-user' },
  },
  deviation('jwt-conflicting-claims-split-session', '4.1', 'a JWT whose email and id name two different users: the token is the id\u2019s user\u2019s, while the Session\u2019s userId names the e-mail\u2019s user', 'jwt.conflicting-claims-split-session'),
  // Issue 19: the lifetime of a session (state user.short-session), its creation time, the path's platform, expire's type.
  deviation('tokens-outlive-until', '5', 'an access token still authenticates for 30 s after its until (a session outlives its ttl)', 'tokens.outlive-until'),
  deviation('tokens-expire-before-until', '5', 'an access token stops authenticating halfway to its until (a session lives half its ttl)', 'tokens.expire-before-until'),
  session('session-created-minutes-early', '2.1', 'created is five minutes before the Session was made (ttl grown to match, so until = created + ttl holds)', (data) => {
    const shift = (value: string) => new Date(Date.parse(value) - 300_000).toISOString().replace(/\.(\d{3})Z$/, `.$1${value.slice(23, 26)}Z`);
    data.created = shift(String(data.created));
    data.ttl = Number(data.ttl) + 300;
  }),
  deviation('jwt-platform-segment-optional', '4.1', 'authenticate-jwt without the platform segment verifies the JWT with any registered platform\u2019s key', 'jwt.platform-segment-optional'),
  deviation('jwt-expire-type-unchecked', '4.1', 'a JWT whose expire is no timestamp ("soon", true, {}, []) is taken as never expiring and logs in', 'jwt.expire-type-unchecked'),
  // Allowed reading (must survive): a signature the platform's key does not verify answered as a payload invalid (412).
  // Issue 27, exactness of credentials (branch i27-val): a password compared loosely, a 2FA code in its place, and the
  // checks of section 4.1 made on one claim form's lookup only (each killed by the test of the other form).
  deviation('login-password-case-insensitive', '4.2', 'the password is compared without regard to letter case: the password with every letter’s case swapped logs in', 'login.password-case-insensitive'),
  deviation('login-2fa-replaces-password', '4.2', 'a 2FA account with a valid TOTP code logs in whatever password comes with it', 'login.2fa-replaces-password'),
  deviation('jwt-id-claim-expiry-unchecked', '4.1', 'a JWT naming the user by id logs in with an expire in the past (the email claim is checked)', 'jwt.id-claim-expiry-unchecked'),
  deviation('jwt-email-claim-expiry-unchecked', '4.1', 'a JWT naming the user by email logs in with an expire in the past (the id claim is checked)', 'jwt.email-claim-expiry-unchecked'),
  deviation('jwt-id-claim-expire-optional', '4.1', 'a JWT naming the user by id without expire logs in instead of 412 (the email claim needs it)', 'jwt.id-claim-expire-optional'),
  deviation('jwt-email-claim-inactive-allowed', '5', 'an inactive account logs in through a JWT naming it by email instead of 401 (by id it is refused)', 'jwt.email-claim-inactive-allowed'),
  deviation('jwt-email-claim-locked-allowed', '5', 'a locked account logs in through a JWT naming it by email instead of 423 (by id it is refused)', 'jwt.email-claim-locked-allowed'),
  // jwt-id-claim-throttle-ignored (425 by email, a Session by id) is an allowed reading since review-aj F3:
  // allowed-review-aj-jwt-throttle-keyed-by-email (probes-review-aj.ts).
  // Allowed readings (must survive; the suite only gives security notes): how a password is compared is not given.
  // Each rewrites the password alike where a reset stores it and where a login compares it (modules/password.ts
  // storedPassword), as a service that reads passwords one way does: judged also by the reset tests that log in with the
  // password they set (round wb16: one with outer spaces, one with a decomposed accent, must log in with the bytes sent).
  { ...deviation('allowed-login-password-trimmed', '4.2', 'outer whitespace is trimmed from every password read, at reset as at login (Laravel\u2019s TrimStrings without the password exception), before it is stored or compared (a security note, not a failure)', 'login.password-trimmed'), allowed: true, judgedBy: { groups: ['authentication', 'password'], clauses: ['4.2', '4.4'] } },
  { ...deviation('allowed-login-password-72-byte-prefix', '4.2', 'only the first 72 bytes of a password are kept and compared, as bcrypt does (a security note, not a failure)', 'login.password-72-byte-prefix'), allowed: true, judgedBy: { groups: ['authentication', 'password'], clauses: ['4.2', '4.4'] } },
  { ...deviation('allowed-login-2fa-spaces-removed', '4.2', 'spaces inside the 2FA code are removed before it is checked, "123 456" being the code 123456 (a security note, not a failure)', 'login.2fa-spaces-removed'), allowed: true },
  // Review of issue 28: 4.1 gives `expire` as a "timestamp" and 2.1 calls the ISO 8601 `until` one too. A server that
  // takes only the ISO 8601 string answers 412 to a numeric expire: the suite detects the form on its first JWT login
  // and writes every expire that way (helpers/arrange/jwt.ts), so the 416 and 412 checks are judged in that form.
  // JWT logins also open the logged-out JWT sessions of every group's access table (clause 5).
  {
    ...deviation('allowed-jwt-expire-iso-string-only', '4.1', '`expire` is read only as an ISO 8601 date-time string ("2026-11-26T04:00:00.000Z"); a number is no timestamp (412) (4.1: "expire (required, timestamp, must be now or later)"; 2.1 calls the ISO 8601 until a timestamp)', 'jwt.expire-iso-string-only'),
    allowed: true,
    judgedBy: { groups: 'all', clauses: ['4.1', '5'] },
  },
  deviation('jwt-expire-iso-string-only-expiry-ignored', '4.1', 'expire is read only as an ISO 8601 string (an allowed reading) and an expire in the past logs in instead of 416: the 416 check is judged in the form the run detected', 'jwt.expire-iso-string-only-expiry-ignored'),
  { ...deviation('allowed-jwt-bad-signature-answers-412', '4.1', 'a JWT whose signature the platform\u2019s key does not verify answers 412 (payload invalid) instead of 403 (wrong credentials)', 'jwt.bad-signature-answers-412'), allowed: true },
];
