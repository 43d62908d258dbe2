/**
 * Failed logins and the brute-force restriction (sections 5.5 and 8, docs/judging.md: the scope of counters).
 * Section 8 says repeated failed logins lead to a temporary restriction (425) and gives neither its threshold nor
 * whose failures count: per account, per client address, per platform. A target that counts per address (say 10
 * failures in 10 minutes from one address, any account) answers every later login of the run 425. So the suite keeps
 * its failed logins few and spread over fresh accounts, says how many it sent, and a test that met a 425 it did not
 * provoke is not verified, with RESTRICTED_REASON, never failed.
 */

/**
 * The most failed logins a run sends one account, outside the brute-force tests that provoke the restriction on
 * purpose (docs/judging.md, "Failed logins"). Through a provider-state hook every test that fails a login gets a fresh
 * account, so one account meets at most this many; from a STATES_FILE the leases hold each account to it per run
 * (helpers/states/leases.ts), and a test that finds no account with room left is not verified, with the reason.
 */
export const FAILED_LOGINS_PER_ACCOUNT = 2;

/** Why a test that met an unprovoked 425 is not verified. */
export const RESTRICTED_REASON = 'not verified: the target answered a login 425 that this test did not provoke; the target restricts logins; its threshold or scope is not the suite\u2019s to know (section 8). Fewer failed logins before it (run the tests that fail logins alone, or last) or a fresh client address gives the test its turn';

/** The path of a login request (either flow of section 5.1), or undefined. `url` may carry a base path before /api/v1. */
export function loginRoute(method: string, url: string): 'password' | 'jwt' | undefined {
  if (method.toUpperCase() !== 'POST') return undefined;
  let path: string;
  try {
    path = new URL(url, 'http://target.invalid').pathname;
  } catch {
    return undefined;
  }
  if (/\/api\/v1\/authenticate\/?$/.test(path)) return 'password';
  if (/\/api\/v1\/authenticate-jwt\/[^/]+\/?$/.test(path)) return 'jwt';
  return undefined;
}

/**
 * A login the target refused as a login (any 4xx but 422, whose request never reached the credentials): what a
 * brute-force counter may count, whoever's failure it counts.
 */
export function isFailedLogin(exchange: { request: { method: string; url: string }; response?: { status: number } }): boolean {
  const status = exchange.response?.status;
  return loginRoute(exchange.request.method, exchange.request.url) !== undefined && status !== undefined && status >= 400 && status < 500 && status !== 422;
}

/** A login answered 425: the restriction, provoked or not. */
export function isRestrictedLogin(exchange: { request: { method: string; url: string }; response?: { status: number } }): boolean {
  return exchange.response?.status === 425 && loginRoute(exchange.request.method, exchange.request.url) !== undefined;
}

/**
 * The refused password logins of some exchanges, counted per account (its e-mail address, in lower case; a body
 * without an e-mail is not counted): what a brute-force counter per account would count.
 */
export function failedLoginsPerAccount(exchanges: readonly { request: { method: string; url: string; body?: unknown }; response?: { status: number } }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const exchange of exchanges) {
    if (!isFailedLogin(exchange) || loginRoute(exchange.request.method, exchange.request.url) !== 'password') continue;
    const body = exchange.request.body;
    const email = body && typeof body === 'object' ? (body as { email?: unknown }).email : undefined;
    if (typeof email !== 'string' || email === '') continue;
    const key = email.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
