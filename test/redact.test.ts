import { describe, expect, it } from 'vitest';
import { buildReport } from '../reporting/build.js';
import { REDACTED, redactError, redactHeaders, redactJson, redactLearntSince, redactText, registerConfiguredSecret, registerSecret, registeredSecretCount, secretIn, weakSecretWarning, withoutCredentials } from '../helpers/net/redact.js';

describe('redaction', () => {
  it('redacts again, in content recorded before, only what was learnt since (a reset token a state gives after the answer)', () => {
    const before = registeredSecretCount();
    const recorded = { data: { message: 'sent', link: 'https://x.test/reset/4f1c0ffee4f1c0ffee4f1c0ffee99' }, list: ['keep me'] };
    registerSecret('4f1c0ffee4f1c0ffee4f1c0ffee99');
    expect(redactLearntSince(recorded, before)).toEqual({ data: { message: 'sent', link: `https://x.test/reset/${REDACTED}` }, list: ['keep me'] });
    expect(redactLearntSince(recorded, registeredSecretCount())).toBe(recorded);
  });

  it('copies, redacting again, only the parts where a fresh secret stands; the rest is kept as it is and the original is untouched', () => {
    const before = registeredSecretCount();
    const untouched = { message: 'sent', list: ['keep me', { deep: true }] };
    const recorded = { data: { link: 'https://x.test/reset/5e2d0ffee5e2d0ffee5e2d0ffee77', untouched }, ['key 5e2d0ffee5e2d0ffee5e2d0ffee77']: 1, other: untouched.list };
    const copy = structuredClone(recorded);
    registerSecret('5e2d0ffee5e2d0ffee5e2d0ffee77');
    const again = redactLearntSince(recorded, before) as typeof recorded & Record<string, unknown>;
    expect(again).toEqual({ data: { link: `https://x.test/reset/${REDACTED}`, untouched }, [`key ${REDACTED}`]: 1, other: untouched.list });
    expect(recorded).toEqual(copy);
    expect(again).not.toBe(recorded);
    expect(again.data).not.toBe(recorded.data);
    expect(again.data.untouched).toBe(untouched);
    expect(again.other).toBe(untouched.list);
  });

  it('replaces credential headers whatever their value', () => {
    expect(redactHeaders({ Authorization: 'Bearer 1|abc', token: 'eyJhbGciOi', accept: 'application/json' })).toEqual({ Authorization: REDACTED, token: REDACTED, accept: 'application/json' });
  });

  it('replaces credential keys at any depth of a JSON body', () => {
    expect(redactJson({ email: 'a@b.test', password: 'hunter22', nested: [{ token: 'abcdef123' }], '2fa': '123456' })).toEqual({ email: 'a@b.test', password: REDACTED, nested: [{ token: REDACTED }], '2fa': REDACTED });
  });

  it('redacts a configured secret however short (issue 22), and warns once about weak ones without printing them', () => {
    registerConfiguredSecret('qzx');
    expect(redactText('{"echo":"a qzx b"}')).toBe(`{"echo":"a ${REDACTED} b"}`);
    const warning = weakSecretWarning([
      { name: 'STATES_TOKEN', value: 'qzx' },
      { name: 'the value of the header x-api-key', value: 'Gw-9f8e7d6c5b4a3f2e1d' },
      { name: 'the value of the header x-tenant', value: 'tenantvaluewords' },
    ]);
    expect(warning).toMatch(/^STATES_TOKEN, the value of the header x-tenant are weak \(shorter than 12 characters, or letters only\): still redacted/);
    expect(warning).not.toContain('qzx');
    expect(warning).not.toContain('tenantvaluewords');
    expect(weakSecretWarning([{ name: 'STATES_TOKEN', value: 'deployment-states-token-9' }, { name: 'x', value: undefined }])).toBeUndefined();
  });

  it('keeps the weak-secret warning as written: a word of it blanked would tell the secret by its place (issue 22)', () => {
    // A token that is a word of the warning itself: "STATES_TOKEN is [REDACTED] (shorter ..." would print it.
    for (const token of ['weak', 'STATES', 'letters']) {
      registerConfiguredSecret(token);
      const warning = weakSecretWarning([{ name: 'STATES_TOKEN', value: token }])!;
      const report = buildReport([], {
        suiteVersion: '0.0.0',
        target: { baseUrl: 'http://127.0.0.1:1', embedded: false, states: 'hook' },
        startedAt: new Date(0),
        finishedAt: new Date(0),
        strict: false,
        warnings: [`the hook echoed ${token}`],
        ownWarnings: [warning],
      });
      expect(report.warnings).toEqual([`the hook echoed ${REDACTED}`, warning]);
      expect(report.warnings.join('\n')).not.toMatch(/STATES_TOKEN is \[REDACTED\]|\[REDACTED\]_TOKEN|or \[REDACTED\] only/);
    }
  });

  it('replaces registered secret values wherever they appear, and the secret half of an access token', () => {
    registerSecret('Pw-registered-secret-1');
    registerSecret('42|AbCdEfGhIjKlMnOpQrStUv');
    expect(redactText('password was Pw-registered-secret-1!')).toBe(`password was ${REDACTED}!`);
    expect(redactText('{"id":"42|AbCdEfGhIjKlMnOpQrStUv"}')).toBe(`{"id":"${REDACTED}"}`);
    expect(redactText('secret AbCdEfGhIjKlMnOpQrStUv alone')).toBe(`secret ${REDACTED} alone`);
  });

  it('replaces bearer tokens and JWT-shaped strings that were never registered', () => {
    expect(redactText('Authorization: Bearer 7|zzzzzzzz')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('token eyJhbGciOiJSUzUxMiJ9.eyJpZCI6IngifQ.c2lnbmF0dXJl end')).toBe(`token ${REDACTED} end`);
  });

  it('scrubs an error message and its compared values', () => {
    registerSecret('Pw-in-an-assertion');
    const error = Object.assign(new Error('expected Pw-in-an-assertion to equal x'), { actual: { password: 'Pw-in-an-assertion' } });
    redactError(error);
    expect(error.message).not.toContain('Pw-in-an-assertion');
    expect(error.actual).toEqual({ password: REDACTED });
  });
});

describe('credentials in URLs', () => {
  it('never shows the user information of a URL', () => {
    expect(redactText('POST https://ci:s3cret@staging.example/api/v1/authenticate was refused')).toBe(`POST https://${REDACTED}@staging.example/api/v1/authenticate was refused`);
    expect(withoutCredentials('https://ci:s3cret@staging.example')).toBe('https://staging.example');
  });
});

describe('redaction in one pass (issue 29)', () => {
  it('never half-writes a secret that contains a shorter one, and never nests the marker', () => {
    registerConfiguredSecret('T');
    registerSecret('77|TokenWithTTsInsideIt0123');
    registerConfiguredSecret('REDAC');
    const out = redactText('{"id":"77|TokenWithTTsInsideIt0123","note":"T","word":"Totally"}');
    expect(out).toBe(`{"id":"${REDACTED}","note":"${REDACTED}","word":"Totally"}`);
    expect(out).not.toContain('[REDAC[');
    expect(redactText('a REDAC b')).toBe(`a ${REDACTED} b`);
  });

  it('replaces a short secret only as a whole token, so the suite\'s own words stay readable', () => {
    registerConfiguredSecret('t');
    expect(redactText('the target answered t and 5t and t-x')).toBe(`the target answered ${REDACTED} and 5t and ${REDACTED}-x`);
  });

  it('finds every registered secret by its first characters as one search each would (differential, over an alphabet of its own)', () => {
    // Letters no other row uses, so that what the other rows register cannot match here. A fixed-seed generator.
    const alphabet = ['ǭ', 'Ǯ', 'ǯ', '-'];
    let seed = 31;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const word = (length: number) => Array.from({ length }, () => alphabet[next(alphabet.length)]!).join('');
    const mine: string[] = [];
    // Secrets sharing their first characters, secrets inside secrets, short configured ones (whole tokens only), and the lengths about the index's prefix.
    for (const length of [1, 2, 3, 5, 6, 7, 8, 15, 16, 17, 24]) {
      for (let i = 0; i < 3; i++) {
        const secret = word(length);
        registerConfiguredSecret(secret);
        mine.push(secret);
      }
    }
    registerSecret('ǭǭǭǭǭǭ-shared-a'), registerSecret('ǭǭǭǭǭǭ-shared-ab'), registerSecret('ǭǭǭǭǭǭ-shared-abc-longer-than-sixteen');
    mine.push('ǭǭǭǭǭǭ-shared-a', 'ǭǭǭǭǭǭ-shared-ab', 'ǭǭǭǭǭǭ-shared-abc-longer-than-sixteen');
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: 1 + next(6) }, () => (next(3) === 0 ? mine[next(mine.length)]! : word(1 + next(12)))).join(next(2) === 0 ? ' ' : '');
      // redactLearntSince(…, 0) searches every registered secret one by one: the same places, the same text.
      expect(redactText(text)).toBe(redactLearntSince(text, 0));
      // secretIn: a registered secret as the whole value, or a long one anywhere inside.
      const naive = mine.find((secret) => text === secret || (secret.length >= 16 && text.includes(secret)));
      expect(secretIn(text) !== undefined).toBe(naive !== undefined);
    }
  });

  it('secretIn: the whole value or a long secret inside it, never a short one inside a word, and never one left out', () => {
    registerSecret('Ab3dE6gH9jK1mN4p');
    registerSecret('xq7Zr2');
    registerConfiguredSecret('q1');
    expect(secretIn('Ab3dE6gH9jK1mN4p')).toBe('Ab3dE6gH9jK1mN4p');
    expect(secretIn('Bearer Ab3dE6gH9jK1mN4p!')).toBe('Ab3dE6gH9jK1mN4p');
    expect(secretIn('xq7Zr2')).toBe('xq7Zr2');
    expect(secretIn('q1')).toBe('q1');
    expect(secretIn('a xq7Zr2 b')).toBeUndefined();
    expect(secretIn('Ab3dE6gH9jK1mN4')).toBeUndefined();
    expect(secretIn('Ab3dE6gH9jK1mN4p', new Set(['Ab3dE6gH9jK1mN4p']))).toBeUndefined();
    expect(secretIn('..Ab3dE6gH9jK1mN4p..', new Set(['Ab3dE6gH9jK1mN4p']))).toBeUndefined();
    // Left out as the whole value, a long secret inside it still counts.
    registerSecret('Ab3dE6gH9jK1mN4p-and-more');
    expect(secretIn('Ab3dE6gH9jK1mN4p-and-more', new Set(['Ab3dE6gH9jK1mN4p-and-more']))).toBe('Ab3dE6gH9jK1mN4p');
  });

  it('redacts a six-character registered secret at the very end of a text and each of its occurrences, overlapping ones too', () => {
    registerSecret('zZ9zZ9');
    expect(redactText('end zZ9zZ9')).toBe(`end ${REDACTED}`);
    expect(redactText('zZ9zZ9 zZ9zZ9')).toBe(`${REDACTED} ${REDACTED}`);
    expect(redactText('in zZ9zZ9x a word')).toBe('in zZ9zZ9x a word');
    registerSecret('Qq8Qq8Qq8Qq8Qq8Qq8');
    expect(redactText('<Qq8Qq8Qq8Qq8Qq8Qq8Qq8>')).toBe(`<${REDACTED}>`);
  });

  it('merges overlapping secrets into one marker', () => {
    registerSecret('abcdefghijklmnopXYZ');
    registerSecret('XYZ0123456789abcdefgh');
    expect(redactText('>abcdefghijklmnopXYZ0123456789abcdefgh<')).toBe(`>${REDACTED}<`);
  });

  it('redacts a secret the target echoes as a JSON key, and keeps a __proto__ key as the evidence\'s own', () => {
    registerSecret('5|KeyEchoedSecret0123456789');
    const out = redactJson(JSON.parse('{"5|KeyEchoedSecret0123456789":1,"__proto__":{"planted":true},"a":"b"}')) as Record<string, unknown>;
    expect(JSON.stringify(out)).toBe(`{"${REDACTED}":1,"__proto__":{"planted":true},"a":"b"}`);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.planted).toBeUndefined();
  });

  it('never nests the marker when content already redacted is redacted again with a secret that overlaps it', () => {
    const before = registeredSecretCount();
    registerSecret('REDACTED]');
    expect(redactLearntSince({ a: `x ${REDACTED} y`, b: 'REDACTED] z' }, before)).toEqual({ a: `x ${REDACTED} y`, b: `${REDACTED} z` });
  });

  it('stops walking JSON deeper than the limit instead of overflowing the stack', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(JSON.stringify(redactJson({ a: [[1]] }))).toBe('{"a":[[1]]}');
    expect(() => redactJson(deep)).not.toThrow();
  });
});
