import { ROUTE, answered, claimsOf } from './make.js';
import type { Mutant } from './types.js';
import { ALL, only, reading } from './reading.js';
import { authorizationReadAs } from './round-wb20.js';

/**
 * review-aj's findings, registered as allowed readings (each was a failure of a point the text leaves open):
 * - F1: `Authorization: Bearer Bearer <token>` read as the token issued. 5.3 gives the header's form, not how a header
 *   that holds the scheme twice is parsed; Laravel's Request::bearerToken() takes what follows the LAST "Bearer " (strrpos),
 *   and Sanctum's guard reads its token from it, so an unmodified Laravel + Sanctum target answers 200. The header carries
 *   the real token, so only its holder can send it. Round wb20 had registered it as the deviation
 *   wb20-bearer-scheme-twice-accepted; the access table now advises on it (a security note).
 * - F2: expire read as Unix seconds kept in a signed 32-bit integer: a value past 2147483647 (January 2038) is refused
 *   412. The near-expiry check sent a JWT in milliseconds (near the year 57 900 read as seconds) and required a Session;
 *   4.1 gives no upper bound nor a range, and the suite already advised on 2045 for that reason.
 * - F3: a limiter keyed by the e-mail sent, reused by the JWT login, restricts (425) a JWT naming a throttled account by
 *   e-mail and lets one naming it by id in. Whose failures count is open (5.5, 8). The reference's deviation
 *   jwt-id-claim-throttle-ignored did exactly that; it is this reading now.
 * - F4: a missing `expire` compared before it is required (PHP: `null < time()`) answers 416 (expired), as `true` or `[]`
 *   cast to a past time already may; no precedence between 412 and 416 is given.
 */
export const probesReviewAjMutants: Mutant[] = [
  reading(
    'allowed-review-aj-bearer-scheme-twice-last-read',
    'authentication',
    '5',
    'Authorization: Bearer Bearer <token> is read as the token that follows the last "Bearer " (Laravel\u2019s Request::bearerToken(), strrpos), the token issued: 5.3 gives the header\u2019s form, not how a header holding the scheme twice is parsed; a security note, never a failure',
    authorizationReadAs((h) => {
      const m = /^Bearer\s+Bearer\s+(.+)$/i.exec(h);
      return m ? `Bearer ${m[1]}` : undefined;
    }),
    ALL,
  ),
  reading(
    'allowed-review-aj-jwt-expire-seconds-32-bit',
    'authentication',
    '4.1',
    'expire read as Unix seconds kept in a signed 32-bit integer: a value past 2147483647 (January 2038) is no timestamp it can hold, refused as an invalid payload (412); 4.1 gives "expire (required, timestamp, must be now or later)", no range',
    answered(ROUTE.jwt, 200, (_body, request) => {
      const expire = claimsOf(request)?.expire;
      const seconds = typeof expire === 'number' ? expire : typeof expire === 'string' && /^[0-9]+$/.test(expire) ? Number(expire) : undefined;
      if (seconds === undefined || seconds <= 2147483647) return;
      return { status: 412, body: { error: 'The JWT payload is invalid: expire is out of range.' } };
    }),
    only('authentication'),
  ),
  reading(
    'allowed-review-aj-jwt-throttle-keyed-by-email',
    'authentication',
    '5',
    'an account restricted after brute-force detection is refused 425 through a JWT naming it by email and logs in through one naming it by id: the login limiter is keyed by the e-mail sent (Laravel\u2019s ThrottlesLogins, lower(email)|ip), and 5.5 and 8 do not say whose failures count',
    { deviation: 'jwt.id-claim-throttle-ignored' },
    only('authentication'),
  ),
  reading(
    'allowed-review-aj-jwt-missing-expire-expired',
    'authentication',
    '4.1',
    'expire compared before it is required, as PHP compares null < time() (true): a JWT payload without expire is answered 416 (expired), as expire [] or true cast to a past time may be; no precedence between 412 and 416 is given',
    answered(ROUTE.jwt, 412, (_body, request) => {
      const claims = claimsOf(request);
      if (!claims || typeof claims !== 'object' || 'expire' in claims) return;
      return { status: 416, body: { error: 'The JWT has expired.' } };
    }),
    only('authentication'),
  ),
];
