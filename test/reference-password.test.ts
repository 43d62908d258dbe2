import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { buildReference, STATES_PATH } from '../reference/app.js';
import { RESET_LINK_BASE, RESET_TOKEN_TTL_SECONDS } from '../reference/modules/password.js';
import { injectState } from './reference-inject.js';

/** Unit tests of the reference's password module (sections 4.3, 4.4, limits of 8, 422 format of 7), through fastify's inject. */

let clock = Date.UTC(2026, 10, 15, 12, 0, 0);
let app: FastifyInstance;
const file = join(mkdtempSync(join(tmpdir(), 'ref-password-')), 'reference.sqlite');

beforeAll(async () => {
  app = await buildReference({ states: true, database: file, now: () => clock });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const state = (name: string, params: Record<string, unknown> = {}) => injectState(app, name, params);

const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url, payload, headers });
const forgot = (payload: Record<string, unknown>) => post('/api/v1/user/forgot-password', payload);
const reset = (payload: Record<string, unknown>) => post('/api/v1/user/reset-password', payload);
const login = (email: string, password: string) => post('/api/v1/authenticate', { email, password });

/** The reference's outbox: the e-mails it would send, read through a second connection to the database file. */
function outbox(email: string): { kind: string; body: string; token: string }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT kind, body, token FROM outbox WHERE recipient = ? ORDER BY id').all(email) as { kind: string; body: string; token: string }[];
  } finally {
    db.close();
  }
}

async function started() {
  const user = await state('user');
  expect((await forgot({ email: user.email })).statusCode).toBe(200);
  const { token } = await state('password-reset.token', { email: user.email });
  return { user, token: token as string };
}

describe('forgot-password (section 4.3)', () => {
  test.each([['text'], ['link'], [null], [undefined]])('answers 200 { data: { message } } for type %s', async (type) => {
    const user = await state('user');
    const response = await forgot(type === undefined ? { email: user.email } : { email: user.email, type });
    expect(response.statusCode).toBe(200);
    expect(schemaProblems('message-response', response.json())).toEqual([]);
  });

  test('does not require a bearer header, and ignores one that is sent', async () => {
    const user = await state('user');
    const response = await post('/api/v1/user/forgot-password', { email: user.email }, { authorization: 'Bearer 1|nonsense' });
    expect(response.statusCode).toBe(200);
  });

  test('answers 422 keyed by email for an unknown e-mail', async () => {
    const response = await forgot({ email: 'nobody.unit@example.test' });
    expect(response.statusCode).toBe(422);
    expect(schemaProblems('error-validation', response.json())).toEqual([]);
    expect(Object.keys(response.json().errors)).toEqual(['email']);
  });

  test.each([
    ['missing email', {}, ['email']],
    ['an e-mail without @', { email: 'nope' }, ['email']],
    ['a 256-character e-mail', { email: `${'a'.repeat(243)}@example.test` }, ['email']],
    ['type sms', { email: 'someone@example.test', type: 'sms' }, ['type']],
    ['a 256-character e-mail and type sms', { email: `${'a'.repeat(243)}@example.test`, type: 'sms' }, ['email', 'type']],
    ['a 255-character e-mail and type sms', { email: `${'a'.repeat(242)}@example.test`, type: 'sms' }, ['type']],
  ])('answers 422 for %s, keyed by the failing fields', async (_name, payload, keys) => {
    const response = await forgot(payload);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(keys);
  });

  test('the state answers the token of the latest e-mail, which replaces the earlier one', async () => {
    const user = await state('user');
    await forgot({ email: user.email, type: 'text' });
    const first = (await state('password-reset.token', { email: user.email })).token;
    await forgot({ email: user.email, type: 'link' });
    const second = (await state('password-reset.token', { email: user.email })).token;
    expect(second).not.toBe(first);
    expect((await reset({ email: user.email, token: first, password: 'Another-pass-1' })).statusCode).toBe(422);
    expect((await reset({ email: user.email, token: second, password: 'Another-pass-1' })).statusCode).toBe(200);
  });

  test('with type, the state answers the token as the latest e-mail of that type shows it (added later), and 422 when none of that type was sent', async () => {
    const user = await state('user');
    await forgot({ email: user.email, type: 'text' });
    const text = (await state('password-reset.token', { email: user.email, type: 'text' })).token;
    const refused = await app.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'password-reset.token', params: { email: user.email, type: 'link' } } });
    expect(refused.statusCode).toBe(422);
    await forgot({ email: user.email, type: 'link' });
    const link = (await state('password-reset.token', { email: user.email, type: 'link' })).token;
    expect(outbox(user.email).map((m) => m.token)).toEqual([text, link]);
    expect((await reset({ email: user.email, token: link, password: 'Another-pass-1' })).statusCode).toBe(200);
  });

  test('the state answers the contract\'s 422 with a message for an address that was sent nothing', async () => {
    const response = await app.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'password-reset.token', params: { email: 'never.sent@example.test' } } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ message: 'state password-reset.token: no forgot-password e-mail was sent to that address' });
  });

  test('writes the token as text for type text and inside a link for type link (the default)', async () => {
    const user = await state('user');
    await forgot({ email: user.email, type: 'text' });
    await forgot({ email: user.email, type: 'link' });
    await forgot({ email: user.email });
    const mails = outbox(user.email);
    expect(mails.map((m) => m.kind)).toEqual(['text', 'link', 'link']);
    expect(mails[0]!.body).toContain(mails[0]!.token);
    expect(mails[0]!.body).not.toContain(RESET_LINK_BASE);
    expect(mails[1]!.body).toContain(`${RESET_LINK_BASE}/${mails[1]!.token}`);
    expect((await state('password-reset.token', { email: user.email })).token).toBe(mails[2]!.token);
  });

  test('sends nothing for an unknown e-mail', async () => {
    await forgot({ email: 'nobody.unit2@example.test' });
    expect(outbox('nobody.unit2@example.test')).toEqual([]);
  });
});

describe('reset-password (section 4.4)', () => {
  test('changes the password and spends the token', async () => {
    const { user, token } = await started();
    const response = await reset({ email: user.email, token, password: 'Brand-new-pass-1' });
    expect(response.statusCode).toBe(200);
    expect(schemaProblems('message-response', response.json())).toEqual([]);
    expect((await login(user.email, 'Brand-new-pass-1')).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(403);
    const again = await reset({ email: user.email, token, password: 'Brand-new-pass-2' });
    expect(again.statusCode).toBe(422);
    expect(Object.keys(again.json().errors)).toEqual(['token']);
  });

  test('answers 422 keyed by token for a wrong token and keeps the password', async () => {
    const { user } = await started();
    const response = await reset({ email: user.email, token: 'f'.repeat(64), password: 'Brand-new-pass-1' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['token']);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  test('answers 422 keyed by token once the token is older than its lifetime', async () => {
    const { user, token } = await started();
    clock += (RESET_TOKEN_TTL_SECONDS + 1) * 1000;
    try {
      const response = await reset({ email: user.email, token, password: 'Brand-new-pass-1' });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['token']);
    } finally {
      clock -= (RESET_TOKEN_TTL_SECONDS + 1) * 1000;
    }
  });

  test('answers 422 keyed by email for an unknown e-mail (the specification is silent)', async () => {
    const response = await reset({ email: 'nobody.unit@example.test', token: 'x', password: 'Brand-new-pass-1' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['email']);
  });

  test.each([
    [7, 422],
    [8, 200],
    [191, 200],
    [192, 422],
  ])('a password of %i characters answers %i', async (length, status) => {
    const { user, token } = await started();
    const response = await reset({ email: user.email, token, password: 'p'.repeat(length) });
    expect(response.statusCode).toBe(status);
    if (status === 422) expect(Object.keys(response.json().errors)).toEqual(['password']);
  });

  test.each([
    [255, ['password']],
    [256, ['password', 'token']],
  ])('a token of %i characters beside a short password is reported as %j', async (length, keys) => {
    const { user } = await started();
    const response = await reset({ email: user.email, token: 't'.repeat(length), password: 'short' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(keys);
  });

  test('reports every missing field', async () => {
    const response = await reset({});
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['email', 'password', 'token']);
  });
});

describe('round wb16: known accounts and passwords as sent', () => {
  test.each([['user.locked', 423], ['user.inactive', 401]])('forgot-password for the e-mail of a %s account (login %i) answers 200', async (name, status) => {
    const account = await state(name);
    expect((await login(account.email, account.password)).statusCode).toBe(status);
    const response = await forgot({ email: account.email });
    expect(response.statusCode).toBe(200);
  });

  test.each([[' Rp1-outer spaces1 '], ['Rp1-e\u0301-decomposed']])('a password set by a reset logs in with exactly the bytes sent (%j), and not in another form', async (password) => {
    const { user, token } = await started();
    expect((await reset({ email: user.email, token, password })).statusCode).toBe(200);
    expect((await login(user.email, password)).statusCode).toBe(200);
    const other = password.trim() !== password ? password.trim() : password.normalize('NFC');
    expect((await login(user.email, other)).statusCode).toBe(403);
  });

  test('the allowed reading login.password-trimmed trims at reset as at login: the password with its spaces and without them both log in', async () => {
    const trimmed = await buildReference({ states: true, now: () => clock, mutation: { deviation: 'login.password-trimmed' } });
    try {
      const call = (name: string, params: Record<string, unknown> = {}) => injectState(trimmed, name, params);
      const user = await call('user');
      const send = (url: string, payload: Record<string, unknown>) => trimmed.inject({ method: 'POST', url, payload });
      expect((await send('/api/v1/user/forgot-password', { email: user.email })).statusCode).toBe(200);
      const { token } = await call('password-reset.token', { email: user.email });
      const password = ' Rp1-outer spaces2 ';
      expect((await send('/api/v1/user/reset-password', { email: user.email, token, password })).statusCode).toBe(200);
      expect((await send('/api/v1/authenticate', { email: user.email, password })).statusCode).toBe(200);
      expect((await send('/api/v1/authenticate', { email: user.email, password: password.trim() })).statusCode).toBe(200);
    } finally {
      await trimmed.close();
    }
  });
});
