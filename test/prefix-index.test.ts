import { describe, expect, it } from 'vitest';
import { PrefixIndex } from '../helpers/net/prefix-index.js';

/** What the index replaces: a lookup of the prefix at every place of the text. */
function naive(byPrefix: Map<string, string[]>, width: number, text: string, reach: number): [number, string[]][] {
  const out: [number, string[]][] = [];
  for (let at = 0; at + reach <= text.length; at++) {
    const candidates = byPrefix.get(text.slice(at, at + width));
    if (candidates) out.push([at, candidates]);
  }
  return out;
}

describe('PrefixIndex (helpers/net/prefix-index.ts)', () => {
  it('finds the same places as a lookup at every place, for any width, reach and alphabet', () => {
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const alphabet = 'abAB01|+/=-_.é€😀"{}:, ';
    const word = (length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (const width of [1, 6, 16]) {
      const index = new PrefixIndex(width);
      const byPrefix = new Map<string, string[]>();
      const values = Array.from({ length: 200 }, () => word(width + Math.floor(random() * 10)));
      for (const value of values) {
        index.add(value);
        const prefix = value.slice(0, width);
        byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), value]);
      }
      for (let round = 0; round < 50; round++) {
        // Texts made of the values and noise, so that prefixes stand at many places, at the start and at the end.
        const text = Array.from({ length: 20 }, () => (random() < 0.5 ? values[Math.floor(random() * values.length)]! : word(Math.floor(random() * 5)))).join('');
        for (const reach of [width, width + 3]) {
          const found: [number, string[]][] = [];
          index.scan(text, (at, candidates) => void found.push([at, candidates]), reach);
          expect(found).toEqual(naive(byPrefix, width, text, reach));
        }
      }
    }
  });

  it('ends the pass when the visit says so, and scans nothing shorter than its reach or with nothing indexed', () => {
    const index = new PrefixIndex(3);
    const seen: number[] = [];
    index.scan('abcabc', (at) => void seen.push(at));
    expect(seen).toEqual([]);
    index.add('abcd');
    index.scan('abcabcabc', (at) => (seen.push(at), at === 3));
    expect(seen).toEqual([0, 3]);
    seen.length = 0;
    index.scan('ab', (at) => void seen.push(at));
    index.scan('abc', (at) => void seen.push(at), 4);
    expect(seen).toEqual([]);
    expect(index.get('abc')).toEqual(['abcd']);
  });
});

describe('redactTextWith with prepared secrets and extra patterns (helpers/net/redact.ts)', () => {
  it('redacts a SecretList at the same places as the same secrets one by one, short and long, inside words or not', async () => {
    const { redactTextWith, SecretList } = await import('../helpers/net/redact.js');
    const secrets = ['abc', 'x1', 'tok_abcdef', 'tok_abcdefghij', 'Zq9Zq9Zq9Zq9Zq9Zq9Zq9', '[REDACTED]', ''];
    const texts = ['abc tok_abcdefghij!', 'xabc tok_abcdefx x1 Zq9Zq9Zq9Zq9Zq9Zq9Zq9Zq9', '{"a":"tok_abcdef","b":"abc"}', 'nothing here', 'x1', ''];
    for (const text of texts) expect(redactTextWith(text, { also: new SecretList(secrets) }), text).toBe(redactTextWith(text, { also: new Set(secrets) }));
  });

  it('finds every match of an extra pattern, global or not, with indices or not, as matchAll did', async () => {
    const { redactTextWith, REDACTED } = await import('../helpers/net/redact.js');
    const text = 'id 12|abcdefghijklmnopqr and 7|ABCDEFGHIJKLMNOPQRST end';
    const expected = `id ${REDACTED} and ${REDACTED} end`;
    for (const pattern of [/\b\d+\|[A-Za-z0-9]{16,}\b/g, /\b\d+\|[A-Za-z0-9]{16,}\b/, /\b\d+\|[A-Za-z0-9]{16,}\b/dg, /\b\d+\|[A-Za-z0-9]{16,}\b/d]) {
      expect(redactTextWith(text, { patterns: [pattern] })).toBe(expected);
      expect(redactTextWith(text, { patterns: [pattern] })).toBe(expected);
    }
    // A pattern that may match empty moves on (one code point under u) and still finds what follows.
    expect(redactTextWith('😀 ab|x ab|y', { patterns: [/(?<s>ab\|[a-z])?/gu] })).toBe(`😀 ${REDACTED} ${REDACTED}`);
  });
});
