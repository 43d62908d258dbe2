import { describe, expect, it } from 'vitest';
import { comparableValue, hasId, idKey, sameId } from '../helpers/spec/normalisation.js';

// allowed-r10-ids-upper-case: a UUID's letter case is no part of it (1.6, 2.1 "UUID string"; RFC 9562 reads any case).
describe('ids compared as ids (helpers/spec/normalisation.ts)', () => {
  const lower = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
  const upper = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
  const mixed = '3f2504E0-4F89-11d3-9a0C-0305e82c3301';
  const another = '3f2504e0-4f89-11d3-9a0c-0305e82c3302';

  it('takes one UUID in any letter case for the same id', () => {
    expect(sameId(lower, upper)).toBe(true);
    expect(sameId(upper, mixed)).toBe(true);
    expect(idKey(upper)).toBe(lower);
    expect(comparableValue('id', upper)).toBe(comparableValue('id', lower));
    expect(comparableValue('user.id', upper)).toBe(lower);
  });

  it('keeps another UUID, a truncated one and another user\u2019s id in upper case another id', () => {
    expect(sameId(lower, another)).toBe(false);
    expect(sameId(another.toUpperCase(), lower)).toBe(false);
    expect(sameId(upper, lower.slice(0, 35))).toBe(false);
    expect(sameId(`${lower} `, lower)).toBe(false);
    expect(sameId(`{${lower}}`, lower)).toBe(false);
  });

  it('compares a text that is no UUID as it is, and values of other types by identity', () => {
    expect(idKey('ABC-1')).toBe('ABC-1');
    expect(sameId('ABC-1', 'abc-1')).toBe(false);
    expect(sameId(1024, '1024')).toBe(false);
    expect(sameId(1024, 1024)).toBe(true);
    expect(sameId(undefined, lower)).toBe(false);
    expect(comparableValue('bankName', 'ABC')).toBe('ABC');
  });

  it('finds an id in a list by sameId: membership in any letter case, never another record', () => {
    expect(hasId([another, upper], lower)).toBe(true);
    expect(hasId(new Set([lower]), mixed)).toBe(true);
    expect(hasId([another.toUpperCase()], lower)).toBe(false);
    expect(hasId([], lower)).toBe(false);
  });
});
