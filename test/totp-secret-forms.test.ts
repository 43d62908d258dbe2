import { describe, expect, it } from 'vitest';
import { learnSecret, secretsIn, totpSecretForms } from '../helpers/net/secrets.js';

/**
 * Issue 27, white-box round wb24 (wb24-2fa-session-carries-totp-secret-hex): a TOTP secret learnt from the states is found
 * by the security scan in the writings a target that keeps its bytes uses: hex, base64, base64url, and its base32 in the
 * other letter case. 'JBSWY3DPEHPK3PXP' is the base32 of the bytes 48 65 6c 6c 6f 21 de ad be ef ("Hello!" and DEADBEEF).
 */
describe('a TOTP secret is found in the other writings of its bytes', () => {
  it('decodes a base32 secret of 16 characters or more, and nothing else', () => {
    const texts = totpSecretForms('JBSWY3DPEHPK3PXP').map((form) => form.text);
    expect(texts).toEqual(expect.arrayContaining(['48656c6c6f21deadbeef', '48656C6C6F21DEADBEEF', 'SGVsbG8h3q2+7w', 'SGVsbG8h3q2-7w', 'jbswy3dpehpk3pxp']));
    expect(totpSecretForms('JBSWY3DPEHPK3PX')).toEqual([]);
    expect(totpSecretForms('not base32 at all, 0189')).toEqual([]);
  });

  it('finds the secret written as the hex of its bytes inside an answer, and in lower case as a whole value', () => {
    const secret = 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BA';
    learnSecret(secret, 'never-travels');
    const hex = totpSecretForms(secret).find((form) => form.form === 'bytes as hex')!.text;
    const inAnswer = secretsIn(JSON.stringify({ data: { mfa: { seed: hex } } }));
    expect(inAnswer.map((found) => [found.secret.value, found.form])).toEqual([[secret, 'bytes as hex']]);
    expect(secretsIn(secret.toLowerCase()).map((found) => found.form)).toEqual(['base32 in another letter case']);
    expect(secretsIn('an ordinary answer')).toEqual([]);
  });
});
