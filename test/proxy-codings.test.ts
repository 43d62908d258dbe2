import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { judgeExchange, type SeenExchange } from '../proxy/judge.js';

/** A bank list answered 200 in a content coding, as a server behind a compressing layer answers a client that sent Accept-Encoding. */
function bankList(coding: string, body: Buffer, maxBytes = 1024 * 1024): SeenExchange {
  return {
    seq: 1,
    method: 'GET',
    url: `/api/v1/user/${randomUUID()}/bank`,
    requestHeaders: { 'accept-encoding': 'gzip, deflate, br' },
    status: 200,
    responseHeaders: { 'content-type': 'application/json', 'content-encoding': coding },
    responseBody: body,
    durationMs: 1,
    maxBytes,
  };
}

describe('conformance proxy: answers in a content coding', () => {
  const json = Buffer.from(JSON.stringify({ data: [] }));

  it.each([
    ['gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['br', brotliCompressSync(json)],
  ])('judges a %s answer as the JSON it carries, never as "not JSON"', (coding, body) => {
    const record = judgeExchange(bankList(coding, body), 'http://127.0.0.1:1')!;
    expect(record.outcome, JSON.stringify(record.reason)).toBe('passed');
  });

  it('leaves an answer that decodes past MAX_RESPONSE_BYTES not judged, never failed', () => {
    const record = judgeExchange(bankList('gzip', gzipSync(Buffer.from(`{"data":[],"pad":"${'x'.repeat(100_000)}"}`)), 10_000), 'http://127.0.0.1:1')!;
    expect(record.outcome).toBe('skipped');
    expect(record.reason).toMatch(/over MAX_RESPONSE_BYTES/);
  });

  it('undoes stacked codings last applied first (Content-Encoding: gzip, br is br over gzip)', () => {
    const record = judgeExchange(bankList('gzip, br', brotliCompressSync(gzipSync(json))), 'http://127.0.0.1:1')!;
    expect(record.outcome, JSON.stringify(record.reason)).toBe('passed');
  });

  it.each([['compress'], ['gzip, x-unknown']])('leaves an answer in a coding it cannot decode (%s) not judged, never failed as "not JSON"', (coding) => {
    const record = judgeExchange(bankList(coding, gzipSync(json)), 'http://127.0.0.1:1')!;
    expect(record.outcome).toBe('skipped');
    expect(record.reason).toMatch(/content coding .* which the proxy does not decode/);
  });
});
