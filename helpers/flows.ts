import { generateSync } from 'otplib';
import type { CheckContext } from './check.js';
import { registerSecret } from './redact.js';

/** Section 4.2: logs in and answers the access token; fails the test (with the target's answer) when login does not succeed. */
export async function logIn(t: CheckContext, user: { email: string; password: string; totpSecret?: string }): Promise<string> {
  const json: Record<string, string> = { email: user.email, password: user.password };
  if (user.totpSecret) json['2fa'] = totpCode(user.totpSecret);
  const response = await t.post('/api/v1/authenticate', { json });
  if (response.status !== 200) throw new Error(`precondition: logging in as a fresh provider-state user must answer 200, got ${response.status}`);
  const token = response.json?.data?.id;
  if (typeof token !== 'string') throw new Error('precondition: the login answer must carry data.id, the access token');
  registerSecret(token);
  return token;
}

/** A fresh active user (provider state `user`) and an access token for it. */
export async function userWithToken(t: CheckContext, params: Record<string, unknown> = {}) {
  const user = await t.state('user', params);
  return { user, token: await logIn(t, user) };
}

/** RFC 6238 code (SHA-1, 30 s, 6 digits) for a base32 secret. */
export function totpCode(secret: string): string {
  return generateSync({ secret });
}

/** A well-formed token that no target has issued. */
export const GARBAGE_TOKEN = '999999999|notARealTokenSecretValue0000000000000000';
