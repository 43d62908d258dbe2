/**
 * Section 1.4: `until` and `created` are "ISO 8601 UTC strings with microseconds". ISO 8601 writes such a time
 * in the extended format (`2026-11-26T08:18:18.891157Z`) or the basic one (`20261126T081818.891157Z`), with a
 * comma or a full stop before the fraction, and UTC as `Z`, `+00:00`, `+0000` or `+00`. Every one of these forms
 * is a reading of the text, so each is accepted; schemas/common.json's isoMicrosUtc pattern says the same.
 * The fraction may have any length, none included: common writers (Java's `Instant.toString()`) drop trailing
 * zero groups, so a time at .891000 is written `.891Z` and one at a whole second has no fraction. Requiring six
 * digits on every Session would fail such a writer about once in a thousand Sessions (principle 1, never
 * flaky); "with microseconds" is judged instead by one test across several Sessions (suites/authentication.test.ts,
 * `hasMicrosecondDigits`). A fraction is read up to microseconds, shorter ones padded with zeros.
 */
const UTC_MICROS = /^(?:(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})|(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2}))(?:[.,](\d+))?(?:Z|\+00(?::?00)?)$/;

/** Microseconds since the epoch of an ISO 8601 UTC time (a fraction of any length read up to microseconds), or undefined when `value` is none (or no real date). */
export function utcMicros(value: unknown): bigint | undefined {
  const match = typeof value === 'string' ? UTC_MICROS.exec(value) : null;
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = (match[1] !== undefined ? match.slice(1, 7) : match.slice(7, 13)) as string[];
  const text = `${year}-${month}-${day}T${hour}:${minute}:${second}Z`;
  const millis = Date.parse(text);
  // Date.parse rolls 2026-02-30 over to March: a real date prints back as it was written.
  if (Number.isNaN(millis) || new Date(millis).toISOString().slice(0, 19) !== text.slice(0, 19)) return undefined;
  return BigInt(millis) * 1000n + BigInt((match[13] ?? '').slice(0, 6).padEnd(6, '0'));
}

/** Whether `value` is an ISO 8601 UTC time (as utcMicros reads it) written with six or more fraction digits. */
export function hasMicrosecondDigits(value: unknown): boolean {
  const match = typeof value === 'string' && utcMicros(value) !== undefined ? UTC_MICROS.exec(value) : null;
  return (match?.[13]?.length ?? 0) >= 6;
}
