import { generateSync } from 'otplib';

/**
 * RFC 6238 code (SHA-1, 30 s, 6 digits) for a base32 secret, now or at `epoch` (Unix seconds): the
 * 2FA code of section 4.2 for an account whose provider state carries its TOTP secret.
 */
export function totpCode(secret: string, epoch?: number): string {
  return generateSync(epoch === undefined ? { secret } : { secret, epoch });
}
