import type Database from 'better-sqlite3';
import type { FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { ReferenceContext } from '../context.js';
import type { Mutant } from './types.js';
import { resolveToken } from '../tokens.js';
import { digest, judgedDeviations, only, parse, reading, recordsOf, routeOf, signedBy } from './reading.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { hashPassword, sessionOf } from '../modules/authentication.js';
import type { UserRow } from '../context.js';
import { BANKS, BONUS, BONUS_ROUTES, JWT, SUMMARY } from './routes.js';

/**
 * review-ap (issue 28, "fair to the readings nobody listed"): a read-only fairness review of the fixes of review-ao's
 * findings (3791c5e bf6e58d eb1c0a4 d3dc3d0 54fc700 3aaaa88), then suites/authentication*, cards and helpers/check.
 * Each allowed-* probe takes one choice the text leaves open, the other way from the reference; each description quotes
 * the text that leaves the point open. The review-ap-* mutants are deviations under every reading, written to see whether
 * a fix lets them through. Verdicts (bin/mutants.mjs --shards 1 --mutant NAME, 2026-11-28):
 * - A1 allowed-review-ap-bonus-show-masks-anti-phishing-wholly: REFUSED (helpers/arrange/invariants.ts roundTripChecks,
 *   bonus show vs list: masksOfOwn asks isMasked of both, so a code masked wholly is no mask there; review-ao F5's fix).
 * - A2 allowed-review-ap-bonus-show-masks-anti-phishing-with-bullets: REFUSED (same: a code masked without asterisks,
 *   which review-af F1 left open and suites/bonuses.test.ts judges only where the mask holds asterisks).
 * - A3 allowed-review-ap-bonus-friend-email-masked-otherwise-on-show: REFUSED (same: masksOfOwn compares every bonus
 *   user's masks with the path user's address, whoever the bonus's user is; allowed-r15-bonus-user-is-referred-friend).
 * - A4 allowed-review-ap-jwt-without-claim-names-nobody: REFUSED (suites/authentication.test.ts invalidPayloads, 'without
 *   email or id' and 'that is empty': 412 (or 416) only).
 * - A5 allowed-review-ap-bank-currency-shown-upper-filter-takes-stored-lower: REFUSED (suites/banks.test.ts, the currency
 *   filter test after review-ao F3: a record showing EUR that currency=EUR does not list fails).
 * - A6 allowed-review-ap-jwt-unknown-email-provisions-user: REFUSED (suites/authentication.test.ts expectUnknownUserRefused:
 *   the unknown e-mail and the e-mail without its last character).
 * - D1 review-ap-bonus-refusal-carries-path-users-anti-phishing: SURVIVED (a deviation let through by review-ao F2's
 *   answersOwner, helpers/check/security.ts: an answer whose path names the owner counts as one to the owner, whoever
 *   sent it; the bonuses group's another-user rows learn the owner's code, 71 passed, 0 security findings).
 * - pin allowed-review-ap-bonus-show-masks-anti-phishing-keeping-its-end: conformant (review-ao F5's anti-phishing branch).
 * The REFUSED ones and the survivor fail `npm test`'s mutation run until the suite is fixed (or the lead rules otherwise).
 * The lead's fixes and rulings (2026-11-28): D1 killed (answersOwner decides by the caller's credential first); A1, A2,
 * A3 conformant (masks of one value: a code masked in any way, a friend's masks judged by themselves); A5 conformant
 * (the currency filter asked in the code's other writings). A4 and A6 ruled deviations (RULED_DEVIATIONS below).
 */

/** The reference's own mask of a code, as modules/bonuses.ts maskSecret writes it: the first two characters kept. */
function keptTwo(value: string, mask: string): string {
  const keep = value.slice(0, Math.min(2, value.length - 1));
  return `${keep}${mask.repeat(Math.max(3, value.length - keep.length))}`;
}

function dbOf(): { remember(ctx: ReferenceContext | undefined): void; db(): Database.Database | undefined } {
  let db: Database.Database | undefined;
  return {
    remember(ctx) {
      if (ctx) db = ctx.db;
    },
    db: () => db,
  };
}

/**
 * The bonus show writes its user's anti-phishing code through another mask than the list: `mask` of the code (the list
 * keeps the reference's mask, two characters and asterisks).
 */
function bonusShowMasksAntiPhishing(mask: (code: string) => string): Mutation {
  const store = dbOf();
  return {
    request(_request, ctx) {
      store.remember(ctx);
    },
    wire(answer: WireAnswer) {
      const db = store.db();
      if (answer.status !== 200 || answer.url !== BONUS || !db) return undefined;
      const body = parse(answer.payload);
      const user = body?.data?.user;
      if (!user || typeof user.id !== 'string' || !user.options?.guard) return undefined;
      const row = db.prepare('SELECT anti_phishing FROM users WHERE id = ?').get(user.id) as { anti_phishing: string } | undefined;
      if (!row || row.anti_phishing === '') return undefined;
      user.options.guard.antiPhishing = mask(row.anti_phishing);
      return JSON.stringify(body);
    },
  };
}

/**
 * allowed-r15-bonus-user-is-referred-friend (the user inside a bonus is the friend whose order earned it) together with
 * review-ao F5's reading (the show masks the e-mail with another mask than the list): the list shows the friend's e-mail
 * as r15 writes it (`fr****xx@e*****e.com`), the show as `f*****@e*****e.com`: two masks of one address, the friend's.
 */
function friendEmailMaskedOtherwiseOnShow(): Mutation {
  return {
    wire(answer: WireAnswer) {
      if ((answer.status !== 200 && answer.status !== 201) || !BONUS_ROUTES.includes(answer.url)) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      const users = recordsOf(body).map((record) => record?.user).filter((user) => user && typeof user === 'object' && typeof user.id === 'string');
      if (users.length === 0) return undefined;
      for (const user of users) {
        const hex = digest(`friend:${user.id.toLowerCase()}`);
        user.id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
        if (typeof user.email === 'string') user.email = answer.url === BONUS ? `f*****@e*****e.com` : `fr****${hex.slice(0, 2)}@e*****e.com`;
      }
      return JSON.stringify(body);
    },
  };
}

const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();

/**
 * A deviation under every reading: the refusal (403 or 409) of another user's request for a user's bonuses carries the
 * path user's profile with its anti-phishing code in clear (a policy error page rendered with the resource's owner).
 * Only where the bearer token is another user's than the one the path names.
 */
function refusalCarriesPathUsersAntiPhishing(): Mutation {
  let ctxOf: ReferenceContext | undefined;
  return {
    request(_request, ctx) {
      if (ctx) ctxOf = ctx;
    },
    wire(answer: WireAnswer, reply) {
      if ((answer.status !== 403 && answer.status !== 409) || ![...BONUS_ROUTES, SUMMARY].includes(answer.url) || !ctxOf) return undefined;
      const pathUser = (reply.request.params as Record<string, string> | undefined)?.user;
      const bearer = bearerOf(reply.request);
      if (typeof pathUser !== 'string' || bearer === undefined) return undefined;
      const caller = resolveToken(ctxOf.db, bearer, ctxOf.now());
      if (!caller || caller.user.id.toLowerCase() === pathUser.toLowerCase()) return undefined;
      const row = ctxOf.db.prepare('SELECT anti_phishing FROM users WHERE id = ? COLLATE NOCASE').get(pathUser) as { anti_phishing: string } | undefined;
      if (!row) return undefined;
      const body = parse(answer.payload);
      if (!body || typeof body !== 'object') return undefined;
      body.owner = { id: pathUser, options: { guard: { antiPhishing: row.anti_phishing } } };
      return JSON.stringify(body);
    },
  };
}

/** The payload of the request's `Token` JWT (not verified: the reference verified it before answering). */
function tokenPayloadOf(request: FastifyRequest): Record<string, unknown> | undefined {
  const header = request.headers.token;
  const token = Array.isArray(header) ? header[0] : header;
  const part = typeof token === 'string' ? token.split('.')[1] : undefined;
  if (part === undefined) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' && !Array.isArray(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A JWT login that looks the user up by the claims it finds, without first requiring one (PHP: `User::where('email',
 * $payload['email'] ?? null)`, the lookup before the expiry as allowed-r7-jwt-user-before-expiry reads it): a validly
 * signed payload with neither `email` nor `id` names nobody, which is wrong credentials (403 { error }), as a number
 * claim read as text is (allowed-jwt-number-claim-read-as-text). Every other payload is answered as before.
 */
function jwtWithoutClaimNamesNobody(): Mutation {
  return {
    wire(answer: WireAnswer, reply) {
      if (answer.url !== JWT || answer.status !== 412) return undefined;
      const payload = tokenPayloadOf(reply.request);
      if (!payload || 'email' in payload || 'id' in payload) return undefined;
      reply.code(403);
      return JSON.stringify({ error: 'The provided credentials are incorrect.' });
    },
  };
}

/**
 * Just-in-time provisioning (the SSO pattern of SAML and OIDC identity brokers: Okta, Auth0, Keycloak's first broker
 * login): a platform's validly signed, unexpired JWT naming by `email` an address the service has no account for makes
 * the account (active, of that platform) and answers its Session. A JWT naming an unknown `id` is refused as before.
 */
function jwtUnknownEmailProvisionsUser(): Mutation {
  let ctxOf: ReferenceContext | undefined;
  return {
    request(_request, ctx) {
      if (ctx) ctxOf = ctx;
    },
    wire(answer: WireAnswer, reply) {
      const ctx = ctxOf;
      if (answer.url !== JWT || (answer.status !== 403 && answer.status !== 412) || !ctx) return undefined;
      const header = reply.request.headers.token;
      const jwt = Array.isArray(header) ? header[0] : header;
      const platform = (reply.request.params as Record<string, string> | undefined)?.platform;
      if (typeof jwt !== 'string' || typeof platform !== 'string' || !signedBy(ctx, platform, jwt)) return undefined;
      const payload = tokenPayloadOf(reply.request);
      const email = payload?.email;
      const expire = payload?.expire;
      if (!payload || 'id' in payload || typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 191) return undefined;
      // Unexpired under the reference's reading (Unix seconds) and under milliseconds alike: only a JWT valid but for its user.
      if (typeof expire !== 'number' || expire < Math.floor(ctx.now() / 1000)) return undefined;
      if (ctx.db.prepare('SELECT 1 FROM users WHERE email = ? COLLATE NOCASE').get(email)) return undefined;
      const id = randomUUID();
      ctx.db
        .prepare('INSERT INTO users (id, email, password_hash, totp_secret, anti_phishing, language, platform_id, created_at) VALUES (?, ?, ?, NULL, ?, ?, ?, ?)')
        .run(id, email, hashPassword(randomBytes(18).toString('base64url')), randomBytes(6).toString('hex'), 'en', platform, Math.floor(ctx.now() / 1000));
      const user = ctx.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow;
      reply.code(200);
      return JSON.stringify(sessionOf(ctx, user, 'jwt'));
    },
  };
}

const written: Mutant[] = [
  // Pin 1 (stays conformant): review-ao F5's anti-phishing branch, which review-ao's P7 (the e-mail) did not pin: the show
  // masks the code with asterisks keeping its last two characters, the list its first two.
  reading(
    'allowed-review-ap-bonus-show-masks-anti-phishing-keeping-its-end',
    'bonuses',
    '2.6',
    'the bonus show masks its user’s anti-phishing code with asterisks keeping its last two characters (****ef), where the list keeps its first two (ab****): each the code "masked" (2.6: "antiPhishing (string, masked)": which characters a mask keeps is not given, nor that every read keeps the same ones; review-ao F5)',
    bonusShowMasksAntiPhishing((code) => `${'*'.repeat(Math.max(3, code.length - 2))}${code.slice(-2)}`),
    only('bonuses'),
  ),
  // A6 (suites/authentication.test.ts: 'answers 403 with { error } (or 412) for a JWT naming an unknown e-mail' and
  // '... for a JWT whose email is the user’s e-mail without its last character', expectUnknownUserRefused).
  reading(
    'allowed-review-ap-jwt-unknown-email-provisions-user',
    'authentication',
    '4.1',
    'just-in-time provisioning, as SSO identity brokers do on a first login (SAML JIT, Okta, Auth0, Keycloak’s first broker login): a platform’s validly signed, unexpired JWT naming by email an address the service has no account for creates the account (active, of that platform) and answers its Session; a JWT naming an unknown id is still refused (4.1: "Authenticates a user through a platform-issued JWT", payload "email (string, user e-mail)"; errors 403 "wrong credentials" and 412 "JWT payload invalid": a trusted platform’s signed e-mail is neither wrong nor invalid, and nothing says that a JWT may only name an existing user; the suite already leaves open which of 403 or 412 a JWT naming nobody gets)',
    jwtUnknownEmailProvisionsUser(),
    only('authentication'),
  ),
  // A5 (suites/banks.test.ts 'returns only the banks of the currency given in the currency filter', after review-ao F3:
  // "a record showing EUR that currency=EUR does not list still fails"; review-y's status reading, for the currency).
  reading(
    'allowed-review-ap-bank-currency-shown-upper-filter-takes-stored-lower',
    'banks',
    '4.10',
    'a bank’s currency is stored lower-case (eur, as Stripe keeps currencies) and shown upper-case (EUR, ISO 4217’s writing, by the serializer); the currency filter compares the stored value case-sensitively, so currency=eur lists the EUR banks and currency=EUR lists none: review-y’s reading of the status filter (allowed-review-y-bank-status-filter-takes-stored-lower-case) for the currency (4.10: "currency ... all optional filters, strings"; how a filter compares and in which case it takes a value is not said; 2.4: "currency | string | ISO currency code")',
    {
      request(request) {
        if (request.method !== 'GET' || routeOf(request) !== BANKS) return;
        const query = (request.query ?? {}) as Record<string, unknown>;
        if (typeof query.currency !== 'string' || !/[A-Za-z]/.test(query.currency)) return;
        // The reference compares with the shown (upper-case) code: a lower-case value is the stored one, any other matches nothing stored.
        query.currency = query.currency === query.currency.toLowerCase() ? query.currency.toUpperCase() : `not-stored-${query.currency}`;
      },
    },
    only('banks'),
  ),
  // A4 (suites/authentication.test.ts invalidPayloads 'without email or id' (412 only) and 'that is empty' (412 or 416)).
  reading(
    'allowed-review-ap-jwt-without-claim-names-nobody',
    'authentication',
    '4.1',
    'a validly signed JWT whose payload has neither email nor id is looked up all the same and names nobody: wrong credentials (403 { error }), the answer a JWT naming no known user gets (4.1: "JWT payload: one of email (string, user e-mail) or id (string, user ID)"; "Errors: ... 403 (wrong credentials) ... 412 (JWT payload invalid)": a payload that both lacks its claim and names no user breaks two rules, and no precedence is given, as for a number claim read as text, allowed-jwt-number-claim-read-as-text, and a JWT naming no known user, 403 or 412)',
    jwtWithoutClaimNamesNobody(),
    only('authentication'),
  ),
  // A1 (helpers/arrange/invariants.ts roundTripChecks 'shows each listed record with the fields the list gives it',
  // masksOfOwn: isMasked requires an asterisk and a character that is not one).
  reading(
    'allowed-review-ap-bonus-show-masks-anti-phishing-wholly',
    'bonuses',
    '2.6',
    'the bonus show masks its user\u2019s anti-phishing code wholly (every character an asterisk, nothing shown), where the list keeps its first two characters: each the code "masked" (2.6: "options.guard | object: antiPhishing (string, masked)": how much a mask shows is not given, nor that every read shows the same; docs/judging.md: "this holds under every way of masking (... nothing shown)")',
    bonusShowMasksAntiPhishing((code) => '*'.repeat(Math.max(6, code.length))),
    only('bonuses'),
  ),
  // A2 (same check: a code masked with another character than the asterisk, which review-af F1 ruled open).
  reading(
    'allowed-review-ap-bonus-show-masks-anti-phishing-with-bullets',
    'bonuses',
    '2.6',
    'the bonus show masks its user\u2019s anti-phishing code with bullets (ab\u2022\u2022\u2022\u2022, the show\u2019s full resource rendered by another helper), where the list keeps the asterisk mask (ab****): 2.6 names asterisks for the e-mail alone ("antiPhishing (string, masked)"; docs/judging.md, review-af F1: "a code masked with another character is advised on, never failed"), and says neither which characters a mask keeps nor that every read keeps the same ones (review-ao F5)',
    bonusShowMasksAntiPhishing((code) => keptTwo(code, '\u2022')),
    only('bonuses'),
  ),
  // A3 (same check: maskedOwn compares every bonus's user e-mail with the path user's address, whoever the bonus's user is).
  reading(
    'allowed-review-ap-bonus-friend-email-masked-otherwise-on-show',
    'bonuses',
    '2.6',
    'two allowed readings together: the user inside a bonus is the referred friend whose order earned it (allowed-r15-bonus-user-is-referred-friend; 2.5a: "user | object | User object (2.6)", whose user not given), and the show masks that user\u2019s e-mail with another mask than the list (allowed-review-ao-bonus-show-masks-email-otherwise; 2.6: "partially replaced with asterisks", which characters not given): the list shows fr****xx@e*****e.com, the show f*****@e*****e.com, two masks of the friend\u2019s one address',
    friendEmailMaskedOtherwiseOnShow(),
    only('bonuses'),
  ),
];

/** Deviations under every reading, written to see whether review-ao's fixes let them through: the suite must kill each. */
/**
 * The probes the lead ruled deviations (registered as such; the suite kills each):
 * - A4: a payload without email or id is invalid under every reading (4.1: "one of email ... or id"), and no reading
 *   makes it name anyone: 412 is its one answer. The 403 allowed for a claim that is no string is another matter: a
 *   coercing parser reads the number as a text that names nobody, a payload valid under that reading.
 * - A6: 4.1 "Authenticates a user": the e-mail a platform's JWT names is a user's ("email (string, user e-mail)"), and
 *   403 is "wrong credentials"; both presuppose an account that exists, and the interface documents no account creation
 *   anywhere (review-aq agreed on this reason, not on a second one about round wb21's prefix lookup, which a fresh
 *   userId would tell apart).
 */
const RULED_DEVIATIONS = new Set(['allowed-review-ap-jwt-without-claim-names-nobody', 'allowed-review-ap-jwt-unknown-email-provisions-user']);

/** The probes of review-ap that stay readings (registered in index.ts): each must stay conformant. */
export const probesReviewApMutants: Mutant[] = written.filter((mutant) => !RULED_DEVIATIONS.has(mutant.name));

export const probesReviewApDeviations: Mutant[] = [
  ...judgedDeviations(
    written.filter((mutant) => RULED_DEVIATIONS.has(mutant.name)),
    ': the lead\u2019s ruling on review-ap (A4: a payload without email or id is invalid under every reading, 412; A6: 4.1 authenticates a user, it creates none)',
  ),
  {
    name: 'review-ap-bonus-refusal-carries-path-users-anti-phishing',
    // Cited as the refusals it rewrites are (4.11, "another user's id"): the security finding fails those tests.
    clause: '4.11',
    group: 'bonuses',
    description: 'sections 2.6 and 5.6 (security: a user\u2019s anti-phishing code, "masked" even in its own bonus, shown to another user): the 403 or 409 that refuses another user\u2019s request for a user\u2019s bonuses or bonus summary carries the path user\u2019s profile (an extra member owner) with its anti-phishing code in clear (review-ap, the boundary of review-ao F2: answersOwner takes an answer whose path names the owner as an answer to the owner, whoever sent it)',
    mutation: refusalCarriesPathUsersAntiPhishing(),
  },
];
