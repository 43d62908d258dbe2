import { randomBytes } from 'node:crypto';

/**
 * A UUID of version 7 (RFC 9562 section 5.7): 48 bits of Unix milliseconds, then random bits, with
 * the version and variant bits set. For the allowed reading `r6.ids-uuid-v7` (2.4/2.5: "id string (UUID)").
 */
export function uuidV7(nowMs: number): string {
  const bytes = randomBytes(16);
  let ms = BigInt(Math.floor(nowMs));
  for (let i = 5; i >= 0; i -= 1) {
    bytes[i] = Number(ms & 0xffn);
    ms >>= 8n;
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
