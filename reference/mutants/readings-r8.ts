import { Readable } from 'node:stream';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { ALL, gzippedAs, isSessionAnswer, only, onSuccess, parse, reading, recordsOf } from './reading.js';

/**
 * Reading round 8 (issue 28): implementation choices the specification leaves open, each taken the
 * other way from the reference, as a Go/chi team behind an nginx ingress, a .NET minimal-API team
 * behind Azure API Management or a Python FastAPI team on uvicorn, reading only the specification and
 * docs/provider-states.md, would take them. Written without reading the suite. None repeats a reading
 * of rounds 1 to 7 or of the groups' own `allowed-*` mutants. Each description quotes the text that
 * leaves the point open. Readings that need the server's own data are deviations (`r8.*`) the modules
 * (or app.ts, for the server-wide ones) honour; the rest change answers only. Run against the suite: 38 of 39
 * stay conformant and are registered; the one refused is kept in `readingsR8Refused` below.
 */

const BANK_URLS = ['/api/v1/user/:user/bank', '/api/v1/user/:user/bank/:bank'];
const CARD_URLS = ['/api/v1/user/:user/card', '/api/v1/user/:user/card/:card'];
const BONUS_URLS = ['/api/v1/user/:user/bonus', '/api/v1/user/:user/bonus/:bonus'];
const SUMMARY_URL = '/api/v1/user/:user/bonus/assets/:asset?';
const BALANCE_URLS = ['/api/v1/user/:user/balances/nft', '/api/v1/user/:user/balances/nft/:asset', '/api/v1/user/:user/balances', '/api/v1/user/:user/balances/:asset'];
const AUTH_URLS = ['/api/v1/authenticate', '/api/v1/authenticate-jwt/:platform'];

/** Each JSON error answer (4xx) changed by `change`, which returns the new body (or undefined to leave it). */
function onError(change: (body: any, answer: WireAnswer) => unknown) {
  return {
    wire(answer: WireAnswer) {
      if (answer.status < 400 || answer.payload === '') return undefined;
      const body = parse(answer.payload);
      if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
      const changed = change(body, answer);
      return changed === undefined ? undefined : JSON.stringify(changed);
    },
  };
}

/** The sum of decimal strings, exactly (BigInt on a common scale), written with the largest scale of the terms. */
function decimalSum(values: unknown[]): string | undefined {
  const terms = values.filter((v): v is string => typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));
  if (terms.length !== values.length) return undefined;
  const scale = Math.max(0, ...terms.map((t) => (t.split('.')[1] ?? '').length));
  const total = terms.reduce((sum, t) => {
    const [whole, fraction = ''] = t.replace('-', '').split('.') as [string, string?];
    const value = BigInt(whole + fraction.padEnd(scale, '0'));
    return sum + (t.startsWith('-') ? -value : value);
  }, 0n);
  const digits = (total < 0n ? -total : total).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return total < 0n ? `-${text}` : text;
}

/** Custom reason phrases, as an nginx ingress passes on a Go service's own `w.WriteHeader` texts or APIM rewrites them. */
const PHRASES: Record<number, string> = {
  200: 'Success',
  201: 'Resource Created',
  400: 'Malformed Request',
  401: 'Authentication Required',
  403: 'Access Denied',
  404: 'No Such Record',
  405: 'Method Refused',
  409: 'Policy Conflict',
  412: 'Token Payload Invalid',
  413: 'Body Too Large',
  415: 'Media Type Refused',
  416: 'Token Expired',
  422: 'Validation Failed',
  423: 'Account Locked',
  425: 'Login Restricted',
  429: 'Slow Down',
  500: 'Server Fault',
};

/** OAuth 2.0 (RFC 6749 5.2, RFC 6750 3.1) style error codes for the `{ error }` answers. */
function oauthCode(status: number, url: string): string {
  if (status === 401) return AUTH_URLS.includes(url) ? 'account_inactive' : 'invalid_token';
  if (status === 403) return 'invalid_grant';
  if (status === 412) return 'invalid_request';
  if (status === 416) return 'expired_token';
  if (status === 423) return 'account_locked';
  if (status === 425) return 'temporarily_unavailable';
  return 'invalid_request';
}

/** C0 and C1 control characters (and DEL), which a sanitiser removes from stored text. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** A JSON number's text with its fraction padded to at least `digits` digits (a BigDecimal with a scale); exponent forms are left alone. */
function scaledNumber(text: string, digits: number): string {
  if (/[eE]/.test(text)) return text;
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  return `${whole}.${fraction.padEnd(digits, '0')}`;
}

const readingsR8Written: Mutant[] = [
  // ---- HTTP framing, codings, status lines and headers (1: "JSON-over-HTTP interface"; no transport rule is given)
  reading(
    'allowed-r8-chunks-split-inside-utf8',
    'authentication',
    '1',
    'every answer is sent chunked (no Content-Length) in chunks of 7 bytes, cut without regard to characters, so a multi-byte UTF-8 character (`é`, `€`, an emoji) is split between two chunks, as a Go handler that flushes a bufio.Writer of a small size behind an nginx ingress with proxy_buffering off sends it (1: "a JSON-over-HTTP interface"; 1.2: "Requests and responses are JSON": no framing is given; RFC 9112 7.1: chunks are octets, and the content is their concatenation)',
    {
      wire(answer, reply) {
        if (answer.payload === '') return undefined;
        reply.removeHeader('content-length');
        const bytes = Buffer.from(answer.payload, 'utf8');
        const chunks: Buffer[] = [];
        for (let at = 0; at < bytes.length; at += 7) chunks.push(bytes.subarray(at, at + 7));
        return Readable.from(chunks);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r8-json-leading-newline',
    'authentication',
    '1',
    'every JSON answer begins with a line break before its value (`\\n{"data":...}`), as a PHP include with a blank line before `<?php`, or a template-rendered .NET answer, writes it (1.2: "Requests and responses are JSON"; RFC 8259 2: "JSON-text = ws value ws": insignificant white space may precede the value)',
    {
      wire(answer) {
        return answer.payload === '' || parse(answer.payload) === undefined ? undefined : `\n${answer.payload}`;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r8-custom-reason-phrases',
    'authentication',
    '7',
    'every status line carries the service\u2019s own reason phrase ("HTTP/1.1 422 Validation Failed", "403 Access Denied", "201 Resource Created", "425 Login Restricted"), as a Go handler\u2019s own texts passed on by an nginx ingress, or an API Management policy\u2019s set-status reason, give it (7 gives statuses by number only; RFC 9112 4: "A client SHOULD ignore the reason-phrase content because it is not a reliable channel for information")',
    {
      wire(answer, reply) {
        reply.raw.statusMessage = PHRASES[answer.status] ?? 'Answered';
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r8-header-names-upper-case',
    'authentication',
    '1',
    'every header field the service sets is written with an upper-case name (`CONTENT-TYPE: application/json; charset=utf-8`, `CONTENT-LENGTH: 57`), as a hand-written Go ResponseWriter wrapper or an old API gateway policy emits it (1.2: "Clients send the headers Content-Type: application/json and Accept: application/json": a header named, not its letter case; RFC 9110 5.1: "Field names are case-insensitive")',
    {
      wire(_answer, reply) {
        const raw = reply.raw as unknown as { writeHead: (...args: unknown[]) => unknown; getHeaderNames(): string[]; getHeader(name: string): unknown; removeHeader(name: string): void };
        const original = raw.writeHead;
        raw.writeHead = function writeHead(this: typeof raw, code: unknown, reason?: unknown, headers?: unknown) {
          if (reason !== null && typeof reason === 'object') [headers, reason] = [reason, undefined];
          const upper: Record<string, unknown> = {};
          for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>)) upper[name.toUpperCase()] = value;
          for (const name of this.getHeaderNames()) {
            upper[name.toUpperCase()] = this.getHeader(name);
            this.removeHeader(name);
          }
          return typeof reason === 'string' ? original.call(this, code, reason, upper) : original.call(this, code, upper);
        };
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r8-x-gzip-coding',
    'authentication',
    '1',
    'answers are gzip-compressed and labelled with the coding\u2019s older name, `Content-Encoding: x-gzip` (with `Vary: Accept-Encoding`), whenever the request\u2019s Accept-Encoding allows gzip or is absent, as an old Apache mod_deflate or a hand-configured gateway labels it (1.2 is silent on content codings; RFC 9110 8.4.1.3: "A recipient SHOULD consider x-gzip to be equivalent to gzip"; 12.5.3: without Accept-Encoding "any content coding is considered acceptable")',
    { wire: gzippedAs('x-gzip', ['x-gzip', 'gzip']) },
    ALL,
  ),
  reading(
    'allowed-r8-close-after-errors',
    'authentication',
    '1',
    'the connection is kept alive after a success and closed after every error answer (4xx: `Connection: close`, then the server closes), as Go\u2019s net/http or Kestrel closes a connection whose request it refused, so a client\u2019s pool holds live and closed connections in turn (1 names no transport rule; RFC 9112 9.6: a server that sends "close" closes the connection after the answer, and the client must not send further requests on it)',
    {
      wire(answer, reply) {
        if (answer.status >= 400) reply.header('connection', 'close');
        return undefined;
      },
    },
    ALL,
  ),
  reading(
    'allowed-r8-content-type-spaced-empty-parameter',
    'authentication',
    '1',
    'every answer labelled `application/json ; charset=utf-8 ;`: white space before each semicolon and an empty parameter after the last, as a PHP `header()` string or an APIM set-header policy written by hand gives it (1.2: "Requests and responses are JSON"; RFC 9110 8.3.1: "parameters = *( OWS \\";\\" OWS [ parameter ] )": white space around the semicolon and an empty parameter are both in the grammar)',
    { contentType: 'application/json ; charset=utf-8 ;' },
    ALL,
  ),
  reading(
    'allowed-r8-retry-after-http-date-on-425',
    'authentication',
    '8',
    'a 425 carries `Retry-After` as an HTTP-date (`Retry-After: Thu, 26 Nov 2026 08:33:18 GMT`, when the restriction ends) rather than a number of seconds, as ASP.NET\u2019s rate limiter with a fixed window end or an APIM policy writes it; the body is unchanged (5.5 and 8: "the threshold and duration are not shown"; RFC 9110 10.2.3: "Retry-After = HTTP-date / delay-seconds")',
    {
      wire(answer, reply) {
        if (answer.status !== 425) return undefined;
        const seconds = Number(/(\d+) seconds?/.exec(answer.payload)?.[1] ?? 900);
        reply.header('retry-after', new Date(Date.now() + seconds * 1000).toUTCString());
        return undefined;
      },
    },
    only('authentication'),
  ),
  reading(
    'allowed-r8-rate-limit-429-burst',
    'authentication',
    '8',
    'a rate limiter in front of the service (nginx `limit_req`, an API Management rate-limit policy) answers 429 `{ message: "Too Many Attempts." }` with `Retry-After: 1` to a client address once it sent 20 requests of the interface within one second; slower clients are never limited (8: "Rate limits and pagination of list endpoints: not shown"; RFC 6585 4: 429 Too Many Requests)',
    { deviation: 'r8.rate-limit-burst' },
    ALL,
  ),

  // ---- Times and clocks (1.4, 2.1)
  reading(
    'allowed-r8-session-times-mixed-offset-forms',
    'authentication',
    '2.1',
    'a Session\u2019s `created` is written with the offset `+00:00` (as the database driver gives the stored row, Python\u2019s datetime.isoformat() of an aware UTC time) and its `until` with `Z` (as computed in the application), both with microseconds: `"created":"2026-11-26T08:18:18.891157+00:00","until":"2026-11-26T10:18:18.891157Z"` (1.4: "The authentication response uses ISO 8601 UTC strings with microseconds (until, created)": each is such a string; that both use one form is not given)',
    {
      wire(answer) {
        if (!isSessionAnswer(answer)) return undefined;
        const body = parse(answer.payload);
        if (typeof body?.data?.created !== 'string') return undefined;
        body.data.created = body.data.created.replace(/Z$/, '+00:00');
        return JSON.stringify(body);
      },
    },
    ALL,
  ),
  reading(
    'allowed-r8-server-clock-three-seconds-ahead',
    'authentication',
    '1',
    'the server\u2019s clock runs 3 seconds ahead of the client\u2019s (a container host without NTP): every time it shows or compares (a Session\u2019s `created` and `until`, `createdAt`, a JWT\u2019s `expire`, a token\u2019s expiry, the brute-force window) is its own, consistently (1.4: "Timestamps ... are integers (Unix seconds)"; 4.1: "expire (required, timestamp, must be now or later)": the server\u2019s now; nothing says whose clock, nor that two machines agree to the second)',
    { deviation: 'r8.clock-ahead' },
    ALL,
  ),
  reading(
    'allowed-r8-server-clock-three-seconds-behind',
    'authentication',
    '1',
    'the server\u2019s clock runs 3 seconds behind the client\u2019s: every time it shows or compares (a Session\u2019s `created` and `until`, `createdAt`, a JWT\u2019s `expire`, a token\u2019s expiry) is its own, consistently (1.4: "Timestamps ... are integers (Unix seconds)"; 4.1: "expire ... must be now or later": the server\u2019s now; nothing says whose clock, nor that two machines agree to the second)',
    { deviation: 'r8.clock-behind' },
    ALL,
  ),

  // ---- Error bodies (7 names the members each format has, not that it has no others; no texts)
  reading(
    'allowed-r8-validation-fastapi-detail',
    'banks',
    '7',
    'a 422 also carries FastAPI\u2019s `detail` list beside `message` and `errors`: one entry `{ loc: ["body", <field>], msg, type: "value_error" }` per message, as a FastAPI team that keeps its framework\u2019s RequestValidationError shape and adds the documented one writes it (7: "Validation (422): { message: string, errors: { <field_name>: [string, ...] } }": the members it has, not that it has no others)',
    onError((body, answer) => {
      if (answer.status !== 422 || !body.errors || typeof body.errors !== 'object') return undefined;
      const detail = Object.entries(body.errors as Record<string, unknown>).flatMap(([field, messages]) => (Array.isArray(messages) ? messages : [messages]).map((msg) => ({ loc: ['body', field], msg, type: 'value_error' })));
      return { ...body, detail };
    }),
    ALL,
  ),
  reading(
    'allowed-r8-auth-errors-oauth-codes',
    'authentication',
    '7',
    'every `{ error }` answer (authentication failures and 401) gives an OAuth 2.0 style code as `error` ("invalid_grant" for 403, "account_locked" for 423, "temporarily_unavailable" for 425, "invalid_token" for a protected endpoint\u2019s 401, "expired_token" for 416, "invalid_request" for 412) and the sentence as `error_description`, as a .NET team on Microsoft.Identity conventions (RFC 6749 5.2, RFC 6750 3.1) writes it (7: "{ error: string } for authentication failures and for 401 on protected endpoints": a string, its text not given)',
    onError((body, answer) => {
      if (typeof body.error !== 'string') return undefined;
      return { ...body, error: oauthCode(answer.status, answer.url), error_description: body.error };
    }),
    ALL,
  ),

  // ---- Precedence of errors where none is given
  reading(
    'allowed-r8-record-lookup-before-owner',
    'banks',
    '7',
    'a show of a bank, card or bonus id that no record has answers 404 "No query results" before the path\u2019s owner and the caller\u2019s account are checked (route-model binding resolves `{bank}` first), so also on another user\u2019s path (not 403/409) and for an inactive caller (not 403) (7: "404 | bank show, bonus show, card show | no record found"; "403 | bank, bonus, card | account inactive"; "409 | ... | action unauthorized": no precedence among them is given)',
    { deviation: 'r8.record-lookup-before-owner' },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-r8-login-account-state-before-validation',
    'authentication',
    '4.2',
    'a login naming a locked or inactive account is answered 423 or 401 before its body is validated, so also when its password breaks the length rule or its 2fa is not 6 digits (the handler loads the user by e-mail first, then validates) (4.2: "Errors: 401, 403, 423, 425"; 8: limits "enforced as validation errors, status 422": no precedence between an account\u2019s state and a field\u2019s rule is given)',
    { deviation: 'r8.account-state-before-validation' },
    only('authentication'),
  ),
  reading(
    'allowed-r8-card-validation-before-owner',
    'cards',
    '4.6a',
    'card create reads and validates its form before it checks the path\u2019s owner and the caller\u2019s account (the multipart body is bound first, as ASP.NET\u2019s [FromForm] binding or FastAPI\u2019s Form/File parameters are resolved before the handler): an invalid form on another user\u2019s path, or from an inactive account, is 422; a valid one is then refused 409 or 403 (4.6a: "Errors: create 401, 403, 422": no order among them)',
    { deviation: 'r8.card-validation-before-owner' },
    only('cards'),
  ),

  // ---- Filters (4.6, 4.8, 4.10, 4.11, 4.6a name them and nothing more)
  reading(
    'allowed-r8-empty-filters-match-nothing',
    'banks',
    '4.10',
    'a filter given with an empty value (`status=`, `currency=`, `company=`, `platform=`, `assets[]=`) is a filter for the empty value, which no record has: the list is empty, as FastAPI binds `status: str | None = None` to "" and compares it (4.10: "query: status, currency, company, platform (all optional filters, strings)"; 4.6a and 4.11 the same; 4.6/4.8: "assets[] (optional, repeatable; asset symbols to return)": an empty string is a string, and what it matches is not given)',
    {
      wire(answer, reply) {
        if (answer.status !== 200 || answer.method !== 'GET') return undefined;
        const query = (reply.request.query ?? {}) as Record<string, unknown>;
        const empty = (value: unknown) => value === '' || (Array.isArray(value) && value.length > 0 && value.every((item) => item === ''));
        const lists = [...BANK_URLS.slice(0, 1), ...CARD_URLS.slice(0, 1), ...BONUS_URLS.slice(0, 1)];
        if (lists.includes(answer.url) && ['status', 'currency', 'company', 'platform'].some((name) => empty(query[name]))) return JSON.stringify({ data: [] });
        if (answer.url === '/api/v1/user/:user/balances/nft' && empty(query['assets[]'])) return JSON.stringify({ data: [] });
        if (answer.url === '/api/v1/user/:user/balances' && empty(query['assets[]'])) {
          const body = parse(answer.payload);
          return JSON.stringify({ ...body, data: { ...(body?.data ?? {}), coins: [] } });
        }
        return undefined;
      },
    },
    only('banks', 'cards', 'bonuses', 'balances'),
  ),
  reading(
    'allowed-r8-balances-unknown-asset-filter-422',
    'balances',
    '4.8',
    '`assets[]` naming a symbol the service does not know at all is refused 422 keyed by `assets`, "The selected asset XYZ is invalid." (a validated query model, as FastAPI with an Enum of symbols or a .NET validator does); a known symbol the user does not hold is filtered as before (4.6 and 4.8: "assets[] (optional, repeatable; asset symbols to return)": what an unknown symbol gets is not given; 7: "422 ... invalid field")',
    { deviation: 'r8.unknown-asset-filter-422' },
    only('balances'),
  ),

  // ---- Text storage and normalisation (2.4, 2.5, 4.10, 4.6a state none)
  reading(
    'allowed-r8-texts-control-characters-removed',
    'banks',
    '2.4',
    'bank and card texts (`bankName`, `holderName`, `alias`) are stored without control characters (C0, DEL and C1: a tab, a line feed, U+0085 removed), as an input sanitiser (bluemonday, a .NET AntiXss policy) cleans them (2.4/2.5 and 4.10/4.6a: "bankName | max 191", "holderName | max 191", "alias | max 191": no normalisation of what is stored is stated, and nothing says a record repeats the characters sent)',
    onSuccess([...BANK_URLS, ...CARD_URLS], (body) => {
      for (const record of recordsOf(body)) for (const key of ['bankName', 'holderName', 'alias']) if (typeof record?.[key] === 'string') record[key] = record[key].replace(CONTROLS, '');
    }),
    only('banks', 'cards'),
  ),
  reading(
    'allowed-r8-card-texts-inner-space-collapsed',
    'cards',
    '2.5',
    'a card\u2019s `holderName` and `alias` are stored with every inner run of white space made one space ("JOHN   A  SMITH" as "JOHN A SMITH"; outer white space kept), as a card-holder name is normalised for embossing (2.5: "holderName | string", "alias | string"; 4.6a: "max 191": no normalisation is stated)',
    onSuccess(CARD_URLS, (body) => {
      for (const record of recordsOf(body)) for (const key of ['holderName', 'alias']) if (typeof record?.[key] === 'string') record[key] = record[key].replace(/(?<=\S)\s+(?=\S)/g, ' ');
    }),
    only('cards'),
  ),
  reading(
    'allowed-r8-lengths-in-utf16-units',
    'banks',
    '8',
    'the 191-character limits of `bankName`, `holderName` and `alias` count UTF-16 code units, as a .NET `[MaxLength(191)]` or `string.Length` counts them: a character outside the BMP (an emoji) counts two, so 96 emoji are refused and 95 pass (8: "bank.bankName | max 191", "card.holderName, card.alias | max 191": what a character is, a UTF-16 `char`, a code point or a grapheme, is not given)',
    { deviation: 'r8.lengths-in-utf16-units' },
    only('banks', 'cards'),
  ),

  // ---- Credentials
  reading(
    'allowed-r8-password-nfkc',
    'authentication',
    '4.2',
    'passwords are stored and compared in Unicode NFKC, as NIST SP 800-63B 5.1.1.2 recommends ("the verifier SHOULD apply the Normalization Process for Stabilized Strings using either the NFKC or NFKD normalization"): a password sent in another normalisation of the same text (`e\\u0301` for `\\u00e9`, full-width `\\uff21` for `A`) is the same password; letter case still counts (4.2: "password | string | yes | min 8, max 191"; nothing says how two passwords compare)',
    { deviation: 'r8.password-nfkc' },
    only('authentication', 'password'),
  ),
  reading(
    'allowed-r8-reset-password-must-change',
    'password',
    '4.4',
    'reset-password refuses the account\u2019s current password as the new one: 422 keyed by `password`, "The new password must be different from the current password." (a password history of one, as ASP.NET Identity or a Django validator configures it) (4.4: "password | string | yes | min 8, max 191"; 8: "reset password | min 8, max 191": limits, not that every password within them is accepted; the reading r5 "strength policy" is of the same kind)',
    { deviation: 'r8.reset-password-must-change' },
    only('password'),
  ),
  reading(
    'allowed-r8-jwt-id-any-case',
    'authentication',
    '4.1',
    'a JWT\u2019s `id` claim is compared as a UUID, letter case ignored (a `uuid` column, .NET\u2019s Guid.Parse): `"id":"8D6A..."` names the user `8d6a...` (4.1: "id (string, user ID)"; 1.6: user IDs are "UUID string"; RFC 9562 4: UUIDs are "case insensitive on input")',
    { deviation: 'r8.jwt-id-any-case' },
    only('authentication'),
  ),
  reading(
    'allowed-r8-jwt-expire-number-only',
    'authentication',
    '4.1',
    'a JWT\u2019s `expire` is a timestamp only as a JSON number (Unix seconds, as `exp` is a NumericDate in RFC 7519); a string, also one of digits ("1764125000"), is no timestamp: the payload is invalid (412) (4.1: "expire (required, timestamp, must be now or later)": its JSON type is not given)',
    { deviation: 'r8.jwt-expire-number-only' },
    only('authentication'),
  ),

  // ---- Records: members beyond the ones listed (2.2, 2.5a-2.7 list the fields a record has, not that it has no others)
  reading(
    'allowed-r8-amount-sets-extra-members',
    'balances',
    '2.2',
    'each amount set of a balance record (`amounts.crypto`, `amounts.fiat`) also carries `total` (the exact sum of the six amounts, a decimal string) and `locked: "0"`, as a wallet service\u2019s DTO adds them (2.2: "Amount set: the six decimal-string fields available, vesting, staking, pending, payment, reserve": the fields it has, not that it has no others)',
    onSuccess(BALANCE_URLS, (body) => {
      for (const record of recordsOf(body)) {
        for (const kind of ['crypto', 'fiat']) {
          const set = record?.amounts?.[kind];
          if (!set || typeof set !== 'object') continue;
          const total = decimalSum(['available', 'vesting', 'staking', 'pending', 'payment', 'reserve'].map((key) => set[key]));
          if (total !== undefined) set.total = total;
          set.locked = '0';
        }
      }
    }),
    only('balances'),
  ),
  reading(
    'allowed-r8-nested-objects-extra-members',
    'bonuses',
    '2.7',
    'nested objects carry members beyond the listed ones: a bonus\u2019s `user` also `name: null` and `kycLevel: 1`; its `order` also `updatedAt` (Unix seconds); every asset summary (bonus `asset`, order `fromAsset`/`toAsset`, summary `asset`) also `icon` (a URL); a balance record\u2019s `chain` also `standard` (null for a coin); each NFT `properties` item also `display_type: null` (OpenSea metadata); a summary entry also `total: { bonuses, amount }` (2.3, 2.5b, 2.6, 2.7 and 2.2 list each object\u2019s members, not that it has no others)',
    {
      wire(answer) {
        if ((answer.status !== 200 && answer.status !== 201) || answer.method !== 'GET') return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        const icon = (asset: any) => {
          if (asset && typeof asset === 'object' && typeof asset.symbol === 'string') asset.icon = `https://static.example.test/icons/${asset.symbol.toLowerCase()}.svg`;
        };
        if (BONUS_URLS.includes(answer.url)) {
          for (const bonus of recordsOf(body)) {
            if (bonus?.user && typeof bonus.user === 'object') Object.assign(bonus.user, { name: null, kycLevel: 1 });
            if (bonus?.order && typeof bonus.order === 'object') {
              bonus.order.updatedAt = bonus.order.createdAt;
              icon(bonus.order.fromAsset);
              icon(bonus.order.toAsset);
            }
            icon(bonus?.asset);
          }
        } else if (answer.url === SUMMARY_URL && Array.isArray(body.data)) {
          for (const entry of body.data) {
            icon(entry?.asset);
            const parts = ['distributed', 'pending', 'canceled'].map((status) => entry?.[status]).filter((s) => s && typeof s === 'object');
            if (parts.length === 3) entry.total = { bonuses: parts.reduce((n, s) => n + Number(s.bonuses), 0), amount: parts.reduce((n, s) => n + Number(s.amount), 0) };
          }
        } else if (BALANCE_URLS.includes(answer.url)) {
          for (const record of recordsOf(body)) {
            if (record?.chain && typeof record.chain === 'object') record.chain.standard = record.type === 'nft' ? 'ERC-721' : null;
            if (Array.isArray(record?.properties)) for (const item of record.properties) if (item && typeof item === 'object') item.display_type = null;
          }
        } else return undefined;
        return JSON.stringify(body);
      },
    },
    only('bonuses', 'balances'),
  ),
  reading(
    'allowed-r8-balance-meta-more-keys',
    'balances',
    '2.2',
    'a coin\u2019s `meta` also carries `explorer` (a URL) and `max_supply`, and its `links` also `reddit` and `telegram`; an NFT\u2019s `meta` also `collection` (2.2: "meta | object | May be empty. Keys seen: image, url, owner, creator; for coins also genesis_date, links (object with website, github, facebook, twitter), total_supply": keys seen, not the only keys)',
    onSuccess(BALANCE_URLS, (body) => {
      for (const record of recordsOf(body)) {
        const meta = record?.meta;
        if (!meta || typeof meta !== 'object' || Array.isArray(meta)) continue;
        if (record.type === 'nft') meta.collection = `${String(record.name ?? 'collection')} Collection`;
        else {
          meta.explorer = `https://explorer.example.test/${String(record.symbol ?? '').toLowerCase()}`;
          meta.max_supply = null;
          if (meta.links && typeof meta.links === 'object') Object.assign(meta.links, { reddit: 'https://www.reddit.com/r/cryptocurrency', telegram: 'https://t.me/example' });
        }
      }
    }),
    only('balances'),
  ),
  reading(
    'allowed-r8-links-null-when-absent',
    'balances',
    '2.2',
    'a coin without a Facebook page or a Twitter account shows `facebook: null` and `twitter: null` in `meta.links` (the links a CoinGecko-fed service keeps as nullable columns) (2.2: "links (object with website, github, facebook, twitter)": the keys are named, their types are not given)',
    onSuccess(BALANCE_URLS, (body) => {
      for (const record of recordsOf(body)) {
        const links = record?.meta?.links;
        if (links && typeof links === 'object') Object.assign(links, { facebook: null, twitter: null });
      }
    }),
    only('balances'),
  ),
  reading(
    'allowed-r8-genesis-date-as-date-time',
    'balances',
    '2.2',
    'a coin\u2019s `meta.genesis_date` is written as an ISO 8601 date-time at midnight UTC (`2009-01-03T00:00:00.000Z`), as a .NET DateTime or a JavaScript Date column serialises a date (2.2: "genesis_date (date string)": a string holding the date; its writing is not given)',
    onSuccess(BALANCE_URLS, (body) => {
      for (const record of recordsOf(body)) {
        const meta = record?.meta;
        if (meta && typeof meta.genesis_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(meta.genesis_date)) meta.genesis_date = `${meta.genesis_date}T00:00:00.000Z`;
      }
    }),
    only('balances'),
  ),

  // ---- Numbers (1.5: "A few summary amounts (bonus asset summary amount, total_supply) are JSON numbers")
  reading(
    'allowed-r8-summary-numbers-with-scale',
    'bonuses',
    '1',
    'the JSON numbers of 1.5 (a bonus asset summary\u2019s `amount`s, a coin\u2019s `meta.total_supply`) are written as a Java BigDecimal or a .NET decimal with its scale writes them, trailing zeros kept: `"amount":0.00039925000000`, `"total_supply":21000000.00000000` (1.5: "JSON numbers"; RFC 8259 6: a number may have a fraction, and `21000000.00000000` is the number 21000000)',
    {
      wire(answer) {
        if (answer.status !== 200 || (answer.url !== SUMMARY_URL && !BALANCE_URLS.includes(answer.url))) return undefined;
        const key = answer.url === SUMMARY_URL ? 'amount' : 'total_supply';
        const pattern = new RegExp(`"${key}":(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=[,}\\]])`, 'g');
        return answer.payload.replace(pattern, (_all, number: string) => `"${key}":${scaledNumber(number, 14)}`);
      },
    },
    only('bonuses', 'balances'),
  ),

  // ---- Bank values
  reading(
    'allowed-r8-swift-primary-office-short-form',
    'banks',
    '2.4',
    'an 11-character SWIFT/BIC whose branch code is `XXX` (the primary office) is kept in its 8-character form ("DEUTDEFFXXX" shown as "DEUTDEFF", the same BIC), as an ISO 9362 normaliser stores it; other branch codes are kept (2.4: "swift | string"; 4.10: "swift | alphanumeric, length 8 to 11": both forms name one institution, and nothing says a record repeats the letters sent)',
    onSuccess(BANK_URLS, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.swift === 'string' && /^[A-Za-z0-9]{8}xxx$/i.test(record.swift)) record.swift = record.swift.slice(0, 8);
    }),
    only('banks'),
  ),
  reading(
    'allowed-r8-currency-shown-lower-case',
    'banks',
    '2.4',
    'a bank record shows its currency code lower-case ("eur"), as Stripe\u2019s API writes currencies, while the create body and the `currency` filter take the code as ISO 4217 writes it (2.4: "currency | string | ISO currency code": the code, its letter case in an answer not given)',
    onSuccess(BANK_URLS, (body) => {
      for (const record of recordsOf(body)) if (typeof record?.currency === 'string') record.currency = record.currency.toLowerCase();
    }),
    only('banks'),
  ),
  reading(
    'allowed-r8-currency-historic-codes',
    'banks',
    '4.10',
    'a currency code of ISO 4217\u2019s list of historic denominations (DEM, FRF, ITL, ESP, NLG, HRK, ...) is a valid ISO currency code and accepted (201), as a team validating against the full ISO 4217 code table (current and historic) does (4.10: "currency | alphanumeric, a valid ISO currency code"; 2.4: "ISO currency code": whether a withdrawn code is valid is not given)',
    { deviation: 'r8.currency-historic-codes' },
    only('banks'),
  ),
  reading(
    'allowed-r8-bank-used-before-account-state',
    'banks',
    '7',
    'bank delete checks whether the bank was used before it checks the caller\u2019s account: an inactive account deleting its used bank is told 403 "This bank has been used in previous actions and cannot be deleted." rather than the inactive message (the same status); an unused bank of an inactive account is still refused as inactive (7: "403 | bank, bonus, card | account inactive"; "403 | bank delete | bank already used in previous actions": two causes of one status and no precedence; 4.10: "delete 401, 403 (three distinct causes), 409")',
    { deviation: 'r8.bank-used-before-account-state' },
    only('banks'),
  ),
  reading(
    'allowed-r8-bonus-summary-every-asset',
    'bonuses',
    '4.11',
    'the asset summary without `{asset}` lists every asset the platform pays bonuses in, an asset in which the user has no bonus as an entry of zeros (orders 0, each status `{ bonuses: 0, amount: 0 }`), as a report over the asset table LEFT JOIN bonuses gives it (4.11: "Asset summary | GET /api/v1/user/{user}/bonus/assets/{asset?} | ... | 200 { data: [<Bonus asset summary>] }": which assets it lists is not given; 2.5b gives the entry)',
    { deviation: 'r8.bonus-summary-every-asset' },
    only('bonuses'),
  ),
  reading(
    'allowed-r8-card-image-name-and-content',
    'cards',
    '4.6a',
    'an image must be a jpg, jpeg, bmp or png both by its bytes and by its file name\u2019s extension (any letter case), as Laravel 11\u2019s `extensions:jpg,jpeg,bmp,png` beside `mimes:` or a FastAPI check of `UploadFile.filename` does: a PNG uploaded as `card` or `card.bin` is refused 422 keyed by the field (4.6a: "cardImage1 | file | yes | image; jpg, jpeg, bmp or png": whether the type is read from the name, the bytes or both is not given)',
    { deviation: 'r8.card-image-name-and-content' },
    only('cards'),
  ),
  reading(
    'allowed-r8-card-image-declared-type-checked',
    'cards',
    '4.6a',
    'an image\u2019s declared Content-Type (its multipart part\u2019s header) must be the image type its bytes show (`image/png`, `image/jpeg`, `image/bmp`), as a .NET team checking `IFormFile.ContentType` beside the file signature does: a PNG sent as `application/octet-stream` is refused 422 keyed by the field (4.6a: "image; jpg, jpeg, bmp or png"; "The card create request carries files, so the images travel as uploaded files": how an uploaded file\u2019s type is told is not given)',
    { deviation: 'r8.card-image-declared-type-checked' },
    only('cards'),
  ),
];

/**
 * Readings of round 8 the suite refused (false failures), kept out of index.ts until the suite is fixed. Run on
 * 2026-11-26 against main at f75285e (`npm run mutants -- --mutant allowed-r8-... --shards 1`): 38 of 39 conformant.
 *
 * - allowed-r8-currency-shown-lower-case: 1 test fails, get-user-user-bank-returns-only-the-banks-of-the-currency-given-
 *   in-the-currency-filter (section 4.10), "every listed bank matches the filter (status 200, as expected)": two banks
 *   (EUR, USD) created, `?currency=EUR` lists exactly the EUR bank, shown with `"currency":"eur"`, and the test compares
 *   the listed record's currency with the filter's value letter for letter. The same run only advises on the same
 *   difference elsewhere ("currency is stored as "jpy" for "JPY" sent ... the specification does not say a record
 *   repeats the letters sent"; "currency "jpy" is not written as ISO 4217 writes its codes"). Argument: 2.4 says
 *   "currency | string | ISO currency code" and 4.10 "query: status, currency, ... (all optional filters, strings)";
 *   neither says that a record writes the code in the letters ISO 4217 (or the request) used, and the filter did
 *   select the right bank. What holds under every reading is that the listed banks are those of that currency: the
 *   test could compare the codes without regard to letter case (or check the listed ids), and advise on the case.
 *   Fixed (the lead, same day): the currency filter test compares the codes without regard to letter case; the case is
 *   advised on where the bank is described. Now 39 of 39 registered.
 */
const REFUSED = new Set<string>([]);

/** The readings of round 8 the suite refused: not registered until the suite is fixed. */
export const readingsR8Refused: Mutant[] = readingsR8Written.filter((mutant) => REFUSED.has(mutant.name));

/** The readings of round 8 (registered in index.ts): each must stay conformant. */
export const readingsR8Mutants: Mutant[] = readingsR8Written.filter((mutant) => !REFUSED.has(mutant.name));
