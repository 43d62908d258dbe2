import type { FastifyReply } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import { ROUTE, answered, type Seen } from './make.js';
import { parse, recordsOf } from './reading.js';
import type { Mutant } from './types.js';

/**
 * White-box round wb10: deviations a real backend could ship, written by a tenth reviewer who read suites/ and helpers/
 * and aimed at what rounds wb1 to wb9 left alone: value classes never sent (an Exif JPEG, a BMP with a V5 header, a
 * `.jpeg` name as the second image, an IBAN or swift with hyphens, names that begin with a formula character); JSON
 * types never sent where a string is documented (an e-mail inside an array on login, forgot- and reset-password, a new
 * password inside an array); sequences never followed (a reset refused for its e-mail or its password followed by a
 * login with the old password; a bank create refused for its currency or bankName followed by a create of its iban; a
 * card refused for its alias followed by a list; a 2FA account driven to the brute-force restriction; a reset sent with
 * another account's bearer); fields never compared (a bonus's nested asset and order in a filtered list, its order's
 * assets and commissions and its user's createdAt in the show, the one-asset bonus summary's asset name, an NFT's meta
 * in the show and in a filtered list, a coin's meta in a filtered list); and a credential field by a name the list of
 * credential names lacks (active_model_otp's `otp_secret_key`). Each breaks a rule that holds under every reading of
 * the specification; its description quotes the sentence it breaks. The validation and storage deviations are honoured
 * by the modules (`wb10.*`); the others rewrite answers as sent.
 */

const NFT_SHOW = 'GET /api/v1/user/{user}/balances/nft/{asset}';
const NFT_LIST = 'GET /api/v1/user/{user}/balances/nft';
const COIN_LIST = 'GET /api/v1/user/{user}/balances';
const BANK_CREATE = 'POST /api/v1/user/{user}/bank';

const BANK_ROUTES = ['/api/v1/user/:user/bank', '/api/v1/user/:user/bank/:bank'];
const CARD_ROUTES = ['/api/v1/user/:user/card', '/api/v1/user/:user/card/:card'];
const BONUS_ROUTES = ['/api/v1/user/:user/bonus', '/api/v1/user/:user/bonus/:bonus'];

/** A list request that carries one of `names` as a filter with a value. */
const filtered = (request: Seen, names: readonly string[]) => names.some((name) => {
  const value = request.query?.[name];
  return value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
});

/** The records of one route family's 200 and 201 answers rewritten by `change` (true when it changed one). */
function recordsRewritten(urls: readonly string[], change: (record: any) => boolean): Mutation {
  return {
    wire(answer: WireAnswer) {
      if ((answer.status !== 200 && answer.status !== 201) || !urls.includes(answer.url)) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      let changed = false;
      for (const record of recordsOf(body)) if (record && typeof record === 'object' && change(record)) changed = true;
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

/** A text that begins with a spreadsheet formula character (= + - @) stored without it (an OWASP CSV-injection filter on input). */
function formulaPrefixStripped(field: string): (record: any) => boolean {
  return (record) => {
    const value = record[field];
    if (typeof value !== 'string' || !/^[=+\-@]/.test(value)) return false;
    record[field] = value.replace(/^[=+\-@]+/, '');
    return true;
  };
}

/** A bank create refused with 422 for `field` alone keeps its iban taken: a later valid create of that iban by the same user answers 422. */
function refusedCreateReservesIban(field: string): Mutation {
  const reserved = new Set<string>();
  return answered(BANK_CREATE, undefined, (body, request, status) => {
    const iban = typeof request.body?.iban === 'string' ? request.body.iban.toUpperCase() : undefined;
    if (iban === undefined) return false;
    const errors = body?.errors && typeof body.errors === 'object' ? Object.keys(body.errors) : [];
    if (status === 422 && errors.length === 1 && errors[0] === field) {
      reserved.add(iban);
      return false;
    }
    if (status === 201 && reserved.has(iban)) return { status: 422, body: { message: 'The iban has already been taken.', errors: { iban: ['The iban has already been taken.'] } } };
    return false;
  });
}

/** A base32 text of 32 characters made from a user id: what an `otp_secret_key` column holds. */
function base32Of(id: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = '';
  for (let i = 0; out.length < 32; i += 1) out += alphabet[(id.charCodeAt(i % id.length) * 7 + i * 13) % 32];
  return out;
}

const written: Mutant[] = [
  // --- authentication ---
  // white-box round wb10
  { name: 'wb10-login-email-array-read-as-text', clause: '4.2', group: 'authentication', description: 'sections 4.2/5.5 (email "string ... valid e-mail"; "Login is refused for ... wrong credentials"): the account\u2019s e-mail sent inside a JSON array, with its password, logs in (the array read as its first item, as a query builder\u2019s where() with an array does)', mutation: { deviation: 'wb10.login-email-array-as-text' } },
  // white-box round wb10
  { name: 'wb10-login-2fa-account-throttle-ignored', clause: '5', group: 'authentication', description: 'sections 5.5/8 ("Login is refused ... temporarily after brute force detection (425)"; "Repeated failed logins lead to a temporary restriction (425)"): an account with 2FA is never restricted, however many logins failed (its login route lacks the throttle)', mutation: { deviation: 'wb10.login-2fa-throttle-ignored' } },
  // Review of fix-wb10a (an allowed reading): a verifier that checks the 2FA code before the password spends a valid code
  // whatever the password (RFC 6238 5.2), so the same code sent again with a wrong password is refused as a wrong code,
  // here 422 keyed by 2fa (a wrong code's status is open: docs/judging.md "2FA"). The failure still counts. The
  // brute-force test of a 2FA account sends the current code with each wrong login: it must stay conformant.
  {
    name: 'allowed-wb10-login-2fa-code-spent-before-password',
    clause: '5',
    group: 'authentication',
    description: 'section 4.2 (2fa "exactly 6 digits"; nothing says how often a code may be sent) and RFC 6238 5.2: a valid 2FA code checked before the password is spent even when the password is wrong, and the same code sent again with a wrong password is answered 422 keyed by 2fa (the failed login still counted)',
    mutation: (() => {
      const spent = new Set<string>();
      return {
        wire(answer: WireAnswer, reply: FastifyReply) {
          if (answer.url !== '/api/v1/authenticate' || answer.status !== 403) return;
          const body = reply.request.body && typeof reply.request.body === 'object' ? (reply.request.body as Record<string, unknown>) : {};
          if (typeof body.email !== 'string' || typeof body['2fa'] !== 'string' || !/^[0-9]{6}$/.test(body['2fa'])) return;
          const key = `${body.email.toLowerCase()}|${body['2fa']}`;
          if (!spent.has(key)) {
            spent.add(key);
            return;
          }
          reply.code(422);
          return JSON.stringify({ message: 'The 2fa code has already been used.', errors: { '2fa': ['The 2fa code has already been used.'] } });
        },
      };
    })(),
    allowed: true,
    judgedBy: { clauses: ['4.2', '5', '8'] },
  },
  // white-box round wb10
  { name: 'wb10-login-2fa-code-leading-zero-refused', clause: '4.2', group: 'authentication', description: 'sections 4.2/5 (2fa "string ... exactly 6 digits"; a valid code logs in): a valid 2FA code that begins with 0 (one code in ten) is refused 403, the code read as a number (parseInt) and its leading zeros lost', mutation: { deviation: 'wb10.login-2fa-code-as-number' } },
  // white-box round wb10
  { name: 'wb10-logout-logged-out-token-answers-200', clause: '4.5', group: 'authentication', description: 'section 4.5 ("200: { status: string }. 401 when unauthenticated"): a logout with a token that no longer authenticates (destroyed, expired or never issued) answers 200 { status } (an idempotent logout)', mutation: answered(ROUTE.logout, 401, (_body, request) => /^Bearer\s+\d+\|\S+$/i.test(String(request.headers.authorization ?? '')) && { status: 200, body: { status: 'Successfully logged out' } }) },

  // --- password ---
  // white-box round wb10
  { name: 'wb10-forgot-email-array-read-as-text', clause: '4.3', group: 'password', description: 'sections 4.3/7 (email "string ... valid e-mail"; "422 when the e-mail is unknown"): a known e-mail sent inside a JSON array or object is answered 200 and a reset e-mail sent (read as the first item or value)', mutation: { deviation: 'wb10.forgot-email-array-as-text' } },
  // white-box round wb10
  { name: 'wb10-forgot-replaces-password', clause: '4.4', group: 'password', description: 'sections 4.3/4.4 ("Starts a password reset"; reset-password "Finishes a password reset"): forgot-password replaces the account\u2019s password with a random one at once, so the password stops working before any reset is finished (anyone who knows an address locks its owner out)', mutation: { deviation: 'wb10.forgot-replaces-password' } },
  // white-box round wb10
  { name: 'wb10-reset-email-array-read-as-text', clause: '4.4', group: 'password', description: 'section 4.4 (email "string ... valid e-mail"): the account\u2019s e-mail sent inside a JSON array or object with its valid token resets the password (read as the first item or value)', mutation: { deviation: 'wb10.reset-email-array-as-text' } },
  // white-box round wb10
  { name: 'wb10-reset-password-array-read-as-text', clause: '4.4', group: 'password', description: 'section 4.4 (password "string ... min 8, max 191"): a new password sent as a JSON array (or object) of texts is taken as the text of its items (values) joined with commas', mutation: { deviation: 'wb10.reset-password-array-as-text' } },
  // white-box round wb10
  { name: 'wb10-reset-refused-email-resets-token-owner', clause: '4.4', group: 'password', description: 'sections 4.4/7 (email "required ... valid e-mail, max 255"; a 422 is a refusal): a reset with a valid token and an e-mail that is missing, malformed or over 255 characters is answered 422, but the token\u2019s owner already has the new password (the reset found by its token and saved before the e-mail is validated)', mutation: { deviation: 'wb10.reset-bad-email-resets-token-owner' } },
  // white-box round wb10
  { name: 'wb10-reset-refused-long-password-saved', clause: '8', group: 'password', description: 'sections 8/4.4 ("reset password | min 8, max 191"; "enforced as validation errors, status 422"): a new password of 192 characters or more is answered 422, but it is saved as the account\u2019s password all the same (a mutator that hashes and saves on assignment, before validation)', mutation: { deviation: 'wb10.reset-password-saved-before-max' } },
  // white-box round wb10
  { name: 'wb10-reset-writes-bearer-users-password', clause: '4.4', group: 'password', description: 'sections 4.4/4.3 ("Finishes a password reset"; email "valid e-mail", token "the token received by e-mail"): when a bearer token is sent, the new password is written to the bearer\u2019s account (auth()->user()), not to the account the e-mail and token name', mutation: { deviation: 'wb10.reset-uses-bearer-user' } },

  // --- balances ---
  // white-box round wb10
  { name: 'wb10-nft-show-meta-empty', clause: '4.7', group: 'balances', description: 'sections 4.7/2.2 ("200: { data: <Balance record> }"; meta "Keys seen: image, url, owner, creator"): the NFT show answers meta {} for an NFT whose list entry carries them (show does not load the token\u2019s metadata)', mutation: answered(NFT_SHOW, 200, (body) => body?.data?.meta && typeof body.data.meta === 'object' && Object.keys(body.data.meta).length > 0 && ((body.data.meta = {}), true)) },
  // white-box round wb10
  { name: 'wb10-nft-list-filtered-meta-empty', clause: '4.6', group: 'balances', description: 'sections 4.6/2.2 (assets[] "asset symbols to return"; meta "Keys seen: image, url, owner, creator"): the NFT list filtered by assets[] answers every NFT with meta {} (the filtered query does not load the metadata); unfiltered it gives them', mutation: answered(NFT_LIST, 200, (body, request) => {
    if (!filtered(request, ['assets[]', 'assets'])) return false;
    let changed = false;
    for (const nft of Array.isArray(body?.data) ? body.data : []) if (nft?.meta && typeof nft.meta === 'object' && Object.keys(nft.meta).length > 0) { nft.meta = {}; changed = true; }
    return changed;
  }) },
  // white-box round wb10
  { name: 'wb10-coin-list-filtered-meta-empty', clause: '4.8', group: 'balances', description: 'sections 4.8/2.2 (assets[] "asset symbols to return"; meta "for coins also genesis_date, links, total_supply"): the coin list filtered by assets[] answers every coin with meta {}; unfiltered it gives them', mutation: answered(COIN_LIST, 200, (body, request) => {
    if (!filtered(request, ['assets[]', 'assets'])) return false;
    let changed = false;
    for (const coin of body?.data?.coins ?? []) if (coin?.meta && typeof coin.meta === 'object' && Object.keys(coin.meta).length > 0) { coin.meta = {}; changed = true; }
    return changed;
  }) },
  // white-box round wb10
  { name: 'wb10-nft-show-properties-of-first-nft', clause: '4.7', group: 'balances', description: 'sections 4.7/2.2 ("200: { data: <Balance record> }"; properties "Items { type, value }"): the NFT show answers every NFT with the properties of the user\u2019s first NFT (a cached relation)', mutation: (() => {
    let first: unknown;
    return answered(NFT_SHOW, 200, (body) => {
      const properties = body?.data?.properties;
      if (!Array.isArray(properties) || properties.length === 0) return false;
      if (first === undefined) {
        first = JSON.parse(JSON.stringify(properties));
        return false;
      }
      if (JSON.stringify(first) === JSON.stringify(properties)) return false;
      body.data.properties = JSON.parse(JSON.stringify(first));
      return true;
    });
  })() },

  // --- banks ---
  // white-box round wb10
  { name: 'wb10-banks-iban-hyphens-stripped', clause: '4.10', group: 'banks', description: 'section 4.10 (iban "max 191, alphanumeric, unique"): an iban written with hyphens (DE89-3704-0044-...) is accepted, the hyphens taken out before validation', mutation: { deviation: 'wb10.banks-iban-hyphens-stripped' } },
  // white-box round wb10
  { name: 'wb10-banks-swift-hyphens-stripped', clause: '4.10', group: 'banks', description: 'section 4.10 (swift "alphanumeric, length 8 to 11"): a swift written with hyphens (DEUT-DE-FF) is accepted, the hyphens taken out before validation', mutation: { deviation: 'wb10.banks-swift-hyphens-stripped' } },
  // white-box round wb10
  { name: 'wb10-banks-iban-lower-case-refused', clause: '4.10', group: 'banks', description: 'section 4.10 (iban "max 191, alphanumeric, unique"): an iban with lower-case letters is refused with 422 (checked against upper-case letters and digits, the electronic format of ISO 13616; lower-case letters are alphanumeric too)', mutation: answered(BANK_CREATE, 201, (_body, request) => typeof request.body?.iban === 'string' && /[a-z]/.test(request.body.iban) && { status: 422, body: { message: 'The iban format is invalid.', errors: { iban: ['The iban format is invalid.'] } } }) },
  // white-box round wb10
  { name: 'wb10-banks-refused-currency-reserves-iban', clause: '4.10', group: 'banks', description: 'sections 4.10/7 (iban "unique"; 422 "invalid field, for example an unknown currency", a refusal): a create refused with 422 for its currency alone keeps its iban taken, so a later valid create of that iban by the same user is refused "The iban has already been taken."', mutation: refusedCreateReservesIban('currency') },
  // white-box round wb10
  { name: 'wb10-banks-refused-bank-name-reserves-iban', clause: '4.10', group: 'banks', description: 'sections 4.10/7/8 (iban "unique"; bankName "max 191"; a 422 is a refusal): a create refused with 422 for its bankName alone keeps its iban taken, so a later valid create of that iban by the same user is refused', mutation: refusedCreateReservesIban('bankName') },
  // white-box round wb10
  { name: 'wb10-banks-bank-name-formula-prefix-stripped', clause: '2.4', group: 'banks', description: 'sections 2.4/4.10 (bankName "string, max 191"): a bankName that begins with = + - or @ is stored without it (a CSV-injection filter on input), so the record shows another name than the one sent', mutation: recordsRewritten(BANK_ROUTES, formulaPrefixStripped('bankName')) },

  // --- bonuses ---
  // white-box round wb10
  { name: 'wb10-bonuses-filtered-list-asset-of-order', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5a ("List ... query status (optional) ..., platform (optional)"; asset "Asset summary (2.3)"): under a status or platform filter, each bonus shows the asset its order was paid in (order.fromAsset) as its asset (the filtered query joins the order\u2019s asset)', mutation: answered(ROUTE.bonusList, 200, (body, request) => {
    if (!filtered(request, ['status', 'platform'])) return false;
    let changed = false;
    for (const bonus of Array.isArray(body?.data) ? body.data : []) {
      const from = bonus?.order?.fromAsset;
      if (from && bonus.asset && from.symbol !== bonus.asset.symbol) { bonus.asset = { ...from }; changed = true; }
    }
    return changed;
  }) },
  // white-box round wb10
  { name: 'wb10-bonuses-filtered-list-order-of-first-bonus', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5a ("List ... query status, platform (optional)"; order "Order object (2.7)"): under a status or platform filter, every bonus shows the order of the first bonus listed (an eager load keyed wrongly in the filtered query)', mutation: answered(ROUTE.bonusList, 200, (body, request) => {
    if (!filtered(request, ['status', 'platform']) || !Array.isArray(body?.data) || body.data.length < 2) return false;
    const first = body.data[0]?.order;
    let changed = false;
    for (const bonus of body.data.slice(1)) if (bonus?.order && first && bonus.order.id !== first.id) { bonus.order = JSON.parse(JSON.stringify(first)); changed = true; }
    return changed;
  }) },
  // white-box round wb10
  { name: 'wb10-bonuses-show-order-assets-swapped', clause: '4.11', group: 'bonuses', description: 'sections 2.7/4.11 (order "fromSymbol, toSymbol", "fromAsset, toAsset | asset summary"; "Show ... 200 { data: <Bonus> }"): the show answers the order with fromAsset and toAsset swapped (its transformer maps them by the operation\u2019s direction), so fromAsset is no longer the asset of fromSymbol; the list gives them right', mutation: answered(ROUTE.bonusShow, 200, (body) => {
    const order = body?.data?.order;
    if (!order?.fromAsset || !order?.toAsset || order.fromAsset.symbol === order.toAsset.symbol) return false;
    [order.fromAsset, order.toAsset] = [order.toAsset, order.fromAsset];
    return true;
  }) },
  // white-box round wb10
  { name: 'wb10-bonuses-show-order-commissions-swapped', clause: '4.11', group: 'bonuses', description: 'sections 2.7/4.11 (order commissions "{ percent: decimal string, amount: decimal string }"): the show answers the order\u2019s commission percent as its amount and its amount as its percent; the list gives them right (the order in the same status in both)', mutation: answered(ROUTE.bonusShow, 200, (body) => {
    const commissions = body?.data?.order?.commissions;
    if (!commissions || commissions.percent === commissions.amount) return false;
    [commissions.percent, commissions.amount] = [commissions.amount, commissions.percent];
    return true;
  }) },
  // white-box round wb10
  { name: 'wb10-bonuses-show-user-created-at-of-bonus', clause: '4.11', group: 'bonuses', description: 'sections 2.6/4.11 (user createdAt integer; "Show ... 200 { data: <Bonus> }"): the show answers the user\u2019s createdAt with the bonus\u2019s createdAt (a column of the joined query read under the wrong table); the list gives the user\u2019s', mutation: answered(ROUTE.bonusShow, 200, (body) => {
    const user = body?.data?.user;
    if (!user || typeof body.data.createdAt !== 'number' || user.createdAt === body.data.createdAt) return false;
    user.createdAt = body.data.createdAt;
    return true;
  }) },
  // white-box round wb10
  { name: 'wb10-bonuses-summary-asset-name-as-symbol', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.3/2.5b (bonus/assets/{asset?}: one summary, asset "{ name: string, symbol: string ... }"): with the {asset} segment the summary answers the asset\u2019s name as its symbol (BTC for Bitcoin); the summary of all assets gives the name', mutation: answered(ROUTE.bonusSummary, 200, (body, request) => {
    if (typeof request.params?.asset !== 'string' || request.params.asset === '') return false;
    let changed = false;
    for (const entry of Array.isArray(body?.data) ? body.data : []) if (entry?.asset && typeof entry.asset.symbol === 'string' && entry.asset.name !== entry.asset.symbol) { entry.asset.name = entry.asset.symbol; changed = true; }
    return changed;
  }) },
  // white-box round wb10
  { name: 'wb10-bonuses-user-carries-otp-secret-key', clause: '4.11', group: 'bonuses', description: 'section 2.6 (the user object, whose e-mail and anti-phishing code are "masked by the service"): every bonus\u2019s user carries otp_secret_key, the user\u2019s TOTP secret in base32 (active_model_otp\u2019s column, serialised with the model)', mutation: recordsRewritten(BONUS_ROUTES, (bonus) => {
    if (!bonus.user || typeof bonus.user.id !== 'string') return false;
    bonus.user.otp_secret_key = base32Of(bonus.user.id);
    return true;
  }) },

  // --- cards ---
  // white-box round wb10
  { name: 'wb10-cards-jpeg-name-refused-image2', clause: '8', group: 'cards', description: 'sections 8/4.6a (cardImage2 "same constraints": jpg, jpeg, bmp or png): a JPEG named .jpeg is refused as cardImage2 (its mimes list written jpg,png,bmp); as cardImage1 it is accepted', mutation: { deviation: 'wb10.cards-jpeg-extension-refused.cardImage2' } },
  // white-box round wb10
  { name: 'wb10-cards-exif-jpeg-refused', clause: '8', group: 'cards', description: 'sections 8/4.6a ("card images ... jpg, jpeg, bmp, png"): a JPEG that opens with an Exif segment (APP1), as every camera and phone writes, is refused as not an image; only a JFIF JPEG (APP0) is taken', mutation: { deviation: 'wb10.cards-jpeg-jfif-only' } },
  // white-box round wb10
  { name: 'wb10-cards-bmp-v5-header-refused', clause: '8', group: 'cards', description: 'sections 8/4.6a ("card images ... jpg, jpeg, bmp, png"): a BMP with a BITMAPV4HEADER or BITMAPV5HEADER (as GIMP writes by default) is refused as not an image; only the 40-byte BITMAPINFOHEADER is taken', mutation: { deviation: 'wb10.cards-bmp-info-header-only' } },
  // white-box round wb10
  { name: 'wb10-cards-refused-alias-stored', clause: '7', group: 'cards', description: 'sections 7/4.6a/8 (422 "invalid or missing field"; alias "max 191"; a refusal stores nothing): a create refused for its alias alone (over 191 characters) stores the card all the same, its alias cut to 191 (a column that truncates, written before the length rule is judged)', mutation: { deviation: 'wb10.cards-refused-alias-stored' } },
  // white-box round wb10
  { name: 'wb10-cards-alias-formula-prefix-stripped', clause: '2.5', group: 'cards', description: 'sections 2.5/4.6a (alias "string, max 191"): an alias that begins with = + - or @ (@work, +1 card) is stored without it (a CSV-injection filter on input), so the record shows another alias than the one sent', mutation: recordsRewritten(CARD_ROUTES, formulaPrefixStripped('alias')) },
];

/**
 * The survivors of the round (no test citing their clause, in their group, failed), each re-checked as a deviation under
 * every reading and each checked to change the reference's answer to the input it waits for (a control against the
 * unmutated reference, sent by hand through buildReference: every one of them answers otherwise than the reference
 * there). Each names the check that would catch it. Those still open are not registered, so the mutation run stays at
 * 100 %.
 * Score before fixes: 6 caught of 33 (wb10-logout-logged-out-token-answers-200 by the logout access table;
 * wb10-banks-iban-hyphens-stripped, wb10-banks-swift-hyphens-stripped by the hyphen rows of bank create;
 * wb10-nft-show-properties-of-first-nft by the NFT show-vs-list comparison; wb10-banks-iban-lower-case-refused by the
 * lower-case IBAN uniqueness rows; wb10-forgot-replaces-password by the reset tests that log in with the unchanged
 * password after a refused reset). A seventh, wb10-login-2fa-code-leading-zero-refused, failed a test in both judged
 * runs, but only by the draw (below): it is counted open and not registered, since a registered mutant must be killed
 * on every run.
 * Open (each with the check that would catch it):
 * - wb10-login-email-array-read-as-text: caught by: authenticate "never logs in with the account's email inside an array or
 *   an object (403 or 422)" (fix-wb10a: every string field of login, forgot and reset from one table, WRAPPED_TEXT).
 * - wb10-login-2fa-account-throttle-ignored: caught by: authenticate "answers 425 with { error } to a failed login once one
 *   account has failed as many as the threshold the target gives (state user.brute-force with twoFactor: an account with
 *   2FA)" (fix-wb10a: user.brute-force takes an optional twoFactor, added later to docs/provider-states.md; a STATES_FILE
 *   kind "user.brute-force with 2FA"; a target or file without it: that test not verified, with the reason).
 * - wb10-login-2fa-code-leading-zero-refused: no test arranges a code that begins with 0; about one code in ten does, so
 *   a run with ~20 2FA logins meets one about 7 times in 8. Log in with a code that begins with 0, computed from the
 *   state's totpSecret (wait for such a step, or pick it among the steps the target is seen to tolerate): 200.
 *   Still open (fix-wb10a): no deterministic arrangement is cheap. Waiting for a step whose code begins with 0 costs
 *   about 5 minutes on average (one step in ten, 30 s each) and up to far more; a target may accept only the current
 *   step (RFC 6238), so a past or future step's code cannot be sent instead. The deterministic way is an additive
 *   state param by which the suite chooses the TOTP secret (one whose codes for the current and next steps both begin
 *   with 0, searched at run time): a change of the public contract (docs/provider-states.md) that a STATES_FILE cannot
 *   serve (its secrets are fixed) and that needs each hook to store a secret it is given; not made in this round.
 * - wb10-forgot-email-array-read-as-text: caught by: forgot-password "answers 422 keyed by email for the known e-mail sent
 *   inside a JSON array" (FORGOT_EMAIL_ROWS from WRAPPED_TEXT).
 * - wb10-reset-email-array-read-as-text, wb10-reset-password-array-read-as-text: caught by: reset-password "answers 422
 *   keyed by email (or token) for the account's e-mail sent as a JSON array" and "refuses a new password sent as a JSON
 *   array (422 keyed by password expected)" (RESET_ROWS from WRAPPED_TEXT).
 * - wb10-reset-refused-email-resets-token-owner: caught by: the e-mail rows of RESET_ROWS ("answers 422 keyed by email
 *   (or token) when email is missing" ...): every refused row of RESET_ROWS is now followed by a login with the unchanged
 *   password (200; expectPasswordUnchanged), a successful login, so no failed login is added.
 * - wb10-reset-refused-long-password-saved: caught by: reset-password "answers 422 keyed by password for a 192-character
 *   password" (the same login with the unchanged password after every refused row).
 * - wb10-reset-writes-bearer-users-password: caught by: reset-password "leaves the bearer's password unchanged when a
 *   reset is sent with another account's bearer, and a 200 resets the e-mail's account" (section 4 says only that the
 *   reference calls send a bearer, so a refusal of another account's bearer is advised on, not failed).
 * - wb10-nft-list-filtered-meta-empty, wb10-coin-list-filtered-meta-empty: ASSET_STABLE (helpers/spec/instances.ts)
 *   left meta out (only genesis_date was judged, and on the unfiltered coin list and show). Caught by: "lists each asset
 *   under a filter (assets[]) with the fields the unfiltered list gives it" of the NFT and the coin list (LISTS
 *   `underFilter: ['meta']`: meta compared whole, its members in any order, genesis_date as a date in any writing and
 *   total_supply by its type, a live figure).
 * - wb10-nft-show-meta-empty: DOUBTFUL (below), not fixed. 2.2 says meta "May be empty" and does not say when: a show
 *   that does not load the token's metadata answers a Balance record of the documented shape, and nothing in the text
 *   ties the show's meta to the list's (the filter principle of docs/judging.md binds a filtered list to the unfiltered
 *   one, not a show to a list). A reading-proof check would need the state to name the asset's meta (an additive
 *   balances param) and two lists around the show giving it; the suite has neither, so it stays unjudged.
 * - wb10-banks-refused-currency-reserves-iban, wb10-banks-refused-bank-name-reserves-iban: the "reserves no iban" sequence
 *   (invariants.ts createInvariantChecks) re-created the iban only after a 422 for the swift. Caught by: "stores nothing
 *   for creates refused with 422, each for a different field (the list is unchanged), and reserves none of their ibans"
 *   (banks), which re-creates the iban of each row (currency, swift, bankName; iban aside) validly: 201.
 * - wb10-banks-bank-name-formula-prefix-stripped, wb10-cards-alias-formula-prefix-stripped: the stored-as-sent samples
 *   (& < > " ' emoji CJK) never began with = + - or @. Caught by: "answers 201 for bankNames with the markup and quoting
 *   characters ... and beginning with = + - @" (banks) and "answers 201 for holderNames and aliases with apostrophes ...
 *   and beginning with = + - @, stored as sent" (cards): each character begins a bankName, a holderName and an alias.
 * - wb10-bonuses-filtered-list-asset-of-order, wb10-bonuses-filtered-list-order-of-first-bonus: the bonus LISTS entry's
 *   stable fields were id, amount, type, value, bonusedAt, createdAt. Caught by: "lists each record under a filter
 *   (status, platform) with the fields the unfiltered list gives it" (now also the asset summary, 2.3, and the order's
 *   id, publicId, type, typeOperation, fromSymbol, toSymbol and createdAt; not its status, section 3).
 * - wb10-bonuses-show-order-assets-swapped, wb10-bonuses-show-order-commissions-swapped, wb10-bonuses-show-user-created-
 *   at-of-bonus: the list-show round trip compared the order's symbols, amounts and rate but not fromAsset/toAsset,
 *   commissions, or the user beyond its id. Caught by: "shows each listed record with the fields the list gives it"
 *   (ORDER_STABLE now has fromAsset and toAsset as asset summaries; ORDER_AMOUNTS commissions, compared where both reads
 *   give the order one status; the nested user its createdAt).
 * - wb10-bonuses-summary-asset-name-as-symbol: the two path shapes of the summary were compared on orders and figures
 *   only. Caught by: "answers, with {asset}, the entry of that asset in the summary of all assets (asset, orders,
 *   counts, amounts)" (the entry's asset summary compared on name, symbol, alias, type and precision).
 * - wb10-bonuses-user-carries-otp-secret-key: helpers/spec/credential-names.ts lacked otp_secret_key (active_model_otp),
 *   and with it encrypted_otp_secret (devise-two-factor before 5) and two_factor_secret_key. Caught by: the security
 *   finding of every bonus list and show test (credential-names.ts now names the OTP secrets and backup codes).
 * - wb10-cards-jpeg-name-refused-image2: the `.jpeg` name was sent as cardImage1 only. Caught by: "answers 201 for a JPEG
 *   file named .jpeg as cardImage2" (cards; the image rows are one table, IMAGE_ROWS, sent as each image).
 * - wb10-cards-exif-jpeg-refused: every JPEG sent was JFIF (APP0). Caught by: "answers 201 for an Exif JPEG (APP1, no
 *   JFIF segment) as cardImage1" (and as cardImage2).
 * - wb10-cards-bmp-v5-header-refused: every BMP sent had the 40-byte BITMAPINFOHEADER. Caught by: "answers 201 for a BMP
 *   with a BITMAPV4HEADER (108 bytes) as cardImage1" (and with a BITMAPV5HEADER, 124 bytes; each as either image).
 * - wb10-cards-refused-alias-stored: "stores nothing for creates refused with 422" broke the expiry, lastFourDigits and
 *   the images, never holderName or alias. Caught by: "stores nothing for creates refused with 422, each for a different
 *   field (the list is unchanged)" (cards), whose table now breaks holderName and alias (192 characters) too.
 */
const OPEN = new Set<string>([
  'wb10-login-2fa-code-leading-zero-refused',
]);

/** Gaps judged not a deviation under every reading (the header says why): not registered, not counted, not fixed. */
const DOUBTFUL = new Set<string>(['wb10-nft-show-meta-empty']);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb10Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name) && !DOUBTFUL.has(mutant.name));

/** The round's doubtful gaps (not registered). */
export const roundWb10Doubtful: Mutant[] = written.filter((mutant) => DOUBTFUL.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb10OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));
