import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { performance } from 'node:perf_hooks';
import type { SeenExchange } from './judge.js';

/**
 * A reverse proxy that passes every exchange through unchanged (method, path, query, headers and
 * body both ways, the status and its reason phrase) and hands a copy of each to `onExchange`. Only the
 * hop-by-hop headers of RFC 9110 (7.6.1) are not forwarded, as of any proxy, and `Host` names the target.
 * Bodies are copied only up to `maxBytes` each: a larger one streams through and is marked too large.
 */

export interface ProxyOptions {
  target: URL;
  host: string;
  port: number;
  maxBytes: number;
  timeoutMs: number;
  /** PEM CA certificates trusted for an https target, besides the system's (--ca). */
  ca?: string;
  onExchange(seen: SeenExchange): void;
}

export interface RunningProxy {
  url: string;
  /** Stops accepting connections and waits (at most `graceMs`) for the exchanges in flight. */
  close(graceMs?: number): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate', 'proxy-authorization']);

/** A bounded copy of a stream's bytes: stops copying (keeps counting) past `limit`. */
class BoundedCopy {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  tooLarge = false;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.tooLarge = true;
      this.chunks.length = 0;
    } else if (!this.tooLarge) this.chunks.push(chunk);
  }
  bytes(): Buffer | undefined {
    return this.tooLarge || this.size === 0 ? undefined : Buffer.concat(this.chunks);
  }
}

function forwardedHeaders(raw: string[], hostValue: string): OutgoingHttpHeaders | string[] {
  const connectionListed = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'connection') for (const name of raw[i + 1]!.split(',')) connectionListed.add(name.trim().toLowerCase());
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || connectionListed.has(name)) continue;
    out.push(raw[i]!, name === 'host' ? hostValue : raw[i + 1]!);
  }
  return out;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { target } = options;
  const prefix = target.pathname.replace(/\/+$/, '');
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  let seq = 0;
  const inFlight = new Set<Promise<void>>();
  /** The requests to the target still waiting for (or reading) their answer: stopping ends them. */
  const upstreams = new Set<ReturnType<typeof send>>();
  const STOPPED = 'the proxy stopped before the answer was whole';

  const handle = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    new Promise<void>((done) => {
      const started = performance.now();
      const seen: SeenExchange = { seq: ++seq, method: req.method ?? 'GET', url: req.url ?? '/', requestHeaders: req.headers, durationMs: 0, maxBytes: options.maxBytes };
      const requestCopy = new BoundedCopy(options.maxBytes);
      const responseCopy = new BoundedCopy(options.maxBytes);
      let finished = false;
      /** Why the client's request broke off, when it did. */
      let clientGone: string | undefined;
      const finish = (error?: string) => {
        if (finished) return;
        finished = true;
        if (error) seen.error = error;
        seen.requestBody = requestCopy.bytes();
        seen.requestTooLarge = requestCopy.tooLarge;
        seen.responseBody = responseCopy.bytes();
        seen.responseTooLarge = responseCopy.tooLarge;
        seen.durationMs = Math.round(performance.now() - started);
        try {
          options.onExchange(seen);
        } finally {
          done();
        }
      };
      const upstream = send(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port || undefined,
          method: req.method,
          path: `${prefix}${req.url ?? '/'}`,
          headers: forwardedHeaders(req.rawHeaders, target.host) as OutgoingHttpHeaders,
          timeout: options.timeoutMs,
          ...(options.ca ? { ca: [...rootCertificates, options.ca] } : {}),
        },
        (answer) => {
          seen.status = answer.statusCode;
          seen.responseHeaders = answer.headers;
          const raw = answer.rawHeaders;
          const headers: string[] = [];
          for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) headers.push(raw[i]!, raw[i + 1]!);
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
          answer.on('data', (chunk: Buffer) => {
            responseCopy.add(chunk);
            // A slow client slows the target's answer down rather than filling this process's memory.
            if (!res.write(chunk)) {
              answer.pause();
              res.once('drain', () => answer.resume());
            }
          });
          // A client gone away: the rest of the answer is still read (and judged), no longer waiting on it.
          res.once('close', () => answer.resume());
          answer.on('end', () => {
            res.end();
            finish();
          });
          answer.on('error', (error) => {
            res.destroy(error);
            finish(`the target's answer broke off: ${error.message}`);
          });
        },
      );
      upstreams.add(upstream);
      upstream.on('close', () => upstreams.delete(upstream));
      upstream.on('timeout', () => upstream.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
      upstream.on('error', (error) => {
        // The client gets what a gateway answers when its upstream fails; the report says why.
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`conformance proxy: the target ${target.origin} could not be reached (${error.message})\n`);
        } else res.destroy(error);
        // A client that went away mid-request is the client's story, not the target's.
        finish(error.message === STOPPED ? STOPPED : clientGone ? `the client went away before its request was whole (${clientGone})` : `the target could not be reached: ${error.message}`);
      });
      req.on('data', (chunk: Buffer) => requestCopy.add(chunk));
      req.pipe(upstream);
      req.on('error', (error) => {
        clientGone = error.message;
        upstream.destroy(error);
      });
    });

  const server: Server = createServer((req, res) => {
    const exchange = handle(req, res);
    inFlight.add(exchange);
    void exchange.finally(() => inFlight.delete(exchange));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    async close(graceMs = 5000) {
      server.close();
      server.closeIdleConnections();
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      // Past the grace, what still waits on the target is ended (and reported so): a slow target never
      // keeps a stopped proxy alive until its request timeout.
      for (const upstream of upstreams) upstream.destroy(new Error(STOPPED));
      server.closeAllConnections();
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    },
  };
}
