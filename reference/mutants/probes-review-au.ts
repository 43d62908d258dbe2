import type { Mutant } from './types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Database from 'better-sqlite3';
import type { Mutation, WireAnswer } from '../mutation.js';
import { ALL, holderNamesEmbossed, isSessionAnswer, judgedDeviations, only, parse, reading, recordsOf } from './reading.js';
import { BANK, BANKS, BONUSES, COINS, NFTS } from './routes.js';

/**
 * review-au (issue 28, "fair to the readings nobody listed"): a read-only fairness review of the newest fixes (6cac814,
 * review-at fixes), helpers/arrange/invariants.ts listInvariantChecks after its assets[] part, filteredFieldsCheck,
 * sharedAssetCheck, ownerQueryAssetCheck, the JWT tests of suites/authentication.test.ts and the meta comparisons of
 * suites/balances.test.ts. Each allowed-* probe takes one choice the text leaves open, the other way from the
 * reference; each description quotes the text that leaves the point open. Verdicts (bin/mutants.mjs --shards 1
 * --mutant NAME for the suites; bin/conformance.mjs explore --mutant NAME --group cards --runs 400 --seed 1 for the
 * properties of `conformance explore`), 2026-11-28:
 * - F1 allowed-review-au-bank-platform-filter-typed-uuid-400: REFUSED, two tests (helpers/arrange/invariants.ts:1930
 *   filteredFieldsCheck expectStatus [200, 422]: "expected 200, got 400" for platform=REF; :1793 filteredRound, a pair
 *   of filters, expectStatus 200, for status=CONFIRMED&company=REF), where expectFilteredList advises on a typed binder's
 *   400 in JSON (review-as F1). Its twin allowed-review-au-bank-platform-filter-typed-uuid-400-before-authorization
 *   (binding before @PreAuthorize): REFUSED, six tests, the four more through judgeFilteredRefusal (:174, used at :1034,
 *   another user's list under a filter, "expected 403 or 409, got 400", and :1205, an inactive account's, "expected 403,
 *   got 400"), which takes a filter's 422 beside the other fault and not its 400.
 * - F2 allowed-review-au-bonus-filtered-list-masks-email-otherwise: REFUSED, one test (invariants.ts:1970
 *   filteredFieldsCheck, bonus list under a filter: user.email masked otherwise), where roundTripChecks advises on two
 *   masks of one value between show and list (review-ao F5).
 * - F3 allowed-review-au-balances-unfiltered-list-meta-summary: REFUSED, three tests (invariants.ts:1970 for the coin and
 *   NFT lists: meta compared whole, LISTS underFilter; suites/balances.test.ts:754, the genesis_date test: "the coin
 *   list's XRP carries a genesis date (provider state balances says so), so meta.genesis_date must be a date string;
 *   got undefined"), where the show check compares meta only member by member where both reads carry it non-empty.
 *   Its twin allowed-review-au-balances-unfiltered-list-summary-descriptions: REFUSED, three tests (invariants.ts:1970
 *   for both lists, and :2044 sharedAssetCheck, which reports the filtered entry as not "that user's own balances").
 * - F4 allowed-review-au-bank-delete-not-found-framework-body: REFUSED, five tests (suites/banks.test.ts:1268 and
 *   helpers/arrange/invariants.ts:809 and :2565 expectSchema 'error-message' on a delete's 404: "/message (required)").
 * - F5 allowed-review-au-card-holder-embossed-icao-9303: suites conformant (a pin); explore fails 'holderName, alias and
 *   lastFourDigits inside the rules ... stored as sent' ("holderName must be stored as sent": a sent ü stored UE):
 *   helpers/spec/normalisation.ts transliteratedAlike takes the marks off (NFKD) before its table, so ICAO 9303's
 *   AE/OE/UE/AA, and its own table's й as Y and ё as YO, are never reachable.
 */

/**
 * ICAO Doc 9303 Part 3 (machine-readable travel documents), "Transliterations recommended for use by States": what a
 * card issuer that embosses a holder's name as a passport prints it writes, in capitals. Its Latin table writes
 * Ä as AE, Ö as OE, Ü as UE, Å as AA (and Æ AE, Ø OE, ß SS, Þ TH, Œ OE); its Cyrillic table Ж ZH, Х KH, Ц TS, Ч CH, Ш SH,
 * Щ SHCH, Ю IU, Я IA, Й I; other letters with marks lose them (compatibility characters folded, NFKD), and what the
 * embossing set cannot print (a letter of another script, an emoji) is left out.
 */
const ICAO_MARKED: Readonly<Record<string, string>> = { '\u00e4': 'ae', '\u00f6': 'oe', '\u00fc': 'ue', '\u00e5': 'aa' };
const ICAO_OF: Readonly<Record<string, string>> = {
  '\u00e6': 'ae', '\u00f8': 'oe', '\u00df': 'ss', '\u00fe': 'th', '\u0153': 'oe', '\u00f0': 'd', '\u0142': 'l', '\u0111': 'd', '\u0127': 'h', '\u014b': 'n', '\u0131': 'i',
  '\u0430': 'a', '\u0431': 'b', '\u0432': 'v', '\u0433': 'g', '\u0434': 'd', '\u0435': 'e', '\u0436': 'zh', '\u0437': 'z', '\u0438': 'i', '\u043a': 'k', '\u043b': 'l',
  '\u043c': 'm', '\u043d': 'n', '\u043e': 'o', '\u043f': 'p', '\u0440': 'r', '\u0441': 's', '\u0442': 't', '\u0443': 'u', '\u0444': 'f', '\u0445': 'kh', '\u0446': 'ts',
  '\u0447': 'ch', '\u0448': 'sh', '\u0449': 'shch', '\u044a': 'ie', '\u044b': 'y', '\u044c': '', '\u044d': 'e', '\u044e': 'iu', '\u044f': 'ia',
  '\u03b1': 'a', '\u03b2': 'v', '\u03b3': 'g', '\u03b4': 'd', '\u03b5': 'e', '\u03b6': 'z', '\u03b7': 'i', '\u03b8': 'th', '\u03b9': 'i', '\u03ba': 'k', '\u03bb': 'l',
  '\u03bc': 'm', '\u03bd': 'n', '\u03be': 'x', '\u03bf': 'o', '\u03c0': 'p', '\u03c1': 'r', '\u03c2': 's', '\u03c3': 's', '\u03c4': 't', '\u03c5': 'y', '\u03c6': 'f',
  '\u03c7': 'ch', '\u03c8': 'ps', '\u03c9': 'o',
};
const icaoEmbossed = (name: string): string =>
  [...[...name.normalize('NFC').toLowerCase()].map((c) => ICAO_MARKED[c] ?? c).join('').normalize('NFKD').replace(/\p{M}+/gu, '')]
    .map((c) => ICAO_OF[c] ?? c)
    .join('')
    .replace(/[^\x20-\x7e]/gu, '')
    .toUpperCase();

/**
 * The bonus list, when asked with a filter (status, platform), masks each bonus's user e-mail as the show of
 * allowed-review-ao-bonus-show-masks-email-otherwise does (the first letter of the local part and the whole domain),
 * where the unfiltered list keeps two letters of each part: a filtered list rendered by another resource (a search
 * endpoint's serializer) with its own mask.
 */
function filteredBonusListMasksEmailOtherwise(): Mutation {
  let db: Database.Database | undefined;
  return {
    request(_request, ctx) {
      if (ctx) db = ctx.db;
    },
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.status !== 200 || answer.method !== 'GET' || answer.url !== BONUSES || !db) return undefined;
      const query = (reply.request.query ?? {}) as Record<string, unknown>;
      if (query.status === undefined && query.platform === undefined) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      let changed = false;
      for (const record of recordsOf(body)) {
        const user = record?.user;
        if (!user || typeof user.id !== 'string') continue;
        const row = db.prepare('SELECT email FROM users WHERE id = ?').get(user.id) as { email: string } | undefined;
        const at = row ? row.email.lastIndexOf('@') : -1;
        if (!row || at < 1) continue;
        const local = row.email.slice(0, at);
        user.email = `${local[0]}${'*'.repeat(Math.max(3, local.length - 1))}${row.email.slice(at)}`;
        changed = true;
      }
      return changed ? JSON.stringify(body) : undefined;
    },
  };
}

const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();

/**
 * allowed-r12-login-reuses-live-token (one token per user, a login answers the user's live Session again) together with
 * allowed-session-ttl-remaining-seconds (ttl the whole seconds the session has left when answered): a login that reuses
 * the live token answers its `created` and `until` as they are and `ttl` as the seconds left now.
 */
function reusedTokenTtlRemaining(): Mutation {
  const live = new Map<string, any>();
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.url === '/api/v1/user/logout' && answer.status === 200) {
        const token = bearerOf(reply.request);
        for (const [user, session] of live) if (session.id === token) live.delete(user);
        return undefined;
      }
      if (!isSessionAnswer(answer)) return undefined;
      const body = parse(answer.payload);
      const session = body?.data;
      if (typeof session?.userId !== 'string' || typeof session.id !== 'string') return undefined;
      const earlier = live.get(session.userId);
      if (earlier && Date.parse(earlier.until) > Date.now() + 1000) {
        body.data = { ...earlier, ttl: Math.floor((Date.parse(earlier.until) - Date.now()) / 1000) };
        return JSON.stringify(body);
      }
      live.set(session.userId, session);
      return undefined;
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const written: Mutant[] = [
  // helpers/check/filters.ts expectFilteredList takes a typed binder's 400 in JSON as it takes a 422 (review-as F1), and
  // docs/judging.md allows `company` and `platform` as a platform's ID (allowed-bank-list-platform-filter-by-id: a code
  // is then unknown, 422). A filter bound to the ID's type (Spring: `@RequestParam(required = false) UUID platform`)
  // refuses a value that is no UUID before any lookup, 400. helpers/arrange/invariants.ts filteredFieldsCheck takes
  // [200, 422] only, and filteredRound's pairs of filters 422 only.
  reading(
    'allowed-review-au-bank-platform-filter-typed-uuid-400',
    'banks',
    '4.10',
    'the bank list binds company and platform to a platform ID of type UUID (4.1 calls `{platform}` "the platform ID"): a value that is no UUID (a platform code, a name, a bank name) is refused 400 { message } by the query binder before any lookup, a UUID naming no platform 422 keyed by the filter (4.10: "status, currency, company, platform (all optional filters, strings)"; what a value the service cannot read gets is not said, and the list\u2019s errors are 401, 403 and 409)',
    {
      deviation: 'banks.platform-filter-by-id',
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || answer.url !== BANKS || answer.status !== 422) return undefined;
        const query = (reply.request.query ?? {}) as Record<string, unknown>;
        const bad = ['platform', 'company'].find((name) => query[name] !== undefined && !(typeof query[name] === 'string' && UUID.test(query[name] as string)));
        if (bad === undefined) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Failed to convert value of type 'java.lang.String' to required type 'java.util.UUID'; Invalid UUID string: ${String(query[bad])}`, parameter: bad });
      },
    },
    only('banks'),
  ),
  // 2.2: meta "May be empty", description "may be an empty object", without saying when; suites/balances.test.ts compares
  // show and list meta member by member only where both carry a member non-empty (round wb22), and
  // allowed-r14-lists-summary-descriptions lets a list give summaries. A list that answers assets[] by looking each named
  // symbol up in turn (the service review-ah F1 describes) gives the filtered entries the show's full records, while the
  // unfiltered list gives summaries. helpers/arrange/invariants.ts filteredFieldsCheck compares `meta` whole between the
  // filtered and the unfiltered list (LISTS underFilter: ['meta']).
  reading(
    'allowed-review-au-balances-unfiltered-list-meta-summary',
    'balances',
    '2.2',
    'the unfiltered coin and NFT lists give each record a summary whose `meta` is the empty object; a list filtered by assets[] (each named symbol looked up as the show looks it up) and the show give the full meta (2.2: "meta | object | May be empty"; 4.6 and 4.8 give the lists records of the same type, and nothing says when meta is empty or that a list filtered by assets[] writes a record as the unfiltered one does)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || (answer.url !== COINS && answer.url !== NFTS) || answer.status !== 200) return undefined;
        const query = (reply.request.query ?? {}) as Record<string, unknown>;
        if (query['assets[]'] !== undefined || query.assets !== undefined) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        const records = recordsOf(body).filter((record) => record?.meta && typeof record.meta === 'object' && Object.keys(record.meta).length > 0);
        if (records.length === 0) return undefined;
        for (const record of records) record.meta = {};
        return JSON.stringify(body);
      },
    },
    only('balances'),
  ),
  // The same summary reading with the description (allowed-r14-lists-summary-descriptions gives every list, filtered or
  // not, the empty description; the show check advises on one read's empty description either way, review-ah F2):
  // filteredFieldsCheck compares `description` (ASSET_STABLE) exactly between the filtered and the unfiltered list.
  reading(
    'allowed-review-au-balances-unfiltered-list-summary-descriptions',
    'balances',
    '2.2',
    'the unfiltered coin and NFT lists give each record a summary whose `description` is the empty object (as allowed-r14-lists-summary-descriptions); a list filtered by assets[] (each named symbol looked up as the show looks it up) and the show give the full text (2.2: "description | object | Map from language code ... to text; may be an empty object"; nothing says when, nor that a list filtered by assets[] writes a record as the unfiltered one does)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || (answer.url !== COINS && answer.url !== NFTS) || answer.status !== 200) return undefined;
        const query = (reply.request.query ?? {}) as Record<string, unknown>;
        if (query['assets[]'] !== undefined || query.assets !== undefined) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        const records = recordsOf(body).filter((record) => record?.description && typeof record.description === 'object' && Object.keys(record.description).length > 0);
        if (records.length === 0) return undefined;
        for (const record of records) record.description = {};
        return JSON.stringify(body);
      },
    },
    only('balances'),
  ),
  // helpers/spec/normalisation.ts transliteratedAlike (review-at F1) takes the marks off first (NFKD), so a letter with a
  // mark has one Latin writing only, its base letter: ICAO 9303's AE, OE, UE and AA for Ä, Ö, Ü and Å are another text
  // to it (as Laravel's Str::ascii($name, 'de') and a German issuer write "Müller" as MUELLER). The suites send no such
  // letter in a holderName (a pin there); conformance explore's holderName property does (its Latin-1 range).
  reading(
    'allowed-review-au-card-holder-embossed-icao-9303',
    'cards',
    '2.5',
    'a card\u2019s holderName is stored as it is embossed, in the Latin capitals of ICAO Doc 9303 Part 3\u2019s transliteration table ("M\u00fcller" as MUELLER, "\u00c5se" as AASE, "\u00f8" as OE, "\u0436" as ZH, "\u00e1" as A), validated as sent (2.5: holderName "string"; no clause says a record repeats the letters sent; docs/judging.md lists "for an embossed holderName transliteration to Latin letters" as storage normalisation)',
    holderNamesEmbossed(icaoEmbossed),
    only('cards'),
  ),
  // helpers/arrange/invariants.ts roundTripChecks advises on two masks of one value between a bonus's show and its list
  // (review-ao F5: 2.6 says neither which characters a mask keeps nor that every read keeps the same ones);
  // filteredFieldsCheck compares the bonus's user member by member between the filtered and the unfiltered list, masks
  // included, and fails them.
  reading(
    'allowed-review-au-bonus-filtered-list-masks-email-otherwise',
    'bonuses',
    '2.6',
    'the bonus list asked with a filter (status, platform) masks its bonuses\u2019 user e-mail with another mask than the unfiltered list (the first letter of the local part and the whole domain, j*****@example.com, where the unfiltered list keeps two letters of each part): each the user\u2019s e-mail "partially replaced with asterisks" (2.6: "email | string, masked by the service (partially replaced with asterisks)": which characters a mask keeps is not given, nor that every read keeps the same ones; allowed-review-ao-bonus-show-masks-email-otherwise)',
    filteredBonusListMasksEmailOtherwise(),
    only('bonuses'),
  ),
  // The same binder as Spring runs it: the security filter chain first (no valid token: 401), then the query's binding
  // (400), then the controller's @PreAuthorize and the account checks (403, 409) and the lookup (422). So another user's
  // {user} or an inactive account asked with a platform code is answered 400, as the caller's own list is.
  reading(
    'allowed-review-au-bank-platform-filter-typed-uuid-400-before-authorization',
    'banks',
    '4.10',
    'the bank list binds company and platform to a platform ID of type UUID, the binding made after authentication and before authorization (Spring: the security filter chain, then @RequestParam UUID platform, then @PreAuthorize): a value that is no UUID is refused 400 { message } whatever the {user}, a valid token still required (401 first); a UUID naming no platform 422 keyed by the filter (4.10: "status, currency, company, platform (all optional filters, strings)"; what a value the service cannot read gets is not said; sections 5 and 7 give no precedence between a malformed query and an unauthorized action)',
    {
      deviation: 'banks.platform-filter-by-id',
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || answer.url !== BANKS || answer.status === 401 || answer.status >= 500) return undefined;
        const query = (reply.request.query ?? {}) as Record<string, unknown>;
        const bad = ['platform', 'company'].find((name) => query[name] !== undefined && !(typeof query[name] === 'string' && UUID.test(query[name] as string)));
        if (bad === undefined) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Failed to convert value of type 'java.lang.String' to required type 'java.util.UUID'; Invalid UUID string: ${String(query[bad])}`, parameter: bad });
      },
    },
    only('banks'),
  ),
  // review-at F5 (6cac814) lets a delete's undocumented 404 keep its own message, but still holds it to `{ message }`
  // (suites/banks.test.ts:1268, helpers/arrange/invariants.ts:809 expectSchema 'error-message'). Section 7 gives
  // `{ message }` to "most other errors", not to all, and 4.10 lists no 404 for delete at all; a framework's default
  // error body for a 404 it raises itself (Spring Boot's BasicErrorController) carries `error`, not `message`.
  reading(
    'allowed-review-au-bank-delete-not-found-framework-body',
    'banks',
    '4.10',
    'a delete of a bank that is none of the caller\u2019s answers 404 with the framework\u2019s default error body { timestamp, status: 404, error: "Not Found", path } (Spring Boot\u2019s BasicErrorController, a ResponseStatusException(NOT_FOUND) from a scoped lookup), the bank kept (4.10: delete errors 401, 403, 409, no 404; section 7: "{ message: string } for most other errors", not all, and no format for an undocumented status)',
    {
      deviation: 'banks.foreign-delete-not-found',
      wire(answer: WireAnswer, _reply: FastifyReply) {
        if (answer.method !== 'DELETE' || answer.url !== BANK || answer.status !== 404) return undefined;
        return JSON.stringify({ timestamp: new Date().toISOString(), status: 404, error: 'Not Found', path: '/api/v1/user/bank' });
      },
    },
    only('banks'),
  ),
  // Two allowed readings together: suites/authentication.test.ts:151 (expectSession) holds until to created + ttl within
  // 2 s, which a reused token whose ttl counts what is left breaks by the time since its creation.
  reading(
    'allowed-review-au-login-reuses-live-token-ttl-remaining',
    'authentication',
    '2.1',
    'one token per user (a login of an account with a live session answers that Session again: allowed-r12-login-reuses-live-token) and ttl the seconds the session has left when answered (allowed-session-ttl-remaining-seconds): a reused Session keeps its created and until and answers ttl as what is left (2.1: "ttl | integer | Lifetime in seconds", "until | expiry", "created | creation"; 5.2: "valid for ttl seconds, until until"; nothing says each login issues a token of its own, nor whether ttl counts from creation or from the answer)',
    reusedTokenTtlRemaining(),
    ALL,
  ),
];

/**
 * F3 ruled deviations by the lead: the unfiltered and the filtered list are one route and one representation, so a
 * filter narrows which entries the list holds, never what it says of them (docs/judging.md, "A filter narrows, never
 * rewrites"; the ruling of round wb10, whose deviations give the filtered list an empty meta). 2.2's "may be empty"
 * lets a ROUTE give an empty meta or description (the lists' summaries beside the show's full text:
 * allowed-r14-lists-summary-descriptions, judged so between show and list), not one read of the list differ from
 * another. Registered as deviations the suite kills.
 */
const RULED_DEVIATIONS = new Set(['allowed-review-au-balances-unfiltered-list-meta-summary', 'allowed-review-au-balances-unfiltered-list-summary-descriptions']);

export const probesReviewAuMutants: readonly Mutant[] = [
  ...written.filter((mutant) => !RULED_DEVIATIONS.has(mutant.name)),
  ...judgedDeviations(
    written.filter((mutant) => RULED_DEVIATIONS.has(mutant.name)),
    ': one list route gives one representation, filtered or not; a filter narrows which entries it holds, never what they say (the lead\u2019s ruling on review-au F3, after round wb10)',
  ),
];
