import { Readable } from 'node:stream';
import type { Group } from '../../helpers/spec/catalogue.js';
import type { Mutation, ResponseTransform } from '../mutation.js';
import type { Mutant } from './types.js';

/**
 * Reading round 1 (issue 28): choices the specification leaves open, each taken the other way from
 * the reference, as independent teams (PHP/Laravel, Java behind an HTTP/1.0 proxy, Go) would take them
 * reading the specification and docs/provider-states.md alone. Every one is an allowed reading: it
 * must survive, the suite judging the reference conformant with it.
 */

const LOGIN = 'POST /api/v1/authenticate';
const JWT = 'POST /api/v1/authenticate-jwt/{platform}';
const BALANCE_ROUTES = ['GET /api/v1/user/{user}/balances/nft', 'GET /api/v1/user/{user}/balances/nft/{asset}', 'GET /api/v1/user/{user}/balances', 'GET /api/v1/user/{user}/balances/{asset}'];
const BANK_LIST = 'GET /api/v1/user/{user}/bank';
const BANK_SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const BANK_DELETE = 'DELETE /api/v1/user/{user}/bank/{bank}';
const BONUS_LIST = 'GET /api/v1/user/{user}/bonus';
const BONUS_SHOW = 'GET /api/v1/user/{user}/bonus/{bonus}';
const BONUS_SUMMARY_URL = '/api/v1/user/:user/bonus/assets/:asset?';

/** A server-wide reading changes every answer: every group's tests judge it. */
const EVERYWHERE: Mutant['judgedBy'] = { groups: 'all', clauses: 'all' };

function reading(name: string, group: Group, clause: string, description: string, mutation: Mutation, judgedBy: Mutant['judgedBy'] = { clauses: 'all' }): Mutant {
  return { name, group, clause, description, mutation, allowed: true, ...(judgedBy ? { judgedBy } : {}) };
}

/** The same change of the body on each route's answers of `status`. */
function onRoutes(routes: readonly string[], status: number | undefined, apply: ResponseTransform['apply']): ResponseTransform[] {
  return routes.map((route) => ({ route, ...(status !== undefined ? { status } : {}), apply }));
}

/** Rewrites the parsed JSON of every answer (or the answers of `url`) and sends it again as JSON text. */
function rewriteJson(change: (body: any, status: number, url: string) => unknown, text: (value: unknown) => string = (value) => JSON.stringify(value)): Mutation['wire'] {
  return (answer) => {
    let body: unknown;
    try {
      body = JSON.parse(answer.payload);
    } catch {
      return undefined;
    }
    const changed = change(body, answer.status, answer.url);
    return text(changed === undefined ? body : changed);
  };
}

/** PHP's json_encode defaults: `/` written `\/`, every non-ASCII character as a `\uXXXX` escape (UTF-16 units). */
function phpEscapes(json: string): string {
  return json.replace(/\//g, '\\/').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Object keys in alphabetical order at every depth (Jackson's SORT_PROPERTIES_ALPHABETICALLY, Go's map encoding). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
  return value;
}

/** A decimal string with `digits` fractional digits (at most 25, section 1.5), value unchanged. */
function padDecimal(value: unknown, digits: number): unknown {
  if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value)) return value;
  const places = Math.min(25, digits);
  const [whole, fraction = ''] = value.split('.');
  if (fraction.length >= places || places === 0) return value;
  return `${whole}.${fraction.padEnd(places, '0')}`;
}

/** Message texts as another framework words them; the one text section 5.6 quotes is kept. */
const OTHER_WORDS: Record<string, string> = {
  'Unauthenticated.': 'Unauthenticated',
  'Your account is inactive.': 'This account is inactive.',
  'The provided credentials are incorrect.': 'These credentials do not match our records.',
  'Your account is locked.': 'Account locked.',
  'The JWT payload is invalid.': 'Invalid token payload.',
  'The JWT has expired.': 'Token has expired.',
  'The bank has been deleted.': 'Bank deleted successfully',
  'This bank has been used in previous actions and cannot be deleted.': 'The bank cannot be deleted because it was already used.',
  'We have emailed your password reset link.': 'We have e-mailed your password reset link!',
  'We have emailed your password reset code.': 'We have e-mailed your password reset code!',
  'Your password has been reset.': 'Your password has been reset!',
};

function reword(body: any): void {
  if (!body || typeof body !== 'object') return;
  for (const holder of [body, body.data]) {
    if (!holder || typeof holder !== 'object' || Array.isArray(holder)) continue;
    for (const key of ['error', 'message']) if (typeof holder[key] === 'string' && OTHER_WORDS[holder[key]]) holder[key] = OTHER_WORDS[holder[key]];
    if (typeof holder.error === 'string' && /^Too many login attempts/.test(holder.error)) holder.error = 'Too Many Attempts.';
  }
  // Validation: Laravel 5-8's summary text; the errors map is kept.
  if (body.errors && typeof body.message === 'string') body.message = 'The given data was invalid.';
  // Logout's status.
  if (typeof body.status === 'string' && Object.keys(body).length === 1) body.status = 'Successfully logged out';
}

export const readingsR1Mutants: Mutant[] = [
  // ---- Authentication (2.1, 1.4, 4.1, 4.2, 5.5, 8)
  reading('allowed-r1-session-times-plus-00-00', 'authentication', '1', 'until and created written with +00:00 for UTC (PHP\u2019s DATE_RFC3339_EXTENDED-like `Y-m-d\\TH:i:s.uP`), both logins; 1.4 says only "ISO 8601 UTC with microseconds"', {
    transforms: onRoutes([LOGIN, JWT], 200, (body) => {
      for (const field of ['until', 'created']) body.data[field] = String(body.data[field]).replace(/Z$/, '+00:00');
    }),
  }),
  reading('allowed-r1-session-extra-members', 'authentication', '2.1', 'the Session also carries tokenType "Bearer", expiresIn and abilities ["*"] (2.1 lists the fields it has, not that it has no others)', {
    transforms: onRoutes([LOGIN, JWT], 200, (body) => {
      Object.assign(body.data, { tokenType: 'Bearer', expiresIn: body.data.ttl, abilities: ['*'] });
    }),
  }),
  reading('allowed-r1-login-account-state-before-password', 'authentication', '5', 'a locked (423) or inactive (401) account is answered so before its password is checked, so also with a wrong password (5.5 and 7 give no precedence)', { deviation: 'login.account-state-before-password' }),
  reading('allowed-r1-login-success-keeps-failure-count', 'authentication', '8', 'a successful login does not reset the failed-login count of the window (8: "threshold and duration are not shown")', { deviation: 'login.success-keeps-failures' }),
  reading('allowed-r1-jwt-not-restricted-by-password-failures', 'authentication', '4.1', 'failed password logins restrict the password login (425) but not the platform JWT login, another credential (5.5 and 8 do not say whose failures restrict which login)', { deviation: 'jwt.password-failures-not-restricting' }),

  // ---- Server-wide: texts, input normalisation, HTTP and JSON encodings (1, 7)
  reading('allowed-r1-message-texts-other-words', 'authentication', '7', 'every error and success text in other words (Laravel\u2019s "These credentials do not match our records.", "The given data was invalid.", "Too Many Attempts.", logout status "Successfully logged out"...), keeping 5.6\u2019s quoted "This action is unauthorized." and "inactive" (7 gives formats, not texts)', {
    wire: rewriteJson((body) => reword(body)),
  }, EVERYWHERE),
  reading('allowed-r1-trim-input-strings', 'authentication', '4.2', 'outer whitespace of JSON string inputs (e-mail, token, bank fields; not passwords) is trimmed before validation, as Laravel\u2019s TrimStrings middleware does (4.2, 4.10 and 8 state no normalisation)', { deviation: 'r1.trim-input-strings' }, EVERYWHERE),
  reading('allowed-r1-json-php-escapes', 'bonuses', '1', 'JSON written as PHP\u2019s json_encode does by default: "/" as "\\/" and non-ASCII as \\uXXXX escapes (1.2: "JSON"; RFC 8259 allows both)', {
    wire: (answer) => phpEscapes(answer.payload),
  }, EVERYWHERE),
  reading('allowed-r1-json-keys-sorted', 'bonuses', '1', 'object keys sorted alphabetically at every depth (Jackson SORT_PROPERTIES_ALPHABETICALLY; JSON objects are unordered, 1.2)', {
    wire: rewriteJson((body) => sortKeys(body)),
  }, EVERYWHERE),
  reading('allowed-r1-http-close-delimited', 'authentication', '1', 'answers without Content-Length and not chunked, ended by closing the connection (Connection: close), as an HTTP/1.0 proxy in front of a Java server sends them (1 says JSON over HTTP, no framing)', {
    wire: (answer, reply) => {
      reply.raw.useChunkedEncodingByDefault = false;
      reply.header('connection', 'close');
      return Readable.from([Buffer.from(answer.payload)]);
    },
  }, EVERYWHERE),
  reading('allowed-r1-http-chunked', 'balances', '1', 'answers sent with Transfer-Encoding: chunked in two chunks, no Content-Length (a streaming JSON writer; 1 says nothing of framing)', {
    wire: (answer) => {
      const half = Math.floor(answer.payload.length / 2);
      return Readable.from([Buffer.from(answer.payload.slice(0, half)), Buffer.from(answer.payload.slice(half))]);
    },
  }, EVERYWHERE),
  reading('allowed-r1-content-type-charset-upper', 'banks', '1', 'every answer labelled "application/json;charset=UTF-8" (Spring\u2019s form: no space, upper-case charset; 1.2 names the media type only)', { contentType: 'application/json;charset=UTF-8' }, EVERYWHERE),
  reading('allowed-r1-extra-headers-and-cookies', 'authentication', '1', 'every answer carries extra headers: X-Powered-By, Cache-Control: no-cache, private, X-RateLimit-Limit/Remaining, Vary: Accept and Laravel\u2019s XSRF-TOKEN and session cookies (1 lists what clients send, not what answers may add)', {
    wire: (_answer, reply) => {
      reply.header('x-powered-by', 'PHP/8.3.4');
      reply.header('cache-control', 'no-cache, private');
      reply.header('x-ratelimit-limit', '60');
      reply.header('x-ratelimit-remaining', '59');
      reply.header('vary', 'Accept');
      reply.header('set-cookie', ['XSRF-TOKEN=eyJpdiI6InIxIn0%3D; expires=Thu, 26 Nov 2026 01:00:00 GMT; Max-Age=7200; path=/; samesite=lax', 'account_api_session=eyJpdiI6InIyIn0%3D; expires=Thu, 26 Nov 2026 01:00:00 GMT; Max-Age=7200; path=/; httponly; samesite=lax']);
    },
  }, EVERYWHERE),

  // ---- Balances (4.6-4.9, 5.6)
  reading('allowed-r1-balances-other-user-409', 'balances', '5', 'another user\u2019s balances answer 409 "This action is unauthorized." instead of 403 (5.6: "403 or 409"; 4.6-4.9 document both)', {
    transforms: onRoutes(BALANCE_ROUTES, 403, (body) => (body?.message === 'This action is unauthorized.' ? { status: 409 } : undefined)),
  }),
  reading('allowed-r1-balances-all-coins-zero-filled', 'balances', '4.8', 'the coin list shows every coin of the platform, the ones not held with zero amounts, and a coin not held is shown (200) with zero amounts (4.8/4.9 say "a user\u2019s balances per asset", not only held ones)', { deviation: 'balances.all-coins-zero-filled' }),

  // ---- Banks (4.10, 5.6, 8)
  reading('allowed-r1-bank-other-user-403', 'banks', '5', 'another user\u2019s bank list, show and delete answer 403 "This action is unauthorized." instead of 409 (5.6: "403 or 409"; 4.10 documents 403 for each)', {
    transforms: onRoutes([BANK_LIST, BANK_SHOW, BANK_DELETE], 409, () => ({ status: 403 })),
  }),
  reading('allowed-r1-bank-list-oldest-first', 'banks', '4.10', 'the bank list is in creation order, oldest first (4.10 gives no order)', {
    transforms: onRoutes([BANK_LIST], 200, (body) => {
      body.data.reverse();
    }),
  }),
  reading('allowed-r1-bank-currency-any-case', 'banks', '4.10', 'currency "eur" is the ISO code EUR, accepted and stored upper-case; the currency filter likewise (4.10: "a valid ISO currency code", letter case not stated)', { deviation: 'banks.currency-case-insensitive' }),
  reading('allowed-r1-bank-iban-taken-after-delete', 'banks', '8', 'a deleted bank\u2019s IBAN stays taken (unique over every bank ever stored; 4.10/8 say "unique" and nothing of deleted banks)', { deviation: 'banks.iban-taken-after-delete' }),
  reading('allowed-r1-bank-platform-filter-code-id-or-name', 'banks', '4.10', 'company and platform match a bank whose platform has that code, ID or name (4.10 names the filters only)', { deviation: 'banks.platform-filter-code-id-or-name' }),

  // ---- Bonuses (4.11, 1.5, 2.5a, 2.5b)
  reading('allowed-r1-bonus-amounts-padded', 'bonuses', '1', 'bonus amount and value written with the asset\u2019s precision (at most 25) fractional digits, "0.00012300" (1.5: decimal strings of up to 25 fractional digits)', {
    transforms: [
      ...onRoutes([BONUS_LIST], 200, (body) => {
        for (const bonus of body.data) for (const field of ['amount', 'value']) bonus[field] = padDecimal(bonus[field], Number(bonus.asset.precision));
      }),
      ...onRoutes([BONUS_SHOW], 200, (body) => {
        for (const field of ['amount', 'value']) body.data[field] = padDecimal(body.data[field], Number(body.data.asset.precision));
      }),
    ],
  }),
  reading('allowed-r1-bonus-summary-amount-exponent', 'bonuses', '1', 'the summary amounts written in exponent form, as PHP writes small floats ("amount":1.23E-5; 1.5 says JSON numbers)', {
    wire: (answer) => (answer.url === BONUS_SUMMARY_URL ? answer.payload.replace(/"amount":(-?\d+\.\d+)/g, (_, n: string) => `"amount":${Number(n).toExponential().replace('e', 'E')}`) : undefined),
  }),
  reading('allowed-r1-bonus-empty-filter-422', 'bonuses', '4.11', 'status= or platform= given empty is refused 422 "The status field must have a value." (4.11: optional; an empty value is not an absent one)', { deviation: 'bonuses.empty-filter-422' }),

  // ---- Records of another user (5.6, 7)
  reading('allowed-r1-foreign-record-409', 'banks', '5', 'another user\u2019s bank, card or bonus id shown under one\u2019s own {user} answers 409 "This action is unauthorized." (5.6: access to another user\u2019s resources) instead of 404 (7: no record found); 404 stays for ids nobody has', { deviation: 'records.foreign-unauthorized' }, { groups: ['banks', 'cards', 'bonuses'], clauses: 'all' }),

  // ---- Cards (4.6a, 2.5)
  reading('allowed-r1-card-text-trimmed-nfc', 'cards', '4.6a', 'card text fields trimmed of outer whitespace and stored in Unicode NFC (4.6a and 2.5 state no normalisation)', { deviation: 'cards.text-trimmed-nfc' }),
];
