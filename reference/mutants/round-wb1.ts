import type { Mutant } from './types.js';

/**
 * White-box round wb1 (issue 27, "How to know it is deep"): deviations a real backend could ship,
 * written by a reviewer who read suites/ and helpers/ and aimed at what the checks do not look at.
 * Each breaks a rule that holds under every reading of the specification.
 */

const LOGIN = 'POST /api/v1/authenticate';
const JWT = 'POST /api/v1/authenticate-jwt/{platform}';
const BANK_CREATE = 'POST /api/v1/user/{user}/bank';
const BONUS_SHOW = 'GET /api/v1/user/{user}/bonus/{bonus}';
const COIN_SHOW = 'GET /api/v1/user/{user}/balances/{asset}';
const NFT_SHOW = 'GET /api/v1/user/{user}/balances/nft/{asset}';

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const roundWb1Mutants: Mutant[] = [
  // --- authentication ---
  // white-box round wb1
  { name: 'wb1-token-id-ignored', clause: '5', group: 'authentication', description: 'section 2.1/5.3: the bearer token is found by its secret alone; a wrong numeric id with a real secret authenticates', mutation: { deviation: 'wb1.token-id-ignored' } },
  // white-box round wb1
  { name: 'wb1-token-secret-first-40', clause: '5', group: 'authentication', description: 'section 5.3: the token secret compared on its first 40 characters; the real token with characters appended authenticates', mutation: { deviation: 'wb1.token-secret-first-40' } },
  // white-box round wb1
  { name: 'wb1-logout-expired-token-accepted', clause: '4.5', group: 'authentication', description: 'section 4.5/5.3: logout answers 200 for an expired token instead of 401', mutation: { deviation: 'wb1.logout-expiry-ignored' } },
  // white-box round wb1
  { name: 'wb1-login-2fa-null-skips-check', clause: '4.2', group: 'authentication', description: 'section 4.2/5.5: a "2fa": null lets a 2FA account in with its password alone (no valid code)', mutation: { deviation: 'wb1.login-2fa-null-skipped' } },
  // white-box round wb1
  { name: 'wb1-jwt-email-claim-expired-412', clause: '4.1', group: 'authentication', description: 'section 4.1/7: an expired JWT naming its user by email answers 412 instead of 416 (the id claim still 416)', mutation: { deviation: 'wb1.jwt-email-claim-expired-412' } },
  // white-box round wb1
  { name: 'wb1-login-locked-message-key', clause: '7', group: 'authentication', description: 'section 7: the 423 of a locked account answers { message } instead of { error }', mutation: { transform: { route: LOGIN, status: 423, apply: (body) => ({ body: { message: body.error } }) } } },
  // white-box round wb1
  { name: 'wb1-logout-destroys-newest-token', clause: '4.5', group: 'authentication', description: 'section 4.5/5.4: logout destroys the user’s newest token instead of the one sent, which stays valid', mutation: { deviation: 'wb1.logout-destroys-newest-token' } },
  // white-box round wb1
  { name: 'wb1-login-inactive-message-key', clause: '7', group: 'authentication', description: 'section 7: the 401 of an inactive account at login answers { message } instead of { error }', mutation: { transform: { route: LOGIN, status: 401, apply: (body) => ({ body: { message: body.error } }) } } },
  // white-box round wb1
  { name: 'wb1-login-ttl-in-minutes', clause: '2.1', group: 'authentication', description: 'section 2.1/5.2: the password login Session gives ttl in minutes (until - created is 60 times ttl)', mutation: { transform: { route: LOGIN, status: 200, apply: (body) => void (body.data.ttl = Math.max(1, Math.round(body.data.ttl / 60))) } } },
  // white-box round wb1
  { name: 'wb1-jwt-ttl-in-minutes', clause: '2.1', group: 'authentication', description: 'section 2.1/5.2: the JWT login Session gives ttl in minutes (until - created is 60 times ttl)', mutation: { transform: { route: JWT, status: 200, apply: (body) => void (body.data.ttl = Math.max(1, Math.round(body.data.ttl / 60))) } } },

  // --- password ---
  // white-box round wb1
  { name: 'wb1-reset-422-echoes-password', clause: '4.4', group: 'password', description: 'principle 4 / section 4.4: the 422 for an invalid token echoes the input, the new password included', mutation: { deviation: 'wb1.reset-422-echoes-input' } },
  // white-box round wb1
  { name: 'wb1-forgot-type-null-refused', clause: '4.3', group: 'password', description: 'section 4.3: type is nullable, but "type": null is refused with 422', mutation: { deviation: 'wb1.forgot-type-null-refused' } },
  // white-box round wb1
  { name: 'wb1-forgot-text-answer-unwrapped', clause: '4.3', group: 'password', description: 'section 4.3/1.3: forgot-password with type text answers { message } instead of { data: { message } }', mutation: { deviation: 'wb1.forgot-text-answer-unwrapped' } },

  // --- balances ---
  // wb1-balances-repeated-filter-twice and wb1-balances-nft-repeated-filter-twice (a symbol named twice listed twice) are
  // allowed readings since review-ah F1: 4.6 and 4.8 leave a repeated symbol open (probes-review-ah.ts).
  // white-box round wb1
  { name: 'wb1-balances-coin-show-foreign-message', clause: '5', group: 'balances', description: 'section 5.6: a coin balance of another user is refused 403 with "Forbidden." instead of "This action is unauthorized."', mutation: { transform: { route: COIN_SHOW, status: 403, apply: () => ({ body: { message: 'Forbidden.' } }) } } },
  // white-box round wb1
  { name: 'wb1-balances-nft-show-foreign-error-key', clause: '7', group: 'balances', description: 'section 7: an NFT balance of another user is refused 403 with { error } instead of { message }', mutation: { transform: { route: NFT_SHOW, status: 403, apply: (body) => ({ body: { error: body.message } }) } } },

  // --- banks ---
  // white-box round wb1
  { name: 'wb1-banks-show-deleted', clause: '4.10', group: 'banks', description: 'section 4.10/7: a deleted bank is still shown (200) instead of 404; the list drops it', mutation: { deviation: 'wb1.banks-show-deleted' } },
  // white-box round wb1
  { name: 'wb1-banks-show-newest-of-user', clause: '4.10', group: 'banks', description: 'section 4.10: show answers the user\u2019s newest bank whatever id of theirs is asked', mutation: { deviation: 'wb1.banks-show-newest-of-user' } },
  // white-box round wb1
  { name: 'wb1-banks-used-delete-refused-but-removed', clause: '3', group: 'banks', description: 'section 3/7: a used bank is refused with 403 but removed all the same (no longer listed)', mutation: { deviation: 'wb1.banks-used-delete-refused-but-removed' } },
  // white-box round wb1
  { name: 'wb1-banks-foreign-delete-refused-but-removed', clause: '5', group: 'banks', description: 'section 5.6: deleting another user\u2019s bank under one\u2019s own id is refused with 409 but the bank is removed', mutation: { deviation: 'wb1.banks-foreign-delete-refused-but-removed' } },
  // white-box round wb1
  { name: 'wb1-banks-swift-upper-case-only', clause: '4.10', group: 'banks', description: 'section 4.10: a swift with lower-case letters (alphanumeric, 8 to 11) is refused with 422', mutation: { deviation: 'wb1.banks-swift-upper-case-only' } },
  // white-box round wb1
  { name: 'wb1-banks-bank-name-restricted', clause: '4.10', group: 'banks', description: 'section 4.10: a bankName with punctuation or non-ASCII letters (O\u2019Brien & Co, Soci\u00e9t\u00e9) is refused with 422 (only max 191 is given)', mutation: { deviation: 'wb1.banks-bank-name-restricted' } },
  // white-box round wb1
  { name: 'wb1-banks-created-at-from-body', clause: '4.10', group: 'banks', description: 'sections 1.4/4.10: createdAt of a new bank mass-assigned from a createdAt of the body', mutation: { deviation: 'wb1.banks-created-at-from-body' } },
  // white-box round wb1
  {
    name: 'wb1-banks-422-snake-keys',
    clause: '7',
    group: 'banks',
    description: 'section 7: the 422 errors map of bank create keyed by snake_case names (bank_name) instead of the fields sent',
    mutation: { transform: { route: BANK_CREATE, status: 422, apply: (body) => ({ body: { ...body, errors: Object.fromEntries(Object.entries(body.errors ?? {}).map(([k, v]) => [snake(k), v])) } }) } },
  },

  // --- bonuses ---
  // white-box round wb1
  { name: 'wb1-bonuses-summary-asset-inactive-allowed', clause: '5', group: 'bonuses', description: 'section 5.6: an inactive account reads the bonus summary with its {asset} segment (200) instead of 403', mutation: { deviation: 'wb1.bonuses-summary-asset-inactive-allowed' } },
  // white-box round wb1
  { name: 'wb1-bonuses-summary-asset-totals-all', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5b: the summary with {asset} counts and sums the bonuses of every asset under that asset', mutation: { deviation: 'wb1.bonuses-summary-asset-amount-over-all' } },
  // white-box round wb1
  { name: 'wb1-bonuses-show-404-error-key', clause: '7', group: 'bonuses', description: 'section 7: bonus show answers 404 with { error } instead of { message }', mutation: { transform: { route: BONUS_SHOW, status: 404, apply: (body) => ({ body: { error: body.message } }) } } },

  // --- cards ---
  // white-box round wb1
  { name: 'wb1-cards-show-newest-of-user', clause: '4.6a', group: 'cards', description: 'section 4.6a: show answers the user\u2019s newest card whatever id of theirs is asked', mutation: { deviation: 'wb1.cards-show-newest-of-user' } },
  // white-box round wb1
  { name: 'wb1-cards-holder-name-letters-only', clause: '4.6a', group: 'cards', description: 'section 4.6a: a holderName with an apostrophe, hyphen, dot or accent is refused with 422 (only max 191 is given)', mutation: { deviation: 'wb1.cards-holder-name-letters-only' } },
  // white-box round wb1
  { name: 'wb1-cards-last-four-as-number', clause: '4.6a', group: 'cards', description: 'section 2.5/4.6a: lastFourDigits stored as an integer, so 0042 is answered "42"', mutation: { deviation: 'wb1.cards-last-four-as-number' } },
  // white-box round wb1
  { name: 'wb1-cards-created-at-from-body', clause: '4.6a', group: 'cards', description: 'sections 1.4/4.6a: createdAt of a new card mass-assigned from a createdAt field of the form', mutation: { deviation: 'wb1.cards-created-at-from-body' } },
];
