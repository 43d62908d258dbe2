import type { FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { ReferenceContext } from '../context.js';
import { onAnswers, onParsedBody, parse, recordsOf, routeOf } from './reading.js';
import type { Mutant } from './types.js';
import { ROUTE as URL } from './routes.js';
import { bankDeleteAlsoDeletes } from './round-wb22.js';

/**
 * White-box round wb23 (issue 27, "a rule is verified only where it was checked everywhere it applies"): deviations a
 * real backend could ship, written by a twenty-third reviewer who read the specification, docs/judging.md (its readings
 * table and judgements: the 72-byte password, the TOTP window, upper-case holder names, the order and sameness of card
 * parts, filters whose value resolves to nothing, all open and not written here), suites/ and helpers/
 * (helpers/spec/instances.ts LISTS, CREATES, ACCESS_CLASSES; helpers/arrange/bonus-summary.ts) and aimed at what rounds wb1
 * to wb22 left alone:
 * - the fiat amount set (2.2), which no check compares with anything (LISTS `stable` leaves it out: a price moves): a
 *   fiat value of a crypto amount of 0 that is not 0 (every fiat field priced from `available`; a holding of nothing
 *   priced at one unit), on coins and NFTs;
 * - balance fields consistent between list and show but wrong in both (no oracle but a state's): links facebook and
 *   twitter swapped, a chain's name and symbol swapped, every NFT's quantity 1, a token's precision its chain's, a
 *   coin's description another coin's; a show's pending and payment swapped;
 * - a filter whose value resolves and matches none of the user's records answered with the unfiltered list (a "never
 *   answer empty" fallback), on bonuses (platform, two filters), banks (platform, currency, company) and cards
 *   (platform, company); the NFT filter naming two symbols read as its last one;
 * - the bonus summary's figures: counted over every user's bonuses (all assets, one asset), distributed counting the
 *   pending, pending's amount counting the canceled; a bonus show's bonusedAt its createdAt;
 * - records as platforms and states show them: a bank's and a card's externalPlatform code and name swapped;
 * - what a delete leaves: a bank delete that removes the user's bonuses;
 * - the password flow: a reset with the token of a `link` e-mail refused, the old password still logging in after a
 *   reset (both kept).
 * Each breaks a rule that holds under every reading of the specification; its description quotes the sentence it
 * breaks. All rewrite answers as sent, or a request before the reference reads it; none needs a deviation of the
 * reference's modules.
 *
 * Score before fixes: 16 caught of 30 (32 written; one dropped before scoring because no state of the suite's world
 * makes it bite: a bonus status filter falling back to every bonus when the user has none of that status; one judged
 * after scoring no deviation under every reading, NOT_DEVIATIONS below: wb23-bonuses-user-id-of-order).
 * `nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME ...` in three batches (10, 10, 11): 1, 5 and 8 caught; every
 * survivor again with --no-hints (batches of 9 and 8): none caught. The whole suite (`node bin/conformance.mjs run
 * --mutant NAME`) was then run against the survivors: two first cited 2.4 and 2.5 (the record's externalPlatform)
 * failed the banks and cards suites' two-platform tests, which cite 4.10 and 4.6a (a precondition: the state's code is
 * not the code the records show), so they were re-cited 4.10 and 4.6a (the mutation unchanged) and killed:
 * wb23-banks-platform-code-and-name-swapped, wb23-cards-platform-code-and-name-swapped. The whole suite against the
 * others gave conformant (see the notes at the end).
 * Every mutant was first seen to bite by a throwaway script (not kept) that built the reference with it and sent the
 * requests through fastify's inject, checking the effect meant in the mutated answers: fiat reserve 3910.77 for a DOGE
 * reserve of 0, an NFT's fiat staking 19228.00 for a staking of 0, USDC fiat available 1.00 for an available of 0;
 * facebook https://twitter.com/ethereum; USDT's chain { name: ETH, symbol: Ethereum } and the NFTs' alike; every NFT
 * quantity 1; USDT precision 18; DOGE's description the text of Ethereum; a coin show with pending and payment swapped;
 * assets[]=A&assets[]=B on NFTs listing B alone; platform=/company=<a platform registered by another user's
 * two-platforms state> listing the user's bank, card and every bonus (0 unmutated); currency=SEK listing the EUR bank;
 * status=pending&platform=<the other platform> listing pending bonuses of the first; a summary entry's figures over
 * every user's bonuses, distributed with pending added, pending.amount with canceled's, canceled.amount the distributed
 * one; every bonus's user.id its order's id; a bonus show's bonusedAt its createdAt; banks' and cards' externalPlatform
 * { code: "Reference Exchange", name: "REF" }; the user's 5 bonuses gone after a bank delete; a reset with a link
 * e-mail's token 422 keyed by token; the old password logging in (200) after a reset.
 */

const paramsOf = (request: { params?: unknown }) => (request.params ?? {}) as Record<string, string | undefined>;
const queryOf = (request: { query?: unknown }) => (request.query ?? {}) as Record<string, unknown>;

/** Keeps the reference's context of every request of `routes`, for a wire rewrite that reads the store. */
function withCtx(routes: readonly string[], wire: (answer: WireAnswer, request: FastifyRequest, ctx: ReferenceContext) => string | undefined): Mutation {
  const seen = new WeakMap<object, ReferenceContext>();
  return {
    request(request, ctx) {
      if (ctx && routes.includes(routeOf(request))) seen.set(request, ctx);
    },
    wire(answer, reply) {
      const ctx = seen.get(reply.request);
      if (!ctx || !routes.includes(answer.url)) return undefined;
      return wire(answer, reply.request, ctx);
    },
  };
}

// --- balances: fiat amounts ---------------------------------------------------------------------------

const AMOUNT_FIELDS = ['available', 'vesting', 'staking', 'pending', 'payment', 'reserve'] as const;

/** Every fiat field whose crypto amount is 0 answers the fiat value of `available` (one price call reused for the six). */
const fiatPricedFromAvailable = (record: any): boolean => {
  const crypto = record?.amounts?.crypto;
  const fiat = record?.amounts?.fiat;
  if (!crypto || !fiat || typeof fiat.available !== 'string' || fiat.available === '0' || Number(fiat.available) === 0) return false;
  let changed = false;
  for (const field of AMOUNT_FIELDS)
    if (field !== 'available' && (crypto[field] === '0' || Number(crypto[field]) === 0) && fiat[field] !== fiat.available) {
      fiat[field] = fiat.available;
      changed = true;
    }
  return changed;
};

function balanceRecords(urls: readonly string[], change: (record: any) => boolean): Mutation {
  return onAnswers(urls, (body) => {
    let changed = false;
    for (const record of recordsOf(body)) if (record && typeof record === 'object' && change(record)) changed = true;
    return changed;
  });
}

/** A holding whose crypto `available` is 0 answers fiat `available` the price of one unit (a `max(amount, 1)` in the valuation). */
function fiatOfZeroAtUnitPrice(urls: readonly string[]): Mutation {
  return withCtx(urls, (answer, _request, ctx) => {
    if (answer.status !== 200) return undefined;
    const body = parse(answer.payload);
    let changed = false;
    for (const record of recordsOf(body)) {
      const crypto = record?.amounts?.crypto;
      const fiat = record?.amounts?.fiat;
      if (!crypto || !fiat || typeof record.symbol !== 'string' || !(crypto.available === '0' || Number(crypto.available) === 0)) continue;
      const row = ctx.db.prepare('SELECT fiat_price FROM assets WHERE symbol = ?').get(record.symbol) as { fiat_price: string } | undefined;
      if (!row || Number(row.fiat_price) === 0) continue;
      fiat.available = Number(row.fiat_price).toFixed(2);
      changed = true;
    }
    return changed ? JSON.stringify(body) : undefined;
  });
}

// --- balances: fields consistent between reads, wrong in all ------------------------------------------

const swapChain = (record: any): boolean => {
  const chain = record?.chain;
  if (!chain || typeof chain.name !== 'string' || typeof chain.symbol !== 'string' || chain.name === chain.symbol) return false;
  [chain.name, chain.symbol] = [chain.symbol, chain.name];
  return true;
};

/** Each coin answers the description of the coin after it in symbol order (a translations join off by one), list and show alike. */
function descriptionOfNextCoin(): Mutation {
  return withCtx([URL.coinList, URL.coinOne], (answer, _request, ctx) => {
    if (answer.status !== 200) return undefined;
    const body = parse(answer.payload);
    let changed = false;
    for (const record of recordsOf(body)) {
      if (typeof record?.symbol !== 'string' || record.type !== 'coin') continue;
      const next = (ctx.db.prepare("SELECT description_json FROM assets WHERE type = 'coin' AND symbol > ? ORDER BY symbol LIMIT 1").get(record.symbol) ??
        ctx.db.prepare("SELECT description_json FROM assets WHERE type = 'coin' ORDER BY symbol LIMIT 1").get()) as { description_json: string } | undefined;
      if (!next || next.description_json === JSON.stringify(record.description)) continue;
      record.description = JSON.parse(next.description_json);
      changed = true;
    }
    return changed ? JSON.stringify(body) : undefined;
  });
}

/** An NFT list asked with two or more different symbols answers as if only the last were named (a query read as a scalar). */
function nftFilterLastSymbolOnly(): Mutation {
  return {
    request(request) {
      if (request.method !== 'GET' || routeOf(request) !== URL.nftList) return;
      const query = queryOf(request);
      const key = query['assets[]'] !== undefined ? 'assets[]' : 'assets';
      const raw = query[key];
      if (!Array.isArray(raw) || new Set(raw).size < 2) return;
      query[key] = raw[raw.length - 1];
    },
  };
}

// --- filters whose value resolves and matches none of the user's records -------------------------------

/** Platform ids a filter value names (code or name in any case, or id), as the reference's platforms hold them. */
const platformsNamed = (ctx: ReferenceContext, value: string): string[] =>
  (ctx.db.prepare('SELECT id FROM platforms WHERE lower(code) = lower(?) OR lower(name) = lower(?) OR lower(id) = lower(?)').all(value, value, value) as { id: string }[]).map((row) => row.id);

/**
 * A list asked with `filter` whose value resolves (`resolves`) and matches none of the user's records (`count` is 0)
 * while the user has records (`all` > 0): the filter is dropped, every record listed (a "never answer an empty list" fallback).
 */
function emptyFilterFallsBack(route: string, filter: string, count: (ctx: ReferenceContext, user: string, value: string, query: Record<string, unknown>) => number | undefined, all: (ctx: ReferenceContext, user: string) => number): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'GET' || routeOf(request) !== route) return;
      const query = queryOf(request);
      const value = query[filter];
      if (typeof value !== 'string' || value.trim() === '') return;
      const user = paramsOf(request).user ?? '';
      const matched = count(ctx, user, value.trim(), query);
      if (matched === 0 && all(ctx, user) > 0) delete query[filter];
    },
  };
}

const STATUSES = ['distributed', 'pending', 'canceled'];
const bonusesOf = (ctx: ReferenceContext, user: string) => (ctx.db.prepare('SELECT count(*) AS n FROM bonuses WHERE user_id = ? COLLATE NOCASE').get(user) as { n: number }).n;
const banksOf = (ctx: ReferenceContext, user: string) => (ctx.db.prepare('SELECT count(*) AS n FROM banks WHERE user_id = ? COLLATE NOCASE AND deleted_at IS NULL').get(user) as { n: number }).n;
const cardsOf = (ctx: ReferenceContext, user: string) => (ctx.db.prepare('SELECT count(*) AS n FROM cards WHERE user_id = ? COLLATE NOCASE').get(user) as { n: number }).n;
const inList = (ids: string[]) => ids.map(() => '?').join(', ');

// (A status filter falling back when the user has none of that status was written and dropped: no state of the suite's
// world makes a user without one of the three statuses, so it never bit.)
const bonusPlatformCount = (ctx: ReferenceContext, user: string, value: string, query: Record<string, unknown>) => {
  const ids = platformsNamed(ctx, value);
  if (ids.length === 0 || query.status !== undefined) return undefined;
  return (ctx.db.prepare(`SELECT count(*) AS n FROM bonuses b JOIN bonus_orders o ON o.id = b.order_id WHERE b.user_id = ? COLLATE NOCASE AND o.platform_id IN (${inList(ids)})`).get(user, ...ids) as { n: number }).n;
};
/** status and platform both given, both resolving, together matching none: the platform is dropped (the status alone applied). */
const bonusTwoFiltersCount = (ctx: ReferenceContext, user: string, value: string, query: Record<string, unknown>) => {
  const status = typeof query.status === 'string' ? query.status.trim().toLowerCase() : '';
  const ids = platformsNamed(ctx, value);
  if (!STATUSES.includes(status) || ids.length === 0) return undefined;
  return (ctx.db.prepare(`SELECT count(*) AS n FROM bonuses b JOIN bonus_orders o ON o.id = b.order_id WHERE b.user_id = ? COLLATE NOCASE AND b.status = ? AND o.platform_id IN (${inList(ids)})`).get(user, status, ...ids) as { n: number }).n;
};
const recordPlatformCount = (table: 'banks' | 'cards') => (ctx: ReferenceContext, user: string, value: string, query: Record<string, unknown>) => {
  const ids = platformsNamed(ctx, value);
  if (ids.length === 0 || Object.keys(query).filter((key) => query[key] !== undefined).length !== 1) return undefined;
  return (ctx.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ? COLLATE NOCASE ${table === 'banks' ? 'AND deleted_at IS NULL' : ''} AND platform_id IN (${inList(ids)})`).get(user, ...ids) as { n: number }).n;
};
const bankCurrencyCount = (ctx: ReferenceContext, user: string, value: string, query: Record<string, unknown>) => {
  if (!/^[A-Za-z]{3}$/.test(value) || Object.keys(query).filter((key) => query[key] !== undefined).length !== 1) return undefined;
  return (ctx.db.prepare('SELECT count(*) AS n FROM banks WHERE user_id = ? COLLATE NOCASE AND deleted_at IS NULL AND upper(currency) = upper(?)').get(user, value) as { n: number }).n;
};

// --- bonus summary ------------------------------------------------------------------------------------

/** The summary (`withAsset`: only with the {asset} segment; else only without it) counted over every user's bonuses of the asset. */
function summaryOfEveryUser(withAsset: boolean): Mutation {
  return withCtx([URL.summary], (answer, request, ctx) => {
    if (answer.status !== 200 || Boolean(paramsOf(request).asset) !== withAsset) return undefined;
    const body = parse(answer.payload);
    let changed = false;
    for (const entry of Array.isArray(body?.data) ? body.data : []) {
      const symbol = entry?.asset?.symbol;
      if (typeof symbol !== 'string') continue;
      for (const status of STATUSES) {
        const rows = ctx.db.prepare('SELECT amount FROM bonuses WHERE asset_symbol = ? AND status = ?').all(symbol, status) as { amount: string }[];
        const figure = { bonuses: rows.length, amount: rows.reduce((sum, row) => sum + Number(row.amount), 0) };
        if (entry[status] && entry[status].bonuses !== figure.bonuses) {
          entry[status] = figure;
          changed = true;
        }
      }
    }
    return changed ? JSON.stringify(body) : undefined;
  });
}

const summaryEntries = (change: (entry: any) => boolean): Mutation =>
  onAnswers([URL.summary], (body) => {
    let changed = false;
    for (const entry of Array.isArray(body?.data) ? body.data : []) if (entry && typeof entry === 'object' && change(entry)) changed = true;
    return changed;
  });

// --- records as platforms show them; what a delete leaves -----------------------------------------------

const swapPlatform = (record: any): boolean => {
  const platform = record?.externalPlatform;
  if (!platform || typeof platform.code !== 'string' || typeof platform.name !== 'string' || platform.code === platform.name) return false;
  [platform.code, platform.name] = [platform.name, platform.code];
  return true;
};


// --- password -----------------------------------------------------------------------------------------

/** A reset whose address's latest forgot-password asked `type: link` is answered as an invalid token (the link's token read URL-encoded twice). */
function resetLinkTokenRefused(): Mutation {
  const linked = new Set<string>();
  return {
    request(request) {
      if (request.method !== 'POST') return;
      const route = routeOf(request);
      if (route === URL.forgot)
        onParsedBody(request, (body) => {
          if (typeof body.email !== 'string') return;
          if (body.type === 'link') linked.add(body.email.toLowerCase());
          else linked.delete(body.email.toLowerCase());
        });
      if (route === URL.reset)
        onParsedBody(request, (body) => {
          if (typeof body.email === 'string' && typeof body.token === 'string' && linked.has(body.email.toLowerCase())) body.token = `${body.token}%`;
        });
    },
  };
}

/** After a reset, the password before it still logs in (the reset adds a credential and keeps the old one). */
function oldPasswordKept(): Mutation {
  const current = new Map<string, string>();
  const former = new Map<string, string>();
  const resets = new WeakMap<object, { email: string; password: string }>();
  return {
    state(_name, data) {
      const d = data as any;
      if (d && typeof d.email === 'string' && typeof d.password === 'string') current.set(d.email.toLowerCase(), d.password);
      return data;
    },
    request(request) {
      if (request.method !== 'POST') return;
      const route = routeOf(request);
      if (route === URL.reset)
        onParsedBody(request, (body) => {
          if (typeof body.email === 'string' && typeof body.password === 'string') resets.set(request, { email: body.email.toLowerCase(), password: body.password });
        });
      if (route === URL.login)
        onParsedBody(request, (body) => {
          if (typeof body.email !== 'string' || typeof body.password !== 'string') return;
          const email = body.email.toLowerCase();
          const now = current.get(email);
          if (now !== undefined && former.get(email) === body.password && body.password !== now) body.password = now;
        });
    },
    wire(answer, reply) {
      const reset = resets.get(reply.request);
      if (!reset || answer.status !== 200 || answer.url !== URL.reset) return undefined;
      const before = current.get(reset.email);
      if (before !== undefined && before !== reset.password) former.set(reset.email, before);
      current.set(reset.email, reset.password);
      return undefined;
    },
  };
}

// --- the round ----------------------------------------------------------------------------------------

const written: Mutant[] = [
  // --- balances: the fiat amount set ---
  // white-box round wb23
  { name: 'wb23-coin-fiat-of-zero-crypto-priced-from-available', clause: '2.2', group: 'balances', description: 'section 2.2 (amounts "{ crypto: <amount set>, fiat: <amount set> }", the fiat value of each crypto amount): each fiat field whose crypto amount is 0 answers the fiat value of available (one price call reused for the six), coin list and show', mutation: balanceRecords([URL.coinList, URL.coinOne], fiatPricedFromAvailable) },
  // white-box round wb23
  { name: 'wb23-nft-fiat-of-zero-crypto-priced-from-available', clause: '2.2', group: 'balances', description: 'section 2.2 (amounts "{ crypto: <amount set>, fiat: <amount set> }"): each NFT fiat field whose crypto amount is 0 answers the fiat value of available, NFT list and show', mutation: balanceRecords([URL.nftList, URL.nftOne], fiatPricedFromAvailable) },
  // white-box round wb23
  { name: 'wb23-coin-fiat-of-zero-available-at-unit-price', clause: '2.2', group: 'balances', description: 'section 2.2 (amounts: the fiat amount set of the crypto amounts): a coin whose crypto available is 0 answers fiat available the price of one unit (a max(amount, 1) in the valuation), list and show', mutation: fiatOfZeroAtUnitPrice([URL.coinList, URL.coinOne]) },
  // white-box round wb23
  { name: 'wb23-nft-fiat-of-zero-available-at-unit-price', clause: '2.2', group: 'balances', description: 'section 2.2 (amounts: the fiat amount set of the crypto amounts): an NFT whose crypto available is 0 answers fiat available the price of one unit, list and show', mutation: fiatOfZeroAtUnitPrice([URL.nftList, URL.nftOne]) },

  // --- balances: fields consistent between reads, wrong in all ---
  // white-box round wb23
  { name: 'wb23-coin-links-facebook-twitter-swapped', clause: '2.2', group: 'balances', description: 'section 2.2 (meta links "object with website, github, facebook, twitter"): every coin answers its twitter link as facebook and its facebook link as twitter, list and show alike', mutation: balanceRecords([URL.coinList, URL.coinOne], (record) => { const links = record?.meta?.links; if (!links || typeof links.facebook !== 'string' || typeof links.twitter !== 'string' || links.facebook === links.twitter) return false; [links.facebook, links.twitter] = [links.twitter, links.facebook]; return true; }) },
  // white-box round wb23
  { name: 'wb23-coin-chain-name-and-symbol-swapped', clause: '2.2', group: 'balances', description: 'section 2.2 (chain "{ name: string or null, symbol: string or null }"): a token coin answers its chain\u2019s symbol as name and its name as symbol (USDT on { name: ETH, symbol: Ethereum }), list and show alike', mutation: balanceRecords([URL.coinList, URL.coinOne], swapChain) },
  // white-box round wb23
  { name: 'wb23-nft-chain-name-and-symbol-swapped', clause: '2.2', group: 'balances', description: 'section 2.2 (chain "{ name, symbol }"): an NFT answers its chain\u2019s symbol as name and its name as symbol, list and show alike', mutation: balanceRecords([URL.nftList, URL.nftOne], swapChain) },
  // white-box round wb23
  { name: 'wb23-nft-quantity-one-everywhere', clause: '2.2', group: 'balances', description: 'section 2.2 (quantity: "NFT records carry a positive count"): every NFT answers quantity 1 whatever the user holds (a count read as a flag), list, filtered list and show alike', mutation: balanceRecords([URL.nftList, URL.nftOne], (record) => { if (typeof record.quantity !== 'number' || record.quantity <= 1) return false; record.quantity = 1; return true; }) },
  // white-box round wb23
  { name: 'wb23-coin-token-precision-of-chain-everywhere', clause: '2.2', group: 'balances', description: 'section 2.2 (precision "Decimal places" of the asset): a token coin (a chain symbol) answers its chain\u2019s precision 18 (USDT 6 as 18), list and show alike', mutation: balanceRecords([URL.coinList, URL.coinOne], (record) => { if (typeof record?.chain?.symbol !== 'string' || String(record.precision) === '18') return false; record.precision = typeof record.precision === 'string' ? '18' : 18; return true; }) },
  // white-box round wb23
  { name: 'wb23-coin-description-of-next-coin', clause: '2.2', group: 'balances', description: 'section 2.2 (description "Map from language code to text" of the asset): every coin answers the description of the coin after it in symbol order (a translations join off by one), list and show alike', mutation: descriptionOfNextCoin() },
  // white-box round wb23
  { name: 'wb23-coin-show-pending-and-payment-swapped', clause: '4.9', group: 'balances', description: 'sections 4.9/2.2 (amount set "available, vesting, staking, pending, payment, reserve"): the coin show answers crypto pending as payment and payment as pending (the list has them right)', mutation: balanceRecords([URL.coinOne], (record) => { const c = record?.amounts?.crypto; if (!c || c.pending === c.payment) return false; [c.pending, c.payment] = [c.payment, c.pending]; return true; }) },
  // white-box round wb23
  { name: 'wb23-nft-filter-two-symbols-last-only', clause: '4.6', group: 'balances', description: 'section 4.6 (assets[] "optional, repeatable; asset symbols to return"): an NFT list asked with two different symbols answers the last one only (the repeated parameter read as a scalar)', mutation: nftFilterLastSymbolOnly() },

  // --- filters whose value resolves and matches none: every record listed ---
  // white-box round wb23
  { name: 'wb23-bonuses-platform-filter-none-lists-all', clause: '4.11', group: 'bonuses', description: 'section 4.11 (query platform; a platform that resolves and holds none of the user\u2019s bonuses lists none): platform=<a known platform without the user\u2019s bonuses> lists every bonus', mutation: emptyFilterFallsBack(URL.bonusList, 'platform', bonusPlatformCount, bonusesOf) },
  // white-box round wb23
  { name: 'wb23-bonuses-two-filters-none-drops-platform', clause: '4.11', group: 'bonuses', description: 'section 4.11 (status and platform filters; two filters together never list what either alone excludes): status and platform that together match none of the user\u2019s bonuses answer the status alone (bonuses of another platform)', mutation: emptyFilterFallsBack(URL.bonusList, 'platform', bonusTwoFiltersCount, bonusesOf) },
  // white-box round wb23
  { name: 'wb23-banks-platform-filter-none-lists-all', clause: '4.10', group: 'banks', description: 'section 4.10 (query platform: a filter; a platform that resolves and holds none of the user\u2019s banks lists none): platform=<a known platform without the user\u2019s banks> lists every bank', mutation: emptyFilterFallsBack(URL.bankList, 'platform', recordPlatformCount('banks'), banksOf) },
  // white-box round wb23
  { name: 'wb23-banks-currency-filter-none-lists-all', clause: '4.10', group: 'banks', description: 'section 4.10 (query currency: a filter; a real currency code none of the user\u2019s banks shows lists none): currency=<a code none of the user\u2019s banks has> lists every bank', mutation: emptyFilterFallsBack(URL.bankList, 'currency', bankCurrencyCount, banksOf) },
  // white-box round wb23
  { name: 'wb23-banks-company-filter-none-lists-all', clause: '4.10', group: 'banks', description: 'section 4.10 (query company: a filter, compared with the platform the reference\u2019s banks show): company=<a known platform without the user\u2019s banks> lists every bank', mutation: emptyFilterFallsBack(URL.bankList, 'company', recordPlatformCount('banks'), banksOf) },
  // white-box round wb23
  { name: 'wb23-cards-platform-filter-none-lists-all', clause: '4.6a', group: 'cards', description: 'section 4.6a (query platform: a filter; a platform that resolves and holds none of the user\u2019s cards lists none): platform=<a known platform without the user\u2019s cards> lists every card', mutation: emptyFilterFallsBack(URL.cardList, 'platform', recordPlatformCount('cards'), cardsOf) },
  // white-box round wb23
  { name: 'wb23-cards-company-filter-none-lists-all', clause: '4.6a', group: 'cards', description: 'section 4.6a (query company: a filter): company=<a known platform without the user\u2019s cards> lists every card', mutation: emptyFilterFallsBack(URL.cardList, 'company', recordPlatformCount('cards'), cardsOf) },

  // --- bonus summary and show ---
  // white-box round wb23
  { name: 'wb23-bonuses-summary-counts-every-users-bonuses', clause: '2.5b', group: 'bonuses', description: 'sections 2.5b/4.11 (S = { bonuses, amount } of the user\u2019s bonuses of the asset in that status): the summary of all assets counts and sums the bonuses of every user in the asset (an aggregate without the user\u2019s where)', mutation: summaryOfEveryUser(false) },
  // white-box round wb23
  { name: 'wb23-bonuses-summary-asset-counts-every-users-bonuses', clause: '2.5b', group: 'bonuses', description: 'sections 2.5b/4.11 (S of the user\u2019s bonuses): the summary of one asset ({asset} given) counts and sums the bonuses of every user in the asset', mutation: summaryOfEveryUser(true) },
  // white-box round wb23
  { name: 'wb23-bonuses-summary-distributed-counts-pending', clause: '2.5b', group: 'bonuses', description: 'section 2.5b (distributed: S of the distributed bonuses): every summary entry counts and sums its pending bonuses into distributed too (status IN (distributed, pending))', mutation: summaryEntries((entry) => { if (!entry.distributed || !entry.pending || !entry.pending.bonuses) return false; entry.distributed = { bonuses: entry.distributed.bonuses + entry.pending.bonuses, amount: entry.distributed.amount + entry.pending.amount }; return true; }) },
  // white-box round wb23
  { name: 'wb23-bonuses-summary-pending-amount-adds-canceled', clause: '2.5b', group: 'bonuses', description: 'section 2.5b (pending: { bonuses, amount } of the pending bonuses): every summary entry answers pending.amount with the canceled bonuses\u2019 amount added (its count right)', mutation: summaryEntries((entry) => { if (!entry.pending || !entry.canceled || typeof entry.canceled.amount !== 'number' || entry.canceled.amount === 0) return false; entry.pending.amount += entry.canceled.amount; return true; }) },
  // white-box round wb23
  { name: 'wb23-bonuses-show-bonused-at-of-created-at', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5a (show { data: <Bonus> }; bonusedAt and createdAt its own): the bonus show answers bonusedAt equal to createdAt (the list has them right)', mutation: onAnswers([URL.bonusOne], (body) => { const b = body?.data; if (!b || typeof b.createdAt !== 'number' || b.bonusedAt === b.createdAt) return false; b.bonusedAt = b.createdAt; return true; }) },

  // white-box round wb23
  { name: 'wb23-bonuses-summary-canceled-amount-of-distributed', clause: '2.5b', group: 'bonuses', description: 'section 2.5b (canceled: { bonuses, amount } of the canceled bonuses): every summary entry answers canceled.amount the distributed amount (a copied aggregate; its count right)', mutation: summaryEntries((entry) => { if (!entry.canceled || !entry.distributed || entry.canceled.amount === entry.distributed.amount) return false; entry.canceled.amount = entry.distributed.amount; return true; }) },
  // white-box round wb23
  { name: 'wb23-bonuses-user-id-of-order', clause: '2.6', group: 'bonuses', description: 'sections 2.6/2.5a (user: "User object (2.6)", id "string (UUID)" of the bonus\u2019s user): every bonus answers user.id the id of its order (a join whose two id columns collide), list and show alike', mutation: onAnswers([URL.bonusList, URL.bonusOne], (body) => { let changed = false; for (const b of recordsOf(body)) if (b?.user && typeof b?.order?.id === 'string' && b.user.id !== b.order.id) { b.user.id = b.order.id; changed = true; } return changed; }) },

  // --- records as platforms show them; what a delete leaves ---
  // white-box round wb23
  { name: 'wb23-banks-platform-code-and-name-swapped', clause: '4.10', group: 'banks', description: 'sections 2.4/4.10 (externalPlatform "{ code: string, name: string, url: string }"): every bank answers its platform\u2019s name as code and its code as name (create, list, show)', mutation: balanceRecords([URL.bankList, URL.bankOne], swapPlatform) },
  // white-box round wb23
  { name: 'wb23-cards-platform-code-and-name-swapped', clause: '4.6a', group: 'cards', description: 'sections 2.5/4.6a (externalPlatform "{ code, name, url } as in the bank record"): every card answers its platform\u2019s name as code and its code as name (create, list, show)', mutation: balanceRecords([URL.cardList, URL.cardOne], swapPlatform) },
  // white-box round wb23
  { name: 'wb23-bank-delete-removes-user-bonuses', clause: '4.10', group: 'banks', description: 'section 4.10 (delete a user\u2019s bank: 200 { message }; bonuses are records of their own, 4.11, with no delete): a bank delete answered 200 also removes every bonus of the user (a cascade over the user\u2019s payment history)', mutation: bankDeleteAlsoDeletes('bonuses') },

  // --- password ---
  // white-box round wb23
  { name: 'wb23-reset-link-type-token-refused', clause: '4.4', group: 'password', description: 'sections 4.3/4.4 (type "one of text, link (how the token is shown in the e-mail)"; token "the token received by e-mail"): a reset with the token of a link e-mail answers 422 keyed by token (the link\u2019s token decoded twice)', mutation: resetLinkTokenRefused() },
  // white-box round wb23
  { name: 'wb23-reset-old-password-still-logs-in', clause: '4.4', group: 'password', description: 'sections 4.4/5.5 (reset-password "Finishes a password reset"; a wrong password is refused 403): after a reset to a new password, the password before it still logs in (the reset adds a credential and keeps the old one)', mutation: oldPasswordKept() },
];

/*
 * Caught (16): wb23-banks-platform-code-and-name-swapped, wb23-cards-platform-code-and-name-swapped (re-cited, above: the
 * two-platform tests hold the records' externalPlatform.code to the state's code); wb23-coin-token-precision-of-chain-everywhere (the state's amounts give each coin's precision);
 * wb23-coin-show-pending-and-payment-swapped (the coin show compared with the list); wb23-nft-filter-two-symbols-last-only
 * ("returns exactly the NFTs named by several assets[] symbols"); wb23-banks-currency-filter-none-lists-all ("answers an
 * empty list for a currency no bank has"); wb23-bonuses-two-filters-none-drops-platform (two filters together);
 * wb23-bonuses-summary-counts-every-users-bonuses, wb23-bonuses-summary-asset-counts-every-users-bonuses,
 * wb23-bonuses-summary-distributed-counts-pending, wb23-bonuses-summary-pending-amount-adds-canceled,
 * wb23-bonuses-summary-canceled-amount-of-distributed (summaryEntryProblems: the summary against the bonus list);
 * wb23-bonuses-show-bonused-at-of-created-at (every listed bonus shown with the list's fields);
 * wb23-bank-delete-removes-user-bonuses (the delete test reads the user's other records after it);
 * wb23-reset-link-type-token-refused (a reset with the token of each type); wb23-reset-old-password-still-logs-in (the
 * old password answers 403 after the reset).
 *
 * Survivors (14 deviations; each again with --no-hints: none caught; the whole suite against each: conformant, 673
 * passed, 0 failed), with the shallow check and the check that would catch it:
 * - wb23-coin-fiat-of-zero-crypto-priced-from-available, wb23-nft-fiat-of-zero-crypto-priced-from-available,
 *   wb23-coin-fiat-of-zero-available-at-unit-price, wb23-nft-fiat-of-zero-available-at-unit-price: the fiat amount set
 *   is judged by its form only (schemas: decimal strings); LISTS `stable` leaves it out (a price moves between reads) and
 *   nothing else reads it. Would catch: for each balance record (coin and NFT, list, filtered list and show), a fiat field
 *   whose crypto amount is 0 (as a number) must be 0 too, under any price: the value of nothing is nothing (and,
 *   advised only, a fiat amount of a positive crypto amount that is 0 while the asset's other fiat fields show a price).
 *   (Ruled after the round: not deviations under every reading, NOT_DEVIATIONS below.)
 * - wb23-coin-links-facebook-twitter-swapped, wb23-coin-chain-name-and-symbol-swapped,
 *   wb23-nft-chain-name-and-symbol-swapped, wb23-coin-description-of-next-coin: the same wrong value in list and show
 *   passes every comparison between reads (ASSET_STABLE, metaMembersOf), and no state gives the values. Would catch: an
 *   optional, additive oracle in state `balances` (as genesisDates closed wb22-coin-genesis-date-a-day-early): the held
 *   token coins' chain { name, symbol } and a coin's links; for the chain, already without a state: a token coin's
 *   chain.symbol that names a coin the platform lists (the state's `native` coins) while chain.name does not; for the
 *   description, advised only (a description naming another held asset's name and not its own).
 * - wb23-nft-quantity-one-everywhere: quantity is judged by form ("NFT records carry a positive count") and compared
 *   between reads; no state gives an NFT's count. Would catch: an optional `quantities: [{ symbol, quantity }]` in state
 *   `balances` (additive). (Doubt: see DOUBTS.)
 *   (Ruled after the round: not a deviation under every reading, NOT_DEVIATIONS below.)
 *   (The five filter fallbacks were survivors too: closed after the round, below.)
 *
 * Closed after the round (fix-wb23x, registered; none depends on a draw: the platforms and records are arranged by the
 * states, each killed by `nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME` on three runs, and with --no-hints):
 * - wb23-banks-platform-filter-none-lists-all, wb23-cards-platform-filter-none-lists-all,
 *   wb23-bonuses-platform-filter-none-lists-all (survivors: the unheld-platform check of the 2FA and JWT session rows,
 *   helpers/arrange/invariants.ts expectUnheldPlatform, passes as soon as ONE of the four identifiers lists none, so a
 *   target that resolves three and falls back to the unfiltered list when the filtered one is empty passed on the url
 *   host it cannot resolve; the two-platform tests never asked a platform holding none of the user's records). Now the
 *   two-platform tests hold the identifier form the target showed it reads (the form that listed exactly one platform's
 *   records and none of the other's) on a platform it trusts that holds none of the user's records (the hook's
 *   `platform` state, platformWithoutRecords): that same form must list none of them (or 422 keyed by the filter,
 *   advised on): helpers/check/filters.ts expectUnheldForm, called by expectPlatformFilter. Caught by: "GET
 *   /api/v1/user/{user}/bank (card, bonus) lists every bank (card, bonus) of one platform and none of another under the
 *   platform filter (the platform's code, ID or name)" (suites/banks.test.ts, suites/cards.test.ts, suites/bonuses.test.ts).
 * - (reopened after review-am F1, closed again by fix-wb23open: below) wb23-banks-company-filter-none-lists-all, wb23-cards-company-filter-none-lists-all: the same, for `company` only
 *   where BOTH platforms listed exactly their records under one identifier form (the target compares company with that
 *   identifier of a platform: docs/judging.md, "Meaning of a filter the spec only names", round wb23); a value of that
 *   form the user's platforms show, or one inside their identifiers (a search term: allowed-r6-company-filter-search), is
 *   not sent. Caught by: "GET /api/v1/user/{user}/bank (card) lists only the user's banks (cards), each once, under the
 *   company filter, and advises on whether it names a platform (its code, ID or name)".
 *   One request more in each of the five tests (the platform's registration is the one the session rows already make).
 * Closed by fix-wb23open (the lead's ruling on the six left open; registered; none depends on a draw: the reference's
 * states give the values for every held asset and every two-platform user; each killed by `nice -n 19 node
 * bin/mutants.mjs --shards 1 --mutant NAME` on two runs and once with --no-hints):
 * - wb23-coin-links-facebook-twitter-swapped, wb23-coin-chain-name-and-symbol-swapped, wb23-coin-description-of-next-coin:
 *   provider state balances' optional `assets` (ADDITIVE, docs/provider-states.md; the reference gives every held coin
 *   and NFT its chain, meta.links and description as its records show them) is what the target's records hold; each
 *   held coin it names is compared in the list, the list filtered by assets[] naming it and the show (a member answered
 *   otherwise fails, equal once normalised is advised on, one a record leaves out is not judged). Caught by: "GET
 *   /api/v1/user/{user}/balances/{asset} answers each held coin's chain, meta.links and description as provider state
 *   balances gives them (its assets), listed, filtered by assets[] and shown" (suites/balances.test.ts expectStatedAssets).
 * - wb23-nft-chain-name-and-symbol-swapped: the same for NFTs. Caught by: "GET /api/v1/user/{user}/balances/nft/{asset}
 *   answers each held NFT's chain and description as provider state balances gives them (its assets), listed, filtered
 *   by assets[] and shown".
 *   The allowed readings that write these members their own way (allowed-r9-description-html,
 *   allowed-r12-nft-chain-null, allowed-r14-links-social-handles, allowed-r20-coin-links-website-without-scheme,
 *   allowed-r22-coin-twitter-links-on-x-com, allowed-r24-chain-name-chainlist, allowed-r26-description-markdown,
 *   allowed-r26-chain-name-with-token-standard, allowed-r27-descriptions-typographic-characters) answer their hook's
 *   assets as their records write them (reading.ts
 *   onBalanceAnswers), as such a target does; allowed-r25-nft-symbols-with-hash names the assets' NFTs by its symbols.
 * - wb23-banks-company-filter-none-lists-all, wb23-cards-company-filter-none-lists-all: the optional `company.none` of
 *   states bank.two-platforms and card.two-platforms (ADDITIVE), a value in the target's own meaning that selects none
 *   of the user's records (the reference: a new platform's code, on which no record is made), must list none of them
 *   (helpers/check/filters.ts expectArrangedCompany). Caught by: "GET /api/v1/user/{user}/bank (card) lists only the
 *   user's banks (cards), each once, under the company filter, and advises on whether it names a platform (its code, ID,
 *   name or url host)". allowed-bank-list-filter-value-none-has-422, which refuses every value selecting none, gives no
 *   company.none (reading.ts companyWithoutNone): that check is then noted not verified.
 *
 * Not a deviation under every reading (the reviewer's own finding after scoring; NOT_DEVIATIONS, not registered):
 * wb23-bonuses-user-id-of-order (every bonus's user.id its order's id). The whole suite answered it conformant with an
 * advisory per bonus, "bonus ... carries user ..., not the path's user (section 2.5a does not say whose user object it
 * is)" (suites/bonuses.test.ts adviseUserOwner): the suite holds that 2.5a's "User object (2.6)" is never said to be the
 * owner's, so a bonus embedding another user (a referral's) is a reading, and a black box cannot tell an order's UUID
 * from an unknown user's id. Written as a deviation first, before that stance was found; left open here.
 */
/*
 * Open after the round (the lead's ruling, fix-wb23x), closed by fix-wb23open (above, "Closed after the round"):
 * wb23-coin-links-facebook-twitter-swapped, wb23-coin-chain-name-and-symbol-swapped, wb23-nft-chain-name-and-symbol-
 * swapped, wb23-coin-description-of-next-coin (the state balances' optional assets), and, reopened after review-am F1,
 * wb23-banks-company-filter-none-lists-all, wb23-cards-company-filter-none-lists-all (the two-platforms states' optional
 * company.none). None is open.
 */
const OPEN = new Set<string>();

/*
 * DOUBTS (kept deviations, said here for the lead):
 * - wb23-nft-quantity-one-everywhere: 2.2 says "NFT records carry a positive count" and not what is counted; 1 is
 *   positive. Read as the user's count of that NFT (the reference's reading) a holder of several answered 1 deviates;
 *   read as something else (an edition's size) no client can say so. The weakest of the round.
 * - the fiat four: 2.2 gives "fiat: <amount set>" without defining it; the fiat value of each crypto amount is the
 *   natural reading and a fiat field of 0 for a crypto amount of 0 holds under any price, but a reading of the fiat set
 *   as something other than the value of the crypto set (a fiat balance of its own) is conceivable.
 * - the company two: company is the most open filter of the interface (a SWIFT institution code, a holder's name, a
 *   bank's name are allowed readings, each dropping a platform code). The mutants apply company as the platform code
 *   (the two-platform tests see A's code list A's records only) and drop that same kind of value when it lists nothing:
 *   no one reading answers both ways, which is why they are written as deviations.
 * - the links, chain and description four: deviations of fact that no client can tell from the right values without an
 *   oracle, like wb22-coin-genesis-date-a-day-early.
 */


/*
 * Not deviations under every reading (the lead's ruling after the round, fix-wb23x; not registered, no failing check):
 * - wb23-coin-fiat-of-zero-crypto-priced-from-available, wb23-nft-fiat-of-zero-crypto-priced-from-available,
 *   wb23-coin-fiat-of-zero-available-at-unit-price, wb23-nft-fiat-of-zero-available-at-unit-price: 2.2 gives `amounts`
 *   as `{ crypto: <amount set>, fiat: <amount set> }` and never says the fiat set is the valuation of the crypto set: a
 *   fiat payment pending for a purchase of the asset, with no crypto yet, is another reading, so a fiat field that is not
 *   0 beside a crypto field of 0 fails under no reading. Advised on (never failed): suites/balances.test.ts
 *   adviseFiatOfNothing, in "answers 200 with { data: [records] } holding every NFT the user holds" and "... holding
 *   every coin the user holds" (each of the four shows that advisory on the embedded reference, no failure).
 * - wb23-nft-quantity-one-everywhere: 2.2 says only "NFT records carry a positive count", and a reading already
 *   registered (allowed-r25-nft-quantity-held-total) takes another count: what is counted is open, so 1 is a count.
 */
const NOT_DEVIATIONS = new Set<string>([
  'wb23-bonuses-user-id-of-order',
  'wb23-coin-fiat-of-zero-crypto-priced-from-available',
  'wb23-nft-fiat-of-zero-crypto-priced-from-available',
  'wb23-coin-fiat-of-zero-available-at-unit-price',
  'wb23-nft-fiat-of-zero-available-at-unit-price',
  'wb23-nft-quantity-one-everywhere',
]);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb23Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name) && !NOT_DEVIATIONS.has(mutant.name));

/** The mutants of the round judged no deviation under every reading (not registered). */
export const roundWb23NotDeviations: Mutant[] = written.filter((mutant) => NOT_DEVIATIONS.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb23OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));

/** Every mutant the round wrote. */
export const roundWb23Written: readonly Mutant[] = written;
