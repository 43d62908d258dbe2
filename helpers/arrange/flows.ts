import type { CheckContext } from '../check/check.js';
import { sameId } from '../spec/normalisation.js';
import { platformFor, platformIfAny, skipUnlessOwnUser, futureExpire, sendWithExpireForm } from './jwt.js';
import { learnSecret } from '../net/secrets.js';
import { fileAccountGiven, hookWouldAdd, refusedLoginCause } from '../states/file.js';
import { RESTRICTED_REASON } from '../spec/logins.js';
import { freshTotpCode, untilNextTotpStep } from '../states/totp.js';
import type { StateName } from '../states/transport.js';

/**
 * A STATES_FILE account that its own credentials no longer open was changed since the file was written:
 * the tests that need it are not verified (issue 30), whether they log in through logIn or test the login
 * itself. A hook made its account moments ago: there a refusal is the target's.
 */
export function skipWhenFileAccountRefused(t: CheckContext, user: { email: string; password: string }, response: { status: number }): void {
  if (response.status === 200 || t.target.states.kind !== 'file') return;
  const kind = fileAccountGiven(user.email, user.password);
  if (kind !== undefined) t.skip(`not verified: the states file's account for state ${kind} (${user.email}) cannot log in: the target answered ${response.status}: ${refusedLoginCause(response.status)}`);
}

/** Section 4.2: logs in and answers the access token; fails the test (with the target's answer) when login does not succeed. */
export async function logIn(t: CheckContext, user: { email: string; password: string; totpSecret?: string }): Promise<string> {
  const json: Record<string, string> = { email: user.email, password: user.password };
  if (user.totpSecret) json['2fa'] = await freshTotpCode(user.totpSecret, t.signal);
  const response = await t.post('/api/v1/authenticate', { json });
  // A reused STATES_FILE account may carry failed logins of earlier runs: that says nothing about the target.
  if (response.status === 425 && t.target.states.kind === 'file') t.skip(`the STATES_FILE account ${user.email} is under the brute-force restriction (425), from failed logins of earlier tests or runs; wait for it to lift or export the file again (${hookWouldAdd('user')})`);
  skipWhenFileAccountRefused(t, user, response);
  // Any other 425 is the restriction other tests' failed logins brought on (its scope is not said): not verified.
  if (response.status === 425) t.skip(RESTRICTED_REASON);
  if (response.status !== 200) throw new Error(`precondition: logging in as a fresh provider-state user must answer 200, got ${response.status}`);
  const token = response.json?.data?.id;
  if (typeof token !== 'string') throw new Error('precondition: the login answer must carry data.id, the access token');
  learnSecret(token, 'token');
  return token;
}

/** Section 4.1: sends a platform JWT in the `Token` header (no bearer header, no body). */
export function authenticateJwt(t: CheckContext, platformId: string, jwt: string | undefined) {
  // The first JWT login that can tell detects the form of `expire` (number or ISO 8601 string; helpers/arrange/jwt.ts).
  return sendWithExpireForm(t, jwt, (token) => t.post(`/api/v1/authenticate-jwt/${encodeURIComponent(platformId)}`, token === undefined ? {} : { headers: { token } }));
}

/** Section 4.1: logs in through a trusted platform's JWT naming the user by id (or by `email`); fails the test when login does not succeed. */
export async function logInWithJwt(t: CheckContext, user: { id: string; email?: string; platformId?: string }, claim: 'id' | 'email' = 'id'): Promise<string> {
  const platform = await platformFor(t);
  const named = claim === 'email' ? { email: user.email } : { id: user.id };
  const response = await authenticateJwt(t, platform.id, await platform.sign({ ...named, expire: futureExpire(300) }));
  if (response.status === 425) t.skip(RESTRICTED_REASON);
  // A user the state did not make one of the platform's (no platformId) may be refused by a platform that authenticates only its own.
  skipUnlessOwnUser(t, response, user, platform);
  if (response.status !== 200) throw new Error(`precondition: logging in with a valid platform JWT must answer 200, got ${response.status}`);
  const token = response.json?.data?.id;
  if (typeof token !== 'string') throw new Error('precondition: the JWT login answer must carry data.id, the access token');
  learnSecret(token, 'token');
  return token;
}

/**
 * White-box round wb24: a further session of a 2FA account after its only one was used up (its records read after its
 * logout), never a skip or a failed login: a JWT login naming it by id through the test's trusted platform where one
 * can be had (platformIfAny) and the account is that platform's (its state answered that platform's `platformId`: no
 * refusal by a platform that authenticates only its own users), else a 2FA login with the code of the next TOTP step
 * (a wait of up to 31 s, so that no code is sent twice). Logged out after the test.
 */
export async function furtherTwoFactorSession(t: CheckContext, user: { id: string; email: string; password: string; totpSecret?: string; platformId?: string }): Promise<string> {
  const platform = await platformIfAny(t);
  if (platform && sameId(user.platformId, platform.id)) {
    const response = await authenticateJwt(t, platform.id, await platform.sign({ id: user.id, expire: futureExpire(300) }));
    const token = response.status === 200 ? response.json?.data?.id : undefined;
    if (typeof token === 'string') {
      learnSecret(token, 'token');
      t.cleanup(() => t.post('/api/v1/user/logout', { token }));
      return token;
    }
  }
  await untilNextTotpStep(t.signal);
  const token = await logIn(t, user);
  t.cleanup(() => t.post('/api/v1/user/logout', { token }));
  return token;
}

/** A fresh active user (provider state `user`) and an access token for it; `needs`: the states asked next for that user. */
export async function userWithToken(t: CheckContext, params: Record<string, unknown> = {}, options: { needs?: StateName[]; mutates?: boolean } = {}) {
  const user = await t.state('user', params, options);
  return { user, token: await logIn(t, user) };
}

/**
 * A wrong password for an account whose password is `password`, inside section 8's 8 to 191 characters whatever the
 * account's own length (reading round r28: a hook's passwords of 191 characters, the most 4.2 allows, made a wrong
 * password of 197 that 8 rightly refuses with 422). The account's password with `-wrong` appended where that fits and
 * the password is under 72 bytes, which bcrypt compares (a server that takes a password starting with the right one
 * still meets a wrong one); otherwise (`sameLength`, or too
 * long to append to) its FIRST character made another digit: a server that compares only the first 72 bytes (bcrypt)
 * or compares without regard to letter case still meets a wrong password. Counted in code points, as 8 counts characters.
 */
export function wrongPasswordOf(password: string, sameLength = false): string {
  const chars = [...password];
  // Appended only where bcrypt sees the suffix: a password of 72 bytes or more is compared by its first 72 (review-av F1).
  if (!sameLength && chars.length + WRONG_SUFFIX.length <= 191 && Buffer.byteLength(password, 'utf8') < BCRYPT_BYTES) return `${password}${WRONG_SUFFIX}`;
  return `${chars[0] === '0' ? '1' : '0'}${chars.slice(1).join('')}`;
}
const WRONG_SUFFIX = '-wrong';
/** The bytes of a password bcrypt compares (allowed-login-password-72-byte-prefix). */
const BCRYPT_BYTES = 72;

/** A well-formed token that no target has issued. */
export const GARBAGE_TOKEN = '999999999|notARealTokenSecretValue0000000000000000';
