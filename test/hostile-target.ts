import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A hostile target of our own (issue 29): a loopback proxy in front of the embedded reference that
 * rewrites a correct implementation's answers to attack whoever runs the suite. What it plants
 * (in the NFT records' `type`, quoted by an advisory, and a coin record's `symbol`, quoted by a failure):
 * line breaks with workflow commands, terminal escapes (clear screen, OSC 52 clipboard, OSC 8 link,
 * a CSI in C1 form), a bare CR painting a forged verdict, bidi controls and markup, in a field that
 * advisories and failures quote; 100000 nested arrays; hook answers that are such text, or endless;
 * and a redirect to another host.
 */

export const PAYLOAD =
  'nft\n::error::planted-by-target\n::stop-commands::hijack\n::add-mask::x\r\u001b[2J\u001b]52;c;aGVsbG8=\u0007\u001b]8;;http://evil.test/\u0007link\u001b]8;;\u0007\u009b31m\rVerdict: conformant\u202eevil\u2066\u200f\u061c\u2028<script>alert(1)</script>\u007f\u0085';

/** Every control character a target may not bring into an output (line feed and tab are the outputs' own layout). */
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export interface HostileOptions {
  /** The embedded reference. */
  upstream: string;
  /** Its provider-state hook; the proxy serves it at /hook. */
  statesUrl: string;
  /** Plant PAYLOAD in the `type` of every NFT record, and answer an NFT's own record with 100000 nested arrays. */
  poisonAnswers?: boolean;
  /** These states are answered 500 with PAYLOAD as plain text. */
  hookText?: string[];
  /** These states are answered 200 with an endless stream (stopped after this many bytes, or when the suite hangs up). */
  hookStream?: { states: string[]; bytes: number };
  /** Every request of the target is answered 301 to this other origin. */
  redirectTo?: string;
}

export interface Hostile {
  url: string;
  hookUrl: string;
  /** Bytes the endless hook answers sent before the suite hung up. */
  streamed: number;
  close(): Promise<void>;
}

const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

function poison(value: unknown): void {
  const pending = [value];
  while (pending.length > 0) {
    const inner = pending.pop();
    if (!inner || typeof inner !== 'object') continue;
    if (!Array.isArray(inner) && 'type' in inner) (inner as Record<string, unknown>).type = PAYLOAD;
    pending.push(...Object.values(inner));
  }
}

export async function startHostile(options: HostileOptions): Promise<Hostile> {
  const upstream = new URL(options.upstream);
  const states = new URL(options.statesUrl);
  const self: Hostile = { url: '', hookUrl: '', streamed: 0, close: async () => undefined };

  const relay = (req: IncomingMessage, res: ServerResponse, path: string, body: Buffer, rewrite?: (text: string) => string) => {
    const proxied = forward({ host: '127.0.0.1', port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host, 'accept-encoding': 'identity' } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const out = rewrite && answer.statusCode === 200 ? rewrite(text) : text;
        const headers = { ...answer.headers };
        delete headers['content-length'];
        res.writeHead(answer.statusCode!, headers).end(out);
      });
    });
    proxied.on('error', () => res.destroy());
    proxied.end(body);
  };

  const hook = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    let state = '';
    try {
      state = String((JSON.parse(body.toString('utf8')) as { state?: unknown }).state);
    } catch {
      // not a state request: relayed as it is
    }
    if (options.hookText?.includes(state)) return void res.writeHead(500, { 'content-type': 'text/plain' }).end(PAYLOAD);
    if (options.hookStream?.states.includes(state)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && self.streamed < options.hookStream!.bytes) {
          self.streamed += chunk.length;
          if (!res.write(chunk)) return;
        }
        if (!res.destroyed) res.end();
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      return pump();
    }
    relay(req, res, states.pathname, body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url!;
      if (path === '/hook') return hook(req, res, body);
      if (options.redirectTo) return void res.writeHead(301, { location: `${options.redirectTo}${path}`, 'content-type': 'text/html' }).end('<html>Moved</html>');
      if (options.poisonAnswers && /\/balances\/nft\/[^/?]+/.test(path)) return void res.writeHead(200, { 'content-type': 'application/json' }).end(DEEP);
      if (options.poisonAnswers && /\/balances\/(?!nft\b|coin\b)[^/?]+$/.test(path)) {
        return relay(req, res, path, body, (text) => {
          const document = JSON.parse(text) as { data?: { symbol?: unknown } };
          if (document.data) document.data.symbol = PAYLOAD;
          return JSON.stringify(document);
        });
      }
      if (options.poisonAnswers && /\/balances\/nft(\?|$)/.test(path)) {
        return relay(req, res, path, body, (text) => {
          const document = JSON.parse(text) as unknown;
          poison(document);
          return JSON.stringify(document);
        });
      }
      relay(req, res, path, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  self.url = `http://127.0.0.1:${port}`;
  self.hookUrl = `${self.url}/hook`;
  self.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return self;
}
