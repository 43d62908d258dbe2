import { GARBAGE_TOKEN } from '../helpers/arrange/flows.js';
import { buildReference, type ReferenceOptions } from '../reference/app.js';

const SECRET_KEYS = /^(password|password_confirmation|token|access_token|totpSecret|secret|privateKey|private_key|jwt)$/i;

/** Every secret a reference handed out in its answers: state passwords, TOTP secrets, reset and access tokens. */
export class SecretLedger {
  readonly secrets = new Set<string>();

  record(value: unknown, key = ''): void {
    if (typeof value === 'string') {
      // The anti-phishing code is a secret in clear (as the bonuses state gives it), not in its masked form (section 2.6).
      const clearAntiPhishing = key === 'antiPhishing' && !value.includes('*');
      if (value.length >= 6 && value !== GARBAGE_TOKEN && (SECRET_KEYS.test(key) || clearAntiPhishing || /^\d+\|/.test(value))) this.secrets.add(value);
    } else if (Array.isArray(value)) value.forEach((v) => this.record(v, key));
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      // A Session's id is the access token, whatever its shape (section 2.1).
      if ('userId' in record && 'ttl' in record && typeof record.id === 'string') this.secrets.add(record.id);
      // A 422 `errors` map is keyed by field names such as password and token; its messages are not secrets.
      for (const [k, v] of Object.entries(record)) if (k !== 'errors') this.record(v, k);
    }
  }

  /** Whether `text` holds any recorded secret (so an assertion can say where without printing it). */
  leakIn(text: string): boolean {
    for (const secret of this.secrets) if (text.includes(secret)) return true;
    return false;
  }
}

/** A reference on a loopback port that records every secret it answers with into `ledger` (and shows every answer to `observe`). */
export async function referenceWithLedger(ledger: SecretLedger, options: ReferenceOptions, observe?: (method: string, url: string, status: number, payload: string) => void) {
  const app = await buildReference(options);
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload === 'string') {
      observe?.(request.method, request.url, reply.statusCode, payload);
      try {
        ledger.record(JSON.parse(payload));
      } catch {
        // not JSON: nothing to record
      }
    }
    return payload;
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base };
}
