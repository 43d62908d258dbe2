import { describe, expect, it } from 'vitest';
import { PrefixIndex } from '../helpers/net/prefix-index.js';
import { REDACTED, redactLearntSince, redactText, redactTextWith, SecretList } from '../helpers/net/redact.js';
import { encodedForms, learnSecret, learntSecret, secretsIn, type SecretKind } from '../helpers/net/secrets.js';

/**
 * The rolling hash of helpers/net/prefix-index.ts only chooses where to look: every secret it finds is verified, and
 * none is missed where one search each (the code it replaced) finds one. Over an alphabet made of blocks whose hashes
 * collide (with BASE 31, "Aa" and "BB" weigh the same, so all 2^8 strings of eight such blocks share one hash), tokens
 * learnt with their encoded forms, secrets inside and at the start of others, and lone or paired surrogates.
 */
describe('secrets found by their prefixes as one search each finds them (redaction and the secret scan)', () => {
  it('never trusts the hash: a prefix whose hash collides with an indexed one is no candidate', () => {
    const index = new PrefixIndex(6);
    index.add('AaAaAa-secret');
    const seen: string[][] = [];
    index.scan('BBBBBB-secret AaBBAa-secret', (_, candidates) => void seen.push(candidates));
    expect(seen).toEqual([]);
    index.scan('xBBBBBBAaAaAa-secret', (at, candidates) => void seen.push([String(at), ...candidates]));
    expect(seen).toEqual([['7', 'AaAaAa-secret']]);
  });

  it('redacts and scans at the same places as one search per secret, over colliding prefixes', () => {
    let seed = 2024;
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % n);
    // Blocks no other self-test file registers together; 'Aa' and 'BB' collide under the rolling hash.
    const blocks = ['Aa', 'BB', 'ǭ', '|', '-', '😀', '\uD83D', '"', ' '];
    const word = (length: number) => Array.from({ length }, () => blocks[next(blocks.length)]!).join('');
    const kinds: SecretKind[] = ['token', 'password', 'configured', 'reset-token'];
    const mine: string[] = [];
    const forms: string[] = [];
    const ownerOf = new Map<string, string>();
    for (let round = 0; round < 150; round++) {
      for (let i = 0; i < 2; i++) {
        const start = mine.length > 0 && next(3) === 0 ? mine[next(mine.length)]!.slice(0, 4 + next(12)) : '';
        const value = next(5) === 0 ? `${1 + next(999)}|${start}${word(4 + next(10))}` : `${start}${word(1 + next(12))}`;
        const kind = kinds[next(kinds.length)]!;
        const known = learntSecret(value) !== undefined;
        learnSecret(value, kind);
        mine.push(value);
        if (known || learntSecret(value) === undefined) continue;
        // What secretsIn may find (the value, a token's secret part, its encoded forms) and whose secret each one is.
        const bar = value.indexOf('|');
        for (const key of [value, ...(kind === 'token' && bar > 0 ? [value.slice(bar + 1)] : [])]) if (!ownerOf.has(key)) ownerOf.set(key, value);
        if (kind !== 'token') continue;
        for (const { text } of encodedForms(value)) {
          if (!ownerOf.has(text)) ownerOf.set(text, value);
          forms.push(text);
        }
      }
      const text = Array.from({ length: 1 + next(6) }, () => {
        const pick = next(5);
        if (pick === 0) return mine[next(mine.length)]!;
        if (pick === 1 && forms.length > 0) return forms[next(forms.length)]!;
        if (pick === 2) return mine[next(mine.length)]!.slice(1);
        return word(next(8));
      }).join('');
      // redactLearntSince(…, 0) searches every registered secret (encoded forms too) one by one.
      expect(redactText(text), JSON.stringify(text)).toBe(redactLearntSince(text, 0));
      const also = [mine[next(mine.length)]!, word(3), word(7), '', REDACTED];
      expect(redactTextWith(text, { also: new SecretList(also) })).toBe(redactTextWith(text, { also: new Set(also) }));
      // secretsIn: each learnt value or encoded form, whole or (from 16 characters, in a longer text) inside it.
      const inside = (key: string) => text === key || (key.length >= 16 && text.length > 16 && text.includes(key));
      const expected = new Set([...ownerOf.keys()].filter(inside).map((key) => learntSecret(key)?.value ?? ownerOf.get(key)!));
      expect(new Set(secretsIn(text).map((item) => item.secret.value)), JSON.stringify(text)).toEqual(expected);
    }
  });
});
