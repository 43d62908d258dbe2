import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { buildReference, STATES_PATH } from '../reference/app.js';
import { maskEmail, maskSecret, PARTNER_PLATFORM } from '../reference/modules/bonuses.js';
import { DEFAULT_PLATFORM } from '../reference/modules/authentication.js';
import { injectState, injectUserWithToken } from './reference-inject.js';

/** Unit tests of the reference's bonuses module (section 4.11, records 2.3, 2.5a, 2.5b, 2.6, 2.7), through fastify's inject. */

const NOW = Date.UTC(2026, 10, 15, 12, 0, 0);
const STATUSES = ['distributed', 'pending', 'canceled'] as const;

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildReference({ states: true, now: () => NOW });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const state = (name: string, params: Record<string, unknown> = {}) => injectState(app, name, params);

async function userWithToken(): Promise<{ id: string; email: string; token: string }> {
  const { user, token } = await injectUserWithToken(app);
  return { id: user.id, email: user.email, token };
}

async function userWithBonuses() {
  const user = await userWithToken();
  const bonuses = (await state('bonuses', { userId: user.id })) as { ids: string[]; assets: string[]; antiPhishing: string };
  return { ...user, bonuses };
}

function get(url: string, token?: string, query?: Record<string, string>) {
  return app.inject({ method: 'GET', url, ...(query ? { query } : {}), headers: token ? { authorization: `Bearer ${token}` } : {} });
}

describe('masking (section 2.6)', () => {
  test('masks the e-mail with asterisks, keeping two characters of the local part and of the host', () => {
    expect(maskEmail('john.doe@example.test')).toBe('jo***@ex***.test');
    expect(maskEmail('a@b.io')).toContain('*');
    expect(maskEmail('a@b.io')).not.toBe('a@b.io');
  });

  test('masks the anti-phishing code after its first two characters', () => {
    expect(maskSecret('abcdef123456')).toBe('ab**********');
    expect(maskSecret('xy')).toBe('x***');
  });
});

describe('provider state bonuses', () => {
  test('creates at least one bonus per status over at least two assets', async () => {
    const user = await userWithBonuses();
    expect(user.bonuses.assets.length).toBeGreaterThanOrEqual(2);
    const response = await get(`/api/v1/user/${user.id}/bonus`, user.token);
    const data = response.json().data as { id: string; status: string; asset: { symbol: string } }[];
    expect(data.map((b) => b.id).sort()).toEqual([...user.bonuses.ids].sort());
    for (const status of STATUSES) expect(data.some((b) => b.status === status)).toBe(true);
    for (const asset of user.bonuses.assets) expect(data.some((b) => b.asset.symbol === asset)).toBe(true);
  });

  test('always grants bonuses in an asset with an alias, so the summary\u2019s alias is compared on every call (round wb14)', async () => {
    for (let run = 0; run < 4; run += 1) {
      const user = await userWithBonuses();
      const data = (await get(`/api/v1/user/${user.id}/bonus`, user.token)).json().data as { asset: { alias: unknown } }[];
      expect(data.some((b) => typeof b.asset.alias === 'string')).toBe(true);
    }
  });

  test('reports the user\u2019s anti-phishing code (the optional field the suite checks masking against)', async () => {
    const user = await userWithBonuses();
    expect(typeof user.bonuses.antiPhishing).toBe('string');
    expect(user.bonuses.antiPhishing.length).toBeGreaterThan(0);
  });

  test('with sharedOrder, answers two of the user\u2019s bonuses, in one status, that one order earned (issue 27); without it, none', async () => {
    const user = await userWithToken();
    const bonuses = (await state('bonuses', { userId: user.id, sharedOrder: true })) as { ids: string[]; sharedOrder: string[] };
    expect(bonuses.sharedOrder).toHaveLength(2);
    for (const id of bonuses.sharedOrder) expect(bonuses.ids).toContain(id);
    const data = (await get(`/api/v1/user/${user.id}/bonus`, user.token)).json().data as { id: string; status: string; order: { id: string } }[];
    expect(data.map((b) => b.id).sort()).toEqual([...bonuses.ids].sort());
    const [a, b] = bonuses.sharedOrder.map((id) => data.find((bonus) => bonus.id === id)!);
    expect(a!.order.id).toBe(b!.order.id);
    expect(a!.status).toBe(b!.status);
    expect((await userWithBonuses()).bonuses).not.toHaveProperty('sharedOrder');
  });

  test('refuses a call without userId', async () => {
    const response = await app.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'bonuses', params: {} } });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
  });
});

describe('GET /api/v1/user/{user}/bonus', () => {
  test('answers 200 with the user\u2019s bonuses, matching the list schema, newest first', async () => {
    const user = await userWithBonuses();
    await userWithBonuses(); // another user's bonuses must not appear
    const response = await get(`/api/v1/user/${user.id}/bonus`, user.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(schemaProblems('bonus-list-response', body)).toEqual([]);
    expect(body.data).toHaveLength(user.bonuses.ids.length);
    for (const bonus of body.data) {
      expect(bonus.user.id).toBe(user.id);
      expect(bonus.user.email).toBe(maskEmail(user.email));
      expect(bonus.user.options.guard.antiPhishing).toContain('*');
      expect(bonus.user.options.guard.antiPhishing).toBe(maskSecret(user.bonuses.antiPhishing));
      expect(bonus.type).toBe('amount');
      expect(bonus.value).toBe(bonus.amount);
      expect(bonus.order.transfer).toBeNull();
      expect(bonus.order.meta).toEqual({ main: [] });
      expect(bonus.order.toSymbol).toBe(bonus.asset.symbol);
      expect(bonus.order.fromAsset.type).toBe('fiat');
      expect(bonus.order.payment.lifeUntilAt).toBe(bonus.order.createdAt + bonus.order.payment.lifeSeconds);
    }
    const bonusedAt = body.data.map((b: { bonusedAt: number }) => b.bonusedAt);
    expect([...bonusedAt].sort((a, b) => b - a)).toEqual(bonusedAt);
  });

  test.each(STATUSES)('filters by status=%s', async (status) => {
    const user = await userWithBonuses();
    const all = (await get(`/api/v1/user/${user.id}/bonus`, user.token)).json().data as { id: string; status: string }[];
    const response = await get(`/api/v1/user/${user.id}/bonus`, user.token, { status });
    expect(response.statusCode).toBe(200);
    const data = response.json().data as { id: string; status: string }[];
    expect(data.length).toBeGreaterThan(0);
    expect(data.map((b) => b.id).sort()).toEqual(all.filter((b) => b.status === status).map((b) => b.id).sort());
  });

  test('treats an empty status or platform as no filter, and an unknown status as matching nothing', async () => {
    const user = await userWithBonuses();
    expect((await get(`/api/v1/user/${user.id}/bonus`, user.token, { status: '' })).json().data).toHaveLength(user.bonuses.ids.length);
    expect((await get(`/api/v1/user/${user.id}/bonus`, user.token, { platform: '' })).json().data).toHaveLength(user.bonuses.ids.length);
    const unknown = await get(`/api/v1/user/${user.id}/bonus`, user.token, { status: 'paid' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().data).toEqual([]);
  });

  test('state bonuses.two-platforms answers the bonuses per platform of their order', async () => {
    const user = await userWithToken();
    const { platforms } = (await state('bonuses.two-platforms', { userId: user.id })) as { platforms: { id: string; code: string; ids: string[] }[] };
    expect(platforms.map((p) => p.id)).toEqual([DEFAULT_PLATFORM.id, PARTNER_PLATFORM.id]);
    for (const p of platforms) {
      const data = (await get(`/api/v1/user/${user.id}/bonus`, user.token, { platform: p.code })).json().data as { id: string; order: { externalPlatform: { id: string } } }[];
      expect(data.map((b) => b.id).sort()).toEqual([...p.ids].sort());
      expect(data.every((b) => b.order.externalPlatform.id === p.id)).toBe(true);
    }
  });

  test('filters by the code of the order\u2019s external platform', async () => {
    const user = await userWithBonuses();
    const all = (await get(`/api/v1/user/${user.id}/bonus`, user.token)).json().data as { order: { externalPlatform: { code: string; id: string; urls: { widget: string } } } }[];
    const codes = new Set(all.map((b) => b.order.externalPlatform.code));
    expect(codes).toEqual(new Set([DEFAULT_PLATFORM.code, PARTNER_PLATFORM.code]));
    for (const code of codes) {
      const data = (await get(`/api/v1/user/${user.id}/bonus`, user.token, { platform: code.toLowerCase() })).json().data as typeof all;
      expect(data.length).toBe(all.filter((b) => b.order.externalPlatform.code === code).length);
      expect(data.every((b) => b.order.externalPlatform.code === code)).toBe(true);
    }
    expect((await get(`/api/v1/user/${user.id}/bonus`, user.token, { platform: 'NOPE' })).json().data).toEqual([]);
  });

  test('answers 401 { error } without a token, 409 for another user\u2019s id, 403 for an inactive account', async () => {
    const owner = await userWithBonuses();
    const other = await userWithToken();
    const anonymous = await get(`/api/v1/user/${owner.id}/bonus`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toHaveProperty('error');
    const foreign = await get(`/api/v1/user/${owner.id}/bonus`, other.token);
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json()).toEqual({ message: 'This action is unauthorized.' });
    const inactive = await state('user.inactive');
    const refused = await get(`/api/v1/user/${inactive.id}/bonus`, inactive.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/inactive/i);
  });
});

describe('GET /api/v1/user/{user}/bonus/{bonus}', () => {
  test('answers 200 with the bonus asked for, matching the schema', async () => {
    const user = await userWithBonuses();
    for (const id of user.bonuses.ids) {
      const response = await get(`/api/v1/user/${user.id}/bonus/${id}`, user.token);
      expect(response.statusCode).toBe(200);
      expect(schemaProblems('bonus-response', response.json())).toEqual([]);
      expect(response.json().data.id).toBe(id);
    }
  });

  test('answers 404 "No query results" for an unknown id and for another user\u2019s bonus', async () => {
    const owner = await userWithBonuses();
    const other = await userWithToken();
    const unknown = await get(`/api/v1/user/${owner.id}/bonus/00000000-0000-4000-8000-00000000dead`, owner.token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'No query results for model [Bonus] 00000000-0000-4000-8000-00000000dead' });
    const foreignBonus = await get(`/api/v1/user/${other.id}/bonus/${owner.bonuses.ids[0]}`, other.token);
    expect(foreignBonus.statusCode).toBe(404);
  });

  test('answers 409 for another user\u2019s id and 401 without a token', async () => {
    const owner = await userWithBonuses();
    const other = await userWithToken();
    expect((await get(`/api/v1/user/${owner.id}/bonus/${owner.bonuses.ids[0]}`, other.token)).statusCode).toBe(409);
    expect((await get(`/api/v1/user/${owner.id}/bonus/${owner.bonuses.ids[0]}`)).statusCode).toBe(401);
  });
});

describe('GET /api/v1/user/{user}/bonus/assets/{asset?}', () => {
  type Entry = { asset: { symbol: string; precision: string }; orders: number } & Record<(typeof STATUSES)[number], { bonuses: number; amount: number }>;

  test('summarises every asset of the user\u2019s bonuses, consistently with the list', async () => {
    const user = await userWithBonuses();
    const response = await get(`/api/v1/user/${user.id}/bonus/assets`, user.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(schemaProblems('bonus-asset-summary-list-response', body)).toEqual([]);
    const entries = body.data as Entry[];
    expect(entries.map((e) => e.asset.symbol).sort()).toEqual([...user.bonuses.assets].sort());
    const all = (await get(`/api/v1/user/${user.id}/bonus`, user.token)).json().data as { amount: string; status: string; asset: { symbol: string }; order: { id: string } }[];
    for (const entry of entries) {
      const ofAsset = all.filter((b) => b.asset.symbol === entry.asset.symbol);
      expect(entry.orders).toBe(new Set(ofAsset.map((b) => b.order.id)).size);
      for (const status of STATUSES) {
        const ofStatus = ofAsset.filter((b) => b.status === status);
        expect(entry[status].bonuses).toBe(ofStatus.length);
        expect(entry[status].amount).toBeCloseTo(ofStatus.reduce((sum, b) => sum + Number(b.amount), 0), 8);
      }
    }
  });

  test('answers only the asset of the segment, and [] for an asset without bonuses', async () => {
    const user = await userWithBonuses();
    const asset = user.bonuses.assets[1]!;
    const one = await get(`/api/v1/user/${user.id}/bonus/assets/${asset}`, user.token);
    expect(one.statusCode).toBe(200);
    expect((one.json().data as Entry[]).map((e) => e.asset.symbol)).toEqual([asset]);
    const none = await get(`/api/v1/user/${user.id}/bonus/assets/XYZ`, user.token);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ data: [] });
  });

  test('answers 403 "This action is unauthorized." for another user\u2019s id, 403 inactive, 401 without a token', async () => {
    const owner = await userWithBonuses();
    const other = await userWithToken();
    const foreign = await get(`/api/v1/user/${owner.id}/bonus/assets`, other.token);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ message: 'This action is unauthorized.' });
    const inactive = await state('user.inactive');
    const refused = await get(`/api/v1/user/${inactive.id}/bonus/assets/BTC`, inactive.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/inactive/i);
    expect((await get(`/api/v1/user/${owner.id}/bonus/assets`)).statusCode).toBe(401);
  });
});
