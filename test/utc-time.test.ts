import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { hasMicrosecondDigits, utcMicros } from '../helpers/spec/utc-time.js';

// Section 1.4 "ISO 8601 UTC strings with microseconds": every ISO 8601 form of a UTC time is a reading (issue 28).
const SAME_INSTANT = 1795681098891157n;
const readings = [
  '2026-11-26T08:18:18.891157Z',
  '2026-11-26T08:18:18,891157Z',
  '2026-11-26T08:18:18.891157+00:00',
  '2026-11-26T08:18:18.891157+0000',
  '2026-11-26T08:18:18.891157+00',
  '20261126T081818.891157Z',
  '20261126T081818,891157+0000',
  '20261126T081818.891157+00',
  '2026-11-26T08:18:18.891157000Z',
  // Ordinal and week dates (ISO 8601-1 5.2.3 and 5.2.4; reading round r6), extended and basic.
  '2026-330T08:18:18.891157Z',
  '2026330T081818,891157+00',
  '2026-W48-4T08:18:18.891157Z',
  '2026W484T081818.891157+0000',
  '2026-W48-4T08:18:18,891157+00:00',
  // The separator and the designator in lower case (RFC 3339 5.6: "the 'T' and 'Z' characters ... may alternatively be
  // lower case"; reading round r12, allowed-r12-session-times-lower-case-t-z), in each format and mixed.
  '2026-11-26t08:18:18.891157z',
  '2026-11-26t08:18:18.891157Z',
  '2026-11-26T08:18:18.891157z',
  '20261126t081818.891157z',
  '2026-11-26t08:18:18,891157+00:00',
  '2026-330t08:18:18.891157z',
];
// Days only an ordinal or week date names unusually: week 53, a week 1 that starts in the previous calendar year,
// a week-year's last week that ends in the next one, and day 366 of a leap year.
const otherDays: [string, string][] = [
  ['2026-W53-5T00:00:00.000001Z', '2027-01-01T00:00:00.000001Z'],
  ['2020W537T000000.000001Z', '2021-01-03T00:00:00.000001Z'],
  ['2025-W01-1T00:00:00.000001Z', '2024-12-30T00:00:00.000001Z'],
  ['2026-W01-4T12:00:00.000001Z', '2026-01-01T12:00:00.000001Z'],
  ['2024-366T23:59:59.999999Z', '2024-12-31T23:59:59.999999Z'],
  ['2024366T235959.999999Z', '2024-12-31T23:59:59.999999Z'],
  ['2026-001T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z'],
  ['2026-365T00:00:00.000000Z', '2026-12-31T00:00:00.000000Z'],
  ['2024-060T00:00:00.000000Z', '2024-02-29T00:00:00.000000Z'],
];
// Writers that drop trailing zero groups (Java's Instant.toString()): any fraction length, none included, is read, padded to microseconds.
const shortFractions: [string, bigint][] = [
  ['2026-11-26T08:18:18.891Z', 1795681098891000n],
  ['2026-11-26T08:18:18,8Z', 1795681098800000n],
  ['2026-11-26T08:18:18Z', 1795681098000000n],
  ['20261126T081818+0000', 1795681098000000n],
  ['2026-11-26T08:18:18.8911+00', 1795681098891100n],
];
const notReadings = [
  '2026-11-26T08:18:18.891157+02:00', '2026-11-26 08:18:18.891157Z', '2026-02-30T08:18:18.891157Z', '1795681098', '2026-11-26T08:18:18.891157', '2026-11-26T08:18:18.Z',
  '2026-366T08:18:18.891157Z', // day 366 of a common year
  '2026-000T08:18:18.891157Z',
  '2026-W54-1T08:18:18.891157Z', // no year has 54 weeks
  '2025-W53-1T08:18:18.891157Z', // 2025 has 52 weeks
  '2026-W00-1T08:18:18.891157Z',
  '2026-W48-8T08:18:18.891157Z',
  '2026-W48-0T08:18:18.891157Z',
  '2026-W484T08:18:18.891157Z', // basic date with an extended time
  '2026330T08:18:18.891157Z',
  '2026-330T081818.891157Z',
  '2026-330T08:18:18.891157+01:00',
  '2026-W48-4T08:18:18.891157',
  '2026-W48T08:18:18.891157Z', // a week without its day is no complete date
  '2026-13-01T08:18:18.891157Z',
  '2026-11-26T24:00:00.000000Z',
  '2026-11-26x08:18:18.891157z', // neither T nor t between date and time
  '2026-11-26t08:18:18.891157y',
  '2026-w48-4t08:18:18.891157z', // RFC 3339's leave for lower case is T and Z only
];

describe('ISO 8601 UTC times with microseconds (section 1.4)', () => {
  it.each(readings)('reads %s as the same instant, and the schema accepts it', (value) => {
    expect(utcMicros(value)).toBe(SAME_INSTANT);
    expect(schemaProblems('session', { id: '1|x', userId: '6f1c1a4e-4a51-4b43-9a0e-2a8f1c5d7e10', ttl: 60, until: value, created: value })).toEqual([]);
  });
  it.each(readings)('counts %s as written with microseconds', (value) => {
    expect(hasMicrosecondDigits(value)).toBe(true);
  });
  it.each(shortFractions)('reads %s (trailing zeros dropped) padded to microseconds, and the schema accepts it, but not as written with microseconds', (value, micros) => {
    expect(utcMicros(value)).toBe(micros);
    expect(schemaProblems('session', { id: '1|x', userId: '6f1c1a4e-4a51-4b43-9a0e-2a8f1c5d7e10', ttl: 60, until: value, created: value })).toEqual([]);
    expect(hasMicrosecondDigits(value)).toBe(false);
  });
  it.each(otherDays)('reads %s as %s, and the schema accepts it', (value, calendar) => {
    expect(utcMicros(value)).toBe(utcMicros(calendar));
    expect(utcMicros(value)).toBeDefined();
    expect(hasMicrosecondDigits(value)).toBe(true);
    expect(schemaProblems('session', { id: '1|x', userId: '6f1c1a4e-4a51-4b43-9a0e-2a8f1c5d7e10', ttl: 60, until: value, created: value })).toEqual([]);
  });
  it.each(notReadings)('refuses %s (not UTC, not ISO 8601 or no real date)', (value) => {
    expect(hasMicrosecondDigits(value)).toBe(false);
    expect(utcMicros(value)).toBeUndefined();
  });
});
