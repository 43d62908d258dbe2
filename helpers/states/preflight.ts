import type { Config } from '../net/config.js';
import { ConfigError, roadOf } from '../net/config.js';
import { checkPlatformKey, checkTheRoad, redirectsElsewhere } from '../net/preflight.js';
import { quote } from '../spec/quote.js';
import { withoutCredentials } from '../net/redact.js';
import { isLoopback } from '../net/transport.js';
import { loadStatesFile } from './file.js';
import { HookStates, hookRefusal, StateError, StatesAuthError } from './transport.js';

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
  }

  await checkPlatformKey(config);
  return warnings;
}
