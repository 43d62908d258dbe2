import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, exportPKCS8, generateKeyPair } from 'jose';
import { describe, expect, it, vi } from 'vitest';

// review-v probes of helpers/arrange/jwt.ts (5a5b4c4): races the late resend leaves open. A target that reads expire
// only as an ISO 8601 string (allowed-jwt-expire-iso-string-only): 412 to every numeric expire, 200 to a string.

vi.mock('../helpers/check/target.js', () => ({
  currentTargetKey: () => 'target',
  targetKey: () => 'target',
  onNewTarget: () => {},
}));

const { futureExpire, platformFor, sendWithExpireForm } = await import('../helpers/arrange/jwt.js');

async function context() {
  const { privateKey } = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
  const privateKeyFile = join(mkdtempSync(join(tmpdir(), 'jwt-race-')), 'key.pem');
  writeFileSync(privateKeyFile, await exportPKCS8(privateKey));
  return { target: { baseUrl: 'http://127.0.0.1:1', jwtPlatform: { id: 'platform', privateKeyFile } }, advise: vi.fn() } as never;
}

describe('review-v: a JWT login whose 412 came before the run learnt the ISO form', () => {
  it('is sent again in the learnt form when the detection completes during its own unit probe (seconds retry)', async () => {
    const t = await context();
    const platform = await platformFor(t);
    const [late, detecting] = await Promise.all(['late', 'detecting'].map((id) => platform.sign({ id, expire: futureExpire(300) })));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const send = async (jwt: string | undefined) => {
      const { id, expire } = decodeJwt(jwt!);
      // The late login's seconds retry (a number below 1e11) is slower than the detecting login's three requests.
      if (id === 'late' && typeof expire === 'number' && expire < 1e11) await held;
      return { status: typeof expire === 'string' ? 200 : 412 };
    };
    // Both first answers (412) arrive before anything is learnt.
    const lateAnswer = sendWithExpireForm(t, late, send);
    const detected = await sendWithExpireForm(t, detecting, send);
    expect(detected.status).toBe(200);
    release();
    expect((await lateAnswer).status).toBe(200);
  });
});
