import { describe, expect, it } from 'vitest';
import { laterMonthsThisYear, monthYear } from '../helpers/arrange/cards.js';

/** The card expiries the suite sends near the current month (section 4.6a "not in the past"), counted in every time zone. */
describe('card expiry months (helpers/arrange/cards.ts)', () => {
  it('counts months ahead from the current UTC month, across a year end', () => {
    expect(monthYear(0, new Date(Date.UTC(2026, 10, 26)))).toEqual({ month: '11', year: '26', date: '11/26' });
    expect(monthYear(2, new Date(Date.UTC(2026, 10, 26)))).toEqual({ month: '01', year: '27', date: '01/27' });
  });

  it('gives the next month and December of this year, one value when the next month is December', () => {
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 2, 15, 12))).map((m) => m.date)).toEqual(['04/26', '12/26']);
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 10, 26, 10))).map((m) => m.date)).toEqual(['12/26']);
  });

  it('counts from the latest local time on Earth (UTC+14): a month already current somewhere is not later', () => {
    // 31 March, 11:00 UTC: already 1 April in UTC+14, so April is the current month there, May the next.
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 2, 31, 11))).map((m) => m.date)).toEqual(['05/26', '12/26']);
    // 30 November, 10:00 UTC: already December in UTC+14, so no month of the year is left.
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 10, 30, 10)))).toEqual([]);
  });

  it('gives none in December, and the new year once January has begun in UTC+14', () => {
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 11, 1, 0)))).toEqual([]);
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 11, 31, 9)))).toEqual([]);
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 11, 31, 11))).map((m) => m.date)).toEqual(['02/27', '12/27']);
  });
});
