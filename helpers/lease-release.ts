import type { CheckContext } from './check.js';
import { totpCode } from './flows.js';
import type { Exchange } from './http.js';
import { registerSecret } from './redact.js';
import { FileStates } from './states-file.js';
import { currentTarget } from './target.js';

const LOGIN = /\/api\/v1\/authenticate$/;

/**
 * After a test's clean-up: gives back the accounts it leased from a static states file. A shared
 * account is never left changed, and failed logins count towards the target's brute-force restriction
 * (section 5.5), so when the test had a login refused, each leased active account logs in once with
 * its own credentials (which resets that count on a target that counts as the reference does) and
 * logs out again before it is free for the next test.
 */
export async function releaseLeases(t: CheckContext, holder: { id: string }, exchanges: Exchange[]): Promise<void> {
  const { states } = currentTarget();
  if (!(states instanceof FileStates)) return;
  try {
    const refused = exchanges.some((e) => e.request.method === 'POST' && LOGIN.test(new URL(e.request.url).pathname) && e.response?.status === 403);
    if (!refused) return;
    for (const account of states.accountsOf(holder)) {
      if (account.state !== 'user') continue;
      const json: Record<string, string> = { email: account.email, password: account.password };
      if (account.totpSecret) json['2fa'] = totpCode(account.totpSecret);
      const response = await t.post('/api/v1/authenticate', { json });
      const token = response.status === 200 ? response.json?.data?.id : undefined;
      registerSecret(token);
      if (typeof token === 'string') await t.post('/api/v1/user/logout', { token });
    }
  } finally {
    await states.release(holder);
  }
}
