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

/** A decimal string written without leading zeros of its whole part and trailing zeros of its fraction: equal values, equal writings. */
export function canonicalDecimal(value: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const whole = match[2]!.replace(/^0+(?=\d)/, '');
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const sign = match[1] && (whole !== '0' || fraction !== '') ? '-' : '';
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The fractional digits a decimal string writes (0 for an integer writing). */
export function fractionDigits(value: string): number {
  return /\.(\d+)$/.exec(value)?.[1]?.length ?? 0;
}

/** `precision` as section 2.2 allows it, an integer or a numeric string; undefined for anything else. */
export function precisionOf(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) && number >= 0 ? number : undefined;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*$/i;

function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Section 2.2: `genesis_date` is "a date string", its format not given. Answers `'date'` for a calendar
 * date in any common writing (ISO 8601 with or without a time, `YYYY/MM/DD`, `DD.MM.YYYY` or `MM/DD/YYYY`
 * when either reading is a date, `3 January 2009`, `Jan 3, 2009`), `'partial'` for a year and month or a
 * year alone (a date without its day), and `'none'` for anything else (`0000-00-00`, `2009-02-30`, text).
 */
export function calendarDate(value: string): 'date' | 'partial' | 'none' {
  const text = value.trim();
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.exec(text) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (m) return isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3])) ? 'date' : 'none';
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(text);
  if (m) return isCalendarDay(Number(m[3]), Number(m[2]), Number(m[1])) || isCalendarDay(Number(m[3]), Number(m[1]), Number(m[2])) ? 'date' : 'none';
  m = /^(\d{4})[-/.](\d{1,2})$/.exec(text);
  if (m) return Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[1]) > 0 ? 'partial' : 'none';
  if (/^\d{4}$/.test(text)) return Number(text) > 0 ? 'partial' : 'none';
  const tokens = text.split(/[\s,.]+/).filter(Boolean);
  if (tokens.length === 4 && WEEKDAYS.test(tokens[0]!)) tokens.shift();
  if (tokens.length !== 3) return 'none';
  const month = tokens.findIndex((token) => /^[a-z]{3,}$/i.test(token) && MONTHS.includes(token.slice(0, 3).toLowerCase()));
  const year = tokens.findIndex((token) => /^\d{4}$/.test(token));
  const day = tokens.findIndex((token) => /^\d{1,2}(st|nd|rd|th)?$/i.test(token));
  if (month < 0 || year < 0 || day < 0 || new Set([month, year, day]).size !== 3) return 'none';
  const monthNumber = MONTHS.indexOf(tokens[month]!.slice(0, 3).toLowerCase()) + 1;
  // A month name must be the month's name or its three-letter abbreviation, not any word beginning like one.
  const full = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'][monthNumber - 1]!;
  const word = tokens[month]!.toLowerCase();
  if (word.length > 3 && !(full.startsWith(word) || word === 'sept')) return 'none';
  return isCalendarDay(Number(tokens[year]), monthNumber, parseInt(tokens[day]!, 10)) ? 'date' : 'none';
}
