import { readFileSync } from 'node:fs';
import { importPKCS8 } from 'jose';
import { Agent, request } from 'undici';
import type { Config } from '../helpers/config.js';
import { ConfigError } from '../helpers/config.js';
import { describeTransportFailure } from '../helpers/http.js';
import { withoutCredentials } from '../helpers/redact.js';
import { loadStatesFile } from '../helpers/states-file.js';
import { HookStates, StateError } from '../helpers/states.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i;

/**
 * Checks, before any test, that the target answers and that the provider-state transport and the
 * static platform key are usable. A problem is a ConfigError: one line, exit code 2. Returns warnings.
 */
export async function preflight(config: Config, baseUrl: string, states: { url?: string; token?: string }): Promise<string[]> {
  const warnings: string[] = [];
  const agent = new Agent({ connect: { timeout: config.REQUEST_TIMEOUT_MS } });
  try {
    const url = `${baseUrl}/api/v1/user/logout`;
    try {
      const response = await request(url, { method: 'POST', dispatcher: agent, headers: { accept: 'application/json' }, signal: AbortSignal.timeout(config.REQUEST_TIMEOUT_MS) });
      await response.body.dump();
    } catch (error) {
      throw new ConfigError(`target unreachable: ${describeTransportFailure(error, 'POST', url, config.REQUEST_TIMEOUT_MS)}`);
    }
  } finally {
    await agent.close();
  }

  if (states.url) {
    const hook = new HookStates(states.url, states.token, config.REQUEST_TIMEOUT_MS);
    try {
      // A state that no target provides: the answer proves the hook is reachable and accepts our token.
      const answer = await hook.call('conformance.preflight', {});
      if (answer.status === 401 || answer.status === 403) {
        throw new ConfigError(`configuration error: the provider-state hook ${withoutCredentials(states.url)} answered ${answer.status}: STATES_TOKEN is ${states.token ? 'wrong' : 'missing'}; set STATES_TOKEN to the hook's token`);
      }
      if (answer.status !== 404 && answer.status !== 501) warnings.push(`the provider-state hook answered ${answer.status} to an unknown state (the contract asks for 404 or 501)`);
      const host = new URL(states.url).hostname;
      if (!states.token && !LOOPBACK.test(host)) warnings.push(`the provider-state hook ${withoutCredentials(states.url)} accepts calls without STATES_TOKEN on a non-loopback address; a test-only hook must never be reachable in production`);
    } catch (error) {
      if (error instanceof StateError) throw new ConfigError(error.message);
      throw error;
    } finally {
      await hook.close();
    }
  }

  if (config.STATES_FILE) {
    try {
      loadStatesFile(config.STATES_FILE);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
  }

  if (config.JWT_PRIVATE_KEY_FILE) {
    try {
      await importPKCS8(readFileSync(config.JWT_PRIVATE_KEY_FILE, 'utf8'), 'RS512');
    } catch {
      throw new ConfigError(`configuration error: JWT_PRIVATE_KEY_FILE ${config.JWT_PRIVATE_KEY_FILE} is not a PKCS#8 PEM RSA private key; export it with \`openssl pkcs8 -topk8 -nocrypt\``);
    }
  }
  return warnings;
}
