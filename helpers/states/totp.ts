import { generateSync } from 'otplib';

/**
 * RFC 6238 code (SHA-1, 30 s, 6 digits) for a base32 secret, now or at `epoch` (Unix seconds): the
 * 2FA code of section 4.2 for an account whose provider state carries its TOTP secret.
 */
export function totpCode(secret: string, epoch?: number): string {
  return generateSync(epoch === undefined ? { secret } : { secret, epoch });
}

/**
 * The current code, taken at least 3 s before its 30 s step ends (waiting out the step's last seconds
 * otherwise): a target that accepts only the current step (RFC 6238 allows it) receives it in the step
 * it was made for, so a login never fails on the moment it was sent.
 */
export async function freshTotpCode(secret: string): Promise<string> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  return totpCode(secret);
}
