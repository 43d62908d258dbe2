import type { ApiResponse, Exchange, RequestSpec } from '../net/http.js';
import { redactError } from '../net/redact.js';
import { learnSecret } from '../net/secrets.js';
import { FileStates, type FileAccount } from './file.js';
import { freshTotpCode } from './totp.js';
import type { StatesTransport } from './transport.js';

const LOGIN = /\/api\/v1\/authenticate$/;

/** What releasing needs of the test's context (helpers/check's CheckContext, which calls this). */
interface ReleasingContext {
  post(path: string, options?: Omit<RequestSpec, 'method' | 'path'>): Promise<ApiResponse>;
  /** The suite's own bookkeeping went wrong: a run warning, never an advisory about the target. */
  warn(message: string): void;
  /** Aborted when an interrupted test's clean-up bound is over: it cuts the wait for a fresh 2FA code. */
  signal?: AbortSignal;
}

/**
 * After a test's clean-up: gives back the accounts it leased from a static states file. A shared
 * account is never left changed, and failed logins count towards the target's brute-force restriction
 * (section 5.5), so when the test had a login refused, each leased active account logs in once with
 * its own credentials and logs out again before it is free for the next test. The specification does
 * not say that a successful login clears the count (section 8 is silent): this is the reference's way.
 * When that login is not answered 200 (the count was not cleared, a target that refuses a TOTP code
 * sent twice, ...), the account is retired for the rest of the run and a run warning says so (the
 * suite's bookkeeping, not a finding about the target: the test may have changed the password); nothing
 * here ever fails a test whose body passed.
 */
export async function releaseLeases(states: StatesTransport, t: ReleasingContext, holder: { id: string }, exchanges: Exchange[]): Promise<void> {
  if (!(states instanceof FileStates)) return;
  const retire: FileAccount[] = [];
  try {
    const refused = exchanges.some((e) => e.request.method === 'POST' && LOGIN.test(new URL(e.request.url).pathname) && e.response?.status === 403);
    if (!refused) return;
    for (const account of states.accountsOf(holder)) {
      // A disposable account serves once (a reset may have changed its password): nothing to restore.
      if (account.state !== 'user' || account.disposable === true) continue;
      try {
        const json: Record<string, string> = { email: account.email, password: account.password };
        if (account.totpSecret) json['2fa'] = await freshTotpCode(account.totpSecret, t.signal);
        const response = await t.post('/api/v1/authenticate', { json });
        const token = response.status === 200 ? response.json?.data?.id : undefined;
        learnSecret(token, 'token');
        if (typeof token === 'string') await t.post('/api/v1/user/logout', { token });
        else {
          retire.push(account);
          t.warn(`STATES_FILE account ${account.email}: the login that restores it after this test's refused logins answered ${response.status}, not 200; it is not used again in this run`);
        }
      } catch (error) {
        retire.push(account);
        t.warn(`STATES_FILE account ${account.email}: restoring it after this test's refused logins failed (${redactError(error as Error).message}); it is not used again in this run`);
      }
    }
  } finally {
    await states.release(holder, retire);
  }
}
