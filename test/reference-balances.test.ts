import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { buildReference, STATES_PATH } from '../reference/app.js';
import { AMOUNT_FIELDS } from '../reference/modules/balances.js';
import { injectState, injectUserWithToken } from './reference-inject.js';

/** Unit tests of the reference's balances module (sections 4.6 to 4.9, record 2.2, amounts 1.5), through fastify's inject. */

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildReference({ states: true });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const state = (name: string, params: Record<string, unknown> = {}) => injectState(app, name, params);

async function holder() {
  const { user, token } = await injectUserWithToken(app);
  const held = (await state('balances', { userId: user.id })) as { coins: string[]; nfts: string[] };
  return { id: user.id, token, held };
}

/** `assets[]` as a raw query string, repeated once per symbol. */
const assets = (symbols: string[]) => symbols.map((s) => `assets[]=${encodeURIComponent(s)}`).join('&');

function get(url: string, token?: string) {
  return app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

const DECIMAL = /^(0|-?(0|[1-9][0-9]*)(\.[0-9]{1,25})?)$/;

describe('provider state balances', () => {
  test('gives at least three coins and two NFTs, and fresh NFT symbols per call', async () => {
    const a = await holder();
    const b = await holder();
    expect(a.held.coins.length).toBeGreaterThanOrEqual(3);
    expect(a.held.nfts.length).toBeGreaterThanOrEqual(2);
    expect(a.held.nfts.filter((s) => b.held.nfts.includes(s))).toEqual([]);
  });

  test('names the coins with a genesis date, and one coin\u2019s amount with exactly its precision\u2019s decimal places, as its records show it', async () => {
    const { user, token } = await injectUserWithToken(app);
    const held = (await state('balances', { userId: user.id })) as { coins: string[]; genesisDate: string[]; genesisDates: { symbol: string; date: string }[]; amount: { symbol: string; precision: number; available: string } };
    expect(held.genesisDate).toEqual(held.coins);
    expect(held.genesisDates.map((entry) => entry.symbol)).toEqual(held.coins);
    const { symbol, precision, available } = held.amount;
    expect(held.coins).toContain(symbol);
    expect(available).toMatch(new RegExp(`^\\d+\\.\\d{${precision - 1}}[1-9]$`));
    const record = (await get(`/api/v1/user/${user.id}/balances/${symbol}`, token)).json().data;
    expect([Number(record.precision), record.amounts.crypto.available]).toEqual([precision, available]);
    for (const coin of held.coins) expect((await get(`/api/v1/user/${user.id}/balances/${coin}`, token)).json().data.meta.genesis_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const { symbol: coin, date } of held.genesisDates) expect((await get(`/api/v1/user/${user.id}/balances/${coin}`, token)).json().data.meta.genesis_date).toBe(date);
  });

  test('gives every held coin\u2019s and NFT\u2019s chain, meta.links and description as its records show them (round wb23)', async () => {
    const { user, token } = await injectUserWithToken(app);
    const id = user.id;
    const held = (await state('balances', { userId: id })) as { coins: string[]; nfts: string[]; assets: { symbol: string; chain: unknown; links?: unknown; description: unknown }[] };
    const { assets } = held;
    expect(assets.map((a) => a.symbol).sort()).toEqual([...held.coins, ...held.nfts].sort());
    for (const asset of assets) {
      const nft = held.nfts.includes(asset.symbol);
      const record = (await get(`/api/v1/user/${id}/balances/${nft ? 'nft/' : ''}${encodeURIComponent(asset.symbol)}`, token)).json().data;
      expect({ chain: record.chain, description: record.description, ...(nft ? {} : { links: record.meta.links }) }).toEqual({ chain: asset.chain, description: asset.description, ...(nft ? {} : { links: asset.links }) });
    }
  });

  test('always holds ETH and a token of its chain, names every held coin\u2019s amount (one of them 0) as its records show it (round wb14)', async () => {
    for (let run = 0; run < 5; run += 1) {
      const { user, token } = await injectUserWithToken(app);
      const held = (await state('balances', { userId: user.id })) as { coins: string[]; amount: { symbol: string }; amounts: { symbol: string; precision: number; available: string }[] };
      expect(held.coins).toContain('ETH');
      expect(held.coins.some((symbol) => symbol === 'USDT' || symbol === 'USDC')).toBe(true);
      expect(held.coins.length).toBeLessThan(7);
      expect(held.amounts.map((a) => a.symbol)).toEqual(held.coins);
      const zero = held.amounts.filter((a) => a.available === '0');
      expect(zero).toHaveLength(1);
      expect([held.amount.symbol, 'ETH']).not.toContain(zero[0]!.symbol);
      for (const { symbol, precision, available } of held.amounts) {
        if (available !== '0') expect(available).toMatch(new RegExp(`^[1-9]\\d*${precision > 0 ? `\\.\\d{${precision - 1}}[1-9]` : ''}$`));
        const record = (await get(`/api/v1/user/${user.id}/balances/${symbol}`, token)).json().data;
        expect([Number(record.precision), record.amounts.crypto.available]).toEqual([precision, available]);
      }
      const listed = (await get(`/api/v1/user/${user.id}/balances`, token)).json().data.coins as { symbol: string }[];
      expect(listed.map((c) => c.symbol).sort()).toEqual([...held.coins].sort());
    }
  });

  test("refuses an unknown user with 422 and a message (the contract's answer for params that do not allow the state)", async () => {
    const response = await app.inject({ method: 'POST', url: STATES_PATH, payload: { state: 'balances', params: { userId: 'nope' } } });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toMatch(/^state balances: /);
  });
});

describe('records and envelopes (sections 2.2, 4.6 to 4.9)', () => {
  test('the coin list is { data: { coins } } with every held coin, valid against the schema', async () => {
    const { id, token, held } = await holder();
    const response = await get(`/api/v1/user/${id}/balances`, token);
    expect(response.statusCode).toBe(200);
    expect(schemaProblems('balance-coin-list-response', response.json())).toEqual([]);
    const coins = response.json().data.coins as { symbol: string; type: string; quantity: number; chain: { name: unknown }; meta: { total_supply: unknown } }[];
    expect(coins.map((c) => c.symbol).sort()).toEqual([...held.coins].sort());
    for (const coin of coins) {
      expect(coin.type).toBe('coin');
      expect(coin.quantity).toBe(-1);
      expect(typeof coin.meta.total_supply).toBe('number');
    }
  });

  test('the NFT list is { data: [records] } with every held NFT, positive quantities and {type, value} properties', async () => {
    const { id, token, held } = await holder();
    const response = await get(`/api/v1/user/${id}/balances/nft`, token);
    expect(response.statusCode).toBe(200);
    expect(schemaProblems('balance-nft-list-response', response.json())).toEqual([]);
    const nfts = response.json().data as { symbol: string; type: string; quantity: number; properties: unknown[] }[];
    expect(nfts.map((n) => n.symbol).sort()).toEqual([...held.nfts].sort());
    for (const nft of nfts) {
      expect(nft.type).toBe('nft');
      expect(nft.quantity).toBeGreaterThan(0);
      expect(nft.properties.length).toBeGreaterThan(0);
    }
  });

  test('every amount is a decimal string with at most 25 fractional digits or the bare 0', async () => {
    const { id, token } = await holder();
    const coins = (await get(`/api/v1/user/${id}/balances`, token)).json().data.coins;
    const nfts = (await get(`/api/v1/user/${id}/balances/nft`, token)).json().data;
    for (const record of [...coins, ...nfts]) {
      for (const set of ['crypto', 'fiat']) for (const field of AMOUNT_FIELDS) expect(record.amounts[set][field]).toMatch(DECIMAL);
    }
  });

  test('native coins have a chain of two nulls; tokens name their chain', async () => {
    const { id, token } = await holder();
    const btc = (await get(`/api/v1/user/${id}/balances?${assets(['BTC', 'USDT'])}`, token)).json().data.coins as { symbol: string; chain: unknown }[];
    // The state picks coins at random; check whichever of the two it gave.
    for (const coin of btc) expect(coin.chain).toEqual(coin.symbol === 'BTC' ? { name: null, symbol: null } : { name: 'Ethereum', symbol: 'ETH' });
  });

  test('show answers { data: record } for a held coin and NFT, 404 { message } for a symbol not held', async () => {
    const { id, token, held } = await holder();
    const coin = await get(`/api/v1/user/${id}/balances/${held.coins[0]}`, token);
    expect(coin.statusCode).toBe(200);
    expect(schemaProblems('balance-response', coin.json())).toEqual([]);
    expect(coin.json().data.symbol).toBe(held.coins[0]);
    const nft = await get(`/api/v1/user/${id}/balances/nft/${encodeURIComponent(held.nfts[0]!)}`, token);
    expect(nft.statusCode).toBe(200);
    expect(nft.json().data.symbol).toBe(held.nfts[0]);
    const missing = await get(`/api/v1/user/${id}/balances/NOPE`, token);
    expect(missing.statusCode).toBe(404);
    expect(schemaProblems('error-message', missing.json())).toEqual([]);
    // An NFT is not shown as a coin, nor a coin as an NFT.
    expect((await get(`/api/v1/user/${id}/balances/${encodeURIComponent(held.nfts[0]!)}`, token)).statusCode).toBe(404);
    expect((await get(`/api/v1/user/${id}/balances/nft/${held.coins[0]}`, token)).statusCode).toBe(404);
  });
});

describe('the assets[] filter (sections 4.6, 4.8)', () => {
  test('one symbol and several symbols return exactly those', async () => {
    const { id, token, held } = await holder();
    const one = (await get(`/api/v1/user/${id}/balances?${assets([held.coins[0]!])}`, token)).json().data.coins as { symbol: string }[];
    expect(one.map((c) => c.symbol)).toEqual([held.coins[0]]);
    const two = (await get(`/api/v1/user/${id}/balances?${assets(held.coins.slice(0, 2))}`, token)).json().data.coins as { symbol: string }[];
    expect(two.map((c) => c.symbol).sort()).toEqual(held.coins.slice(0, 2).sort());
    const nfts = (await get(`/api/v1/user/${id}/balances/nft?${assets(held.nfts.slice(0, 2))}`, token)).json().data as { symbol: string }[];
    expect(nfts.map((c) => c.symbol).sort()).toEqual(held.nfts.slice(0, 2).sort());
  });

  test('an unknown symbol returns nothing; an empty assets[] filters nothing', async () => {
    const { id, token, held } = await holder();
    expect((await get(`/api/v1/user/${id}/balances?${assets(['NOPE'])}`, token)).json().data.coins).toEqual([]);
    expect((await get(`/api/v1/user/${id}/balances?assets[]=`, token)).json().data.coins).toHaveLength(held.coins.length);
  });
});

describe('access (sections 5.3, 5.6, 7)', () => {
  test('401 { error } without a token and with a logged-out token', async () => {
    const { id, token, held } = await holder();
    const none = await get(`/api/v1/user/${id}/balances`);
    expect(none.statusCode).toBe(401);
    expect(schemaProblems('error-auth', none.json())).toEqual([]);
    expect((await app.inject({ method: 'POST', url: '/api/v1/user/logout', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect((await get(`/api/v1/user/${id}/balances/nft/${encodeURIComponent(held.nfts[0]!)}`, token)).statusCode).toBe(401);
  });

  test.each(['/balances', '/balances/nft', '/balances/BTC', '/balances/nft/ANY-1'])("another user's %s answers 403 This action is unauthorized.", async (suffix) => {
    const owner = await holder();
    const other = await holder();
    const response = await get(`/api/v1/user/${owner.id}${suffix}`, other.token);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'This action is unauthorized.' });
  });

  test('an inactive account may still read its balances (the inactive 403 is for bank, bonus and card)', async () => {
    const user = await state('user.inactive');
    await state('balances', { userId: user.id });
    expect((await get(`/api/v1/user/${user.id}/balances`, user.token)).statusCode).toBe(200);
  });
});
