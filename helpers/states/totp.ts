import { setTimeout as sleep } from 'node:timers/promises';
import { generateSync } from 'otplib';

/**
 * RFC 6238 code (SHA-1, 30 s, 6 digits) for a base32 secret, now or at `epoch` (Unix seconds): the
 * 2FA code of section 4.2 for an account whose provider state carries its TOTP secret.
 */
export function totpCode(secret: string, epoch?: number): string {
  return generateSync(epoch === undefined ? { secret } : { secret, epoch });
}

/**
 * Waits out the last 3 s of the current 30 s TOTP step, if it is in them: a code made right after is
 * received in the step it was made for. `signal` (the test's, aborted by an interrupt) cuts the wait.
 */
export async function untilFreshTotpStep(signal?: AbortSignal): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await sleep(left + 100, undefined, signal ? { signal } : {});
}

/**
 * The current code, taken at least 3 s before its 30 s step ends (waiting out the step's last seconds
 * otherwise): a target that accepts only the current step (RFC 6238 allows it) receives it in the step
 * it was made for, so a login never fails on the moment it was sent. Pass the test's `signal`, so that
 * an interrupt cuts the wait (issue 31: waits cut at once).
 */
export async function freshTotpCode(secret: string, signal?: AbortSignal): Promise<string> {
  await untilFreshTotpStep(signal);
  return totpCode(secret);
}

/**
 * Waits until the next 30 s TOTP step has begun (and 1 s into it, for a target whose clock runs a little behind):
 * a code made then belongs to a step after every code sent so far, so no code is sent twice (a target may refuse a
 * code that already opened a session, as RFC 6238 5.2 asks of a verifier). `signal` cuts the wait.
 */
export async function untilNextTotpStep(signal?: AbortSignal): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  await sleep(left + 1_000, undefined, signal ? { signal } : {});
}
