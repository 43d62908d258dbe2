import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { Interruption } from '../cli/interrupt.js';
import { ConfigError, loadConfig } from '../helpers/net/config.js';
import { notVerifiedWhenLimitedTimeout, RateLimiter, retryDelayMs, RETRY_WAIT_CAP_MS } from '../helpers/net/rate.js';
import { redactHeaders, redactText, registerSecret, registerSecretHeader } from '../helpers/net/redact.js';
import { scrubRecords } from '../reporting/scrub.js';
import { proxyFor, trustedCas } from '../helpers/net/transport.js';
import { diffMarkdown, diffReports } from '../reporting/diff.js';
import { CA_FILE } from './loopback-road.js';
import { record, report } from './reporting-fixtures.js';
import { tempDir } from './support.js';

const noDotenv = join(tmpdir(), 'no-such-dotenv-file');
const load = (env: Record<string, string>) => loadConfig({}, env, noDotenv);
const BASE = 'http://127.0.0.1:1';

describe('the road to a deployment: configuration', () => {
  it('keeps STATES_URL exactly as given: a trailing slash is part of a URL', () => {
    expect(load({ BASE_URL: BASE, STATES_URL: 'http://127.0.0.1:2/hook/' }).STATES_URL).toBe('http://127.0.0.1:2/hook/');
  });

  it('reads EXTRA_HEADERS, one "Name: value" a line, and CA_FILE and MAX_REQUESTS_PER_SECOND', () => {
    const config = load({ EXTRA_HEADERS: 'x-api-key: k1: with colon\nX-Tenant:  acme ', CA_FILE, MAX_REQUESTS_PER_SECOND: '2.5' });
    expect(config.EXTRA_HEADERS).toEqual({ 'x-api-key': 'k1: with colon', 'x-tenant': 'acme' });
    expect(config.CA_FILE).toBe(CA_FILE);
    expect(config.MAX_REQUESTS_PER_SECOND).toBe(2.5);
  });

  it.each([
    [{ EXTRA_HEADERS: 'Content-Type: text/plain' }, /^configuration error: EXTRA_HEADERS may not set Content-Type: the suite sets/],
    [{ EXTRA_HEADERS: 'token: abcdef-secret' }, /^configuration error: EXTRA_HEADERS may not set token/],
    [{ EXTRA_HEADERS: 'no colon here secret-value' }, /^configuration error: EXTRA_HEADERS has an entry that is not "Name: value"/],
    [{ EXTRA_HEADERS: 'Accept: text/html' }, /^configuration error: EXTRA_HEADERS may not set Accept: the suite sets Authorization, Token, Content-Type, Accept itself/],
    ...['Host', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Keep-Alive', 'Upgrade', 'TE', 'Expect'].map(
      (name): [Record<string, string>, RegExp] => [
        { EXTRA_HEADERS: `${name}: abcdef-secret` },
        new RegExp(`^configuration error: EXTRA_HEADERS may not set ${name}: the HTTP client sets the connection and framing headers`),
      ],
    ),
    [{ EXTRA_HEADERS: 'x-api-key: abcdef-secret\u0000' }, /^configuration error: EXTRA_HEADERS has x-api-key with a control character in its value/],
    [{ EXTRA_HEADERS: 'x-api-key: abcdef\rsecret' }, /^configuration error: EXTRA_HEADERS has x-api-key with a control character in its value/],
    [{ EXTRA_HEADERS: 'x-api-key:' }, /^configuration error: EXTRA_HEADERS has x-api-key with an empty value/],
    [{ CA_FILE: '/no/such/ca.pem' }, /^configuration error: CA_FILE names a file that does not exist/],
    [{ MAX_REQUESTS_PER_SECOND: '0' }, /^configuration error: MAX_REQUESTS_PER_SECOND must be at least 0.1/],
  ])('refuses %j with one line, never quoting a header value', (env, message) => {
    expect(() => load(env)).toThrowError(ConfigError);
    expect(() => load(env)).toThrowError(message);
    expect(() => load(env)).toThrowError(/^(?![^]*(abcdef-secret|secret-value))/);
  });

  it('refuses a CA_FILE that holds no PEM certificate', () => {
    const file = join(tempDir('ca-'), 'not.pem');
    writeFileSync(file, 'hello');
    expect(() => load({ CA_FILE: file })).toThrowError(/CA_FILE must be a PEM file holding one or more certificates/);
  });
});

describe('the road to a deployment: proxy, rate limits, redaction', () => {
  it('proxies per HTTP(S)_PROXY and NO_PROXY, never loopback', () => {
    const env = { HTTPS_PROXY: 'http://proxy.corp:3128', HTTP_PROXY: 'http://plain.corp:3128', NO_PROXY: 'internal.corp,.svc.local' };
    expect(proxyFor('https://api.example.com/x', env)).toBe('http://proxy.corp:3128');
    expect(proxyFor('http://api.example.com/x', env)).toBe('http://plain.corp:3128');
    expect(proxyFor('https://internal.corp/x', env)).toBeUndefined();
    expect(proxyFor('https://a.svc.local/x', env)).toBeUndefined();
    for (const url of ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:2']) expect(proxyFor(url, env)).toBeUndefined();
    expect(proxyFor('https://api.example.com', {})).toBeUndefined();
  });

  it('--ca adds to the bundled CAs and to NODE_EXTRA_CA_CERTS, which Node would drop once a CA list is given', () => {
    const extra = join(tempDir('extra-ca-'), 'extra.pem');
    writeFileSync(extra, '-----BEGIN CERTIFICATE-----\nextra\n-----END CERTIFICATE-----\n');
    const cas = trustedCas(CA_FILE, { NODE_EXTRA_CA_CERTS: extra });
    expect(cas).toContain(readFileSync(extra, 'utf8'));
    expect(cas).toContain(readFileSync(CA_FILE, 'utf8'));
    expect(cas.length).toBeGreaterThan(100);
    expect(trustedCas(CA_FILE, {})).not.toContain(readFileSync(extra, 'utf8'));
  });

  it('reports a test that timed out while a rate limiter held it as not verified, other failures as they are', () => {
    const timedOut = (rateLimited?: number) => ({ outcome: 'failed' as const, reason: 'Test timed out in 60000ms.', failure: { message: 'Test timed out in 60000ms.' }, ...(rateLimited ? { rateLimited } : {}) });
    const records = [timedOut(4), timedOut(), { ...timedOut(2), reason: 'expected status 200, got 500' }];
    notVerifiedWhenLimitedTimeout(records);
    expect(records.map((r) => [r.outcome, r.reason])).toEqual([
      ['skipped', expect.stringMatching(/^not verified: rate limited, the test timed out while it waited on 4 answer/)],
      ['failed', 'Test timed out in 60000ms.'],
      ['failed', 'expected status 200, got 500'],
    ]);
  });

  it('retries 429 and 503 only with Retry-After (a bare 429 where 425 is due is a nonconformance), capping the wait by the cap and the timeout', () => {
    expect(retryDelayMs(200, '1', 10_000)).toBeUndefined();
    expect(retryDelayMs(503, undefined, 10_000)).toBeUndefined();
    expect(retryDelayMs(429, undefined, 10_000)).toBeUndefined();
    expect(retryDelayMs(429, 'soon', 10_000)).toBeUndefined();
    expect(retryDelayMs(429, '2', 10_000)).toBe(2000);
    expect(retryDelayMs(503, '0', 10_000)).toBe(0);
    expect(retryDelayMs(429, '3600', 600_000)).toBe(RETRY_WAIT_CAP_MS);
    expect(retryDelayMs(429, '5', 500)).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryDelayMs(429, 'Thu, 01 Jan 2026 00:00:03 GMT', 10_000, now)).toBe(3000);
  });

  it('--rate spaces requests: 20 per second lets 5 requests start over at least 200 ms', async () => {
    const limiter = new RateLimiter(20);
    const started = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => limiter.take()));
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('redacts every bearer value in text, but not the words of a test name in the reports', () => {
    for (const value of ['QwErTyUiOp', 'abcdefghijklmno']) expect(redactText(`Authorization: Bearer ${value}`)).toBe('Authorization: Bearer [REDACTED]');
    const names = ['POST /api/v1/user/logout answers 401 with { error } without a bearer token', 'answers 401 with { error } for a bearer value that is not a token'];
    const session = 'sess-k9Qw7Zr2Lp4Xv8';
    registerSecret(session);
    const scrubbed = scrubRecords(names.map((name) => record(name, { name, failure: { message: `401 without a bearer token; sent ${session}`, schemaProblems: [] } })));
    // Names (and ids) are the suite's own words, never rewritten (issue 22); the content is.
    expect(scrubbed.map((t) => t.name)).toEqual(names);
    expect(scrubbed[0]!.failure!.message).toBe('401 without a bearer [REDACTED] sent [REDACTED]');
    expect(redactText('Authorization: Bearer 12|abcdefghijklmnopqrst')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactText('Bearer abcdefghijklmnopqrstuvwxyz')).toBe('Bearer [REDACTED]');
    expect(redactText('Bearer s3cret')).toBe('Bearer [REDACTED]');
  });

  it('redacts a gateway header by name wherever it appears', () => {
    registerSecretHeader('X-Tenant-Key');
    expect(redactHeaders({ 'x-tenant-key': 'abc', accept: 'application/json' })).toEqual({ 'x-tenant-key': '[REDACTED]', accept: 'application/json' });
  });
});

describe('the line of an interrupted run', () => {
  it('counts what finished, names the groups never started, and says when the clean-up was cut short', () => {
    const tests = [record('a', {}), record('b', { outcome: 'skipped', reason: 'not run: the run was interrupted (Ctrl-C)' })];
    const interruption = new Interruption(false);
    expect(interruption.summaryLine(tests, ['bonuses'], 'r/report.json')).toBe(
      'interrupted by SIGINT (Ctrl-C): stopped after 1 of 2 tests (never started: bonuses); the clean-up of created records ran; reports of what finished are marked interrupted (r/report.json)',
    );
    interruption.signal = 'SIGTERM';
    expect(interruption.summaryLine(tests, [], undefined)).toMatch(/^interrupted by SIGTERM: stopped after 1 of 2 tests;/);
    interruption.cutShort = true;
    expect(interruption.summaryLine(tests, [], undefined)).toMatch(/; the clean-up was cut short after 4 s: records of the tests still in flight may remain;/);
  });
});

describe('a signal while the run closes (after its reports are written)', () => {
  it('still has its handler: one line, exit 130, never Node\u2019s silent default end', () => {
    // The worker's own listeners, which an enabled Interruption takes over, are given back below.
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const interruption = new Interruption(true);
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => {
      throw new Error('exit');
    }) as never);
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(((text: string) => written.push(text)) as never);
    try {
      interruption.ending();
      expect(() => process.emit('SIGTERM', 'SIGTERM')).toThrow('exit');
      expect(exit).toHaveBeenCalledWith(130);
      expect(written).toEqual(['interrupted by SIGTERM while the run closed: its tests had ended and its reports are written\n']);
      // A run that failed before its reports (a preflight refused, say) does not claim them.
      interruption.ending(false);
      expect(() => process.emit('SIGINT', 'SIGINT')).toThrow('exit');
      expect(written[1]).toBe('interrupted by SIGINT (Ctrl-C) while the run closed: it had ended without writing its reports\n');
    } finally {
      write.mockRestore();
      exit.mockRestore();
      interruption.dispose();
      expect(process.listenerCount('SIGTERM')).toBe(0);
      for (const signal of ['SIGINT', 'SIGTERM'] as const) for (const listener of before[signal]) process.on(signal, listener as NodeJS.SignalsListener);
    }
  });
});

describe('diff of runs over different groups', () => {
  const BANKS = 'GET /api/v1/user/{user}/bank';
  const LOGOUT = 'POST /api/v1/user/logout';
  const full = report(
    [record('banks answers 200', { endpoint: BANKS, group: 'banks' }), record('logout answers 401', { endpoint: LOGOUT, group: 'authentication', status: 401 })],
    { groups: ['authentication', 'banks'] },
  );
  const onlyAuth = report([record('logout answers 401', { endpoint: LOGOUT, group: 'authentication', status: 401 })], { groups: ['authentication'] });

  it('does not call tests or coverage of a group the head run did not run regressed, removed or lost', () => {
    const diff = diffReports(full, onlyAuth);
    expect(diff.regressed).toBe(false);
    expect(diff.tests.removed).toEqual([]);
    expect(diff.coverage.pairsLost).toEqual([]);
    expect(diff.groupsNotCompared).toEqual(['banks']);
    expect(diffMarkdown(diff)).toContain('not compared: `banks`');
  });

  it('compares an interrupted run only on the tests that finished in both, and still finds a failure among them', () => {
    const notRun = { outcome: 'skipped' as const, reason: 'not run: the run was interrupted (Ctrl-C)', exchanges: [], observedStatus: [] };
    const interrupted = report([record('banks answers 200', { endpoint: BANKS, group: 'banks', ...notRun }), record('logout answers 401', { endpoint: LOGOUT, group: 'authentication', status: 401 })], {
      groups: ['authentication', 'banks'],
      interrupted: true,
    });
    const diff = diffReports(full, interrupted);
    expect([diff.regressed, diff.interrupted, diff.tests.newlySkipped, diff.tests.removed]).toEqual([false, true, [], []]);
    expect(diffMarkdown(diff)).toContain('A run was interrupted (Ctrl-C): only tests that finished in both runs are compared');
    const failed = report([record('banks answers 200', { endpoint: BANKS, group: 'banks', ...notRun }), record('logout answers 401', { endpoint: LOGOUT, group: 'authentication', status: 401, outcome: 'failed' })], {
      groups: ['authentication', 'banks'],
      interrupted: true,
    });
    expect(diffReports(full, failed).regressed).toBe(true);
  });

  it('still finds a regression inside the groups both runs ran', () => {
    const failing = report([record('logout answers 401', { endpoint: LOGOUT, group: 'authentication', status: 401, outcome: 'failed' })], { groups: ['authentication'] });
    expect(diffReports(full, failing).regressed).toBe(true);
  });
});
