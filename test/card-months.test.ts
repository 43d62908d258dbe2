import { describe, expect, it } from 'vitest';
import { laterMonthsThisYear, monthYear } from '../helpers/arrange/cards.js';
import { laterMonthLeftThisYear } from '../reference/mutants/round-wb8.js';

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
    // 30 November, 9:30 UTC: 23:30 in UTC+14, December within the hour of margin (the test's length, a clock ahead).
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 10, 30, 9, 30)))).toEqual([]);
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 10, 30, 8, 59))).map((m) => m.date)).toEqual(['12/26']);
  });

  // The mutant only a later month of this year kills is registered while the suite sends one (a day of margin), so
  // that the mutation gate does not fail through December (reference/mutants/round-wb8.ts).
  it('registers wb8-cards-expiry-this-year-refused only while a later month of the reference\'s year is sent', () => {
    expect(laterMonthLeftThisYear(new Date(Date.UTC(2026, 10, 26, 12)))).toBe(true);
    expect(laterMonthLeftThisYear(new Date(Date.UTC(2026, 10, 28, 20)))).toBe(true);
    expect(laterMonthLeftThisYear(new Date(Date.UTC(2026, 10, 29, 12)))).toBe(false);
    expect(laterMonthLeftThisYear(new Date(Date.UTC(2026, 11, 15)))).toBe(false);
    expect(laterMonthLeftThisYear(new Date(Date.UTC(2026, 11, 31, 23)))).toBe(false);
    expect(laterMonthLeftThisYear(new Date(Date.UTC(2027, 0, 1, 0)))).toBe(true);
    // Whenever it is registered, the suite sends a later month of the same (UTC) year for the next day.
    for (let hour = 0; hour < 24 * 366; hour += 5) {
      const at = new Date(Date.UTC(2026, 0, 1, hour));
      if (!laterMonthLeftThisYear(at)) continue;
      for (const later of [0, 12, 23]) {
        const then = new Date(at.getTime() + later * 3600 * 1000);
        const sent = laterMonthsThisYear(then).map((m) => m.year);
        expect(sent.length > 0 && sent.every((year) => year === String(then.getUTCFullYear() % 100))).toBe(true);
      }
    }
  });

  it('gives none in December, and the new year once January has begun in UTC+14', () => {
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 11, 1, 0)))).toEqual([]);
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 11, 31, 8)))).toEqual([]);
    expect(laterMonthsThisYear(new Date(Date.UTC(2026, 11, 31, 11))).map((m) => m.date)).toEqual(['02/27', '12/27']);
  });
});
