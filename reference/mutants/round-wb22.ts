import type { FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { ReferenceContext, UserRow } from '../context.js';
import { answerWith, cardFormOf, claimsOf, onAnswers, onParsedBody, parse, perServerMutation, recordCardForm, recordsOf, routeOf } from './reading.js';
import type { Mutant } from './types.js';
import { ROUTE as URL } from './routes.js';

/**
 * White-box round wb22 (issue 27, "a rule is verified only where it was checked everywhere it applies"): deviations a
 * real backend could ship, written by a twenty-second reviewer who read the specification, docs/judging.md, suites/ and
 * helpers/ (helpers/spec/instances.ts LISTS and CREATES: which fields each list, filter and show is compared on; the
 * short-session watches of suites/authentication.test.ts; the bonus user checks of suites/bonuses.test.ts) and aimed at
 * what rounds wb1 to wb21 left alone:
 * - fields compared in one read and not its siblings: an asset's `meta` is compared between a filtered and an unfiltered
 *   list only, never between a show and the list (another coin's or NFT's meta on the show, its links swapped, its
 *   total_supply rounded, an NFT's owner answered as its creator); card images are no stable field anywhere (swapped on
 *   the show, the create answer and the filtered list, the newest card's images on every listed card); a bonus's status
 *   is not compared between a filtered and an unfiltered list;
 * - values of meta judged by form only: a genesis date a day early (a UTC date read in a zone west of UTC);
 * - combinations: two filters where the second is ignored once the first is given (status with currency or platform),
 *   on banks, cards and bonuses;
 * - the bonus user object's guard members (`options.guard.actions.login`), and `deletedAt` of a live account;
 * - sessions by kind: a 2FA login's token past its until (the short-session watches cover password and JWT logins only),
 *   a 2FA login's and a JWT-by-email login's times an hour ahead of the clock (a second session builder with its zone);
 * - a 2FA account's forgot-password answered as an unknown e-mail; a card's month/year pair stored year first;
 * - what a delete leaves: a bank delete that takes the user's cards, a deleted bank listed under status=DELETED; a
 *   pending bonus of the state shown 404; the summary of one asset counting another asset's pending or canceled bonuses.
 * Each breaks a rule that holds under every reading of the specification; its description quotes the sentence it
 * breaks. All rewrite answers as sent, or a request before the reference reads it; none needs a deviation of the
 * reference's modules.
 *
 * Score before fixes: 15 caught of 33 (35 written; 2 judged no deviation under every reading, NOT_DEVIATIONS below).
 * After the lead's rulings and the reviews, 5 more are no deviation under every reading (the bonus user's guard flags
 * and deletedAt; a show's total_supply, review-ak F1; a deleted bank under status=DELETED, review-ak F3): 15 caught of
 * the 28 deviations. Every one of the 28 is caught since (fix-wb22a, fix-wb22b).
 * `nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME ...` in five batches (10, 11, 10, 4, 2); every survivor again
 * with --no-hints (two batches of 10): none caught. Two mutants first cited clause 1.4 and survived; `created` is a
 * member of 2.1 ("ISO 8601 UTC timestamp, creation"), the clause its tests cite, so they were re-cited 2.1 (the
 * mutation unchanged) and killed: wb22-2fa-session-times-an-hour-ahead, wb22-jwt-email-session-times-an-hour-ahead.
 * Every mutant was first seen to bite by a throwaway script (not kept) that started the reference with it and sent the
 * requests over HTTP, checking the effect meant in the mutated answers: a coin and an NFT show with the meta of another
 * asset than the list gives it, a coin show with website and github swapped, ETH's total_supply 120280000 (the list
 * 120280000.5), an NFT show's owner equal to its creator; genesis dates a day early in the list (2013-12-07 for DOGE);
 * filtered lists with a neighbour's meta, every listed coin with the first coin's image; status=CONFIRMED&currency=SEK
 * and the other pairs listing records (empty unmutated); a card show, a create answer and a filtered list with the
 * images swapped, a list with the newest card's images on the older card, a month/year card read back 44/11; bonus
 * users with login.2fa negated (true for a plain account, false for a 2FA one), login.password false, deletedAt set; a
 * platform-filtered list with a canceled bonus distributed; the summary of USDT with the pending and the canceled of
 * every asset; a 2FA login's created an hour ahead and its ttl halved; forgot-password for a 2FA account 422; the
 * deleted bank listed under status=DELETED; the user's two cards gone after a bank delete; a pending bonus's show 404.
 */

const paramsOf = (request: { params?: unknown }) => (request.params ?? {}) as Record<string, string | undefined>;
const userByEmail = (ctx: ReferenceContext, email: string) => ctx.db.prepare('SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined;
const queryOf = (request: { query?: unknown }) => (request.query ?? {}) as Record<string, unknown>;

// --- balances: a show's meta, a date's zone -------------------------------------------------------------

/** The show of `one` answers the meta of another asset of `list`/`one` answers seen (a mapper that keeps the last asset's meta). */
function showMetaOfAnother(list: string, one: string): Mutation {
  return perServerMutation(() => {
    const metas = new Map<string, string>();
    return {
      wire(answer: WireAnswer) {
        if (answer.status !== 200 || (answer.url !== list && answer.url !== one)) return undefined;
        const body = parse(answer.payload);
        const records = recordsOf(body);
        if (answer.url === list) {
          for (const record of records) if (typeof record?.symbol === 'string' && record.meta && typeof record.meta === 'object') metas.set(record.symbol.toUpperCase(), JSON.stringify(record.meta));
          return undefined;
        }
        const record = records[0];
        if (!record || typeof record.symbol !== 'string') return undefined;
        const own = JSON.stringify(record.meta);
        metas.set(record.symbol.toUpperCase(), own);
        const other = [...metas.entries()].find(([symbol, meta]) => symbol !== record.symbol.toUpperCase() && meta !== own && meta !== '{}');
        if (!other) return undefined;
        record.meta = JSON.parse(other[1]);
        return JSON.stringify(body);
      },
    };
  });
}

/** A balance record's answers of `urls` whose `change(record)` (true when it changed one) rewrites each record. */
function balanceRecords(urls: readonly string[], change: (record: any) => boolean): Mutation {
  return onAnswers(urls, (body) => {
    let changed = false;
    for (const record of recordsOf(body)) if (record && typeof record === 'object' && change(record)) changed = true;
    return changed;
  });
}

const dayBefore = (date: string): string | undefined => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) - 1)).toISOString().slice(0, 10);
};

/** Under a list filter naming two or more assets, each entry answers the meta of the next one (an index off by one). */
function filteredMetaOfNeighbour(list: string): Mutation {
  return onAnswers([list], (body, _answer, reply) => {
    const asked = queryOf(reply.request)['assets[]'] ?? queryOf(reply.request).assets;
    if (asked === undefined) return false;
    const records = recordsOf(body).filter((record) => record && typeof record === 'object');
    if (records.length < 2) return false;
    const metas = records.map((record) => record.meta);
    records.forEach((record, i) => {
      record.meta = metas[(i + 1) % metas.length];
    });
    return JSON.stringify(metas) !== JSON.stringify(records.map((record) => record.meta));
  });
}

// --- lists: a second filter ignored once the first is given ---------------------------------------------

/** A list asked with `first` and `second` drops `second` (`when(first)->elseWhen(second)`, a builder that applies one filter). */
function secondFilterIgnored(route: string, first: string, second: string): Mutation {
  return {
    request(request) {
      if (request.method !== 'GET' || routeOf(request) !== route) return;
      const query = queryOf(request);
      if (query[first] !== undefined && query[first] !== '' && query[second] !== undefined) delete query[second];
    },
  };
}

// --- cards: images --------------------------------------------------------------------------------------

const swapImages = (record: any): boolean => {
  if (typeof record?.cardImage1 !== 'string' || typeof record?.cardImage2 !== 'string' || record.cardImage1 === record.cardImage2) return false;
  [record.cardImage1, record.cardImage2] = [record.cardImage2, record.cardImage1];
  return true;
};

/** Every card of a list answers the images of the user's newest card (a join on the latest upload). */
const listImagesOfNewest = onAnswers([URL.cardList], (body, answer) => {
  if (answer.method !== 'GET') return false;
  const cards = recordsOf(body).filter((card) => card && typeof card.cardImage1 === 'string');
  if (cards.length < 2) return false;
  const newest = cards.reduce((a, b) => ((b.createdAt ?? 0) >= (a.createdAt ?? 0) ? b : a));
  let changed = false;
  for (const card of cards)
    if (card !== newest && (card.cardImage1 !== newest.cardImage1 || card.cardImage2 !== newest.cardImage2)) {
      card.cardImage1 = newest.cardImage1;
      card.cardImage2 = newest.cardImage2;
      changed = true;
    }
  return changed;
});

/** A card created with expirationMonth and expirationYear (no expirationDate) is read back (list, show) as y/m; its create answers m/y. */
function cardPairStoredYearFirst(): Mutation {
  const pairs = new Map<string, string>();
  return {
    request(request) {
      recordCardForm(request);
    },
    wire(answer, reply) {
      if (answer.status === 201 && answer.method === 'POST' && answer.url === URL.cardList) {
        const data = parse(answer.payload)?.data;
        const m = typeof data?.expirationDate === 'string' ? /^(\d{1,2})\/(\d{2,4})$/.exec(data.expirationDate) : null;
        const form = cardFormOf(reply.request) ?? {};
        if (form.expirationDate === undefined && form.expirationMonth !== undefined && data && typeof data.id === 'string' && m && m[1] !== m[2]) pairs.set(data.id.toLowerCase(), `${m[2]}/${m[1]}`);
        return undefined;
      }
      if (answer.status !== 200 || (answer.url !== URL.cardList && answer.url !== URL.cardOne)) return undefined;
      const body = parse(answer.payload);
      let changed = false;
      for (const card of recordsOf(body)) {
        const stored = typeof card?.id === 'string' ? pairs.get(card.id.toLowerCase()) : undefined;
        if (stored && card.expirationDate !== stored) {
          card.expirationDate = stored;
          changed = true;
        }
      }
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

// --- bonuses: the user's guard, its deletedAt, a status under a filter -----------------------------------

/** Each bonus's user object of the answers of `urls` rewritten by `change` (true when changed). */
function bonusUsers(urls: readonly string[], change: (user: any, record: any) => boolean): Mutation {
  return onAnswers(urls, (body) => {
    let changed = false;
    for (const record of recordsOf(body)) if (record?.user && typeof record.user === 'object' && change(record.user, record)) changed = true;
    return changed;
  });
}
const loginGuard = (user: any) => user?.options?.guard?.actions?.login;

/** Under a `platform` filter (no status filter), a canceled bonus is answered distributed (a status mapped from the order's payment). */
const platformFilteredCanceledDistributed = onAnswers([URL.bonusList], (body, _answer, reply) => {
  const query = queryOf(reply.request);
  if (query.platform === undefined || query.status !== undefined) return false;
  let changed = false;
  for (const bonus of recordsOf(body))
    if (bonus?.status === 'canceled') {
      bonus.status = 'distributed';
      changed = true;
    }
  return changed;
});

/** The summary of one asset (`{asset}` given) answers pending.amount summed over every asset of the user (the asset's where left off one aggregate). */
function summaryAssetPendingOfAll(): Mutation {
  return {
    wire(answer, reply) {
      if (answer.status !== 200 || answer.url !== URL.summary) return undefined;
      const asset = paramsOf(reply.request).asset;
      if (!asset) return undefined;
      const ctx = (reply.request as any).__wb22Ctx as ReferenceContext | undefined;
      if (!ctx) return undefined;
      const user = paramsOf(reply.request).user ?? '';
      const rows = ctx.db.prepare("SELECT amount FROM bonuses WHERE user_id = ? COLLATE NOCASE AND status = 'pending'").all(user) as { amount: string }[];
      const total = rows.reduce((sum, row) => sum + Number(row.amount), 0);
      const body = parse(answer.payload);
      let changed = false;
      for (const entry of Array.isArray(body?.data) ? body.data : [])
        if (entry?.pending && typeof entry.pending.amount === 'number' && Math.abs(entry.pending.amount - total) > 1e-9) {
          entry.pending.amount = total;
          changed = true;
        }
      return changed ? JSON.stringify(body) : undefined;
    },
    request(request, ctx) {
      if (ctx && routeOf(request) === URL.summary) (request as any).__wb22Ctx = ctx;
    },
  };
}


// --- banks: a deleted bank listed under a status of its own ---------------------------------------------

/** A bank list asked with status=DELETED (any case) answers the user's soft-deleted banks (a status filter that reads withTrashed()). */
export function deletedBanksUnderStatusDeleted(listedAs?: string): Mutation {
  const asked = new WeakMap<object, ReferenceContext>();
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'GET' || routeOf(request) !== URL.bankList) return;
      const status = queryOf(request).status;
      if (typeof status === 'string' && /^deleted$/i.test(status.trim())) asked.set(request, ctx);
    },
    wire(answer, reply) {
      const ctx = asked.get(reply.request);
      if (!ctx || answer.status !== 200) return undefined;
      const body = parse(answer.payload);
      if (!Array.isArray(body?.data)) return undefined;
      const rows = ctx.db.prepare('SELECT b.*, p.code, p.name, p.url FROM banks b JOIN platforms p ON p.id = b.platform_id WHERE b.user_id = ? COLLATE NOCASE AND b.deleted_at IS NOT NULL').all(paramsOf(reply.request).user ?? '') as any[];
      if (rows.length === 0) return undefined;
      body.data.push(...rows.map((row) => ({ id: row.id, status: listedAs ?? 'DELETED', bankName: row.bank_name, iban: row.iban, swift: row.swift, currency: row.currency, externalPlatform: { code: row.code, name: row.name, url: row.url }, createdAt: row.created_at })));
      return JSON.stringify(body);
    },
  };
}

/** The summary of one asset (`{asset}` given) answers canceled { bonuses, amount } counted over every asset of the user. */
function summaryAssetCanceledOfAll(): Mutation {
  const seen = new WeakMap<object, ReferenceContext>();
  return {
    request(request, ctx) {
      if (ctx && routeOf(request) === URL.summary) seen.set(request, ctx);
    },
    wire(answer, reply) {
      const ctx = seen.get(reply.request);
      if (!ctx || answer.status !== 200 || answer.url !== URL.summary || !paramsOf(reply.request).asset) return undefined;
      const rows = ctx.db.prepare("SELECT amount FROM bonuses WHERE user_id = ? COLLATE NOCASE AND status = 'canceled'").all(paramsOf(reply.request).user ?? '') as { amount: string }[];
      const body = parse(answer.payload);
      let changed = false;
      for (const entry of Array.isArray(body?.data) ? body.data : [])
        if (entry?.canceled && typeof entry.canceled.bonuses === 'number' && entry.canceled.bonuses !== rows.length) {
          entry.canceled = { bonuses: rows.length, amount: rows.reduce((sum, row) => sum + Number(row.amount), 0) };
          changed = true;
        }
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}


// --- what a delete leaves; a state's records as shown ---------------------------------------------------

/**
 * A bank delete answered 200 also removes the user's rows of `table`: its cards (a cascade on the user's payment
 * methods, round wb22) or its bonuses (a cascade over the user's payment history, round wb23).
 */
export function bankDeleteAlsoDeletes(table: 'cards' | 'bonuses'): Mutation {
  const asked = new WeakMap<object, ReferenceContext>();
  return {
    request(request, ctx) {
      if (ctx && request.method === 'DELETE' && routeOf(request) === URL.bankOne) asked.set(request, ctx);
    },
    wire(answer, reply) {
      const ctx = asked.get(reply.request);
      if (ctx && answer.status === 200) ctx.db.prepare(`DELETE FROM ${table} WHERE user_id = ? COLLATE NOCASE`).run(paramsOf(reply.request).user ?? '');
      return undefined;
    },
  };
}

/** The show of a pending bonus answers 404 (a show scoped to settled bonuses: where status != 'pending'). */
const pendingBonusShow404 = onAnswers([URL.bonusOne], (body, _answer, reply) => {
  if (body?.data?.status !== 'pending') return false;
  reply.code(404);
  for (const key of Object.keys(body)) delete body[key];
  body.message = 'No query results for model [App\\Models\\Bonus].';
  return true;
});

// --- sessions by kind -----------------------------------------------------------------------------------

/** A 2FA login (its body carried a six-digit code, the account has 2FA): `marked` is called on its 200. */
function onTwoFactorLogin(onSession: (answer: WireAnswer, body: any, ctx: ReferenceContext) => boolean): Mutation {
  const marked = new WeakMap<object, ReferenceContext>();
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== URL.login) return;
      onParsedBody(request, (body) => {
        if (typeof body.email !== 'string' || typeof body['2fa'] !== 'string' || !/^\d{6}$/.test(body['2fa'])) return;
        const user = userByEmail(ctx, body.email);
        if (user?.totp_secret) marked.set(request, ctx);
      });
    },
    wire(answer, reply) {
      const ctx = marked.get(reply.request);
      if (!ctx || answer.status !== 200 || answer.url !== URL.login) return undefined;
      const body = parse(answer.payload);
      return body?.data && onSession(answer, body, ctx) ? JSON.stringify(body) : undefined;
    },
  };
}

const TOKEN_ID = (body: any) => /^(\d+)\|/.exec(String(body?.data?.id ?? ''))?.[1];

/** An ISO 8601 UTC time with a fraction moved by `seconds`, its fraction digits kept. */
function shifted(time: unknown, seconds: number): unknown {
  if (typeof time !== 'string') return time;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(time);
  if (!m) return time;
  const moved = new Date(Date.parse(`${m[1]}Z`) + seconds * 1000).toISOString().slice(0, 19);
  return `${moved}${m[2] ?? ''}Z`;
}

/** A JWT login naming its user by email (no id claim) whose Session's until and created are an hour ahead. */
function jwtEmailTimesAhead(): Mutation {
  const marked = new WeakSet<object>();
  return {
    request(request) {
      if (request.method !== 'POST' || routeOf(request) !== URL.jwt) return;
      const claims = claimsOf(request);
      if (claims && typeof claims.email === 'string' && claims.id === undefined) marked.add(request);
    },
    wire(answer, reply) {
      if (!marked.has(reply.request) || answer.status !== 200 || answer.url !== URL.jwt) return undefined;
      const body = parse(answer.payload);
      if (!body?.data) return undefined;
      body.data.until = shifted(body.data.until, 3600);
      body.data.created = shifted(body.data.created, 3600);
      return JSON.stringify(body);
    },
  };
}

/** forgot-password for an account with 2FA answered 422 keyed by email (a lookup that joins a table of accounts without 2FA). */
function forgotTwoFactorUnknown(): Mutation {
  const marked = new WeakSet<object>();
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'POST' || routeOf(request) !== URL.forgot) return;
      onParsedBody(request, (body) => {
        if (typeof body.email === 'string' && userByEmail(ctx, body.email)?.totp_secret) marked.add(request);
      });
    },
    wire(answer, reply) {
      if (!marked.has(reply.request) || answer.status !== 200) return undefined;
      return answerWith(reply, 422, { message: 'The selected email is invalid.', errors: { email: ['The selected email is invalid.'] } });
    },
  };
}


// --- the round ----------------------------------------------------------------------------------------

const written: Mutant[] = [
  // --- balances: a show's meta, and the siblings of the list's fields ---
  // white-box round wb22
  { name: 'wb22-coin-show-meta-of-another-coin', clause: '4.9', group: 'balances', description: 'sections 4.9/2.2 (200 { data: <Balance record> } of the {asset}; meta of the asset: image, url, genesis_date, links, total_supply): the coin show answers the meta of another coin the service answered before (a mapper that keeps the last asset\u2019s meta)', mutation: showMetaOfAnother(URL.coinList, URL.coinOne) },
  // white-box round wb22
  { name: 'wb22-nft-show-meta-of-another-nft', clause: '4.7', group: 'balances', description: 'sections 4.7/2.2 (200 { data: <Balance record> } of the {asset}; meta: image, url, owner, creator): the NFT show answers the meta of another NFT the service answered before', mutation: showMetaOfAnother(URL.nftList, URL.nftOne) },
  // white-box round wb22
  { name: 'wb22-coin-show-links-website-github-swapped', clause: '4.9', group: 'balances', description: 'sections 4.9/2.2 (meta.links "object with website, github, facebook, twitter"): the coin show answers the coin\u2019s website as github and its github as website (the list has them right)', mutation: balanceRecords([URL.coinOne], (record) => { const links = record?.meta?.links; if (!links || typeof links.website !== 'string' || typeof links.github !== 'string' || links.website === links.github) return false; [links.website, links.github] = [links.github, links.website]; return true; }) },
  // white-box round wb22
  { name: 'wb22-coin-show-total-supply-rounded', clause: '4.9', group: 'balances', description: 'sections 4.9/2.2/1.5 (meta total_supply "(number)", a summary amount that is a JSON number): the coin show answers total_supply rounded to an integer (ETH 120280000.5 as 120280000; the list has it whole)', mutation: balanceRecords([URL.coinOne], (record) => { const supply = record?.meta?.total_supply; if (typeof supply !== 'number' || Number.isInteger(supply)) return false; record.meta.total_supply = Math.round(supply); return true; }) },
  // white-box round wb22
  { name: 'wb22-nft-show-owner-as-creator', clause: '4.7', group: 'balances', description: 'sections 4.7/2.2 (meta keys seen "image, url, owner, creator"): the NFT show answers the NFT\u2019s creator as its owner (a mapper typo; the list shows the owner)', mutation: balanceRecords([URL.nftOne], (record) => { const meta = record?.meta; if (!meta || typeof meta.creator !== 'string' || meta.owner === meta.creator) return false; meta.owner = meta.creator; return true; }) },
  // white-box round wb22
  { name: 'wb22-coin-genesis-date-a-day-early', clause: '2.2', group: 'balances', description: 'section 2.2 (meta genesis_date "(date string)", the coin\u2019s genesis date): every coin answers its genesis date a day early (2009-01-03 as 2009-01-02: a UTC date read as midnight in a zone west of UTC), in the list and shown', mutation: balanceRecords([URL.coinList, URL.coinOne], (record) => { const date = record?.meta?.genesis_date; const early = typeof date === 'string' ? dayBefore(date) : undefined; if (!early) return false; record.meta.genesis_date = early; return true; }) },
  // white-box round wb22
  { name: 'wb22-coin-list-filtered-meta-of-neighbour', clause: '4.8', group: 'balances', description: 'sections 4.8/2.2 (assets[] names the assets to return; each record\u2019s meta its own): under assets[] naming two or more coins, each coin answers the meta of the next one listed (an index off by one)', mutation: filteredMetaOfNeighbour(URL.coinList) },
  // white-box round wb22
  { name: 'wb22-nft-list-filtered-meta-of-neighbour', clause: '4.6', group: 'balances', description: 'sections 4.6/2.2 (assets[] names the assets to return; each record\u2019s meta its own): under assets[] naming two or more NFTs, each NFT answers the meta of the next one listed', mutation: filteredMetaOfNeighbour(URL.nftList) },
  // white-box round wb22
  { name: 'wb22-coin-list-meta-image-of-first-coin', clause: '4.8', group: 'balances', description: 'sections 4.8/2.2 (meta image of the asset): the unfiltered coin list answers every coin with the image of its first coin (an eager load keyed once)', mutation: onAnswers([URL.coinList], (body, _a, reply) => { const q = queryOf(reply.request); if (q['assets[]'] !== undefined || q.assets !== undefined) return false; const coins = recordsOf(body); const first = coins[0]?.meta?.image; let changed = false; for (const coin of coins.slice(1)) if (coin?.meta && typeof coin.meta.image === 'string' && coin.meta.image !== first && first !== undefined) { coin.meta.image = first; changed = true; } return changed; }) },

  // --- combined filters: a second filter ignored ---
  // white-box round wb22
  { name: 'wb22-banks-status-filter-drops-currency', clause: '4.10', group: 'banks', description: 'section 4.10 (list query status, currency: filters; docs/judging.md "two filters together never list what either alone excludes"): a bank list asked with status and currency ignores currency (a builder that applies one filter)', mutation: secondFilterIgnored(URL.bankList, 'status', 'currency') },
  // white-box round wb22
  { name: 'wb22-banks-currency-filter-drops-platform', clause: '4.10', group: 'banks', description: 'section 4.10 (list query currency, platform: filters): a bank list asked with currency and platform ignores platform', mutation: secondFilterIgnored(URL.bankList, 'currency', 'platform') },
  // white-box round wb22
  { name: 'wb22-cards-status-filter-drops-platform', clause: '4.6a', group: 'cards', description: 'section 4.6a (list query status, company, platform: filters): a card list asked with status and platform ignores platform', mutation: secondFilterIgnored(URL.cardList, 'status', 'platform') },
  // white-box round wb22
  { name: 'wb22-banks-platform-filter-drops-status', clause: '4.10', group: 'banks', description: 'section 4.10 (list query status, platform: filters): a bank list asked with platform and status ignores status', mutation: secondFilterIgnored(URL.bankList, 'platform', 'status') },
  // white-box round wb22
  { name: 'wb22-cards-platform-filter-drops-status', clause: '4.6a', group: 'cards', description: 'section 4.6a (list query status, platform: filters): a card list asked with platform and status ignores status', mutation: secondFilterIgnored(URL.cardList, 'platform', 'status') },
  // white-box round wb22
  { name: 'wb22-bonuses-platform-filter-drops-status', clause: '4.11', group: 'bonuses', description: 'section 4.11 (list query status, platform: filters): a bonus list asked with platform and status ignores status', mutation: secondFilterIgnored(URL.bonusList, 'platform', 'status') },
  // white-box round wb22
  { name: 'wb22-bonuses-status-filter-drops-platform', clause: '4.11', group: 'bonuses', description: 'section 4.11 (list query status, platform: filters): a bonus list asked with status and platform ignores platform', mutation: secondFilterIgnored(URL.bonusList, 'status', 'platform') },

  // --- cards: images on the reads not compared ---
  // white-box round wb22
  { name: 'wb22-cards-show-images-swapped', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 (cardImage1 "Identifier of the stored first image", cardImage2 "of the stored second image"): the card show answers the first image\u2019s identifier as cardImage2 and the second\u2019s as cardImage1 (create and list have them right)', mutation: balanceRecords([URL.cardOne], swapImages) },
  // white-box round wb22
  { name: 'wb22-cards-create-answer-images-swapped', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 (201 { data: <Card> }; cardImage1 the stored first image, cardImage2 the second): the create answers the two image identifiers swapped (list and show have them right)', mutation: onAnswers([URL.cardList], (body, answer) => answer.status === 201 && recordsOf(body).some(swapImages)) },
  // white-box round wb22
  { name: 'wb22-cards-filtered-list-images-swapped', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 (a filter narrows the list; cardImage1 the first image, cardImage2 the second): under any filter each card answers its two image identifiers swapped', mutation: onAnswers([URL.cardList], (body, answer, reply) => { if (answer.method !== 'GET') return false; const q = queryOf(reply.request); if (q.status === undefined && q.platform === undefined && q.company === undefined) return false; let changed = false; for (const card of recordsOf(body)) if (swapImages(card)) changed = true; return changed; }) },
  // white-box round wb22
  { name: 'wb22-cards-list-images-of-newest-card', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 (each card\u2019s cardImage1/cardImage2 identify its own stored images): the card list answers every card of a user with the images of the user\u2019s newest card', mutation: listImagesOfNewest },
  // white-box round wb22
  { name: 'wb22-cards-expiry-pair-read-back-year-first', clause: '4.6a', group: 'cards', description: 'sections 4.6a/2.5 (expirationDate "Format m/y"): a card whose expiry came as month and year is read back (list, show) as y/m (12/45 as 45/12); its create answered m/y', mutation: cardPairStoredYearFirst() },

  // --- bonuses: the user object, a status under a filter, a summary of one asset ---
  // white-box round wb22
  { name: 'wb22-bonuses-user-login-2fa-negated', clause: '2.6', group: 'bonuses', description: 'section 2.6 (options.guard.actions: login "{ 2fa: boolean, password: boolean }", the user\u2019s login guard): every bonus\u2019s user answers login.2fa negated (an account whose login needs a 2FA code shown false, one without shown true)', mutation: bonusUsers([URL.bonusList, URL.bonusOne], (user) => { const login = loginGuard(user); if (!login || typeof login['2fa'] !== 'boolean') return false; login['2fa'] = !login['2fa']; return true; }) },
  // white-box round wb22
  { name: 'wb22-bonuses-user-login-password-false', clause: '2.6', group: 'bonuses', description: 'sections 2.6/4.2 (options.guard.actions.login "{ 2fa, password: boolean }"; a login requires a password, 4.2): every bonus\u2019s user answers login.password false', mutation: bonusUsers([URL.bonusList, URL.bonusOne], (user) => { const login = loginGuard(user); if (!login || login.password !== true) return false; login.password = false; return true; }) },
  // white-box round wb22
  { name: 'wb22-bonuses-user-deleted-at-set', clause: '2.6', group: 'bonuses', description: 'section 2.6 (deletedAt "integer or null"; selfDeleted dates null): a bonus\u2019s user, active and able to log in, answers deletedAt the bonus\u2019s createdAt (a join that takes the bonus row\u2019s deleted_at column)', mutation: bonusUsers([URL.bonusList, URL.bonusOne], (user, record) => { if (user.deletedAt !== null || typeof record.createdAt !== 'number') return false; user.deletedAt = record.createdAt; return true; }) },
  // white-box round wb22
  { name: 'wb22-bonuses-platform-filtered-canceled-shown-distributed', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5a/3 (status "distributed, pending, canceled"; a filter narrows the list): under a platform filter a canceled bonus answers status distributed (the unfiltered list and the show answer it canceled, before and after)', mutation: platformFilteredCanceledDistributed },
  // white-box round wb22
  { name: 'wb22-bonuses-summary-asset-pending-amount-of-all-assets', clause: '2.5b', group: 'bonuses', description: 'sections 2.5b/4.11 (S = { bonuses, amount } of the asset\u2019s bonuses in that status): the summary of one asset answers pending.amount summed over the pending bonuses of every asset of the user', mutation: summaryAssetPendingOfAll() },

  // white-box round wb22
  { name: 'wb22-bonuses-summary-asset-canceled-of-all-assets', clause: '2.5b', group: 'bonuses', description: 'sections 2.5b/4.11 (S = { bonuses, amount } of the asset\u2019s bonuses in that status): the summary of one asset answers canceled counted and summed over the canceled bonuses of every asset of the user', mutation: summaryAssetCanceledOfAll() },
  // white-box round wb22
  { name: 'wb22-banks-deleted-listed-under-status-deleted', clause: '4.10', group: 'banks', description: 'sections 4.10/3 (delete; list { data: [<Bank>] } of the user\u2019s banks, status a filter; docs/judging.md: a deleted record is none of the user\u2019s records, whatever a filter is compared with): a bank list asked with status=DELETED answers the user\u2019s deleted banks (a status filter that reads soft-deleted rows, withTrashed())', mutation: deletedBanksUnderStatusDeleted() },
  // white-box round wb22
  { name: 'wb22-bank-delete-cascades-user-cards', clause: '4.10', group: 'banks', description: 'section 4.10 (delete a user\u2019s bank: 200 { message }; cards are records of their own, 4.6a, with no delete): a bank delete answered 200 also removes every card of the user (a cascade over the user\u2019s payment methods)', mutation: bankDeleteAlsoDeletes('cards') },
  // white-box round wb22
  { name: 'wb22-bonuses-show-pending-404', clause: '4.11', group: 'bonuses', description: 'sections 4.11/7 (show 200 { data: <Bonus> }; 404 when "no record found"): the show of a pending bonus the list holds answers 404 (a show scoped to settled bonuses)', mutation: pendingBonusShow404 },

  // --- sessions by kind ---
  // white-box round wb22
  { name: 'wb22-2fa-session-outlives-until', clause: '2.1', group: 'authentication', description: 'sections 2.1/5.2/5.3 (the token is "valid for ttl seconds, until until"; "Without valid authentication the response is 401"): the token of a login with a 2FA code stays valid 30 days past its until (a step-up session of its own lifetime)', mutation: onTwoFactorLogin((_answer, body, ctx) => { const id = TOKEN_ID(body); if (id) ctx.db.prepare('UPDATE access_tokens SET expires_ms = expires_ms + ? WHERE id = ?').run(30 * 86_400_000, Number(id)); return false; }) },
  // white-box round wb22
  { name: 'wb22-2fa-session-times-an-hour-ahead', clause: '2.1', group: 'authentication', description: 'sections 1.4/2.1 (until, created "ISO 8601 UTC timestamp"): a login with a 2FA code answers until and created an hour ahead (local time of UTC+1 written with Z, in the 2FA session builder)', mutation: onTwoFactorLogin((_answer, body) => { body.data.until = shifted(body.data.until, 3600); body.data.created = shifted(body.data.created, 3600); return true; }) },
  // white-box round wb22
  { name: 'wb22-jwt-email-session-times-an-hour-ahead', clause: '2.1', group: 'authentication', description: 'sections 1.4/2.1 (until, created "ISO 8601 UTC timestamp"): a JWT login naming the user by email answers until and created an hour ahead (local time written with Z)', mutation: jwtEmailTimesAhead() },
  // white-box round wb22
  { name: 'wb22-2fa-session-ttl-halved', clause: '2.1', group: 'authentication', description: 'section 2.1 (ttl "Lifetime in seconds"; until the expiry): a login with a 2FA code answers ttl half the session\u2019s lifetime (until - created is twice ttl)', mutation: onTwoFactorLogin((_answer, body) => { if (typeof body.data.ttl !== 'number' || body.data.ttl < 2) return false; body.data.ttl = Math.floor(body.data.ttl / 2); return true; }) },

  // --- password ---
  // white-box round wb22
  { name: 'wb22-forgot-2fa-account-unknown', clause: '4.3', group: 'password', description: 'section 4.3 ("422 when the e-mail is unknown"): forgot-password for a known account with 2FA answers 422 keyed by email (a lookup joined with accounts without 2FA)', mutation: forgotTwoFactorUnknown() },
];

/*
 * Caught (15): wb22-coin-list-filtered-meta-of-neighbour, wb22-nft-list-filtered-meta-of-neighbour and
 * wb22-coin-list-meta-image-of-first-coin (the filtered-same-fields rows compare meta under a filter);
 * wb22-cards-status-filter-drops-platform, wb22-banks-currency-filter-drops-platform,
 * wb22-bonuses-platform-filter-drops-status, wb22-bonuses-status-filter-drops-platform (the two-platform combined-filter
 * tests); wb22-cards-expiry-pair-read-back-year-first (the month/year create test reads the card back);
 * wb22-2fa-session-ttl-halved (the 2FA login's Session checks); wb22-bonuses-summary-asset-pending-amount-of-all-assets,
 * wb22-bonuses-summary-asset-canceled-of-all-assets (the {asset} summary compared with the list);
 * wb22-2fa-session-times-an-hour-ahead, wb22-jwt-email-session-times-an-hour-ahead (created within seconds of Date, per
 * kind of login); wb22-bank-delete-cascades-user-cards (the delete test reads the other kinds of records after it);
 * wb22-bonuses-show-pending-404 (every listed bonus is shown).
 *
 * Survivors (18, each again alone with --no-hints: none caught), with the shallow check and the check that would catch it:
 * - (closed, fix-wb22a: below) wb22-coin-show-meta-of-another-coin, wb22-nft-show-meta-of-another-nft, wb22-coin-show-links-website-github-swapped,
 *   wb22-coin-show-total-supply-rounded, wb22-nft-show-owner-as-creator: an asset's `meta` is compared between a
 *   filtered and an unfiltered list only (helpers/spec/instances.ts LISTS `underFilter: ['meta']`), never between a show
 *   (4.7, 4.9) and the list, because a show that leaves meta empty may be a reading (round wb10). Would catch: the show of
 *   each held coin and NFT compared with the list read just before and after it, member by member over the meta members
 *   both carry (an empty meta on either side not judged), a member failed only when both list reads agree on it.
 * - (closed, fix-wb22a: below) wb22-coin-genesis-date-a-day-early: `meta.genesis_date` is judged by its form only ("writes a calendar date"); the
 *   state `balances` names the coins with a genesis date (`genesisDate`), not their dates, so the suite has no oracle.
 *   Would catch: an optional date per coin in that state (additive), compared as a calendar date in any writing.
 * - (not deviations, the lead's ruling, fix-wb22a: below) wb22-bonuses-user-login-2fa-negated, wb22-bonuses-user-login-password-false: a bonus user's
 *   options.guard.actions are checked by schema only (booleans). Would catch: the caller's own user embedded in its bonus
 *   shows login.2fa true for an account whose login needs a code and false for one that does not, login.password true.
 *   (Doubt: 2.6 names the members without saying what they mean; see DOUBTS.)
 * - (not a deviation, the lead's ruling, fix-wb22a: below) wb22-bonuses-user-deleted-at-set: the embedded caller's user is judged on isActive only (expectCallerActive). Would
 *   catch: its deletedAt null while it logs in and is answered 200 (as isActive true). (Doubt: see DOUBTS.)
 * - (closed, fix-wb22a: below) wb22-bonuses-platform-filtered-canceled-shown-distributed: a bonus's status is no stable field between a filtered and
 *   an unfiltered list (LISTS: "not a record's status", section 3 leaves transitions open). Would catch: a bonus listed
 *   canceled before and after a platform-filtered read that shows it distributed fails (a status that moves back is no
 *   transition); pending to distributed stays allowed (allowed-bonus-pending-settled-when-listed).
 *
 * Closed after the round (fix-wb22b, registered; none depends on a draw: the records, pictures and accounts are
 * arranged; each killed by `nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME`):
 * - wb22-banks-status-filter-drops-currency: the shallow check drew every pair of filters from the user's own values.
 *   Caught by: "answers an empty list for a currency no bank has" (suites/banks.test.ts), which now also asks
 *   status=<the bank's own status>&currency=SEK (the user's only bank in EUR): an empty list, or a 422 keyed by status
 *   or currency (advised on).
 * - wb22-banks-deleted-listed-under-status-deleted: caught by "answers 200 with { message } and the bank is no longer
 *   listed, neither in the lists filtered by its currency, its status, its platform or its company"
 *   (suites/banks.test.ts), which now also reads the list under status=DELETED, deleted, REMOVED and INACTIVE after the
 *   delete: no deleted bank (an empty list, every live bank when the value is ignored, or a 422 keyed by status).
 * - wb22-cards-show-images-swapped, wb22-cards-create-answer-images-swapped, wb22-cards-filtered-list-images-swapped,
 *   wb22-cards-list-images-of-newest-card: caught by "answers two different image identifiers for a card created with
 *   two different images, in create, show, list and filtered list, and lists it as shown" (suites/cards.test.ts): no
 *   read of the card answers as cardImage1 what another answered as cardImage2 (expectImagesNeverSwapped), and a second
 *   card made from two other pictures (a held PNG and a BMP) shares no identifier with the first in its create answer
 *   and the list after it (expectImagesOfOwnCard); judged only between reads whose two identifiers are non-empty and
 *   differ (docs/judging.md, "Card image identifiers belong to their image and their card").
 * - wb22-2fa-session-outlives-until: state user.short-session takes twoFactor (added later, docs/provider-states.md; the
 *   reference's handler; the states file's kind "user.short-session with 2FA"). Caught by "issues a 2FA-login token
 *   valid for ttl seconds, until until: a protected endpoint accepts it halfway and answers 401 with { error } once
 *   until is past (state user.short-session with twoFactor, at most 5 s)" (suites/authentication.test.ts): 401 1.5 s
 *   past until. Without the state's twoFactor, not verified.
 * - wb22-forgot-2fa-account-unknown: caught by "answers 200 with { data: { message } } for the known e-mail of an
 *   active account with 2FA" (suites/password.test.ts, citing 4.3; state user with twoFactor; not verified without a
 *   totpSecret).
 */
/*
 * Closed after the round (fix-wb22a, registered; none depends on a draw: the reference's state gives every coin its meta,
 * ETH's total_supply 120280000.5, NFTs with an owner other than their creator, and a bonus of each status; each killed by
 * `nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME`, kill hints recorded):
 * - wb22-coin-show-meta-of-another-coin, wb22-coin-show-links-website-github-swapped, wb22-coin-show-total-supply-rounded
 *   (suites/balances.test.ts, coin show: "answers each held coin with the fields the coin list gives it (...)") and
 *   wb22-nft-show-meta-of-another-nft, wb22-nft-show-owner-as-creator (the NFT show's test of the same name): the show of
 *   each held asset is compared with the list read before it on each meta member both carry non-empty (image, url, owner,
 *   creator, genesis_date as a calendar day in any writing, links.website/github/facebook/twitter, total_supply as a
 *   number: metaMembersOf), a member that differs judged only when a list read after the show agrees with the first (a
 *   supply refreshed or an image URL signed per read moves: allowed-r13-total-supply-updated-per-read,
 *   allowed-r13-meta-image-signed-per-read; an empty meta or a member left out, 2.2 "May be empty", is never judged).
 * - wb22-coin-genesis-date-a-day-early: the state `balances` gives each coin's date (`genesisDates: [{ symbol, date }]`,
 *   ADDITIVE: docs/provider-states.md, the reference's state, the states file and its schema); suites/balances.test.ts
 *   "writes meta.genesis_date as a calendar date for each coin the state names, in the list and shown" then requires that
 *   calendar day (any writing; with a time of day, the day written or the UTC day of a zoned time: calendarDaysOf).
 *   Without genesisDates the day is not verified (advised on).
 * - wb22-bonuses-platform-filtered-canceled-shown-distributed: the bonus list's "lists each record under a filter
 *   (status, platform) with the fields the unfiltered list gives it (...)" (helpers/arrange/invariants.ts
 *   filteredFieldsCheck, LISTS `statusUnderFilter`) compares a bonus's status too, in any letter case, failing only when
 *   the unfiltered reads before and after the filtered one agree (allowed-bonus-pending-settled-when-listed moves).
 *
 * Not deviations under every reading (the lead's ruling, fix-wb22a; NOT_DEVIATIONS below, not registered):
 * wb22-bonuses-user-login-2fa-negated, wb22-bonuses-user-login-password-false, wb22-bonuses-user-deleted-at-set. 2.6
 * names `options.guard.actions` ("login and operations, each { 2fa: boolean, password: boolean }") and `deletedAt`
 * ("integer or null") and gives them no meaning: a guard flag may be a preference of the user's rather than what its
 * login needs, a deletedAt a deletion scheduled ahead. The suite advises (never fails) on the caller's own embedded user
 * showing login.2fa true or login.password false after a login with its password alone, or a deletedAt already past for
 * an account that logs in (suites/bonuses.test.ts adviseCallerGuard, in "answers 200 with the user's bonuses as full
 * records").
 */
const OPEN = new Set<string>([
]);

/*
 * Not deviations under every reading (the reviewer's own finding after scoring; not registered): a second filter
 * `status` dropped when `platform` comes first (wb22-banks-platform-filter-drops-status,
 * wb22-cards-platform-filter-drops-status). Every bank and card is CONFIRMED (section 3 names no other value), so
 * dropping status changes an answer only for a status value no record has, which a target may ignore as a value that
 * resolves to nothing (allowed-r13-bonus-status-filter-unknown-ignored, allowed-r14-unknown-status-filter-ignored;
 * docs/judging.md, review-aa). Their siblings that drop a filter whose value resolves (currency, platform) are deviations.
 *
 * DOUBTS (kept deviations, said here for the lead):
 * - wb22-bonuses-user-login-2fa-negated, wb22-bonuses-user-login-password-false: 2.6 gives options.guard.actions.login
 *   as "{ 2fa: boolean, password: boolean }" and no meaning; that login.2fa says whether the account's login needs a
 *   code, and login.password whether it needs the password, is the natural reading, not the only one (a guard of
 *   re-confirmation steps could read "password: false" as "no second password prompt").
 * - wb22-bonuses-user-deleted-at-set: deletedAt "integer or null" without a meaning; a live account with a deletion
 *   date could be read as a deletion scheduled ahead, although selfDeleted.dates are all null here.
 * - wb22-bonuses-platform-filtered-canceled-shown-distributed: section 3 shows no transitions; a canceled bonus shown
 *   distributed by a filtered read between two unfiltered reads that show it canceled is a status that went and came
 *   back, which a read model lagging or leading the store could answer (review-r's read models argue so for texts).
 * - wb22-coin-genesis-date-a-day-early: a deviation (the coin's genesis date is a fact), but no client can tell it from
 *   the right date without an oracle; only a target's own state could give one.
 */
/*
 * Ruled not deviations after review-ak (its F1 and F3), each pinned by an allowed reading in probes-review-ak.ts:
 * - wb22-coin-show-total-supply-rounded: a total_supply in the show other than the list's may be a figure of another
 *   moment (a list from an hourly market-data cache, the show from the live feed), which 2.2 ("meta ... May be empty";
 *   total_supply "(number)") and section 3 do not rule out; the suite advises on image, url and total_supply between
 *   show and list (META_RENDITIONS in suites/balances.test.ts) and judges the facts (owner, creator, genesis_date, links).
 * - wb22-banks-deleted-listed-under-status-deleted: the deleted bank listed WITH status DELETED when status=DELETED asks
 *   for it is a soft delete that shows trashed rows on request; 4.10 names the filter, the bank statuses are "not shown",
 *   and only a deleted record's show has a documented answer (404). With the status it had (CONFIRMED) it is advised on
 *   too (review-al F1: allowed-review-al-deleted-bank-listed-with-stored-status-under-status-deleted).
 */
const NOT_DEVIATIONS = new Set<string>(['wb22-banks-platform-filter-drops-status', 'wb22-cards-platform-filter-drops-status', 'wb22-bonuses-user-login-2fa-negated', 'wb22-bonuses-user-login-password-false', 'wb22-bonuses-user-deleted-at-set', 'wb22-coin-show-total-supply-rounded', 'wb22-banks-deleted-listed-under-status-deleted']);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb22Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name) && !NOT_DEVIATIONS.has(mutant.name));

/** The mutants of the round judged no deviation under every reading (not registered). */
export const roundWb22NotDeviations: Mutant[] = written.filter((mutant) => NOT_DEVIATIONS.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb22OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));

/** Every mutant the round wrote. */
export const roundWb22Written: readonly Mutant[] = written;
