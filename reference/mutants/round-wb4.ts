import type { Mutant } from './types.js';

/**
 * White-box round wb4: deviations a real backend could ship, written by a fourth reviewer who read
 * suites/ and helpers/ and aimed at rules checked in one place, on one route or one path shape: a
 * type slip on one serializer (a boolean written 0/1, a number as a string, milliseconds for seconds),
 * one route's error format, one sibling's field. Each breaks a rule that holds under every reading of
 * the specification; its description quotes the sentence it breaks. Response transforms, but for two
 * bank-delete hooks (reference/modules/banks.ts, `wb4.*`).
 */

const LOGIN = 'POST /api/v1/authenticate';
const JWT = 'POST /api/v1/authenticate-jwt/{platform}';
const FORGOT = 'POST /api/v1/user/forgot-password';
const RESET = 'POST /api/v1/user/reset-password';
const COIN_LIST = 'GET /api/v1/user/{user}/balances';
const COIN_SHOW = 'GET /api/v1/user/{user}/balances/{asset}';
const NFT_LIST = 'GET /api/v1/user/{user}/balances/nft';
const NFT_SHOW = 'GET /api/v1/user/{user}/balances/nft/{asset}';
const BANK_CREATE = 'POST /api/v1/user/{user}/bank';
const BANK_LIST = 'GET /api/v1/user/{user}/bank';
const BANK_SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const BANK_DELETE = 'DELETE /api/v1/user/{user}/bank/{bank}';
const BONUS_SUMMARY = 'GET /api/v1/user/{user}/bonus/assets/{asset?}';
const BONUS_LIST = 'GET /api/v1/user/{user}/bonus';
const BONUS_SHOW = 'GET /api/v1/user/{user}/bonus/{bonus}';
const CARD_CREATE = 'POST /api/v1/user/{user}/card';
const CARD_LIST = 'GET /api/v1/user/{user}/card';
const CARD_SHOW = 'GET /api/v1/user/{user}/card/{card}';

const each = (body: any, f: (record: any) => void) => void (Array.isArray(body?.data) ? body.data.forEach(f) : undefined);
const amountSets = (record: any) => (record?.amounts ? [record.amounts.crypto, record.amounts.fiat].filter(Boolean) : []);
/** An error of `route` at `status` answered { message } instead of section 7's { error }. */
const errorAsMessage = (route: string, status: number) => ({ transform: { route, status, apply: (body: any) => (typeof body?.error === 'string' ? { body: { message: body.error } } : undefined) } });
/** The 422 errors map of `route` keyed by `to` where the field sent is `from`. */
const rekeyed = (route: string, from: string, to: string) => ({
  transform: { route, status: 422, apply: (body: any) => (body?.errors?.[from] ? { body: { message: body.message, errors: Object.fromEntries(Object.entries(body.errors).map(([k, v]) => [k === from ? to : k, v])) } } : undefined) },
});

const written: Mutant[] = [
  // --- authentication ---
  // white-box round wb4
  { name: 'wb4-login-created-without-zone', clause: '1', group: 'authentication', description: 'section 1.4 ("The authentication response uses ISO 8601 UTC strings with microseconds"): the password login Session writes created without its Z (a local time, no zone)', mutation: { transform: { route: LOGIN, status: 200, apply: (body) => void (body.data.created = String(body.data.created).replace(/Z$/, '')) } } },
  // white-box round wb4
  { name: 'wb4-login-until-without-zone', clause: '1', group: 'authentication', description: 'sections 1.4/2.1 (until "ISO 8601 UTC timestamp, expiry"): the password login Session writes until without its Z (a local time, no zone)', mutation: { transform: { route: LOGIN, status: 200, apply: (body) => void (body.data.until = String(body.data.until).replace(/Z$/, '')) } } },
  // white-box round wb4
  { name: 'wb4-jwt-created-milliseconds', clause: '1', group: 'authentication', description: 'section 1.4 ("ISO 8601 UTC strings with microseconds"): the JWT Session writes created with milliseconds only (three fraction digits) in every Session', mutation: { transform: { route: JWT, status: 200, apply: (body) => void (body.data.created = String(body.data.created).replace(/\.(\d{3})\d*Z$/, '.$1Z')) } } },
  // white-box round wb4
  { name: 'wb4-jwt-401-inactive-message-key', clause: '7', group: 'authentication', description: 'section 7 ("{ error: string } for authentication failures"): the 401 of an inactive account at JWT login answers { message } instead of { error }', mutation: errorAsMessage(JWT, 401) },
  // white-box round wb4
  { name: 'wb4-jwt-425-message-key', clause: '7', group: 'authentication', description: 'section 7 ("{ error: string } for authentication failures"): the 425 of a restricted account at JWT login answers { message } instead of { error }', mutation: errorAsMessage(JWT, 425) },
  // white-box round wb4
  { name: 'wb4-jwt-ttl-as-string', clause: '2.1', group: 'authentication', description: 'section 2.1 ("ttl | integer | Lifetime in seconds"): the JWT Session writes ttl as a string ("3600"); the password login stays right', mutation: { transform: { route: JWT, status: 200, apply: (body) => void (body.data.ttl = String(body.data.ttl)) } } },
  // white-box round wb4
  { name: 'wb4-login-until-before-created', clause: '2.1', group: 'authentication', description: 'sections 2.1/5.2 ("valid for ttl seconds, until until"): the password login Session computes until as created minus ttl (a sign slip)', mutation: { transform: { route: LOGIN, status: 200, apply: (body) => void (body.data.until = new Date(Date.parse(body.data.created) - body.data.ttl * 1000).toISOString().replace(/Z$/, '000Z')) } } },

  // --- password ---
  // white-box round wb4
  { name: 'wb4-forgot-200-message-array', clause: '4.3', group: 'password', description: 'section 4.3 ("200: { data: { message: string } }"): forgot-password answers its message as an array of strings', mutation: { transform: { route: FORGOT, status: 200, apply: (body) => void (body?.data && (body.data.message = [body.data.message])) } } },
  // white-box round wb4
  { name: 'wb4-reset-422-password-message-as-string', clause: '7', group: 'password', description: 'section 7 ("errors: { <field_name>: [string, ...] }"): reset-password writes the password errors as one string instead of an array', mutation: { transform: { route: RESET, status: 422, apply: (body) => void (Array.isArray(body?.errors?.password) ? (body.errors.password = body.errors.password[0]) : undefined) } } },
  // white-box round wb4
  { name: 'wb4-forgot-422-keyed-email-address', clause: '4.3', group: 'password', description: 'section 4.3 ("422 when the e-mail is unknown (errors map keyed by email)"): the errors map is keyed by email_address', mutation: rekeyed(FORGOT, 'email', 'email_address') },

  // --- balances ---
  // white-box round wb4
  { name: 'wb4-nft-list-properties-keyed-object', clause: '2.2', group: 'balances', description: 'section 2.2 ("properties | array | Items { type, value }"): the NFT list writes properties as an object keyed by index (a filtered PHP array); the show stays right', mutation: { transform: { route: NFT_LIST, status: 200, apply: (body) => each(body, (r) => Array.isArray(r.properties) && (r.properties = Object.fromEntries(r.properties.map((p: unknown, i: number) => [String(i), p])))) } } },
  // white-box round wb4
  { name: 'wb4-coin-list-favorite-as-integer', clause: '2.2', group: 'balances', description: 'section 2.2 ("favorite | boolean"): the coin list writes favorite as 0 or 1', mutation: { transform: { route: COIN_LIST, status: 200, apply: (body) => void body?.data?.coins?.forEach((r: any) => (r.favorite = r.favorite ? 1 : 0)) } } },
  // white-box round wb4
  { name: 'wb4-nft-show-memo-as-string', clause: '2.2', group: 'balances', description: 'section 2.2 ("memo | boolean"): the NFT show writes memo as "0" or "1"', mutation: { transform: { route: NFT_SHOW, status: 200, apply: (body) => void (body?.data && (body.data.memo = body.data.memo ? '1' : '0')) } } },
  // white-box round wb4
  { name: 'wb4-nft-list-zero-thirty-decimals', clause: '1', group: 'balances', description: 'section 1.5 ("decimal strings (up to 25 fractional digits, or the bare string 0)"): the NFT list writes a zero amount with 30 fractional digits', mutation: { transform: { route: NFT_LIST, status: 200, apply: (body) => each(body, (r) => amountSets(r).forEach((set: any) => Object.keys(set).forEach((k) => set[k] === '0' && (set[k] = `0.${'0'.repeat(30)}`)))) } } },
  // white-box round wb4
  { name: 'wb4-coin-show-total-supply-string', clause: '1', group: 'balances', description: 'sections 1.5/2.2 ("A few summary amounts (... total_supply) are JSON numbers"): the coin show writes meta.total_supply as a string', mutation: { transform: { route: COIN_SHOW, status: 200, apply: (body) => void (typeof body?.data?.meta?.total_supply === 'number' ? (body.data.meta.total_supply = String(body.data.meta.total_supply)) : undefined) } } },
  // white-box round wb4
  { name: 'wb4-coin-list-native-chain-null', clause: '2.2', group: 'balances', description: 'section 2.2 ("chain | object | { name: string or null, symbol: string or null } (both null for a native coin)"): the coin list writes a native coin\u2019s chain as null instead of the object', mutation: { transform: { route: COIN_LIST, status: 200, apply: (body) => void body?.data?.coins?.forEach((r: any) => r.chain?.name === null && r.chain?.symbol === null && (r.chain = null)) } } },
  // white-box round wb4
  { name: 'wb4-nft-show-description-as-list', clause: '2.2', group: 'balances', description: 'section 2.2 ("description | object | Map from language code (for example en) to text"): the NFT show writes description as a list of its texts', mutation: { transform: { route: NFT_SHOW, status: 200, apply: (body) => void (body?.data?.description && typeof body.data.description === 'object' ? (body.data.description = Object.values(body.data.description)) : undefined) } } },

  // --- banks ---
  // white-box round wb4
  { name: 'wb4-banks-list-created-at-milliseconds', clause: '1', group: 'banks', description: 'sections 1.4/2.4 ("createdAt ... integers (Unix seconds)"): the bank list writes createdAt in milliseconds (create and show stay right)', mutation: { transform: { route: BANK_LIST, status: 200, apply: (body) => each(body, (r) => (r.createdAt = r.createdAt * 1000)) } } },
  // white-box round wb4
  { name: 'wb4-banks-show-platform-code-null', clause: '2.4', group: 'banks', description: 'section 2.4 ("externalPlatform | object | { code: string, name: string, url: string }"): the bank show writes externalPlatform.code as null', mutation: { transform: { route: BANK_SHOW, status: 200, apply: (body) => void (body?.data?.externalPlatform && (body.data.externalPlatform.code = null)) } } },
  // white-box round wb4
  { name: 'wb4-banks-delete-200-wrapped', clause: '1', group: 'banks', description: 'section 1.3 ("Exceptions: ... bank delete returns { message }"): bank delete answers { data: { message } }', mutation: { transform: { route: BANK_DELETE, status: 200, apply: (body) => ({ body: { data: body } }) } } },
  // white-box round wb4
  { name: 'wb4-banks-show-404-own-message', clause: '7', group: 'banks', description: 'section 7 (404 "no record found (message: no query results)"): bank show answers 404 { message: "Bank not found." }', mutation: { transform: { route: BANK_SHOW, status: 404, apply: () => ({ body: { message: 'Bank not found.' } }) } } },
  // white-box round wb4
  { name: 'wb4-banks-used-delete-409', clause: '7', group: 'banks', description: 'section 7 ("403 | bank delete | bank already used in previous actions"): the delete of a used bank answers 409', mutation: { transform: { route: BANK_DELETE, status: 403, apply: (body) => (/used/i.test(String(body?.message)) ? { status: 409 } : undefined) } } },
  // white-box round wb4
  { name: 'wb4-banks-422-keyed-currency-code', clause: '7', group: 'banks', description: 'section 7 ("errors: { <field_name>: [string, ...] }"): bank create keys the currency errors by currency_code instead of the field sent', mutation: rekeyed(BANK_CREATE, 'currency', 'currency_code') },

  // --- bonuses ---
  // white-box round wb4
  { name: 'wb4-bonuses-list-bonused-at-milliseconds', clause: '1', group: 'bonuses', description: 'sections 1.4/2.5a ("bonusedAt ... integers (Unix seconds)"): the bonus list writes bonusedAt in milliseconds (show stays right)', mutation: { transform: { route: BONUS_LIST, status: 200, apply: (body) => each(body, (r) => (r.bonusedAt = r.bonusedAt * 1000)) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-show-parent-order-null', clause: '2.7', group: 'bonuses', description: 'section 2.7 ("parentOrder, childOrder | { id: string or null, publicId: string or null }"): the bonus show writes an order without parent as parentOrder null', mutation: { transform: { route: BONUS_SHOW, status: 200, apply: (body) => void (body?.data?.order && body.data.order.parentOrder?.id == null && (body.data.order.parentOrder = null)) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-list-asset-precision-number', clause: '2.3', group: 'bonuses', description: 'section 2.3 (asset summary "precision: numeric string"): the bonus list writes the bonus asset\u2019s precision as a JSON number', mutation: { transform: { route: BONUS_LIST, status: 200, apply: (body) => each(body, (r) => r.asset && (r.asset.precision = Number(r.asset.precision))) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-summary-pending-amount-string', clause: '1', group: 'bonuses', description: 'sections 1.5/2.5b ("A few summary amounts (bonus asset summary amount ...) are JSON numbers"; S = { bonuses: integer, amount: number }): the summary writes pending.amount as a decimal string', mutation: { transform: { route: BONUS_SUMMARY, status: 200, apply: (body) => each(body, (r) => r.pending && (r.pending.amount = String(r.pending.amount))) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-summary-orders-string', clause: '2.5b', group: 'bonuses', description: 'section 2.5b ("orders: integer"): the summary writes orders as a string', mutation: { transform: { route: BONUS_SUMMARY, status: 200, apply: (body) => each(body, (r) => (r.orders = String(r.orders))) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-show-guard-2fa-as-integer', clause: '2.6', group: 'bonuses', description: 'section 2.6 ("options.guard.actions | login and operations, each { 2fa: boolean, password: boolean }"): the bonus show writes login.2fa as 0 or 1', mutation: { transform: { route: BONUS_SHOW, status: 200, apply: (body) => void (body?.data?.user?.options?.guard?.actions?.login && (body.data.user.options.guard.actions.login['2fa'] = body.data.user.options.guard.actions.login['2fa'] ? 1 : 0)) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-list-life-until-milliseconds', clause: '1', group: 'bonuses', description: 'section 1.4 ("Timestamps named createdAt, bonusedAt, lifeUntilAt, deletedAt are integers (Unix seconds)"): the bonus list writes order.payment.lifeUntilAt in milliseconds', mutation: { transform: { route: BONUS_LIST, status: 200, apply: (body) => each(body, (r) => r.order?.payment && typeof r.order.payment.lifeUntilAt === 'number' && (r.order.payment.lifeUntilAt *= 1000)) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-show-user-created-at-iso', clause: '1', group: 'bonuses', description: 'sections 1.4/2.6 ("createdAt ... integers (Unix seconds)"): the bonus show writes the user\u2019s createdAt as an ISO 8601 string', mutation: { transform: { route: BONUS_SHOW, status: 200, apply: (body) => void (typeof body?.data?.user?.createdAt === 'number' ? (body.data.user.createdAt = new Date(body.data.user.createdAt * 1000).toISOString()) : undefined) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-show-404-own-message', clause: '7', group: 'bonuses', description: 'section 7 (404 "no record found (message: no query results)"): bonus show answers 404 { message: "Bonus not found." }', mutation: { transform: { route: BONUS_SHOW, status: 404, apply: () => ({ body: { message: 'Bonus not found.' } }) } } },
  // white-box round wb4
  { name: 'wb4-bonuses-list-order-rate-number', clause: '2.7', group: 'bonuses', description: 'section 2.7 ("fromAmount, toAmount, rate | decimal string"): the bonus list writes the order\u2019s rate as a JSON number', mutation: { transform: { route: BONUS_LIST, status: 200, apply: (body) => each(body, (r) => r.order && (r.order.rate = Number(r.order.rate))) } } },

  // --- cards ---
  // white-box round wb4
  { name: 'wb4-cards-list-created-at-milliseconds', clause: '1', group: 'cards', description: 'sections 1.4/2.5 ("createdAt ... integers (Unix seconds)"): the card list writes createdAt in milliseconds (create and show stay right)', mutation: { transform: { route: CARD_LIST, status: 200, apply: (body) => each(body, (r) => (r.createdAt = r.createdAt * 1000)) } } },
  // white-box round wb4
  { name: 'wb4-cards-show-last-four-number', clause: '2.5', group: 'cards', description: 'section 2.5 ("lastFourDigits | string | 4 digits"): the card show writes lastFourDigits as a JSON number', mutation: { transform: { route: CARD_SHOW, status: 200, apply: (body) => void (body?.data && (body.data.lastFourDigits = Number(body.data.lastFourDigits))) } } },
  // white-box round wb4
  { name: 'wb4-cards-list-image1-null', clause: '2.5', group: 'cards', description: 'section 2.5 ("cardImage1 | string | Identifier of the stored first image"): the card list writes cardImage1 as null', mutation: { transform: { route: CARD_LIST, status: 200, apply: (body) => each(body, (r) => (r.cardImage1 = null)) } } },
  // white-box round wb4
  { name: 'wb4-cards-422-keyed-last-four-snake', clause: '7', group: 'cards', description: 'section 7 ("errors: { <field_name>: [string, ...] }"): card create keys the lastFourDigits errors by last_four_digits', mutation: rekeyed(CARD_CREATE, 'lastFourDigits', 'last_four_digits') },
  // white-box round wb4
  { name: 'wb4-cards-create-platform-url-missing', clause: '2.5', group: 'cards', description: 'sections 2.4/2.5 (externalPlatform "{ code, name, url } as in the bank record"): the card create answer\u2019s externalPlatform has no url', mutation: { transform: { route: CARD_CREATE, status: 201, apply: (body) => void (body?.data?.externalPlatform && delete body.data.externalPlatform.url) } } },
];

/** ISO 8601 of the instant one hour later, still labelled Z (a server in UTC+1 writing its local time as UTC). */
const localAsUtc = (iso: string) => {
  const micros = /\.(\d{6})Z$/.exec(iso)?.[1] ?? '000000';
  return `${new Date(Date.parse(iso) + 3600_000).toISOString().slice(0, 19)}.${micros}Z`;
};

/** Written after the first 38 were run: behaviour rather than shape. */
const writtenLater: Mutant[] = [
  // white-box round wb4
  { name: 'wb4-jwt-session-local-time-as-utc', clause: '2.1', group: 'authentication', description: 'sections 1.4/2.1 ("created | ISO 8601 UTC timestamp, creation"; "until | ISO 8601 UTC timestamp, expiry"): the JWT Session writes created and until in the server\u2019s local time (UTC+1) labelled Z, an hour after the real instants (the password login stays right)', mutation: { transform: { route: JWT, status: 200, apply: (body) => void ((body.data.created = localAsUtc(body.data.created)), (body.data.until = localAsUtc(body.data.until))) } } },
  // white-box round wb4
  { name: 'wb4-banks-delete-removes-every-unused-bank', clause: '4.10', group: 'banks', description: 'section 4.10 (Delete DELETE /api/v1/user/{user}/bank/{bank}): deleting one bank deletes every unused bank of the user (the WHERE lost its id); the others are no longer listed', mutation: { deviation: 'wb4.banks-delete-removes-every-unused-bank' } },
  // white-box round wb4
  { name: 'wb4-banks-delete-removes-oldest', clause: '4.10', group: 'banks', description: 'section 4.10 (Delete DELETE /api/v1/user/{user}/bank/{bank}): delete removes the user\u2019s first-created unused bank instead of the one asked, which stays listed', mutation: { deviation: 'wb4.banks-delete-removes-oldest' } },
  // white-box round wb4
  { name: 'wb4-bonuses-list-status-cancelled-spelling', clause: '2.5a', group: 'bonuses', description: 'section 2.5a (status "distributed, pending, canceled"): the bonus list writes a canceled bonus as "cancelled" (the show stays right)', mutation: { transform: { route: BONUS_LIST, status: 200, apply: (body) => each(body, (r) => r.status === 'canceled' && (r.status = 'cancelled')) } } },
];

/**
 * The survivors of the round (no test failed), each re-checked as a deviation under every reading. Not
 * registered, so the mutation run stays at 100 %; each names the check that would catch it:
 * - wb4-jwt-created-milliseconds: the three-Session microseconds check (suites/authentication.test.ts, "writes until
 *   and created with microseconds") run on JWT logins too; today it logs in by password only.
 * - wb4-jwt-session-local-time-as-utc: the dating check ("dates each Session by its creation": created within seconds
 *   of the answer's Date) run on JWT logins too; expectSession only advises on created's offset.
 * - wb4-banks-delete-removes-oldest: a user with two banks deletes the newer; the older stays listed, the newer does
 *   not (the invariant "shows a create and a delete at once" deletes the first-created of two, which this mutant
 *   deletes anyway; the delete check of banks.test.ts has one bank).
 * Held before fixes: 39 of 42 caught. One more candidate was dropped as open under some reading:
 * wb4-cards-expiry-this-month-refused (a card expiring in the current month refused as past: the project reads the
 * current month as open, time zones; docs/judging.md).
 */
// Open when the round was held (39 caught of 42), all three closed since: wb4-banks-delete-removes-oldest (the delete
// invariant deletes the newer record), wb4-jwt-created-milliseconds and wb4-jwt-session-local-time-as-utc (the
// microseconds and Date checks of Sessions run for JWT logins too).
const OPEN = new Set<string>([]);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb4Mutants: Mutant[] = [...written, ...writtenLater].filter((mutant) => !OPEN.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb4OpenGaps: Mutant[] = [...written, ...writtenLater].filter((mutant) => OPEN.has(mutant.name));
