/**
 * Keeps secrets out of every report and terminal line. Two layers:
 * - by name: headers and JSON keys that carry credentials are replaced wherever they appear;
 * - by value: every secret the run obtains (passwords, access tokens, JWTs, TOTP secrets, reset
 *   tokens) is registered here and replaced wherever it later appears in text.
 */

import { isCredentialValue, isSecretKey } from '../spec/credential-names.js';
import { MAX_JSON_DEPTH } from '../spec/quote.js';
import { PrefixIndex } from './prefix-index.js';

export const REDACTED = '[REDACTED]';

const SECRET_HEADERS = new Set(['authorization', 'token', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key']);

const secrets = new Set<string>();
/** Every secret in the order it was registered (encoded forms included): what was learnt since a moment is a slice of it. */
const registered: string[] = [];

/**
 * The registered secrets by their first PLAIN_PREFIX characters: a text is searched for all of them in one
 * pass (a worker learns thousands in a run; one search each made redaction a tenth of a run's time).
 * Shorter ones (configured secrets only) are searched one by one.
 */
const PLAIN_PREFIX = 6;
const plainByPrefix = new PrefixIndex(PLAIN_PREFIX);
const shortSecrets: string[] = [];

function addSecret(value: string): void {
  if (secrets.has(value)) return;
  secrets.add(value);
  registered.push(value);
  if (value.length < PLAIN_PREFIX) {
    shortSecrets.push(value);
    return;
  }
  plainByPrefix.add(value);
}

/** Where the registered secrets stand in `text` (each as `occurrences` finds it), in one pass over the text. */
function registeredOccurrences(text: string, into: [number, number][]): void {
  for (const secret of shortSecrets) occurrences(text, secret, into);
  if (plainByPrefix.size === 0) return;
  plainByPrefix.scan(text, (at, candidates) => {
    for (const secret of candidates) if (text.startsWith(secret, at) && standsAt(text, secret, at)) into.push([at, at + secret.length]);
  });
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
  return `${weak.join(', ')} ${weak.length > 1 ? 'are' : 'is'} weak (shorter than ${WEAK_SECRET_LENGTH} characters, or letters only): still redacted wherever it stands as a whole token in requests, answers and messages (never inside a word), which may also blank a word that equals it; a long random value is safer and keeps the evidence readable`;
}

/** Below this length an encoded form is not indexed (helpers/net/secrets.ts makes none shorter). */
const ENCODED_PREFIX = 16;

/**
 * The other alphabets of the tokens the run learnt (base64, base64url, hex of a token and of its
 * secret part: helpers/net/secrets.ts), each as good as the token. Eight or so per token, so they are
 * found by their first 16 characters in one pass over a text, not by one search each.
 */
const encodedByPrefix = new PrefixIndex(ENCODED_PREFIX);

/** Registers a token written in another alphabet: replaced wherever it appears, like the token itself. */
export function registerEncodedSecret(value: string): void {
  if (value.length < ENCODED_PREFIX) return;
  if (encodedByPrefix.get(value.slice(0, ENCODED_PREFIX))?.includes(value)) return;
  encodedByPrefix.add(value);
  registered.push(value);
}

/** Where the encoded forms of learnt tokens stand in `text`, found by their first 16 characters (the longest at each place). */
function encodedOccurrences(text: string, into: [number, number][]): void {
  if (encodedByPrefix.size === 0 || text.length < ENCODED_PREFIX) return;
  encodedByPrefix.scan(text, (at, candidates) => {
    let longest = 0;
    for (const value of candidates) if (value.length > longest && text.startsWith(value, at)) longest = value.length;
    if (longest > 0) into.push([at, at + longest]);
  });
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
  // One pass, as redactText: all fresh secrets' places at once, a short one only as a whole token.
  const text = (inner: string): string => {
    const places: [number, number][] = [];
    for (const secret of fresh) occurrences(inner, secret, places);
    return writePlaces(inner, places);
  };
  // A part in which no fresh secret stands is kept as it is, not copied (the end of every test that learnt a secret
  // walks all its exchanges): the same content as a copy, and a copy only of what changed.
  const walk = (inner: unknown): unknown => {
    if (typeof inner === 'string') return text(inner);
    if (Array.isArray(inner)) {
      const items = inner.map(walk);
      return items.some((item, i) => item !== inner[i]) ? items : inner;
    }
    if (inner && typeof inner === 'object') {
      const entries = Object.entries(inner);
      const walked = entries.map(([key, item]): [string, unknown] => [text(key), walk(item)]);
      return walked.some(([key, item], i) => key !== entries[i]![0] || item !== entries[i]![1]) ? Object.fromEntries(walked) : inner;
    }
    return inner;
  };
  return walk(value);
}

/** A URL without user name and password: a base URL may carry credentials, output never does. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#\s]*@/i, '$1');
}

/** Below this length a secret is replaced only where it stands as a whole token: a short one inside a word is the word's, not the secret. */
export const WHOLE_TOKEN_LENGTH = 16;

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** Where `secret` stands in `text`: everywhere when long, else only with nothing alphanumeric on either side. */
function occurrences(text: string, secret: string, into: [number, number][]): void {
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) if (standsAt(text, secret, at)) into.push([at, at + secret.length]);
}

/** Whether `secret`, found at `at`, counts there: a long one anywhere, a short one only as a whole token. */
function standsAt(text: string, secret: string, at: number): boolean {
  if (secret.length >= WHOLE_TOKEN_LENGTH) return true;
  const end = at + secret.length;
  return !((at > 0 && WORD_CHARACTER.test(text[at - 1]!)) || (end < text.length && WORD_CHARACTER.test(text[end]!)));
}

/** Patterns of secrets nobody registered; the group named `s` (or the whole match) is the secret. */
const PATTERNS: RegExp[] = [
  // User information in any URL (https://user:password@host).
  /\b[a-z][a-z0-9+.-]*:\/\/(?<s>[^/@?#\s"']+)@/dgi,
  // Bearer tokens that were never registered (a target's own tokens). Any word after "Bearer" may be
  // one: a test's own name ("without a bearer token") is spared where names are written
  // (reporting/scrub.ts), never by weakening this pattern.
  /Bearer\s+(?<s>[^\s"',]+)/dgi,
  // JWT-shaped strings.
  /\beyJ[\w-]+\.[\w-]+\.[\w-]*/dg,
];

/**
 * Every secret of `text` replaced by the marker in one pass over the original text (issue 29): the
 * places of all secrets (registered, `also`, and the patterns) are found first, overlapping places
 * merge into one, and each is written once. So no secret is ever half-written because a shorter one
 * was replaced before it, and no marker nests in another.
 */
export function redactText(text: string): string {
  return redactTextWith(text, {});
}

/** redactText with more secrets (`also`) and patterns: the report's own safety net (reporting/scrub.ts). */
export function redactTextWith(text: string, options: { also?: Iterable<string> | SecretList; patterns?: RegExp[] }): string {
  const places: [number, number][] = [];
  registeredOccurrences(text, places);
  if (options.also instanceof SecretList) options.also.occurrences(text, places);
  else for (const secret of options.also ?? []) if (secret.length > 0 && secret !== REDACTED) occurrences(text, secret, places);
  encodedOccurrences(text, places);
  for (const pattern of PATTERNS) patternPlaces(text, pattern, places);
  for (const pattern of options.patterns ?? []) patternPlaces(text, withIndices(pattern), places);
  return writePlaces(text, places);
}

/**
 * More secrets for redactTextWith (`also`), prepared once for many texts (the report's safety net scrubs every string
 * of a report with the run's session tokens): found in one pass by their prefixes, the short ones one by one, at the
 * same places as one search each.
 */
export class SecretList {
  private readonly index = new PrefixIndex(PLAIN_PREFIX);
  private readonly short: string[] = [];

  constructor(secrets: Iterable<string>) {
    for (const secret of new Set(secrets)) {
      if (secret.length === 0 || secret === REDACTED) continue;
      if (secret.length < PLAIN_PREFIX) this.short.push(secret);
      else this.index.add(secret);
    }
  }

  occurrences(text: string, into: [number, number][]): void {
    for (const secret of this.short) occurrences(text, secret, into);
    this.index.scan(text, (at, candidates) => {
      for (const secret of candidates) if (text.startsWith(secret, at) && standsAt(text, secret, at)) into.push([at, at + secret.length]);
    });
  }
}

/** Each extra pattern as a global one with indices, made once (it was made again for every string). */
const WITH_INDICES = new WeakMap<RegExp, RegExp>();
function withIndices(pattern: RegExp): RegExp {
  if (pattern.global && pattern.hasIndices) return pattern;
  let global = WITH_INDICES.get(pattern);
  if (!global) WITH_INDICES.set(pattern, (global = new RegExp(pattern.source, `${pattern.flags.replace(/[gd]/g, '')}gd`)));
  return global;
}

/**
 * The places of a global pattern's matches (its group `s`, else the whole match), as `text.matchAll` finds them: by
 * `exec` from the start, without the copy of the pattern that matchAll makes at each call (a share of the redaction's
 * time, called on every string of every exchange). An empty match moves on by one character (one code point under u or v).
 */
function patternPlaces(text: string, global: RegExp, places: [number, number][]): void {
  global.lastIndex = 0;
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    const [start, end] = match.indices?.groups?.s ?? match.indices![0]!;
    if (end > start) places.push([start, end]);
    if (match[0] === '') {
      const at = global.lastIndex;
      const wide = (global.unicode || global.flags.includes('v')) && at + 1 < text.length && (text.codePointAt(at) ?? 0) > 0xffff;
      global.lastIndex = at + (wide ? 2 : 1);
    }
  }
  global.lastIndex = 0;
}

/**
 * `text` with every place replaced by the marker; overlapping places merge into one, each written once.
 * A marker already in the text (content redacted before, then again with what a test learnt late) is a
 * place of its own, so a secret that overlaps it (a target's token "REDACTED]") merges into it, never nests.
 */
function writePlaces(text: string, places: [number, number][]): string {
  if (places.length === 0) return text;
  for (let at = text.indexOf(REDACTED); at !== -1; at = text.indexOf(REDACTED, at + REDACTED.length)) places.push([at, at + REDACTED.length]);
  places.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let written = 0;
  let current: [number, number] | undefined;
  for (const place of places) {
    if (current && place[0] < current[1]) {
      current[1] = Math.max(current[1], place[1]);
      continue;
    }
    if (current) {
      out += text.slice(written, current[0]) + REDACTED;
      written = current[1];
    }
    current = [place[0], place[1]];
  }
  out += text.slice(written, current![0]) + REDACTED + text.slice(current![1]);
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

/** What stands for a part of a JSON value nested deeper than MAX_JSON_DEPTH (never walked: the stack is finite). */
export const TOO_DEEP = `[nested deeper than ${MAX_JSON_DEPTH} levels]`;

export function redactJson(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value && typeof value === 'object' && depth >= MAX_JSON_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((inner) => redactJson(inner, depth + 1));
  if (value && typeof value === 'object') {
    // Object.fromEntries defines each key as the object's own, `__proto__` included (an assignment would set the prototype
    // and drop the key from the evidence); a key is the target's text too, so a secret it echoes as a key is redacted there.
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        redactText(key),
        // Only string values (and lists of codes) are credentials: `{ "2fa": false }` inside a user object is a setting, not a secret.
        isSecretKey(key) && isCredentialValue(key, inner) ? REDACTED : redactJson(inner, depth + 1),
      ]),
    );
  }
  return value;
}

/** Replaces secrets in an error's message and stack, keeping its class, so failures can be reported safely. */
export function redactError<T>(error: T): T {
  if (error instanceof Error) {
    error.message = redactText(error.message);
    if (error.stack) error.stack = redactText(error.stack);
    const withValues = error as Error & { actual?: unknown; expected?: unknown };
    if ('actual' in withValues) withValues.actual = redactValue(withValues.actual);
    if ('expected' in withValues) withValues.expected = redactValue(withValues.expected);
  }
  return error;
}

/**
 * An assertion's value redacted: an asymmetric matcher (`expect.arrayContaining(...)`) keeps its prototype, its sample
 * redacted in place, so that vitest can still print the failure (review-t: a plain copy made the report say "Asymmetric
 * matcher Object does not implement toAsymmetricMatcher()" instead of the test's message).
 */
function redactValue(value: unknown): unknown {
  const matcher = value as { $$typeof?: unknown; sample?: unknown } | null;
  if (matcher && typeof matcher === 'object' && matcher.$$typeof === Symbol.for('jest.asymmetricMatcher')) {
    if ('sample' in matcher) matcher.sample = redactJson(matcher.sample);
    return matcher;
  }
  return redactJson(value);
}

/** Below this length a registered secret is only found as a whole value: a 6-digit reset token or a weak password inside ordinary text is a coincidence. */
export const SUBSTRING_SECRET_LENGTH = 16;

/**
 * The registered secret `text` carries, if any, leaving out the values in `except` (a session's own
 * token, what the request itself sent): the whole value equal to a secret, or for long high-entropy
 * secrets (tokens, TOTP secrets, JWTs) the secret anywhere inside it.
 */
export function secretIn(text: string, except: ReadonlySet<string> = new Set()): string | undefined {
  if (secrets.has(text) && !except.has(text)) return text;
  if (text.length < SUBSTRING_SECRET_LENGTH) return undefined;
  // A long secret inside the text, found by its first characters in one pass.
  let found: string | undefined;
  plainByPrefix.scan(
    text,
    (at, candidates) => {
      for (const secret of candidates) {
        if (secret.length >= SUBSTRING_SECRET_LENGTH && !except.has(secret) && text.startsWith(secret, at)) {
          found = secret;
          return true;
        }
      }
      return false;
    },
    SUBSTRING_SECRET_LENGTH,
  );
  return found;
}
