import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { CheckContext } from '../check/check.js';
import { userWithToken } from './flows.js';
import type { ApiResponse } from '../net/http.js';
import { notInterfaceAnswer } from '../check/errors.js';

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

/**
 * The answer to an assets[] the text gives no answer for (a symbol the platform does not know, a symbol of the list's
 * other kind, a symbol named twice): 4.6 and 4.8 say only "asset symbols to return", and list no refusal but 401, 403
 * and 409, which are wrong for the caller's own list. Any other client error is a refusal the text leaves open (404
 * from a symbol lookup such as Laravel's `firstOrFail`, 400 from a strict validator's `uniqueItems` or a typed query
 * binder, 422 from a validator, keyed by the item or not): advised on, its shape checked when it is 422; one that is not
 * JSON is probably not the interface's, so not verified (review-z, round wb19, review-ac F3, review-at F1 and F2).
 * `{ advised }` when the answer was such a refusal (the advisory given), `{ notVerified }` with the reason when it was
 * not JSON (the caller skips with it), `{}` for any other answer, which the caller judges.
 */
export function assetsRefusal(t: CheckContext, response: ApiResponse, what: string, section: string): { advised?: true; notVerified?: string } {
  if (response.status < 400 || response.status >= 500 || [401, 403, 409].includes(response.status)) return {};
  const notInterface = notInterfaceAnswer(response, what);
  if (notInterface) return { notVerified: notInterface };
  if (response.status === 422) t.expectSchema(response, 'error-validation');
  const keys = response.status === 422 ? ` (errors ${Object.keys((response.json as { errors?: object } | undefined)?.errors ?? {}).join(', ')})` : '';
  t.advise(`${what} is refused with ${response.status}${keys}; section ${section} does not say what such an assets[] gets`);
  return { advised: true };
}

/** A decimal string written without leading zeros of its whole part and trailing zeros of its fraction: equal values, equal writings. */
export function canonicalDecimal(value: string): string {
  // '.5' (no integer digits, as Java's DecimalFormat writes a value below one) is 0.5.
  const match = /^(-?)(\d+|(?=\.\d))(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const whole = (match[2] || '0').replace(/^0+(?=\d)/, '');
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
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.0+)?\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) && number >= 0 ? number : undefined;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A day of the proleptic Gregorian calendar, year 1 or later (setUTCFullYear: years below 100 are not read as 19xx). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return day <= last.getUTCDate();
}

/** A name (`January`), its three-letter abbreviation (`Jan`, `Sept`) or a longer prefix of it (`Januar`): its number, 1 to 12; 0 for any other word. */
function monthOf(word: string): number {
  const w = word.toLowerCase();
  if (w === 'sept') return 9;
  return w.length >= 3 ? MONTHS.findIndex((name) => name.startsWith(w)) + 1 : 0;
}

const isWeekday = (word: string): boolean => word.length >= 3 && WEEKDAYS.some((name) => name.startsWith(word.toLowerCase()));

/**
 * A time of day at the end of a writing, with what may follow it: seconds and their fraction, am/pm, a zone
 * (`Z`, `UTC`, `GMT`, `CET`, `+01:00`, `GMT+0100`) and a parenthesised zone name, as ISO 8601, RFC 7231
 * (`Sat, 03 Jan 2009 18:15:05 GMT`), JavaScript's Date#toString and `2009-01-03 18:15:05 UTC` write it.
 */
const TIME_OF_DAY = /(?:[T\s,]+)\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[ap]\.?m\.?)?(?:\s*[a-z]{1,5})?(?:\s*[+-]\d{2}(?::?\d{2})?)?(?:\s*\([^)]*\))?$/i;

/**
 * Section 2.2: `genesis_date` is "a date string", its format not given. Answers `'date'` for a calendar
 * date in any common writing, with or without a time of day after it (ISO 8601 and its basic form,
 * `YYYY/MM/DD`, `DD.MM.YYYY` or `MM/DD/YYYY` when either reading is a date, a two-digit year,
 * `3 January 2009`, `Jan 3, 2009`, `03-Jan-2009`, `Sat, 03 Jan 2009 18:15:05 GMT`, the ordinal
 * `2009-003`), `'partial'` for a year and month or a year alone (a date without its day), and `'none'`
 * for anything else (`0000-00-00`, `2009-02-30`, a count of seconds, text).
 */
export function calendarDate(value: string): 'date' | 'partial' | 'none' {
  const whole = value.trim();
  const basic = /^(\d{4})(\d{2})(\d{2})(?:T\d{2}(?:\d{2}(?:\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.exec(whole);
  if (basic) return isCalendarDay(Number(basic[1]), Number(basic[2]), Number(basic[3])) ? 'date' : 'none';
  const text = whole.replace(TIME_OF_DAY, '').replace(/[\s,]+$/, '');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\.?(?:Z|[+-]\d{2}:\d{2})?$/i.exec(text);
  if (m) return isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3])) ? 'date' : 'none';
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})\.?$/.exec(text);
  if (m) {
    const years = m[3]!.length === 4 ? [Number(m[3])] : [1900 + Number(m[3]), 2000 + Number(m[3])];
    return years.some((year) => isCalendarDay(year, Number(m![2]), Number(m![1])) || isCalendarDay(year, Number(m![1]), Number(m![2]))) ? 'date' : 'none';
  }
  m = /^(\d{4})-(\d{3})$/.exec(text);
  if (m) return Number(m[1]) >= 1 && Number(m[2]) >= 1 && Number(m[2]) <= (isCalendarDay(Number(m[1]), 2, 29) ? 366 : 365) ? 'date' : 'none';
  m = /^(\d{4})[-/.](\d{1,2})$/.exec(text);
  if (m) return Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[1]) > 0 ? 'partial' : 'none';
  if (/^\d{4}$/.test(text)) return Number(text) > 0 ? 'partial' : 'none';
  const tokens = text.split(/[\s,.\-/]+/).filter((token) => token !== '' && !isWeekday(token) && token.toLowerCase() !== 'of');
  if (tokens.length !== 3) return 'none';
  const month = tokens.findIndex((token) => /^[a-z]+$/i.test(token) && monthOf(token) > 0);
  const year = tokens.findIndex((token) => /^\d{4}$/.test(token));
  const day = tokens.findIndex((token) => /^\d{1,2}(st|nd|rd|th)?$/i.test(token));
  if (month < 0 || year < 0 || day < 0 || new Set([month, year, day]).size !== 3) return 'none';
  return isCalendarDay(Number(tokens[year]), monthOf(tokens[month]!), parseInt(tokens[day]!, 10)) ? 'date' : 'none';
}

const isoDay = (year: number, month: number, day: number): string => {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.toISOString().slice(0, 10).replace(/^\+0*/, '');
};

/**
 * Issue 27, white-box round wb22 (fix-wb22a): the calendar days (`YYYY-MM-DD`) a date string may write, in the writings
 * `calendarDate` reads as a `'date'` (none for a partial date or no date): both readings of `DD.MM.YYYY` / `MM/DD/YYYY`
 * and of a two-digit year, and, where a time of day with an explicit zone follows the date, the day in UTC as well as the
 * day written (`2009-01-03T00:00:00+01:00` may be read as 3 January or as its instant's UTC day, 2 January). Two
 * writings of one date share a day; a date a day off shares none.
 */
export function calendarDaysOf(value: string): string[] {
  if (calendarDate(value) !== 'date') return [];
  const whole = value.trim();
  const days = new Set<string>();
  const add = (year: number, month: number, day: number) => {
    if (isCalendarDay(year, month, day)) days.add(isoDay(year, month, day));
  };
  const time = TIME_OF_DAY.exec(whole);
  const zoned = time !== null && /(?:z|utc|gmt|[+-]\d{2}(?::?\d{2})?)\s*(?:\([^)]*\))?$/i.test(time[0]);
  // A zoned time of day: its day in UTC, and the day it is local midnight of in a zone from UTC-12 to UTC+14 (review-ak
  // F2: a date kept at local midnight and written in UTC, as Laravel's date cast with app.timezone Europe/Berlin writes
  // 2015-07-30 as "2015-07-29T22:00:00.000000Z"; 2.2 gives a "date string" and no zone). Only a local midnight, so that a
  // zoned time of the next day (review-al D2: "2009-01-04T00:00:00Z" for 2009-01-03) is not that day.
  if (zoned) {
    const instant = Date.parse(whole);
    if (Number.isFinite(instant)) {
      days.add(new Date(instant).toISOString().slice(0, 10));
      const midnights = [];
      for (let quarters = -12 * 4; quarters <= 14 * 4; quarters++) {
        const local = instant + quarters * 900_000;
        if (local % 86_400_000 === 0) midnights.push(new Date(local).toISOString().slice(0, 10));
      }
      // An instant that is no local midnight anywhere (a datetime kept in the app's zone, review-am F3: Asia/Tokyo's
      // 2015-07-31 00:26 written 2015-07-30T15:26Z): the day it falls on in any zone from UTC-12 to UTC+14.
      const zoneDays = midnights.length > 0 ? midnights : [-12, 14].map((shift) => new Date(instant + shift * 3_600_000).toISOString().slice(0, 10));
      for (const day of zoneDays) days.add(day);
    }
  }
  const basic = /^(\d{4})(\d{2})(\d{2})(?:T.*)?$/i.exec(whole);
  if (basic) {
    add(Number(basic[1]), Number(basic[2]), Number(basic[3]));
    return [...days];
  }
  const text = whole.replace(TIME_OF_DAY, '').replace(/[\s,]+$/, '');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\.?(?:Z|[+-]\d{2}:\d{2})?$/i.exec(text);
  if (m) {
    add(Number(m[1]), Number(m[2]), Number(m[3]));
    return [...days];
  }
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})\.?$/.exec(text);
  if (m) {
    const years = m[3]!.length === 4 ? [Number(m[3])] : [1900 + Number(m[3]), 2000 + Number(m[3])];
    for (const year of years) {
      add(year, Number(m[2]), Number(m[1]));
      add(year, Number(m[1]), Number(m[2]));
    }
    return [...days];
  }
  m = /^(\d{4})-(\d{3})$/.exec(text);
  if (m) {
    days.add(isoDay(Number(m[1]), 1, Number(m[2])));
    return [...days];
  }
  const tokens = text.split(/[\s,.\-/]+/).filter((token) => token !== '' && !isWeekday(token) && token.toLowerCase() !== 'of');
  const month = tokens.findIndex((token) => /^[a-z]+$/i.test(token) && monthOf(token) > 0);
  const year = tokens.findIndex((token) => /^\d{4}$/.test(token));
  const day = tokens.findIndex((token) => /^\d{1,2}(st|nd|rd|th)?$/i.test(token));
  if (tokens.length === 3 && month >= 0 && year >= 0 && day >= 0) add(Number(tokens[year]), monthOf(tokens[month]!), parseInt(tokens[day]!, 10));
  return [...days];
}
