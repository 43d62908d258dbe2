import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient, LARGE_ANSWER_BUDGET, LARGE_ANSWER_BYTES, largeAnswers, type Exchange } from '../helpers/net/http.js';
import { HookStates } from '../helpers/states/transport.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../helpers/net/config.js';

/**
 * Issue 29: a target padding every answer to just under MAX_RESPONSE_BYTES takes at most the worker's budget for large
 * answers at once, whatever the number of requests in flight, and no answer is held whole once parsed.
 */

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

// The default limit: what a run meets when MAX_RESPONSE_BYTES is not set.
const LIMIT = DEFAULT_MAX_RESPONSE_BYTES;
const padded = (size: number) => {
  const head = '{"data":{"id":"1"},"pad":"';
  return Buffer.from(`${head}${'p'.repeat(size - head.length - 2)}"}`);
};
const ANSWER = padded(LIMIT - 1000);

async function serve(): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/chunked') {
      // No Content-Length: the size is known only at the end.
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let at = 0; at < ANSWER.length; at += 256 * 1024) res.write(ANSWER.subarray(at, at + 256 * 1024));
      return void res.end();
    }
    if (req.url === '/small') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
    if (req.url === '/states') return void res.writeHead(200, { 'content-type': 'application/json' }).end(padded(LARGE_ANSWER_BYTES * 4));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ANSWER.length) }).end(ANSWER);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('the budget for large answers (issue 29)', () => {
  it('reads 12 answers just under MAX_RESPONSE_BYTES, 8 in flight, within the budget: each parsed, none held whole', async () => {
    const url = await serve();
    const http = new HttpClient(url, { timeoutMs: 60_000, maxResponseBytes: LIMIT, maxConcurrency: 8 });
    largeAnswers.peak = 0;
    const released = largeAnswers.collections;
    const seen: Exchange[] = [];
    const paths = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? '/chunked' : i % 3 === 1 ? '/known' : '/small'));
    const answers = await Promise.all(paths.map((path) => http.send({ method: 'GET', path }, (e) => seen.push(e))));
    await http.close();
    expect(largeAnswers.used).toBe(0);
    // Never more than the budget at once: answers of a known length by their length, one of an unknown length by the whole limit.
    expect(LIMIT).toBeLessThan(LARGE_ANSWER_BUDGET);
    expect(largeAnswers.peak).toBeGreaterThan(0);
    expect(largeAnswers.peak).toBeLessThanOrEqual(LARGE_ANSWER_BUDGET);
    const sha256 = createHash('sha256').update(ANSWER).digest('hex');
    for (const [i, answer] of answers.entries()) {
      if (paths[i] === '/small') {
        expect(answer.whole).toBe(true);
        continue;
      }
      expect(answer.json.data).toEqual({ id: '1' });
      expect(answer.whole).toBe(false);
      expect(answer.length).toBe(ANSWER.length);
      expect(answer.sha256).toBe(sha256);
      expect(answer.text.length).toBeLessThan(10_000);
    }
    expect(seen.filter((e) => e.response?.bodyText?.includes(`sha256 ${sha256}`))).toHaveLength(8);
    // 8 answers of 1 MiB released: the garbage they left was collected on the way (where V8 offers a collection).
    expect(largeAnswers.collections - released).toBeGreaterThan(0);
  }, 120_000);

  it('a waiting answer gives up when its test is interrupted, and the budget stays whole', async () => {
    const url = await serve();
    const http = new HttpClient(url, { timeoutMs: 60_000, maxResponseBytes: LIMIT, maxConcurrency: 4 });
    const abort = new AbortController();
    const holder = largeAnswers.acquire(LARGE_ANSWER_BUDGET);
    await holder;
    const waiting = http.send({ method: 'GET', path: '/known', signal: abort.signal });
    await new Promise((r) => setTimeout(r, 200));
    abort.abort(new Error('interrupted'));
    await expect(waiting).rejects.toThrowError(/interrupted/);
    largeAnswers.release(LARGE_ANSWER_BUDGET);
    expect(largeAnswers.used).toBe(0);
    expect((await http.send({ method: 'GET', path: '/known' })).length).toBe(ANSWER.length);
    await http.close();
  }, 60_000);

  it('a wait for the budget ends at the request timeout, and says it was the budget, not the target', async () => {
    const url = await serve();
    const http = new HttpClient(url, { timeoutMs: 500, maxResponseBytes: LIMIT, maxConcurrency: 4 });
    await largeAnswers.acquire(LARGE_ANSWER_BUDGET);
    const started = Date.now();
    const waiting = http.send({ method: 'GET', path: '/known' }).then(() => 'read', (error: Error) => error.message);
    // The budget stays taken well past the timeout: the waiting answer gives up at its own deadline.
    const outcome = await Promise.race([waiting, new Promise((r) => setTimeout(() => r('still waiting'), 3000))]);
    largeAnswers.release(LARGE_ANSWER_BUDGET);
    expect(outcome).toMatch(/waited for this worker's budget for large answers .* until REQUEST_TIMEOUT_MS \(500 ms\) ran out/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(largeAnswers.used).toBe(0);
    // An interrupt that came before the wait is not waited out either.
    await largeAnswers.acquire(LARGE_ANSWER_BUDGET);
    const aborted = AbortSignal.abort(new Error('interrupted before'));
    await expect(largeAnswers.acquire(1000, aborted)).rejects.toThrowError(/interrupted before/);
    largeAnswers.release(LARGE_ANSWER_BUDGET);
    expect(largeAnswers.used).toBe(0);
    await http.close();
  }, 30_000);

  it("reads a hook's large answer within the same budget", async () => {
    const url = await serve();
    const hook = new HookStates(`${url}/states`, 'hook-token-for-budget-0123', 10_000, { maxResponseBytes: LIMIT });
    const answer = await hook.call('user', {});
    await hook.close();
    expect((answer.body as { data: unknown }).data).toEqual({ id: '1' });
    expect(answer.text.length).toBeLessThan(10_000);
    expect(largeAnswers.used).toBe(0);
  });
});
