import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckContext } from '../check/check.js';
import { logIn, userWithToken } from './flows.js';
import type { ApiResponse } from '../net/http.js';
import type { StateData } from '../states/transport.js';
import { learnSecret } from '../net/secrets.js';
import { TWO_BYTE_LETTERS } from './text.js';
import { RESTRICTED_REASON } from '../spec/logins.js';

/** Helpers of the password-reset suite (sections 4.3, 4.4): addresses of a given length, a reset in progress. */

export const FORGOT = '/api/v1/user/forgot-password';
export const RESET = '/api/v1/user/reset-password';

/** An address no target holds. */
export function unknownEmail(): string {
  return `nobody.${randomUUID()}@example.test`;
}

/**
 * The account's address with the first letter of its local part replaced by each SQL LIKE wildcard, `_` and `%`
 * (round wb19): addresses that name no account (RFC 5322 allows both in a local part), which a lookup `WHERE email LIKE
 * ?` with its wildcards unescaped reads as the account's. None when the local part holds no ASCII letter.
 */
export function likeWildcardEmails(email: string): { wildcard: '_' | '%'; email: string }[] {
  const at = email.lastIndexOf('@');
  const letter = at > 0 ? email.slice(0, at).search(/[A-Za-z]/) : -1;
  if (letter < 0) return [];
  return (['_', '%'] as const).map((wildcard) => ({ wildcard, email: `${email.slice(0, letter)}${wildcard}${email.slice(letter + 1)}` }));
}

/**
 * A syntactically valid address of exactly `length` characters (at least 23): a short local part and a domain of DNS
 * labels of at most 63 characters under `example.org` (RFC 2606: reserved for examples; issue 28, review-o). Only
 * example.org itself has DNS records, not the labels under it, so a validator that checks the domain resolves may still
 * refuse a long address: a login row that needs its address accepted and gets 422 sends a short address of the same
 * domain (skipWhenDomainRefused, suites/authentication.test.ts) and is not verified when that is refused too (review-q).
 */
export function emailOfLength(length: number): string {
  const suffix = '.example.org';
  if (length < 23) throw new Error('emailOfLength needs at least 23 characters');
  const local = `u${randomBytes(4).toString('hex')}`;
  // The labels before `.example.org`: at most 63 characters each, joined by dots.
  let rest = length - local.length - 1 - suffix.length;
  const labels: string[] = [];
  while (rest > 63) {
    const size = rest === 64 ? 62 : 63;
    labels.push('d'.repeat(size));
    rest -= size + 1;
  }
  labels.push('d'.repeat(rest));
  const email = `${local}@${labels.join('.')}${suffix}`;
  if (email.length !== length) throw new Error(`emailOfLength built ${email.length} characters instead of ${length}`);
  return email;
}

/** A password of exactly `length` characters (letters, digits and a symbol); registered as a secret. */
export function passwordOfLength(length: number): string {
  const base = `Rp1-${randomBytes(Math.ceil(length / 2) + 4).toString('hex')}`;
  const value = base.padEnd(length, 'x').slice(0, length);
  learnSecret(value, 'password');
  return value;
}

/**
 * A new password holding markup and quoting characters, `<`, `>`, `&`, `"`, `'` and a tag (`<b>...</b>`): 24 characters
 * beginning `Rp1-` as passwordOfLength's (the classes a strength policy asks); registered as a secret. Section 8 gives a
 * password lengths and nothing else, so it is a password like any other (round wb15: an input sanitiser that strips tags
 * from a reset's new password, which then does not log in).
 */
export function markupPassword(): string {
  const value = `Rp1-<b>&"'</b>${randomBytes(5).toString('hex')}`;
  learnSecret(value, 'password');
  return value;
}

/**
 * A new password with a leading and a trailing space around a passwordOfLength(`inner`) (16 by default: 18 characters);
 * registered as a secret. Section 8 gives a password lengths and nothing else, so its spaces are characters like any
 * other (round wb16: a login that trims the password while the reset stored it whole, or the reverse, never logs in with
 * it; review-x: a trim gated by length, so a short and a long one are sent).
 */
export function spacedPassword(inner = 16): string {
  const value = ` ${passwordOfLength(inner)} `;
  learnSecret(value, 'password');
  return value;
}

/**
 * A new password holding a decomposed accent, `e` followed by U+0301 COMBINING ACUTE ACCENT (Unicode NFD of `é`), 18
 * characters beginning `Rp1-` as passwordOfLength's; registered as a secret. Its NFC form is another string (round wb16:
 * a reset that stores the NFC form while the login compares the bytes sent never logs in with it).
 */
export function decomposedAccentPassword(): string {
  const value = `Rp1-e\u0301${randomBytes(6).toString('hex')}`;
  if (value.normalize('NFC') === value) throw new Error('decomposedAccentPassword: the password must differ from its NFC form');
  learnSecret(value, 'password');
  return value;
}

/**
 * A new password holding a precomposed accent, U+00E9 LATIN SMALL LETTER E WITH ACUTE (already in Unicode NFC and NFKC),
 * 17 characters beginning `Rp1-` as passwordOfLength's; registered as a secret. Its NFD form is another string (review-x:
 * a reset or a login that puts the password in NFD at one end only never logs in with it); NFC or NFKC at both ends
 * leaves it as sent.
 */
export function precomposedAccentPassword(): string {
  const value = `Rp1-\u00e9${randomBytes(6).toString('hex')}`;
  if (value.normalize('NFD') === value || value.normalize('NFKC') !== value) throw new Error('precomposedAccentPassword: the password must be in NFC and NFKC and differ from its NFD form');
  learnSecret(value, 'password');
  return value;
}

/**
 * A password of exactly `length` characters, two bytes each in UTF-8 (section 8 counts characters); registered as a secret.
 * From 8 characters on it begins with `A1-` (one byte each), as passwordOfLength carries an upper-case letter, a digit
 * and a symbol: a server with a strength policy would refuse a password of letters only (422), which says nothing about
 * how it counts. 191 such characters are 3 + 188 x 2 = 379 bytes, still over 191.
 */
export function twoBytePasswordOfLength(length: number): string {
  // Random letters, not twoByteText's fixed cycle: a registered secret equal to the same-length bankName or
  // holderName rows would make those answers look like they carry a password (a false security finding).
  let value = length >= 8 ? 'A1-' : '';
  while (value.length < length) value += TWO_BYTE_LETTERS[randomInt(TWO_BYTE_LETTERS.length)];
  learnSecret(value, 'password');
  return value;
}

/**
 * The bearer token sent with forgot- and reset-password. Section 4 notes that "forgot-password and
 * reset-password requests are also sent with a bearer header in the reference calls" without saying
 * whether one is required. What holds under both readings is to send one, as the reference calls do:
 * a target that needs it gets it, one that ignores it answers the same. So every request of this
 * suite carries a valid bearer header: of the account itself, logged in beforehand, or, for an address
 * longer than login accepts (191, section 8), of a fresh account.
 */
export async function bearerOf(t: CheckContext, user: { email: string; password: string; totpSecret?: string }): Promise<string> {
  return user.email.length <= 191 ? logIn(t, user) : (await userWithToken(t)).token;
}

/**
 * A target may refuse a second forgot-password for one address within a minute (Laravel's password broker throttle:
 * 422 keyed by email, "Please wait before retrying."; mutant allowed-r5-forgot-throttled), an allowed reading, since
 * section 8 leaves rate limits unshown. A hook's accounts are fresh, but a STATES_FILE account serves several tests of
 * a run (its one account with an e-mail of 255 characters serves forgot-password without type, with type text and
 * with type link), so a forgot-password to an address this run already sent one waits until FORGOT_RESEND_MS have
 * passed since that answer. A file run's tests may wait that long (cli/run.ts: testTimeout); the test's signal cuts it.
 */
export const FORGOT_RESEND_MS = 61_000;
const lastForgotAnswered = new Map<string, number>();

/**
 * Section 4.3: sends forgot-password with `json`. When it goes to the address of `user`, an account of STATES_FILE, and
 * this run already sent one there, it first waits until FORGOT_RESEND_MS have passed since that answer. Other addresses
 * (a hook's fresh accounts, unknown or malformed ones) are sent at once.
 */
export async function sendForgot(t: CheckContext, user: { email: string }, json: Record<string, unknown>, token: string): Promise<ApiResponse> {
  const address = t.target.states.kind === 'file' && json.email === user.email ? user.email.toLowerCase() : undefined;
  const last = address === undefined ? undefined : lastForgotAnswered.get(address);
  if (last !== undefined && last + FORGOT_RESEND_MS > Date.now()) await sleep(last + FORGOT_RESEND_MS - Date.now(), undefined, { signal: t.signal });
  try {
    return await t.post(FORGOT, { json, token });
  } finally {
    if (address !== undefined) lastForgotAnswered.set(address, Date.now());
  }
}

/** A reset in progress: the user, the token of its e-mail and the user's bearer. */
export interface ResetStarted {
  user: StateData['user'];
  token: string;
  bearer: string;
}

/**
 * A fresh user (state `user`, marked as changed by the test) for whom forgot-password has just been
 * answered 200, the token of that e-mail (state `password-reset.token`), and the user's bearer token
 * (see bearerOf). `params` go to the `user` state.
 *
 * From a static states file the token is the account's `resetToken`, the latest e-mail's: asking for
 * another e-mail would make it invalid, so forgot-password is not sent. A test whose reset succeeds
 * (`spends`) spends that token, which only a new e-mail can renew: it needs a "disposable" account.
 */
export async function resetInProgress(t: CheckContext, options?: { spends?: boolean; params?: Record<string, unknown>; type?: 'text' | 'link' }): Promise<ResetStarted>;
export async function resetInProgress(t: CheckContext, options: { spends?: boolean; params?: Record<string, unknown>; type?: 'text' | 'link'; onEmailRefused: (forgot: ApiResponse) => void }): Promise<ResetStarted | undefined>;
export async function resetInProgress(t: CheckContext, { spends = true, params = {}, type, onEmailRefused }: { spends?: boolean; params?: Record<string, unknown>; type?: 'text' | 'link'; onEmailRefused?: (forgot: ApiResponse) => void } = {}) {
  const fromFile = t.target.states.kind === 'file';
  const user = await t.state('user', params, { mutates: !fromFile || spends, needs: ['password-reset.token'], ...(type ? { resetType: type } : {}) });
  const bearer = await bearerOf(t, user);
  if (!fromFile) {
    // Section 4.3: `type` (text or link) says how the e-mail shows the token; without it, the default.
    const forgot = await sendForgot(t, user, { email: user.email, ...(type ? { type } : {}) }, bearer);
    // An address the test knows a reading may refuse as no valid e-mail (255 characters: review-an F2) is handed back to it.
    if (forgot.status === 422 && onEmailRefused !== undefined) {
      onEmailRefused(forgot);
      return undefined;
    }
    if (forgot.status !== 200) throw new Error(`precondition: forgot-password for a fresh provider-state user must answer 200, got ${forgot.status}`);
  }
  // `type` (added later to the state): the token as the e-mail of that type shows it, which is what a user would send.
  const { token } = await t.state('password-reset.token', { email: user.email, ...(type ? { type } : {}) });
  if (typeof token !== 'string' || token === '') throw new Error('precondition: provider state password-reset.token must answer { token }');
  learnSecret(token, 'reset-token');
  return { user, token, bearer };
}

/** Section 4.2: the login status for an e-mail and password (and a 2FA code, when given); a Session it opens is logged out after the test. */
export async function loginStatus(t: CheckContext, email: string, password: string, code?: string): Promise<number> {
  const response = await t.post('/api/v1/authenticate', { json: { email, password, ...(code === undefined ? {} : { '2fa': code }) } });
  const token = code !== undefined && response.status === 200 && response.isJson ? response.json?.data?.id : undefined;
  if (typeof token === 'string') {
    learnSecret(token, 'token');
    t.cleanup(() => t.post('/api/v1/user/logout', { token }));
  }
  return response.status;
}

/**
 * Section 4.4 with S341 (a 422 refusal stores nothing): after a refused reset (or any request that must leave the
 * password alone), the account's unchanged password still logs in (200). That login succeeds on a conformant target,
 * so it is no failed login (docs/judging.md "Failed logins"). A 425 is a restriction provoked elsewhere: not verified.
 */
export async function expectPasswordUnchanged(t: CheckContext, user: { email: string; password: string }, after: string): Promise<void> {
  const status = await loginStatus(t, user.email, user.password);
  if (status === 425) t.skip(RESTRICTED_REASON);
  if (status !== 200) throw new Error(`after ${after}, logging in with the unchanged password of ${user.email} must answer 200, got ${status}`);
}
