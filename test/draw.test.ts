import { describe, expect, it } from 'vitest';
import { drawDistinct, drawText, runPart } from '../helpers/arrange/draw.js';
import { CURRENCIES_ALWAYS_SENT, CURRENCIES_SINCE_2015 } from '../helpers/arrange/currencies.js';

describe('values drawn from a class (issue 27)', () => {
  it('draws the same values from the same seed and label, so --seed replays a run', () => {
    expect(drawDistinct('currency', CURRENCIES_SINCE_2015, 3, CURRENCIES_ALWAYS_SENT)).toEqual(drawDistinct('currency', CURRENCIES_SINCE_2015, 3, CURRENCIES_ALWAYS_SENT));
    expect(drawText('swift-9', 5)).toBe(drawText('swift-9', 5));
  });

  it('draws distinct members, none of those always sent', () => {
    const drawn = drawDistinct('currency', CURRENCIES_SINCE_2015, 20, CURRENCIES_ALWAYS_SENT);
    expect(new Set(drawn).size).toBe(20);
    expect(drawn.filter((code) => CURRENCIES_ALWAYS_SENT.includes(code))).toEqual([]);
  });

  it('gives a unique field a per-run part that a replay does not repeat', () => {
    expect(runPart(16)).toMatch(/^[0-9]{16}$/);
    expect(runPart(16)).not.toBe(runPart(16));
  });
});

describe('the currencies of every ISO 4217 edition since 2015', () => {
  it('holds no code introduced or withdrawn since 2015, so no target on any edition refuses one', () => {
    const changed = ['BYN', 'BYR', 'LTL', 'MRO', 'MRU', 'STD', 'STN', 'VEF', 'VES', 'VED', 'UYW', 'CUC', 'HRK', 'SLL', 'SLE', 'ZWL', 'ZWG', 'XAD', 'ANG', 'XCG', 'BGN', 'SYP'];
    expect(CURRENCIES_SINCE_2015.filter((code) => changed.includes(code))).toEqual([]);
  });

  it('sends every run members of the class, each of them in it', () => {
    for (const code of CURRENCIES_ALWAYS_SENT) expect(CURRENCIES_SINCE_2015).toContain(code);
    expect(new Set(CURRENCIES_SINCE_2015).size).toBe(CURRENCIES_SINCE_2015.length);
    for (const code of CURRENCIES_SINCE_2015) expect(code).toMatch(/^[A-Z]{3}$/);
  });
});
