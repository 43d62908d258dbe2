import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../helpers/net/config.js';
import * as basics from '../helpers/net/config-basics.js';

const noDotenv = join(tmpdir(), 'no-such-dotenv-file');
const load = (env: Record<string, string>, overrides = {}) => loadConfig(overrides, env, noDotenv);

describe('configuration', () => {
  it('has one ConfigError, whichever module a file takes it from (the CLI maps it to exit 2 by instanceof; helpers/states/ takes it from config-basics.ts)', () => {
    expect(basics.ConfigError).toBe(ConfigError);
    expect(new basics.ConfigError('x')).toBeInstanceOf(ConfigError);
    expect(new basics.ConfigError('x').name).toBe('ConfigError');
    expect(load({}).MAX_RESPONSE_BYTES).toBe(basics.DEFAULT_MAX_RESPONSE_BYTES);
  });

  it('defaults every optional variable', () => {
    const config = load({});
    expect(config.BASE_URL).toBeUndefined();
    expect(config.REPORT_DIR).toBe('reports');
    expect(config.REQUEST_TIMEOUT_MS).toBe(10_000);
    expect(config.STRICT).toBe(false);
  });

  it('strips a trailing slash from BASE_URL', () => {
    expect(load({ BASE_URL: 'http://127.0.0.1:8080/' }).BASE_URL).toBe('http://127.0.0.1:8080');
  });

  it('lets command-line overrides win over the environment', () => {
    expect(load({ BASE_URL: 'http://127.0.0.1:1' }, { BASE_URL: 'http://127.0.0.1:2' }).BASE_URL).toBe('http://127.0.0.1:2');
  });

  it.each([
    [{ BASE_URL: 'ftp://example.test' }, /^configuration error: BASE_URL must start with http:\/\/ or https:\/\/ \(got "ftp:\/\/example.test"\)/],
    [{ BASE_URL: 'not a url' }, /^configuration error: BASE_URL must be an http\(s\) URL/],
    [{ REQUEST_TIMEOUT_MS: 'soon' }, /^configuration error: REQUEST_TIMEOUT_MS must be a whole number from 100 to 600000/],
    [{ REQUEST_TIMEOUT_MS: '5' }, /^configuration error: REQUEST_TIMEOUT_MS must be at least 100/],
    [{ STRICT: 'maybe' }, /^configuration error: STRICT must be true or false/],
    [{ BASE_URL: 'http://127.0.0.1:1', STATES_FILE: '/no/such/file.json' }, /^configuration error: STATES_FILE names a file that does not exist/],
    [{ STATES_URL: 'http://127.0.0.1:1/states' }, /^configuration error: BASE_URL is required when STATES_URL or STATES_FILE is set/],
    [{ BASE_URL: 'http://127.0.0.1:1', JWT_PLATFORM_ID: 'p1' }, /^configuration error: JWT_PRIVATE_KEY_FILE is required/],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => load(env)).toThrowError(ConfigError);
    expect(() => load(env)).toThrowError(message);
  });

  it('never echoes a token or key value in the message', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    writeFileSync(join(dir, 'x.json'), '{}');
    expect(() => load({ BASE_URL: 'http://127.0.0.1:1', STATES_URL: 'http://127.0.0.1:2', STATES_FILE: join(dir, 'x.json'), STATES_TOKEN: 'super-secret-token' })).toThrowError(/^(?!.*super-secret-token)/);
  });

  it('reads .env when the environment does not set a variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    writeFileSync(join(dir, '.env'), 'REPORT_DIR=from-dotenv\nREQUEST_TIMEOUT_MS=2500\n');
    const config = loadConfig({}, { REQUEST_TIMEOUT_MS: '3000' }, join(dir, '.env'));
    expect(config.REPORT_DIR).toBe('from-dotenv');
    expect(config.REQUEST_TIMEOUT_MS).toBe(3000);
  });
});
