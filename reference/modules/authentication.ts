import { randomBytes, randomUUID, scryptSync, timingSafeEqual, createPublicKey } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en'; // only the locale used: the package root loads every locale (about 35 MB per thread)
import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { generateSecret, verifySync } from 'otplib';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedRequest, ReferenceContext, ReferenceModule, UserRow } from '../context.js';
import { StateNotAllowed } from '../context.js';
import { ERRORS, fail } from '../errors.js';
import { platformIdentity } from '../platforms.js';
import { TOKEN_TTL_SECONDS, destroyToken, issueToken, isoMicros } from '../tokens.js';
import { refuseUnknownMembers, rules, validate } from '../validation.js';

/**
 * Sections 4.1, 4.2, 4.5 and 5: authentication with e-mail and password (optional TOTP 2FA), with a
 * platform-signed RS512 JWT, and logout.
 *
 * Brute-force restriction (section 5.5, 425): after BRUTE_FORCE_THRESHOLD failed logins for one
 * e-mail within BRUTE_FORCE_WINDOW_SECONDS, login for that e-mail is refused for
 * BRUTE_FORCE_RESTRICTION_SECONDS, whatever the credentials.
 */
export const BRUTE_FORCE_THRESHOLD = 5;

/** White-box round wb3, a mutant's deviation only: JWT-issued tokens logged out, kept apart from the tokens table. */
const revokedJwtTokens = new WeakMap<object, Set<number>>();
export const BRUTE_FORCE_WINDOW_SECONDS = 900;
export const BRUTE_FORCE_RESTRICTION_SECONDS = 900;

/** Provider state `user.short-session`: the lifetime of that account's sessions, short enough for a test to outwait (sections 2.1, 5.2). */
export const SHORT_SESSION_TTL_SECONDS = 4;

/** The platform every account belongs to unless a JWT platform is created for it. */
export const DEFAULT_PLATFORM = { id: '00000000-0000-4000-8000-000000000001', code: 'REF', name: 'Reference Exchange', url: 'https://exchange.reference.test', color_code: '#1f6feb' };

const DDL = `
CREATE TABLE IF NOT EXISTS platforms (
  id TEXT PRIMARY KEY,
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  color_code TEXT NOT NULL,
  public_key TEXT
);
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1,
  locked INTEGER NOT NULL DEFAULT 0,
  totp_secret TEXT,
  anti_phishing TEXT NOT NULL,
  language TEXT NOT NULL DEFAULT 'en',
  platform_id TEXT NOT NULL REFERENCES platforms(id),
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS short_sessions (
  user_id TEXT PRIMARY KEY REFERENCES users(id),
  ttl INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS login_failures (
  email TEXT PRIMARY KEY COLLATE NOCASE,
  count INTEGER NOT NULL,
  first_ms INTEGER NOT NULL,
  restricted_until_ms INTEGER
);
INSERT OR IGNORE INTO platforms (id, code, name, url, color_code) VALUES
  ('${DEFAULT_PLATFORM.id}', '${DEFAULT_PLATFORM.code}', '${DEFAULT_PLATFORM.name}', '${DEFAULT_PLATFORM.url}', '${DEFAULT_PLATFORM.color_code}');
`;

// scrypt with a low cost: a reference for tests, not a password store for people (the cost is not observable through the interface).
// The cost is stored with each hash (`salt:hash:N`); a hash of two parts, written by an earlier reference into a
// --db file, was made at N=1024 and is still checked at that cost.
const SCRYPT = { N: 64, r: 8, p: 1 } as const;
const EARLIER_SCRYPT_N = 1024;

/**
 * scrypt of a password with a salt, remembered for this process: the same password and salt give the
 * same hash, so a login with the password a user was just given (the common case in a run: one hash
 * when the user is created, none at each login) costs no second scrypt. A wrong password is hashed as
 * ever, and the check still compares a hash of the candidate with the stored one. Bounded: the oldest
 * entries go first.
 */
const SCRYPT_MEMO_SIZE = 4096;
const scryptMemo = new Map<string, Buffer>();

function scryptOf(password: string, saltHex: string, N: number = SCRYPT.N): Buffer {
  const key = `${N}:${saltHex}:${password}`;
  const known = scryptMemo.get(key);
  if (known) return known;
  const hash = scryptSync(password, Buffer.from(saltHex, 'hex'), 32, { ...SCRYPT, N });
  if (scryptMemo.size >= SCRYPT_MEMO_SIZE) scryptMemo.delete(scryptMemo.keys().next().value!);
  scryptMemo.set(key, hash);
  return hash;
}

export function hashPassword(password: string): string {
  const salt = randomBytes(16).toString('hex');
  return `${salt}:${scryptOf(password, salt).toString('hex')}:${SCRYPT.N}`;
}

export function passwordMatches(password: string, stored: string): boolean {
  const [salt, hash, cost] = stored.split(':');
  if (!salt || !hash) return false;
  const N = cost === undefined ? EARLIER_SCRYPT_N : Number(cost);
  if (!Number.isInteger(N) || N < 2 || (N & (N - 1)) !== 0) return false;
  const expected = Buffer.from(hash, 'hex');
  const candidate = scryptOf(password, salt, N);
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

export function findUserByEmail(ctx: ReferenceContext, email: string): UserRow | undefined {
  // Allowed reading (reading round 2): addresses compared exactly as stored, as a case-sensitive column compares them (RFC 5321 2.4: the local part may be case-sensitive).
  if (ctx.deviates('r2.email-case-sensitive')) return ctx.db.prepare('SELECT * FROM users WHERE email = ? COLLATE BINARY').get(email) as UserRow | undefined;
  return ctx.db.prepare('SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined;
}

function randomPassword(): string {
  return `Pw-${randomBytes(12).toString('base64url')}`;
}

/** An address of exactly `length` characters (local part at most 64, labels at most 63), unique by `id`. */
function emailOfLength(id: string, length: number): string {
  const tld = 'example.test';
  const labels = Math.max(0, Math.ceil((length - 1 - tld.length - 64) / 63));
  const domain = `${`${'d'.repeat(62)}.`.repeat(labels)}${tld}`;
  const local = `user.${id.slice(0, 8)}`.padEnd(length - 1 - domain.length, 'x');
  if (local.length > 64 || local.length < 13) throw new StateNotAllowed(`state user: cannot build an e-mail of ${length} characters`);
  return `${local}@${domain}`;
}

/**
 * Creates an active account (provider state `user`) and answers its id, e-mail and password.
 * `emailLength` (provider-state param, 20 to 255): the address has exactly that many characters.
 */
export function createUser(ctx: ReferenceContext, options: { twoFactor?: boolean; platformId?: string; emailLength?: number; emailTag?: boolean } = {}) {
  const id = randomUUID();
  // `emailTag` (provider-state param, added later): the local part carries a + tag (RFC 5233 subaddress, name+tag@domain).
  const tag = options.emailTag ? `+tag${id.slice(9, 13)}` : '';
  const email = options.emailLength
    ? emailOfLength(id, options.emailLength)
    : `${faker.internet.username().replace(/[^A-Za-z0-9._-]/g, '').slice(0, 20) || 'user'}.${id.slice(0, 8)}${tag}@example.test`.toLowerCase();
  const password = randomPassword();
  // Allowed reading (reading round 9): a 128-bit TOTP secret, answered in base32 with its `=` padding (RFC 4648 6).
  const totpSecret = options.twoFactor ? (ctx.deviates('r9.totp-secret-padded') ? base32(randomBytes(16)) : generateSecret()) : null;
  ctx.db
    .prepare('INSERT INTO users (id, email, password_hash, totp_secret, anti_phishing, language, platform_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(id, email, hashPassword(password), totpSecret, randomBytes(6).toString('hex'), 'en', options.platformId ?? DEFAULT_PLATFORM.id, Math.floor(ctx.now() / 1000));
  const shownSecret = totpSecret && ctx.deviates('r9.totp-secret-padded') ? totpSecret.padEnd(Math.ceil(totpSecret.length / 8) * 8, '=') : totpSecret;
  return { id, email, password, ...(shownSecret ? { totpSecret: shownSecret } : {}) };
}

/** RFC 4648 base32 without padding (a TOTP secret's writing; readings that issue their own secrets use it too). */
export function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** Section 2.1: a Session for `user`, with a fresh access token (also the one a reset that signs the user in answers, under a mutant's allowed reading). */
export function sessionOf(ctx: ReferenceContext, user: UserRow, kind: 'password' | 'jwt') {
  const short = ctx.db.prepare('SELECT ttl FROM short_sessions WHERE user_id = ?').get(user.id) as { ttl: number } | undefined;
  // Allowed reading (reading round 2): a session lives a year by default, as Passport's personal tokens do (8: lifetime given per session by `ttl`).
  const ttl = short?.ttl ?? (ctx.deviates('r2.session-year-ttl') ? 31_536_000 : TOKEN_TTL_SECONDS);
  // Deviation of a mutant only: the token lives half the ttl the Session states.
  // Allowed reading (reading round 2): a secret of 80 characters rather than 40 (2.1 gives only the form `<numeric_id>|<secret>`).
  const issued = issueToken(ctx.db, user.id, kind, ctx.now(), ttl, ctx.deviates('tokens.expire-before-until') ? ttl * 500 : ttl * 1000, ctx.deviates('r2.token-long-secret') ? 80 : 40);
  // Section 2.1: the token lives `ttl` seconds, so `until` = `created` + `ttl`.
  const untilMs = issued.createdMs + issued.ttl * 1000;
  const data = { id: issued.token, userId: user.id, ttl: issued.ttl, until: isoMicros(untilMs), created: isoMicros(issued.createdMs) };
  // Allowed reading (a mutant that must survive): the Session also issues refresh tokens (extra members), one
  // in the access token's own form, one shaped like a JWT, one in base64: credentials of the caller, no leak.
  if (ctx.deviates('login.session-refresh-tokens')) {
    const refresh = {
      refreshToken: `${Number(issued.token.split('|')[0]) + 1_000_000}|${randomBytes(30).toString('base64url').replace(/[-_]/g, 'r')}`,
      idToken: `${Buffer.from('{"alg":"RS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.id, iat: Math.floor(issued.createdMs / 1000) })).toString('base64url')}.${randomBytes(64).toString('base64url')}`,
      remember_token: randomBytes(32).toString('base64'),
    };
    return { data: { ...data, ...refresh } };
  }
  // Deviation of a mutant only: the answer carries the account's TOTP secret inside an otpauth URI.
  if (ctx.deviates('login.session-leaks-totp-secret') && user.totp_secret) return { data: { ...data, otpauth: `otpauth://totp/Reference:${user.email}?secret=${user.totp_secret}` } };
  return { data };
}

/** Section 5.5 (425): the restriction that repeated failures put on an e-mail, in whole seconds left. */
function restrictionSecondsLeft(ctx: ReferenceContext, email: string): number {
  const row = ctx.db.prepare('SELECT restricted_until_ms FROM login_failures WHERE email = ?').get(email) as { restricted_until_ms: number | null } | undefined;
  const left = (row?.restricted_until_ms ?? 0) - ctx.now();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** Section 8: the failed logins after which the login is restricted; 3 under the allowed reading r7.brute-force-threshold-three. */
function bruteForceThreshold(ctx: ReferenceContext): number {
  if (ctx.deviates('r9.brute-force-after-one')) return 1;
  return ctx.deviates('r7.brute-force-threshold-three') ? 3 : BRUTE_FORCE_THRESHOLD;
}

/** Sections 4.2 to 4.4: the e-mail rule; the WHATWG (HTML, Ruby's URI::MailTo) valid e-mail address under the allowed reading r7.email-whatwg. */
export function emailRule(ctx: ReferenceContext) {
  return ctx.deviates('r7.email-whatwg') ? rules.regex(WHATWG_EMAIL, 'The :attribute field must be a valid email address.') : rules.email;
}
const WHATWG_EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

function recordFailure(ctx: ReferenceContext, email: string): void {
  if (ctx.deviates('login.failures-uncounted')) return;
  const now = ctx.now();
  const row = ctx.db.prepare('SELECT count, first_ms FROM login_failures WHERE email = ?').get(email) as { count: number; first_ms: number } | undefined;
  const fresh = !row || now - row.first_ms > BRUTE_FORCE_WINDOW_SECONDS * 1000;
  const count = fresh ? 1 : row.count + 1;
  const restrictedUntil = count >= bruteForceThreshold(ctx) ? now + BRUTE_FORCE_RESTRICTION_SECONDS * 1000 : null;
  // Allowed reading (reading round 7): the restriction also ends every session the account has (a suspected compromise).
  if (restrictedUntil !== null && ctx.deviates('r7.restriction-ends-sessions')) ctx.db.prepare('DELETE FROM access_tokens WHERE user_id IN (SELECT id FROM users WHERE email = ?)').run(email);
  ctx.db
    .prepare('INSERT INTO login_failures (email, count, first_ms, restricted_until_ms) VALUES (?, ?, ?, ?) ON CONFLICT(email) DO UPDATE SET count = excluded.count, first_ms = excluded.first_ms, restricted_until_ms = excluded.restricted_until_ms')
    .run(email, count, fresh ? now : row.first_ms, restrictedUntil);
}

function clearFailures(ctx: ReferenceContext, email: string): void {
  ctx.db.prepare('DELETE FROM login_failures WHERE email = ?').run(email);
}

/**
 * Section 4.2: the password as sent, compared exactly. Deviations of mutants: a password compared without regard to
 * case, or not checked at all once a valid 2FA code came with it; allowed readings (mutants that must survive): outer
 * whitespace trimmed, and only the first 72 bytes compared (bcrypt).
 */
function passwordAccepted(ctx: ReferenceContext, user: UserRow, body: Record<string, unknown>): boolean {
  let password = String(body.password);
  // Allowed reading (reading round 8): the password compared in Unicode NFKC (NIST SP 800-63B 5.1.1.2), as it is stored.
  if (ctx.deviates('r8.password-nfkc')) password = password.normalize('NFKC');
  if (ctx.deviates('login.password-trimmed')) password = password.trim();
  if (ctx.deviates('login.password-72-byte-prefix')) password = Buffer.from(password, 'utf8').subarray(0, 72).toString('utf8');
  if (passwordMatches(password, user.password_hash)) return true;
  // White-box round wb7, deviation of a mutant only: an account with 2FA has its password compared without letter case (the code is taken as the strong factor).
  if (ctx.deviates('login.password-case-insensitive') || (ctx.deviates('wb7.login-2fa-password-case-insensitive') && user.totp_secret)) {
    const swapped = [...password].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    if ([swapped, password.toLowerCase(), password.toUpperCase()].some((variant) => passwordMatches(variant, user.password_hash))) return true;
  }
  if (ctx.deviates('login.2fa-replaces-password') && user.totp_secret && typeof body['2fa'] === 'string' && totpValid(ctx, user.totp_secret, body['2fa'])) return true;
  return false;
}

/** Section 4.2: RFC 6238 (SHA-1, 30 s, 6 digits), one time step of tolerance either side. */
function totpValid(ctx: ReferenceContext, secret: string, code: string): boolean {
  if (!/^[0-9]{6}$/.test(code)) return false;
  try {
    // Allowed reading (reading round 5): two time steps of tolerance either side, as a wider verifier window allows.
    return verifySync({ secret, token: code, epoch: Math.floor(ctx.now() / 1000), epochTolerance: ctx.deviates('r5.totp-window-two-steps') ? 60 : 30 }).valid;
  } catch {
    return false;
  }
}

/** Section 5.5: the account checks shared by both login flows, after the credentials are known good. */
function assertMayLogIn(ctx: ReferenceContext, user: UserRow): void {
  // White-box round wb7, deviation of a mutant only: the account-state checks live in the password-only branch; an account with 2FA skips the lock check.
  // Deviation of a mutant only (review of fix-wb7a): an account with 2FA skips the active check.
  if (user.totp_secret && ctx.deviates('login.2fa-inactive-allowed')) {
    if (user.locked && !ctx.deviates('login.locked-allowed')) fail(ERRORS.locked());
    return;
  }
  if (user.totp_secret && ctx.deviates('wb7.login-2fa-account-lock-unchecked')) {
    if (!user.is_active && !ctx.deviates('login.inactive-allowed')) fail(ERRORS.loginInactive());
    return;
  }
  if (user.locked && !ctx.deviates('login.locked-allowed')) fail(ERRORS.locked());
  if (!user.is_active && !ctx.deviates('login.inactive-allowed')) fail(ERRORS.loginInactive());
}

/**
 * Allowed reading of a mutant only (login.failures-per-address): failed logins counted per client address, whatever
 * the account (section 8 does not say whose failures count). ADDRESS_THRESHOLD failures within ADDRESS_WINDOW_MS from
 * one address restrict every login from it for the rest of that window.
 */
const ADDRESS_THRESHOLD = 10;
const ADDRESS_WINDOW_MS = 600_000;
const failuresByAddress = new WeakMap<ReferenceContext, Map<string, number[]>>();

function addressFailures(ctx: ReferenceContext, address: string): number[] {
  let byAddress = failuresByAddress.get(ctx);
  if (!byAddress) failuresByAddress.set(ctx, (byAddress = new Map()));
  const recent = (byAddress.get(address) ?? []).filter((at) => ctx.now() - at < ADDRESS_WINDOW_MS);
  byAddress.set(address, recent);
  return recent;
}

function restrictAddress(ctx: ReferenceContext, request: FastifyRequest): void {
  if (!ctx.deviates('login.failures-per-address')) return;
  const recent = addressFailures(ctx, request.ip);
  if (recent.length >= ADDRESS_THRESHOLD) fail(ERRORS.throttled(Math.ceil((recent[0]! + ADDRESS_WINDOW_MS - ctx.now()) / 1000)));
}

function recordAddressFailure(ctx: ReferenceContext, request: FastifyRequest): void {
  if (ctx.deviates('login.failures-per-address')) addressFailures(ctx, request.ip).push(ctx.now());
}

function restrict(ctx: ReferenceContext, email: string): void {
  const left = restrictionSecondsLeft(ctx, email);
  if (left > 0 && !ctx.deviates('login.throttle-ignored')) fail(ERRORS.throttled(left));
}

/** Deviations of the mutants only: ways a careless implementation lets a forged JWT through. */
async function forgedPayload(ctx: ReferenceContext, jwt: string, publicKey: string | null): Promise<Record<string, unknown> | undefined> {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(jwt).alg;
  } catch {
    return undefined;
  }
  if (ctx.deviates('jwt.alg-none-accepted') && alg === 'none') return decodeJwt(jwt) as Record<string, unknown>;
  if (ctx.deviates('jwt.rs256-accepted') && alg === 'RS256' && publicKey) {
    const { payload } = await jwtVerify(jwt, await importSPKI(publicKey, 'RS256'), { algorithms: ['RS256'] });
    return payload as Record<string, unknown>;
  }
  if (ctx.deviates('jwt.hmac-public-key-accepted') && typeof alg === 'string' && alg.startsWith('HS') && publicKey) {
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(publicKey), { algorithms: ['HS256', 'HS384', 'HS512'] });
    return payload as Record<string, unknown>;
  }
  return undefined;
}

async function verifyWithKey(ctx: ReferenceContext, jwt: string, publicKey: string): Promise<Record<string, unknown>> {
  const forged = await forgedPayload(ctx, jwt, publicKey).catch(() => undefined);
  if (forged) return forged;
  const key = await importSPKI(publicKey, 'RS512');
  // Section 4.1: signed with RS512 by the platform's key; `none`, HMAC and other keys never authenticate.
  if (ctx.deviates('jwt.signature-unchecked')) return decodeJwt(jwt) as Record<string, unknown>;
  const { payload } = await jwtVerify(jwt, key, { algorithms: ['RS512'] });
  return payload as Record<string, unknown>;
}

/** Section 4.1: the JWT must be verified with the key of the platform named in the path; anything else is 403. */
async function verifyPlatformJwt(ctx: ReferenceContext, platformId: string, jwt: string | undefined): Promise<Record<string, unknown>> {
  if (!jwt) fail(ERRORS.wrongCredentials());
  const platform = ctx.db.prepare('SELECT public_key FROM platforms WHERE id = ?').get(platformId) as { public_key: string | null } | undefined;
  // Allowed reading (reading round 9): the path's platform is bound to its record first, so an unknown one is 404 (route-model binding).
  if (!platform && platformId !== '' && ctx.deviates('r9.jwt-unknown-platform-404')) fail(ERRORS.notFound('App\\Models\\Platform', platformId));
  // Deviation of a mutant only: a path without the platform segment takes any registered platform's key.
  const anyKey = ctx.deviates('jwt.any-platform-key') || (platformId === '' && ctx.deviates('jwt.platform-segment-optional'));
  const keys = platform?.public_key
    ? ctx.deviates('jwt.other-platform-key-accepted')
      ? (ctx.db.prepare('SELECT public_key FROM platforms WHERE public_key IS NOT NULL').all() as { public_key: string }[]).map((row) => row.public_key)
      : [platform.public_key]
    : anyKey
      ? (ctx.db.prepare('SELECT public_key FROM platforms WHERE public_key IS NOT NULL').all() as { public_key: string }[]).map((row) => row.public_key)
      : [];
  for (const key of keys) {
    try {
      return await verifyWithKey(ctx, jwt, key);
    } catch {
      // not this key: try the next one (only the any-platform-key mutant has several)
    }
  }
  // Allowed reading (a mutant that must survive): a signature the platform's key does not verify is answered as a payload invalid.
  if (keys.length > 0 && ctx.deviates('jwt.bad-signature-answers-412')) fail(ERRORS.jwtInvalid());
  fail(ERRORS.wrongCredentials());
}

/** Section 4.1: `expire` is a timestamp (Unix seconds); an integer-valued numeric string is accepted as one. */
function expireSeconds(expire: unknown, ctx?: ReferenceContext): number | undefined {
  const iso = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)) ? Math.floor(Date.parse(value) / 1000) : undefined);
  // Allowed reading (a mutant that must survive; review of issue 28): `expire` is a timestamp written as an ISO 8601
  // string only, as 2.1 calls the ISO 8601 `until` a timestamp; a number is no timestamp there (412).
  // Deviation of a mutant only: the same reading with the expiry unchecked (shows the 416 check judged in the ISO form).
  if (ctx?.deviates('jwt.expire-iso-string-only') || ctx?.deviates('jwt.expire-iso-string-only-expiry-ignored')) return iso(expire);
  if (typeof expire === 'number' && Number.isFinite(expire)) return expire;
  // Allowed reading (reading round 8): a timestamp is a JSON number; a string of digits is none (412).
  if (ctx?.deviates('r8.jwt-expire-number-only')) return undefined;
  if (typeof expire === 'string' && /^[0-9]+$/.test(expire)) return Number(expire);
  // Allowed reading (reading round 5): an ISO 8601 date-time with its offset is a timestamp too.
  if (ctx?.deviates('r5.jwt-expire-iso-8601')) return iso(expire);
  return undefined;
}

export const authentication: ReferenceModule = {
  name: 'authentication',
  ddl: DDL,
  deviations: [
    // Allowed readings (reading round 9).
    'r9.totp-secret-padded',
    'r9.brute-force-after-one',
    'r9.short-session-two-seconds',
    'r9.short-session-five-seconds',
    'r9.platform-ids-numeric',
    'r9.platform-codes-slugs',
    'r9.jwt-unknown-platform-404',
    // Allowed readings (reading round 8).
    'r8.password-nfkc',
    'r8.jwt-expire-number-only',
    'r8.account-state-before-validation',
    'r8.jwt-id-any-case',
    // Allowed readings (reading round 7).
    'r7.email-whatwg',
    'r7.jwt-user-before-expiry',
    'r7.jwt-platform-own-users',
    // The provider-state hook of an older contract: it ignores the param platformId of the account states (the account
    // is not of that platform, and the data names none), as a hook written before the param was added.
    'contract.hook-ignores-platform-id',
    // A provider-state hook written before the param emailTag of state user (added later): its addresses carry no + tag.
    'contract.hook-ignores-email-tag',
    'r7.restriction-ends-sessions',
    'r7.brute-force-threshold-three',
    'r7.jwt-failures-counted',
    // A request body without Content-Type, or labelled text/plain, read as JSON (a hook this module adds for every route).
    'r7.body-json-any-content-type',
    // Also honoured by the password and banks modules: a body member the specification does not name is refused 422.
    'r7.unknown-body-members-refused',
    // White-box round wb1.
    'wb1.login-2fa-null-skipped',
    'wb1.jwt-email-claim-expired-412',
    'wb1.logout-destroys-newest-token',
    // White-box round wb3.
    'wb3.login-2fa-digits-unchecked-for-2fa-accounts',
    'wb3.logout-destroys-all-user-tokens',
    'wb3.jwt-logout-revoked-on-logout-only',
    // Reading round 2, allowed readings.
    'r2.email-case-sensitive',
    'r2.session-year-ttl',
    'r2.token-long-secret',
    // Allowed reading (a mutant that must survive): the Session also issues refresh tokens.
    'login.session-refresh-tokens',
    'login.locked-allowed',
    'login.inactive-allowed',
    'login.throttle-ignored',
    'login.2fa-ignored',
    'login.unknown-email-422',
    'login.unknown-email-404',
    'authenticate.email-max-unenforced',
    'authenticate.password-min-unenforced',
    'authenticate.2fa-digits-unenforced',
    'jwt.signature-unchecked',
    'jwt.alg-none-accepted',
    'jwt.hmac-public-key-accepted',
    'jwt.any-platform-key',
    'jwt.id-unsupported',
    'jwt.expiry-ignored',
    'jwt.payload-unchecked',
    'logout.keeps-password-token',
    'logout.keeps-jwt-token',
    'tokens.expiry-ignored',
    'jwt.other-platform-key-accepted',
    'jwt.rs256-accepted',
    'jwt.expire-iso-string-only',
    'jwt.expire-iso-string-only-expiry-ignored',
    'login.failures-uncounted',
    // Issue 28, allowed reading: failed logins counted per client address, any account (10 in 10 minutes).
    'login.failures-per-address',
    'login.session-leaks-totp-secret',
    'jwt.conflicting-claims-third-user',
    'jwt.conflicting-claims-split-session',
    // Issue 19: the short session, the path's platform, expire's type.
    'tokens.expire-before-until',
    'jwt.platform-segment-optional',
    'jwt.expire-type-unchecked',
    // Issue 27: exactness of credentials, one claim form's checks skipped.
    'login.password-case-insensitive',
    'login.2fa-replaces-password',
    'jwt.id-claim-expiry-unchecked',
    'jwt.email-claim-expiry-unchecked',
    'jwt.id-claim-expire-optional',
    'jwt.email-claim-inactive-allowed',
    'jwt.email-claim-locked-allowed',
    'jwt.id-claim-throttle-ignored',
    // White-box round wb6.
    'wb6.login-password-array-as-text',
    // White-box round wb10, deviations of mutants only.
    'wb10.login-email-array-as-text',
    'wb10.login-2fa-throttle-ignored',
    'wb10.login-2fa-code-as-number',
    // White-box round wb7.
    'wb7.login-2fa-password-case-insensitive',
    'wb7.login-2fa-account-lock-unchecked',
    // Review of fix-wb7a.
    'login.2fa-inactive-allowed',
    // Allowed readings (mutants that must survive).
    'login.password-trimmed',
    'login.password-72-byte-prefix',
    'login.2fa-spaces-removed',
    'jwt.bad-signature-answers-412',
    'jwt.expire-in-milliseconds',
    'login.malformed-answers-403',
    'authenticate.password-min-bytes',
    'authenticate.password-max-bytes',
    'jwt.number-claims-as-text',
    // Allowed readings of reading round 1 (mutants that must survive).
    'login.account-state-before-password',
    'login.success-keeps-failures',
    'jwt.password-failures-not-restricting',
    // Allowed readings of reading round 5 (mutants that must survive).
    'r5.2fa-refused-without-2fa',
    'r5.2fa-missing-422',
    'r5.totp-window-two-steps',
    'r5.throttle-before-validation',
    'r5.jwt-both-claims-412',
    'r5.jwt-expire-iso-8601',
    // Allowed readings of reading round 10.
    'r10.jwt-unknown-user-412',
  ],

  register(app, ctx) {
    // Allowed reading (reading round 7): a body without Content-Type, or labelled text/plain, is read as JSON (Express's
    // json({ type: () => true }), API Gateway's passthrough). Added before any route of any module.
    if (ctx.deviates('r7.body-json-any-content-type')) {
      app.addHook('onRequest', async (request) => {
        if (!request.url.startsWith('/api/') || ['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
        const type = request.headers['content-type'];
        if (type === undefined || /^text\/plain\b/i.test(type)) request.headers['content-type'] = 'application/json';
      });
    }
    // Section 4.2 (limits of section 8).
    app.post('/api/v1/authenticate', async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      // White-box round wb6, deviation of a mutant only: a password sent as a JSON array is read as the text of its items (a loosely typed input helper).
      if (ctx.deviates('wb6.login-password-array-as-text') && Array.isArray(body.password)) body.password = body.password.join(',');
      // White-box round wb10, deviation of a mutant only: an e-mail sent as a JSON array is read as its first item (a query builder's where() with an array).
      if (ctx.deviates('wb10.login-email-array-as-text') && Array.isArray(body.email)) body.email = body.email[0];
      // Allowed reading (a mutant that must survive): a missing or malformed e-mail, or a missing password, is wrong credentials.
      if (ctx.deviates('login.malformed-answers-403') && (typeof body.email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(body.email) || body.password === undefined)) fail(ERRORS.wrongCredentials());
      // Allowed reading (reading round 5): a restricted e-mail is answered 425 before its body is validated (a throttle middleware before the controller).
      if (ctx.deviates('r5.throttle-before-validation') && typeof body.email === 'string') restrict(ctx, body.email);
      if (ctx.deviates('r7.unknown-body-members-refused')) refuseUnknownMembers(body, ['email', 'password', '2fa']);
      // Allowed reading (reading round 8): the account named by the e-mail is looked up, and a locked or inactive one answered so, before the body is validated.
      if (ctx.deviates('r8.account-state-before-validation') && typeof body.email === 'string') {
        const named = findUserByEmail(ctx, body.email);
        if (named) assertMayLogIn(ctx, named);
      }
      validate(body, {
        email: [rules.required, rules.string, emailRule(ctx), ...(ctx.deviates('authenticate.email-max-unenforced') ? [] : [rules.max(191)])],
        password: [
          rules.required,
          rules.string,
          ...(ctx.deviates('authenticate.password-min-unenforced') ? [] : [rules.min(8, ctx.deviates('authenticate.password-min-bytes') ? 'utf8-bytes' : 'characters')]),
          rules.max(191, ctx.deviates('authenticate.password-max-bytes') ? 'utf8-bytes' : 'characters'),
        ],
        '2fa': [
          rules.nullable,
          rules.string,
          ...(ctx.deviates('authenticate.2fa-digits-unenforced') ||
          // White-box round wb3, deviation of a mutant only: the digits rule skipped for an account with 2FA (its code is checked as a credential instead).
          (ctx.deviates('wb3.login-2fa-digits-unchecked-for-2fa-accounts') && typeof body.email === 'string' && (findUserByEmail(ctx, body.email) as UserRow | undefined)?.totp_secret)
            ? []
            : ctx.deviates('login.2fa-spaces-removed')
              ? [rules.custom((value) => (typeof value === 'string' && /^[0-9]{6}$/.test(value.replace(/ /g, '')) ? undefined : 'The 2fa field must be 6 digits.'))]
              : [rules.digits(6)]),
        ],
      });
      const email = String(body.email);
      restrictAddress(ctx, request);
      // White-box round wb10, deviation of a mutant only: the accounts with 2FA log in through a route without the brute-force restriction.
      if (!(ctx.deviates('wb10.login-2fa-throttle-ignored') && findUserByEmail(ctx, email)?.totp_secret)) restrict(ctx, email);
      const user = findUserByEmail(ctx, email);
      if (!user && ctx.deviates('login.unknown-email-422')) fail(ERRORS.validation({ email: ['The selected email is invalid.'] }));
      if (!user && ctx.deviates('login.unknown-email-404')) fail(ERRORS.notFound('App\\Models\\User', email));
      // Allowed reading: the account's state (locked, inactive) is answered before the password is checked (no precedence is given).
      if (user && ctx.deviates('login.account-state-before-password')) assertMayLogIn(ctx, user);
      // Section 5.5: an unknown e-mail and a wrong password are the same answer, 403.
      if (!user || !passwordAccepted(ctx, user, body)) {
        recordFailure(ctx, email);
        recordAddressFailure(ctx, request);
        fail(ERRORS.wrongCredentials());
      }
      assertMayLogIn(ctx, user);
      // White-box round wb1, deviation of a mutant only: a 2fa sent as JSON null is taken as a code already checked.
      const nullSkips = ctx.deviates('wb1.login-2fa-null-skipped') && body['2fa'] === null;
      // Allowed reading (reading round 5): a code sent for an account without 2FA cannot be right: wrong credentials.
      if (!user.totp_secret && ctx.deviates('r5.2fa-refused-without-2fa') && typeof body['2fa'] === 'string' && body['2fa'] !== '') fail(ERRORS.wrongCredentials());
      // Allowed reading (reading round 5): an account with 2FA requires the field: its absence is a validation error.
      if (user.totp_secret && ctx.deviates('r5.2fa-missing-422') && (body['2fa'] === undefined || body['2fa'] === null || body['2fa'] === '')) fail(ERRORS.validation({ '2fa': ['The 2fa field is required for this account.'] }));
      if (user.totp_secret && !ctx.deviates('login.2fa-ignored') && !nullSkips) {
        // Section 4.2: the 2FA code is required for an account with 2FA; its absence or a wrong code are wrong credentials.
        const sent = typeof body['2fa'] === 'string' ? body['2fa'] : '';
        // Allowed reading (a mutant that must survive): spaces inside the code are removed before it is compared.
        // White-box round wb10, deviation of a mutant only: the code read as a number and written back (parseInt), so a code that
        // begins with 0 (one in ten) loses its leading zeros and never matches.
        const code = ctx.deviates('login.2fa-spaces-removed') ? sent.replace(/ /g, '') : ctx.deviates('wb10.login-2fa-code-as-number') && /^[0-9]+$/.test(sent) ? String(Number.parseInt(sent, 10)) : sent;
        if (!totpValid(ctx, user.totp_secret, code)) {
          recordFailure(ctx, email);
          recordAddressFailure(ctx, request);
          fail(ERRORS.wrongCredentials());
        }
      }
      // Allowed reading: a successful login does not clear the failures counted in the window (section 8 does not say it does).
      if (!ctx.deviates('login.success-keeps-failures')) clearFailures(ctx, email);
      return sessionOf(ctx, user, 'password');
    });

    // Section 4.1.
    const authenticateJwt = async (request: FastifyRequest) => {
      const { platform = '' } = (request.params ?? {}) as { platform?: string };
      restrictAddress(ctx, request);
      const header = request.headers.token;
      const payload = await verifyPlatformJwt(ctx, platform, Array.isArray(header) ? header[0] : header);
      // Allowed reading (reading round 5): "one of email or id" read as exactly one: a payload with both is invalid.
      if (ctx.deviates('r5.jwt-both-claims-412') && payload.email !== undefined && payload.id !== undefined) fail(ERRORS.jwtInvalid());
      // Allowed reading (a mutant that must survive): a number as `email` or `id` is read as its text, which names nobody (403).
      const asText = (claim: unknown) => (typeof claim === 'number' && ctx.deviates('jwt.number-claims-as-text') ? String(claim) : claim);
      const email = asText(payload.email);
      const id = ctx.deviates('jwt.id-unsupported') ? undefined : asText(payload.id);
      // Deviation of a mutant only: an `expire` that is no timestamp is taken as no limit at all.
      const raw = payload.expire !== undefined && expireSeconds(payload.expire, ctx) === undefined && ctx.deviates('jwt.expire-type-unchecked') ? Number.MAX_SAFE_INTEGER : expireSeconds(payload.expire, ctx);
      // Allowed reading (a mutant that must survive): section 4.1 gives `expire` no unit; read as milliseconds.
      const expire = raw !== undefined && ctx.deviates('jwt.expire-in-milliseconds') ? Math.floor(raw / 1000) : raw;
      // Section 4.1: the payload names the user by `email` or `id` (strings) and carries `expire`; otherwise 412.
      const identifies = (typeof email === 'string' && email !== '') || (typeof id === 'string' && id !== '');
      // Deviations of mutants only: the checks of one claim form (the user named by `id`, or by `email`) skipped.
      const byId = typeof id === 'string' && id !== '';
      const skips = (check: string) => ctx.deviates(`jwt.${byId ? 'id' : 'email'}-claim-${check}`);
      if ((!identifies || (expire === undefined && !skips('expire-optional'))) && !ctx.deviates('jwt.payload-unchecked')) fail(ERRORS.jwtInvalid());
      // Section 4.1: `expire` must be now or later (Unix seconds); otherwise 416.
      const checkExpiry = () => {
        if (expire !== undefined && expire < Math.floor(ctx.now() / 1000) && !ctx.deviates('jwt.expiry-ignored') && !ctx.deviates('jwt.expire-iso-string-only-expiry-ignored') && !skips('expiry-unchecked')) {
          // Allowed reading (reading round 7): an expired JWT naming an existing account counts as a failed login of that account.
          if (ctx.deviates('r7.jwt-failures-counted')) {
            const named = (byId ? ctx.db.prepare('SELECT * FROM users WHERE id = ?').get(id) : findUserByEmail(ctx, String(email))) as UserRow | undefined;
            if (named) recordFailure(ctx, named.email);
          }
          // White-box round wb1, deviation of a mutant only: an expired JWT naming its user by e-mail answers 412, not 416.
          if (!byId && ctx.deviates('wb1.jwt-email-claim-expired-412')) fail(ERRORS.jwtInvalid());
          fail(ERRORS.jwtExpired());
        }
      };
      // Allowed reading (reading round 7): the user and its account are checked before `expire` (no precedence is given).
      if (!ctx.deviates('r7.jwt-user-before-expiry')) checkExpiry();
      let user = (typeof id === 'string' && id !== ''
        ? // Allowed reading (reading round 8): the `id` claim compared as a UUID, letter case ignored.
          ctx.db.prepare(ctx.deviates('r8.jwt-id-any-case') ? 'SELECT * FROM users WHERE lower(id) = lower(?)' : 'SELECT * FROM users WHERE id = ?').get(id)
        : findUserByEmail(ctx, String(email))) as UserRow | undefined;
      if (ctx.deviates('jwt.conflicting-claims-third-user') && typeof id === 'string' && typeof email === 'string' && user && user.email.toLowerCase() !== email.toLowerCase()) {
        // Deviation of a mutant only: claims naming two users authenticate another active user of the platform.
        user = ctx.db.prepare('SELECT * FROM users u WHERE id != ? AND lower(email) != lower(?) AND is_active = 1 AND locked = 0 AND NOT EXISTS (SELECT 1 FROM login_failures f WHERE f.email = u.email) ORDER BY created_at LIMIT 1').get(id, email) as UserRow | undefined;
      }
      // Section 4.1 and 7: a payload naming no known user is wrong credentials (403).
      // Allowed reading (reading round 10): a signed payload naming nobody is an invalid payload (412), not wrong credentials.
      if (!user) fail(ctx.deviates('r10.jwt-unknown-user-412') ? ERRORS.jwtInvalid() : ERRORS.wrongCredentials());
      // Allowed reading (reading round 7): a platform vouches only for its own users; another platform's user is wrong credentials.
      if (ctx.deviates('r7.jwt-platform-own-users') && user.platform_id !== platform) fail(ERRORS.wrongCredentials());
      // Allowed reading: failed password logins restrict the password login only, not the platform's JWT login.
      if (!skips('throttle-ignored') && !ctx.deviates('jwt.password-failures-not-restricting')) restrict(ctx, user.email);
      if (user.locked && skips('locked-allowed')) user = { ...user, locked: 0 };
      if (!user.is_active && skips('inactive-allowed')) user = { ...user, is_active: 1 };
      assertMayLogIn(ctx, user);
      if (ctx.deviates('r7.jwt-user-before-expiry')) checkExpiry();
      const session = sessionOf(ctx, user, 'jwt');
      if (ctx.deviates('jwt.conflicting-claims-split-session') && typeof id === 'string' && typeof email === 'string' && user.email.toLowerCase() !== email.toLowerCase()) {
        // Deviation of a mutant only: the token is the id's user's, while the Session's userId names the e-mail's user.
        const byEmail = findUserByEmail(ctx, email) as UserRow | undefined;
        if (byEmail) session.data.userId = byEmail.id;
      }
      return session;
    };
    app.post('/api/v1/authenticate-jwt/:platform', authenticateJwt);
    // Deviation of a mutant only: the platform segment is optional (section 4.1: required).
    if (ctx.deviates('jwt.platform-segment-optional')) app.post('/api/v1/authenticate-jwt', authenticateJwt);

    // Section 4.5: destroys the token, for both kinds of authentication.
    app.post('/api/v1/user/logout', { preHandler: ctx.guards.authenticated }, async (request) => {
      const { tokenId } = request as AuthenticatedRequest;
      // A concurrent logout with the same token may have destroyed it since the guard ran.
      const row = ctx.db.prepare('SELECT kind FROM access_tokens WHERE id = ?').get(tokenId) as { kind: 'password' | 'jwt' } | undefined;
      if (!row) fail(ERRORS.unauthenticated());
      // White-box round wb3, deviation of a mutant only: a JWT-issued token is marked revoked, a mark only logout reads.
      if (row.kind === 'jwt' && ctx.deviates('wb3.jwt-logout-revoked-on-logout-only')) {
        const revoked = revokedJwtTokens.get(ctx.db) ?? new Set<number>();
        revokedJwtTokens.set(ctx.db, revoked);
        if (revoked.has(tokenId)) fail(ERRORS.unauthenticated());
        revoked.add(tokenId);
        return { status: 'success' };
      }
      // White-box round wb1, deviation of a mutant only: logout destroys the user's newest token, not the one it was sent.
      const newest = ctx.deviates('wb1.logout-destroys-newest-token') ? (ctx.db.prepare('SELECT id FROM access_tokens WHERE user_id = ? ORDER BY id DESC LIMIT 1').get((request as AuthenticatedRequest).user.id) as { id: number } | undefined) : undefined;
      if (!ctx.deviates(`logout.keeps-${row.kind}-token`)) destroyToken(ctx.db, newest?.id ?? tokenId);
      // White-box round wb3, deviation of a mutant only: logout destroys every token of the user, not only the one it was sent.
      if (ctx.deviates('wb3.logout-destroys-all-user-tokens')) ctx.db.prepare('DELETE FROM access_tokens WHERE user_id = ?').run((request as AuthenticatedRequest).user.id);
      return { status: 'success' };
    });
  },

  states(ctx) {
    // The param `platformId` (added later to the contract) of the account states: the account belongs to that platform
    // (one the state `platform` answered), and the data names it, so a platform that authenticates only its own users
    // (a reading of 4.1) can be judged. Without it the account belongs to the reference's own platform, as before.
    const onPlatform = (params: Record<string, unknown>): { platformId?: string } => {
      if (params.platformId === undefined || ctx.deviates('contract.hook-ignores-platform-id')) return {};
      if (typeof params.platformId !== 'string' || !ctx.db.prepare('SELECT 1 FROM platforms WHERE id = ?').get(params.platformId)) throw new StateNotAllowed('params.platformId must name a platform the state platform answered');
      return { platformId: params.platformId };
    };
    return {
      user: (params) => {
        const length = params.emailLength;
        const emailLength = typeof length === 'number' && Number.isInteger(length) && length >= 20 && length <= 255 ? length : undefined;
        const platform = onPlatform(params);
        return { ...createUser(ctx, { twoFactor: params.twoFactor === true, ...(emailLength ? { emailLength } : {}), ...(params.emailTag === true && !ctx.deviates('contract.hook-ignores-email-tag') ? { emailTag: true } : {}), ...platform }), ...platform };
      },
      // An active account whose logins issue sessions of SHORT_SESSION_TTL_SECONDS (sections 2.1 and 5.2).
      'user.short-session': (params) => {
        const platform = onPlatform(params);
        // Optional twoFactor (added later, round wb22, docs/provider-states.md): the account's login then needs a TOTP code as well.
        const user = { ...createUser(ctx, { ...platform, twoFactor: params.twoFactor === true }), ...platform };
        // Allowed readings (reading round 9): the bounds of "2 to 5 seconds" of docs/provider-states.md.
        const ttl = ctx.deviates('r9.short-session-two-seconds') ? 2 : ctx.deviates('r9.short-session-five-seconds') ? 5 : SHORT_SESSION_TTL_SECONDS;
        ctx.db.prepare('INSERT INTO short_sessions (user_id, ttl) VALUES (?, ?)').run(user.id, ttl);
        return user;
      },
      // A fresh active account and the number of failed logins after which its login is restricted (425, section 8).
      // Optional twoFactor (added later, docs/provider-states.md): the account's login then needs a TOTP code as well.
      'user.brute-force': (params) => ({ ...createUser(ctx, { twoFactor: params.twoFactor === true }), attempts: bruteForceThreshold(ctx) }),
      // An access token issued to an active account whose lifetime is over (sections 5.2 and 5.3).
      'user.expired-token': () => {
        const user = createUser(ctx);
        const issuedMs = ctx.now() - (TOKEN_TTL_SECONDS + 60) * 1000;
        const { token } = issueToken(ctx.db, user.id, 'password', issuedMs);
        return { ...user, token };
      },
      // user.inactive and user.locked take an optional twoFactor (added later, docs/provider-states.md): the account's login then needs a TOTP code as well.
      'user.inactive': (params) => {
        const platform = onPlatform(params);
        const user = createUser(ctx, { ...platform, twoFactor: params.twoFactor === true });
        const { token } = issueToken(ctx.db, user.id, 'password', ctx.now());
        ctx.db.prepare('UPDATE users SET is_active = 0 WHERE id = ?').run(user.id);
        return { id: user.id, email: user.email, password: user.password, token, ...(user.totpSecret ? { totpSecret: user.totpSecret } : {}), ...platform };
      },
      'user.locked': (params) => {
        const platform = onPlatform(params);
        const user = { ...createUser(ctx, { ...platform, twoFactor: params.twoFactor === true }), ...platform };
        ctx.db.prepare('UPDATE users SET locked = 1 WHERE id = ?').run(user.id);
        return user;
      },
      'user.throttled': (params) => {
        const platform = onPlatform(params);
        const user = { ...createUser(ctx, platform), ...platform };
        const now = ctx.now();
        ctx.db
          .prepare('INSERT OR REPLACE INTO login_failures (email, count, first_ms, restricted_until_ms) VALUES (?, ?, ?, ?)')
          .run(user.email, BRUTE_FORCE_THRESHOLD, now, now + BRUTE_FORCE_RESTRICTION_SECONDS * 1000);
        return user;
      },
      platform: (params) => {
        const publicKey = params.publicKey;
        if (typeof publicKey !== 'string') throw new StateNotAllowed('state platform needs params.publicKey (SPKI PEM)');
        try {
          createPublicKey(publicKey);
        } catch {
          throw new StateNotAllowed('state platform needs params.publicKey to be a public key (SPKI PEM)');
        }
        const { id, code, name } = platformIdentity(ctx, `${faker.company.name()} Platform`);
        const url = `https://${code.toLowerCase()}.platform.test`;
        ctx.db.prepare('INSERT INTO platforms (id, code, name, url, color_code, public_key) VALUES (?, ?, ?, ?, ?, ?)').run(id, code, name, url, faker.color.rgb(), publicKey);
        // Added later (issue 28, fix-aa3), optional in the contract: the code, name and url its records show as externalPlatform.
        return { id, code, name, url };
      },
    };
  },
};
