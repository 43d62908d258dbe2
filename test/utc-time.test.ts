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
];
// Writers that drop trailing zero groups (Java's Instant.toString()): any fraction length, none included, is read, padded to microseconds.
const shortFractions: [string, bigint][] = [
  ['2026-11-26T08:18:18.891Z', 1795681098891000n],
  ['2026-11-26T08:18:18,8Z', 1795681098800000n],
  ['2026-11-26T08:18:18Z', 1795681098000000n],
  ['20261126T081818+0000', 1795681098000000n],
  ['2026-11-26T08:18:18.8911+00', 1795681098891100n],
];
const notReadings = ['2026-11-26T08:18:18.891157+02:00', '2026-11-26 08:18:18.891157Z', '2026-02-30T08:18:18.891157Z', '1795681098', '2026-11-26T08:18:18.891157', '2026-11-26T08:18:18.Z'];

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
  it.each(notReadings)('refuses %s (not UTC, not ISO 8601 or no real date)', (value) => {
    expect(hasMicrosecondDigits(value)).toBe(false);
    expect(utcMicros(value)).toBeUndefined();
  });
});
