/**
 * Section 1.4: `until` and `created` are "ISO 8601 UTC strings with microseconds". ISO 8601-1 gives three
 * complete representations of a calendar day, each combinable with a time of day: the calendar date
 * (`2026-11-26`, 5.2.2), the ordinal date (year and day of the year, `2026-330`, 5.2.3) and the week date
 * (week-year, week and weekday, `2026-W48-4`, 5.2.4). Each is written in the extended format
 * (`2026-11-26T08:18:18.891157Z`, `2026-330T08:18:18.891157Z`, `2026-W48-4T08:18:18.891157Z`) or the basic one
 * (`20261126T081818.891157Z`, `2026330T081818.891157Z`, `2026W484T081818.891157Z`), date and time in the same
 * format, with a comma or a full stop before the fraction, and UTC as `Z`, `+00:00`, `+0000` or `+00`. Every one
 * of these forms is a reading of the text, so each is accepted (issue 28, reading rounds r5 and r6); so is the
 * separator `t` and the designator `z` in lower case (RFC 3339 5.6, the Internet's profile of ISO 8601: "Per [ABNF]
 * and ISO8601, the 'T' and 'Z' characters in this syntax may alternatively be lower case", reading round r12);
 * schemas/common.json's isoMicrosUtc pattern says the same, and this parser alone judges whether the day is real
 * (no 2026-02-30, no day 366 of a common year, no week 53 of a 52-week year, no W54).
 * The fraction may have any length, none included: common writers (Java's `Instant.toString()`) drop trailing
 * zero groups, so a time at .891000 is written `.891Z` and one at a whole second has no fraction. Requiring six
 * digits on every Session would fail such a writer about once in a thousand Sessions (principle 1, never
 * flaky); "with microseconds" is judged instead by one test across several Sessions (suites/authentication.test.ts,
 * `hasMicrosecondDigits`). A fraction is read up to microseconds, shorter ones padded with zeros.
 */

// Groups: 1 year, 2 month, 3 day | 4 day of the year | 5 week, 6 weekday; 7 hour, 8 minute, 9 second; 10 fraction.
const ZONE_AND_FRACTION = '(?:[.,](\\d+))?(?:[Zz]|\\+00(?::?00)?)$';
const EXTENDED = new RegExp(`^(\\d{4})-(?:(\\d{2})-(\\d{2})|(\\d{3})|W(\\d{2})-([1-7]))[Tt](\\d{2}):(\\d{2}):(\\d{2})${ZONE_AND_FRACTION}`);
const BASIC = new RegExp(`^(\\d{4})(?:(\\d{2})(\\d{2})|(\\d{3})|W(\\d{2})([1-7]))[Tt](\\d{2})(\\d{2})(\\d{2})${ZONE_AND_FRACTION}`);

const DAY_MS = 86_400_000;

/** Milliseconds at 00:00 UTC of `month`/`day` of `year` (any year 0000 to 9999; no 1900 offset for small years). */
function startOf(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

/** Milliseconds at 00:00 UTC of the day the match names, or undefined when no such day exists. */
function dayOf(match: RegExpExecArray): number | undefined {
  const year = Number(match[1]);
  if (match[2] !== undefined) {
    const [month, day] = [Number(match[2]), Number(match[3])];
    const ms = startOf(year, month, day);
    // setUTCFullYear rolls 2026-02-30 over to March: a real date reads back as it was written.
    const back = new Date(ms);
    return month >= 1 && day >= 1 && back.getUTCMonth() === month - 1 && back.getUTCDate() === day ? ms : undefined;
  }
  if (match[4] !== undefined) {
    const ordinal = Number(match[4]);
    const ms = startOf(year, 1, ordinal);
    return ordinal >= 1 && new Date(ms).getUTCFullYear() === year ? ms : undefined;
  }
  const [week, weekday] = [Number(match[5]), Number(match[6])];
  // Week 1 is the week (Monday to Sunday) holding 4 January; it may start in the previous calendar year.
  const fourth = startOf(year, 1, 4);
  const mondayOfWeek1 = fourth - ((new Date(fourth).getUTCDay() + 6) % 7) * DAY_MS;
  const ms = mondayOfWeek1 + ((week - 1) * 7 + (weekday - 1)) * DAY_MS;
  // A week-year has 52 or 53 weeks: the day's Thursday must fall in `year`.
  const thursday = ms + (4 - weekday) * DAY_MS;
  return week >= 1 && new Date(thursday).getUTCFullYear() === year ? ms : undefined;
}

/** The match of an ISO 8601 UTC time in any of its forms, or null. */
function matchOf(value: unknown): RegExpExecArray | null {
  return typeof value === 'string' ? EXTENDED.exec(value) ?? BASIC.exec(value) : null;
}

/** Microseconds since the epoch of an ISO 8601 UTC time (a fraction of any length read up to microseconds), or undefined when `value` is none (or no real date). */
export function utcMicros(value: unknown): bigint | undefined {
  const match = matchOf(value);
  if (!match) return undefined;
  const day = dayOf(match);
  const [hour, minute, second] = [Number(match[7]), Number(match[8]), Number(match[9])];
  if (day === undefined || hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = day + ((hour * 60 + minute) * 60 + second) * 1000;
  return BigInt(millis) * 1000n + BigInt((match[10] ?? '').slice(0, 6).padEnd(6, '0'));
}

/** Whether `value` is an ISO 8601 UTC time (as utcMicros reads it) written with six or more fraction digits. */
export function hasMicrosecondDigits(value: unknown): boolean {
  return utcMicros(value) !== undefined && (matchOf(value)?.[10]?.length ?? 0) >= 6;
}
