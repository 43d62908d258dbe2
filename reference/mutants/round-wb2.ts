import type { Mutant } from './types.js';

/**
 * White-box round wb2 (issue 27, "How to know it is deep"): deviations a real backend could ship,
 * written by a second reviewer who read suites/ and helpers/ and aimed at siblings, sequences, value
 * classes, combinations, exactness, leaks and error formats the checks do not look at. Each breaks a
 * rule that holds under every reading of the specification.
 */

const JWT = 'POST /api/v1/authenticate-jwt/{platform}';
const LOGOUT = 'POST /api/v1/user/logout';
const COIN_SHOW = 'GET /api/v1/user/{user}/balances/{asset}';
const NFT_SHOW = 'GET /api/v1/user/{user}/balances/nft/{asset}';
const BANK_CREATE = 'POST /api/v1/user/{user}/bank';
const BANK_SHOW = 'GET /api/v1/user/{user}/bank/{bank}';
const CARD_CREATE = 'POST /api/v1/user/{user}/card';

export const roundWb2Mutants: Mutant[] = [
  // --- authentication ---
  // white-box round wb2
  { name: 'wb2-jwt-session-until-equals-created', clause: '2.1', group: 'authentication', description: 'section 2.1/5.2: the JWT login Session writes until equal to created (a token already at its end), the password login stays right', mutation: { transform: { route: JWT, status: 200, apply: (body) => void (body.data.until = body.data.created) } } },
  // white-box round wb2
  { name: 'wb2-jwt-session-user-id-not-uuid', clause: '2.1', group: 'authentication', description: 'section 2.1: the JWT login Session gives userId as the numeric primary key, not the user UUID (the password login stays right)', mutation: { transform: { route: JWT, status: 200, apply: (body) => void (body.data.userId = '10234') } } },
  // white-box round wb2
  { name: 'wb2-jwt-locked-message-key', clause: '7', group: 'authentication', description: 'section 7: the 423 of a locked account at JWT login answers { message } instead of { error } (authentication failures)', mutation: { transform: { route: JWT, status: 423, apply: (body) => ({ body: { message: body.error } }) } } },
  // white-box round wb2
  { name: 'wb2-logout-401-message-key', clause: '7', group: 'authentication', description: 'section 7/4.5: logout without valid authentication answers 401 { message } instead of { error }', mutation: { transform: { route: LOGOUT, status: 401, apply: (body) => ({ body: { message: body.error } }) } } },

  // --- password ---
  // white-box round wb2 (open gap of issue 27, closed)
  { name: 'wb2-forgot-unknown-email-with-type-accepted', clause: '4.3', group: 'password', description: 'section 4.3/7: an unknown e-mail sent with a type (text or link) is answered 200 instead of 422 keyed by email', mutation: { deviation: 'wb2.forgot-unknown-email-with-type-accepted' } },
  // white-box round wb2 (open gap of issue 27, closed)
  // white-box round wb2
  // white-box round wb2
  { name: 'wb2-forgot-link-answer-carries-token', clause: '4.4', group: 'password', description: 'section 4.4/principle 4: forgot-password of type link answers the reset link, token included, in its message', mutation: { deviation: 'wb2.forgot-link-answer-carries-token' } },
  // white-box round wb2

  // --- balances ---
  // white-box round wb2
  { name: 'wb2-nft-show-quantity-negative', clause: '2.2', group: 'balances', description: 'section 2.2: the NFT show answers quantity -1 (the coins\u2019 value) where NFT records carry a positive count; the NFT list stays right', mutation: { transform: { route: NFT_SHOW, status: 200, apply: (body) => void (body.data.quantity = -1) } } },
  // white-box round wb2
  { name: 'wb2-nft-show-fiat-amount-exponent', clause: '1', group: 'balances', description: 'section 1.5: the NFT show writes its fiat reserve as 1E-8 (a float\u2019s notation) instead of a decimal string', mutation: { transform: { route: NFT_SHOW, status: 200, apply: (body) => void (body.data.amounts.fiat.reserve = '1E-8') } } },
  // white-box round wb2
  { name: 'wb2-coin-show-available-as-number', clause: '1', group: 'balances', description: 'section 1.5/2.2: the coin show writes crypto available as a JSON number; the lists stay right', mutation: { transform: { route: COIN_SHOW, status: 200, apply: (body) => void (body.data.amounts.crypto.available = Number(body.data.amounts.crypto.available)) } } },
  // white-box round wb2
  { name: 'wb2-nft-show-expired-token-accepted', clause: '5', group: 'balances', description: 'section 5.3: the NFT show does not check a token\u2019s expiry; an expired token reads the balance instead of 401', mutation: { deviation: 'wb2.expiry-ignored-on-nft-show' } },

  // --- banks ---
  // white-box round wb2 (open gap of issue 27, closed)
  { name: 'wb2-banks-created-at-local-time', clause: '2.4', group: 'banks', description: 'sections 1.4/2.4: createdAt written from the server\u2019s local time (UTC+1) as Unix seconds, an hour ahead of the creation', mutation: { deviation: 'wb2.banks-created-at-local-time' } },
  // white-box round wb2 (open gap of issue 27, closed)
  { name: 'wb2-banks-422-two-fields-without-message', clause: '7', group: 'banks', description: 'section 7: a bank create 422 naming two or more fields answers { errors } without message', mutation: { transform: { route: BANK_CREATE, status: 422, apply: (body) => (Object.keys(body.errors ?? {}).length > 1 ? { body: { errors: body.errors } } : undefined) } } },
  // white-box round wb2
  { name: 'wb2-banks-list-account-platform-only', clause: '4.10', group: 'banks', description: 'section 4.10: the unfiltered list holds only the banks on the account\u2019s own platform; a bank of the user on another platform is missing', mutation: { deviation: 'wb2.banks-list-account-platform-only' } },
  // white-box round wb2
  // white-box round wb2
  { name: 'wb2-banks-show-swift-bic8', clause: '2.4', group: 'banks', description: 'section 2.4: the show serializer writes swift as its BIC8 (first 8 characters); create and list stay right', mutation: { transform: { route: BANK_SHOW, status: 200, apply: (body) => void (body.data.swift = String(body.data.swift).slice(0, 8)) } } },
  // white-box round wb2
  // white-box round wb2
  {
    name: 'wb2-banks-delete-403-labelled-text-plain',
    clause: '7',
    group: 'banks',
    description: 'sections 1.2/7: the 403 error of bank delete (a used bank, another user\u2019s bank) is labelled text/plain',
    mutation: { wire: (answer, reply) => void (answer.method === 'DELETE' && answer.url === '/api/v1/user/:user/bank/:bank' && answer.status === 403 ? reply.header('content-type', 'text/plain; charset=utf-8') : undefined) },
  },

  // --- bonuses ---
  // white-box round wb2 (open gap of issue 27, closed)
  { name: 'wb2-bonuses-summary-asset-entry-twice', clause: '4.11', group: 'bonuses', description: 'section 4.11/2.5b: the asset summary with its {asset} segment answers that asset\u2019s entry twice', mutation: { deviation: 'wb2.bonuses-summary-asset-entry-twice' } },
  // white-box round wb2
  { name: 'wb2-bonuses-list-anti-phishing-unmasked', clause: '2.6', group: 'bonuses', description: 'section 2.6: the bonus list writes the user\u2019s anti-phishing code unmasked (show masks it)', mutation: { deviation: 'wb2.bonuses-list-anti-phishing-unmasked' } },
  // white-box round wb2
  { name: 'wb2-bonuses-show-email-unmasked', clause: '2.6', group: 'bonuses', description: 'section 2.6: the bonus show writes the user\u2019s e-mail unmasked (the list masks it)', mutation: { deviation: 'wb2.bonuses-show-email-unmasked' } },
  // white-box round wb2
  // white-box round wb2
  { name: 'wb2-bonuses-show-carries-other-session-token', clause: '2.5a', group: 'bonuses', description: 'principle 4: the bonus show carries `reference`, the latest access token issued to another user, in base64', mutation: { deviation: 'wb2.bonuses-show-carries-other-session-token' } },
  // white-box round wb2
  { name: 'wb2-bonuses-list-account-platform-only', clause: '4.11', group: 'bonuses', description: 'section 4.11: the unfiltered list holds only the bonuses on the account\u2019s own platform; the user\u2019s bonuses on another platform are missing', mutation: { deviation: 'wb2.bonuses-list-account-platform-only' } },

  // --- cards ---
  // white-box round wb2 (open gap of issue 27, closed)
  { name: 'wb2-cards-last-four-0000-refused', clause: '8', group: 'cards', description: 'section 8/4.6a: lastFourDigits read as a number, so 0000 (4 digits) is refused as missing', mutation: { deviation: 'wb2.cards-last-four-0000-refused' } },
  // white-box round wb2 (open gap of issue 27, closed)
  { name: 'wb2-cards-alias-unique-per-user', clause: '4.6a', group: 'cards', description: 'section 4.6a: a second card with an alias the user already has is refused 422 (a unique rule the constraint column does not give)', mutation: { deviation: 'wb2.cards-alias-unique-per-user' } },
  // white-box round wb2 (open gap of issue 27, closed)
  { name: 'wb2-cards-created-at-local-time', clause: '2.5', group: 'cards', description: 'sections 1.4/2.5: createdAt written from the server\u2019s local time (UTC+1) as Unix seconds, an hour ahead of the creation', mutation: { deviation: 'wb2.cards-created-at-local-time' } },
  // white-box round wb2
  // white-box round wb2
  // white-box round wb2
  { name: 'wb2-cards-list-account-platform-only', clause: '4.6a', group: 'cards', description: 'section 4.6a: the unfiltered list holds only the cards on the account\u2019s own platform; a card of the user on another platform is missing', mutation: { deviation: 'wb2.cards-list-account-platform-only' } },
  // white-box round wb2
  // white-box round wb2
  { name: 'wb2-cards-show-carries-other-session-token', clause: '2.5', group: 'cards', description: 'principle 4: the card show carries `reference`, the latest access token issued to another user, in base64', mutation: { deviation: 'wb2.cards-show-carries-other-session-token' } },
  // white-box round wb2
  { name: 'wb2-cards-create-inactive-message-unauthorized', clause: '5', group: 'cards', description: 'section 5.6: card create refuses an inactive account with 403 "This action is unauthorized." instead of a message that the account is inactive', mutation: { transform: { route: CARD_CREATE, status: 403, apply: (body) => (/inactive/i.test(String(body.message)) ? { body: { message: 'This action is unauthorized.' } } : undefined) } } },
  // white-box round wb2
  {
    name: 'wb2-cards-create-answer-carries-owner-password-hash',
    clause: '2.5',
    group: 'cards',
    description: 'principle 4: the card create answer (201 only) carries its eager-loaded owner, bcrypt password hash included',
    mutation: { transform: { route: CARD_CREATE, status: 201, apply: (body) => void (body.data.user = { id: body.data.id, password: '$2y$10$' + 'N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' }) } },
  },
  // white-box round wb2
  { name: 'wb2-cards-422-alias-message-as-string', clause: '7', group: 'cards', description: 'section 7: a card create 422 writes the alias errors as one string instead of an array of strings', mutation: { transform: { route: CARD_CREATE, status: 422, apply: (body) => void (Array.isArray(body.errors?.alias) ? (body.errors.alias = body.errors.alias[0]) : undefined) } } },
];

/**
 * White-box round wb2: 22 of its 30 mutants were caught when the round was held, before fixes. The 8 it left open
 * (issue 27) are closed and registered above, each marked "open gap of issue 27, closed"; none is left here.
 */
export const roundWb2OpenGaps: Mutant[] = [];

/**
 * Written in round wb2 and judged afterwards (review of issue 27) not a deviation under every reading: section 4.4
 * does not say how long a reset token lives, so a token spent by a refused reset is advised on, not failed. Kept,
 * unregistered, as the record of the round; its score counts it out (22 caught of 29).
 * Judged so later too (fix-wb15c, reading round r18): wb2-banks-iban-unique-per-currency. Sections 4.10 and 8 say
 * "unique" without a scope, and one multi-currency IBAN with a bank per currency is a reading
 * (allowed-r18-iban-unique-per-currency), which a unique index over (iban, currency) cannot be told from: the copy of a
 * taken IBAN is now sent in the first bank's currency (refused under every scope) and a 201 in another is advised on.
 */
export const roundWb2NotDeviations: Mutant[] = [
  { name: 'wb2-banks-iban-unique-per-currency', clause: '4.10', group: 'banks', description: 'section 4.10/8: a unique index over (iban, currency): the caller\u2019s own IBAN sent again with another currency is stored instead of 422 keyed by iban', mutation: { deviation: 'wb2.banks-iban-unique-per-currency' } },
  { name: 'wb2-reset-refused-spends-token', clause: '4.4', group: 'password', description: 'section 4.4: a reset refused for a too-short password (422) spends the valid token, so the retry with a valid password is refused', mutation: { deviation: 'wb2.reset-refused-spends-token' } },
];
