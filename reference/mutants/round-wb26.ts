import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { ReferenceContext } from '../context.js';
import { bankCreateRefused, claimsOf, isSessionAnswer, onBankCreate, parse, routeOf } from './reading.js';
import type { Mutant } from './types.js';
import { ROUTE as URL } from './routes.js';

/**
 * White-box round wb26 (issue 27, "a rule is verified only where it was checked everywhere it applies"): deviations a
 * real backend could ship, written by a twenty-sixth reviewer who read the specification, docs/judging.md, suites/ and
 * helpers/ (helpers/spec/instances.ts LISTS, CREATES, ACCESS_CLASSES, WRITE_READS; helpers/arrange/invariants.ts;
 * helpers/arrange/currencies.ts; the reference's module deviations, so as not to write one again) and aimed at what rounds
 * wb1 to wb25 left alone:
 * - each entry once, where the list is an asset list or a filtered list of a filter no round doubled: a coin and an NFT
 *   list holding an entry twice (unfiltered and under assets[]), assets[] naming one symbol twice answered with the entry
 *   twice (a loop over the symbols asked, not a `whereIn`), the bank list under `currency` and the card list under
 *   `platform` with a record twice, and every records list under two filters at once with a record twice (a join over
 *   the platforms);
 * - a filter narrows: assets[] naming a known and an unknown symbol answered as the unfiltered list (a validator that
 *   drops the filter when one symbol does not resolve); the bonus summary of an {asset} the user has no bonus of
 *   answered with every asset's entries (a "never answer empty" fallback);
 * - value classes of the bank create: the supranational currencies XAF, XCD, XOF and XPF, and the currencies without
 *   minor units (JPY, KRW ...), refused (a table of currencies with two decimals); an IBAN and a swift with spaces inside
 *   (the print format) taken in with their spaces removed (a "normalise then validate" request filter);
 * - a refused create that stores, for reasons the refused-create invariant never sends: a swift of the wrong length, an
 *   IBAN with an underscore and an IBAN over 191 characters answered 422 after the bank was stored (mended);
 * - a Session whose `until` lies an hour past `created + ttl`, for each login kind (an `until` taken from another clock
 *   or the refresh token's lifetime);
 * - a per-user cache of the unfiltered bank list, and of a bank's show, not cleared by a create or a delete.
 * Each breaks a rule that holds under every reading of the specification; its description quotes the sentence it
 * breaks. All rewrite an answer as sent or a request before the reference reads it; none needs a deviation of the
 * reference's modules.
 *
 * Score before fixes: 22 caught of 27 (30 written; 3 judged no deviation under every reading after scoring, moved to
 * NOT_DEVIATIONS below). `nice -n 19 node bin/mutants.mjs --shards 1 --mutant NAME ...` in three batches of 10 (8, 8 and 6
 * caught), then the 8 survivors again together with --no-hints: none caught; then the whole suite (`nice -n 19 node
 * bin/conformance.mjs run --mutant NAME`) against each of the 8: conformant every time, 700 passed, 0 failed, 0 skipped,
 * 0 security findings, with the one advisory the unmutated reference gets too (a JWT naming one user by email and
 * another by id), and for the two repeated-symbol mutants two more ("listed as often as named ... so not judged"). No
 * failure cited another clause, so none was re-cited.
 * Every mutant was first seen to bite by a throwaway script (not kept) that built the reference with and without it and
 * sent the requests through fastify's inject: the coin and NFT lists with their first entry twice (n 5 -> 6, 3 -> 4);
 * under assets[] one symbol, 1 -> 2 entries; assets[] naming a symbol twice, 1 -> 2; assets[] <held>, NOPEX 1 entry -> the
 * whole list (5 coins, 3 NFTs); bank ?currency=EUR 3 -> 4 with a duplicate, card ?platform=<code> 2 -> 3, two filters on
 * banks, cards (status&platform) and bonuses (status&platform) each with a duplicate; the summary 2 entries -> 3; the
 * summary of an asset without bonuses [] -> both assets' entries; banks in XOF and JPY 201 -> 422 keyed by currency; an
 * IBAN `DE00 1234 ...` and a swift `DEUT DEFF` 422 -> 201; a swift of 7 characters, an IBAN with `_`, an IBAN of 192
 * characters and a swift `DEUT-DEFF` still 422 while the user's list grows by one; a Session's until - created - ttl 0 ->
 * 3600 for a password, a 2FA, a JWT-by-id and a JWT-by-email login (each kind alone); the bank list after two creates
 * unchanged (the cached first read); a deleted bank's show 404 -> 200 after a show read before the delete; a reset refused
 * for a 192-character password, then the retry with a valid one 200 -> 422 keyed by token.
 *
 * Caught (22): every list holding an entry twice (the each-once invariant of LISTS, unfiltered and under assets[], and
 * the two-filter rows of helpers/arrange/invariants.ts); the two currency classes (the ISO 4217 table of
 * helpers/arrange/currencies.ts, sent whole); IBAN and swift with spaces (the value-class rows of suites/banks.test.ts);
 * the refused swift of 7 characters and the IBAN with `_` that store (bankFieldRefusals, whose iban row has hyphens, which
 * the mutant mends as well); the four untils (the "valid for ttl seconds, until until" checks of every login kind); the
 * cached bank list (shows-create); the summary rows (each once; an asset without bonuses holds no other asset's entry).
 *
 * Judged no deviation (3, NOT_DEVIATIONS): the reason at the set.
 *
 * Survivors (5), with the shallow check that let each pass and the check that would catch it:
 * - wb26-coin-filter-unknown-beside-known-lists-all, wb26-nft-filter-unknown-beside-known-lists-all:
 *   suites/balances.test.ts expectHeldBesideUnknown (round wb17) sends assets[] <one held symbol>, <unknownSymbol()> and
 *   asserts only `listed.includes(mine)`: a list that drops the filter and answers every held asset passes. Would catch:
 *   on a 200, also `listed` holds no held symbol other than `mine` (the holder holds several coins and NFTs: held.coins,
 *   held.nfts); the unknown symbol is one the platform does not know, so no reading (zero-filled coins, aliases) makes
 *   another held asset "a symbol to return". docs/judging.md's row "assets[] returns the symbols it names" says "a 200
 *   lists the held one (what the unknown one gets is not judged)": the row would add "and no other held asset".
 * - wb26-banks-refused-long-iban-stored-cut, wb26-banks-refused-swift-non-alphanumeric-stored: the invariant "stores
 *   nothing and changes nothing when a create is refused" (helpers/arrange/invariants.ts, and the password session's rows
 *   in suites/banks.test.ts) sends helpers/arrange/refusals.ts bankFieldRefusals, ONE row per field (currency XYZ, swift of
 *   7, iban with hyphens, bankName of 192), so a field's other constraint (iban max 191; swift alphanumeric) is refused
 *   only in the boundary table of suites/banks.test.ts (rows "an iban of 192 characters", "a swift of 9 characters with
 *   an underscore" / "with a dot"), which judges the 422 and never reads the list after it. Would catch: one refusal row
 *   per constraint of a field, not per field (add "an iban of 192 characters" and "a swift of 9 characters with an
 *   underscore" to bankFieldRefusals, and likewise a card's per-constraint rows), or, more generally, every 422 row of the
 *   boundary tables followed by the user's list compared with the list before it (no new id, no changed record).
 * - wb26-banks-show-cached-after-delete: suites/banks.test.ts "answers 404 with { message } for a bank deleted before"
 *   and the shows-delete branch of helpers/arrange/invariants.ts read the show only after the delete (and the lists before
 *   and after), never the same show before it, so a show cache that a delete does not clear is never filled. Would catch:
 *   read GET .../bank/{bank} (200, the bank) before the delete with the same token, then delete (200), then the same show
 *   404 and the list without it; the delete test of the two-platforms state (which already reads its show afterwards)
 *   would do the same.
 *
 * Closed after the round (fix-wb26, registered; none depends on a draw; each killed by `nice -n 19 node bin/mutants.mjs
 * --shards 1 --mutant NAME` and again with --no-hints; requests each new check adds, on the reference):
 * - wb26-coin-filter-unknown-beside-known-lists-all, wb26-nft-filter-unknown-beside-known-lists-all: suites/balances.test.ts
 *   expectHeldBesideUnknown, on a 200, also asks that the list hold no held asset but the one named (unnamedHeld, shared
 *   with expectCutSymbolListsNoHeld: the state's held coins and NFTs in any letter case; a record named by its alias or of
 *   an asset not held advised on); the tests now cite S199 / S209. docs/judging.md rows "`assets[]` returns the symbols it
 *   names" and "Meaning of a filter the spec only names" (the fallback is for a filter whose values ALL resolve to
 *   nothing). Caught by "GET /api/v1/user/{user}/balances lists the held coin when assets[] names it beside a symbol the
 *   platform does not know (or refuses with 422)" and its NFT twin ("GET /api/v1/user/{user}/balances/nft lists the held
 *   NFT ..."). No request added.
 * - wb26-banks-refused-long-iban-stored-cut, wb26-banks-refused-swift-non-alphanumeric-stored: helpers/arrange/refusals.ts
 *   gives one refusal row per RULE of a field, each naming its catalogue constraint (bank: currency iso and alphanumeric
 *   `EU-R`, swift length and alphanumeric `XXXX_XXXX`, iban alphanumeric and max `an iban of 192 characters`, bankName
 *   max; card: expirationDate future and format `13/yy`, expirationMonth format `13`, expirationYear format and future,
 *   lastFourDigits, each image's type, holderName, alias); the rules left out (presence and JSON type, iban unique sent
 *   beside the rows, the images' 10240 KB) are named with their reason in REFUSAL_RULES_NOT_SENT, and
 *   test/instances.test.ts fails when a constraint of either create has neither. Caught by "POST /api/v1/user/{user}/bank
 *   stores nothing for creates refused with 422, each for a different field (the list is unchanged), and reserves none of
 *   their ibans" (and, for the long IBAN, the 2FA and JWT sessions' "stores nothing for a refused create and never takes
 *   an owner from the body ..." of helpers/arrange/invariants.ts otherLoginKindChecks). Requests added: banks 3 refused
 *   creates and 2 valid creates of their ibans (with their clean-up deletes) in the password session's test, 3 refused
 *   creates for each of the 3 other login tokens (9); cards 3 refused creates in the password session's test and 9 in the
 *   other kinds' (fewer than following every 422 row of the two boundary tables, about 60, with a list read).
 * - wb26-banks-show-cached-after-delete: suites/banks.test.ts "GET /api/v1/user/{user}/bank/{bank} answers 404 with {
 *   message } for a bank deleted before" reads the bank's show (200, that bank) before the delete with the same token,
 *   and after the delete's 404 the unfiltered list, which must not hold it (name kept: earlier rounds' kill hints name
 *   it). Two requests added.
 */

const paramsOf = (reply: FastifyReply) => (reply.request.params ?? {}) as Record<string, string | undefined>;
const key = (value: unknown) => String(value).toLowerCase();
const queryOfRequest = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;
const queryOfReply = (reply: FastifyReply) => (reply.request.query ?? {}) as Record<string, unknown>;

/** A filter value given (a non-empty string, or an array with one). */
const given = (value: unknown): boolean => (Array.isArray(value) ? value.some((v) => typeof v === 'string' && v !== '') : typeof value === 'string' && value !== '');

/** The entries of a list answer (`data` or `data.coins`) and a setter. */
function entriesOf(body: any): any[] | undefined {
  if (Array.isArray(body?.data)) return body.data;
  if (Array.isArray(body?.data?.coins)) return body.data.coins;
  return undefined;
}

/** The GET 200 answers of `route` for which `when(query)` holds: its first entry listed twice. */
function firstEntryTwice(route: string, when: (query: Record<string, unknown>) => boolean): Mutation {
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.method !== 'GET' || answer.status !== 200 || answer.url !== route) return undefined;
      if (!when(queryOfReply(reply))) return undefined;
      const body = parse(answer.payload);
      const entries = entriesOf(body);
      if (!entries || entries.length === 0) return undefined;
      entries.push(JSON.parse(JSON.stringify(entries[0])));
      return JSON.stringify(body);
    },
  };
}

const assetsOf = (query: Record<string, unknown>): string[] => {
  const raw = query['assets[]'] ?? query.assets;
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((s): s is string => typeof s === 'string' && s !== '');
};
const FILTERS = ['status', 'currency', 'company', 'platform'];
const filtersGiven = (query: Record<string, unknown>) => FILTERS.filter((name) => given(query[name]));

/** The coin or NFT list whose assets[] names a symbol twice answers that symbol's entry once per time it was named. */
function repeatedSymbolListedTwice(route: string): Mutation {
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200 || answer.url !== route) return undefined;
      const asked = assetsOf(queryOfReply(reply)).map(key);
      if (asked.length < 2 || new Set(asked).size === asked.length) return undefined;
      const body = parse(answer.payload);
      const entries = entriesOf(body);
      if (!entries) return undefined;
      const out: any[] = [];
      for (const entry of entries) {
        const times = Math.max(1, asked.filter((symbol) => symbol === key(entry?.symbol)).length);
        for (let i = 0; i < times; i += 1) out.push(JSON.parse(JSON.stringify(entry)));
      }
      if (out.length === entries.length) return undefined;
      entries.splice(0, entries.length, ...out);
      return JSON.stringify(body);
    },
  };
}

/** assets[] naming at least one symbol the service knows and one it does not: the filter is dropped (the whole list). */
function unknownBesideKnownDropsFilter(route: string): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'GET' || routeOf(request) !== route) return;
      const query = queryOfRequest(request);
      const asked = assetsOf(query);
      if (asked.length < 2) return;
      const known = (symbol: string) => ctx.db.prepare('SELECT 1 FROM assets WHERE symbol = ?').get(symbol) !== undefined;
      if (!asked.some(known) || asked.every(known)) return;
      delete query['assets[]'];
      delete query.assets;
    },
  };
}

/** The bonus summary with an {asset} of which the user has no bonus answers every asset's entries (the segment dropped). */
function summaryAssetWithoutBonusesListsAll(): Mutation {
  return {
    request(request, ctx) {
      if (!ctx || request.method !== 'GET' || routeOf(request) !== URL.summary) return;
      const params = (request.params ?? {}) as Record<string, string | undefined>;
      const asset = params.asset;
      const user = params.user;
      if (!asset || !user) return;
      const columns = (ctx.db.prepare('PRAGMA table_info(bonuses)').all() as { name: string }[]).map((c) => c.name);
      const assetColumn = columns.find((c) => c === 'asset_symbol' || c === 'symbol' || c === 'asset');
      if (!assetColumn || !columns.includes('user_id')) return;
      const mine = ctx.db.prepare(`SELECT 1 FROM bonuses WHERE user_id = ? AND ${assetColumn} = ? COLLATE NOCASE`).get(user, asset);
      const any = ctx.db.prepare('SELECT 1 FROM bonuses WHERE user_id = ?').get(user);
      if (mine || !any) return;
      delete params.asset;
    },
  };
}

// --- bank create: value classes and refused creates that store -------------------------------------------------

const SUPRANATIONAL = new Set(['XAF', 'XCD', 'XOF', 'XPF']);
const NO_MINOR_UNITS = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

/** A bank create refused 201 by the reference answered 422 keyed by `field`, the bank stored with the field mended. */
function refusedButStored(field: string, mend: (value: string) => string | undefined, message: string): Mutation {
  const marked = new WeakSet<object>();
  return {
    request(request) {
      onBankCreate(request, (body) => {
        const value = body[field];
        if (typeof value !== 'string') return;
        const mended = mend(value);
        if (mended === undefined || mended === value) return;
        body[field] = mended;
        marked.add(request);
      });
    },
    wire(answer, reply) {
      if (answer.method !== 'POST' || answer.url !== URL.bankList || answer.status !== 201 || !marked.has(reply.request)) return undefined;
      reply.code(422);
      reply.removeHeader('content-length');
      return JSON.stringify({ message: message, errors: { [field]: [message] } });
    },
  };
}

/** A bank create's field with inner white space taken in with it removed (a print format normalised before validation). */
function innerSpacesStripped(field: string): Mutation {
  return {
    request(request) {
      onBankCreate(request, (body) => {
        const value = body[field];
        if (typeof value !== 'string') return;
        const inner = value.trim();
        if (!/\s/.test(inner)) return;
        const stripped = inner.replace(/\s+/g, '');
        if (/^[A-Za-z0-9]+$/.test(stripped)) body[field] = stripped;
      });
    },
  };
}

// --- sessions: until an hour past created + ttl -------------------------------------------------------------------

type LoginKind = 'password' | '2fa' | 'jwt-id' | 'jwt-email';
function kindOf(answer: WireAnswer, reply: FastifyReply): LoginKind | undefined {
  if (answer.url === URL.login) {
    const body = (reply.request.body ?? {}) as Record<string, unknown>;
    return body['2fa'] !== undefined && body['2fa'] !== null && body['2fa'] !== '' ? '2fa' : 'password';
  }
  const claims = claimsOf(reply.request);
  if (!claims) return undefined;
  return claims.id !== undefined ? 'jwt-id' : claims.email !== undefined ? 'jwt-email' : undefined;
}

function untilAnHourLate(kind: LoginKind): Mutation {
  return {
    wire(answer, reply) {
      if (!isSessionAnswer(answer) || kindOf(answer, reply) !== kind) return undefined;
      const body = parse(answer.payload);
      const until = body?.data?.until;
      const split = typeof until === 'string' ? /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z$/.exec(until) : null;
      if (!split) return undefined;
      const later = new Date(Date.parse(`${split[1]}Z`) + 3600_000).toISOString().slice(0, 19);
      body.data.until = `${later}${split[2] ?? ''}Z`;
      return JSON.stringify(body);
    },
  };
}

// --- caches not cleared by a write ------------------------------------------------------------------------------------

/** The unfiltered bank list answered per user from a cache filled by its first 200 and never cleared. */
function bankListCachedPerUser(): Mutation {
  const cache = new Map<string, string>();
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.url !== URL.bankList || answer.status !== 200) return undefined;
      if (Object.values(queryOfReply(reply)).some(given)) return undefined;
      const slot = key(paramsOf(reply).user);
      const cached = cache.get(slot);
      if (cached === undefined) { cache.set(slot, answer.payload); return undefined; }
      return cached === answer.payload ? undefined : cached;
    },
  };
}

/** A bank show answered from a cache of its first 200, kept after the bank's delete (the 404 replaced by the cached 200). */
function bankShowCachedAfterDelete(): Mutation {
  const cache = new Map<string, string>();
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.url !== URL.bankOne) return undefined;
      const slot = `${key(paramsOf(reply).user)} ${key(paramsOf(reply).bank)}`;
      if (answer.status === 200) { cache.set(slot, answer.payload); return undefined; }
      const cached = cache.get(slot);
      if (answer.status !== 404 || cached === undefined) return undefined;
      reply.code(200);
      reply.removeHeader('content-length');
      return cached;
    },
  };
}

/** The bonus summary without its {asset} segment holds its first entry twice. */
function summaryFirstEntryTwice(): Mutation {
  return {
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200 || answer.url !== URL.summary || paramsOf(reply).asset) return undefined;
      const body = parse(answer.payload);
      if (!Array.isArray(body?.data) || body.data.length === 0) return undefined;
      body.data.push(JSON.parse(JSON.stringify(body.data[0])));
      return JSON.stringify(body);
    },
  };
}

/** A reset refused 422 for a password over 191 characters deletes the address's reset token (the retry is refused). */
function resetRefusedLongPasswordSpendsToken(): Mutation {
  const contexts = new WeakMap<object, ReferenceContext>();
  return {
    request(request, ctx) {
      if (ctx && request.method === 'POST' && routeOf(request) === URL.reset) contexts.set(request, ctx);
    },
    wire(answer, reply) {
      if (answer.method !== 'POST' || answer.url !== URL.reset || answer.status !== 422) return undefined;
      const ctx = contexts.get(reply.request);
      const body = (reply.request.body ?? {}) as Record<string, unknown>;
      const errors = parse(answer.payload)?.errors;
      if (!ctx || typeof body.email !== 'string' || typeof body.password !== 'string' || body.password.length <= 191) return undefined;
      if (!errors || typeof errors !== 'object' || !('password' in errors) || 'token' in errors) return undefined;
      ctx.db.prepare('DELETE FROM password_reset_tokens WHERE email = ?').run(body.email);
      return undefined;
    },
  };
}

const FIVE_THREE = '5.2 ("Its id is the bearer token, valid for ttl seconds, until until")';

const written: Mutant[] = [
  // --- each entry once: asset lists and filtered lists ---
  // white-box round wb26
  { name: 'wb26-coin-list-first-coin-twice', clause: '4.8', group: 'balances', description: 'section 4.8 ("200: { data: { coins: [<Balance record>, ...] } }", the user\u2019s balances per asset, 1: "read a user\u2019s balances per asset"): the unfiltered coin list holds its first coin twice (a join over two wallets of one asset)', mutation: firstEntryTwice(URL.coinList, (q) => assetsOf(q).length === 0) },
  // white-box round wb26
  { name: 'wb26-nft-list-first-nft-twice', clause: '4.6', group: 'balances', description: 'section 4.6 (the NFT list, "read a user\u2019s balances per asset"): the unfiltered NFT list holds its first NFT twice', mutation: firstEntryTwice(URL.nftList, (q) => assetsOf(q).length === 0) },
  // white-box round wb26
  { name: 'wb26-coin-filtered-list-first-coin-twice', clause: '4.8', group: 'balances', description: 'section 4.8 (assets[] "asset symbols to return"; balances "per asset"): a coin list under assets[] holds its first coin twice', mutation: firstEntryTwice(URL.coinList, (q) => assetsOf(q).length > 0) },
  // white-box round wb26
  { name: 'wb26-nft-filtered-list-first-nft-twice', clause: '4.6', group: 'balances', description: 'section 4.6 (assets[] "asset symbols to return"; balances "per asset"): an NFT list under assets[] holds its first NFT twice', mutation: firstEntryTwice(URL.nftList, (q) => assetsOf(q).length > 0) },
  // white-box round wb26
  { name: 'wb26-coin-filter-repeated-symbol-listed-twice', clause: '4.8', group: 'balances', description: 'section 4.8 (assets[] "optional, repeatable; asset symbols to return"; balances "per asset"): a coin list whose assets[] names one symbol twice lists that coin twice (one lookup per symbol asked)', mutation: repeatedSymbolListedTwice(URL.coinList) },
  // white-box round wb26
  { name: 'wb26-nft-filter-repeated-symbol-listed-twice', clause: '4.6', group: 'balances', description: 'section 4.6 (assets[] "optional, repeatable; asset symbols to return"): an NFT list whose assets[] names one symbol twice lists that NFT twice', mutation: repeatedSymbolListedTwice(URL.nftList) },
  // white-box round wb26
  { name: 'wb26-banks-currency-filter-lists-twice', clause: '4.10', group: 'banks', description: 'section 4.10 (List "200 { data: [<Bank>] }", the user\u2019s bank accounts; query currency "optional filter"): the bank list under currency holds its first bank twice', mutation: firstEntryTwice(URL.bankList, (q) => filtersGiven(q).length === 1 && given(q.currency)) },
  // white-box round wb26
  { name: 'wb26-cards-platform-filter-lists-twice', clause: '4.6a', group: 'cards', description: 'section 4.6a (List "200 { data: [<Card>] }"; query platform "optional filter"): the card list under platform holds its first card twice (a join over the platform\u2019s codes)', mutation: firstEntryTwice(URL.cardList, (q) => filtersGiven(q).length === 1 && given(q.platform)) },
  // white-box round wb26
  { name: 'wb26-banks-two-filters-list-twice', clause: '4.10', group: 'banks', description: 'section 4.10 (List query "status, currency, company, platform (all optional filters, strings)"): the bank list under two filters or more holds its first bank twice', mutation: firstEntryTwice(URL.bankList, (q) => filtersGiven(q).length >= 2) },
  // white-box round wb26
  { name: 'wb26-cards-two-filters-list-twice', clause: '4.6a', group: 'cards', description: 'section 4.6a (List query "status, company, platform (optional filters, strings)"): the card list under two filters or more holds its first card twice', mutation: firstEntryTwice(URL.cardList, (q) => filtersGiven(q).length >= 2) },
  // white-box round wb26
  { name: 'wb26-bonuses-two-filters-list-twice', clause: '4.11', group: 'bonuses', description: 'section 4.11 (List query status and platform, "200 { data: [<Bonus>] }"): the bonus list under status and platform together holds its first bonus twice', mutation: firstEntryTwice(URL.bonusList, (q) => filtersGiven(q).length >= 2) },

  // white-box round wb26
  { name: 'wb26-summary-first-entry-twice', clause: '4.11', group: 'bonuses', description: 'sections 4.11/2.5b (Asset summary "200 { data: [<Bonus asset summary>] }", "a per-asset bonus summary"): the summary without its {asset} segment holds its first asset\u2019s entry twice', mutation: summaryFirstEntryTwice() },

  // --- a filter narrows ---
  // white-box round wb26
  { name: 'wb26-coin-filter-unknown-beside-known-lists-all', clause: '4.8', group: 'balances', description: 'section 4.8 (assets[] "asset symbols to return"): a coin list whose assets[] names a held coin and a symbol the service does not know answers every coin (the filter dropped when one symbol does not resolve)', mutation: unknownBesideKnownDropsFilter(URL.coinList) },
  // white-box round wb26
  { name: 'wb26-nft-filter-unknown-beside-known-lists-all', clause: '4.6', group: 'balances', description: 'section 4.6 (assets[] "asset symbols to return"): an NFT list whose assets[] names a held NFT and an unknown symbol answers every NFT', mutation: unknownBesideKnownDropsFilter(URL.nftList) },
  // white-box round wb26
  { name: 'wb26-summary-asset-without-bonuses-lists-all', clause: '4.11', group: 'bonuses', description: 'section 4.11 (Asset summary "asset optional path segment (symbol)"): the summary of an {asset} the user has no bonus of answers the entries of every asset the user has bonuses of (the segment dropped when it selects nothing)', mutation: summaryAssetWithoutBonusesListsAll() },

  // --- bank create: value classes ---
  // white-box round wb26
  { name: 'wb26-banks-supranational-currencies-refused', clause: '4.10', group: 'banks', description: 'section 4.10 (currency "alphanumeric, a valid ISO currency code"): a bank in XAF, XCD, XOF or XPF (currencies in use of several countries) is refused with 422 keyed by currency (a list of national currencies)', mutation: bankCreateRefused((body) => (typeof body.currency === 'string' && SUPRANATIONAL.has(body.currency.trim().toUpperCase()) ? ['currency', 'The selected currency is invalid.'] : undefined)) },
  // white-box round wb26
  { name: 'wb26-banks-zero-minor-unit-currencies-refused', clause: '4.10', group: 'banks', description: 'section 4.10 (currency "alphanumeric, a valid ISO currency code"): a bank in a currency without minor units (JPY, KRW, ISK, CLP, VND ...) is refused with 422 keyed by currency (a table of two-decimal currencies)', mutation: bankCreateRefused((body) => (typeof body.currency === 'string' && NO_MINOR_UNITS.has(body.currency.trim().toUpperCase()) ? ['currency', 'The selected currency is invalid.'] : undefined)) },
  // white-box round wb26
  { name: 'wb26-banks-iban-inner-spaces-stripped', clause: '4.10', group: 'banks', description: 'section 4.10 (iban "max 191, alphanumeric, unique"): an IBAN with spaces inside (the print format) is accepted (201) with its spaces removed, where a space is no alphanumeric (422)', mutation: innerSpacesStripped('iban') },
  // white-box round wb26
  { name: 'wb26-banks-swift-inner-spaces-stripped', clause: '4.10', group: 'banks', description: 'section 4.10 (swift "alphanumeric, length 8 to 11"): a swift with a space inside is accepted (201) with the space removed, where a space is no alphanumeric (422)', mutation: innerSpacesStripped('swift') },

  // --- refused creates that store ---
  // white-box round wb26
  { name: 'wb26-banks-refused-swift-length-stored', clause: '4.10', group: 'banks', description: 'section 4.10 (swift "length 8 to 11"; a refused create makes no bank): a bank create with a swift of 7 or 12 characters is answered 422 keyed by swift, after the bank was stored with its swift cut or padded (a validator run after the save)', mutation: refusedButStored('swift', (s) => (/^[A-Za-z0-9]+$/.test(s) && s.length < 8 ? s.padEnd(8, 'X') : /^[A-Za-z0-9]+$/.test(s) && s.length > 11 ? s.slice(0, 11) : undefined), 'The swift field must be between 8 and 11 characters.') },
  // white-box round wb26
  { name: 'wb26-banks-refused-iban-underscore-stored', clause: '4.10', group: 'banks', description: 'section 4.10 (iban "alphanumeric"; a refused create makes no bank): a bank create with an IBAN with an underscore or another non-alphanumeric character is answered 422 keyed by iban, after the bank was stored with that character removed', mutation: refusedButStored('iban', (s) => (s.length <= 191 && /[^A-Za-z0-9]/.test(s.trim()) && /^[A-Za-z0-9]{8,}$/.test(s.trim().replace(/[^A-Za-z0-9]/g, '')) ? s.trim().replace(/[^A-Za-z0-9]/g, '') : undefined), 'The iban field must only contain letters and numbers.') },
  // white-box round wb26
  { name: 'wb26-banks-refused-long-iban-stored-cut', clause: '4.10', group: 'banks', description: 'section 4.10 (iban "max 191"; a refused create makes no bank): a bank create with an IBAN over 191 characters is answered 422 keyed by iban, after the bank was stored with the IBAN cut to 191', mutation: refusedButStored('iban', (s) => (s.length > 191 && /^[A-Za-z0-9]+$/.test(s) ? s.slice(0, 191) : undefined), 'The iban field must not be greater than 191 characters.') },

  // white-box round wb26
  { name: 'wb26-banks-refused-swift-non-alphanumeric-stored', clause: '4.10', group: 'banks', description: 'section 4.10 (swift "alphanumeric, length 8 to 11"; a refused create makes no bank): a bank create with a swift with an underscore, a hyphen or a dot is answered 422 keyed by swift, after the bank was stored with that character removed', mutation: refusedButStored('swift', (s) => (/[^A-Za-z0-9]/.test(s.trim()) && /^[A-Za-z0-9]{8,11}$/.test(s.trim().replace(/[^A-Za-z0-9]/g, '')) ? s.trim().replace(/[^A-Za-z0-9]/g, '') : undefined), 'The swift field must only contain letters and numbers.') },

  // --- a refused reset retried ---
  // white-box round wb26
  { name: 'wb26-reset-refused-long-password-spends-token', clause: '4.4', group: 'password', description: 'section 4.4 (password "min 8, max 191"; "422 when the token is invalid"): a reset refused 422 for a password of 192 characters deletes the e-mailed token, so the retry with a valid password is refused 422 keyed by token', mutation: resetRefusedLongPasswordSpendsToken() },

  // --- sessions ---
  // white-box round wb26
  { name: 'wb26-login-until-an-hour-past-ttl', clause: '2.1', group: 'authentication', description: `sections 2.1/${FIVE_THREE}: a password login\u2019s Session gives an until an hour past created + ttl`, mutation: untilAnHourLate('password') },
  // white-box round wb26
  { name: 'wb26-2fa-login-until-an-hour-past-ttl', clause: '2.1', group: 'authentication', description: `sections 2.1/${FIVE_THREE}: a login with a 2FA code gives an until an hour past created + ttl`, mutation: untilAnHourLate('2fa') },
  // white-box round wb26
  { name: 'wb26-jwt-id-until-an-hour-past-ttl', clause: '2.1', group: 'authentication', description: `sections 2.1/${FIVE_THREE}: a JWT login naming the user by id gives an until an hour past created + ttl`, mutation: untilAnHourLate('jwt-id') },
  // white-box round wb26
  { name: 'wb26-jwt-email-until-an-hour-past-ttl', clause: '2.1', group: 'authentication', description: `sections 2.1/${FIVE_THREE}: a JWT login naming the user by email gives an until an hour past created + ttl`, mutation: untilAnHourLate('jwt-email') },

  // --- caches ---
  // white-box round wb26
  { name: 'wb26-banks-list-cached-per-user', clause: '4.10', group: 'banks', description: 'section 4.10 (create, list, show and delete "a user\u2019s bank accounts"; List "200 { data: [<Bank>] }"): the unfiltered bank list is answered per user from a cache filled by its first read and cleared by neither a create nor a delete', mutation: bankListCachedPerUser() },
  // white-box round wb26
  { name: 'wb26-banks-show-cached-after-delete', clause: '4.10', group: 'banks', description: 'sections 4.10/7 (Delete; bank show "404 no record found"): a bank show read before the bank\u2019s delete answers 200 with the deleted bank afterwards (a show cache a delete does not clear)', mutation: bankShowCachedAfterDelete() },
];

/** The survivors (each analysed in the header): open gaps of the suite, not registered. All five closed after the round (fix-wb26). */
const OPEN = new Set<string>([]);

/**
 * Judged no deviation under every reading after they were written (not registered, not counted), each by a ruling
 * already written:
 * - wb26-coin-filter-repeated-symbol-listed-twice, wb26-nft-filter-repeated-symbol-listed-twice: docs/judging.md, "assets[]
 *   returns the symbols it names": "a repeated symbol listed as often as it is named is advised on, more often fails"
 *   (review-ah F1, allowed-review-ah-coin-filter-repeated-symbol-listed-twice): a service that looks each named symbol up
 *   in turn is a reading; the suite advises on both (seen in the whole-suite run).
 * - wb26-reset-refused-long-password-spends-token: section 4.4 does not say how long a token lives; a refused reset that
 *   spends the token is advised on (suites/password.test.ts, the 7-character retry), and round wb2's twin
 *   (wb2-reset-refused-spends-token) was judged in the review of issue 27 no deviation under every reading.
 */
const NOT_DEVIATIONS = new Set<string>([
  'wb26-coin-filter-repeated-symbol-listed-twice',
  'wb26-nft-filter-repeated-symbol-listed-twice',
  'wb26-reset-refused-long-password-spends-token',
]);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb26Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name) && !NOT_DEVIATIONS.has(mutant.name));

/** The mutants of the round judged no deviation under every reading (not registered). */
export const roundWb26NotDeviations: Mutant[] = written.filter((mutant) => NOT_DEVIATIONS.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb26OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));

/** Every mutant of the round. */
export const roundWb26Written: readonly Mutant[] = written;

