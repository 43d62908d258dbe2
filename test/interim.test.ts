import { readFileSync } from 'node:fs';
import { createServer as createNet, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTls } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, TransportError } from '../helpers/net/http.js';
import { interimLength, MAX_INTERIM_BYTES, MAX_KEPT_INTERIM, parseInterim } from '../helpers/net/interim.js';
import { fieldsOutsideHead } from '../helpers/check/check.js';
import { CA_FILE, proxyEnv, startProxy } from './loopback-road.js';
import { ROOT } from './support.js';

/**
 * Interim 1xx answers the client did not ask for (RFC 9110 15.2: "A client MUST be able to parse one or more 1xx
 * responses received prior to a final response, even if the client does not expect one"), from a loopback server that
 * writes raw bytes: a `100 Continue` before every answer (undici alone closes the connection on it), several interim
 * answers in a row, byte by byte, over TLS and through a CONNECT proxy. The final answer must reach the suite intact.
 */

const TLS_DIR = join(ROOT, 'test', 'fixtures', 'tls');

interface RawTarget {
  url: string;
  /** Connections the server accepted. */
  connections: () => number;
  /** Requests it read (method and path). */
  requests: string[];
}

type Answer = (method: string, path: string, body: string) => string;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

function json(status: number, body: unknown, extra = ''): string {
  const text = JSON.stringify(body);
  return `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Created'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${extra}\r\n${text}`;
}

/** The echo of a request: its method, path and body (as JSON). */
const echo: Answer = (method, path, body) => CONTINUE + json(method === 'POST' ? 201 : 200, { data: { method, path, body: body ? JSON.parse(body) : null } });

/** A server that reads each request (head and Content-Length body) and writes `answer`'s bytes, in one write or one byte at a time. */
async function rawTarget(answer: Answer, options: { tls?: boolean; byteByByte?: boolean; closeAfter?: boolean } = {}): Promise<RawTarget> {
  let connections = 0;
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const onConnection = (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    let writing = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = pending.subarray(end + 4, end + 4 + length).toString('utf8');
        pending = pending.subarray(end + 4 + length);
        const [method = '', path = ''] = head.split(' ');
        requests.push(`${method} ${path}`);
        const bytes = Buffer.from(answer(method, path, body), 'utf8');
        writing = writing.then(async () => {
          if (!options.byteByByte) socket.write(bytes);
          else
            for (const byte of bytes) {
              if (socket.destroyed) return;
              socket.write(Buffer.of(byte));
              await new Promise((resolve) => setImmediate(resolve));
            }
          if (options.closeAfter) socket.end();
        });
      }
    });
  };
  const server: Server = options.tls
    ? createTls({ key: readFileSync(join(TLS_DIR, 'server.key')), cert: readFileSync(join(TLS_DIR, 'server.pem')) }, onConnection)
    : createNet(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  const { port } = server.address() as AddressInfo;
  return { url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`, connections: () => connections, requests };
}

function client(base: string, options: { caFile?: string } = {}): HttpClient {
  const http = new HttpClient(base, { timeoutMs: 5000, maxResponseBytes: 1 << 20, maxConcurrency: 1, ...options });
  open.push({ close: () => http.close() });
  return http;
}

/** A GET, a POST with a JSON body, a second POST: each answered after an interim answer, on one kept-alive connection. */
async function exchangeThree(http: HttpClient): Promise<void> {
  const first = await http.send({ method: 'GET', path: '/api/v1/user/me' });
  expect(first.status).toBe(200);
  expect(first.json).toEqual({ data: { method: 'GET', path: '/api/v1/user/me', body: null } });
  const second = await http.send({ method: 'POST', path: '/api/v1/authenticate', json: { email: 'a@example.com', password: 'secret-1' } });
  expect(second.status).toBe(201);
  expect(second.json).toEqual({ data: { method: 'POST', path: '/api/v1/authenticate', body: { email: 'a@example.com', password: 'secret-1' } } });
  const third = await http.send({ method: 'POST', path: '/api/v1/user/logout', json: {} });
  expect(third.status).toBe(201);
}

describe('interim 1xx answers before the final one', () => {
  it('reads through an unasked 100 Continue before every answer, and keeps the connection', async () => {
    const target = await rawTarget(echo);
    await exchangeThree(client(target.url));
    expect(target.requests).toEqual(['GET /api/v1/user/me', 'POST /api/v1/authenticate', 'POST /api/v1/user/logout']);
    expect(target.connections()).toBe(1);
  });

  it('reads through several interim answers in a row (100, 102, 103 with header fields, HTTP/1.0), the final one intact', async () => {
    const body = { data: { text: 'HTTP/1.1 100 Continue\r\n\r\n' } };
    const target = await rawTarget(() => `${CONTINUE}HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\nHTTP/1.0 100 Continue\r\n\r\n${CONTINUE}${json(200, body)}`);
    const http = client(target.url);
    for (let i = 0; i < 2; i++) {
      const answer = await http.send({ method: 'POST', path: '/x', json: { i } });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual(body);
    }
  });

  it('reads through them when they arrive one byte at a time, and before a chunked final answer', async () => {
    const chunked = (text: string) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;
    const target = await rawTarget((method, path) => `${CONTINUE}HTTP/1.1 103 Early Hints\r\n\r\n${chunked(JSON.stringify({ data: { method, path } }))}`, { byteByByte: true });
    const http = client(target.url);
    expect((await http.send({ method: 'POST', path: '/a', json: { a: 1 } })).json).toEqual({ data: { method: 'POST', path: '/a' } });
    expect((await http.send({ method: 'GET', path: '/b' })).json).toEqual({ data: { method: 'GET', path: '/b' } });
    expect(target.connections()).toBe(1);
  });

  it('reads through a 100 Continue before a close-delimited HTTP/1.0 answer', async () => {
    const target = await rawTarget(() => `${CONTINUE}HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{"data":{"ok":true}}`, { closeAfter: true });
    const http = client(target.url);
    expect((await http.send({ method: 'POST', path: '/a', json: {} })).json).toEqual({ data: { ok: true } });
    expect((await http.send({ method: 'POST', path: '/b', json: {} })).json).toEqual({ data: { ok: true } });
  });

  it('hands undici a large final answer after an interim one byte for byte, through its pauses (back-pressure)', async () => {
    const text = 'x'.repeat(900 * 1024);
    const target = await rawTarget(() => `${CONTINUE}${json(200, { data: { text } })}`);
    const http = client(target.url);
    for (let i = 0; i < 2; i++) expect((await http.send({ method: 'POST', path: '/a', json: { i } })).json).toEqual({ data: { text } });
    expect(target.connections()).toBe(1);
  });

  it('reads through them over TLS', async () => {
    const target = await rawTarget(echo, { tls: true });
    await exchangeThree(client(target.url, { caFile: CA_FILE }));
  });

  it('reads through them in the tunnel of a CONNECT proxy', async () => {
    const target = await rawTarget(echo);
    const proxy = await startProxy();
    open.push(proxy);
    const saved = { ...process.env };
    Object.assign(process.env, proxyEnv(proxy.url));
    let http: HttpClient;
    try {
      http = client(target.url.replace('127.0.0.1', 'api.test'));
    } finally {
      for (const name of Object.keys(proxyEnv(undefined))) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
    await exchangeThree(http);
    expect(proxy.connects).toEqual([`api.test:${new URL(target.url).port}`]);
  });

  it('leaves an unasked 101 Switching Protocols to undici: a transport failure, never read as the answer', async () => {
    const target = await rawTarget(() => `HTTP/1.1 101 Switching Protocols\r\nupgrade: h2c\r\nconnection: Upgrade\r\n\r\n${json(200, { data: {} })}`);
    const error = await client(target.url).send({ method: 'GET', path: '/a' }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/the target answered 101 Switching Protocols to a request that asked no upgrade/);
  });

  it('leaves an interim answer larger than undici\'s header bound to undici: refused as so large a final answer would be', async () => {
    const target = await rawTarget(() => `HTTP/1.1 100 Continue\r\nx-padding: ${'a'.repeat(MAX_INTERIM_BYTES)}\r\n\r\n${json(200, { data: {} })}`);
    const error = await client(target.url).send({ method: 'POST', path: '/a', json: {} }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/UND_ERR_HEADERS_OVERFLOW/);
  });

  it('leaves an interim answer with bare LF line endings to undici, which refuses it at once: no wait for a CRLF CRLF', async () => {
    const target = await rawTarget(() => `HTTP/1.1 103 Early Hints\nlink: </a>\n\nHTTP/1.1 200 OK\ncontent-length: 2\n\n{}`);
    const started = performance.now();
    const error = await client(target.url).send({ method: 'POST', path: '/a', json: {} }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/does not match the HTTP\/1\.1 protocol/);
    expect(performance.now() - started).toBeLessThan(2500);
  });

  // Principle 8: a target that never ends its interim answers holds neither the run nor its memory.
  it.each([
    ['an endless stream of interim answers', (socket: Socket) => socket.write('HTTP/1.1 102 Processing\r\n\r\n')],
    ['an interim answer whose header section never ends', (socket: Socket) => socket.write('HTTP/1.1 100 Continue\r\n', 'latin1', () => socket.write('x-more: y\r\n'))],
  ])('ends a request met by %s within its time-out', async (_what, drip) => {
    const sockets = new Set<Socket>();
    const server = createNet((socket) => {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      let timer: NodeJS.Timeout | undefined;
      socket.once('data', () => {
        timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : drip(socket)), 5);
      });
      socket.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))) });
    const http = new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 1000, maxResponseBytes: 1 << 20, maxConcurrency: 1 });
    open.push({ close: () => http.close() });
    const started = performance.now();
    const error = await http.send({ method: 'POST', path: '/a', json: {} }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/got no complete answer within 1000 ms/);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('interim answers and trailers kept for the security scan (round wb28, fix-wb28a)', () => {
  const chunkedWithTrailer = (text: string, trailer: string) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\ntrailer: x-reset-link\r\n\r\n${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n${trailer}\r\n`;

  it('hands each answer the interim answers read before it (status and fields), its own only, over one connection', async () => {
    let n = 0;
    const target = await rawTarget(() => {
      n++;
      return n === 1 ? `${CONTINUE}HTTP/1.1 103 Early Hints\r\nLink: </reset?token=abc>; rel=preload\r\nlink: </app.css>; rel=preload\r\n\r\n${json(200, { data: 1 })}` : json(200, { data: 2 });
    });
    const http = client(target.url);
    const first = await http.send({ method: 'POST', path: '/a', json: {} });
    expect(first.interim).toEqual([{ status: 100, headers: {} }, { status: 103, headers: { link: '</reset?token=abc>; rel=preload, </app.css>; rel=preload' } }]);
    const second = await http.send({ method: 'GET', path: '/b' });
    expect(second.interim).toEqual([]);
    expect(target.connections()).toBe(1);
    expect(fieldsOutsideHead(first)).toEqual({ 'link (interim 103)': '</reset?token=abc>; rel=preload, </app.css>; rel=preload' });
  });

  it('keeps them when they arrive one byte at a time, and at most MAX_KEPT_INTERIM of a long run', async () => {
    const many = Array.from({ length: MAX_KEPT_INTERIM + 3 }, (_, i) => `HTTP/1.1 102 Processing\r\nx-step: ${i}\r\n\r\n`).join('');
    const target = await rawTarget(() => `${many}${json(200, { data: 1 })}`, { byteByByte: true });
    const answer = await client(target.url).send({ method: 'GET', path: '/a' });
    expect(answer.json).toEqual({ data: 1 });
    expect(answer.interim.map((i) => i.headers['x-step'])).toEqual(Array.from({ length: MAX_KEPT_INTERIM }, (_, i) => String(i)));
  });

  it('hands each answer its trailer fields after a chunked body, named as trailers for the scan', async () => {
    const target = await rawTarget(() => `HTTP/1.1 103 Early Hints\r\nlink: </a.css>\r\n\r\n${chunkedWithTrailer('{"data":{"ok":true}}', 'X-Reset-Link: https://example.test/reset?token=abc\r\n')}`);
    const answer = await client(target.url).send({ method: 'GET', path: '/a' });
    expect(answer.json).toEqual({ data: { ok: true } });
    expect(answer.trailers).toEqual({ 'x-reset-link': 'https://example.test/reset?token=abc' });
    expect(fieldsOutsideHead(answer)).toEqual({ 'link (interim 103)': '</a.css>', 'x-reset-link (trailer)': 'https://example.test/reset?token=abc' });
  });

  it('keeps them through a CONNECT proxy\'s tunnel', async () => {
    const target = await rawTarget(() => `HTTP/1.1 103 Early Hints\r\nlink: </t>\r\n\r\n${json(200, { data: 1 })}`);
    const proxy = await startProxy();
    open.push(proxy);
    const saved = { ...process.env };
    Object.assign(process.env, proxyEnv(proxy.url));
    let http: HttpClient;
    try {
      http = client(target.url.replace('127.0.0.1', 'api.test'));
    } finally {
      for (const name of Object.keys(proxyEnv(undefined))) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
    const answer = await http.send({ method: 'GET', path: '/a' });
    expect(answer.interim).toEqual([{ status: 103, headers: { link: '</t>' } }]);
    expect(proxy.connects).toEqual([`api.test:${new URL(target.url).port}`]);
  });

  it('parseInterim reads a status line and fields, joining a repeated one', () => {
    expect(parseInterim(Buffer.from('HTTP/1.1 103 Early Hints\r\nLink: <a>\r\nLINK: <b>\r\nx-y:z\r\n\r\n', 'latin1'))).toEqual({ status: 103, headers: { link: '<a>, <b>', 'x-y': 'z' } });
  });
});

describe('interimLength: where an answer starts', () => {
  const bytes = (text: string) => Buffer.from(text, 'latin1');

  it('measures a complete interim answer, its header fields included', () => {
    expect(interimLength(bytes(`${CONTINUE}HTTP/1.1 200 OK\r\n`))).toBe(CONTINUE.length);
    const hints = 'HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n';
    expect(interimLength(bytes(`${hints}HTTP/1.1 204 No Content\r\n\r\n`))).toBe(hints.length);
    expect(interimLength(bytes('HTTP/1.0 199\r\n\r\n'))).toBe(16);
  });

  it('asks for more bytes while an interim answer is not complete', () => {
    for (const part of ['', 'H', 'HTTP/1.', 'HTTP/1.1 1', 'HTTP/1.1 10', 'HTTP/1.1 100', 'HTTP/1.1 100 Cont', 'HTTP/1.1 100 Continue\r\n\r']) expect(interimLength(bytes(part)), part).toBe(-1);
  });

  it('says 0 (pass it on) for a final answer, a 101, or anything that is no interim answer', () => {
    for (const text of ['HTTP/1.1 200 OK\r\n', 'HTTP/1.1 2', 'HTTP/1.1 101 Switching Protocols\r\n\r\n', 'HTTP/2 100\r\n\r\n', 'HTTP/1.1 1000 x\r\n\r\n', 'HTTP/1.1 10x\r\n\r\n', '<html>', 'http/1.1 100 Continue\r\n\r\n', 'HTTP/1.1  100\r\n\r\n']) {
      expect(interimLength(bytes(text)), text).toBe(0);
    }
  });

  it('passes on an interim answer with a bare LF (undici refuses it): never one running on into the final answer\'s head', () => {
    expect(interimLength(bytes('HTTP/1.1 103 Early Hints\nlink: </a>\n\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'))).toBe(0);
    expect(interimLength(bytes('HTTP/1.1 100 Continue\r\nx: y\n'))).toBe(0);
    expect(interimLength(bytes('HTTP/1.1 100 Continue\r\nx: y\r'))).toBe(-1);
  });

  it('passes on an interim answer larger than its bound, for undici to judge', () => {
    expect(interimLength(bytes(`HTTP/1.1 100 Continue\r\nx: ${'a'.repeat(MAX_INTERIM_BYTES)}`))).toBe(0);
    expect(interimLength(bytes(`HTTP/1.1 100 Continue\r\nx: ${'a'.repeat(MAX_INTERIM_BYTES)}\r\n\r\n`))).toBe(0);
  });
});
