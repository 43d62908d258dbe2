import { describe, expect, it } from 'vitest';
import { COMMON_CURRENCIES } from '../helpers/arrange/banks.js';
import { CURRENCIES_ALWAYS_SENT, CURRENCIES_SINCE_2015 } from '../helpers/arrange/currencies.js';
import { ISO_4217_NUMERIC, alphabeticCurrency, currencyWritings, sameCurrency } from '../helpers/spec/currencies.js';
import { comparableValue, storedForm } from '../helpers/spec/normalisation.js';

// allowed-r9-currency-shown-numeric: a bank's currency may be shown as its ISO 4217 numeric code.
describe('ISO 4217 numeric codes (helpers/spec/currencies.ts)', () => {
  it('holds the numeric code of every currency the suite sends, drawn or named', () => {
    const sent = [...new Set([...CURRENCIES_SINCE_2015, ...CURRENCIES_ALWAYS_SENT, ...COMMON_CURRENCIES, 'EUR', 'USD', 'SEK'])];
    expect(sent.filter((code) => !Object.hasOwn(ISO_4217_NUMERIC, code))).toEqual([]);
    expect(Object.keys(ISO_4217_NUMERIC).filter((code) => !CURRENCIES_SINCE_2015.includes(code))).toEqual([]);
  });

  it('gives each currency its own three-digit code, as the standard writes it', () => {
    const numeric = Object.values(ISO_4217_NUMERIC);
    expect(numeric.filter((code) => !/^\d{3}$/.test(code))).toEqual([]);
    expect(new Set(numeric).size).toBe(numeric.length);
    expect({ EUR: ISO_4217_NUMERIC.EUR, USD: ISO_4217_NUMERIC.USD, JPY: ISO_4217_NUMERIC.JPY, ALL: ISO_4217_NUMERIC.ALL, AED: ISO_4217_NUMERIC.AED, ZMW: ISO_4217_NUMERIC.ZMW, XOF: ISO_4217_NUMERIC.XOF }).toEqual({ EUR: '978', USD: '840', JPY: '392', ALL: '008', AED: '784', ZMW: '967', XOF: '952' });
  });

  it('reads a numeric code as its alphabetic code, and leaves any other text as it is (trimmed, upper-cased)', () => {
    expect(alphabeticCurrency('978')).toBe('EUR');
    expect(alphabeticCurrency(' 008 ')).toBe('ALL');
    expect(alphabeticCurrency('eur')).toBe('EUR');
    expect(alphabeticCurrency('999')).toBe('999');
    expect(alphabeticCurrency('8')).toBe('8');
    expect(sameCurrency('978', 'EUR')).toBe(true);
    expect(sameCurrency('840', 'EUR')).toBe(false);
    expect(sameCurrency(978, 'EUR')).toBe(false);
    expect(currencyWritings('EUR')).toEqual(['EUR', '978']);
    expect(currencyWritings('978')).toEqual(['978', 'EUR']);
    expect(currencyWritings('eur')).toEqual(['eur', 'EUR', '978']);
    expect(currencyWritings('XYZ')).toEqual(['XYZ']);
  });

  it('makes the numeric code of the currency sent an equivalent form of currency, and no other code', () => {
    expect(storedForm('978', 'EUR', 'currency')).toBe('equivalent');
    expect(storedForm('985', 'pln', 'currency')).toBe('equivalent');
    expect(storedForm('eur', 'EUR', 'currency')).toBe('normalised');
    expect(storedForm('840', 'EUR', 'currency')).toBe('different');
    expect(storedForm('USD', 'EUR', 'currency')).toBe('different');
    expect(storedForm('97', 'EUR', 'currency')).toBe('different');
    // Only the currency field: a bankName of digits stays its digits.
    expect(storedForm('978', 'EUR', 'bankName')).toBe('different');
  });

  it('compares two reads of one currency in either code, and nothing else', () => {
    expect(comparableValue('currency', '978')).toBe('EUR');
    expect(comparableValue('currency', 'EUR')).toBe('EUR');
    expect(comparableValue('currency', 'eur')).toBe('eur');
    expect(comparableValue('swift', '978')).toBe('978');
  });
});
