import { importPKCS8 } from 'jose';
import { MAX_CONFIG_FILE_BYTES, readBounded } from '../spec/bounded.js';
import type { Config } from './config.js';
import { ConfigError, roadOf } from './config.js';
import { HttpClient, TransportError, type ApiResponse } from './http.js';
import { quote } from '../spec/quote.js';
import { withoutCredentials } from './redact.js';

/** A redirect to another origin (issue 29): named as such, and never advised as the fix. */
export function redirectsElsewhere(location: URL, what: string, variable = 'BASE_URL'): string {
  return `configuration error: the target redirects to another host (${quote(withoutCredentials(location.origin))}; ${what}); the suite follows no redirect; if that host is really yours, set ${variable} to it yourself`;
}

/**
 * The preflight's part on the road to the target: BASE_URL answers as this interface (not a gateway,
 * a redirect or another path prefix), and the platform's private key can sign. Each problem is a
 * ConfigError: one line, exit code 2. The provider-state part is helpers/states/preflight.ts.
 */

const LOGOUT = '/api/v1/user/logout';
const AUTHENTICATE = '/api/v1/authenticate';

function describe(response: ApiResponse): string {
  return `${response.status} (${response.headers['content-type'] ?? 'no content type'})`;
}

/** Section 7: an unauthenticated logout answers 401 `{ error }`. */
function isInterfaceError(response: ApiResponse): boolean {
  const body = response.isJson ? (response.json as unknown) : undefined;
  return Boolean(body) && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string';
}

async function probe(http: HttpClient, path: string, json?: unknown): Promise<ApiResponse> {
  try {
    return await http.send({ method: 'POST', path, ...(json === undefined ? {} : { json }) });
  } catch (error) {
    if (error instanceof TransportError) throw new ConfigError(`target unreachable: ${error.message}`);
    throw error;
  }
}

/**
 * The harmless requests that prove BASE_URL answers as this interface: an unauthenticated logout
 * (section 4.5: 401 `{ error }`), and when that is 404, a login without credentials. Anything that
 * is plainly not the interface (a redirect, HTML, a gateway's 401) stops the run.
 */
async function proveTheApi(http: HttpClient, roadHeaders: Record<string, string> = {}): Promise<void> {
  const base = withoutCredentials(http.baseUrl);
  const redirected = (response: ApiResponse, path: string) => {
    if (response.status < 300 || response.status >= 400) return;
    const location = response.headers.location;
    // A redirect to the same path with a slash appended: no BASE_URL avoids it, the paths are the specification's.
    if (location && new URL(location, `${http.baseUrl}${path}`).href.replace(/[?#].*$/, '') === `${http.baseUrl}${path}/`) {
      throw new ConfigError(
        `configuration error: POST ${base}${path} answered ${response.status} to the same path with a trailing slash: the target or a gateway adds a slash to every path, which BASE_URL cannot fix (the interface's paths have none, and a POST is not repeated across a redirect); configure it to serve the paths as written`,
      );
    }
    let resolved: URL | undefined;
    try {
      resolved = location ? new URL(location, `${http.baseUrl}${path}`) : undefined;
    } catch {
      resolved = undefined;
    }
    if (location && !resolved) throw new ConfigError(`configuration error: BASE_URL redirects to a Location that is no URL (${quote(location)}; POST ${path} answered ${response.status}); the suite follows no redirect`);
    const target = resolved?.href.replace(new RegExp(`${path.replace(/\//g, '\\/')}\\/?$`), '');
    // Another origin is the target's choice, not the operator's: never advised (the run would send its
    // --header secrets and STATES_TOKEN there).
    if (resolved && resolved.origin !== new URL(http.baseUrl).origin) throw new ConfigError(redirectsElsewhere(resolved, `POST ${path} answered ${response.status}`));
    throw new ConfigError(`configuration error: BASE_URL redirects to ${target ? withoutCredentials(target) : '(no Location)'} on the same host (POST ${path} answered ${response.status}); use that`);
  };
  const logout = await probe(http, LOGOUT);
  redirected(logout, LOGOUT);
  const refusedByGateway = (response: ApiResponse) => (response.status === 401 || response.status === 403) && !isInterfaceError(response);
  if (refusedByGateway(logout)) {
    // A target may itself answer 401 in another shape (a nonconformance the suite reports); a gateway
    // refuses every request alike, a login without credentials too.
    const login = await probe(http, AUTHENTICATE, {});
    const sent = Object.keys(roadHeaders);
    if (refusedByGateway(login) && sent.length > 0) {
      throw new ConfigError(
        `configuration error: POST ${base}${LOGOUT} answered ${describe(logout)} without the interface's { error } body, and so did POST ${AUTHENTICATE}, although the run sent ${sent.join(', ')} (from --header / EXTRA_HEADERS): something in front of the API (a gateway) refused them; check ${sent.length > 1 ? 'their values' : 'its value'} and whether the gateway wants another header`,
      );
    }
    if (refusedByGateway(login)) {
      throw new ConfigError(
        `configuration error: POST ${base}${LOGOUT} answered ${describe(logout)} without the interface's { error } body, and so did POST ${AUTHENTICATE}: something in front of the API (a gateway) refused the requests; add the header it wants with --header 'Name: value' (EXTRA_HEADERS)`,
      );
    }
  }
  const noApi = (response: ApiResponse, path: string) => {
    redirected(response, path);
    // A rate limiter or a failing server says nothing about the path: name what it is.
    if (response.status === 429 || response.status >= 500) {
      const what = response.status === 429 ? 'is rate limiting (429)' : `is unavailable or failing (${response.status})`;
      return new ConfigError(`configuration error: BASE_URL ${base} ${what}: POST ${path} answered ${describe(response)} to the preflight; try again later, or lower --rate`);
    }
    return new ConfigError(`configuration error: no API of this interface at BASE_URL ${base}: POST ${path} answered ${describe(response)}; check the path prefix (BASE_URL ends where /api/v1 begins)`);
  };
  if (!logout.isJson) throw noApi(logout, LOGOUT);
  if (logout.status === 404 || logout.status === 405) {
    const login = await probe(http, AUTHENTICATE, {});
    if (!login.isJson || login.status === 404 || login.status === 405) throw noApi(login, AUTHENTICATE);
  }
}


/** Proves, with one or two harmless requests, that BASE_URL answers as this interface. */
export async function checkTheRoad(config: Config, baseUrl: string): Promise<void> {
  const road = roadOf(config);
  const http = new HttpClient(baseUrl, { timeoutMs: config.REQUEST_TIMEOUT_MS, maxResponseBytes: config.MAX_RESPONSE_BYTES, maxConcurrency: 1, ...road });
  try {
    await proveTheApi(http, road.headers ?? {});
  } finally {
    await http.close();
  }
}

/** The platform's private key (JWT_PRIVATE_KEY_FILE), when one is given, is a PKCS#8 RSA key that can sign RS512. */
export async function checkPlatformKey(config: Config): Promise<void> {
  if (!config.JWT_PRIVATE_KEY_FILE) return;
  let pem: string;
  try {
    pem = readBounded(config.JWT_PRIVATE_KEY_FILE, MAX_CONFIG_FILE_BYTES, 'JWT_PRIVATE_KEY_FILE').toString('utf8');
  } catch (error) {
    throw new ConfigError(`configuration error: ${(error as Error).message}`);
  }
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem)) {
    throw new ConfigError(`configuration error: JWT_PRIVATE_KEY_FILE ${config.JWT_PRIVATE_KEY_FILE} is encrypted; decrypt it once with \`openssl pkcs8 -topk8 -nocrypt -in ${config.JWT_PRIVATE_KEY_FILE} -out platform-key.pem\` (it asks for the passphrase) and set JWT_PRIVATE_KEY_FILE to that file`);
  }
  try {
    await importPKCS8(pem, 'RS512');
  } catch {
    throw new ConfigError(`configuration error: JWT_PRIVATE_KEY_FILE ${config.JWT_PRIVATE_KEY_FILE} is not a PKCS#8 PEM RSA private key; export it with \`openssl pkcs8 -topk8 -nocrypt\``);
  }
}
