import type { Mutant } from './types.js';

/**
 * White-box round wb3 (issue 27, "How to know it is deep"): deviations a real backend could ship,
 * written by a third reviewer who read suites/ and helpers/ and aimed at rules checked in one place,
 * with one value or one sequence: one route's error format or message, one sibling's boundary, one
 * path shape, a filter's value, a sequence of two sessions. Each breaks a rule that holds under every
 * reading of the specification; its description quotes the sentence it breaks.
 */

const LOGIN = 'POST /api/v1/authenticate';
const JWT = 'POST /api/v1/authenticate-jwt/{platform}';
const RESET = 'POST /api/v1/user/reset-password';
const COIN_LIST = 'GET /api/v1/user/{user}/balances';
const COIN_SHOW = 'GET /api/v1/user/{user}/balances/{asset}';
const NFT_LIST = 'GET /api/v1/user/{user}/balances/nft';
const BANK_CREATE = 'POST /api/v1/user/{user}/bank';
const BANK_LIST = 'GET /api/v1/user/{user}/bank';
const BANK_SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const BANK_DELETE = 'DELETE /api/v1/user/{user}/bank/{bank}';
const BONUS_SUMMARY = 'GET /api/v1/user/{user}/bonus/assets/{asset?}';
const BONUS_SHOW = 'GET /api/v1/user/{user}/bonus/{bonus}';
const CARD_CREATE = 'POST /api/v1/user/{user}/card';
const CARD_LIST = 'GET /api/v1/user/{user}/card';
const CARD_SHOW = 'GET /api/v1/user/{user}/card/{card}';

const UNAUTHORIZED = 'This action is unauthorized.';

/** The route's unauthorized refusal (403 or 409, section 5.6) answered with `message` instead of the text 5.6 gives. */
const unauthorizedAs = (route: string, message: string) => ({ transform: { route, apply: (body: any) => (body?.message === UNAUTHORIZED ? { body: { message } } : undefined) } });
/** The route's 403 for an inactive account answered with the unauthorized text instead of saying the account is inactive. */
const inactiveAsUnauthorized = (route: string) => ({ transform: { route, status: 403, apply: (body: any) => (/inactive/i.test(String(body?.message)) ? { body: { message: UNAUTHORIZED } } : undefined) } });
/** A created record whose `field` is exactly 191 characters refused with 422 keyed by it (a `max:190` slip). */
const refused191 = (route: string, field: string) => ({
  transform: {
    route,
    status: 201,
    apply: (body: any) =>
      typeof body?.data?.[field] === 'string' && [...body.data[field]].length === 191
        ? { status: 422, body: { message: `The ${field} field must not be greater than 190 characters.`, errors: { [field]: [`The ${field} field must not be greater than 190 characters.`] } } }
        : undefined,
  },
});
/** ISO 8601 of the same instant written in +02:00 (local time with its offset) instead of UTC. */
const plusTwo = (iso: string) => {
  const ms = Date.parse(iso);
  const micros = /\.(\d{6})Z$/.exec(iso)?.[1] ?? '000000';
  return `${new Date(ms + 2 * 3600_000).toISOString().slice(0, 19)}.${micros}+02:00`;
};

const written: Mutant[] = [
  // --- authentication ---
  // white-box round wb3
  { name: 'wb3-login-2fa-format-unchecked-for-2fa-accounts', clause: '8', group: 'authentication', description: 'section 8 ("authenticate.2fa | exactly 6 digits", "enforced as validation errors, status 422"): for an account with 2FA a 2fa of 5 or 7 digits is checked as a wrong code (403) instead of 422', mutation: { deviation: 'wb3.login-2fa-digits-unchecked-for-2fa-accounts' } },
  // white-box round wb3
  { name: 'wb3-logout-destroys-all-user-tokens', clause: '4.5', group: 'authentication', description: 'sections 4.5 ("Destroys the token") and 5.2 ("Its id is the bearer token, valid for ttl seconds"): logout destroys every token of the user, so another session of the same user answers 401', mutation: { deviation: 'wb3.logout-destroys-all-user-tokens' } },
  // white-box round wb3
  { name: 'wb3-jwt-403-message-key', clause: '7', group: 'authentication', description: 'section 7 ("{ error: string } for authentication failures"): JWT login with wrong credentials answers 403 { message } instead of { error }', mutation: { transform: { route: JWT, status: 403, apply: (body) => ({ body: { message: body.error } }) } } },
  // white-box round wb3
  { name: 'wb3-login-425-message-key', clause: '7', group: 'authentication', description: 'section 7 ("{ error: string } for authentication failures"): the 425 of a restricted login answers { message } instead of { error }', mutation: { transform: { route: LOGIN, status: 425, apply: (body) => ({ body: { message: body.error } }) } } },
  // white-box round wb3
  { name: 'wb3-jwt-session-created-plus-two', clause: '1', group: 'authentication', description: 'section 1.4 ("The authentication response uses ISO 8601 UTC strings with microseconds"): the JWT Session writes created as local time with +02:00 (same instant), not UTC', mutation: { transform: { route: JWT, status: 200, apply: (body) => void (body.data.created = plusTwo(body.data.created)) } } },
  // white-box round wb3
  { name: 'wb3-jwt-token-without-numeric-id', clause: '2.1', group: 'authentication', description: 'section 2.1 ("Access token, form <numeric_id>|<secret>"): the JWT Session answers the secret alone as id', mutation: { transform: { route: JWT, status: 200, apply: (body) => void (body.data.id = String(body.data.id).split('|')[1]) } } },

  // --- password ---
  // white-box round wb3
  { name: 'wb3-reset-200-unwrapped', clause: '4.4', group: 'password', description: 'section 4.4 ("200: { data: { message: string } }"): a successful reset answers { message } without the data envelope', mutation: { transform: { route: RESET, status: 200, apply: (body) => ({ body: { message: body.data?.message } }) } } },
  // white-box round wb3
  { name: 'wb3-reset-422-without-errors-map', clause: '7', group: 'password', description: 'section 7 ("Validation (422): { message: string, errors: { <field_name>: [string, ...] } }"): reset-password answers 422 { message } without errors', mutation: { transform: { route: RESET, status: 422, apply: (body) => ({ body: { message: body.message } }) } } },
  // white-box round wb3
  { name: 'wb3-reset-422-keyed-reset-token', clause: '4.4', group: 'password', description: 'section 4.4 ("422 when the token is invalid (errors map keyed by token)"): the errors map of an invalid token is keyed by reset_token', mutation: { transform: { route: RESET, status: 422, apply: (body) => (body.errors?.token ? { body: { message: body.message, errors: { reset_token: body.errors.token } } } : undefined) } } },

  // --- balances ---
  // white-box round wb3
  { name: 'wb3-coin-show-native-chain-named', clause: '2.2', group: 'balances', description: 'section 2.2 (chain "both null for a native coin"): the coin show names a native coin\u2019s own name and symbol as its chain (the lists stay right)', mutation: { transform: { route: COIN_SHOW, status: 200, apply: (body) => void (body.data?.chain?.name === null && body.data.chain.symbol === null ? (body.data.chain = { name: body.data.name, symbol: body.data.symbol }) : undefined) } } },
  // white-box round wb3
  { name: 'wb3-nft-list-quantity-zero', clause: '2.2', group: 'balances', description: 'section 2.2 ("NFT records carry a positive count"): the NFT list answers quantity 0 for every NFT', mutation: { transform: { route: NFT_LIST, status: 200, apply: (body) => void (Array.isArray(body.data) ? body.data.forEach((nft: any) => (nft.quantity = 0)) : undefined) } } },
  // white-box round wb3
  { name: 'wb3-nft-list-foreign-message-without-period', clause: '5', group: 'balances', description: 'section 5.6 ("with the message `This action is unauthorized.`"): another user\u2019s NFT list is refused with "This action is unauthorized" (no period)', mutation: unauthorizedAs(NFT_LIST, 'This action is unauthorized') },
  // white-box round wb3
  { name: 'wb3-coin-show-properties-for-coin', clause: '2.2', group: 'balances', description: 'section 2.2 (properties "empty for coins"): the coin show carries a property item for a coin', mutation: { transform: { route: COIN_SHOW, status: 200, apply: (body) => void (body.data && (body.data.properties = [{ type: 'standard', value: body.data.chain?.symbol ?? 'native' }])) } } },
  // white-box round wb3
  { name: 'wb3-coin-list-fiat-comma-decimal', clause: '1', group: 'balances', description: 'section 1.5 ("amounts are decimal strings"): the coin list writes fiat available with a decimal comma (61234,55)', mutation: { transform: { route: COIN_LIST, status: 200, apply: (body) => void body.data?.coins?.forEach((coin: any) => (coin.amounts.fiat.available = String(coin.amounts.fiat.available).replace('.', ','))) } } },

  // --- banks ---
  // white-box round wb3
  { name: 'wb3-banks-filtered-list-holds-deleted', clause: '4.10', group: 'banks', description: 'section 4.10 (Delete; "List ... { data: [<Bank>] }" of the user\u2019s banks): a list with a filter still holds deleted banks (the unfiltered list drops them)', mutation: { deviation: 'wb3.banks-filtered-list-holds-deleted' } },
  // white-box round wb3
  { name: 'wb3-banks-delete-path-user-unchecked', clause: '5', group: 'banks', description: 'section 5.6 ("Access to another user\u2019s resources ... yields 403 or 409"): DELETE /user/{other}/bank/{theirs} deletes another user\u2019s bank (200): delete alone has no owner guard', mutation: { deviation: 'wb3.banks-delete-path-user-unchecked' } },
  // white-box round wb3
  { name: 'wb3-banks-show-404-error-key', clause: '7', group: 'banks', description: 'section 7 ("{ message: string } for most other errors"; 404 "no record found (message: no query results)"): bank show answers 404 { error } instead of { message }', mutation: { transform: { route: BANK_SHOW, status: 404, apply: (body) => ({ body: { error: body.message } }) } } },
  // white-box round wb3
  { name: 'wb3-banks-iban-191-refused', clause: '8', group: 'banks', description: 'sections 4.10/8 ("bank.iban | max 191"): an iban of exactly 191 characters is refused with 422 (max 190)', mutation: refused191(BANK_CREATE, 'iban') },
  // white-box round wb3
  { name: 'wb3-banks-bank-name-191-refused', clause: '8', group: 'banks', description: 'sections 4.10/8 ("bank.bankName | max 191"): a bankName of exactly 191 characters is refused with 422 (max 190)', mutation: refused191(BANK_CREATE, 'bankName') },
  // white-box round wb3
  { name: 'wb3-banks-delete-inactive-message-unauthorized', clause: '5', group: 'banks', description: 'section 5.6 ("Inactive accounts receive 403 with a message that the account is inactive on bank ... endpoints"): bank delete answers an inactive account "This action is unauthorized."', mutation: inactiveAsUnauthorized(BANK_DELETE) },
  // white-box round wb3
  { name: 'wb3-banks-list-foreign-message-forbidden', clause: '5', group: 'banks', description: 'section 5.6 ("yields 403 or 409 with the message `This action is unauthorized.`"): another user\u2019s bank list is refused with "Forbidden."', mutation: unauthorizedAs(BANK_LIST, 'Forbidden.') },

  // --- bonuses ---
  // white-box round wb3
  { name: 'wb3-bonuses-pending-filter-holds-canceled', clause: '4.11', group: 'bonuses', description: 'section 4.11 (query status "distributed, pending, canceled"): status=pending also lists the canceled bonuses (the other values stay right)', mutation: { deviation: 'wb3.bonuses-pending-filter-holds-canceled' } },
  // white-box round wb3
  { name: 'wb3-bonuses-summary-inactive-message-unauthorized', clause: '5', group: 'bonuses', description: 'section 5.6 ("Inactive accounts receive 403 with a message that the account is inactive on ... bonus ... endpoints"): the bonus summary answers an inactive account "This action is unauthorized."', mutation: inactiveAsUnauthorized(BONUS_SUMMARY) },
  // white-box round wb3
  { name: 'wb3-bonuses-show-status-cancelled-spelling', clause: '2.5a', group: 'bonuses', description: 'section 2.5a (status "distributed, pending, canceled"): the bonus show writes a canceled bonus as "cancelled"', mutation: { transform: { route: BONUS_SHOW, status: 200, apply: (body) => void (body.data?.status === 'canceled' ? (body.data.status = 'cancelled') : undefined) } } },
  // white-box round wb3
  { name: 'wb3-bonuses-show-foreign-message-forbidden', clause: '5', group: 'bonuses', description: 'section 5.6 ("yields 403 or 409 with the message `This action is unauthorized.`"): the bonus show under another user\u2019s id is refused with "Forbidden."', mutation: unauthorizedAs(BONUS_SHOW, 'Forbidden.') },

  // --- cards ---
  // white-box round wb3
  { name: 'wb3-cards-pair-answered-year-first', clause: '2.5', group: 'cards', description: 'sections 2.5/4.6a (expirationDate "Format m/y"): a card created from expirationMonth and expirationYear answers its expirationDate year first (30/06)', mutation: { deviation: 'wb3.cards-pair-answered-year-first' } },
  // white-box round wb3
  { name: 'wb3-cards-show-404-own-message', clause: '7', group: 'cards', description: 'section 7 (404 "no record found (message: no query results)"): card show answers 404 { message: "Card not found." }', mutation: { transform: { route: CARD_SHOW, status: 404, apply: () => ({ body: { message: 'Card not found.' } }) } } },
  // white-box round wb3
  { name: 'wb3-cards-list-inactive-message-unauthorized', clause: '5', group: 'cards', description: 'section 5.6 ("Inactive accounts receive 403 with a message that the account is inactive on ... card endpoints"): the card list answers an inactive account "This action is unauthorized."', mutation: inactiveAsUnauthorized(CARD_LIST) },
  // white-box round wb3
  { name: 'wb3-cards-show-foreign-message-forbidden', clause: '5', group: 'cards', description: 'section 5.6 ("yields 403 or 409 with the message `This action is unauthorized.`"): card show under another user\u2019s id is refused with "Forbidden."', mutation: unauthorizedAs(CARD_SHOW, 'Forbidden.') },
  // white-box round wb3
  { name: 'wb3-cards-holder-name-191-refused', clause: '8', group: 'cards', description: 'sections 4.6a/8 ("card.holderName | max 191"): a holderName of exactly 191 characters is refused with 422 (max 190)', mutation: refused191(CARD_CREATE, 'holderName') },
  // white-box round wb3
  { name: 'wb3-cards-alias-191-refused', clause: '8', group: 'cards', description: 'sections 4.6a/8 ("card.alias | max 191"): an alias of exactly 191 characters is refused with 422 (max 190)', mutation: refused191(CARD_CREATE, 'alias') },
  // white-box round wb3
  { name: 'wb3-cards-list-last-four-masked', clause: '2.5', group: 'cards', description: 'section 2.5 (lastFourDigits "4 digits"): the card list masks lastFourDigits as **34 (create and show stay right)', mutation: { transform: { route: CARD_LIST, status: 200, apply: (body) => void body.data?.forEach?.((card: any) => (card.lastFourDigits = `**${String(card.lastFourDigits).slice(2)}`)) } } },
];

const BONUS_LIST = 'GET /api/v1/user/{user}/bonus';

/** Written after the first 33 were run. */
const writtenLater: Mutant[] = [
  // white-box round wb3
  { name: 'wb3-jwt-logout-revoked-on-logout-only', clause: '4.5', group: 'authentication', description: 'sections 4.5/5.4 ("destroys the token for both kinds of authentication"): a JWT-issued token logged out is only marked revoked, a mark logout alone reads: it still opens every other protected endpoint', mutation: { deviation: 'wb3.jwt-logout-revoked-on-logout-only' } },
  // white-box round wb3
  { name: 'wb3-jwt-tokens-never-expire', clause: '5', group: 'authentication', description: 'sections 5.2 ("Its id is the bearer token, valid for ttl seconds, until until") and 5.3 (401 without valid authentication): a token issued by JWT login still authenticates after its until (password-login tokens expire)', mutation: { deviation: 'wb3.jwt-tokens-expiry-ignored' } },
  // white-box round wb3
  {
    name: 'wb3-cards-image2-id-of-image1',
    clause: '2.5',
    group: 'cards',
    description: 'section 2.5 (cardImage2 "Identifier of the stored second image"): every card answers the first image\u2019s identifier as cardImage2 (a copy-paste of the first upload), in create, list and show',
    mutation: {
      transforms: [
        { route: CARD_CREATE, status: 201, apply: (body: any) => void (body.data && (body.data.cardImage2 = body.data.cardImage1)) },
        { route: CARD_SHOW, status: 200, apply: (body: any) => void (body.data && (body.data.cardImage2 = body.data.cardImage1)) },
        { route: CARD_LIST, status: 200, apply: (body: any) => void body.data?.forEach?.((card: any) => (card.cardImage2 = card.cardImage1)) },
      ],
    },
  },
  // white-box round wb3
  { name: 'wb3-cards-list-first-card-twice', clause: '4.6a', group: 'cards', description: 'section 4.6a ("List ... 200 { data: [<Card>] }"): once the user has two cards the list answers the newest in place of the second (a join gone wrong)', mutation: { transform: { route: CARD_LIST, status: 200, apply: (body) => void (Array.isArray(body.data) && body.data.length > 1 ? (body.data[1] = body.data[0]) : undefined) } } },
  // white-box round wb3
  { name: 'wb3-bonuses-list-last-twice', clause: '4.11', group: 'bonuses', description: 'section 4.11 ("List ... 200 { data: [<Bonus>] }"): once the user has two bonuses the list shows its last bonus twice (a join gone wrong)', mutation: { transform: { route: BONUS_LIST, status: 200, apply: (body) => void (Array.isArray(body.data) && body.data.length > 1 ? body.data.push(body.data[body.data.length - 1]) : undefined) } } },
];

/**
 * White-box round wb3: 31 of its 37 mutants were caught when the round was held, before fixes (two more candidates
 * were dropped as open under some reading: the bonus summary's counts, and whose user object a bonus carries; both
 * advised on by the suite). Of the 6 survivors, 5 are closed and registered (branch fix-wb3), each by the check named:
 * - wb3-login-2fa-format-unchecked-for-2fa-accounts: a 2FA account's codes of 5 digits, 7 digits and 6 characters not
 *   all digits, sent in turn, each 422 keyed by 2fa (suites/authentication.test.ts; one failed login at most).
 * - wb3-jwt-logout-revoked-on-logout-only: a JWT-issued token logged out answers 401 on a balances and a bank endpoint.
 * - wb3-jwt-tokens-never-expire: a JWT login of state user.short-session answers 401 once until is past (the state
 *   promises its short lifetime for both ways of login, docs/provider-states.md), beside the password-login test.
 * - wb3-banks-filtered-list-holds-deleted: after a delete, lists filtered by the bank's currency and status do not hold it.
 * - wb3-cards-image2-id-of-image1: a card created with two different images (a PNG, a JPEG) answers two different
 *   identifiers in create and in show (whether show repeats create's identifiers stays advised on).
 * The sixth is not a deviation under every reading (roundWb3NotDeviations below); none is left open.
 */
const NOT_DEVIATIONS = new Set(['wb3-logout-destroys-all-user-tokens']);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb3Mutants: Mutant[] = [...written, ...writtenLater].filter((mutant) => !NOT_DEVIATIONS.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. None is left. */
export const roundWb3OpenGaps: Mutant[] = [];

/**
 * Written in round wb3 and judged afterwards (review, branch fix-wb3) not a deviation under every reading: section 4.5
 * says logout "destroys the token"; a logout that also destroys the user's other tokens (as a Laravel Sanctum
 * `tokens()->delete()` does) is not forbidden by it. The suite advises on it, never fails it. Kept, unregistered, as
 * the record of the round; its score counts it out (31 caught of 36 when held). The access table no longer uses a
 * token issued before its logouts as the valid one (helpers/arrange/invariants.ts), and logout's own test advises.
 */
export const roundWb3NotDeviations: Mutant[] = [...written, ...writtenLater].filter((mutant) => NOT_DEVIATIONS.has(mutant.name));
