import { isCredentialKey, isCredentialValue } from '../spec/credential-names.js';
import { secretIn } from '../net/redact.js';

export { isCredentialKey } from '../spec/credential-names.js';

/**
 * Security findings (their own category in every report, apart from clauses): an answer of the
 * interface that carries a credential. Section 2.6 masks even the e-mail and the anti-phishing code of
 * a user, so no answer may carry a password, its hash, a remember or reset token, a 2FA secret, or a
 * secret the run knows (a state's password or TOTP secret, another session's access token).
 */

/** A value made only of mask characters (`********`, `••••`) shows that a credential exists, not what it is. */
const MASKED = /^[*\u2022\u25cf\u00b7#xX]+$/u;

/**
 * Every credential in a JSON answer, as a line naming the JSON pointer (never the value). `own` is
 * the session token this very answer issues (a Session's `data.id`), which is not a leak. What the
 * request itself sent is not exempt: a password echoed back is still a credential in an answer (in
 * logs and caches), and the whole-value rule for short secrets already keeps ordinary text out.
 */
export function credentialFindings(body: unknown, own: readonly string[] = []): string[] {
  const except = new Set<string>();
  for (const token of own) {
    except.add(token);
    const bar = token.indexOf('|');
    if (bar > 0) except.add(token.slice(bar + 1));
  }
  const findings: string[] = [];
  const walk = (value: unknown, pointer: string): void => {
    if (typeof value === 'string') {
      if (value !== '' && !MASKED.test(value) && secretIn(value, except)) findings.push(`${pointer || '/'} carries a secret the run knows (a password, TOTP secret or another session's token)`);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${pointer}/${i}`));
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        // Only strings (and lists of codes): `options.guard.actions.login.password` is a boolean setting, `errors.password` a list of messages.
        if (isCredentialKey(key) && isCredentialValue(key, inner) && !(typeof inner === 'string' && MASKED.test(inner))) findings.push(`${at} is a credential field (${key})`);
        else walk(inner, at);
      }
    }
  };
  walk(body, '');
  return findings;
}

/** A Session answer's own access token (section 2.1), which the answer may of course carry. */
export function ownSessionToken(body: unknown): string[] {
  const data = (body as { data?: { id?: unknown; userId?: unknown; ttl?: unknown } } | undefined)?.data;
  return data && typeof data === 'object' && typeof data.id === 'string' && 'userId' in data ? [data.id] : [];
}
