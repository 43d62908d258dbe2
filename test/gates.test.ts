import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preflight } from '../helpers/states/preflight.js';
import { loadConfig } from '../helpers/net/config.js';
import { startReference, type RunningReference } from '../reference/app.js';
import { loadPrivateKey } from '../reporting/certificate.js';
import { proxyEnv, startGateway, type Gateway } from './loopback-road.js';
import type { Report } from '../reporting/model.js';
import { conformance, ROOT, tempDir } from './support.js';

/**
 * Issue 22: a verdict a CI gate can trust. A states source that is not one stops the run (exit 2,
 * one line) instead of a green run that verified nothing.
 */

const STATES_TOKEN = 'gates-states-token-7f3a';

let reference: RunningReference;
const servers: { close(): Promise<void> }[] = [];
const gateway = async (options: Omit<Parameters<typeof startGateway>[0], 'upstream'> = {}): Promise<Gateway> => {
  const gw = await startGateway({ upstream: reference.baseUrl, ...options });
  servers.push(gw);
  return gw;
};

beforeAll(async () => {
  reference = await startReference({ states: true, statesToken: STATES_TOKEN });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await reference?.close();
});

const lines = (text: string) => text.trim().split('\n');
const preflightOf = (config: Record<string, string>, states: { url?: string; token?: string } = {}) =>
  preflight(loadConfig({ REQUEST_TIMEOUT_MS: '30000', ...config }, {}, join(tempDir('pf-'), '.env')), config.BASE_URL!, states);

describe('a gateway that answers in a content coding the suite cannot decode (principle 7)', () => {
  it('leaves the tests that met it not verified, naming the coding and the fix, never failed', async () => {
    const gw = await gateway({ relabel: { path: /\/balances\/nft$/, contentEncoding: 'compress' } });
    const dir = tempDir('coding-');
    const result = await conformance(['run', '--target', gw.url, '--states', reference.statesUrl!, '--group', 'balances', '--grep', 'nft', '--report-dir', dir], { ...proxyEnv(undefined), STATES_TOKEN });
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.summary.failed, result.stdout.slice(-2000)).toBe(0);
    const reasons = report.tests.filter((t) => t.outcome === 'skipped').map((t) => t.reason);
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).toMatch(/^not verified: GET \S+\/balances\/nft answered \d{3} in the content coding "compress", which the suite cannot decode on Node\.js v\S+; have the gateway answer without that coding/);
  }, 120_000);
});

describe.concurrent('the states source is proven before any test', { timeout: 120_000 }, () => {
  it('--states at a path where the target answers any unknown route with a JSON 404: exit 2, one line, no test ran', async () => {
    const gw = await gateway();
    const dir = tempDir('wrong-hook-');
    const result = await conformance(['run', '--target', gw.url, '--states', `${gw.url}/hooks/states`, '--report-dir', dir], { ...proxyEnv(undefined), STATES_TOKEN });
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(lines(result.stderr)).toEqual([`configuration error: no provider-state hook answers at STATES_URL ${gw.url}/hooks/states: it answered 404 or 501 to the base state user, which every target provides; check the path`]);
    // Only the preflight's requests reached the target: the API probe, the unknown state and `user`.
    expect(gw.seen.filter((r) => r.path === '/hooks/states').map((r) => r.status)).toEqual([404, 404]);
  });

  it('a hook URL with a slash the hook does not serve: the line says to try it without', async () => {
    await expect(preflightOf({ BASE_URL: reference.baseUrl }, { url: `${reference.statesUrl!}/`, token: STATES_TOKEN })).rejects.toThrowError(
      `configuration error: no provider-state hook answers at STATES_URL ${reference.statesUrl!}/: it answered 404 or 501 to the base state user, which every target provides; check the path (it ends with a slash: try it without)`,
    );
  });

  it('a hook that provides user passes, having created one account', async () => {
    await expect(preflightOf({ BASE_URL: reference.baseUrl }, { url: reference.statesUrl!, token: STATES_TOKEN })).resolves.toEqual([]);
  });

  it('a states file without an account of state user: exit 2 before any test', async () => {
    const file = join(tempDir('no-user-'), 'states.json');
    writeFileSync(file, JSON.stringify({ version: 1, accounts: [{ state: 'user.locked', id: 'l-1', email: 'l1@x.test', password: 'Pw-locked-1' }] }));
    await expect(preflightOf({ BASE_URL: reference.baseUrl, STATES_FILE: file })).rejects.toThrowError(/^configuration error: STATES_FILE .* provides no account of the base state user, which every target provides/);
  });
});

describe.concurrent('the gate on the verdict incomplete', { timeout: 180_000 }, () => {
  it('--fail-on-incomplete and FAIL_ON_INCOMPLETE (with GROUP) make an incomplete run exit 1; without, it exits 0', async () => {
    const [flag, variable, plain] = await Promise.all([
      conformance(['run', '--target', reference.baseUrl, '--group', 'balances', '--fail-on-incomplete', '--report-dir', tempDir('incomplete-flag-')], proxyEnv(undefined)),
      conformance(['run', '--target', reference.baseUrl, '--report-dir', tempDir('incomplete-env-')], { ...proxyEnv(undefined), FAIL_ON_INCOMPLETE: 'true', GROUP: 'balances' }),
      conformance(['run', '--target', reference.baseUrl, '--report-dir', tempDir('incomplete-plain-')], { ...proxyEnv(undefined), GROUP: 'balances, banks' }),
    ]);
    for (const result of [flag, variable]) {
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stdout).toMatch(/\nVerdict: incomplete[^\n]*\n {2}incomplete: \d+ tests not verified \(the target lacks the states? [\w.-]+/);
      expect(result.stdout).toMatch(/suites\/balances\.test\.ts/);
      expect(result.stdout).not.toMatch(/suites\/banks\.test\.ts/);
      // Nothing failed and the counts read green: the last line says why the exit is 1.
      expect(lines(result.stdout).at(-1)).toBe("exit 1: --fail-on-incomplete (FAIL_ON_INCOMPLETE) and the verdict is incomplete; a run of some groups (--group, GROUP) is always incomplete, since the other groups' documented pairs are not verified");
    }
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(plain.stdout).not.toContain('exit 1:');
    expect(plain.stdout).toMatch(/suites\/banks\.test\.ts/);
    const unknown = await conformance(['run', '--target', reference.baseUrl], { GROUP: 'balances,bank' });
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, 'run: no group named "bank"; the groups are authentication, password, balances, banks, bonuses, cards']);
  });
});

describe('SIGTERM, what a CI runner sends to cancel a job', { timeout: 180_000 }, () => {
  it('is handled as Ctrl-C: clean-up, reports marked interrupted, exit 130, and the line names the signal', async () => {
    const gw = await gateway();
    const dir = tempDir('sigterm-');
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'conformance.mjs'), 'run', '--target', gw.url, '--states', reference.statesUrl!, '--group', 'banks', '--report-dir', dir], {
      cwd: dir,
      env: { ...process.env, ...proxyEnv(undefined), STATES_TOKEN, REQUEST_TIMEOUT_MS: '30000', BASE_URL: '', STATES_URL: '', STATES_FILE: '', GROUP: '', FAIL_ON_INCOMPLETE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const created = () => gw.seen.some((r) => r.method === 'POST' && /\/bank$/.test(r.path) && r.status === 201);
    const deadline = Date.now() + 60_000;
    while (!created() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(created(), output + stderr).toBe(true);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, output + stderr).toBe(130);
    expect(lines(stderr)).toEqual([expect.stringMatching(/^interrupted by SIGTERM: stopped after \d+ of \d+ tests; /)]);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.interrupted).toBe(true);
    expect(report.tests.some((t) => t.reason === 'not run: the run was interrupted (SIGTERM)')).toBe(true);
  });
});

/** A loopback gateway that notes when each request arrived, and answers every `limitEvery`-th hook call 429 with Retry-After: 0. */
async function startTimingGateway(limitEvery: number) {
  const arrivals: { at: number; hook: boolean }[] = [];
  let hookCalls = 0;
  let hookLimited = 0;
  const statesPath = new URL(reference.statesUrl!).pathname;
  const upstream = new URL(reference.baseUrl);
  const server = createServer((req, res) => {
    const hook = req.url === statesPath;
    arrivals.push({ at: performance.now(), hook });
    if (hook && ++hookCalls % limitEvery === 0) {
      hookLimited++;
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"message":"Too Many Requests"}');
      return;
    }
    const proxied = forward({ host: '127.0.0.1', port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    proxied.on('error', () => res.destroy());
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const gw = { url, statesUrl: `${url}${statesPath}`, arrivals, limited: () => hookLimited, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
  servers.push(gw);
  return gw;
}

describe('--rate caps everything the run sends, the hook included', { timeout: 240_000 }, () => {
  it('no second holds more than the cap of target and hook requests together, and summary.rateLimited counts the hook\u2019s 429s', async () => {
    const RATE = 15;
    const gw = await startTimingGateway(4);
    const dir = tempDir('rate-hook-');
    const result = await conformance(['run', '--target', gw.url, '--states', gw.statesUrl, '--rate', String(RATE), '--group', 'balances', '--report-dir', dir], { ...proxyEnv(undefined), STATES_TOKEN });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // The preflight's three requests come before the run's limiter exists: the windows start after them.
    const times = gw.arrivals.slice(3).map((a) => a.at);
    expect(gw.arrivals.filter((a) => a.hook).length).toBeGreaterThan(10);
    let busiest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= 1000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    // Two requests of slack for arrival jitter on a loaded machine (the hook uncapped gave some 35).
    expect(busiest).toBeLessThanOrEqual(RATE + 2);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(gw.limited()).toBeGreaterThan(0);
    expect(report.summary.rateLimited).toBe(gw.limited());
  });
});

describe.concurrent('messages that name the real cause (issue 22)', { timeout: 120_000 }, () => {
  it('a redirect that only adds a trailing slash: says BASE_URL cannot fix it', async () => {
    const slash = createServer((req, res) => {
      req.resume();
      res.writeHead(308, { location: `${req.url}/` }).end();
    });
    await new Promise<void>((resolve) => slash.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => slash.close(() => resolve())) });
    const url = `http://127.0.0.1:${(slash.address() as AddressInfo).port}`;
    await expect(preflightOf({ BASE_URL: url })).rejects.toThrowError(/^configuration error: POST .*\/api\/v1\/user\/logout answered 308 to the same path with a trailing slash: .*which BASE_URL cannot fix/);
  });

  it('a gateway that refuses a header the run did send: quotes its name', async () => {
    const keyed = await gateway({ apiKey: { name: 'x-api-key', value: 'gw-right-key-5b4a' } });
    const refused = preflightOf({ BASE_URL: keyed.url, EXTRA_HEADERS: 'x-api-key: gw-wrong-key-0000' });
    await expect(refused).rejects.toThrowError(/although the run sent x-api-key \(from --header \/ EXTRA_HEADERS\): something in front of the API \(a gateway\) refused them; check its value/);
    await expect(refused).rejects.not.toThrowError(/gw-wrong-key/);
  });

  it('http:// to a TLS port: suggests https://', async () => {
    const tls = await gateway({ tls: true });
    await expect(preflightOf({ BASE_URL: `http://127.0.0.1:${tls.port}` })).rejects.toThrowError(/^target unreachable: POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/user\/logout: .*; if that port serves TLS, use https:\/\/$/);
  });

  it('an encrypted private key: the one openssl command that decrypts it', async () => {
    const dir = tempDir('enc-key-');
    const encrypted = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pass-phrase-1' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
    const file = join(dir, 'platform.pem');
    writeFileSync(file, encrypted);
    await expect(preflightOf({ BASE_URL: reference.baseUrl, JWT_PLATFORM_ID: 'p-1', JWT_PRIVATE_KEY_FILE: file })).rejects.toThrowError(
      `configuration error: JWT_PRIVATE_KEY_FILE ${file} is encrypted; decrypt it once with \`openssl pkcs8 -topk8 -nocrypt -in ${file} -out platform-key.pem\` (it asks for the passphrase) and set JWT_PRIVATE_KEY_FILE to that file`,
    );
    expect(() => loadPrivateKey(encrypted, file)).toThrowError(`${file} is encrypted; decrypt it once with \`openssl pkey -in ${file} -out decrypted-key.pem\` (it asks for the passphrase) and pass that file`);
  });
});

describe('states template (issue 22)', () => {
  it('writes a $schema that resolves, from the folder the file is saved in, to the package\u2019s states-file schema', async () => {
    const result = await conformance(['states', 'template', '--minimum']);
    expect(result.code, result.stderr).toBe(0);
    const { $schema } = JSON.parse(result.stdout) as { $schema: string };
    // conformance() runs in a fresh temporary folder: the path is relative to it.
    const cwd = tempDir('template-');
    const again = await import('../helpers/states/template.js').then((m) => m.template(true, cwd).$schema);
    const schemaFile = again.startsWith('file:') ? new URL(again) : join(cwd, again);
    expect(JSON.parse(readFileSync(schemaFile, 'utf8')).$id).toBe('https://account-api-conformance.local/schemas/states-file.json');
    expect($schema).toMatch(/(^\.{1,2}\/|^file:).*schemas\/states-file\.json$/);
  });

  it('states export writes the same $schema, relative to the folder of the file it writes, and the bonuses\u2019 sharedOrder the hook gives', { timeout: 120_000 }, async () => {
    const out = join(tempDir('export-schema-'), 'config', 'states.json');
    const result = await conformance(['states', 'export', '--minimum', '--target', reference.baseUrl, '--states', reference.statesUrl!, '--states-token', STATES_TOKEN, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    const { $schema, accounts } = JSON.parse(readFileSync(out, 'utf8')) as { $schema: string; accounts: { bonuses?: { ids: string[]; sharedOrder?: string[] } }[] };
    const schemaFile = $schema.startsWith('file:') ? new URL($schema) : join(out, '..', $schema);
    expect(JSON.parse(readFileSync(schemaFile, 'utf8')).$id).toBe('https://account-api-conformance.local/schemas/states-file.json');
    // The "user with bonuses" accounts are asked with sharedOrder (added later): the file keeps the two bonuses of one order.
    const shared = accounts.map((account) => account.bonuses).filter((bonuses) => bonuses?.sharedOrder);
    expect(shared.length).toBeGreaterThan(0);
    for (const bonuses of shared) for (const id of bonuses!.sharedOrder!) expect(bonuses!.ids).toContain(id);
  });
});
