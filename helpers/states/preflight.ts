import type { Config } from '../net/config.js';
import { ConfigError, roadOf } from '../net/config.js';
import { checkPlatformKey, checkTheRoad, redirectsElsewhere } from '../net/preflight.js';
import { quote } from '../spec/quote.js';
import { sameId } from '../spec/normalisation.js';
import { withoutCredentials } from '../net/redact.js';
import { isLoopback } from '../net/transport.js';
import { HttpClient, TransportError } from '../net/http.js';
import { registerSecret } from '../net/redact.js';
import { loadStatesFile, refusedLoginCause, roleOf, type StatesFileV1 } from './file.js';
import { freshTotpCode } from './totp.js';
import { HookStates, hookRefusal, StateError, StatesAuthError } from './transport.js';

/**
 * A states file serves only while its accounts can log in: the first plain `user` account of the file
 * logs in (without a TOTP code where one without 2FA exists), its id is checked against the session's
 * `userId` and through one read of its own banks, and it logs out. A refused login, or an id that is not
 * the account's, stops the run before any test (exit code 2, one line naming the file, the account by
 * its e-mail and the cause). Its password is never shown.
 */
async function checkFileLogin(config: Config, baseUrl: string, path: string, file: StatesFileV1): Promise<void> {
  const users = file.accounts.filter((account) => account.state === 'user' && account.disposable !== true);
  const account = users.find((a) => roleOf(a) === 'plain' && a.email.length <= 191) ?? users.find((a) => !a.totpSecret) ?? users[0] ?? file.accounts.find((a) => a.state === 'user')!;
  const http = new HttpClient(baseUrl, { timeoutMs: config.REQUEST_TIMEOUT_MS, maxResponseBytes: config.MAX_RESPONSE_BYTES, maxConcurrency: 1, ...roadOf(config) });
  const where = `configuration error: STATES_FILE ${path}: its user account ${account.email}`;
  try {
    const json: Record<string, string> = { email: account.email, password: account.password };
    if (account.totpSecret) json['2fa'] = await freshTotpCode(account.totpSecret);
    const login = await http.send({ method: 'POST', path: '/api/v1/authenticate', json });
    if (login.status !== 200) throw new ConfigError(`${where} cannot log in: the target answered ${login.status}: ${refusedLoginCause(login.status)}`);
    const session = (login.json as { data?: { id?: unknown; userId?: unknown } } | undefined)?.data;
    const token = session?.id;
    if (typeof token !== 'string') return; // Not this preflight's to judge: the login tests report the answer's shape.
    registerSecret(token);
    try {
      if (typeof session?.userId === 'string' && !sameId(session.userId, account.id)) {
        throw new ConfigError(`${where} logs in as the user ${session.userId}, not as the id ${account.id} the file gives it: the file is stale or the entry mixes two accounts; export it again or correct its "id"`);
      }
      const read = await http.send({ method: 'GET', path: `/api/v1/user/${encodeURIComponent(account.id)}/bank`, token });
      if (read.status !== 200) {
        throw new ConfigError(`${where} logs in, but reading its own banks with the file's id ${account.id} answered ${read.status}, not 200: the id is not the account's (a stale file); export it again or correct its "id"`);
      }
    } finally {
      await http.send({ method: 'POST', path: '/api/v1/user/logout', token }).catch(() => undefined);
    }
  } catch (error) {
    if (error instanceof TransportError) throw new ConfigError(`target unreachable: ${error.message}`);
    throw error;
  } finally {
    await http.close();
  }
}

/** The one line of a states URL where no provider-state hook answers (a target's JSON 404 for any unknown route, a wrong path). */
export function noHookAt(url: string): string {
  const slash = /[^/]\/$/.test(new URL(url).pathname) ? ' (it ends with a slash: try it without)' : '';
  return `configuration error: no provider-state hook answers at STATES_URL ${withoutCredentials(url)}: it answered 404 or 501 to the base state user, which every target provides; check the path${slash}`;
}

/**
 * Checks, before any test, that the target answers and that the provider-state transport and the
 * static platform key are usable. A problem is a ConfigError: one line, exit code 2. Returns warnings.
 */
export async function preflight(config: Config, baseUrl: string, states: { url?: string; token?: string }): Promise<string[]> {
  const warnings: string[] = [];
  await checkTheRoad(config, baseUrl);
  const road = roadOf(config);
  if (states.url) {
    const hook = new HookStates(states.url, states.token, config.REQUEST_TIMEOUT_MS, { ...road, maxResponseBytes: config.MAX_RESPONSE_BYTES });
    try {
      // A state that no target provides: the answer proves the hook is reachable and accepts our token.
      const answer = await hook.call('conformance.preflight', {});
      if (answer.status >= 300 && answer.status < 400) {
        let resolved: URL | undefined;
        try {
          resolved = answer.location ? new URL(answer.location, states.url) : undefined;
        } catch {
          resolved = undefined;
        }
        if (resolved && resolved.origin !== new URL(states.url).origin) throw new ConfigError(redirectsElsewhere(resolved, `the provider-state hook answered ${answer.status}`, 'STATES_URL'));
        throw new ConfigError(`configuration error: STATES_URL redirects to ${resolved ? quote(withoutCredentials(resolved.href)) : answer.location ? `a Location that is no URL (${quote(answer.location)})` : '(no Location)'} on the same host (answered ${answer.status}); the suite follows no redirect${resolved ? '; use that' : ''}`);
      }
      if (answer.status === 401 || answer.status === 403) throw new ConfigError(hookRefusal(states.url, states.token, answer));
      if ((answer.status === 404 || answer.status === 501) && /html/i.test(answer.contentType ?? '')) {
        throw new ConfigError(`configuration error: no provider-state hook at STATES_URL ${withoutCredentials(states.url)}: it answered ${answer.status} with ${answer.contentType}; check STATES_URL`);
      }
      if (answer.status !== 404 && answer.status !== 501) warnings.push(`the provider-state hook answered ${answer.status} to an unknown state (the contract asks for 404 or 501)`);
      // A JSON 404 to an unknown state proves nothing: a target answers every unknown route so. The base
      // state `user`, which every target provides, proves a hook answers here (it creates one account).
      const user = await hook.get('user', {});
      if (!user.provided) {
        if (user.reason.startsWith('target does not provide')) throw new ConfigError(noHookAt(states.url));
        warnings.push(`the provider-state hook did not provide the base state user in the preflight (${user.reason})`);
      }
      if (!states.token && !isLoopback(states.url)) warnings.push(`the provider-state hook ${withoutCredentials(states.url)} accepts calls without STATES_TOKEN on a non-loopback address; a test-only hook must never be reachable in production`);
    } catch (error) {
      if (error instanceof StateError || error instanceof StatesAuthError) throw new ConfigError(error.message);
      throw error;
    } finally {
      await hook.close();
    }
  }

  if (config.STATES_FILE) {
    let file;
    try {
      file = loadStatesFile(config.STATES_FILE);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
    if (!file.accounts.some((account) => account.state === 'user')) {
      throw new ConfigError(`configuration error: STATES_FILE ${config.STATES_FILE} provides no account of the base state user, which every target provides and most tests need; add one (see \`conformance states template\`)`);
    }
    await checkFileLogin(config, baseUrl, config.STATES_FILE, file);
  }

  await checkPlatformKey(config);
  return warnings;
}
