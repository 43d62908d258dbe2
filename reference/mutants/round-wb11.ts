import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import { ROUTE, answered, type Seen } from './make.js';
import { parse } from './reading.js';
import type { Mutant } from './types.js';

/**
 * White-box round wb11: deviations a real backend could ship, written by an eleventh reviewer who read suites/ and
 * helpers/ and aimed at what rounds wb1 to wb10 left alone: fields of a bonus's order and user that no check compares
 * between show and list (typeOperationName, quote, parentOrder, txId, the payment's currency, feePercent, amount and
 * lifeUntilAt, the user's tradeStatus), fields a filtered bonus list may give otherwise than the unfiltered one (the
 * order's amounts, rate, commissions, toAsset, quote and typeOperationName, the user's createdAt), a bonus list that
 * keeps one bonus per order, the asset summary's precision and type beside the bonus list's, a bank createdAt frozen at
 * the first create, a bank list that holds twice the banks of one currency class, balance shows that differ from their
 * list, a card show that answers the first card's alias, and token secrets forgiven (re-cased, cut, replaced) on routes
 * and path shapes that earlier rounds did not aim at. Each breaks a rule that holds under every reading of the
 * specification; its description quotes the sentence it breaks. All rewrite answers as sent, or map a request's bearer
 * token before it is authenticated; none needs a deviation of the reference's modules.
 */

const BANK_CREATE = 'POST /api/v1/user/{user}/bank';
const COIN_SHOW = 'GET /api/v1/user/{user}/balances/{asset}';
const NFT_SHOW = 'GET /api/v1/user/{user}/balances/nft/{asset}';

const BANK_URLS = ['/api/v1/user/:user/bank', '/api/v1/user/:user/bank/:bank'];

/** A list request that carries one of `names` as a filter with a value. */
const filtered = (request: Seen, names: readonly string[]) => names.some((name) => {
  const value = request.query?.[name];
  return value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
});

/** The bonus show's record changed by `change` (true when it changed it). */
const bonusShow = (change: (bonus: any) => boolean): Mutation => answered(ROUTE.bonusShow, 200, (body) => (body?.data && typeof body.data === 'object' ? change(body.data) : false));

/** The bonus list's records changed by `change` where the list carries one of `filters` (true when one changed). */
const bonusFiltered = (filters: readonly string[], change: (bonus: any) => boolean): Mutation => answered(ROUTE.bonusList, 200, (body, request) => {
  if (!filtered(request, filters) || !Array.isArray(body?.data)) return false;
  let changed = false;
  for (const bonus of body.data) if (bonus && typeof bonus === 'object' && change(bonus)) changed = true;
  return changed;
});

/** A bonus list that keeps the first bonus of each order only (a GROUP BY order_id, or a join keyed by the order), where `applies`. */
const onePerOrder = (applies: (request: Seen) => boolean): Mutation => answered(ROUTE.bonusList, 200, (body, request) => {
  if (!applies(request) || !Array.isArray(body?.data)) return false;
  const seen = new Set<string>();
  const kept = body.data.filter((bonus: any) => {
    const order = bonus?.order?.id;
    if (typeof order !== 'string') return true;
    if (seen.has(order)) return false;
    seen.add(order);
    return true;
  });
  if (kept.length === body.data.length) return false;
  body.data = kept;
  return true;
});

const decimalsOf = (value: string) => (value.split('.')[1] ?? '').length;

/**
 * A bearer token forgiven on one route: every access token the interface issues (login and JWT login answers) is
 * remembered; a request of `method` whose path matches `path` and whose bearer names an issued token's numeric id with a
 * secret that `forgive` takes for the real one is sent on with the real token, so the route answers as if authenticated.
 */
function tokenForgiven(method: string, path: RegExp, forgive: (sent: string, real: string) => boolean): Mutation {
  const issued = new Map<string, string>();
  return {
    wire(answer: WireAnswer) {
      if (answer.status !== 200 || answer.method !== 'POST' || !answer.url.startsWith('/api/v1/authenticate')) return;
      const id = parse(answer.payload)?.data?.id;
      const match = typeof id === 'string' ? /^(\d+)\|(.+)$/.exec(id) : null;
      if (match) issued.set(match[1]!, match[2]!);
    },
    request(request: FastifyRequest) {
      if (request.method !== method || !path.test(request.url.split('?')[0]!)) return;
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\d+)\|(.+)$/i.exec(header) : null;
      if (!match) return;
      const real = issued.get(match[1]!);
      if (real === undefined || real === match[2] || !forgive(match[2]!, real)) return;
      request.headers.authorization = `Bearer ${match[1]}|${real}`;
    },
  };
}

const recased = (sent: string, real: string) => sent.toLowerCase() === real.toLowerCase();
const cut = (sent: string, real: string) => sent.length >= 8 && real.startsWith(sent);
const anySecret = () => true;

/** Every bank answer's createdAt cut to the midnight (UTC) of its day (a created_at column typed DATE). */
function bankCreatedAtDay(): Mutation {
  return {
    wire(answer: WireAnswer) {
      if ((answer.status !== 200 && answer.status !== 201) || !BANK_URLS.includes(answer.url) || answer.method === 'DELETE') return;
      const body = parse(answer.payload);
      if (body === undefined) return;
      const records: any[] = Array.isArray(body?.data) ? body.data : body?.data && typeof body.data === 'object' ? [body.data] : [];
      let changed = false;
      for (const record of records) if (typeof record?.createdAt === 'number' && record.createdAt % 86_400 !== 0) { record.createdAt -= record.createdAt % 86_400; changed = true; }
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

/** A card show that answers, for every card after a user's first, the alias of that first card (wb8's holderName twin). */
function cardShowAliasOfFirst(): Mutation {
  const first = new Map<string, string>();
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      const body = parse(answer.payload);
      const user = (reply.request.params as any)?.user;
      if (!body || typeof user !== 'string') return;
      if (answer.method === 'POST' && answer.url === '/api/v1/user/:user/card' && answer.status === 201) {
        if (typeof body.data?.alias === 'string' && !first.has(user)) first.set(user, body.data.alias);
        return;
      }
      if (answer.method === 'GET' && answer.url === '/api/v1/user/:user/card/:card' && answer.status === 200 && first.has(user) && typeof body.data?.alias === 'string' && first.get(user) !== body.data.alias) {
        body.data.alias = first.get(user);
        return JSON.stringify(body);
      }
    },
  };
}

const SUMMARY_ASSET_ROUTE = /^\/api\/v1\/user\/[^/]+\/bonus\/assets\/[^/]+$/;
const BANK_DELETE_ROUTE = /^\/api\/v1\/user\/[^/]+\/bank\/[^/]+$/;
const CARD_CREATE_ROUTE = /^\/api\/v1\/user\/[^/]+\/card$/;
const NFT_SHOW_ROUTE = /^\/api\/v1\/user\/[^/]+\/balances\/nft\/[^/]+$/;
const COIN_SHOW_ROUTE = /^\/api\/v1\/user\/[^/]+\/balances\/(?!nft$)[^/]+$/;

const written: Mutant[] = [
  // --- authentication (tokens on routes and path shapes) ---
  // white-box round wb11
  { name: 'wb11-recased-secret-open-on-summary-asset', clause: '5', group: 'bonuses', description: 'section 5.3 ("Protected endpoints require the header Authorization: Bearer <ACCESS_TOKEN>. Without valid authentication the response is 401"): the bonus asset summary with its {asset} segment takes an issued token whose secret is sent in another letter case (the secret compared case-insensitively, a collation of the tokens column)', mutation: tokenForgiven('GET', SUMMARY_ASSET_ROUTE, recased) },
  // white-box round wb11
  { name: 'wb11-recased-secret-open-on-bank-delete', clause: '5', group: 'banks', description: 'section 5.3 ("Without valid authentication the response is 401"): bank delete takes an issued token whose secret is sent in another letter case', mutation: tokenForgiven('DELETE', BANK_DELETE_ROUTE, recased) },
  // white-box round wb11
  { name: 'wb11-cut-secret-open-on-card-create', clause: '5', group: 'cards', description: 'section 5.3 ("Without valid authentication the response is 401"): card create takes an issued token whose secret is cut short (a prefix of 8 characters or more; a LIKE \'secret%\' lookup)', mutation: tokenForgiven('POST', CARD_CREATE_ROUTE, cut) },
  // white-box round wb11
  { name: 'wb11-token-id-alone-open-on-nft-show', clause: '5', group: 'balances', description: 'section 5.3 ("Without valid authentication the response is 401"): the NFT show takes a real token id with any secret (the token found by its numeric id, its secret never compared)', mutation: tokenForgiven('GET', NFT_SHOW_ROUTE, anySecret) },
  // white-box round wb11
  { name: 'wb11-token-id-alone-open-on-coin-show', clause: '5', group: 'balances', description: 'section 5.3 ("Without valid authentication the response is 401"): the coin show takes a real token id with any secret', mutation: tokenForgiven('GET', COIN_SHOW_ROUTE, anySecret) },

  // --- balances ---
  // wb11-nft-show-description-empty (a show's empty description where the list has texts) is an allowed reading since
  // review-ah F2: 2.2 lets a description be empty without saying when (probes-review-ah.ts).
  // white-box round wb11
  { name: 'wb11-coin-show-memo-negated', clause: '4.9', group: 'balances', description: 'sections 4.9/2.2 ("200: { data: <Balance record> }"; memo boolean): the coin show answers memo negated (a tinyint column read as "no memo" when 1); the list gives it right', mutation: answered(COIN_SHOW, 200, (body) => typeof body?.data?.memo === 'boolean' && ((body.data.memo = !body.data.memo), true)) },
  // white-box round wb11
  { name: 'wb11-nft-show-chain-native', clause: '4.7', group: 'balances', description: 'sections 4.7/2.2 ("200: { data: <Balance record> }"; chain "{ name, symbol } (both null for a native coin)"): the NFT show answers chain { name: null, symbol: null } for an NFT whose list entry names its chain (the chain relation not loaded by the show, as for a native coin)', mutation: answered(NFT_SHOW, 200, (body) => body?.data?.chain && (body.data.chain.name !== null || body.data.chain.symbol !== null) && ((body.data.chain = { name: null, symbol: null }), true)) },

  // --- banks ---
  // white-box round wb11
  { name: 'wb11-banks-created-at-date-column', clause: '4.10', group: 'banks', description: 'sections 2.4/1.4 (createdAt "Unix seconds"; "Timestamps named createdAt ... are integers (Unix seconds)"): every bank\u2019s createdAt is the midnight (UTC) of the day it was created (a created_at column typed DATE); create, list and show agree', mutation: bankCreatedAtDay() },
  // white-box round wb11
  { name: 'wb11-banks-list-non-eur-bank-twice', clause: '4.10', group: 'banks', description: 'section 4.10 ("List ... 200 { data: [<Bank>] }", the user\u2019s banks): the list holds twice every bank whose currency is not EUR (a join on an exchange-rate table that holds a bid and an ask row for every currency but the base one)', mutation: answered(ROUTE.bankList, 200, (body) => {
    if (!Array.isArray(body?.data)) return false;
    const out: any[] = [];
    for (const bank of body.data) { out.push(bank); if (typeof bank?.currency === 'string' && bank.currency.toUpperCase() !== 'EUR') out.push(JSON.parse(JSON.stringify(bank))); }
    if (out.length === body.data.length) return false;
    body.data = out;
    return true;
  }) },
  // white-box round wb11
  { name: 'wb11-banks-create-answer-swift-bic8', clause: '4.10', group: 'banks', description: 'sections 4.10/2.4 ("Create ... 201 { data: <Bank> }"; swift): the create answers an 11-character swift cut to its first 8 (the primary-office BIC); list and show give the swift as stored, all 11', mutation: answered(BANK_CREATE, 201, (body) => typeof body?.data?.swift === 'string' && body.data.swift.length === 11 && ((body.data.swift = body.data.swift.slice(0, 8)), true)) },

  // --- bonuses: the show's order and user, never compared with the list ---
  // white-box round wb11
  { name: 'wb11-bonuses-show-order-type-operation-name-enum', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 ("Show ... 200 { data: <Bonus> }"; typeOperationName, value seen buy_with_fiat): the show answers the order\u2019s typeOperationName as its enum constant\u2019s name (BUY_WITH_FIAT, Java\u2019s Enum.name() where the list serialises its value)', mutation: bonusShow((bonus) => typeof bonus?.order?.typeOperationName === 'string' && bonus.order.typeOperationName !== bonus.order.typeOperationName.toUpperCase() && ((bonus.order.typeOperationName = bonus.order.typeOperationName.toUpperCase()), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-show-order-quote-of-order', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (quote "{ id: string, publicId: string }"): the show answers the order\u2019s quote with the order\u2019s own id and publicId (the quote relation joined on the order\u2019s key); the list gives the quote', mutation: bonusShow((bonus) => bonus?.order?.quote && bonus.order.quote.id !== bonus.order.id && ((bonus.order.quote = { id: bonus.order.id, publicId: bonus.order.publicId }), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-show-order-payment-currency-of-coin', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (payment currency): the show answers the payment\u2019s currency as the order\u2019s toSymbol (the coin bought, not the fiat paid); the list gives the fiat', mutation: bonusShow((bonus) => bonus?.order?.payment && typeof bonus.order.toSymbol === 'string' && bonus.order.payment.currency !== bonus.order.toSymbol && ((bonus.order.payment.currency = bonus.order.toSymbol), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-show-order-fee-percent-of-amount', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (payment feePercent string, feeAmount decimal string): the show answers the payment\u2019s feePercent with its feeAmount (two columns read in the wrong order); the list gives the percent', mutation: bonusShow((bonus) => bonus?.order?.payment && typeof bonus.order.payment.feeAmount === 'string' && bonus.order.payment.feePercent !== bonus.order.payment.feeAmount && ((bonus.order.payment.feePercent = bonus.order.payment.feeAmount), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-show-order-payment-amount-null', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (payment amount, nullable): the show answers the payment\u2019s amount null where the list gives it, the order in one status in both (the payment relation not loaded by the show)', mutation: bonusShow((bonus) => bonus?.order?.payment && bonus.order.payment.amount !== null && bonus.order.payment.amount !== undefined && ((bonus.order.payment.amount = null), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-show-order-life-until-without-created', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7/1.4 (payment lifeUntilAt integer, a timestamp in Unix seconds): the show answers the payment\u2019s lifeUntilAt as its lifeSeconds alone (added to a createdAt the show does not load, read as 0); the list gives createdAt plus lifeSeconds', mutation: bonusShow((bonus) => bonus?.order?.payment && typeof bonus.order.payment.lifeSeconds === 'number' && bonus.order.payment.lifeUntilAt !== bonus.order.payment.lifeSeconds && ((bonus.order.payment.lifeUntilAt = bonus.order.payment.lifeSeconds), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-show-order-parent-of-itself', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (parentOrder "{ id: string or null, publicId: string or null }"): the show answers an order without a parent as its own parent (the self-join matched on the order\u2019s own key); the list gives both null', mutation: bonusShow((bonus) => bonus?.order?.parentOrder && bonus.order.parentOrder.id === null && typeof bonus.order.id === 'string' && ((bonus.order.parentOrder = { id: bonus.order.id, publicId: bonus.order.publicId ?? null }), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-show-order-tx-id-of-payment', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (txId string or null): the show answers a settled order\u2019s txId with its payment\u2019s id; the list gives the transaction hash', mutation: bonusShow((bonus) => typeof bonus?.order?.txId === 'string' && typeof bonus.order.payment?.id === 'string' && bonus.order.txId !== bonus.order.payment.id && ((bonus.order.txId = bonus.order.payment.id), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-show-user-trade-status-false', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.6 (user tradeStatus boolean): the show answers the user\u2019s tradeStatus false for a user the list, read a moment before and after, gives true (a permission not loaded by the show, read as denied)', mutation: bonusShow((bonus) => bonus?.user?.tradeStatus === true && ((bonus.user.tradeStatus = false), true)) },

  // white-box round wb11
  { name: 'wb11-bonuses-user-email-fully-masked', clause: '4.11', group: 'bonuses', description: 'section 2.6 (email "string, masked by the service (partially replaced with asterisks)"): every bonus\u2019s user e-mail is answered wholly replaced with asterisks (****************), not partially (a mask helper applied to the whole string)', mutation: answered(ROUTE.bonusList, 200, (body) => {
    let changed = false;
    for (const bonus of Array.isArray(body?.data) ? body.data : []) if (typeof bonus?.user?.email === 'string' && /[^*]/.test(bonus.user.email)) { bonus.user.email = '*'.repeat(bonus.user.email.length); changed = true; }
    return changed;
  }) },

  // --- bonuses: filtered lists ---
  // white-box round wb11
  { name: 'wb11-bonuses-status-filtered-order-amounts-swapped', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (status "optional" filter; fromAmount, toAmount decimal strings): the list filtered by status answers each order\u2019s fromAmount as its toAmount and the reverse; unfiltered it gives them right', mutation: bonusFiltered(['status'], (bonus) => bonus?.order && bonus.order.fromAmount !== bonus.order.toAmount && (([bonus.order.fromAmount, bonus.order.toAmount] = [bonus.order.toAmount, bonus.order.fromAmount]), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-platform-filtered-commissions-zero', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (platform "optional" filter; commissions "{ percent: decimal string, amount: decimal string }"): the list filtered by platform answers every order\u2019s commissions as 0 (the commission relation not joined by the platform query); unfiltered it gives them', mutation: bonusFiltered(['platform'], (bonus) => bonus?.order?.commissions && (bonus.order.commissions.percent !== '0' || bonus.order.commissions.amount !== '0') && ((bonus.order.commissions = { percent: '0', amount: '0' }), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-status-filtered-user-created-at-of-bonus', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.6 (user createdAt integer): the list filtered by status answers each user\u2019s createdAt with the bonus\u2019s (a column of the joined query read under the wrong table); unfiltered it gives the user\u2019s', mutation: bonusFiltered(['status'], (bonus) => bonus?.user && typeof bonus.createdAt === 'number' && bonus.user.createdAt !== bonus.createdAt && ((bonus.user.createdAt = bonus.createdAt), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-filtered-order-rate-inverted', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (filters status and platform; rate decimal string): a filtered list answers each order\u2019s rate inverted (fiat per coin written as coin per fiat); unfiltered it gives the rate', mutation: bonusFiltered(['status', 'platform'], (bonus) => {
    const rate = Number(bonus?.order?.rate);
    if (!Number.isFinite(rate) || rate === 0 || rate === 1) return false;
    bonus.order.rate = (1 / rate).toFixed(Math.max(8, decimalsOf(String(bonus.order.rate))));
    return true;
  }) },
  // white-box round wb11
  { name: 'wb11-bonuses-filtered-order-to-asset-of-from', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7/2.3 (fromAsset, toAsset "asset summary"): a filtered list answers each order\u2019s toAsset with its fromAsset (the fiat for the coin); unfiltered it gives both', mutation: bonusFiltered(['status', 'platform'], (bonus) => bonus?.order?.fromAsset && bonus.order.toAsset && bonus.order.fromAsset.symbol !== bonus.order.toAsset.symbol && ((bonus.order.toAsset = JSON.parse(JSON.stringify(bonus.order.fromAsset))), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-filtered-order-quote-of-order', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (quote "{ id: string, publicId: string }"): a filtered list answers each order\u2019s quote with the order\u2019s own id and publicId; unfiltered it gives the quote', mutation: bonusFiltered(['status', 'platform'], (bonus) => bonus?.order?.quote && bonus.order.quote.id !== bonus.order.id && ((bonus.order.quote = { id: bonus.order.id, publicId: bonus.order.publicId }), true)) },
  // white-box round wb11
  { name: 'wb11-bonuses-filtered-order-type-operation-name-enum', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.7 (typeOperationName, value seen buy_with_fiat): a filtered list answers each order\u2019s typeOperationName as its enum constant\u2019s name (BUY_WITH_FIAT); unfiltered it gives the value', mutation: bonusFiltered(['status', 'platform'], (bonus) => typeof bonus?.order?.typeOperationName === 'string' && bonus.order.typeOperationName !== bonus.order.typeOperationName.toUpperCase() && ((bonus.order.typeOperationName = bonus.order.typeOperationName.toUpperCase()), true)) },

  // --- bonuses: a bonus per order ---
  // white-box round wb11
  { name: 'wb11-bonuses-list-one-bonus-per-order', clause: '4.11', group: 'bonuses', description: 'section 4.11 ("List ... 200 { data: [<Bonus>] }", the user\u2019s bonuses): the list holds one bonus per order, so the second bonus an order earned is never listed (a GROUP BY order_id); show answers it', mutation: onePerOrder(() => true) },
  // white-box round wb11
  { name: 'wb11-bonuses-filtered-list-one-bonus-per-order', clause: '4.11', group: 'bonuses', description: 'section 4.11 (status, platform "optional" filters of the user\u2019s bonuses): a filtered list holds one bonus per order, so the second bonus an order earned is left out; the unfiltered list holds it', mutation: onePerOrder((request) => filtered(request, ['status', 'platform'])) },
  // Closing the round (fix-wb11b): the param sharedOrder of state bonuses was added to the contract, which is additive: a
  // hook written before it answers no sharedOrder, and the test of an order's two bonuses is not verified, never failed.
  { name: 'allowed-wb11-hook-ignores-shared-order', clause: '4.11', group: 'bonuses', allowed: true, judgedBy: { groups: ['bonuses'], clauses: 'all' }, description: 'the provider-state hook predates the param sharedOrder of state bonuses: it ignores it and answers the bonuses without sharedOrder (docs/provider-states.md: an older hook keeps working)', mutation: { deviation: 'contract.hook-ignores-shared-order' } },

  // --- bonuses: the asset summary beside the list ---
  // white-box round wb11
  { name: 'wb11-bonuses-summary-asset-precision-of-fiat', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5b/2.3 (summary asset "<asset summary>": precision numeric string): the asset summary, in both path shapes, answers every coin\u2019s precision as 2 (read from the order\u2019s fiat); the bonus list gives the coin\u2019s precision for the same symbol', mutation: answered(ROUTE.bonusSummary, 200, (body) => {
    let changed = false;
    for (const entry of Array.isArray(body?.data) ? body.data : []) if (entry?.asset && entry.asset.precision !== undefined && String(entry.asset.precision) !== '2') { entry.asset.precision = '2'; changed = true; }
    return changed;
  }) },
  // white-box round wb11
  { name: 'wb11-bonuses-summary-asset-type-fiat', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5b/2.3 (summary asset type, "values seen: coin, fiat"): the asset summary, in both path shapes, answers every coin\u2019s type as fiat (the type of the order\u2019s fromAsset); the bonus list gives coin for the same symbol', mutation: answered(ROUTE.bonusSummary, 200, (body) => {
    let changed = false;
    for (const entry of Array.isArray(body?.data) ? body.data : []) if (entry?.asset && entry.asset.type === 'coin') { entry.asset.type = 'fiat'; changed = true; }
    return changed;
  }) },

  // --- cards ---
  // white-box round wb11
  { name: 'wb11-cards-show-alias-of-first-card', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 ("Show ... 200 { data: <Card> }"; alias): card show answers, for every card created after the user\u2019s first, the alias of that first card (a cached relation); create and list give each card its own', mutation: cardShowAliasOfFirst() },
];

/**
 * The survivors of the round (no test citing their clause, in their group, failed), each re-checked as a deviation under
 * every reading; each names the check that would catch it. Controls made while judging (not kept): the same helpers
 * aimed at a compared field (a bonus show's amount; a filtered bonus list's amount) are killed at once by the show-list
 * and filtered-list comparisons, so the rewrites below fire and the survivors are fields those comparisons leave out; a
 * third control, every entry of the asset summary (both path shapes) answering its asset's name as "X", survives: the
 * summary's asset is compared between its two path shapes only, never with the bonus list's asset of the same symbol.
 * Two rewrites that first never fired or fired by timing were replaced before scoring (an NFT's precision, 0 in the
 * reference already; a bank createdAt frozen at the first create, inside the 10 s window in a fast run).
 * Score before fixes: 13 caught of 33 (the five token rows by the access table of every path shape; the NFT description
 * and chain and the coin memo by the show-list comparisons; the bank list holding non-EUR banks twice, the create
 * answering a BIC11 cut to 8, and a createdAt of a DATE column by the bank create and list checks; a card show with the
 * first card's alias by the stored-as-sent rows; the e-mail wholly masked by "masks the user's e-mail in every bonus").
 * Two more, the bonus lists keeping one bonus per order, were killed in 6 of 7 and 7 of 7 judged runs, but only by the
 * draw of the reference's bonuses state (its last bonus shares an order with the one before in about half of its calls;
 * the suite does not ask for such an order): counted open and not registered, as round wb10 did.
 * Open (each with the check that would catch it):
 * - wb11-bonuses-show-order-type-operation-name-enum, -quote-of-order, -payment-currency-of-coin, -fee-percent-of-amount,
 *   -payment-amount-null, -life-until-without-created, -parent-of-itself, -tx-id-of-payment: the show-list round trip
 *   compared the order's id, publicId, type, typeOperation, symbols, assets, createdAt and (in one status) amounts, rate
 *   and commissions, never typeOperationName, quote, parentOrder/childOrder, txId or payment. Closed (fix-wb11a). Caught
 *   by: "shows each listed record with the fields the list gives it", which now compares the bonus member by member over
 *   every member its schemas name (bonus, user, asset summary, order), recursively (helpers/spec/members.ts memberTree,
 *   helpers/arrange/invariants.ts memberDifferences); the members section 3 leaves free to move (BONUS_MEMBERS_FREE: the
 *   statuses and what moves with them, the order's fill) judged by the sandwich of a second list read.
 * - wb11-bonuses-show-user-trade-status-false: the nested user was compared on id and createdAt only. Closed (fix-wb11a).
 *   Caught by: the same round trip, over the whole user (tradeStatus is a member free to move: failed because the list
 *   read after the show gives it as the one before did).
 * - wb11-bonuses-status-filtered-order-amounts-swapped, wb11-bonuses-platform-filtered-commissions-zero,
 *   wb11-bonuses-filtered-order-rate-inverted, wb11-bonuses-filtered-order-to-asset-of-from, wb11-bonuses-filtered-
 *   order-quote-of-order, wb11-bonuses-filtered-order-type-operation-name-enum, wb11-bonuses-status-filtered-user-
 *   created-at-of-bonus: the bonus LISTS entry (helpers/spec/instances.ts) compared under a filter only id, amount, type,
 *   value, bonusedAt, createdAt, asset and order id, publicId, type, typeOperation, symbols, createdAt. Closed
 *   (fix-wb11a). Caught by: "lists each record under a filter (status, platform) with the fields the unfiltered list gives
 *   it", whose bonus entry now names the whole order and user and its schema (LISTS `record: 'bonus'`), compared member
 *   by member, recursively, each member judged alone against a second unfiltered read.
 * - wb11-bonuses-summary-asset-precision-of-fiat, wb11-bonuses-summary-asset-type-fiat: the summary's asset is compared
 *   between its two path shapes only. Caught by: "answers each asset summary with the asset summary the bonus list gives
 *   its symbol, with and without {asset}" (name, symbol, alias, type, precision compared with comparableAssetSummary).
 * - wb11-bonuses-list-one-bonus-per-order, wb11-bonuses-filtered-list-one-bonus-per-order: caught only when the state
 *   happened to give an order two bonuses. Caught on every run by: "lists both bonuses of an order that earned two,
 *   unfiltered and under the status and platform filters", which asks state bonuses for such a pair (its param and field
 *   sharedOrder, added to docs/provider-states.md; not verified, with the reason, where the target cannot arrange it).
 */
const OPEN = new Set<string>([
]);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb11Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb11OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));
