import type { Mutation } from '../mutation.js';
import type { Mutant } from './types.js';
import { answered, type Seen } from './make.js';

/**
 * White-box round wb5: deviations a real backend could ship, written by a fifth reviewer who read
 * suites/ and helpers/ and aimed at checks made in one place only: a rule judged on one login kind (a
 * plain password login, a JWT naming its user by e-mail) but not its sibling (a login with a 2FA code, a
 * JWT naming its user by id); a record judged on the unfiltered list but not on a filtered one; a message
 * judged in one path shape of the bonus summary; a refusal's wording on one route. Each breaks a rule
 * that holds under every reading of the specification; its description quotes the sentence it breaks.
 * Every mutant rewrites answers as sent, with sight of the request (its body, query, path and headers):
 * no module of the reference is changed.
 */

const LOGIN = 'POST /api/v1/authenticate';
const JWT = 'POST /api/v1/authenticate-jwt/{platform}';
const FORGOT = 'POST /api/v1/user/forgot-password';
const RESET = 'POST /api/v1/user/reset-password';
const COIN_LIST = 'GET /api/v1/user/{user}/balances';
const NFT_LIST = 'GET /api/v1/user/{user}/balances/nft';
const BANK_CREATE = 'POST /api/v1/user/{user}/bank';
const BANK_LIST = 'GET /api/v1/user/{user}/bank';
const BANK_SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const BANK_DELETE = 'DELETE /api/v1/user/{user}/bank/{bank}';
const BONUS_SUMMARY = 'GET /api/v1/user/{user}/bonus/assets/{asset?}';
const BONUS_LIST = 'GET /api/v1/user/{user}/bonus';
const CARD_CREATE = 'POST /api/v1/user/{user}/card';
const CARD_LIST = 'GET /api/v1/user/{user}/card';
const CARD_SHOW = 'GET /api/v1/user/{user}/card/{card}';

const each = (body: any, f: (record: any) => void) => void (Array.isArray(body?.data) ? body.data.forEach(f) : undefined);
const filtered = (request: Seen) => Object.keys(request.query ?? {}).length > 0;
const withCode = (request: Seen) => typeof request.body?.['2fa'] === 'string';
/** The claims of the JWT a request carries in its Token header. */
const claimsOf = (request: Seen): Record<string, unknown> => {
  try {
    const jwt = String(request.headers.token ?? '');
    return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
};
const byIdClaim = (request: Seen) => typeof claimsOf(request).id === 'string' && claimsOf(request).email === undefined;
const milliseconds = (iso: unknown) => String(iso).replace(/\.(\d{3})\d*Z$/, '.$1Z');
/** ISO 8601 of the instant one hour later, still labelled Z (a server in UTC+1 writing its local time as UTC). */
const localAsUtc = (iso: string) => {
  const micros = /\.(\d{6})Z$/.exec(iso)?.[1] ?? '000000';
  return `${new Date(Date.parse(iso) + 3600_000).toISOString().slice(0, 19)}.${micros}Z`;
};
/** A refusal under another user's id (403 or 409 "This action is unauthorized.") worded `message`. */
const foreignWorded = (route: string, message: string, when: (request: Seen) => boolean = () => true): Mutation =>
  answered(route, undefined, (body, request, status) => (status === 403 || status === 409) && body?.message === 'This action is unauthorized.' && when(request) && { body: { message } });

const written: Mutant[] = [
  // --- authentication ---
  // white-box round wb5
  { name: 'wb5-login-2fa-session-ttl-minutes', clause: '2.1', group: 'authentication', description: 'sections 2.1/5.2 ("ttl | integer | Lifetime in seconds"; "valid for ttl seconds, until until"): a login with a 2FA code gives ttl in minutes (until - created is 60 times ttl); a login without a code stays right', mutation: answered(LOGIN, 200, (body, request) => withCode(request) && typeof body?.data?.ttl === 'number' && ((body.data.ttl = Math.round(body.data.ttl / 60)), true)) },
  // white-box round wb5
  { name: 'wb5-login-2fa-session-created-milliseconds', clause: '1', group: 'authentication', description: 'section 1.4 ("The authentication response uses ISO 8601 UTC strings with microseconds"): a login with a 2FA code writes created and until with milliseconds only, in every Session', mutation: answered(LOGIN, 200, (body, request) => withCode(request) && body?.data && ((body.data.created = milliseconds(body.data.created)), (body.data.until = milliseconds(body.data.until)), true)) },
  // white-box round wb5
  { name: 'wb5-login-2fa-session-local-time-as-utc', clause: '2.1', group: 'authentication', description: 'sections 1.4/2.1 ("created | ISO 8601 UTC timestamp, creation"; "until | ISO 8601 UTC timestamp, expiry"): a login with a 2FA code writes created and until in the server\u2019s local time (UTC+1) labelled Z, an hour after the real instants', mutation: answered(LOGIN, 200, (body, request) => withCode(request) && body?.data && ((body.data.created = localAsUtc(body.data.created)), (body.data.until = localAsUtc(body.data.until)), true)) },
  // white-box round wb5
  { name: 'wb5-login-2fa-refused-401', clause: '5', group: 'authentication', description: 'section 5.5 ("Login is refused for inactive accounts (401), wrong credentials (403)"): a login refused as wrong credentials that carried a 2fa code answers 401, so a 2FA account\u2019s valid code with a wrong password answers 401 (the status of an inactive account) instead of 403 (which 4xx a wrong code alone gets is open: docs/judging.md)', mutation: answered(LOGIN, 403, (_body, request) => withCode(request) && { status: 401 }) },
  // white-box round wb5
  { name: 'wb5-jwt-id-claim-created-milliseconds', clause: '1', group: 'authentication', description: 'section 1.4 ("ISO 8601 UTC strings with microseconds"): a JWT login naming its user by the id claim writes created and until with milliseconds only (the email claim stays right)', mutation: answered(JWT, 200, (body, request) => byIdClaim(request) && body?.data && ((body.data.created = milliseconds(body.data.created)), (body.data.until = milliseconds(body.data.until)), true)) },
  // white-box round wb5
  { name: 'wb5-jwt-id-claim-local-time-as-utc', clause: '2.1', group: 'authentication', description: 'sections 1.4/2.1 ("created | ISO 8601 UTC timestamp, creation"): a JWT login naming its user by the id claim writes created and until in local time (UTC+1) labelled Z', mutation: answered(JWT, 200, (body, request) => byIdClaim(request) && body?.data && ((body.data.created = localAsUtc(body.data.created)), (body.data.until = localAsUtc(body.data.until)), true)) },
  // white-box round wb5
  { name: 'wb5-jwt-id-claim-ttl-as-string', clause: '2.1', group: 'authentication', description: 'section 2.1 ("ttl | integer | Lifetime in seconds"): a JWT login naming its user by the id claim writes ttl as a string', mutation: answered(JWT, 200, (body, request) => byIdClaim(request) && body?.data && ((body.data.ttl = String(body.data.ttl)), true)) },
  // white-box round wb5
  { name: 'wb5-jwt-id-claim-403-message-key', clause: '7', group: 'authentication', description: 'section 7 ("{ error: string } for authentication failures"): a JWT naming by id claim a user with no account (403) answers { message } instead of { error }', mutation: answered(JWT, 403, (body, request) => byIdClaim(request) && typeof body?.error === 'string' && { body: { message: body.error } }) },
  // white-box round wb5
  { name: 'wb5-jwt-expire-within-a-minute-refused', clause: '4.1', group: 'authentication', description: 'section 4.1 ("expire (required, timestamp, must be now or later)"): a JWT whose expire is less than 60 s ahead is refused 416 (a leeway subtracted instead of added)', mutation: answered(JWT, 200, (_body, request) => {
    const expire = Number(claimsOf(request).expire);
    return Number.isFinite(expire) && expire - Date.now() / 1000 < 60 && { status: 416, body: { error: 'The token has expired.' } };
  }) },

  // --- password ---
  // white-box round wb5
  { name: 'wb5-forgot-type-link-refused', clause: '4.3', group: 'password', description: 'section 4.3 ("type | string | no | nullable; one of text, link"): forgot-password refuses type link with 422 keyed by type (only text is accepted)', mutation: answered(FORGOT, 200, (_body, request) => request.body?.type === 'link' && { status: 422, body: { message: 'The selected type is invalid.', errors: { type: ['The selected type is invalid.'] } } }) },
  // white-box round wb5
  { name: 'wb5-forgot-unknown-with-type-keyed-type', clause: '4.3', group: 'password', description: 'section 4.3 ("422 when the e-mail is unknown (errors map keyed by email)"): an unknown e-mail sent with a type answers its 422 keyed by type', mutation: answered(FORGOT, 422, (body, request) => typeof request.body?.type === 'string' && body?.errors?.email && { body: { message: body.message, errors: { type: body.errors.email } } }) },
  // white-box round wb5
  { name: 'wb5-forgot-text-message-null', clause: '4.3', group: 'password', description: 'section 4.3 ("200: { data: { message: string } }"): forgot-password of type text answers { data: { message: null } }', mutation: answered(FORGOT, 200, (body, request) => request.body?.type === 'text' && body?.data && ((body.data.message = null), true)) },
  // white-box round wb5
  { name: 'wb5-reset-422-token-message-as-string', clause: '7', group: 'password', description: 'section 7 ("errors: { <field_name>: [string, ...] }"): reset-password writes the token errors as one string instead of an array', mutation: answered(RESET, 422, (body) => Array.isArray(body?.errors?.token) && ((body.errors.token = body.errors.token[0]), true)) },

  // --- balances ---
  // white-box round wb5
  { name: 'wb5-coin-list-filtered-favorite-as-integer', clause: '2.2', group: 'balances', description: 'section 2.2 ("favorite | boolean"): the coin list filtered by assets[] writes favorite as 0 or 1 (the unfiltered list stays right)', mutation: answered(COIN_LIST, 200, (body, request) => filtered(request) && Array.isArray(body?.data?.coins) && (body.data.coins.forEach((r: any) => (r.favorite = r.favorite ? 1 : 0)), true)) },
  // white-box round wb5
  { name: 'wb5-coin-list-filtered-native-chain-named', clause: '2.2', group: 'balances', description: 'section 2.2 (chain "both null for a native coin"): the coin list filtered by assets[] names a native coin\u2019s own name and symbol as its chain', mutation: answered(COIN_LIST, 200, (body, request) => filtered(request) && Array.isArray(body?.data?.coins) && (body.data.coins.forEach((r: any) => r.chain?.name === null && r.chain?.symbol === null && (r.chain = { name: r.name, symbol: r.symbol })), true)) },
  // white-box round wb5
  { name: 'wb5-coin-list-filtered-amounts-zero', clause: '2.2', group: 'balances', description: 'section 2.2 ("amounts | object | { crypto: <amount set>, fiat: <amount set> }", the asset\u2019s amounts): the coin list filtered by assets[] answers every amount as "0" (the filtered query lost its join with the wallets); the unfiltered list and the show stay right', mutation: answered(COIN_LIST, 200, (body, request) => filtered(request) && Array.isArray(body?.data?.coins) && (body.data.coins.forEach((r: any) => [r.amounts?.crypto, r.amounts?.fiat].forEach((set: any) => set && Object.keys(set).forEach((k) => (set[k] = '0')))), true)) },
  // white-box round wb5
  { name: 'wb5-nft-list-filtered-quantity-zero', clause: '2.2', group: 'balances', description: 'section 2.2 ("NFT records carry a positive count"): the NFT list filtered by assets[] answers quantity 0 for every NFT', mutation: answered(NFT_LIST, 200, (body, request) => filtered(request) && (each(body, (r) => (r.quantity = 0)), true)) },
  // white-box round wb5
  { name: 'wb5-nft-list-filtered-properties-keyed-object', clause: '2.2', group: 'balances', description: 'section 2.2 ("properties | array | Items { type, value }"): the NFT list filtered by assets[] writes properties as an object keyed by index', mutation: answered(NFT_LIST, 200, (body, request) => filtered(request) && (each(body, (r) => Array.isArray(r.properties) && (r.properties = Object.fromEntries(r.properties.map((p: unknown, i: number) => [String(i), p])))), true)) },
  // white-box round wb5
  { name: 'wb5-coin-list-foreign-message-forbidden', clause: '5', group: 'balances', description: 'section 5.6 ("yields 403 or 409 with the message `This action is unauthorized.`"): another user\u2019s coin list is refused with "Forbidden."', mutation: foreignWorded(COIN_LIST, 'Forbidden.') },

  // --- banks ---
  // white-box round wb5
  { name: 'wb5-banks-filtered-list-swift-bic8', clause: '2.4', group: 'banks', description: 'section 2.4 (swift of the bank record; 4.10 "swift ... length 8 to 11"): the bank list with any filter writes swift as its BIC8 (first 8 characters); the unfiltered list, create and show stay right', mutation: answered(BANK_LIST, 200, (body, request) => filtered(request) && (each(body, (r) => typeof r.swift === 'string' && (r.swift = r.swift.slice(0, 8))), true)) },
  // white-box round wb5
  { name: 'wb5-banks-filtered-list-created-at-milliseconds', clause: '4.10', group: 'banks', description: 'sections 1.4/2.4 ("createdAt ... integers (Unix seconds)"): the bank list with any filter writes createdAt in milliseconds', mutation: answered(BANK_LIST, 200, (body, request) => filtered(request) && (each(body, (r) => (r.createdAt = r.createdAt * 1000)), true)) },
  // white-box round wb5
  { name: 'wb5-banks-delete-foreign-message-forbidden', clause: '5', group: 'banks', description: 'section 5.6 ("yields 403 or 409 with the message `This action is unauthorized.`"): a delete under another user\u2019s id is refused with "Forbidden."', mutation: foreignWorded(BANK_DELETE, 'Forbidden.') },
  // white-box round wb5
  { name: 'wb5-banks-show-foreign-message-without-period', clause: '5', group: 'banks', description: 'section 5.6 ("with the message `This action is unauthorized.`"): bank show under another user\u2019s id is refused with "This action is unauthorized" (no period)', mutation: foreignWorded(BANK_SHOW, 'This action is unauthorized') },
  // white-box round wb5
  { name: 'wb5-banks-used-delete-error-key', clause: '7', group: 'banks', description: 'section 7 ("{ message: string } for most other errors"; 403 bank delete "bank already used in previous actions"): the delete of a used bank answers 403 { error }', mutation: answered(BANK_DELETE, 403, (body) => /used/i.test(String(body?.message)) && { body: { error: body.message } }) },
  // white-box round wb5
  { name: 'wb5-banks-create-platform-url-missing', clause: '2.4', group: 'banks', description: 'section 2.4 ("externalPlatform | object | { code: string, name: string, url: string }"): the bank create answer\u2019s externalPlatform has no url', mutation: answered(BANK_CREATE, 201, (body) => body?.data?.externalPlatform && (delete body.data.externalPlatform.url, true)) },

  // --- bonuses ---
  // white-box round wb5
  { name: 'wb5-bonuses-summary-asset-foreign-message-forbidden', clause: '5', group: 'bonuses', description: 'section 5.6 ("yields 403 or 409 with the message `This action is unauthorized.`"): the bonus summary with its {asset} segment under another user\u2019s id is refused with "Forbidden." (without the segment it stays right)', mutation: foreignWorded(BONUS_SUMMARY, 'Forbidden.', (request) => Boolean(request.params?.asset)) },
  // white-box round wb5
  { name: 'wb5-bonuses-filtered-list-email-unmasked', clause: '4.11', group: 'bonuses', description: 'section 2.6 ("email | string, masked by the service"): the bonus list with a status or platform filter writes the user\u2019s e-mail unmasked', mutation: answered(BONUS_LIST, 200, (body, request) => filtered(request) && request.user !== undefined && (each(body, (r) => r.user && typeof r.user.email === 'string' && (r.user.email = r.user.email.includes('*') ? unmaskedEmailOf(request) ?? r.user.email : r.user.email)), true)) },
  // white-box round wb5
  { name: 'wb5-bonuses-filtered-list-bonused-at-milliseconds', clause: '4.11', group: 'bonuses', description: 'sections 1.4/2.5a ("bonusedAt ... integers (Unix seconds)"): the bonus list with a status or platform filter writes bonusedAt in milliseconds', mutation: answered(BONUS_LIST, 200, (body, request) => filtered(request) && (each(body, (r) => (r.bonusedAt = r.bonusedAt * 1000)), true)) },
  // white-box round wb5
  { name: 'wb5-bonuses-summary-asset-canceled-amount-string', clause: '4.11', group: 'bonuses', description: 'sections 1.5/2.5b ("A few summary amounts (bonus asset summary amount ...) are JSON numbers"): the summary with its {asset} segment writes canceled.amount as a decimal string', mutation: answered(BONUS_SUMMARY, 200, (body, request) => Boolean(request.params?.asset) && (each(body, (r) => r.canceled && (r.canceled.amount = String(r.canceled.amount))), true)) },
  // white-box round wb5
  { name: 'wb5-bonuses-filtered-list-guard-2fa-as-integer', clause: '4.11', group: 'bonuses', description: 'section 2.6 ("options.guard.actions ... each { 2fa: boolean, password: boolean }"): the bonus list with a filter writes operations.2fa as 0 or 1', mutation: answered(BONUS_LIST, 200, (body, request) => filtered(request) && (each(body, (r) => r.user?.options?.guard?.actions?.operations && (r.user.options.guard.actions.operations['2fa'] = r.user.options.guard.actions.operations['2fa'] ? 1 : 0)), true)) },

  // --- cards ---
  // white-box round wb5
  { name: 'wb5-cards-filtered-list-holder-name-as-alias', clause: '2.5', group: 'cards', description: 'section 2.5 ("holderName | string"; "alias | string"): the card list with a filter writes the alias as holderName (a column mix-up in the filtered query)', mutation: answered(CARD_LIST, 200, (body, request) => filtered(request) && (each(body, (r) => (r.holderName = r.alias)), true)) },
  // white-box round wb5
  { name: 'wb5-cards-filtered-list-last-four-masked', clause: '2.5', group: 'cards', description: 'section 2.5 ("lastFourDigits | string | 4 digits"): the card list with a filter masks lastFourDigits as **34', mutation: answered(CARD_LIST, 200, (body, request) => filtered(request) && (each(body, (r) => typeof r.lastFourDigits === 'string' && (r.lastFourDigits = `**${r.lastFourDigits.slice(2)}`)), true)) },
  // white-box round wb5
  { name: 'wb5-cards-show-404-error-key', clause: '7', group: 'cards', description: 'section 7 ("{ message: string } for most other errors"; 404 "no record found (message: no query results)"): card show answers 404 { error } instead of { message }', mutation: answered(CARD_SHOW, 404, (body) => typeof body?.message === 'string' && { body: { error: body.message } }) },
  // white-box round wb5
  { name: 'wb5-cards-create-foreign-message-forbidden', clause: '5', group: 'cards', description: 'section 5.6 ("yields 403 or 409 with the message `This action is unauthorized.`"): card create under another user\u2019s id is refused with "Forbidden."', mutation: foreignWorded(CARD_CREATE, 'Forbidden.') },
  // white-box round wb5
  { name: 'wb5-cards-list-foreign-message-without-period', clause: '5', group: 'cards', description: 'section 5.6 ("with the message `This action is unauthorized.`"): another user\u2019s card list is refused with "This action is unauthorized" (no period)', mutation: foreignWorded(CARD_LIST, 'This action is unauthorized') },
];

/** The caller's e-mail in clear, as the authenticated request knows it (a serializer that skipped the mask). */
function unmaskedEmailOf(request: Seen): string | undefined {
  const email = (request.user as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : undefined;
}

/**
 * The survivors of the round (no test citing their clause failed, nor any test of their group when run
 * again under the endpoint's own section: 4.8, 4.10, 4.11, 4.6a), each re-checked as a deviation under every reading. Kept
 * unregistered until a check caught it (the mutation run stays at 100 %); each named the check that would catch it:
 * - wb5-login-2fa-session-created-milliseconds, wb5-login-2fa-session-local-time-as-utc: a login with a 2FA code is
 *   judged by expectSession alone (suites/authentication.test.ts, "answers 200 for a 2FA account with a valid TOTP
 *   code"), which neither counts fraction digits nor dates created by the answer's Date header; the microseconds
 *   check ("three Sessions") and the dating check run on plain password and JWT logins only. Run both on 2FA logins.
 * - wb5-jwt-expire-within-a-minute-refused: every JWT the suite signs expires 300 s ahead in milliseconds
 *   (helpers/arrange/jwt.ts futureExpire), never near "now". Under principle 1 (the unit of expire is open) a check
 *   can still judge it: a target that accepts a seconds-valued expire 300 s ahead reads seconds, so it must also
 *   accept one 20 s ahead (4.1 "must be now or later").
 * - wb5-coin-list-filtered-native-chain-named, wb5-coin-list-filtered-amounts-zero: the assets[] checks of the coin
 *   list compare symbols and the schema only; the native-chain rule and the amounts are judged on the unfiltered
 *   list and the show. Compare each filtered record with the unfiltered list's record of that symbol.
 * - wb5-banks-filtered-list-swift-bic8 and wb5-cards-filtered-list-holder-name-as-alias: the filter checks of the
 *   bank and card lists compare ids only; the stable fields (helpers/spec/instances.ts CREATES) are compared on the
 *   unfiltered list and the show. Compare the stable fields of each filtered record with the unfiltered list's
 *   (a bank with an 11-character swift among them).
 * - wb5-bonuses-summary-asset-foreign-message-forbidden: the message "This action is unauthorized." is judged on the
 *   summary without its {asset} segment only (suites/bonuses.test.ts, summary "answers 403 or 409 ... for another
 *   user's id"); the access table's another-user row (helpers/arrange/invariants.ts) asserts the status only, in
 *   every path shape. Judge the message there too (expectUnauthorized), or send the summary check in both shapes.
 * Score before fixes: 27 caught of 35 (22 with the first clauses picked: five mutants of filtered lists and the
 * {asset} summary were caught only by checks citing the endpoint's own section, 4.10 or 4.11, so their clause is
 * that section). No candidate was dropped as open.
 * Closed later, all eight (now registered; 35 of 35 caught after the fixes):
 * - wb5-login-2fa-session-created-milliseconds, wb5-login-2fa-session-local-time-as-utc: the Session checks are a
 *   table over every login kind (suites/authentication.test.ts LOGIN_KINDS: password, 2FA code, JWT by id, JWT by
 *   email), "writes until and created with microseconds for a login with a 2FA code" and "dates each Session of a
 *   login with a 2FA code by its creation".
 * - wb5-jwt-expire-within-a-minute-refused: "answers 200 with a Session for a JWT whose expire is 30 s ahead, in
 *   milliseconds and (where a seconds expire is read) in Unix seconds" (a seconds probe 300 s ahead tells the unit).
 * - the four filtered-list mutants: "lists each record (asset) under a filter ... with the fields the unfiltered
 *   list gives it" (helpers/arrange/invariants.ts filteredFieldsCheck, instance filtered-same-fields of every list
 *   with a filter; the banks compared include an 11-character swift).
 * - wb5-bonuses-summary-asset-foreign-message-forbidden: the access table's another-user row judges the message
 *   (expectUnauthorized) in every path shape of every user-scoped route.
 */
const OPEN = new Set<string>([]);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb5Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. None are left (closed later, above). */
export const roundWb5OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));
