import type { FastifyReply, FastifyRequest } from 'fastify';
import { fastifyPath, type Mutation } from '../mutation.js';
import { ROUTE, answered, claimsOf, type Seen } from './make.js';
import { only, parse, reading } from './reading.js';
import type { Mutant } from './types.js';

/**
 * White-box round wb7: deviations a real backend could ship, written by a seventh reviewer who read suites/ and
 * helpers/ and aimed at checks made in one place only: logout's destruction judged for password and JWT-by-id
 * sessions only (never a 2FA session, never a JWT naming the user by email); the token's form judged on some login
 * kinds only; a password in another letter case judged on an account without 2FA only; the lock of an account
 * judged without 2FA only; forgot-password's answer shape judged without `type: link` beside it; reset's e-mail
 * limit judged below 255 characters; the coin list filtered by symbols judged on coins with a chain; an NFT shown
 * beside the list by its symbol only; the status of a new record judged in one currency and one expiry form; the
 * stored text of long values judged by status only; status and currency filters judged on the account's own
 * platform only, and delete on records of that platform only. Each breaks a rule that holds under every reading
 * of the specification; its description quotes the sentence it breaks. Where a mutant needs the server's data it
 * turns on a `wb7.*` deviation a module honours (the smallest change); the others rewrite answers as sent or see
 * the request before it is routed.
 */

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '';
const bearerOf = (request: FastifyRequest) => /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]?.trim();
const urlOf = (route: string) => {
  const [method, template] = route.split(' ') as [string, string];
  return { method, url: fastifyPath(template) };
};

const FORGOT = 'POST /api/v1/user/forgot-password';
const RESET = 'POST /api/v1/user/reset-password';
const COIN_LIST = 'GET /api/v1/user/{user}/balances';
const NFT_SHOW = 'GET /api/v1/user/{user}/balances/nft/{asset}';
const BANK = { create: 'POST /api/v1/user/{user}/bank', list: ROUTE.bankList, show: 'GET /api/v1/user/{user}/bank/{bank}' } as const;
const CARD = { create: 'POST /api/v1/user/{user}/card', list: ROUTE.cardList, show: 'GET /api/v1/user/{user}/card/{card}' } as const;

const withCode = (request: Seen) => typeof request.body?.['2fa'] === 'string' && request.body['2fa'] !== '';
const jwtByEmail = (request: Seen) => {
  const claims = claimsOf(request);
  return typeof claims?.email === 'string' && claims.id === undefined;
};

/** The Session tokens a login route answers (`when` picks the logins), collected as they are sent. */
function issuedBy(login: string, when: (request: Seen) => boolean, answer: { method: string; url: string; status: number; payload: string }, reply: FastifyReply): string | undefined {
  const { method, url } = urlOf(login);
  if (answer.method !== method || answer.url !== url || answer.status !== 200 || !when(reply.request as unknown as Seen)) return undefined;
  const token = parse(answer.payload)?.data?.id;
  return typeof token === 'string' ? token : undefined;
}

const SPARED = 'x-wb7-logout-spared';

/**
 * Logout answers 200 `{ status }` to the tokens of the logins `when` picks but destroys nothing: the request reaches
 * the reference with a token it never issued (so nothing is destroyed) and its 401 is answered as the success.
 */
function logoutSpares(login: string, when: (request: Seen) => boolean): Mutation {
  const issued = new Set<string>();
  return {
    wire(answer, reply) {
      const token = issuedBy(login, when, answer, reply);
      if (token !== undefined) return void issued.add(token);
      if (answer.method === 'POST' && answer.url === '/api/v1/user/logout' && reply.request.headers[SPARED] === '1') {
        reply.code(200);
        return JSON.stringify({ status: 'success' });
      }
    },
    request(request) {
      const bearer = bearerOf(request);
      if (request.method === 'POST' && pathOf(request) === '/api/v1/user/logout' && bearer !== undefined && issued.has(bearer)) {
        request.headers[SPARED] = '1';
        request.headers.authorization = 'Bearer 0|wb7-never-issued';
      }
    },
  };
}

/** Logout answers the tokens of the logins `when` picks with `{ message }` instead of `{ status }` (it still destroys them). */
function logoutAnswersMessage(login: string, when: (request: Seen) => boolean): Mutation {
  const issued = new Set<string>();
  return {
    wire(answer, reply) {
      const token = issuedBy(login, when, answer, reply);
      if (token !== undefined) return void issued.add(token);
      if (answer.method !== 'POST' || answer.url !== '/api/v1/user/logout' || answer.status !== 200) return;
      const bearer = bearerOf(reply.request);
      if (bearer !== undefined && issued.has(bearer)) return JSON.stringify({ message: 'Successfully logged out.' });
    },
  };
}

/**
 * The Session of the logins `when` picks carries its token without the `<numeric_id>|` part (the plain-text secret of
 * a personal access token); the token still works: a request bearing the secret alone is mapped back to the whole.
 */
function tokenWithoutNumericId(login: string, when: (request: Seen) => boolean): Mutation {
  const whole = new Map<string, string>();
  return {
    wire(answer, reply) {
      const token = issuedBy(login, when, answer, reply);
      if (token === undefined || !token.includes('|')) return;
      const body = parse(answer.payload);
      const secret = token.slice(token.indexOf('|') + 1);
      whole.set(secret, token);
      body.data.id = secret;
      return JSON.stringify(body);
    },
    request(request) {
      const bearer = bearerOf(request);
      const token = bearer === undefined ? undefined : whole.get(bearer);
      if (token !== undefined) request.headers.authorization = `Bearer ${token}`;
    },
  };
}

/** The answers of several routes rewritten alike (the first that changes an answer wins). */
function everywhere(mutations: readonly Mutation[]): Mutation {
  return {
    wire(answer, reply) {
      for (const mutation of mutations) {
        const out = mutation.wire?.(answer, reply);
        if (out !== undefined) return out;
      }
    },
  };
}

const recordsOf = (body: any): any[] => (Array.isArray(body?.data) ? body.data : body?.data && typeof body.data === 'object' ? [body.data] : []);

/** Every record of a resource's create, list and show answers has `change` applied (a column that stores the value otherwise). */
function storedAs(routes: { create: string; list: string; show: string }, change: (record: any) => boolean): Mutation {
  const each = (body: any) => recordsOf(body).map(change).some(Boolean);
  return everywhere([answered(routes.create, 201, each), answered(routes.list, 200, each), answered(routes.show, 200, each)]);
}

/** A text field stored in a column of `length` characters (MySQL without strict mode cuts a longer value). */
const cutTo = (field: string, length: number) => (record: any) => typeof record?.[field] === 'string' && [...record[field]].length > length && ((record[field] = [...record[field]].slice(0, length).join('')), true);

const filtered = (request: Seen) => Object.keys(request.query ?? {}).some((key) => key.startsWith('assets'));

/** Characters outside the Basic Multilingual Plane (an emoji, a CJK extension letter) stored as `?`: a MySQL `utf8` (utf8mb3) column without strict mode. */
const astralAsQuestionMark = (field: string) => (record: any) => typeof record?.[field] === 'string' && /[\u{10000}-\u{10FFFF}]/u.test(record[field]) && ((record[field] = record[field].replace(/[\u{10000}-\u{10FFFF}]/gu, '?')), true);

/** A create answered 422 keyed by `field` where its record's `field` matches `pattern` (the record was stored all the same: a rule run after the insert). */
const refusedWhere = (route: string, field: string, pattern: RegExp, message: string) =>
  answered(route, 201, (body) => typeof body?.data?.[field] === 'string' && pattern.test(body.data[field]) && { status: 422, body: { message, errors: { [field]: [message] } } });

const written: Mutant[] = [
  // --- authentication ---
  // white-box round wb7
  { name: 'wb7-logout-keeps-2fa-session', clause: '4.5', group: 'authentication', description: 'sections 4.5/5.4 ("Destroys the token, for both kinds of authentication"; "POST /api/v1/user/logout destroys the token"): logout answers 200 { status } to the token of a login made with a 2FA code but destroys nothing (the 2FA session is kept in another guard\u2019s store), so the token still opens every protected endpoint', mutation: logoutSpares(ROUTE.login, withCode) },
  // white-box round wb7
  { name: 'wb7-logout-keeps-jwt-email-session', clause: '4.5', group: 'authentication', description: 'sections 4.5/5.4 ("Destroys the token, for both kinds of authentication"): logout answers 200 { status } to the token of a JWT login naming the user by email but destroys nothing; a JWT naming the user by id is destroyed', mutation: logoutSpares(ROUTE.jwt, jwtByEmail) },
  // white-box round wb7
  { name: 'wb7-logout-jwt-email-session-answers-message', clause: '4.5', group: 'authentication', description: 'sections 4.5/1.3 ("200: { status: string }"; "Exceptions: logout returns { status }"): logout of the token of a JWT login naming the user by email answers { message } instead of { status }', mutation: logoutAnswersMessage(ROUTE.jwt, jwtByEmail) },
  // white-box round wb7
  { name: 'wb7-login-2fa-token-without-numeric-id', clause: '2.1', group: 'authentication', description: 'section 2.1 ("id | string | Access token, form <numeric_id>|<secret>"): the Session of a login made with a 2FA code carries its token as the secret alone, without <numeric_id>| (the token still works)', mutation: tokenWithoutNumericId(ROUTE.login, withCode) },
  // white-box round wb7
  { name: 'wb7-jwt-email-token-without-numeric-id', clause: '2.1', group: 'authentication', description: 'section 2.1 ("id | string | Access token, form <numeric_id>|<secret>"): the Session of a JWT login naming the user by email carries its token as the secret alone (the token still works)', mutation: tokenWithoutNumericId(ROUTE.jwt, jwtByEmail) },
  // white-box round wb7
  { name: 'wb7-login-2fa-session-until-before-created', clause: '2.1', group: 'authentication', description: 'sections 2.1/5.2 ("until | ISO 8601 UTC timestamp, expiry"; "valid for ttl seconds, until until"): the Session of a login made with a 2FA code writes until and created swapped, so it expires before it was created', mutation: answered(ROUTE.login, 200, (body, request) => withCode(request) && typeof body?.data?.until === 'string' && typeof body.data.created === 'string' && body.data.until !== body.data.created && (([body.data.until, body.data.created] = [body.data.created, body.data.until]), true)) },
  // white-box round wb7
  { name: 'wb7-login-2fa-password-case-insensitive', clause: '4.2', group: 'authentication', description: 'sections 4.2/5.5 ("Login is refused for ... wrong credentials (403)"; docs/judging.md: "A password in another letter case is still a wrong password"): for an account with 2FA, the password in another letter case logs in together with a valid code (the code taken as the strong factor, the password compared without case)', mutation: { deviation: 'wb7.login-2fa-password-case-insensitive' } },
  // white-box round wb7
  { name: 'wb7-login-2fa-account-lock-unchecked', clause: '5', group: 'authentication', description: 'sections 5.5/4.2 ("Login is refused for ... locked accounts (423)"): a locked account with 2FA logs in with its password and a valid code (the lock is checked in the password-only branch)', mutation: { deviation: 'wb7.login-2fa-account-lock-unchecked' } },

  // white-box round wb7
  { name: 'wb7-logout-2fa-session-answers-message', clause: '4.5', group: 'authentication', description: 'sections 4.5/1.3 ("200: { status: string }"; "Exceptions: logout returns { status }"): logout of the token of a login made with a 2FA code answers { message } instead of { status }', mutation: logoutAnswersMessage(ROUTE.login, withCode) },
  // white-box round wb7
  { name: 'wb7-jwt-email-session-until-before-created', clause: '2.1', group: 'authentication', description: 'sections 2.1/5.2 ("until | ISO 8601 UTC timestamp, expiry"; "valid for ttl seconds, until until"): the Session of a JWT login naming the user by email writes until and created swapped', mutation: answered(ROUTE.jwt, 200, (body, request) => jwtByEmail(request) && typeof body?.data?.until === 'string' && typeof body.data.created === 'string' && body.data.until !== body.data.created && (([body.data.until, body.data.created] = [body.data.created, body.data.until]), true)) },

  // --- password ---
  // white-box round wb7
  { name: 'wb7-forgot-type-link-answer-unwrapped', clause: '4.3', group: 'password', description: 'sections 4.3/1.3 ("200: { data: { message: string } }"): forgot-password with type link answers { message } without the data wrapper', mutation: answered(FORGOT, 200, (body, request) => request.body?.type === 'link' && body?.data !== undefined && { body: body.data }) },
  // white-box round wb7
  { name: 'wb7-reset-email-255-refused', clause: '4.4', group: 'password', description: 'sections 4.4/8 ("email | string | yes | valid e-mail, max 255"; "forgot/reset email | max 255"): reset-password refuses an e-mail of exactly 255 characters with 422 keyed by email (a max of 254, as RFC 5321 counts); 254 and fewer pass', mutation: answered(RESET, 200, (_, request) => typeof request.body?.email === 'string' && request.body.email.length === 255 && { status: 422, body: { message: 'The email field must not be greater than 254 characters.', errors: { email: ['The email field must not be greater than 254 characters.'] } } }) },

  // white-box round wb7
  { name: 'wb7-forgot-typed-email-255-refused', clause: '4.3', group: 'password', description: 'sections 4.3/8 ("email | string | yes | valid e-mail, max 255"; "forgot/reset email | max 255"): forgot-password with a type (text or link) refuses a known e-mail of exactly 255 characters with 422 keyed by email (the typed request\u2019s rules say max 254); without type it is accepted', mutation: answered(FORGOT, 200, (_, request) => typeof request.body?.type === 'string' && typeof request.body?.email === 'string' && request.body.email.length === 255 && { status: 422, body: { message: 'The email field must not be greater than 254 characters.', errors: { email: ['The email field must not be greater than 254 characters.'] } } }) },

  // --- balances ---
  // white-box round wb7
  { name: 'wb7-coin-list-filtered-drops-native', clause: '4.8', group: 'balances', description: 'section 4.8 ("Query: assets[] (optional, repeatable)"; 2.2 chain "both null for a native coin"): the coin list filtered by assets[] leaves out the native coins it names (the filtered query joins the chains table without a left join)', mutation: answered(COIN_LIST, 200, (body, request) => filtered(request) && Array.isArray(body?.data?.coins) && body.data.coins.some((c: any) => c?.chain?.name === null && c?.chain?.symbol === null) && ((body.data.coins = body.data.coins.filter((c: any) => !(c?.chain?.name === null && c?.chain?.symbol === null))), true)) },
  // white-box round wb7
  { name: 'wb7-nft-show-quantity-one', clause: '4.7', group: 'balances', description: 'sections 4.7/2.2 ("quantity | integer | ... NFT records carry a positive count"): the NFT show answers quantity 1 for an NFT the user holds several of (show reads one token row), while the list gives the count', mutation: answered(NFT_SHOW, 200, (body) => typeof body?.data?.quantity === 'number' && body.data.quantity > 1 && ((body.data.quantity = 1), true)) },

  // --- banks ---
  // white-box round wb7
  { name: 'wb7-banks-create-foreign-currency-pending', clause: '3', group: 'banks', description: 'section 3 ("Bank | status | CONFIRMED (the state shown for a newly created bank)"): the create answer of a bank in another currency than EUR shows status PENDING (a foreign-currency payout account awaiting review)', mutation: answered(BANK.create, 201, (body) => typeof body?.data?.currency === 'string' && body.data.currency.toUpperCase() !== 'EUR' && ((body.data.status = 'PENDING'), true)) },
  // white-box round wb7
  { name: 'wb7-banks-status-filter-account-platform-only', clause: '4.10', group: 'banks', description: 'section 4.10 ("List ... query: status, currency, company, platform (all optional filters, strings)"): the bank list filtered by status leaves out the user\u2019s banks on another platform than the account\u2019s, which the unfiltered list holds with that status', mutation: { deviation: 'wb7.banks-status-filter-account-platform-only' } },
  // white-box round wb7
  { name: 'wb7-banks-currency-filter-account-platform-only', clause: '4.10', group: 'banks', description: 'section 4.10 (currency filter; docs/judging.md "bank status and currency list exactly the records with that value"): the bank list filtered by currency leaves out the user\u2019s banks of that currency on another platform than the account\u2019s', mutation: { deviation: 'wb7.banks-currency-filter-account-platform-only' } },
  // white-box round wb7
  { name: 'wb7-banks-delete-account-platform-only', clause: '4.10', group: 'banks', description: 'section 4.10 ("Delete | DELETE /api/v1/user/{user}/bank/{bank} | 200 { message }"; errors 401, 403, 409): deleting an unused bank of the user on another platform than the account\u2019s, which list and show answer, answers 404 and keeps it', mutation: { deviation: 'wb7.banks-delete-account-platform-only' } },
  // white-box round wb7
  { name: 'wb7-banks-iban-stored-cut-to-34', clause: '2.4', group: 'banks', description: 'sections 4.10/2.4 ("iban | ... max 191, alphanumeric"; the record\u2019s iban): an iban longer than 34 characters (the longest IBAN of ISO 13616) is accepted (201) and stored cut to 34, in create, list and show', mutation: storedAs(BANK, cutTo('iban', 34)) },
  // white-box round wb7
  { name: 'wb7-banks-bank-name-stored-cut-to-100', clause: '2.4', group: 'banks', description: 'sections 4.10/2.4 ("bankName | string | yes | max 191"): a bankName longer than 100 characters is accepted and stored cut to 100 (a VARCHAR(100) column), in create, list and show', mutation: storedAs(BANK, cutTo('bankName', 100)) },
  // white-box round wb7
  { name: 'wb7-banks-swift-9-10-padded', clause: '2.4', group: 'banks', description: 'sections 4.10/2.4 ("swift | ... alphanumeric, length 8 to 11"): a swift of 9 or 10 characters is stored padded with X to 11 (a BIC normaliser that knows BIC8 and BIC11 only), in create, list and show; docs/judging.md allows only an 8-character swift written with XXX', mutation: storedAs(BANK, (record) => typeof record?.swift === 'string' && (record.swift.length === 9 || record.swift.length === 10) && ((record.swift = record.swift.padEnd(11, 'X')), true)) },

  // white-box round wb7
  { name: 'wb7-banks-bank-name-ampersand-refused', clause: '4.10', group: 'banks', description: 'section 4.10 ("bankName | string | yes | max 191"; no other constraint): a bankName holding an ampersand (Barclays & Co) is refused with 422 keyed by bankName (a markup filter of the input)', mutation: refusedWhere(BANK.create, 'bankName', /&/, 'The bank name field format is invalid.') },
  // white-box round wb7
  { name: 'wb7-banks-bank-name-astral-stored-as-question-mark', clause: '2.4', group: 'banks', description: 'sections 4.10/2.4 ("bankName | string | yes | max 191"; docs/judging.md storage normalisation: anything but a normalisation fails): a bankName with a character outside the Basic Multilingual Plane (an emoji, a CJK extension letter) is stored with ? in its place (a MySQL utf8mb3 column), in create, list and show', mutation: storedAs(BANK, astralAsQuestionMark('bankName')) },

  // --- bonuses ---
  // white-box round wb7
  { name: 'wb7-bonuses-status-filter-account-platform-only', clause: '4.11', group: 'bonuses', description: 'section 4.11 ("query status (optional; distributed, pending, canceled)"): the bonus list filtered by status leaves out the user\u2019s bonuses whose order is on another platform than the account\u2019s', mutation: { deviation: 'wb7.bonuses-status-filter-account-platform-only' } },

  // --- cards ---
  // white-box round wb7
  { name: 'wb7-cards-status-filter-account-platform-only', clause: '4.6a', group: 'cards', description: 'section 4.6a ("List ... query status, company, platform (optional filters, strings)"): the card list filtered by status leaves out the user\u2019s cards on another platform than the account\u2019s, which the unfiltered list holds with that status', mutation: { deviation: 'wb7.cards-status-filter-account-platform-only' } },
  // white-box round wb7
  { name: 'wb7-cards-pair-expiry-status-pending', clause: '3', group: 'cards', description: 'section 3 ("Card | status | CONFIRMED (the state shown for a newly created card)"): a card whose expiry came as expirationMonth and expirationYear, without expirationDate, is created with status PENDING', mutation: { deviation: 'wb7.cards-pair-expiry-status-pending' } },
  // white-box round wb7
  { name: 'wb7-cards-holder-name-stored-cut-to-100', clause: '2.5', group: 'cards', description: 'sections 4.6a/2.5 ("holderName | string | yes | max 191"): a holderName longer than 100 characters is accepted and stored cut to 100, in create, list and show', mutation: storedAs(CARD, cutTo('holderName', 100)) },
  // white-box round wb7
  { name: 'wb7-cards-alias-stored-cut-to-100', clause: '2.5', group: 'cards', description: 'sections 4.6a/2.5 ("alias | string | yes | max 191"): an alias longer than 100 characters is accepted and stored cut to 100, in create, list and show', mutation: storedAs(CARD, cutTo('alias', 100)) },
  // white-box round wb7
  { name: 'wb7-cards-holder-name-apostrophe-refused', clause: '4.6a', group: 'cards', description: 'section 4.6a ("holderName | string | yes | max 191"; no other constraint): a holderName with an apostrophe (O\u2019Brien, O\'Brien) is refused with 422 keyed by holderName (a letters, spaces and hyphens pattern)', mutation: refusedWhere(CARD.create, 'holderName', /['\u2019]/, 'The holder name field format is invalid.') },
  // white-box round wb7
  { name: 'wb7-cards-alias-astral-stored-as-question-mark', clause: '2.5', group: 'cards', description: 'sections 4.6a/2.5 ("alias | string | yes | max 191"): an alias with a character outside the Basic Multilingual Plane (an emoji) is stored with ? in its place (a MySQL utf8mb3 column), in create, list and show', mutation: storedAs(CARD, astralAsQuestionMark('alias')) },
  // white-box round wb7
  { name: 'wb7-cards-holder-name-astral-stored-as-question-mark', clause: '2.5', group: 'cards', description: 'sections 4.6a/2.5 ("holderName | string | yes | max 191"): a holderName with a character outside the Basic Multilingual Plane is stored with ? in its place, in create, list and show', mutation: storedAs(CARD, astralAsQuestionMark('holderName')) },
];

/**
 * The survivors of the round (no test citing their clause failed), each re-checked as a deviation under every reading
 * and, against the reference through inject, as a real difference where the suite sends the input it needs (the
 * module deviations: the status and currency filters of state bank.two-platforms list 2 of 3 banks, delete of its
 * partner-platform bank answers 404, state balances gives NFTs of quantity 2 to 5, logout leaves a 2FA session open,
 * a 2FA account logs in with its password re-cased). Each names the check that would catch it. Those still open (OPEN)
 * are not registered, so the mutation run stays at 100 %; the ones closed since are listed below OPEN:
 * - wb7-logout-keeps-2fa-session, wb7-logout-keeps-jwt-email-session: the access table destroys by logout only a password
 *   session and a JWT session naming the user by id (helpers/spec/instances.ts ACCESS_CLASSES logged-out-password,
 *   logged-out-jwt; helpers/arrange/flows.ts logInWithJwt defaults to the id claim), and logout's own tests do the same.
 *   Add a logged-out row per login kind of LOGIN_KINDS (2FA code, JWT by email too): each destroyed token answers 401.
 * - wb7-logout-2fa-session-answers-message, wb7-logout-jwt-email-session-answers-message: the valid-token rows of the
 *   access table log out with the 2FA and the JWT-by-email tokens but judge the status only (2xx); logout's schema
 *   (logout-response, { status }) is checked for the password and JWT-by-id tokens only. Validate the route's success
 *   schema in the valid-token rows (every route, every login kind).
 * - wb7-login-2fa-password-case-insensitive: "the password in another letter case" (suites/authentication.test.ts) is
 *   sent to an account without 2FA only; the 2FA account is sent a wrong password with a valid code, never the right one
 *   re-cased. Add the re-cased password with a valid code for a 2FA account (403).
 * - wb7-login-2fa-account-lock-unchecked: no locked account has 2FA (state user.locked takes no twoFactor). Give user.locked
 *   (and user.inactive) an optional twoFactor (additive) and log in with password and a valid code: 423 (401).
 * - wb7-reset-email-255-refused: the 255-character limit is sent to forgot-password only; reset is sent an address of
 *   LONG_EMAIL (230) characters. Reset with the 255-character address too (200, and the new password logs in).
 * - wb7-forgot-typed-email-255-refused: forgot-password's 255-character address is sent without type only. Send it with
 *   type text and with type link as well (200).
 * - wb7-nft-show-quantity-one: NFT show is judged by its symbol (and type, advised on); no field of the shown record is
 *   compared with the list's. Compare the shown NFT's quantity (and name, precision, properties) with the list's entry of
 *   the same symbol, as show is compared with the list for banks, cards and bonuses.
 * - wb7-banks-status-filter-account-platform-only, wb7-banks-currency-filter-account-platform-only,
 *   wb7-cards-status-filter-account-platform-only: the status and currency filters are judged on a record of the account's
 *   own platform (toContain one record), and the combined-filters check is relative (the pair lists the intersection of
 *   what each alone listed), so a filter that drops the partner platform's records in both passes. On the
 *   *.two-platforms states, require status=<s> and currency=<c> to list every record the unfiltered list shows with that
 *   value (exactly those), on either platform, as the bonus status filter test does.
 * - wb7-banks-delete-account-platform-only: delete is sent records of the account's own platform only. Delete the partner
 *   platform's bank of bank.two-platforms (200, then neither listed nor shown).
 * - wb7-banks-iban-stored-cut-to-34, wb7-banks-bank-name-stored-cut-to-100, wb7-banks-swift-9-10-padded,
 *   wb7-cards-holder-name-stored-cut-to-100, wb7-cards-alias-stored-cut-to-100: the boundary rows (191 characters) and the
 *   value-class rows (swift of 9 and 10 characters) judge the status only; the echo (expectStoredAsSent) is judged on
 *   the happy path's short values. On every 201 row of the boundary and value-class tables, compare the record's field
 *   with the value sent (create, and list or show).
 * - wb7-banks-bank-name-astral-stored-as-question-mark, wb7-cards-alias-astral-stored-as-question-mark,
 *   wb7-cards-holder-name-astral-stored-as-question-mark: the text classes sent are ASCII and two-byte letters
 *   (helpers/arrange/text.ts); no value holds a character outside the Basic Multilingual Plane (four bytes in UTF-8, two
 *   code units in UTF-16). Send an emoji and a CJK extension letter in bankName, holderName and alias (201, echoed).
 * - wb7-banks-bank-name-ampersand-refused: bankName comes from faker's company names (letters, spaces, commas, hyphens);
 *   no row sends & < > " or an apostrophe. Add a bankName row of those characters (201, echoed), as holderName's faker names
 *   carry apostrophes (which caught the card sibling) but not on every draw.
 * - wb7-cards-holder-name-apostrophe-refused: caught in both runs of the round (by the round trip, then by a boundary row
 *   of cardImage1), but only because faker's full names (helpers/arrange/cards.ts) carry an apostrophe on some draws
 *   (O'Conner, O'Keefe ...); a run whose draws hold none lets it pass, so it is not registered (the mutation run must not
 *   be flaky). Send a holderName with an apostrophe, straight and typographic (O'Brien, O\u2019Brien), on every run (201, echoed).
 * - wb7-cards-pair-expiry-status-pending: section 3's CONFIRMED is judged on the create answer of the default form (with
 *   expirationDate) and of the extra-field rows; the cards created with expirationMonth and expirationYear (the 2045
 *   table, the boundary rows) are judged by status code. Judge the new record's status on every 201 of the create tables.
 * Score before fixes: 9 caught of 32 (wb7-login-2fa-token-without-numeric-id, wb7-jwt-email-token-without-numeric-id,
 * wb7-login-2fa-session-until-before-created, wb7-jwt-email-session-until-before-created by the Session tests of each login
 * kind; wb7-forgot-type-link-answer-unwrapped by forgot-password's type link test; wb7-coin-list-filtered-drops-native by
 * the assets[] tests; wb7-banks-create-foreign-currency-pending by bank create; wb7-bonuses-status-filter-account-platform-only
 * by the bonus status filter tests; wb7-cards-holder-name-apostrophe-refused by the draw, see above). No candidate was
 * dropped as open.
 *
 * Closed later and registered (branch fix-wb7b, issue 27), each by the check named (the list above says why each was open):
 * - wb7-nft-show-quantity-one: suites/balances.test.ts "answers each held NFT with the fields the NFT list gives it"
 *   (every stable field of LISTS since round wb8; precision compared as the number written, properties as a set).
 * - wb7-banks-status-filter-account-platform-only, wb7-banks-currency-filter-account-platform-only,
 *   wb7-cards-status-filter-account-platform-only: helpers/check/filters.ts expectValueFilterOnTwoPlatforms, on the
 *   *.two-platforms states: each status (and bank currency) a state's record shows lists every record of the unfiltered
 *   list with it, on either platform, and only those.
 * - wb7-banks-delete-account-platform-only: suites/banks.test.ts deletes one bank of each platform of bank.two-platforms
 *   (200, then neither listed nor shown; on a STATES_FILE with an account of kind "disposable user with records on two
 *   platforms", which serves once, and skipped without one).
 * - wb7-banks-iban-stored-cut-to-34, wb7-banks-bank-name-stored-cut-to-100, wb7-banks-swift-9-10-padded,
 *   wb7-cards-holder-name-stored-cut-to-100, wb7-cards-alias-stored-cut-to-100: every 201 row of the boundary and
 *   value-class tables cites 2.4 (2.5) and compares the field sent, in the create answer and in the show, through
 *   expectStoredAsSent (storage normalisation and equivalent forms advised on).
 * - wb7-banks-bank-name-astral-stored-as-question-mark, wb7-banks-bank-name-ampersand-refused: a bankName value class
 *   sent every run (& < > " ' and an emoji, a CJK extension letter; 201, stored as sent).
 * - wb7-cards-alias-astral-stored-as-question-mark, wb7-cards-holder-name-astral-stored-as-question-mark,
 *   wb7-cards-holder-name-apostrophe-refused: suites/cards.test.ts sends two cards every run with apostrophes straight and
 *   typographic, markup characters and characters outside the BMP in holderName and alias (201, stored as sent).
 * - wb7-cards-pair-expiry-status-pending: every 201 of the card create tables (boundary rows, the 2045 table, the value
 *   classes) judges the create answer's status CONFIRMED (section 3; reads after it stay advised on).
 */
const OPEN = new Set<string>([
]);

/**
 * Closed (branch fix-wb7a, issue 27), each by the check named, and registered (the list above says why each was open):
 * - wb7-logout-keeps-2fa-session, wb7-logout-keeps-jwt-email-session: logout's tests are a table over every login kind of
 *   LOGIN_KINDS (suites/authentication.test.ts: password, 2FA code, JWT by id, JWT by email); each kind's token, once
 *   logged out, answers 401 { error } to logout, the balances list and the bank list.
 * - wb7-logout-2fa-session-answers-message, wb7-logout-jwt-email-session-answers-message: the same table's 200 row
 *   validates logout-response ({ status }) for the token of every login kind.
 * - wb7-login-2fa-password-case-insensitive: "answers 403 with { error } for a 2FA account's password in another letter
 *   case with a valid code".
 * - wb7-login-2fa-account-lock-unchecked: states user.locked and user.inactive take an optional twoFactor (additive,
 *   docs/provider-states.md; a STATES_FILE gives them as the kinds "user.locked with 2FA" and "user.inactive with 2FA");
 *   the table of account-state refusals (ACCOUNT_STATE_REFUSALS) logs each in without and with 2FA, password and a
 *   valid code: 423 and 401.
 * - wb7-reset-email-255-refused: reset is sent the 255-character address of an account as well as the 230-character one
 *   (200; the new password is not tried: login takes no address over 191 characters; a STATES_FILE gives it as the kind
 *   "disposable user with a reset token and an e-mail of 255 characters").
 * - wb7-forgot-typed-email-255-refused: forgot-password's 255-character known address is sent without type, with type
 *   text and with type link (200 each).
 */

/**
 * Allowed readings of the checks that closed the round (review, branch review-wb7b). 2.2 gives an NFT's `properties`
 * as an array of `{ type, value }` without an order, and JSON gives an object's members none: an NFT show that writes
 * the list's properties in another order, each with `value` before `type`, shows the same record as the list.
 */
const roundWb7Readings: Mutant[] = [
  reading(
    'allowed-wb7b-nft-show-properties-reordered',
    'balances',
    '2.2',
    'the NFT show writes the properties the NFT list gives in the reverse order, each item with its members in another order ({ value, type }) (2.2: "properties | array | Items { type: string, value: string }": no order of the items is given, and JSON gives none to an object\u2019s members)',
    answered(NFT_SHOW, 200, (body) => Array.isArray(body?.data?.properties) && body.data.properties.length > 1 && ((body.data.properties = body.data.properties.map((item: Record<string, unknown>) => Object.fromEntries(Object.entries(item).reverse())).reverse()), true)),
    only('balances'),
  ),
];

/**
 * Ruled no deviation under every reading after the round (review-an F2, issue 28): sections 4.3, 4.4 and 8 say "valid
 * e-mail, max 255", and an address of 255 characters is over the 254 RFC 5321 (4.5.3.1.3) leaves one, so a validator that
 * reads "valid" so (validator.js isEmail, Python's email-validator) refuses it within the max: the 255-character rows
 * advise on a 422 keyed by email; the 230-character rows require 200 inside the max.
 */
const NOT_DEVIATIONS = new Set<string>(['wb7-reset-email-255-refused', 'wb7-forgot-typed-email-255-refused']);

/** The mutants of the round the suite catches (registered in index.ts), and its allowed readings. */
export const roundWb7Mutants: Mutant[] = [...written.filter((mutant) => !OPEN.has(mutant.name) && !NOT_DEVIATIONS.has(mutant.name)), ...roundWb7Readings];

/** The mutants of the round judged no deviation under every reading since (not registered). */
export const roundWb7NotDeviations: Mutant[] = written.filter((mutant) => NOT_DEVIATIONS.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb7OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));
