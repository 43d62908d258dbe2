import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../reference/app.js';
import { mutantByName } from '../reference/mutants/index.js';
import { endpointFor, type SeenExchange } from '../proxy/judge.js';
import { MAX_LISTED_EXCHANGES, MAX_UNJUDGED_REASONS, TrafficLedger } from '../proxy/ledger.js';
import { schemaProblems } from '../helpers/spec/schemas.js';
import type { Report, TestRecord } from '../reporting/model.js';
import { conformance, ROOT, tempDir } from './support.js';
import { CA_FILE, startGateway } from './loopback-road.js';

/**
 * `conformance proxy` over loopback: plain fetch traffic (what a client team's own end-to-end tests
 * send) through the proxy in front of the reference and of mutants of it; the proxy is stopped with
 * SIGTERM and its reports are read.
 */

const STATES_TOKEN = 'proxy-test-token';

interface ProxyProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<{ code: number | null; output: string }>;
}

async function startProxyProcess(target: string, dir: string, env: Record<string, string> = {}, extra: string[] = []): Promise<ProxyProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'conformance.mjs'), 'proxy', '--target', target, '--port', '0', '--report-dir', dir, ...extra], {
    cwd: dir,
    env: { ...process.env, BASE_URL: '', REPORT_DIR: '', MAX_RESPONSE_BYTES: '', STRICT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = await new Promise<string>((done, fail) => {
    const timer = setInterval(() => {
      const match = /^listening on (\S+)$/m.exec(output);
      if (match) {
        clearInterval(timer);
        done(match[1]!);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      fail(new Error(`the proxy exited (${code}) before listening: ${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      return { code, output };
    },
  };
}

async function state(reference: RunningReference, name: string, params: Record<string, unknown> = {}): Promise<any> {
  const response = await fetch(reference.statesUrl!, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${STATES_TOKEN}` }, body: JSON.stringify({ state: name, params }) });
  return ((await response.json()) as { data: unknown }).data;
}

/** A client's traffic: log in, list, create, a create the interface refuses, an unauthenticated call, a path outside the interface. */
async function clientTraffic(reference: RunningReference, base: string): Promise<{ token: string; password: string; userId: string }> {
  const user = await state(reference, 'user');
  const json = (method: string, path: string, body?: unknown, token?: string) =>
    fetch(`${base}${path}`, { method, headers: { accept: 'application/json', 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const login = await json('POST', '/api/v1/authenticate', { email: user.email, password: user.password });
  const token = ((await login.json()) as { data: { id: string } }).data.id;
  await (await json('POST', `/api/v1/user/${user.id}/bank`, { bankName: 'Proxy Bank', iban: `DE${Date.now()}${Math.floor(Math.random() * 1e6)}`, swift: 'ABCDEFGH', currency: 'EUR' }, token)).text();
  await (await json('GET', `/api/v1/user/${user.id}/bank`, undefined, token)).text();
  await (await json('POST', `/api/v1/user/${user.id}/bank`, { bankName: 'no iban' }, token)).text();
  await (await json('GET', `/api/v1/user/${user.id}/bank`)).text();
  await (await fetch(`${base}/favicon.ico`)).text();
  return { token, password: user.password, userId: user.id };
}

const reportOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
const testOf = (report: Report, endpoint: string, status: number): TestRecord | undefined => report.tests.find((t) => t.endpoint === endpoint && t.observedStatus[0] === status);
const LIST = 'GET /api/v1/user/{user}/bank';
const CREATE = 'POST /api/v1/user/{user}/bank';

describe('the proxy matches paths to the catalogue', () => {
  it('matches each template, its placeholders one segment, the optional asset segment either way', () => {
    expect(endpointFor('get', '/api/v1/user/u-1/bank')?.id).toBe(LIST);
    expect(endpointFor('DELETE', '/api/v1/user/u-1/bank/b-2')?.id).toBe('DELETE /api/v1/user/{user}/bank/{bank}');
    expect(endpointFor('GET', '/api/v1/user/u-1/bonus/assets')?.id).toBe('GET /api/v1/user/{user}/bonus/assets/{asset?}');
    expect(endpointFor('GET', '/api/v1/user/u-1/bonus/assets/BTC')?.id).toBe('GET /api/v1/user/{user}/bonus/assets/{asset?}');
    expect(endpointFor('GET', '/api/v1/user/u-1/bank/b-2/extra')).toBeUndefined();
    expect(endpointFor('PUT', '/api/v1/user/u-1/bank')).toBeUndefined();
  });
});

describe('the proxy\'s ledger: bounded, yet nothing it saw is lost from the coverage or the verdict', () => {
  const USER = '0b6a1f7e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
  let seq = 0;
  const seen = (path: string, status: number | undefined, body: unknown, extra: Partial<SeenExchange> = {}): SeenExchange => ({
    seq: ++seq,
    method: 'GET',
    url: path,
    requestHeaders: {},
    ...(status !== undefined ? { status, responseHeaders: { 'content-type': 'application/json' }, responseBody: Buffer.from(JSON.stringify(body)) } : {}),
    durationMs: 1,
    maxBytes: 1024 * 1024,
    ...extra,
  });
  const unauthenticated = () => seen(`/api/v1/user/${USER}/bank`, 401, { error: 'Unauthenticated.' });
  const pairOf = (report: ReturnType<TrafficLedger['report']>, endpoint: string, status: number) => report.coverage.pairs.find((p) => p.endpoint === endpoint && p.status === status)!;

  it('lists a pair first exercised, and a nonconformance first seen, after the listed exchanges ran out', () => {
    const ledger = new TrafficLedger('http://127.0.0.1:1', false);
    for (let i = 0; i < MAX_LISTED_EXCHANGES + 5; i++) ledger.add(unauthenticated());
    ledger.add(seen(`/api/v1/user/${USER}/card`, 401, { error: 'Unauthenticated.' }));
    ledger.add(seen(`/api/v1/user/${USER}/bank`, 401, { error: 'Unauthenticated.' }, { responseHeaders: { 'content-type': 'text/html' } }));
    const report = ledger.report(new Date(), new Date(), false);
    expect(ledger.records.length).toBe(MAX_LISTED_EXCHANGES + 2);
    expect(pairOf(report, 'GET /api/v1/user/{user}/card', 401).outcome).toBe('passed');
    expect(report.verdict).toBe('nonconformant');
    expect(report.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^5 more exchange\(s\) passed and are not listed/)]));
  });

  it('bounds the distinct reasons of what it did not judge, and names why an exchange got no answer', () => {
    const ledger = new TrafficLedger('http://127.0.0.1:1', false);
    for (let i = 0; i < MAX_UNJUDGED_REASONS + 20; i++) ledger.add(seen(`/static/page-${i}.js`, 200, {}));
    ledger.add(seen(`/api/v1/user/${USER}/bank`, undefined, undefined, { error: 'the target could not be reached: connect ECONNREFUSED 127.0.0.1:1' }));
    expect(ledger.unjudged.size).toBe(MAX_UNJUDGED_REASONS + 1);
    expect(ledger.total).toBe(MAX_UNJUDGED_REASONS + 21);
    expect(ledger.warnings()).toEqual(expect.arrayContaining([expect.stringMatching(/^21 exchange\(s\) passed through unjudged: other reasons/)]));
  });

  it('judges an answer that broke off neither way: not verified, with the cause', () => {
    const ledger = new TrafficLedger('http://127.0.0.1:1', false);
    const record = ledger.add({ ...seen(`/api/v1/user/${USER}/bank`, 200, {}), responseBody: Buffer.from('{"data":[{"id"'), error: "the target's answer broke off: aborted" })!;
    expect(record).toMatchObject({ outcome: 'skipped', reason: "not judged: the target's answer broke off: aborted" });
  });
});

describe('conformance proxy refuses, before it listens, a report folder it could not write at the end', () => {
  it('exits 2 with one line naming the folder and the fix', async () => {
    const file = join(tempDir('proxy-dir-'), 'a-file');
    writeFileSync(file, '');
    const result = await conformance(['proxy', '--target', 'http://127.0.0.1:1', '--port', '0', '--report-dir', join(file, 'reports')]);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain('listening on');
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^proxy: cannot write the reports into .*a-file\/reports \(ENOTDIR\); choose another folder with --report-dir$/)]);
  });
});

describe('conformance proxy stops promptly in front of a target that never answers', { timeout: 60_000 }, () => {
  it('ends what waits on the target after the grace, reports it as not answered, and exits long before --timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const dir = tempDir('proxy-silent-');
      const proxy = await startProxyProcess(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, dir, {}, ['--timeout', '120000']);
      const pending = fetch(`${proxy.url}/api/v1/user/logout`, { method: 'POST' }).catch(() => undefined);
      await new Promise((done) => setTimeout(done, 500));
      const started = Date.now();
      expect((await proxy.stop()).code).toBe(0);
      expect(Date.now() - started).toBeLessThan(20_000);
      await pending;
      expect(reportOf(dir).warnings).toEqual(expect.arrayContaining(['1 exchange(s) passed through unjudged: no answer (the proxy stopped before the answer was whole)']));
    } finally {
      silent.close();
    }
  });
});

describe('conformance proxy in front of the reference and its mutants', { timeout: 180_000 }, () => {
  let reference: RunningReference;
  const mutants = new Map<string, RunningReference>();
  beforeAll(async () => {
    reference = await startReference({ states: true, statesToken: STATES_TOKEN });
    for (const name of ['banks-list-without-envelope', 'responses-labelled-text-html', 'banks-records-carry-remember-token', 'banks-create-answers-200']) {
      mutants.set(name, await startReference({ states: true, statesToken: STATES_TOKEN, mutation: mutantByName(name)!.mutation }));
    }
  });
  afterAll(async () => {
    await reference?.close();
    for (const mutant of mutants.values()) await mutant.close();
  });

  it('passes the reference: traffic unchanged, every answer judged, reports written on SIGTERM with secrets redacted', async () => {
    const dir = tempDir('proxy-');
    const proxy = await startProxyProcess(reference.baseUrl, dir);
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { token, password, userId } = await clientTraffic(reference, proxy.url);
    // Unchanged: the same request straight to the reference and through the proxy gets the same status, type and bytes.
    const direct = await fetch(`${reference.baseUrl}/api/v1/user/${userId}/bank`, { headers: { authorization: `Bearer ${token}` } });
    const proxied = await fetch(`${proxy.url}/api/v1/user/${userId}/bank`, { headers: { authorization: `Bearer ${token}` } });
    expect(proxied.status).toBe(direct.status);
    expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    expect(await proxied.text()).toBe(await direct.text());

    const { code, output } = await proxy.stop();
    expect(code, output).toBe(0);
    const report = reportOf(dir);
    expect(schemaProblems('report', report)).toEqual([]);
    expect(report.verdict).toBe('incomplete');
    expect(report.proxy).toEqual({ target: reference.baseUrl, exchanges: 7, judged: 6, notJudged: 1 });
    expect(report.tests.every((t) => t.outcome === 'passed' && t.file === 'proxy')).toBe(true);
    expect(testOf(report, CREATE, 422)?.notes?.[0]).toMatch(/whether the request deserved it .* is not judged/);
    expect(report.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/1 exchange\(s\) passed through unjudged: GET \/favicon\.ico is no endpoint/)]));
    const pair = (endpoint: string, status: number) => report.coverage.pairs.find((p) => p.endpoint === endpoint && p.status === status)!;
    expect(pair(CREATE, 201).outcome).toBe('passed');
    expect(pair(LIST, 401).outcome).toBe('passed');
    expect(pair('DELETE /api/v1/user/{user}/bank/{bank}', 200)).toMatchObject({ outcome: 'not verified', reason: 'no exchange of the traffic was answered with it' });
    for (const file of ['report.json', 'junit.xml', 'summary.md', 'report.html']) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text, file).not.toContain(token.split('|')[1]);
      expect(text, file).not.toContain(password);
    }
    expect(output).toMatch(/Stopped \(SIGTERM\) after 7 exchange\(s\), 6 judged/);
    // Traffic is not the interface: its report is never certified.
    const certify = await conformance(['certify', '--report', join(dir, 'report.json'), '--key', privateKeyFile(dir)]);
    expect(certify.code).toBe(2);
    expect(certify.stderr).toMatch(/the report is of `conformance proxy`/);
  });

  it('fails a mutant whose list answer breaks its schema, naming the clause and the pointer', async () => {
    const mutant = mutants.get('banks-list-without-envelope')!;
    const dir = tempDir('proxy-mutant-');
    const proxy = await startProxyProcess(mutant.baseUrl, dir);
    await clientTraffic(mutant, proxy.url);
    const { code, output } = await proxy.stop();
    expect(code, output).toBe(1);
    const report = reportOf(dir);
    expect(report.verdict).toBe('nonconformant');
    const list = testOf(report, LIST, 200)!;
    expect(list.outcome).toBe('failed');
    expect(list.failure?.schemaProblems[0]?.schema).toBe('bank-list-response');
    expect(output).toMatch(/x GET \/api\/v1\/user\/\{user\}\/bank answered 200 .*does not match bank-list-response/);
  });

  it('fails answers labelled text/html (section 1.2)', async () => {
    const mutant = mutants.get('responses-labelled-text-html')!;
    const dir = tempDir('proxy-mutant-');
    const proxy = await startProxyProcess(mutant.baseUrl, dir);
    await clientTraffic(mutant, proxy.url);
    expect((await proxy.stop()).code).toBe(1);
    const login = testOf(reportOf(dir), 'POST /api/v1/authenticate', 200)!;
    expect(login.outcome).toBe('failed');
    expect(login.reason).toMatch(/section 1\.2: responses are JSON, but the 200 answer's Content-Type is "text\/html/);
  });

  it('reports a credential in an answer as a security finding, never its value', async () => {
    const mutant = mutants.get('banks-records-carry-remember-token')!;
    const dir = tempDir('proxy-mutant-');
    const proxy = await startProxyProcess(mutant.baseUrl, dir);
    await clientTraffic(mutant, proxy.url);
    expect((await proxy.stop()).code).toBe(1);
    const report = reportOf(dir);
    expect(report.summary.security).toBeGreaterThan(0);
    expect(testOf(report, LIST, 200)?.security?.[0]).toMatch(/\/data\/0\/rememberToken is a credential field/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('type="security"');
  });

  it('advises on a status the specification does not document for the endpoint, and fails it only with --strict', async () => {
    const mutant = mutants.get('banks-create-answers-200')!;
    const dir = tempDir('proxy-mutant-');
    const proxy = await startProxyProcess(mutant.baseUrl, dir);
    await clientTraffic(mutant, proxy.url);
    expect((await proxy.stop()).code).toBe(0);
    const create = testOf(reportOf(dir), CREATE, 200)!;
    expect(create).toMatchObject({ outcome: 'passed', status: null });
    expect(create.advisories[0]).toMatch(/answered 200, a status the specification does not document for this endpoint \(it documents 201, /);

    const strictDir = tempDir('proxy-strict-');
    const strict = await startProxyProcess(mutant.baseUrl, strictDir, {}, ['--strict']);
    await clientTraffic(mutant, strict.url);
    expect((await strict.stop()).code).toBe(1);
  });

  it('stands in front of an https gateway with a path prefix (--ca), passing the headers of the client through', async () => {
    const gateway = await startGateway({ upstream: reference.baseUrl, tls: true, prefix: '/accounts', apiKey: { name: 'x-api-key', value: 'client-key-123' } });
    try {
      const dir = tempDir('proxy-tls-');
      const proxy = await startProxyProcess(`${gateway.url}/accounts`, dir, {}, ['--ca', CA_FILE]);
      const answer = await fetch(`${proxy.url}/api/v1/user/logout`, { method: 'POST', headers: { 'x-api-key': 'client-key-123', accept: 'application/json' } });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ error: 'Unauthenticated.' });
      expect(gateway.seen.at(-1)).toMatchObject({ method: 'POST', path: '/accounts/api/v1/user/logout', status: 401 });
      expect(gateway.seen.at(-1)?.headers['x-api-key']).toBe('client-key-123');
      expect((await proxy.stop()).code).toBe(0);
      const report = reportOf(dir);
      expect(report.tests.map((t) => [t.endpoint, t.observedStatus[0], t.outcome])).toEqual([['POST /api/v1/user/logout', 401, 'passed']]);
      expect(readFileSync(join(dir, 'report.json'), 'utf8')).not.toContain('client-key-123');
    } finally {
      await gateway.close();
    }
  });

  it('says of a client that went away mid-request that it did, never that the target could not be reached', async () => {
    const dir = tempDir('proxy-gone-');
    const proxy = await startProxyProcess(reference.baseUrl, dir);
    const { port } = new URL(proxy.url);
    await new Promise<void>((done) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('POST /api/v1/authenticate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":');
        setTimeout(() => {
          socket.destroy();
          done();
        }, 300);
      });
    });
    await new Promise((done) => setTimeout(done, 300));
    expect((await proxy.stop()).code).toBe(0);
    const warnings = reportOf(dir).warnings.join('\n');
    expect(warnings).toMatch(/1 exchange\(s\) passed through unjudged: no answer \(the client went away before its request was whole/);
    expect(warnings).not.toContain('could not be reached');
  });

  it('passes a body over MAX_RESPONSE_BYTES through whole, and reports it as not judged', async () => {
    const dir = tempDir('proxy-large-');
    const proxy = await startProxyProcess(reference.baseUrl, dir, { MAX_RESPONSE_BYTES: '1024' });
    const { token, userId } = await clientTraffic(reference, proxy.url);
    for (let i = 0; i < 6; i++) {
      const body = JSON.stringify({ bankName: `Large ${i} ${'x'.repeat(150)}`, iban: `DE${Date.now()}${i}${Math.floor(Math.random() * 1e6)}`, swift: 'ABCDEFGH', currency: 'EUR' });
      await (await fetch(`${reference.baseUrl}/api/v1/user/${userId}/bank`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body })).text();
    }
    const direct = await (await fetch(`${reference.baseUrl}/api/v1/user/${userId}/bank`, { headers: { authorization: `Bearer ${token}` } })).text();
    const proxied = await (await fetch(`${proxy.url}/api/v1/user/${userId}/bank`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(direct.length).toBeGreaterThan(1024);
    expect(proxied).toBe(direct);
    expect((await proxy.stop()).code).toBe(0);
    const skipped = reportOf(dir).tests.filter((t) => t.outcome === 'skipped');
    expect(skipped.map((t) => t.reason)).toEqual([expect.stringMatching(/^not judged: the answer's body is over MAX_RESPONSE_BYTES \(1024 bytes\); it was passed through unchanged$/)]);
  });
});

/** An Ed25519 private key in a PEM file of `dir` (certify would sign with it). */
function privateKeyFile(dir: string): string {
  const file = join(dir, 'private.pem');
  writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return file;
}

describe('conformance proxy under a launcher that does not pass SIGTERM on (npx, npm exec)', { timeout: 60_000 }, () => {
  it('stops as on SIGTERM when its launcher ends: the port is freed and the reports are written', async () => {
    const dir = tempDir('proxy-npx-');
    // What npx does with SIGTERM: it exits, and its child is handed to another parent.
    const launcher = `const { spawn } = require('node:child_process');
      spawn(process.execPath, [${JSON.stringify(join(ROOT, 'bin', 'conformance.mjs'))}, 'proxy', '--target', 'http://127.0.0.1:9', '--port', '0', '--report-dir', ${JSON.stringify(dir)}], { stdio: 'inherit' });
      process.on('SIGTERM', () => process.exit(143));`;
    const parent = spawn(process.execPath, ['-e', launcher], { cwd: dir, env: { ...process.env, BASE_URL: '', REPORT_DIR: '', STRICT: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    parent.stdout!.on('data', (chunk) => (output += chunk));
    parent.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 30_000;
    while (!/^listening on /m.test(output) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const port = Number(/^listening on http:\/\/127\.0\.0\.1:(\d+)$/m.exec(output)?.[1]);
    expect(port, output).toBeGreaterThan(0);
    parent.kill('SIGTERM');
    // The launcher's output pipe stays open while the proxy lives: its end means the proxy ended.
    await new Promise((resolve) => parent.stdout!.on('close', resolve));
    expect(output).toMatch(/Stopped \(its parent ended\) after 0 exchange\(s\)/);
    expect((JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report).proxy?.exchanges).toBe(0);
    const free = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1').on('connect', () => (socket.destroy(), resolve(false))).on('error', () => resolve(true));
    });
    expect(free).toBe(true);
  });
});
