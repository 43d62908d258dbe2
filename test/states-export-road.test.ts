import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, loadRoad, roadOf } from '../helpers/net/config.js';
import { startReference, type RunningReference } from '../reference/app.js';
import { CA_FILE, proxyEnv, startGateway, startProxy, type Gateway, type Proxy } from './loopback-road.js';
import { conformance, runBin, tempDir } from './support.js';

/**
 * `conformance states export` takes the road to hook and target as `run` does (docs/deployments.md): through a
 * proxy, to a TLS gateway of a private CA that answers 403 without its API key, in front of the embedded reference
 * and its hook. Without `--header` it stops with one line naming `--header`; with `--header` and `--ca` it writes
 * the file, every request carrying the header; the header's value appears in no output. A wrong `--header`, or
 * one from `.env`, stops it with exit 2 and one line, as for `run`.
 */

const STATES_TOKEN = 'export-road-states-token';
const API_KEY = { name: 'x-api-key', value: 'exp0rt-r0ad-k3y-4b5c6d' };
const HEADER = `${API_KEY.name}: ${API_KEY.value}`;

let reference: RunningReference;
let proxy: Proxy;
let gateway: Gateway;
/** The target and hook as the operator names them: a host the proxy reaches (loopback itself is never proxied). */
let target: string;
let hook: string;

beforeAll(async () => {
  reference = await startReference({ states: true, statesToken: STATES_TOKEN });
  proxy = await startProxy();
  gateway = await startGateway({
    upstream: reference.baseUrl,
    tls: true,
    prefix: '/accounts',
    apiKey: { ...API_KEY, refusal: { status: 403, type: 'text/html', body: '<html><body>403 Forbidden</body></html>' } },
    rewrite: { '/hook/': new URL(reference.statesUrl!).pathname },
  });
  target = `https://api.test:${gateway.port}/accounts`;
  hook = `${target}/hook/`;
});
afterAll(async () => {
  await gateway?.close();
  await proxy?.close();
  await reference?.close();
});

const exportArgs = (out: string, ...road: string[]) => ['states', 'export', '--minimum', '--target', target, '--states', hook, '--out', out, ...road];
const env = () => ({ ...proxyEnv(proxy.url), STATES_TOKEN });
const oneLine = (text: string) => text.trim().split('\n');

describe('states export on the road of a real deployment', { timeout: 180_000 }, () => {
  it('without --header: the gateway\u2019s 403 before the hook stops it with one line naming --header, exit 2', async () => {
    const result = await conformance(exportArgs(join(tempDir('export-road-'), 'states.json'), '--ca', CA_FILE), env());
    expect(result.code, result.stderr).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/provider-state hook .* answered 403 \(text\/html\) from something in front of the hook .*--header 'Name: value'/)]);
  });

  it('without --ca: the private CA\u2019s certificate stops it with one line naming --ca, exit 2', async () => {
    const result = await conformance(exportArgs(join(tempDir('export-road-'), 'states.json'), '--header', HEADER), env());
    expect(result.code, result.stderr).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/TLS failed .*--ca/)]);
    expect(result.stdout + result.stderr).not.toContain(API_KEY.value);
  });

  it('with --header and --ca, through the proxy: writes the file, every request to hook and target carries the header, its value in no output', async () => {
    const dir = tempDir('export-road-');
    const before = gateway.seen.length;
    const result = await conformance(exportArgs(join(dir, 'states.json'), '--ca', CA_FILE, '--header', HEADER, '--header', 'x-tenant: acme'), env());
    expect(result.code, result.stderr).toBe(0);
    const file = JSON.parse(readFileSync(join(dir, 'states.json'), 'utf8')) as { accounts: { resetToken?: string }[] };
    expect(file.accounts.some((account) => account.resetToken)).toBe(true);
    const seen = gateway.seen.slice(before);
    // The hook's calls and the target's forgot-password alike, each through the proxy with both headers.
    expect(seen.some((r) => r.path === '/accounts/hook/')).toBe(true);
    expect(seen.some((r) => r.path === '/accounts/api/v1/user/forgot-password' && r.status === 200)).toBe(true);
    expect(seen.every((r) => r.headers[API_KEY.name] === API_KEY.value && r.headers['x-tenant'] === 'acme' && r.status !== 403)).toBe(true);
    expect(proxy.connects.length).toBeGreaterThan(0);
    expect(proxy.connects.every((c) => c === `api.test:${gateway.port}`)).toBe(true);
    expect(result.stdout + result.stderr).not.toContain(API_KEY.value);
    expect(readFileSync(join(dir, 'states.json'), 'utf8')).not.toContain(API_KEY.value);
  });

  it('a gateway in front of the target alone that refuses forgot-password: one line naming --header, exit 2', async () => {
    const guarded = await startGateway({ upstream: reference.baseUrl, guarded: ['/api/v1/user/forgot-password'] });
    try {
      const result = await conformance(['states', 'export', '--minimum', '--target', guarded.url, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', join(tempDir('export-road-'), 'states.json')]);
      expect(result.code, result.stderr).toBe(2);
      expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/forgot-password .* with 401, not 200 .*something in front of the target \(a gateway\) refused; add the header it wants with --header 'Name: value'/)]);
    } finally {
      await guarded.close();
    }
  });
});

describe.concurrent('a wrong road stops states export: exit 2, one line, no header value shown', () => {
  const SECRET = 'n0t-t0-b3-pr1nted-9z8y';
  it.each([
    ['--header Authorization', ['--header', `Authorization: Bearer ${SECRET}`], /configuration error: EXTRA_HEADERS may not set Authorization: the suite sets .* itself .*pass --header/],
    ['--header Token', ['--header', `Token: ${SECRET}`], /EXTRA_HEADERS may not set Token/],
    ['--header Content-Type', ['--header', `Content-Type: text/${SECRET}`], /EXTRA_HEADERS may not set Content-Type/],
    ['--header without a colon', ['--header', `x-api-key ${SECRET}`], /EXTRA_HEADERS has an entry that is not "Name: value"/],
    ['--ca naming no file', ['--ca', '/no/such/ca.pem'], /configuration error: CA_FILE names a file that does not exist .*pass --ca/],
  ])('%s', async (_name, road, expected) => {
    const result = await conformance(exportArgs(join(tempDir('export-road-'), 'states.json'), ...road), env());
    expect(result.code, result.stderr).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(expected)]);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it('EXTRA_HEADERS from .env, refused as run refuses it', async () => {
    const cwd = tempDir('export-road-env-');
    writeFileSync(join(cwd, '.env'), `EXTRA_HEADERS="x-api-key: ok\\nAuthorization: Bearer ${SECRET}"\n`);
    const result = await runBin('conformance.mjs', exportArgs(join(cwd, 'states.json')), env(), cwd);
    expect(result.code, result.stderr).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/EXTRA_HEADERS may not set Authorization.*set it in .env or the environment/)]);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it('EXTRA_HEADERS and CA_FILE from the environment: the road is taken (the gateway lets the hook through)', async () => {
    const before = gateway.seen.length;
    // A token the hook refuses: the first request passes the gateway (header, CA, proxy) and the hook itself answers 401.
    const result = await conformance(exportArgs(join(tempDir('export-road-'), 'states.json')), { ...env(), STATES_TOKEN: 'wrong-token', EXTRA_HEADERS: HEADER, CA_FILE });
    expect(result.code, result.stderr).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/hook .* answered 401: STATES_TOKEN is wrong; pass --states-token/)]);
    expect(gateway.seen.slice(before).every((r) => r.headers[API_KEY.name] === API_KEY.value)).toBe(true);
    expect(result.stdout + result.stderr).not.toContain(API_KEY.value);
  });
});

describe('loadRoad: the road variables alone, parsed as loadConfig parses them', () => {
  it('reads .env under the environment under the flags, and ignores the rest of a run\u2019s configuration (a STATES_FILE not yet exported)', () => {
    const dir = tempDir('export-road-load-');
    writeFileSync(join(dir, '.env'), `STATES_FILE=${join(dir, 'states.json')}\nEXTRA_HEADERS="x-api-key: from-dotenv\\nx-tenant: acme"\n`);
    expect(roadOf(loadRoad({}, {}, join(dir, '.env')))).toEqual({ headers: { 'x-api-key': 'from-dotenv', 'x-tenant': 'acme' } });
    expect(roadOf(loadRoad({}, { CA_FILE, EXTRA_HEADERS: 'x-api-key: from-env' }, join(dir, '.env')))).toEqual({ caFile: CA_FILE, headers: { 'x-api-key': 'from-env' } });
    expect(roadOf(loadRoad({ EXTRA_HEADERS: 'x-api-key: from-flag' }, { EXTRA_HEADERS: 'x-api-key: from-env' }, join(dir, '.env'))).headers).toEqual({ 'x-api-key': 'from-flag' });
  });

  it.each(['Token: v4lue-s3cret', 'x-api-key', 'Content-Length: 3'])('refuses %j with loadConfig\u2019s very line', (headers) => {
    const message = (load: () => unknown) => {
      try {
        load();
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    const none = join(tempDir('export-road-load-'), '.env');
    const line = message(() => loadRoad({ EXTRA_HEADERS: headers }, {}, none));
    expect(line).toMatch(/^configuration error: EXTRA_HEADERS /);
    expect(line).toBe(message(() => loadConfig({ EXTRA_HEADERS: headers }, {}, none)));
    expect(line).not.toContain('v4lue-s3cret');
  });
});
