import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { utcMicros } from '../helpers/spec/utc-time.js';

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
const notReadings = ['2026-11-26T08:18:18.891Z', '2026-11-26T08:18:18.891157+02:00', '2026-11-26 08:18:18.891157Z', '2026-02-30T08:18:18.891157Z', '1795681098', '2026-11-26T08:18:18.891157'];

describe('ISO 8601 UTC times with microseconds (section 1.4)', () => {
  it.each(readings)('reads %s as the same instant, and the schema accepts it', (value) => {
    expect(utcMicros(value)).toBe(SAME_INSTANT);
    expect(schemaProblems('session', { id: '1|x', userId: '6f1c1a4e-4a51-4b43-9a0e-2a8f1c5d7e10', ttl: 60, until: value, created: value })).toEqual([]);
  });
  it.each(notReadings)('refuses %s (no microseconds, not UTC, not ISO 8601 or no real date)', (value) => {
    expect(utcMicros(value)).toBeUndefined();
  });
});
