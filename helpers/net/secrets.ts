/**
 * The secrets the run learnt, each with what it is and whose (issue 28: security findings by meaning,
 * not by shape). helpers/check/security.ts reads them to decide whether an answer may carry a value:
 * a password never, the reset token never (section 4.4: it arrives by e-mail), a token only to the
 * session it belongs to. Learning a secret also registers it for redaction (helpers/net/redact.ts).
 */

import { createHash } from 'node:crypto';
import { normalizedKey } from '../spec/credential-names.js';
import { idKey } from '../spec/normalisation.js';
import { PrefixIndex } from './prefix-index.js';
import { registerConfiguredSecret, registerEncodedSecret, registerSecret } from './redact.js';

/**
 * - `password`: a password the run sent or a state gave; in no answer.
 * - `never-travels`: a TOTP secret, a recovery code, an unmasked anti-phishing code (2.6); in no answer.
 * - `reset-token`: the token of a password reset, which arrives by e-mail (4.4); in no answer of the interface.
 * - `token`: a bearer credential (an access or refresh token, a JWT): in the answer that issues it to its
 *   holder, and in answers to its own session, never elsewhere.
 * - `configured`: a secret of the run's configuration (STATES_TOKEN, a value of --header); in no answer.
 */
/**
 * What a learnt secret is. `configured`: STATES_TOKEN, or a `--header` value whose name names a credential
 * (`isCredentialHeaderName`); `header-value`: a `--header` value whose name names none (an API version, a tenant): redacted
 * as a configured secret is, but found in an answer it is advised on, not a finding (review-an F1: a tenant id equal to a
 * platform's code, or "2", is no leak).
 */
/**
 * `own-code`: a value its owner may be shown but no one else (the anti-phishing code of 2.6: its owner recognises it in
 * e-mails and screens; review-ao F2), learnt with its owner.
 */
export type SecretKind = 'password' | 'never-travels' | 'own-code' | 'reset-token' | 'token' | 'configured' | 'header-value';

export interface LearntSecret {
  value: string;
  kind: SecretKind;
  /** The user the token was issued to (a Session's `userId`, a state's user id), when the run knows it. */
  owner?: string;
  /**
   * An `own-code` value the run learnt as the code of more than one user (reading round r28: a hook that gives its
   * accounts one shared anti-phishing word): every one of them, `owner` first. An answer to any of them may carry it.
   */
  owners?: Set<string>;
  /** The session it belongs to, named by that session's access token (a refresh token belongs to its Session). */
  session?: string;
  /** The answer (its parsed body) that issued it, when the run learnt it first there, as long as it is alive (held weakly). */
  issuedIn?: object;
  /**
   * Issue 28: the users (by their Session's `userId`) whose login or reset answers carried this value alike
   * under a token name, as long as the run knows it as nothing else. Dropped for good the moment the run
   * learns the value as a credential of a particular user or session (a Session's id, a state's token, a
   * password, a reset token, a TOTP secret): such a value is never a shared constant.
   */
  issuedAlikeTo?: Set<string>;
  /**
   * Where the login answers carried it under a token name (a JSON path of keys, list items as `*`) and the users whose
   * answers carried it there. A constant of the target sits alike in the logins of several users at every place it is
   * seen; one user's refresh token sits at its issuing place in that user's answers alone, even when the target also
   * hands it to other users elsewhere (the login before, the first login of the server): that is a leak.
   */
  issuedAlikeAt?: Map<string, Set<string>>;
}

/**
 * A value that the login answers of two or more distinct users carry identically under a token name, and
 * that the run knows as no particular user's or session's credential: a constant of the target (a public
 * map key named `mapToken`), not one user's token. It is advised on, never a finding (principle 1).
 */
export function isSharedConstant(secret: LearntSecret): boolean {
  if (secret.kind !== 'token' || secret.issuedAlikeTo === undefined || secret.issuedAlikeAt === undefined) return false;
  if (secret.issuedAlikeTo.size < 2 || secret.issuedAlikeAt.size === 0) return false;
  // At every place it was seen, the logins of two or more users carried it: never one user's token that only leaked elsewhere.
  for (const users of secret.issuedAlikeAt.values()) if (users.size < 2) return false;
  return true;
}

/** A value found in a text: the secret, and in which form it was written there. */
export interface SecretFound {
  secret: LearntSecret;
  /** The text it was found as (the secret itself, or one of its encodings): what a request that sent it may see again. */
  text?: string;
  /** `as is`, another alphabet of a token's text, or (a base32 TOTP secret) its bytes in another alphabet or its base32 in the other letter case. */
  form: 'as is' | 'base64' | 'base64url' | 'hex' | 'bytes as hex' | 'bytes as base64' | 'bytes as base64url' | 'base32 in another letter case' | PasswordDigestForm | 'HTTP Basic credential, base64 of e-mail:password';
}

/** An unsalted digest of a password, in one alphabet (round wb25). */
export type PasswordDigestForm = `unsalted ${'MD5' | 'SHA-1' | 'SHA-256' | 'SHA-512'} digest in ${'hex' | 'base64' | 'base64url'}`;

/** Below this length a secret is only found as a whole value: a 6-digit code inside ordinary text is a coincidence. */
export const SUBSTRING_SECRET_LENGTH = 16;

/** Shorter values are not learnt (they would be found by coincidence), except configured ones, which the run knows are secrets. */
const MIN_LENGTH = 6;

const learnt = new Map<string, LearntSecret>();
/** Other alphabets of a token (base64, base64url, hex), each pointing at the token it encodes. */
const encodings = new Map<string, SecretFound>();
/**
 * Every long value (learnt or encoded) by its first SUBSTRING_SECRET_LENGTH characters: a text is
 * searched in one pass over its positions, whatever the number of secrets the run learnt.
 */
let byPrefix = new PrefixIndex(SUBSTRING_SECRET_LENGTH);

/**
 * Forgets every secret the run learnt, for what the scan judges (its redaction stays: a secret is never printed). The
 * mutation runner's workers serve one run after another, each against another reference with its own users: a code or
 * token learnt in one run would otherwise be judged another user's in the next, and a verdict would depend on which
 * runs a worker served before (the lead, reading round r28: a state's anti-phishing word learnt in one run made the
 * next run's records carrying that word findings).
 */
export function forgetLearntSecrets(): void {
  publicValues.clear();
  learnt.clear();
  encodings.clear();
  byPrefix = new PrefixIndex(SUBSTRING_SECRET_LENGTH);
}

/**
 * Long values the run saw as the whole value of a member the specification gives a meaning of its own (a platform's
 * `name`, a status: helpers/check/security.ts SPECIFIED_VALUE_MEMBERS): public text, so an anti-phishing code equal to
 * one (reading round r29: a code that is the platform's name) is no finding as a whole header value or piece either
 * (review-ay F1). Only values a long code may equal are kept, and at most PUBLIC_VALUES_KEPT of them.
 */
const publicValues = new Set<string>();
const PUBLIC_VALUES_KEPT = 10_000;

export function notePublicValue(value: string): void {
  if (value.length < SUBSTRING_SECRET_LENGTH || value.length > 255 || publicValues.size >= PUBLIC_VALUES_KEPT) return;
  publicValues.add(value);
}

/** Whether the run saw `value` as the whole value of a member the specification gives a meaning of its own (notePublicValue). */
export function isPublicValue(value: string): boolean {
  return publicValues.has(value);
}

function indexLong(value: string): void {
  if (value.length < SUBSTRING_SECRET_LENGTH) return;
  byPrefix.add(value);
}

/**
 * The forms a token may be written in besides its own: base64 (standard, URL-safe, without padding)
 * and hex (both cases), of the whole token and of the secret after `|`. Found by value, whatever the
 * alphabet, never by the shape of a value.
 */
export function encodedForms(value: string): { text: string; form: SecretFound['form'] }[] {
  const bar = value.indexOf('|');
  const parts = bar > 0 && value.length - bar > MIN_LENGTH ? [value, value.slice(bar + 1)] : [value];
  const out: { text: string; form: SecretFound['form'] }[] = [];
  for (const part of parts) {
    const bytes = Buffer.from(part, 'utf8');
    out.push({ text: bytes.toString('base64').replace(/=+$/, ''), form: 'base64' });
    out.push({ text: bytes.toString('base64url'), form: 'base64url' });
    const hex = bytes.toString('hex');
    out.push({ text: hex, form: 'hex' }, { text: hex.toUpperCase(), form: 'hex' });
  }
  return out.filter((item) => item.text !== value && item.text.length >= SUBSTRING_SECRET_LENGTH);
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * Issue 27, white-box round wb24: the forms a base32 TOTP secret (the states' `totpSecret`, RFC 4648 base32 as RFC 6238
 * authenticators take it) may be written in by a target that keeps the secret's bytes: those bytes in hex (both cases),
 * base64 (without padding) and base64url, and the base32 in the other letter case. Only for a value that is base32 as a
 * whole (padding aside) of at least 16 characters (80 bits, RFC 4226's least secret): no other value is decoded. Forms
 * shorter than MIN_LENGTH are dropped (found by coincidence).
 */
export function totpSecretForms(value: string): { text: string; form: SecretFound['form'] }[] {
  const body = value.replace(/=+$/, '');
  if (body.length < 16 || !/^[A-Z2-7]+$/i.test(body)) return [];
  let bits = 0;
  let acc = 0;
  const bytes: number[] = [];
  for (const char of body.toUpperCase()) {
    acc = ((acc << 5) | BASE32.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  const buffer = Buffer.from(bytes);
  const hex = buffer.toString('hex');
  const out: { text: string; form: SecretFound['form'] }[] = [
    { text: hex, form: 'bytes as hex' },
    { text: hex.toUpperCase(), form: 'bytes as hex' },
    { text: buffer.toString('base64').replace(/=+$/, ''), form: 'bytes as base64' },
    { text: buffer.toString('base64url'), form: 'bytes as base64url' },
    { text: body.toLowerCase(), form: 'base32 in another letter case' },
    { text: body.toUpperCase(), form: 'base32 in another letter case' },
  ];
  return out.filter((item) => item.text !== value && item.text.length >= MIN_LENGTH);
}

/** The base64 of a text: standard with and without its padding, and base64url (without padding). */
function base64Writings(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const padded = bytes.toString('base64');
  return [...new Set([padded, padded.replace(/=+$/, ''), bytes.toString('base64url')])];
}

const DIGESTS = [
  ['MD5', 'md5'],
  ['SHA-1', 'sha1'],
  ['SHA-256', 'sha256'],
  ['SHA-512', 'sha512'],
] as const;

/**
 * Issue 27, white-box round wb25: the forms a password may be written in by a target that keeps it so (a legacy column
 * serialised with a record): its unsalted MD5, SHA-1, SHA-256 and SHA-512 digests of its UTF-8 bytes, in hex (both
 * cases), base64 (with and without padding) and base64url, and the password itself in base64 and base64url. Each is the
 * password to anyone who holds it (an unsalted digest of a password is reversed by a lookup), so it is found by value as
 * the password is, never by a field's name or a value's shape. Forms shorter than MIN_LENGTH are dropped.
 */
export function passwordForms(value: string): { text: string; form: SecretFound['form'] }[] {
  const out: { text: string; form: SecretFound['form'] }[] = [];
  for (const [name, algorithm] of DIGESTS) {
    const digest = createHash(algorithm).update(value, 'utf8').digest();
    const hex = digest.toString('hex');
    out.push({ text: hex, form: `unsalted ${name} digest in hex` }, { text: hex.toUpperCase(), form: `unsalted ${name} digest in hex` });
    const padded = digest.toString('base64');
    out.push({ text: padded, form: `unsalted ${name} digest in base64` }, { text: padded.replace(/=+$/, ''), form: `unsalted ${name} digest in base64` });
    out.push({ text: digest.toString('base64url'), form: `unsalted ${name} digest in base64url` });
  }
  for (const text of base64Writings(value)) out.push({ text, form: text.includes('-') || text.includes('_') ? 'base64url' : 'base64' });
  // Its UTF-8 bytes in hex, in both letter cases (round wb28: a legacy column that keeps the password hex-encoded).
  const hex = Buffer.from(value, 'utf8').toString('hex');
  out.push({ text: hex, form: 'hex' }, { text: hex.toUpperCase(), form: 'hex' });
  return out.filter((item) => item.text !== value && item.text.length >= MIN_LENGTH);
}

/** The bytes a token's text writes when it is hex (of even length) or base64/base64url that writes them back alike; else undefined. */
function bytesWritten(value: string): Buffer | undefined {
  if (/^[0-9a-f]+$/i.test(value) && value.length % 2 === 0) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return undefined;
  const body = value.replace(/=+$/, '');
  const url = /[-_]/.test(body);
  if (url && /[+/]/.test(body)) return undefined;
  const bytes = Buffer.from(body, url ? 'base64url' : 'base64');
  const back = url ? bytes.toString('base64url') : bytes.toString('base64').replace(/=+$/, '');
  return back === body ? bytes : undefined;
}

/**
 * Issue 27, white-box round wb27: the forms a password reset token may be written in: those of an access token
 * (encodedForms: base64, base64url and hex of its text) and, when the token is hex or base64 of random bytes, those bytes
 * in hex (both cases), base64 (with and without padding) and base64url. Found by value, never by shape; forms shorter than
 * SUBSTRING_SECRET_LENGTH are dropped (found by coincidence).
 */
export function resetTokenForms(value: string): { text: string; form: SecretFound['form'] }[] {
  const out = encodedForms(value);
  const bytes = bytesWritten(value);
  if (bytes !== undefined && bytes.length > 0) {
    const hex = bytes.toString('hex');
    const padded = bytes.toString('base64');
    out.push(
      { text: hex, form: 'bytes as hex' },
      { text: hex.toUpperCase(), form: 'bytes as hex' },
      { text: padded, form: 'bytes as base64' },
      { text: padded.replace(/=+$/, ''), form: 'bytes as base64' },
      { text: bytes.toString('base64url'), form: 'bytes as base64url' },
    );
  }
  const seen = new Set<string>();
  return out.filter((item) => item.text !== value && item.text.length >= SUBSTRING_SECRET_LENGTH && !seen.has(item.text) && seen.add(item.text) !== undefined);
}

/** Adds a form of a learnt secret: found as that secret (whole, or anywhere when long), and redacted. */
function addForm(secret: LearntSecret, text: string, form: SecretFound['form']): void {
  if (learnt.has(text) || encodings.has(text)) return;
  encodings.set(text, { secret, form });
  indexLong(text);
  if (text.length >= SUBSTRING_SECRET_LENGTH) registerEncodedSecret(text);
  else registerSecret(text);
}

/**
 * Issue 27, white-box round wb25: a password the run learnt, sent with an e-mail (a login, a reset, a state's account),
 * is also the HTTP Basic credential of RFC 7617, base64 of `<email>:<password>` (with and without padding, and
 * base64url; the e-mail as sent and in lower case, as a target may store it): found and redacted as the password. Only
 * for a value the run learnt as a password: an e-mail sent with any other string teaches nothing.
 */
/**
 * A provider state's account and its password: learnt as a password, with its Basic credential, unless the password is
 * a value the account shows to anyone, or a part of one (its id, its e-mail or the e-mail's local part, in any letter case: reading round r29's hooks whose passwords
 * are the user's UUID or address, legal under the states contract, which leaves the password to the target). Such a
 * password is public by construction: 2.1 requires the Session's `userId`, and a forgot-password message may name the
 * address sent, so finding it there would fail every target with such accounts. It is still redacted from reports.
 */
export function learnAccountPassword(account: { password?: unknown; email?: unknown; id?: unknown }): void {
  const { password, email, id } = account;
  if (typeof password !== 'string' || password === '') return;
  // Equal to or inside the id or the address (review-ax F2: the address's local part), in any letter case.
  const within = (other: unknown) => typeof other === 'string' && other.toLowerCase().includes(password.toLowerCase());
  if (within(id) || within(email)) {
    registerSecret(password);
    return;
  }
  learnSecret(password, 'password');
  learnPasswordWithEmail(email, password);
}

export function learnPasswordWithEmail(email: unknown, password: unknown): void {
  if (typeof email !== 'string' || email === '' || typeof password !== 'string') return;
  const secret = learnt.get(password);
  if (secret === undefined || secret.kind !== 'password' || secret.value !== password) return;
  for (const address of new Set([email, email.toLowerCase()])) {
    for (const text of base64Writings(`${address}:${password}`)) addForm(secret, text, 'HTTP Basic credential, base64 of e-mail:password');
  }
}

/**
 * Learns a secret (and registers it for redaction). A value learnt before keeps what it was first
 * learnt as; only a missing owner or session is filled in, and `issuedIn` is never added later (an
 * answer that carries a token the run already knew did not issue it).
 */
export function learnSecret(value: unknown, kind: SecretKind, about: { owner?: string; session?: string; issuedIn?: object; underTokenName?: boolean; at?: string } = {}): void {
  if (typeof value !== 'string' || value === '') return;
  // A user by its id as ids are compared (a UUID in any letter case: the hook and the interface may write one user's id in two cases).
  if (about.owner !== undefined) about = { ...about, owner: idKey(about.owner) };
  if (kind === 'configured' || kind === 'header-value') registerConfiguredSecret(value);
  else {
    registerSecret(value);
    if (value.length < MIN_LENGTH) return;
  }
  const { underTokenName, at, issuedIn, ...whose } = about;
  const place = at ?? '';
  const known = learnt.get(value);
  if (known) {
    // Seen again under a token name in an issuing answer: one more user it was issued to alike (at this place). Learnt
    // any other way (a Session's id, a state, a password): a credential of its own, never a shared constant.
    if (underTokenName === true && kind === 'token') {
      if (known.issuedAlikeTo !== undefined && known.issuedAlikeAt !== undefined) {
        const users = known.issuedAlikeAt.get(place) ?? new Set<string>();
        known.issuedAlikeAt.set(place, users);
        if (about.owner !== undefined) {
          known.issuedAlikeTo.add(about.owner);
          users.add(about.owner);
        }
      }
    } else {
      known.issuedAlikeTo = undefined;
      known.issuedAlikeAt = undefined;
    }
    if (known.kind === 'own-code' && known.owner !== undefined && about.owner !== undefined && known.owner !== about.owner) (known.owners ??= new Set([known.owner])).add(about.owner);
    if (known.owner === undefined && about.owner !== undefined) known.owner = about.owner;
    if (known.session === undefined && about.session !== undefined) known.session = about.session;
    return;
  }
  const firstUsers = (): Set<string> => new Set(about.owner !== undefined ? [about.owner] : []);
  const alike = underTokenName === true && kind === 'token' ? { issuedAlikeTo: firstUsers(), issuedAlikeAt: new Map([[place, firstUsers()]]) } : {};
  const secret: LearntSecret = { value, kind, ...whose, ...alike };
  if (issuedIn !== undefined) {
    // Weakly (issue 29): the answer is compared by identity while a test still scans it, and never kept for the rest of
    // the run (a target padding its login answers to megabytes would have each of them held until the run ends).
    const answer = new WeakRef(issuedIn);
    Object.defineProperty(secret, 'issuedIn', { get: () => answer.deref(), enumerable: true });
  }
  learnt.set(value, secret);
  indexLong(value);
  if (kind === 'password') {
    // A password's unsalted digests and its base64 are the password (round wb25): found and redacted as it.
    for (const { text, form } of passwordForms(value)) addForm(secret, text, form);
    return;
  }
  if (kind === 'reset-token') {
    // A reset token in base64 or hex, or its bytes in another alphabet, is the token (round wb27): found and redacted as it.
    for (const { text, form } of resetTokenForms(value)) addForm(secret, text, form);
    return;
  }
  if (kind === 'never-travels') {
    // A TOTP secret in another writing is the same secret (round wb24): found and redacted as it.
    for (const { text, form } of totpSecretForms(value)) {
      if (learnt.has(text) || encodings.has(text)) continue;
      encodings.set(text, { secret, form });
      indexLong(text);
      registerEncodedSecret(text);
    }
    return;
  }
  if (kind !== 'token') return;
  // An access token `<id>|<secret>`: its secret part alone is the same credential.
  const bar = value.indexOf('|');
  const part = value.slice(bar + 1);
  if (bar > 0 && value.length - bar > MIN_LENGTH && !learnt.has(part)) {
    learnt.set(part, secret);
    indexLong(part);
  }
  for (const { text, form } of encodedForms(value)) {
    if (learnt.has(text) || encodings.has(text)) continue;
    encodings.set(text, { secret, form });
    indexLong(text);
    // Redacted too: a token in base64 or hex is the token (found as one, and never written out).
    registerEncodedSecret(text);
  }
}

/** What the run knows of `value`, when it learnt it (as a token, the token itself or its secret part). */
export function learntSecret(value: string): LearntSecret | undefined {
  return learnt.get(value);
}

/**
 * Every learnt secret `text` carries: as its whole value, or, for a secret of at least
 * SUBSTRING_SECRET_LENGTH characters, anywhere inside it; in its own alphabet or (a token) another.
 */
export function secretsIn(text: string): SecretFound[] {
  const found = new Map<LearntSecret, SecretFound>();
  const whole = learnt.get(text);
  if (whole) found.set(whole, { secret: whole, form: 'as is', text });
  const encoded = encodings.get(text);
  if (encoded && !found.has(encoded.secret)) found.set(encoded.secret, { ...encoded, text });
  if (text.length > SUBSTRING_SECRET_LENGTH) {
    byPrefix.scan(text, (at, candidates) => {
      for (const value of candidates) {
        if (!text.startsWith(value, at)) continue;
        const item: SecretFound = learnt.has(value) ? { secret: learnt.get(value)!, form: 'as is', text: value } : { ...encodings.get(value)!, text: value };
        if (!found.has(item.secret)) found.set(item.secret, item);
      }
    });
  }
  return [...found.values()];
}

/** Names under which an answer that issues credentials carries a token besides a Session's `id`: `refreshToken`, `access_token`, `jwt`. */
function isTokenName(key: string): boolean {
  const name = normalizedKey(key);
  return name.endsWith('token') || name === 'jwt';
}

/** A Session (2.1) wherever it sits in an answer: an object with a string `id` and a string `userId`. */
function isSession(value: unknown): value is { id: string; userId: string } {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' && typeof (value as { userId?: unknown }).userId === 'string';
}

/** The first Session of an answer (the top-level one first): whom an answer that issues credentials signs in. */
function firstSessionOf(body: unknown): { id: string; userId: string } | undefined {
  let first: { id: string; userId: string } | undefined;
  const walk = (value: unknown, depth: number): void => {
    if (first !== undefined || depth > 8 || !value || typeof value !== 'object') return;
    if (isSession(value)) first = value;
    else for (const inner of Object.values(value)) walk(inner, depth + 1);
  };
  walk(body, 0);
  return first;
}

/** The user an answer that issues credentials signs in: the `userId` of its first Session. */
export function subjectOf(body: unknown): string | undefined {
  return firstSessionOf(body)?.userId;
}

/**
 * Learns the credentials an answer to authentication or a password reset issues: each Session's
 * `id` (owned by its `userId`), and every long string under a token name (a refresh token, in any
 * alphabet or shape), which belongs to the Session it sits in, else to the answer's first one.
 */
export function learnIssuedCredentials(body: unknown): void {
  if (!body || typeof body !== 'object') return;
  const first = firstSessionOf(body);
  const walk = (value: unknown, session: { id: string; userId: string } | undefined, depth: number, path: string): void => {
    if (depth > 8 || !value || typeof value !== 'object') return;
    const here = isSession(value) ? value : session;
    if (isSession(value)) learnSecret(value.id, 'token', { owner: value.userId, session: value.id, issuedIn: body });
    for (const [key, inner] of Object.entries(value)) {
      // The place in the answer, list items alike: where a constant would sit in every user's login.
      const at = `${path}/${Array.isArray(value) ? '*' : key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (typeof inner === 'string' && isTokenName(key) && inner.length >= SUBSTRING_SECRET_LENGTH) {
        learnSecret(inner, 'token', { ...(here ? { owner: here.userId, session: here.id } : {}), issuedIn: body, underTokenName: true, at });
      } else walk(inner, here, depth + 1, at);
    }
  };
  walk(body, first, 0, '');
}
