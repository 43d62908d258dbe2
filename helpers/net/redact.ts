/**
 * Keeps secrets out of every report and terminal line. Two layers:
 * - by name: headers and JSON keys that carry credentials are replaced wherever they appear;
 * - by value: every secret the run obtains (passwords, access tokens, JWTs, TOTP secrets, reset
 *   tokens) is registered here and replaced wherever it later appears in text.
 */

import { isCredentialValue, isSecretKey } from '../spec/credential-names.js';

export const REDACTED = '[REDACTED]';

const SECRET_HEADERS = new Set(['authorization', 'token', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key']);

const secrets = new Set<string>();
/** Every secret in the order it was registered (encoded forms included): what was learnt since a moment is a slice of it. */
const registered: string[] = [];

function addSecret(value: string): void {
  if (secrets.has(value)) return;
  secrets.add(value);
  registered.push(value);
}

/** A header whose value is a secret wherever it appears (a gateway's own header, from --header). */
export function registerSecretHeader(name: string): void {
  SECRET_HEADERS.add(name.toLowerCase());
}

/** Registers a value that must never be written out. Short values are ignored (they would mask ordinary text). */
export function registerSecret(value: unknown): void {
  if (typeof value !== 'string' || value.length < 6) return;
  addSecret(value);
  // Access tokens are `<numeric_id>|<secret>`: the secret part alone is just as sensitive.
  const bar = value.indexOf('|');
  if (bar > 0 && value.length - bar > 6) addSecret(value.slice(bar + 1));
}

/**
 * A secret the user configured (STATES_TOKEN, a gateway header's value): registered whatever its
 * length, since the run knows it is one. Redaction only ever rewrites exchanged content (never a
 * test's id, name or endpoint: reporting/scrub.ts), so even a short or common-word secret is
 * replaced wherever it appears there.
 */
export function registerConfiguredSecret(value: unknown): void {
  if (typeof value !== 'string' || value.length === 0) return;
  addSecret(value);
}

/** Below this length, or made of letters only (a word), a configured secret may also be an ordinary word of the content. */
export const WEAK_SECRET_LENGTH = 12;

/** A configured secret that is short or a word: still redacted, but the run says once that it is weak. */
export function isWeakSecret(value: string): boolean {
  return value.length < WEAK_SECRET_LENGTH || /^[A-Za-z]+$/.test(value);
}

/** The run's one warning about weak configured secrets, naming where they came from but never their values. */
export function weakSecretWarning(configured: { name: string; value: string | undefined }[]): string | undefined {
  const weak = configured.filter((c) => c.value !== undefined && c.value !== '' && isWeakSecret(c.value)).map((c) => c.name);
  if (weak.length === 0) return undefined;
  return `${weak.join(', ')} ${weak.length > 1 ? 'are' : 'is'} weak (shorter than ${WEAK_SECRET_LENGTH} characters, or letters only): still redacted wherever it appears in requests, answers and messages, which may also blank an ordinary word there; a long random value is safer and keeps the evidence readable`;
}

/** Below this length an encoded form is not indexed (helpers/net/secrets.ts makes none shorter). */
const ENCODED_PREFIX = 16;

/**
 * The other alphabets of the tokens the run learnt (base64, base64url, hex of a token and of its
 * secret part: helpers/net/secrets.ts), each as good as the token. Eight or so per token, so they are
 * found by their first 16 characters in one pass over a text, not by one search each.
 */
const encodedByPrefix = new Map<string, string[]>();

/** Registers a token written in another alphabet: replaced wherever it appears, like the token itself. */
export function registerEncodedSecret(value: string): void {
  if (value.length < ENCODED_PREFIX) return;
  const prefix = value.slice(0, ENCODED_PREFIX);
  const values = encodedByPrefix.get(prefix);
  if (values?.includes(value)) return;
  if (values) values.push(value);
  else encodedByPrefix.set(prefix, [value]);
  registered.push(value);
}

function redactEncoded(text: string): string {
  if (encodedByPrefix.size === 0 || text.length < ENCODED_PREFIX) return text;
  let out = '';
  let copied = 0;
  let at = 0;
  while (at + ENCODED_PREFIX <= text.length) {
    let longest = 0;
    for (const value of encodedByPrefix.get(text.slice(at, at + ENCODED_PREFIX)) ?? []) if (value.length > longest && text.startsWith(value, at)) longest = value.length;
    if (longest > 0) {
      out += `${text.slice(copied, at)}${REDACTED}`;
      at += longest;
      copied = at;
    } else at++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** How many secrets the worker knows (each encoded form counted): it only grows, so a change says that something was learnt. */
export function registeredSecretCount(): number {
  return registered.length;
}

/**
 * Replaces in already redacted content only the secrets registered since `since` (a
 * registeredSecretCount): what a test learnt after it recorded an exchange, at the cost of those few.
 */
export function redactLearntSince(value: unknown, since: number): unknown {
  if (since >= registered.length) return value;
  const fresh = registered.slice(Math.max(0, since));
  const text = (inner: string): string => {
    let out = inner;
    for (const secret of fresh) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
  const walk = (inner: unknown): unknown => {
    if (typeof inner === 'string') return text(inner);
    if (Array.isArray(inner)) return inner.map(walk);
    if (inner && typeof inner === 'object') return Object.fromEntries(Object.entries(inner).map(([key, item]) => [key, walk(item)]));
    return inner;
  };
  return walk(value);
}

/** A URL without user name and password: a base URL may carry credentials, output never does. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#\s]*@/i, '$1');
}

export function redactText(text: string): string {
  let out = text;
  // User information in any URL (https://user:password@host).
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@?#\s"']+@/gi, `$1${REDACTED}@`);
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  out = redactEncoded(out);
  // Bearer tokens and JWT-shaped strings that were never registered (a target's own tokens).
  // Any word after "Bearer" may be one: a test's own name ("without a bearer token") is spared where
  // names are written (reporting/scrub.ts), never by weakening this pattern.
  out = out.replace(/(Bearer\s+)[^\s"',]+/gi, `$1${REDACTED}`);
  out = out.replace(/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, REDACTED);
  return out;
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : redactText(text);
  }
  return out;
}

export function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactJson);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // Only string values (and lists of codes) are credentials: `{ "2fa": false }` inside a user object is a setting, not a secret.
      out[key] = isSecretKey(key) && isCredentialValue(key, inner) ? REDACTED : redactJson(inner);
    }
    return out;
  }
  return value;
}

/** Replaces secrets in an error's message and stack, keeping its class, so failures can be reported safely. */
export function redactError<T>(error: T): T {
  if (error instanceof Error) {
    error.message = redactText(error.message);
    if (error.stack) error.stack = redactText(error.stack);
    const withValues = error as Error & { actual?: unknown; expected?: unknown };
    if ('actual' in withValues) withValues.actual = redactJson(withValues.actual);
    if ('expected' in withValues) withValues.expected = redactJson(withValues.expected);
  }
  return error;
}

/** Below this length a registered secret is only found as a whole value: a 6-digit reset token or a weak password inside ordinary text is a coincidence. */
export const SUBSTRING_SECRET_LENGTH = 16;

/**
 * The registered secret `text` carries, if any, leaving out the values in `except` (a session's own
 * token, what the request itself sent): the whole value equal to a secret, or for long high-entropy
 * secrets (tokens, TOTP secrets, JWTs) the secret anywhere inside it.
 */
export function secretIn(text: string, except: ReadonlySet<string> = new Set()): string | undefined {
  for (const secret of secrets) {
    if (except.has(secret)) continue;
    if (text === secret || (secret.length >= SUBSTRING_SECRET_LENGTH && text.includes(secret))) return secret;
  }
  return undefined;
}
