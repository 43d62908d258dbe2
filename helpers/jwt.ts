import { readFileSync } from 'node:fs';
import { SignJWT, base64url, exportSPKI, generateKeyPair, importPKCS8, type CryptoKey, type KeyObject } from 'jose';
import type { CheckContext } from './check.js';
import { registerSecret } from './redact.js';

/** Section 4.1: platform JWTs are RS512-signed; the payload names the user by `email` or `id` and carries `expire` (Unix seconds). */
export interface JwtPayload {
  email?: unknown;
  id?: unknown;
  expire?: unknown;
  [claim: string]: unknown;
}

type SigningKey = CryptoKey | KeyObject;

export interface Platform {
  id: string;
  sign(payload: JwtPayload): Promise<string>;
}

let ownKeys: Promise<{ privateKey: SigningKey; publicKeyPem: string }> | undefined;

/** One RSA key pair per worker for the `platform` state (generating keys is the slow part). */
function keys() {
  ownKeys ??= (async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
    return { privateKey, publicKeyPem: await exportSPKI(publicKey) };
  })();
  return ownKeys;
}

export async function signRs512(key: SigningKey, payload: JwtPayload): Promise<string> {
  const jwt = await new SignJWT(payload as Record<string, unknown>).setProtectedHeader({ alg: 'RS512', typ: 'JWT' }).sign(key);
  registerSecret(jwt);
  return jwt;
}

/** A platform the target trusts: the static JWT_PLATFORM_ID key when configured, else a fresh one from the `platform` state. */
export async function platformFor(t: CheckContext): Promise<Platform> {
  const configured = t.target.jwtPlatform;
  if (configured) {
    const privateKey = await importPKCS8(readFileSync(configured.privateKeyFile, 'utf8'), 'RS512');
    return { id: configured.id, sign: (payload) => signRs512(privateKey, payload) };
  }
  const { privateKey, publicKeyPem } = await keys();
  const { id } = await t.state('platform', { publicKey: publicKeyPem });
  return { id, sign: (payload) => signRs512(privateKey, payload) };
}

/** Unix seconds from now. */
export function secondsFromNow(seconds: number): number {
  return Math.floor(Date.now() / 1000) + seconds;
}

const encodeJson = (value: unknown) => base64url.encode(JSON.stringify(value));

/** Crafted tokens are credentials too: never written out. */
function secret(jwt: string): string {
  registerSecret(jwt);
  return jwt;
}

/** Crafted tokens that must never authenticate (section 4.1: RS512 by the platform's key). */
export const craftedJwt = {
  /** `alg: none`, no signature. */
  unsigned(payload: JwtPayload): string {
    return secret(`${encodeJson({ alg: 'none', typ: 'JWT' })}.${encodeJson(payload)}.`);
  },
  /** HS512 with the platform's public key as the HMAC secret (algorithm confusion). */
  async hmacWithPublicKey(payload: JwtPayload): Promise<string> {
    const { publicKeyPem } = await keys();
    return secret(await new SignJWT(payload as Record<string, unknown>).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(new TextEncoder().encode(publicKeyPem)));
  },
  /** RS512, but by a key the platform never registered. */
  async foreignKey(payload: JwtPayload): Promise<string> {
    const { privateKey } = await generateKeyPair('RS512', { modulusLength: 2048 });
    return signRs512(privateKey, payload);
  },
  /** A valid token whose payload was changed after signing. */
  tampered(jwt: string, payload: JwtPayload): string {
    const [header, , signature] = jwt.split('.');
    return secret(`${header}.${encodeJson(payload)}.${signature}`);
  },
  /** The platform's own key pair, for tests that sign with it directly. */
  keys,
};
