import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, exportPKCS8, generateKeyPair } from 'jose';
import { describe, expect, it, vi } from 'vitest';

// helpers/arrange/jwt.ts learns the form of a JWT's `expire` from the first login that can tell. One test may send
// several JWT logins at once (the token of a login naming the user by id and one naming it by email): a login signed
// before another learnt that the target reads only ISO 8601 strings, and answered after, was once left with its 412
// (the CI run of stop 38, allowed-jwt-expire-iso-string-only refused), and so was one signed before and sent after. Both
// are now sent again as the run writes expire.

vi.mock('../helpers/check/target.js', () => ({
  currentTargetKey: () => 'target',
  targetKey: () => 'target',
  onNewTarget: () => {},
}));

const { futureExpire, platformFor, sendWithExpireForm } = await import('../helpers/arrange/jwt.js');

describe('a JWT login signed before the run learnt the form of expire', () => {
  it('is sent again in the learnt form when its 412 arrives after the detecting login', async () => {
    const { privateKey } = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
    const privateKeyFile = join(mkdtempSync(join(tmpdir(), 'jwt-form-')), 'key.pem');
    writeFileSync(privateKeyFile, await exportPKCS8(privateKey));
    const t = { target: { baseUrl: 'http://127.0.0.1:1', jwtPlatform: { id: 'platform', privateKeyFile } }, advise: vi.fn() } as never;
    const platform = await platformFor(t);
    const [first, second, third] = await Promise.all([1, 2, 3].map((n) => platform.sign({ id: `u${n}`, expire: futureExpire(300) })));

    // A target that reads expire only as an ISO 8601 string; the first login's answer is held back.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const send = async (jwt: string | undefined) => {
      if (jwt === first) await held;
      return { status: typeof decodeJwt(jwt!).expire === 'string' ? 200 : 412 };
    };
    const late = sendWithExpireForm(t, first, send);
    const detecting = await sendWithExpireForm(t, second, send);
    expect(detecting.status).toBe(200);
    release();
    expect((await late).status).toBe(200);
    // Signed before the detection and sent only after it (the mutation run's refusal once this was mended).
    expect((await sendWithExpireForm(t, third, send)).status).toBe(200);
  });
});
