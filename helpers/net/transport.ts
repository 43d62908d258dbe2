import { readFileSync } from 'node:fs';
import { MAX_CONFIG_FILE_BYTES, readBounded } from '../spec/bounded.js';
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { interimRecorder, interimTolerantFactory } from './interim.js';

/**
 * The road to a target or hook: which dispatcher carries the requests (direct, or through the
 * proxy of HTTP_PROXY / HTTPS_PROXY unless NO_PROXY exempts the host), which CA certificates are
 * trusted, and the extra headers a gateway wants. Loopback addresses are never proxied.
 */
export interface RoadOptions {
  timeoutMs: number;
  connections?: number;
  /** PEM file of CA certificates trusted besides the system's (CA_FILE / --ca). */
  caFile?: string;
  keepAliveTimeout?: number;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1)$/i;

export function isLoopback(url: string): boolean {
  try {
    return LOOPBACK.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'];

/** The proxy a request to this URL goes through, or undefined when it goes direct. */
export function proxyFor(url: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (isLoopback(url)) return undefined;
  const https = url.toLowerCase().startsWith('https:');
  const proxy = https ? (env.https_proxy ?? env.HTTPS_PROXY ?? env.http_proxy ?? env.HTTP_PROXY) : (env.http_proxy ?? env.HTTP_PROXY);
  if (!proxy) return undefined;
  const noProxy = (env.no_proxy ?? env.NO_PROXY ?? '').split(/[\s,]+/).filter(Boolean);
  const { hostname, port } = new URL(url);
  for (const entry of noProxy) {
    if (entry === '*') return undefined;
    const [host, entryPort] = entry.replace(/^\*?\./, '.').split(':');
    if (entryPort && entryPort !== port) continue;
    if (hostname === host?.replace(/^\./, '') || (host?.startsWith('.') && hostname.endsWith(host))) return undefined;
  }
  return proxy;
}

const caCache = new Map<string, string[]>();

/**
 * What Node trusts by default: its bundled CAs and those of NODE_EXTRA_CA_CERTS (which Node itself
 * ignores once `ca` is given explicitly).
 */
function defaultCas(env: NodeJS.ProcessEnv = process.env): string[] {
  const extraFile = env.NODE_EXTRA_CA_CERTS;
  let extra: string[] = [];
  if (extraFile) {
    try {
      extra = [readFileSync(extraFile, 'utf8')];
    } catch {
      // Node warns about an unreadable NODE_EXTRA_CA_CERTS itself; --ca still applies.
    }
  }
  return [...rootCertificates, ...extra];
}

/** The default CAs (bundled and NODE_EXTRA_CA_CERTS) plus every certificate of the file: a private CA is added, never a replacement. */
export function trustedCas(caFile: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const key = `${caFile}\n${env.NODE_EXTRA_CA_CERTS ?? ''}`;
  let cas = caCache.get(key);
  if (!cas) {
    cas = [...defaultCas(env), readBounded(caFile, MAX_CONFIG_FILE_BYTES, 'CA file').toString('utf8')];
    caCache.set(key, cas);
  }
  return cas;
}

/**
 * A dispatcher for requests to `url`: through the environment's proxy unless loopback or NO_PROXY. Its connections read
 * through interim 1xx answers (interim.ts), direct or through the proxy's tunnel.
 */
export function dispatcherFor(url: string, options: RoadOptions): Dispatcher {
  const tls = options.caFile ? { ca: trustedCas(options.caFile) } : {};
  const common = {
    keepAliveTimeout: options.keepAliveTimeout ?? 4_000,
    ...(options.connections ? { connections: options.connections } : {}),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs, ...tls },
    factory: interimTolerantFactory,
  };
  const proxied = !isLoopback(url) && PROXY_VARIABLES.some((name) => process.env[name]);
  // Round wb28 (fix-wb28a): a request whose opaque is an InterimBox is handed the interim answers read through (interim.ts).
  return (proxied ? new EnvHttpProxyAgent({ ...common, requestTls: tls }) : new Agent(common)).compose(interimRecorder);
}

export const TLS_CODES = /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE|ERR_SSL_.*|EPROTO)$/;
