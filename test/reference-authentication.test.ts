import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT, base64url, exportSPKI, generateKeyPair, type CryptoKey } from 'jose';
import { generateSync } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STATES_PATH, buildReference, knownDeviations } from '../reference/app.js';
import { BRUTE_FORCE_RESTRICTION_SECONDS, BRUTE_FORCE_THRESHOLD, BRUTE_FORCE_WINDOW_SECONDS, SHORT_SESSION_TTL_SECONDS } from '../reference/modules/authentication.js';
import { authenticationMutants } from '../reference/mutants/authentication.js';
import { MUTANTS } from '../reference/mutants/index.js';
import type { Mutation } from '../reference/mutation.js';
import { TOKEN_TTL_SECONDS } from '../reference/tokens.js';
import { injectState } from './reference-inject.js';

/** The authentication part of the reference (sections 4.1, 4.2, 4.5, 5, 7, 8), through fastify's inject. */

const START_MS = Date.UTC(2026, 0, 15, 12, 0, 0, 500);
let clock = START_MS;
let app: FastifyInstance;
let keys: { privateKey: CryptoKey; publicKeyPem: string };
let platformId: string;

beforeAll(async () => {
  app = await buildReference({ states: true, now: () => clock });
  const pair = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
  keys = { privateKey: pair.privateKey, publicKeyPem: await exportSPKI(pair.publicKey) };
  platformId = (await state('platform', { publicKey: keys.publicKeyPem })).id;
});
afterAll(async () => {
  await app.close();
});
afterEach(() => {
  clock = START_MS;
});

const nowSeconds = () => Math.floor(clock / 1000);

const state = (name: string, params: Record<string, unknown> = {}) => injectState(app, name, params);

function login(body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/v1/authenticate', payload: body });
}

function jwtLogin(token: string | undefined, platform = platformId) {
  return app.inject({ method: 'POST', url: `/api/v1/authenticate-jwt/${platform}`, headers: token === undefined ? {} : { token } });
}

function logout(token?: string) {
  return app.inject({ method: 'POST', url: '/api/v1/user/logout', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
}

function sign(payload: Record<string, unknown>, key: CryptoKey = keys.privateKey) {
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS512', typ: 'JWT' }).sign(key);
}

const encode = (value: unknown) => base64url.encode(JSON.stringify(value));

function emailOfLength(length: number): string {
  const domain = `${'a'.repeat(62)}.${'b'.repeat(62)}.example.com`;
  return `${'u'.repeat(length - 1 - domain.length)}@${domain}`;
}

describe('POST /api/v1/authenticate (4.2)', () => {
  it('answers a Session whose until is created + ttl, in microseconds, UTC', async () => {
    const user = await state('user');
    const response = await login({ email: user.email, password: user.password });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data.id).toMatch(/^[0-9]+\|[A-Za-z0-9]{40}$/);
    expect(data.userId).toBe(user.id);
    expect(data.ttl).toBe(TOKEN_TTL_SECONDS);
    expect(data.created).toBe('2026-01-15T12:00:00.500000Z');
    expect(data.until).toBe(new Date(START_MS + TOKEN_TTL_SECONDS * 1000).toISOString().replace('Z', '000Z'));
  });

  it('still logs in a user whose password an earlier reference hashed at N=1024 into a --db file (salt:hash, no cost)', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { randomBytes, scryptSync } = await import('node:crypto');
    const { default: Database } = await import('better-sqlite3');
    const dir = mkdtempSync(join(tmpdir(), 'reference-db-'));
    const file = join(dir, 'reference.db');
    const onFile = await buildReference({ states: true, now: () => clock, database: file });
    try {
      const user = await injectState(onFile, 'user');
      const salt = randomBytes(16);
      const earlier = `${salt.toString('hex')}:${scryptSync(user.password, salt, 32, { N: 1024, r: 8, p: 1 }).toString('hex')}`;
      const db = new Database(file);
      db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(earlier, user.id);
      db.close();
      const ok = await onFile.inject({ method: 'POST', url: '/api/v1/authenticate', payload: { email: user.email, password: user.password } });
      expect(ok.statusCode, ok.body).toBe(200);
      const wrong = await onFile.inject({ method: 'POST', url: '/api/v1/authenticate', payload: { email: user.email, password: `${user.password}x` } });
      expect(wrong.statusCode).not.toBe(200);
    } finally {
      await onFile.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('issues a token that opens logout until ttl seconds have passed', async () => {
    const user = await state('user');
    const first = (await login({ email: user.email, password: user.password })).json().data.id;
    const second = (await login({ email: user.email, password: user.password })).json().data.id;
    expect((await logout(first)).statusCode).toBe(200);
    clock = START_MS + TOKEN_TTL_SECONDS * 1000;
    const expired = await logout(second);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: 'Unauthenticated.' });
  });

  it('answers 403 { error } for a wrong password and for an unknown e-mail alike', async () => {
    const user = await state('user');
    const wrong = await login({ email: user.email, password: 'Wrong-password-1' });
    const unknown = await login({ email: `nobody.${randomUUID()}@example.com`, password: 'Wrong-password-1' });
    expect(wrong.statusCode).toBe(403);
    expect(unknown.statusCode).toBe(403);
    expect(wrong.json()).toEqual(unknown.json());
    expect(typeof wrong.json().error).toBe('string');
  });

  it('answers 401 for an inactive account, 423 for a locked one, 425 for a restricted one: all { error }', async () => {
    for (const [name, status] of [
      ['user.inactive', 401],
      ['user.locked', 423],
      ['user.throttled', 425],
    ] as const) {
      const user = await state(name);
      const response = await login({ email: user.email, password: user.password });
      expect(response.statusCode, name).toBe(status);
      expect(Object.keys(response.json()), name).toEqual(['error']);
    }
  });

  it('refuses a locked or inactive account with a wrong password as wrong credentials (403)', async () => {
    for (const name of ['user.inactive', 'user.locked']) {
      const user = await state(name);
      expect((await login({ email: user.email, password: 'Wrong-password-1' })).statusCode, name).toBe(403);
    }
  });

  it('asks a 2FA account for a valid TOTP code, with one time step of tolerance', async () => {
    const user = await state('user', { twoFactor: true });
    const code = (offset: number) => generateSync({ secret: user.totpSecret, epoch: nowSeconds() + offset });
    expect((await login({ email: user.email, password: user.password })).statusCode).toBe(403);
    const wrong = String((Number(code(0)) + 500_000) % 1_000_000).padStart(6, '0');
    expect((await login({ email: user.email, password: user.password, '2fa': wrong })).statusCode).toBe(403);
    expect((await login({ email: user.email, password: user.password, '2fa': code(-30) })).statusCode).toBe(200);
    expect((await login({ email: user.email, password: user.password, '2fa': code(0) })).statusCode).toBe(200);
    expect((await login({ email: user.email, password: 'Wrong-password-1', '2fa': code(0) })).statusCode).toBe(403);
  });

  it('ignores a well-formed 2fa code for an account without 2FA', async () => {
    const user = await state('user');
    expect((await login({ email: user.email, password: user.password, '2fa': '123456' })).statusCode).toBe(200);
  });

  it.each([
    ['email missing', (u: { password: string }) => ({ password: u.password }), 'email'],
    ['email not an address', (u: { password: string }) => ({ email: 'not-an-email', password: u.password }), 'email'],
    ['email of 192 characters', () => ({ email: emailOfLength(192), password: 'Wrong-password-1' }), 'email'],
    ['password missing', (u: { email: string }) => ({ email: u.email }), 'password'],
    ['password of 7 characters', (u: { email: string }) => ({ email: u.email, password: 'p'.repeat(7) }), 'password'],
    ['password of 192 characters', (u: { email: string }) => ({ email: u.email, password: 'p'.repeat(192) }), 'password'],
    ['2fa of 5 digits', (u: { email: string; password: string }) => ({ ...u, '2fa': '12345' }), '2fa'],
    ['2fa of 7 digits', (u: { email: string; password: string }) => ({ ...u, '2fa': '1234567' }), '2fa'],
    ['2fa with a letter', (u: { email: string; password: string }) => ({ ...u, '2fa': '12a456' }), '2fa'],
  ])('answers 422 { message, errors } keyed by the field for %s', async (_name, body, field) => {
    const user = await state('user');
    const response = await login(body({ email: user.email, password: user.password }));
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual([field]);
    expect(typeof response.json().message).toBe('string');
  });

  it.each([
    ['email of 191 characters', () => ({ email: emailOfLength(191), password: 'Wrong-password-1' })],
    ['password of 8 characters', (u: { email: string }) => ({ email: u.email, password: 'p'.repeat(8) })],
    ['password of 191 characters', (u: { email: string }) => ({ email: u.email, password: 'p'.repeat(191) })],
  ])('lets %s through validation (403, wrong credentials)', async (_name, body) => {
    const user = await state('user');
    expect((await login(body(user))).statusCode).toBe(403);
  });
});

describe('brute-force restriction (5.5, 425)', () => {
  it(`restricts an e-mail after ${BRUTE_FORCE_THRESHOLD} failures, whatever the credentials, for ${BRUTE_FORCE_RESTRICTION_SECONDS} s`, async () => {
    const user = await state('user');
    for (let i = 1; i < BRUTE_FORCE_THRESHOLD; i++) expect((await login({ email: user.email, password: 'Wrong-password-1' })).statusCode).toBe(403);
    expect((await login({ email: user.email, password: 'Wrong-password-1' })).statusCode).toBe(403);
    const restricted = await login({ email: user.email, password: user.password });
    expect(restricted.statusCode).toBe(425);
    expect(restricted.json().error).toMatch(/try again in \d+ seconds/);
    clock = START_MS + BRUTE_FORCE_RESTRICTION_SECONDS * 1000;
    expect((await login({ email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('forgets failures after a successful login and outside the window', async () => {
    const user = await state('user');
    const fail = () => login({ email: user.email, password: 'Wrong-password-1' });
    for (let i = 1; i < BRUTE_FORCE_THRESHOLD; i++) await fail();
    expect((await login({ email: user.email, password: user.password })).statusCode).toBe(200);
    for (let i = 1; i < BRUTE_FORCE_THRESHOLD; i++) await fail();
    clock += (BRUTE_FORCE_WINDOW_SECONDS + 1) * 1000;
    await fail();
    expect((await login({ email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('gives the threshold with a fresh account (state user.brute-force): that many failures, then 425', async () => {
    const user = await state('user.brute-force');
    expect(user.attempts).toBe(BRUTE_FORCE_THRESHOLD);
    for (let i = 1; i <= user.attempts; i++) expect((await login({ email: user.email, password: 'Wrong-password-1' })).statusCode).toBe(403);
    expect((await login({ email: user.email, password: 'Wrong-password-1' })).statusCode).toBe(425);
  });

  it('restricts the JWT flow for a restricted account too', async () => {
    const user = await state('user.throttled');
    expect((await jwtLogin(await sign({ email: user.email, expire: nowSeconds() + 60 }))).statusCode).toBe(425);
  });
});

describe('short sessions (state user.short-session; sections 2.1, 5.2)', () => {
  it(`issues sessions of ${SHORT_SESSION_TTL_SECONDS} s, both ways, whose token works until until and not after`, async () => {
    const user = await state('user.short-session');
    const sessions = [(await login({ email: user.email, password: user.password })).json().data, (await jwtLogin(await sign({ id: user.id, expire: nowSeconds() + 60 }))).json().data];
    for (const session of sessions) {
      expect(session.ttl).toBe(SHORT_SESSION_TTL_SECONDS);
      expect(Date.parse(session.until) - Date.parse(session.created)).toBe(SHORT_SESSION_TTL_SECONDS * 1000);
    }
    const banks = (token: string) => app.inject({ method: 'GET', url: `/api/v1/user/${user.id}/bank`, headers: { authorization: `Bearer ${token}` } });
    clock = START_MS + SHORT_SESSION_TTL_SECONDS * 1000 - 1;
    for (const session of sessions) expect((await banks(session.id)).statusCode).toBe(200);
    clock = START_MS + SHORT_SESSION_TTL_SECONDS * 1000;
    for (const session of sessions) expect((await banks(session.id)).statusCode).toBe(401);
    // Other accounts keep the usual lifetime.
    const other = await state('user');
    expect((await login({ email: other.email, password: other.password })).json().data.ttl).toBe(TOKEN_TTL_SECONDS);
  });
});

describe('POST /api/v1/authenticate-jwt/{platform} (4.1)', () => {
  it('the platform state answers, beside its id, the code, name and url its records show as externalPlatform (added later: issue 28, fix-aa3)', async () => {
    const platform = await state('platform', { publicKey: keys.publicKeyPem });
    const user = await state('user', { platformId: platform.id });
    const token = (await login({ email: user.email, password: user.password })).json().data.id as string;
    const created = await app.inject({ method: 'POST', url: `/api/v1/user/${user.id}/bank`, headers: { authorization: `Bearer ${token}` }, payload: { bankName: 'Tenant Bank', iban: `DE${Date.now()}`, swift: 'DEUTDEFF', currency: 'EUR' } });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.externalPlatform).toEqual({ code: platform.code, name: platform.name, url: platform.url });
  });

  it('the account states take platformId: the account belongs to that platform and the data names it back; an unknown platform is refused (422)', async () => {
    for (const name of ['user', 'user.inactive', 'user.locked', 'user.throttled', 'user.short-session']) {
      const user = await state(name, { platformId });
      expect(user.platformId, name).toBe(platformId);
      expect((await state(name)).platformId, `${name} without the param`).toBeUndefined();
    }
    // With twoFactor too (fix-wb7a's param, merged with platformId): the account has both, and the data names both.
    for (const name of ['user', 'user.inactive', 'user.locked']) {
      const both = await state(name, { platformId, twoFactor: true });
      expect([both.platformId, typeof both.totpSecret], name).toEqual([platformId, 'string']);
    }
    const refused = await app.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'user', params: { platformId: 'no-such-platform' } } });
    expect(refused.statusCode).toBe(422);
    // Under the multi-tenant reading, the platform authenticates its own user and refuses one of another platform.
    const tenant = await buildReference({ states: true, now: () => clock, mutation: { deviation: 'r7.jwt-platform-own-users' } });
    try {
      const own = (await injectState(tenant, 'platform', { publicKey: keys.publicKeyPem })).id as string;
      const ofPlatform = await injectState(tenant, 'user', { platformId: own });
      const elsewhere = await injectState(tenant, 'user');
      const send = async (id: unknown) => (await tenant.inject({ method: 'POST', url: `/api/v1/authenticate-jwt/${own}`, headers: { token: await sign({ id, expire: nowSeconds() + 300 }) } })).statusCode;
      expect(await send(ofPlatform.id)).toBe(200);
      expect(await send(elsewhere.id)).toBe(403);
    } finally {
      await tenant.close();
    }
  });

  it('answers a Session for a payload naming the user by email or by id, expire now or later', async () => {
    const user = await state('user');
    for (const payload of [{ email: user.email, expire: nowSeconds() + 60 }, { id: user.id, expire: nowSeconds() }, { id: user.id, expire: String(nowSeconds() + 60) }]) {
      const response = await jwtLogin(await sign(payload));
      expect(response.statusCode, JSON.stringify(payload)).toBe(200);
      expect(response.json().data.userId).toBe(user.id);
    }
  });

  it('issues a token that logout destroys', async () => {
    const user = await state('user');
    const token = (await jwtLogin(await sign({ id: user.id, expire: nowSeconds() + 60 }))).json().data.id;
    expect((await logout(token)).json()).toEqual({ status: 'success' });
    expect((await logout(token)).statusCode).toBe(401);
  });

  it('answers 412 for an invalid payload and 416 for an expired one', async () => {
    const user = await state('user');
    const future = nowSeconds() + 60;
    for (const payload of [{ expire: future }, {}, { email: user.email }, { email: user.email, expire: 'tomorrow' }, { email: 12345, expire: future }, { id: 12345, expire: future }, { email: '', expire: future }]) {
      const response = await jwtLogin(await sign(payload));
      expect(response.statusCode, JSON.stringify(payload)).toBe(412);
      expect(typeof response.json().error).toBe('string');
    }
    expect((await jwtLogin(await sign({ email: user.email, expire: nowSeconds() - 1 }))).statusCode).toBe(416);
  });

  it('answers 401, 403, 423 for inactive, unknown and locked users', async () => {
    const inactive = await state('user.inactive');
    const locked = await state('user.locked');
    const expire = nowSeconds() + 60;
    expect((await jwtLogin(await sign({ id: inactive.id, expire }))).statusCode).toBe(401);
    expect((await jwtLogin(await sign({ id: locked.id, expire }))).statusCode).toBe(423);
    expect((await jwtLogin(await sign({ id: randomUUID(), expire }))).statusCode).toBe(403);
    expect((await jwtLogin(await sign({ email: `nobody.${randomUUID()}@example.com`, expire }))).statusCode).toBe(403);
  });

  it('never authenticates a forged token: alg none, HS512 with the public key, another key, tampered, unknown platform, no header', async () => {
    const user = await state('user');
    const victim = await state('user');
    const payload = { email: user.email, expire: nowSeconds() + 60 };
    const other = await generateKeyPair('RS512', { modulusLength: 2048 });
    const valid = await sign(payload);
    const [header, , signature] = valid.split('.');
    const forged: [string, string | undefined, string?][] = [
      ['alg none', `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.`],
      ['HS512 keyed with the public key', await new SignJWT(payload).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(keys.publicKeyPem))],
      ['another key', await sign(payload, other.privateKey)],
      ['tampered payload', `${header}.${encode({ email: victim.email, expire: payload.expire })}.${signature}`],
      ['unknown platform', valid, randomUUID()],
      ['no Token header', undefined],
      ['not a JWT', 'garbage'],
    ];
    for (const [name, token, platform] of forged) {
      const response = await jwtLogin(token, platform);
      expect(response.statusCode, name).toBe(403);
      expect(Object.keys(response.json()), name).toEqual(['error']);
    }
  });
});

describe('POST /api/v1/user/logout (4.5)', () => {
  it('answers 401 { error } without a token, for a garbage token and for a wrong secret', async () => {
    const user = await state('user');
    const token: string = (await login({ email: user.email, password: user.password })).json().data.id;
    for (const bad of [undefined, '999999999|notARealTokenSecretValue0000000000000000', 'not-a-token', `${token.split('|')[0]}|${'x'.repeat(40)}`]) {
      const response = await logout(bad);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthenticated.' });
    }
    expect((await logout(token)).statusCode).toBe(200);
  });
});

describe('authentication mutants', () => {
  it('name only deviations the reference honours, one clause each', () => {
    const known = knownDeviations();
    for (const mutant of authenticationMutants) {
      expect(mutant.group).toBe('authentication');
      if (mutant.mutation.deviation) expect(known.has(mutant.mutation.deviation), mutant.name).toBe(true);
      else expect(mutant.mutation.transform ?? mutant.mutation.contentType, mutant.name).toBeDefined();
    }
    expect(new Set(authenticationMutants.map((m) => m.name)).size).toBe(authenticationMutants.length);
  });

  it('every authentication deviation is used by a mutant (of any file: a reading round keeps its own, its refused ones too; a white-box round\u2019s open gaps and not-deviations, not registered, too)', async () => {
    const { authentication } = await import('../reference/modules/authentication.js');
    const { roundWb3OpenGaps, roundWb3NotDeviations } = await import('../reference/mutants/round-wb3.js');
    const { roundWb6OpenGaps } = await import('../reference/mutants/round-wb6.js');
    const { roundWb7OpenGaps } = await import('../reference/mutants/round-wb7.js');
    const { roundWb10OpenGaps } = await import('../reference/mutants/round-wb10.js');
    const { readingsR7Refused } = await import('../reference/mutants/readings-r7.js');
    const { readingsR8Refused } = await import('../reference/mutants/readings-r8.js');
    const { readingsR9Refused } = await import('../reference/mutants/readings-r9.js');
    const used = new Set([...MUTANTS, ...roundWb3OpenGaps, ...roundWb3NotDeviations, ...roundWb6OpenGaps, ...roundWb7OpenGaps, ...roundWb10OpenGaps, ...readingsR7Refused, ...readingsR8Refused, ...readingsR9Refused].map((m) => m.mutation.deviation));
    for (const name of authentication.deviations) expect(used.has(name), name).toBe(true);
  });

  /** Two logins of two fresh users on a new reference built with `mutation`, each login's answer whole; the server closed. */
  const twoLoginsOn = async (mutation: Mutation) => {
    const server = await buildReference({ states: true, now: () => clock, mutation });
    try {
      const logins = [];
      for (let i = 0; i < 2; i++) {
        const user = await server.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'user', params: {} } }).then((r) => r.json().data);
        logins.push(await server.inject({ method: 'POST', url: '/api/v1/authenticate', payload: { email: user.email, password: user.password } }));
      }
      return logins;
    } finally {
      await server.close();
    }
  };

  it('a mutant remembers per server: the first login of a second reference is that server\u2019s first, not the first server\u2019s (the mutation runner judges one mutant object in several runs)', async () => {
    const mutant = authenticationMutants.find((m) => m.name === 'login-session-leaks-first-refresh-token')!;
    for (const run of [await twoLoginsOn(mutant.mutation), await twoLoginsOn(mutant.mutation)]) {
      const [first, second] = run.map((login) => login.json().data);
      expect(first.serviceToken).toBeUndefined();
      expect(second.serviceToken).toBe(first.refreshToken);
    }
  });

  it('a mutation made per server (perServerMutation) starts afresh on each reference: the first login of a second server carries no cookie of the first server\u2019s logins', async () => {
    const { MUTANTS: all } = await import('../reference/mutants/index.js');
    const mutant = all.find((m) => m.name === 'wb27-login-cookie-of-previous-login')!;
    for (const run of [await twoLoginsOn(mutant.mutation), await twoLoginsOn(mutant.mutation)]) {
      const [first, second] = run.map((login) => login.headers['set-cookie']);
      expect(first).toBeUndefined();
      expect(String(second)).toMatch(/^remember_token=/);
    }
  });

  it('a mutant\u2019s memory per server is one for the whole reference: a request to the cards\u2019 own encapsulated scope sees what the login\u2019s scope noted (reading round r31)', async () => {
    const { perServer } = await import('../reference/mutants/reading.js');
    const counted = perServer(() => ({ requests: 0 }));
    const seen: number[] = [];
    const server = await buildReference({ states: true, now: () => clock, mutation: { request: (request) => void seen.push(++counted(request.server).requests) } });
    try {
      await server.inject({ method: 'POST', url: '/api/v1/authenticate', payload: {} });
      await server.inject({ method: 'GET', url: `/api/v1/user/${randomUUID()}/card` });
      await server.inject({ method: 'GET', url: `/api/v1/user/${randomUUID()}/bank` });
    } finally {
      await server.close();
    }
    expect(seen).toEqual([1, 2, 3]);
  });

  it('jwt-any-platform-key lets a token for an unknown platform in, which the faithful reference refuses', async () => {
    const mutant = authenticationMutants.find((m) => m.name === 'jwt-any-platform-key')!;
    const mutated = await buildReference({ states: true, now: () => clock, mutation: mutant.mutation });
    try {
      const call = (name: string, params: Record<string, unknown>) => mutated.inject({ method: 'POST', url: STATES_PATH, payload: { state: name, params } }).then((r) => r.json().data);
      await call('platform', { publicKey: keys.publicKeyPem });
      const user = await call('user', {});
      const response = await mutated.inject({ method: 'POST', url: `/api/v1/authenticate-jwt/${randomUUID()}`, headers: { token: await sign({ email: user.email, expire: nowSeconds() + 60 }) } });
      expect(response.statusCode).toBe(200);
    } finally {
      await mutated.close();
    }
  });
});
