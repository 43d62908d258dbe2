import { describe, expect, it } from 'vitest';
import { calendarDate, canonicalDecimal, fractionDigits, precisionOf } from '../helpers/arrange/balances.js';

/** The readings the balance suite allows where section 2.2 gives no format: a genesis date's writing, an amount's trailing zeros, precision as a number or a numeric string. */
describe('a genesis date, read loosely (section 2.2: "date string", format not given)', () => {
  it.each([
    '2009-01-03', '2009-01-03T18:15:05Z', '2009-01-03 18:15:05+00:00', '2009-01-03T18:15:05.123+0100', '2009/1/3', '20090103',
    '03.01.2009', '01/13/2009', '13/01/2009', '3 January 2009', 'January 3, 2009', 'Jan 3 2009', 'Sat, 3 Jan 2009', '1 Sept 2009', '3rd Jan 2009', '2000-02-29',
    // With a time of day and a zone, as RFC 7231, JavaScript's Date#toString, Ruby's Time#to_s and US locales write it.
    'Sat, 03 Jan 2009 18:15:05 GMT', 'Sat Jan 03 2009 18:15:05 GMT+0000 (Coordinated Universal Time)', '2009-01-03 18:15:05 UTC', '1/3/2009, 6:15:05 PM',
    '03-Jan-2009', '2009-Jan-03', '3rd of January 2009', 'Saturday, January 3, 2009', '2009-01-03Z', '2009-01-03+00:00', '20090103T181505Z', '1/3/09', '2009-003', '2008-366',
  ])('takes %j as a calendar date', (value) => {
    expect(calendarDate(value)).toBe('date');
  });

  it.each(['2009-01', '2009'])('takes %j as a date without its day (advised on, never failed)', (value) => {
    expect(calendarDate(value)).toBe('partial');
  });

  it.each(['0000-00-00', '2009-02-30', '2009-13-01', '1900-02-29', '32/01/2009', 'unknown', '', 'foo 12 2009', 'Janx 3 2009', '1230768000', '0000', 'null',
    '0000-00-00 00:00:00', '0000-00-00T00:00:00Z', '2009-366', 'Sunshine 3 Jan 2009'])('takes %j as no date', (value) => {
    expect(calendarDate(value)).toBe('none');
  });
});

describe('amounts and precision (sections 1.5 and 2.2)', () => {
  it('writes equal decimal values alike, whatever their leading and trailing zeros', () => {
    expect(canonicalDecimal('0.10')).toBe(canonicalDecimal('0.1'));
    expect(canonicalDecimal('00.1')).toBe('0.1');
    expect(canonicalDecimal('1.000')).toBe('1');
    expect(canonicalDecimal('0')).toBe(canonicalDecimal('0.0'));
    expect(canonicalDecimal('12.3400')).toBe('12.34');
    expect(canonicalDecimal('1.23')).not.toBe(canonicalDecimal('1.2345'));
  });

  // Reading round 13: a value below one may leave out its integer digit ('.5', Java's DecimalFormat); the same value.
  it('writes a value without its integer digit as the same value, and no other writing so', () => {
    expect([canonicalDecimal('.5'), canonicalDecimal('.50000000'), canonicalDecimal('-.50'), canonicalDecimal('-.0')]).toEqual(['0.5', '0.5', '-0.5', '0']);
    expect(canonicalDecimal('.5')).not.toBe(canonicalDecimal('5'));
    // Not decimal writings: returned as they are, so they never equal a value.
    expect([canonicalDecimal('.'), canonicalDecimal('5.'), canonicalDecimal(''), canonicalDecimal('-'), canonicalDecimal('1e5')]).toEqual(['.', '5.', '', '-', '1e5']);
  });

  it('counts the fractional digits a writing carries', () => {
    expect([fractionDigits('0'), fractionDigits('1.50'), fractionDigits('0.12345678')]).toEqual([0, 2, 8]);
  });

  it('reads precision as an integer or a numeric string, nothing else', () => {
    expect([precisionOf(8), precisionOf('6'), precisionOf(0)]).toEqual([8, 6, 0]);
    expect([precisionOf('x'), precisionOf(1.5), precisionOf(null), precisionOf('-1')]).toEqual([undefined, undefined, undefined, undefined]);
    // Reading round 13: a whole number with a fraction of zeros ('8.00', a DECIMAL column) is that number; any other fraction is none.
    expect([precisionOf('8.00'), precisionOf('0.0')]).toEqual([8, 0]);
    expect([precisionOf('8.5'), precisionOf('8.'), precisionOf('.0'), precisionOf('8.01')]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
