import { readFileSync } from 'node:fs';
import { createServer as createHttp, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './support.js';

/**
 * Small loopback stand-ins for what sits between the suite and a real deployment: a gateway (TLS,
 * path prefix, API key, redirects, a rate limiter, a guard in front of the hook) and a CONNECT proxy.
 */

const TLS_DIR = join(ROOT, 'test', 'fixtures', 'tls');
export const CA_FILE = join(TLS_DIR, 'ca.pem');

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  status: number;
  /** For a 201: the created record's id (data.id), when the answer carries one. */
  createdId?: string;
}

export interface GatewayOptions {
  /** The reference (or any loopback server) the gateway forwards to. */
  upstream: string;
  tls?: boolean;
  /** Only paths under this prefix reach the upstream (prefix stripped); others get an HTML 404. */
  prefix?: string;
  /** A header every request must carry, else a JSON 401 that is not the interface's (or the `refusal` given). */
  apiKey?: { name: string; value: string; refusal?: { status: number; type: string; body: string } };
  /** Paths (after the prefix) mapped to another upstream path, exactly as written. */
  rewrite?: Record<string, string>;
  /** These paths get an HTML 401 from the gateway itself. */
  guarded?: string[];
  /** Every request is answered 301 to this origin + path. */
  redirectTo?: string;
  /** Every n-th request is answered 429 with Retry-After: 0. */
  rateLimitEvery?: number;
  /** Requests whose path matches are always answered 429 with Retry-After: 0. */
  alwaysLimited?: RegExp;
  /** Answers to requests whose path matches are labelled with this Content-Encoding (the body as the upstream sent it). */
  relabel?: { path: RegExp; contentEncoding: string };
}

export interface Gateway {
  url: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const seen: SeenRequest[] = [];
  let count = 0;
  const upstream = new URL(options.upstream);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const answer = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, status });
      req.resume();
      res.writeHead(status, { 'content-type': type, ...headers }).end(body);
    };
    count++;
    let path = req.url!;
    if (options.redirectTo) return answer(301, 'text/html', '<html>Moved</html>', { location: `${options.redirectTo}${path}` });
    if (options.prefix) {
      if (!path.startsWith(`${options.prefix}/`)) return answer(404, 'text/html; charset=utf-8', '<!doctype html><title>404 Not Found</title>');
      path = path.slice(options.prefix.length);
    }
    if (options.guarded?.includes(path)) return answer(401, 'text/html', '<html><body>401 Authorization Required</body></html>');
    if (options.apiKey && req.headers[options.apiKey.name] !== options.apiKey.value) {
      const refusal = options.apiKey.refusal ?? { status: 401, type: 'application/json', body: '{"message":"Invalid API key"}' };
      return answer(refusal.status, refusal.type, refusal.body);
    }
    if (options.alwaysLimited?.test(path) || (options.rateLimitEvery && count % options.rateLimitEvery === 0)) {
      return answer(429, 'application/json', '{"message":"Too Many Requests"}', { 'retry-after': '0' });
    }
    path = options.rewrite?.[path] ?? path;
    const proxied = forward({ host: '127.0.0.1', port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } }, (upstreamRes) => {
      const entry: SeenRequest = { method: req.method!, path: req.url!, headers: req.headers, status: upstreamRes.statusCode! };
      seen.push(entry);
      const relabelled = options.relabel?.path.test(path) ? { 'content-encoding': options.relabel.contentEncoding } : {};
      res.writeHead(upstreamRes.statusCode!, { ...upstreamRes.headers, ...relabelled });
      if (upstreamRes.statusCode === 201) {
        const chunks: Buffer[] = [];
        upstreamRes.on('data', (chunk: Buffer) => chunks.push(chunk));
        upstreamRes.on('end', () => {
          try {
            entry.createdId = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: unknown } }).data.id);
          } catch {
            // not a record
          }
        });
      }
      upstreamRes.pipe(res);
    });
    proxied.on('error', () => res.destroy());
    req.pipe(proxied);
  };
  const server = options.tls
    ? createHttps({ cert: readFileSync(join(TLS_DIR, 'server.pem')), key: readFileSync(join(TLS_DIR, 'server.key')) }, handler)
    : createHttp(handler);
  const port = await listen(server);
  return { url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`, port, seen, close: () => closeServer(server) };
}

export interface Proxy {
  url: string;
  /** The host:port of every CONNECT the proxy received. */
  connects: string[];
  close(): Promise<void>;
}

/** A CONNECT proxy that reaches every host on 127.0.0.1 (the suite's self-tests stay on loopback), or refuses with 407. */
export async function startProxy(options: { refuse?: boolean } = {}): Promise<Proxy> {
  const connects: string[] = [];
  const server = createHttp((_req, res) => res.writeHead(502).end());
  server.on('connect', (req: IncomingMessage, socket, head: Buffer) => {
    connects.push(req.url!);
    socket.on('error', () => socket.destroy());
    if (options.refuse) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const port = Number(req.url!.split(':').pop());
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, connects, close: () => closeServer(server) };
}

/** Environment for a child run: only this proxy, whatever the machine's own settings are. */
export function proxyEnv(proxy: string | undefined, noProxy = ''): Record<string, string> {
  const value = proxy ?? '';
  return { HTTP_PROXY: value, http_proxy: value, HTTPS_PROXY: value, https_proxy: value, NO_PROXY: noProxy, no_proxy: noProxy };
}
