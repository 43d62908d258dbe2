import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATES_PATH, buildReference, knownDeviations } from '../reference/app.js';
import { ISO_4217_CODES, isIso4217 } from '../reference/data/iso-4217.js';
import { UNAUTHORIZED_MESSAGE } from '../reference/errors.js';
import { DEFAULT_PLATFORM } from '../reference/modules/authentication.js';
import { banksMutants } from '../reference/mutants/banks.js';
import { injectState, injectUserWithToken } from './reference-inject.js';

/** The bank part of the reference (section 4.10), through fastify's inject. */

const NOW_MS = Date.UTC(2026, 0, 15, 12, 0, 0, 500);
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildReference({ states: true, now: () => NOW_MS });
});
afterAll(async () => {
  await app.close();
});

const state = (name: string, params: Record<string, unknown> = {}) => injectState(app, name, params);

const userWithToken = () => injectUserWithToken(app);

let ibanCounter = 0;
function payload(overrides: Record<string, unknown> = {}) {
  ibanCounter += 1;
  return { bankName: 'Example Bank', iban: `DE${String(ibanCounter).padStart(20, '0')}`, swift: 'DEUTDEFF500', currency: 'EUR', ...overrides };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function createBank(userId: string, token: string, body: Record<string, unknown> = payload()) {
  return app.inject({ method: 'POST', url: `/api/v1/user/${userId}/bank`, headers: auth(token), payload: body });
}

async function listBanks(userId: string, token: string, query: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url: `/api/v1/user/${userId}/bank`, headers: auth(token), query });
}

describe('ISO 4217 data', () => {
  it('holds the current alphabetic codes, sorted and unique', () => {
    expect(ISO_4217_CODES.length).toBe(179);
    expect([...ISO_4217_CODES].sort()).toEqual(ISO_4217_CODES);
    expect(new Set(ISO_4217_CODES).size).toBe(ISO_4217_CODES.length);
    for (const code of ISO_4217_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
  });

  it('knows current codes and refuses withdrawn, unknown and lower-case ones', () => {
    for (const code of ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'XCG', 'ZWG', 'SLE', 'VED', 'XAU', 'XXX']) expect(isIso4217(code), code).toBe(true);
    for (const code of ['HRK', 'CUC', 'ZWL', 'SLL', 'ANG', 'VEF', 'XYZ', 'eur', 'EURO', '']) expect(isIso4217(code), code).toBe(false);
  });
});

describe('bank create (4.10)', () => {
  it('answers 201 with the Bank record of 2.4', async () => {
    const { user, token } = await userWithToken();
    const body = payload();
    const response = await createBank(user.id, token, body);
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'CONFIRMED',
      bankName: body.bankName,
      iban: body.iban,
      swift: body.swift,
      currency: 'EUR',
      externalPlatform: { code: DEFAULT_PLATFORM.code, name: DEFAULT_PLATFORM.name, url: DEFAULT_PLATFORM.url },
      createdAt: Math.floor(NOW_MS / 1000),
    });
  });

  it('answers 422 with Laravel messages for each rule of 4.10 and 8', async () => {
    const { user, token } = await userWithToken();
    const cases: [Record<string, unknown>, string, string][] = [
      [payload({ bankName: undefined }), 'bankName', 'The bank name field is required.'],
      [payload({ bankName: 'B'.repeat(192) }), 'bankName', 'The bank name field must not be greater than 191 characters.'],
      [payload({ iban: 'D'.repeat(192) }), 'iban', 'The iban field must not be greater than 191 characters.'],
      [payload({ iban: 'DE89-3704' }), 'iban', 'The iban field must only contain letters and numbers.'],
      [payload({ swift: 'DEUTDEF' }), 'swift', 'The swift field must be between 8 and 11 characters.'],
      [payload({ swift: 'DEUTDEFF5001' }), 'swift', 'The swift field must be between 8 and 11 characters.'],
      [payload({ swift: 'DEUT-DEFF' }), 'swift', 'The swift field must only contain letters and numbers.'],
      [payload({ currency: 'XYZ' }), 'currency', 'The selected currency is invalid.'],
      [payload({ currency: 'eur' }), 'currency', 'The selected currency is invalid.'],
      [payload({ currency: 'HRK' }), 'currency', 'The selected currency is invalid.'],
      [payload({ currency: 'E-R' }), 'currency', 'The currency field must only contain letters and numbers.'],
      [payload({ currency: 978 }), 'currency', 'The currency field must be a string.'],
    ];
    for (const [body, field, message] of cases) {
      const response = await createBank(user.id, token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().errors, JSON.stringify(body)).toEqual({ [field]: [message] });
    }
    const none = await createBank(user.id, token, {});
    expect(none.statusCode).toBe(422);
    expect(Object.keys(none.json().errors).sort()).toEqual(['bankName', 'currency', 'iban', 'swift']);
  });

  it('accepts the limits: bankName and iban of 191, swift of 8 and 11', async () => {
    const { user, token } = await userWithToken();
    for (const body of [payload({ bankName: 'B'.repeat(191) }), payload({ iban: `DE${'7'.repeat(189)}` }), payload({ swift: 'DEUTDEFF' }), payload({ swift: 'DEUTDEFF500' })]) {
      const response = await createBank(user.id, token, body);
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  it('keeps IBANs unique across users, ignoring case, and frees the IBAN of a deleted bank', async () => {
    const first = await userWithToken();
    const second = await userWithToken();
    const iban = 'GB29NWBK60161331926819';
    const created = await createBank(first.user.id, first.token, payload({ iban }));
    expect(created.statusCode).toBe(201);
    const again = await createBank(second.user.id, second.token, payload({ iban: iban.toLowerCase() }));
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual({ iban: ['The iban has already been taken.'] });
    const removed = await app.inject({ method: 'DELETE', url: `/api/v1/user/${first.user.id}/bank/${created.json().data.id}`, headers: auth(first.token) });
    expect(removed.statusCode).toBe(200);
    const reused = await createBank(second.user.id, second.token, payload({ iban }));
    expect(reused.statusCode, reused.body).toBe(201);
  });

  it('answers 401 without a token, 403 under another user\u2019s id, 403 for an inactive account', async () => {
    const owner = await userWithToken();
    const caller = await userWithToken();
    const anonymous = await app.inject({ method: 'POST', url: `/api/v1/user/${owner.user.id}/bank`, payload: payload() });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toHaveProperty('error');
    const other = await createBank(owner.user.id, caller.token);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: UNAUTHORIZED_MESSAGE });
    const inactive = await state('user.inactive');
    const refused = await createBank(inactive.id, inactive.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/inactive/);
  });

  it('answers 403 "This action is unauthorized." to a create the platform forbids the account (state user.forbidden), which lists its banks and stores nothing', async () => {
    const user = await state('user.forbidden', { action: 'bank.create' });
    const login = await app.inject({ method: 'POST', url: '/api/v1/authenticate', payload: { email: user.email, password: user.password } });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.id as string;
    const refused = await createBank(user.id, token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: UNAUTHORIZED_MESSAGE });
    const listed = await listBanks(user.id, token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([]);
    // Another account is not concerned, and an action the reference cannot forbid is the contract's 422.
    const other = await userWithToken();
    expect((await createBank(other.user.id, other.token)).statusCode).toBe(201);
    const unknown = await app.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'user.forbidden', params: { action: 'card.delete' } } });
    expect(unknown.statusCode).toBe(422);
  });
});

describe('bank list (4.10)', () => {
  it('lists only the path user\u2019s banks, newest first, and applies the filters exactly', async () => {
    const { user, token } = await userWithToken();
    const other = await userWithToken();
    const euro = (await createBank(user.id, token, payload({ currency: 'EUR' }))).json().data;
    const dollar = (await createBank(user.id, token, payload({ currency: 'USD' }))).json().data;
    await createBank(other.user.id, other.token, payload({ currency: 'EUR' }));

    const all = await listBanks(user.id, token);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((b: { id: string }) => b.id)).toEqual([dollar.id, euro.id]);

    const ids = async (query: Record<string, string>) => (await listBanks(user.id, token, query)).json().data.map((b: { id: string }) => b.id).sort();
    expect(await ids({ currency: 'EUR' })).toEqual([euro.id]);
    expect(await ids({ currency: 'eur' })).toEqual([]);
    expect(await ids({ currency: 'SEK' })).toEqual([]);
    expect(await ids({ status: 'CONFIRMED' })).toEqual([euro.id, dollar.id].sort());
    expect(await ids({ status: 'REJECTED' })).toEqual([]);
    expect(await ids({ platform: DEFAULT_PLATFORM.code })).toEqual([euro.id, dollar.id].sort());
    expect(await ids({ company: DEFAULT_PLATFORM.code })).toEqual([euro.id, dollar.id].sort());
    expect(await ids({ platform: 'OTHER' })).toEqual([]);
    expect(await ids({ company: 'OTHER' })).toEqual([]);
    expect(await ids({ status: 'CONFIRMED', currency: 'USD' })).toEqual([dollar.id]);
    expect(await ids({ status: '', currency: '' })).toEqual([euro.id, dollar.id].sort());
  });

  it('answers 409 under another user\u2019s id and 403 for an inactive account', async () => {
    const owner = await userWithToken();
    const caller = await userWithToken();
    const other = await listBanks(owner.user.id, caller.token);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ message: UNAUTHORIZED_MESSAGE });
    const inactive = await state('user.inactive');
    expect((await listBanks(inactive.id, inactive.token)).statusCode).toBe(403);
  });
});

describe('bank show and delete (4.10, 3, 7)', () => {
  it('shows a bank, answers 404 for unknown, deleted and other users\u2019 banks', async () => {
    const { user, token } = await userWithToken();
    const other = await userWithToken();
    const bank = (await createBank(user.id, token)).json().data;
    const url = (userId: string, bankId: string) => `/api/v1/user/${userId}/bank/${bankId}`;

    const shown = await app.inject({ method: 'GET', url: url(user.id, bank.id), headers: auth(token) });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ data: bank });

    const unknown = '00000000-0000-4000-8000-00000000dead';
    const missing = await app.inject({ method: 'GET', url: url(user.id, unknown), headers: auth(token) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: `No query results for model [Bank] ${unknown}` });

    const foreign = await app.inject({ method: 'GET', url: url(other.user.id, bank.id), headers: auth(other.token) });
    expect(foreign.statusCode).toBe(404);

    const otherPath = await app.inject({ method: 'GET', url: url(user.id, bank.id), headers: auth(other.token) });
    expect(otherPath.statusCode).toBe(409);
    const otherDelete = await app.inject({ method: 'DELETE', url: url(user.id, bank.id), headers: auth(other.token) });
    expect(otherDelete.statusCode).toBe(409);

    const removed = await app.inject({ method: 'DELETE', url: url(user.id, bank.id), headers: auth(token) });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: expect.any(String) });
    expect((await app.inject({ method: 'GET', url: url(user.id, bank.id), headers: auth(token) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: url(user.id, bank.id), headers: auth(token) })).statusCode).toBe(404);
    expect((await listBanks(user.id, token)).json().data).toEqual([]);
  });

  it("the state bank.used answers the contract's 422 for a user that does not exist", async () => {
    const response = await app.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'bank.used', params: { userId: 'nope' } } });
    expect([response.statusCode, response.json().message]).toEqual([422, 'state bank.used: state bank.used needs params.userId of an existing user']);
  });

  it('refuses to delete a bank used in earlier actions (state bank.used) and keeps it', async () => {
    const { user, token } = await userWithToken();
    const { id } = await state('bank.used', { userId: user.id });
    const refused = await app.inject({ method: 'DELETE', url: `/api/v1/user/${user.id}/bank/${id}`, headers: auth(token) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/used/);
    const shown = await app.inject({ method: 'GET', url: `/api/v1/user/${user.id}/bank/${id}`, headers: auth(token) });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data.iban).toMatch(/^DE[0-9]{20}$/);
  });

  it('state bank.two-platforms gives the user banks on its own platform and a new one, which company and platform select by code', async () => {
    const { user, token } = await userWithToken();
    const { platforms, company } = (await state('bank.two-platforms', { userId: user.id })) as { platforms: { id: string; code: string; ids: string[] }[]; company: { value: string; ids: string[]; none: string } };
    expect(platforms.map((p) => p.ids.length)).toEqual([2, 1]);
    // The optional company (added later): the own platform's code, selecting its two banks of three; and (round wb23)
    // none, a new platform's code, selecting none of them.
    expect(company).toEqual({ value: DEFAULT_PLATFORM.code, ids: platforms[0]!.ids, none: expect.stringMatching(/^P[0-9A-F]{6}$/) });
    expect(platforms.map((p) => p.code)).not.toContain(company.none);
    expect((await listBanks(user.id, token, { company: company.none })).json().data).toEqual([]);
    expect(platforms[0]).toMatchObject({ id: DEFAULT_PLATFORM.id, code: DEFAULT_PLATFORM.code });
    expect(platforms[1]!.code).not.toBe(DEFAULT_PLATFORM.code);
    for (const p of platforms) {
      for (const filter of ['company', 'platform']) {
        expect((await listBanks(user.id, token, { [filter]: p.code })).json().data.map((b: { id: string }) => b.id).sort(), `${filter}=${p.code}`).toEqual([...p.ids].sort());
        expect((await listBanks(user.id, token, { [filter]: p.id })).json().data, `${filter}=${p.id}`).toEqual([]);
      }
    }
  });

  it('answers 403 to show and delete for an inactive account', async () => {
    const inactive = await state('user.inactive');
    const { id } = await state('bank.used', { userId: inactive.id });
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await app.inject({ method, url: `/api/v1/user/${inactive.id}/bank/${id}`, headers: auth(inactive.token) });
      expect(response.statusCode, method).toBe(403);
      expect(response.json().message, method).toMatch(/inactive/);
    }
  });
});

describe('bank mutants', () => {
  it('name only deviations the reference honours, and each builds', async () => {
    const known = knownDeviations();
    expect(banksMutants.length).toBeGreaterThanOrEqual(16);
    expect(new Set(banksMutants.map((m) => m.name)).size).toBe(banksMutants.length);
    for (const mutant of banksMutants) {
      expect(mutant.group).toBe('banks');
      if (mutant.mutation.deviation) expect(known.has(mutant.mutation.deviation), mutant.name).toBe(true);
    }
  });

  it('a deviation changes only its own behaviour (swift max unchecked accepts 12, still refuses 7)', async () => {
    const mutant = banksMutants.find((m) => m.name === 'banks-swift-max-not-enforced')!;
    const mutated = await buildReference({ states: true, mutation: mutant.mutation });
    try {
      const user = (await mutated.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'user' } })).json().data;
      const token = (await mutated.inject({ method: 'POST', url: '/api/v1/authenticate', payload: { email: user.email, password: user.password } })).json().data.id;
      const post = (swift: string) => mutated.inject({ method: 'POST', url: `/api/v1/user/${user.id}/bank`, headers: auth(token), payload: payload({ swift }) });
      expect((await post('DEUTDEFF5001')).statusCode).toBe(201);
      expect((await post('DEUTDEF')).statusCode).toBe(422);
    } finally {
      await mutated.close();
    }
  });
});
