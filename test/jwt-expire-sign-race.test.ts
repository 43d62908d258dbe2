import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, exportPKCS8, generateKeyPair } from 'jose';
import { describe, expect, it, vi } from 'vitest';

// review-v probe of helpers/arrange/jwt.ts (5a5b4c4): signer() writes expire in the form known when signing starts
// (written) but decides whether to keep the JWT, and its `iso` flag, with the form known when signing ends (WebCrypto's
// RSA signature is asynchronous). A detection that completes meanwhile leaves a numeric JWT unkept or marked iso.

const gate = vi.hoisted(() => ({ held: undefined as Promise<void> | undefined }));
vi.mock('jose', async (importOriginal) => {
  const jose = await importOriginal<typeof import('jose')>();
  class SlowSignJWT extends jose.SignJWT {
    readonly #slow: boolean;
    constructor(payload: Record<string, unknown>) {
      super(payload);
      this.#slow = payload.id === 'slow';
    }
    override async sign(...args: Parameters<InstanceType<typeof jose.SignJWT>['sign']>) {
      if (this.#slow && gate.held) await gate.held;
      return super.sign(...args);
    }
  }
  return { ...jose, SignJWT: SlowSignJWT };
});
vi.mock('../helpers/check/target.js', () => ({
  currentTargetKey: () => 'target',
  targetKey: () => 'target',
  onNewTarget: () => {},
}));


describe('review-v: a JWT whose signing was under way when the run learnt the ISO form', () => {
  for (const [what, past, expected] of [['a routine expire', false, 200], ['an expire in the past (the 416 check)', true, 416]] as const) {
    it(`is sent again in the learnt form (${what})`, async () => {
      vi.resetModules();
      const { futureExpire, pastExpire, platformFor, sendWithExpireForm } = await import('../helpers/arrange/jwt.js');
      const { privateKey } = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
      const privateKeyFile = join(mkdtempSync(join(tmpdir(), 'jwt-sign-race-')), 'key.pem');
      writeFileSync(privateKeyFile, await exportPKCS8(privateKey));
      const t = { target: { baseUrl: `http://127.0.0.1:${what.length}`, jwtPlatform: { id: 'platform', privateKeyFile } }, advise: vi.fn() } as never;
      const platform = await platformFor(t);
      const send = async (jwt: string | undefined) => {
        const { expire: sent } = decodeJwt(jwt!);
        if (typeof sent !== 'string') return { status: 412 };
        return { status: Date.parse(sent) > Date.now() ? 200 : 416 };
      };
      let release!: () => void;
      gate.held = new Promise<void>((resolve) => (release = resolve));
      const slow = platform.sign({ id: 'slow', expire: past ? pastExpire(3600) : futureExpire(300) });
      const detected = await sendWithExpireForm(t, await platform.sign({ id: 'detecting', expire: futureExpire(300) }), send);
      expect(detected.status).toBe(200);
      release();
      const jwt = await slow;
      gate.held = undefined;
      expect(typeof decodeJwt(jwt).expire).toBe('number');
      expect((await sendWithExpireForm(t, jwt, send)).status).toBe(expected);
    });
  }
});
