import type { Mutant } from './types.js';
import type { FastifyReply } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import { answerWith, holderNamesEmbossed, onParsedBody, only, parse, reading, recordsOf, routeOf } from './reading.js';
import { findUserByEmail, passwordMatches } from '../modules/authentication.js';
import { AUTH, BANK, COINS, NFTS } from './routes.js';

/**
 * review-at (issue 28, "fair to the readings nobody listed"): a read-only fairness review of the newest fixes (eb6c1d6,
 * bdbb526), helpers/arrange/invariants.ts from the logged-out rows of accessRowsCheck on, otherLoginKindChecks, explore/,
 * suites/authentication.test.ts and suites/balances.test.ts. Each allowed-* probe takes one choice the text leaves open,
 * the other way from the reference; each description quotes the text that leaves the point open. Verdicts
 * (bin/mutants.mjs --shards 1 --mutant NAME for the suites; bin/conformance.mjs explore --mutant NAME --runs 20 --seed 1
 * for the properties of `conformance explore`), 2026-11-28:
 * - F1 allowed-review-at-card-holder-embossed-ascii: REFUSED, one test (suites/cards.test.ts:563 'answers 201 for a
 *   holderName of two words and an alias of 191 characters each, two-byte ...', helpers/check/stored.ts:18: "holderName
 *   must be the value sent (ŋæøðþ...) up to ... transliteration to Latin letters"); explore fails 'holderName, alias and
 *   lastFourDigits inside the rules ... stored as sent' on its first example. normalisation.ts writings() transliterates
 *   by taking the marks off only, and the suite's TWO_BYTE_LETTERS are chosen to have none.
 * - F2 allowed-review-at-bank-delete-not-found-own-message: REFUSED, four tests (suites/banks.test.ts:1266 via
 *   expectNotFound; helpers/arrange/invariants.ts:810 in three access tables): "the 404 ... must say \"no query results\"".
 * - F3 allowed-review-at-login-2fa-format-after-credentials: suites conformant (a pin); explore fails 'a 2fa code that is
 *   not exactly 6 digits is refused with 422 keyed by 2fa' (counterexample "0": 403).
 * - F5 allowed-review-at-assets-repeated-400: REFUSED, two tests (helpers/arrange/invariants.ts:1408 listInvariantChecks,
 *   'GET .../balances holds each asset once' and its NFT twin: "expected 200, got 400"); explore's assets[] property
 *   advises on it, as docs/judging.md ("assets[] returns the symbols it names") allows another client error.
 * - F6 allowed-review-at-assets-symbol-not-of-kind-404: REFUSED, two tests (suites/balances.test.ts:545 and :777, 'lists
 *   the NFT and none of the coin when assets[] names a coin and an NFT ...' and its coin twin: expectStatus [200, 422],
 *   "expected 200 or 422, got 404"), while their rulesOnEveryBranch says "another refusal is advised on" and the
 *   unknown-symbol check (:68) advises on the same 404; every other balances test conformant.
 * - F4 (no new probe): explore/paths.ts filtersProperty fails review-as's allowed-review-as-bank-currency-filter-typed-400
 *   (counterexample currency="": "must answer 200; got 400") and allowed-review-as-card-status-filter-enum-400 (status="").
 */

/**
 * Latin letters without a canonical decomposition, Greek and Cyrillic written in ASCII as Laravel's Str::ascii()
 * (voku/portable-ascii) and Python's unidecode write them (ICAO 9303's table agrees but for its OE for Ø): what an
 * issuer embosses, the ISO/IEC 7811 set of capitals. Letters with marks lose them (NFD, marks removed); other
 * characters are kept.
 */
const ASCII_OF: Readonly<Record<string, string>> = {
  '\u00e6': 'ae', '\u00c6': 'AE', '\u00f8': 'o', '\u00d8': 'O', '\u00f0': 'd', '\u00d0': 'D', '\u00fe': 'th', '\u00de': 'TH',
  '\u0142': 'l', '\u0141': 'L', '\u0111': 'd', '\u0110': 'D', '\u0127': 'h', '\u0126': 'H', '\u014b': 'n', '\u014a': 'N',
  '\u0153': 'oe', '\u0152': 'OE', '\u00df': 'ss', '\u0131': 'i',
  '\u0436': 'zh', '\u0416': 'ZH', '\u043c': 'm', '\u043e': 'o', '\u044f': 'ia', '\u043a': 'k', '\u0430': 'a', '\u0440': 'r', '\u0442': 't',
  '\u03bb': 'l', '\u039b': 'L',
};
const embossed = (name: string): string => [...name.normalize('NFD').replace(/\p{M}+/gu, '')].map((c) => ASCII_OF[c] ?? c).join('').toUpperCase();

const written: Mutant[] = [
  // explore/authentication.explore.ts 'a 2fa code that is not exactly 6 digits is refused with 422 keyed by 2fa' sends an
  // unknown e-mail and a wrong password with the malformed code: two faults, wrong credentials (403) and the 2fa format
  // (422). The fixed rows (suites/authentication.test.ts:591-603, :1152) send the account's own credentials, one fault.
  // A two-step login (the password step first, then the second factor's form request, as Laravel Fortify's
  // TwoFactorLoginRequest validates `code` only once the password step passed) answers the first fault it meets: 403.
  reading(
    'allowed-review-at-login-2fa-format-after-credentials',
    'authentication',
    '4.2',
    'a login checks e-mail and password first and validates the 2fa code (422 keyed by 2fa) only once they are right: wrong credentials with a malformed 2fa code answer 403 (4.2: "2fa | string | no | exactly 6 digits", errors 401, 403, 423, 425; section 8 enforces the 2fa limit as 422; which of two faults wins is not given, docs/judging.md "Precedence of errors"), the right credentials with a malformed code still 422 keyed by 2fa',
    {
      request(request, ctx) {
        if (request.method !== 'POST' || routeOf(request) !== AUTH || !ctx) return;
        onParsedBody(request, (body) => {
          const code = body['2fa'];
          if (typeof code !== 'string' || code === '' || /^[0-9]{6}$/.test(code)) return;
          const user = typeof body.email === 'string' ? findUserByEmail(ctx, body.email) : undefined;
          const right = user !== undefined && typeof body.password === 'string' && passwordMatches(body.password, user.password_hash);
          if (!right) delete body['2fa'];
        });
      },
    },
    only('authentication'),
  ),
  // docs/judging.md, "Storage normalisation": "... and for an embossed `holderName` transliteration to Latin letters";
  // helpers/spec/normalisation.ts writings() takes only the marks off (NFD), so a letter without a decomposition (the
  // suite's own TWO_BYTE_LETTERS 'ŋæøðþłđħжλ', chosen for having none) written in Latin is another text to it.
  reading(
    'allowed-review-at-card-holder-embossed-ascii',
    'cards',
    '2.5',
    'a card\u2019s holderName is stored as it is embossed, transliterated to Latin capitals (Laravel\u2019s Str::upper(Str::ascii($name)), as an issuer embosses in the ISO/IEC 7811 set: "\u00f8" as O, "\u00e6" as AE, "\u0436" as ZH, "\u00e1" as A), validated as sent (2.5: holderName "string"; no clause says a record repeats the letters sent; docs/judging.md lists "for an embossed holderName transliteration to Latin letters" as storage normalisation)',
    holderNamesEmbossed(embossed),
    only('cards'),
  ),
  // Section 7 gives the 404 "no record found (message: no query results)" to bank show, bonus show and card show; 4.10
  // lists no 404 for delete at all (401, 403, 409). A delete written as a scoped query (Laravel:
  // `$user->banks()->whereKey($id)->delete() ?: abort(404, 'Bank not found.')`, where the show's route-model binding
  // throws ModelNotFoundException, "No query results for model ...") answers a bank that is none of the user's 404 with
  // its own message. helpers/arrange/invariants.ts:810 and suites/banks.test.ts:1266 take the delete's 404 but hold it
  // to the show's message; recordIdChecks (invariants.ts:2552) takes a delete's 404 with any message.
  reading(
    'allowed-review-at-bank-delete-not-found-own-message',
    'banks',
    '4.10',
    'a delete of a bank that is none of the caller\u2019s (another user\u2019s bank under the caller\u2019s own id, an id that names no bank) answers 404 { message: "Bank not found." }, the bank kept (4.10: delete errors 401, 403, 409, no 404; section 7 gives "no query results" as the 404 message of bank show, bonus show and card show only)',
    {
      deviation: 'banks.foreign-delete-not-found',
      wire(answer: WireAnswer, _reply: FastifyReply) {
        if (answer.method !== 'DELETE' || answer.url !== BANK || answer.status !== 404) return undefined;
        return JSON.stringify({ message: 'Bank not found.' });
      },
    },
    only('banks'),
  ),
  // docs/judging.md ("assets[] returns the symbols it names"): a repeated symbol "may also be refused, 422 keyed by the
  // item ... or another client error but 401, 403 and 409: advised on", as explore/balances.explore.ts takes it; the
  // list invariant (helpers/arrange/invariants.ts:1408, listInvariantChecks) takes 200 or 422 only.
  reading(
    'allowed-review-at-assets-repeated-400',
    'balances',
    '4.8',
    'a balance list whose assets[] names one symbol twice is refused 400 { message } by a strict OpenAPI request validator, its document giving the parameter `uniqueItems: true` (express-openapi-validator: "request/query/assets[] must NOT have duplicate items") (4.6 and 4.8: "assets[] (optional, repeatable; asset symbols to return)": the key repeats; whether a value may is not given, and neither list documents a 4xx for its query)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || (answer.url !== COINS && answer.url !== NFTS) || answer.status !== 200) return undefined;
        const query = (reply.request.query ?? {}) as Record<string, unknown>;
        const raw = query['assets[]'] ?? query.assets;
        if (!Array.isArray(raw) || new Set(raw).size === raw.length) return undefined;
        const at = raw.findIndex((value, i) => raw.indexOf(value) !== i);
        return answerWith(reply, 400, { message: `request/query/assets[] must NOT have duplicate items (items ## ${raw.indexOf(raw[at])} and ${at} are identical)`, errors: [{ path: '.query.assets[]', message: 'must NOT have duplicate items' }] });
      },
    },
    only('balances'),
  ),
  // suites/balances.test.ts:545 and :777 (a coin and an NFT named on one list) take 200 or 422 only, where their own
  // rulesOnEveryBranch says "another refusal is advised on", and where expectHeldBesideUnknown (:68) advises on any
  // client error but 401, 403 and 409 for a symbol the platform does not know. A service that looks each named symbol up
  // among the list's own kind (Laravel: `Coin::where('symbol', $s)->firstOrFail()` per item) answers a symbol of the other
  // kind as it answers an unknown one: 404 "No query results".
  reading(
    'allowed-review-at-assets-symbol-not-of-kind-404',
    'balances',
    '4.8',
    'a balance list whose assets[] names a symbol that is none of the list\u2019s records (an unknown symbol, a symbol of the other kind, a cut one) answers 404 { message: "No query results for model [App\\Models\\Asset] <symbol>" }, each named symbol looked up among the list\u2019s kind (4.6 and 4.8: "assets[] (optional, repeatable; asset symbols to return)"; what a symbol the list does not hold gets is not said, and neither list documents a 4xx for its query)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || (answer.url !== COINS && answer.url !== NFTS) || answer.status !== 200) return undefined;
        const query = (reply.request.query ?? {}) as Record<string, unknown>;
        const raw = query['assets[]'] ?? query.assets;
        const named = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
        if (named.length === 0) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        const listed = new Set(recordsOf(body).map((record: any) => String(record?.symbol).toLowerCase()));
        const missing = named.find((symbol) => !listed.has(symbol.toLowerCase()));
        if (missing === undefined) return undefined;
        return answerWith(reply, 404, { message: `No query results for model [App\\Models\\Asset] ${missing}` });
      },
    },
    only('balances'),
  ),
];

export const probesReviewAtMutants: readonly Mutant[] = written;
