import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { CheckContext } from '../check/check.js';
import { userWithToken } from './flows.js';

/** Helpers of the balance suite (sections 4.6 to 4.9): paths, a user holding balances, dead tokens. */

/** The repeatable query parameter of the list endpoints, sent as `assets[]=A&assets[]=B`. */
export const ASSETS_PARAM = 'assets[]';

export const balancePaths = {
  nftList: (user: string) => `/api/v1/user/${encodeURIComponent(user)}/balances/nft`,
  nftShow: (user: string, asset: string) => `/api/v1/user/${encodeURIComponent(user)}/balances/nft/${encodeURIComponent(asset)}`,
  coinList: (user: string) => `/api/v1/user/${encodeURIComponent(user)}/balances`,
  coinShow: (user: string, asset: string) => `/api/v1/user/${encodeURIComponent(user)}/balances/${encodeURIComponent(asset)}`,
};

/** A fresh user with an access token who holds coins and NFTs (provider state `balances`). */
export async function holder(t: CheckContext) {
  const { user, token } = await userWithToken(t, {}, { needs: ['balances'] });
  const held = await t.state('balances', { userId: user.id });
  if (!Array.isArray(held.coins) || !Array.isArray(held.nfts) || held.coins.length === 0 || held.nfts.length === 0) {
    throw new Error('precondition: provider state balances must answer { coins: [symbols], nfts: [symbols] } with at least one of each');
  }
  return { user, token, held };
}

/** An access token that was issued and then destroyed by logout (section 4.5), of a user holding balances. */
export async function loggedOutToken(t: CheckContext): Promise<{ userId: string; token: string }> {
  const { user, token } = await userWithToken(t, {}, { needs: ['balances'] });
  const response = await t.post('/api/v1/user/logout', { token });
  if (response.status !== 200) throw new Error(`precondition: logout must answer 200, got ${response.status}`);
  return { userId: user.id, token };
}

/** A symbol no target is expected to list: `ZZQ` and 10 random upper-case letters. */
export function unknownSymbol(): string {
  const letters = Array.from(randomBytes(10), (b) => String.fromCharCode(65 + (b % 26))).join('');
  return `ZZQ${letters}`;
}

/** The symbols of a list of balance records, sorted. */
export function symbolsOf(records: { symbol: string }[]): string[] {
  return records.map((r) => r.symbol).sort();
}

/** The list filtered by `assets[]` must hold exactly the requested symbols (section 4.6, 4.8: the symbols to return). */
export function expectExactly(records: { symbol: string }[], requested: string[], what: string): void {
  expect(symbolsOf(records), `${what}: the records returned for assets[] = ${requested.join(', ')}`).toEqual([...requested].sort());
}

export { expectNoServerError } from '../check/errors.js';
