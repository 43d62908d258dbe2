import type { FastifyReply } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { only, parse, reading, recordsOf, routeOf } from './reading.js';
import { BANKS, BONUS, BONUSES, CARDS, SUMMARY } from './routes.js';

/**
 * review-as (issue 28, "fair to the readings nobody listed"): the last read-only fairness review of the session, over
 * the newest fixes (3966c60, d8966b6, 3278e8e), helpers/arrange/invariants.ts and suites/bonuses.test.ts. Each allowed-*
 * probe takes one choice the text leaves open, the other way from the reference; each description quotes the text that
 * leaves the point open. Verdicts (bin/mutants.mjs --shards 1 --mutant NAME, and conformance run --mutant NAME --group G,
 * 2026-11-28):
 * - F1 allowed-review-as-bonus-status-filter-enum-400: REFUSED, one test (suites/bonuses.test.ts:527 'answers a status
 *   outside distributed, pending and canceled': "expected 200, got 400", from helpers/check/filters.ts:26
 *   expectFilteredList, which takes 200 or 422 only). Its twins allowed-review-as-card-status-filter-enum-400 (REFUSED:
 *   suites/cards.test.ts:975, NO-SUCH-... status) and allowed-review-as-bank-status-filter-enum-400 (REFUSED:
 *   suites/banks.test.ts:844, NO_SUCH_STATUS), and allowed-review-as-bank-currency-filter-typed-400 (REFUSED, two tests:
 *   banks.test.ts:939 'lists none of another user's banks under a filter that bank matches' for currency=978, and the
 *   advisory-only test banks.test.ts:781 for currency=EU, "expected a flow of steps, got 400").
 * - F2 allowed-review-as-card-status-filter-takes-stored-title-case, allowed-review-as-bank-status-filter-takes-stored-
 *   title-case: REFUSED, one test each (helpers/arrange/invariants.ts:2725 pastAPageCheck 'holds every record of a user
 *   who has 31 ...': status=CONFIRMED "misses 31 of them"): it asks [status, upper, lower], not filterWritings (review-ar
 *   F3 added the title case there only).
 * - F3 allowed-review-as-summary-unknown-asset-zero-entry-lower-case: REFUSED, one test (suites/bonuses.test.ts:328
 *   'answers an asset the user has no bonus in with no other asset': "must hold only that asset; it holds
 *   nobonusasset"), where its twin (:355, the symbol cut by one character) compares in any letter case.
 * - pin, conformant: allowed-review-as-order-life-seconds-remaining (a payment countdown moving between every two reads).
 */

/**
 * A records list whose `status` filter is bound to a Java enum of upper-case constants (Spring's
 * `@RequestParam(required = false) CardStatus status`; Enum.valueOf is letter-case exact): a value no constant has is
 * refused 400 { message } before the lookup (MethodArgumentTypeMismatchException).
 */
function statusFilterEnum400(route: string, type: string): Mutation {
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.method !== 'GET' || answer.url !== route) return undefined;
      const status = ((reply.request.query ?? {}) as Record<string, unknown>).status;
      if (status === undefined || (typeof status === 'string' && ['CONFIRMED', 'PENDING', 'REJECTED', 'DELETED'].includes(status))) return undefined;
      if (answer.status !== 200 && answer.status !== 422) return undefined;
      reply.code(400);
      return JSON.stringify({ message: `Failed to convert value of type 'java.lang.String' to required type '${type}'; No enum constant ${type}.${String(status)}` });
    },
  };
}

/** The answers of the countdown reading so far (allowed-review-as-order-life-seconds-remaining). */
let reads = 0;

/**
 * review-ar F3 without its validation: a status stored in title case (`Confirmed`: a Rails/Django choices label, a
 * database enum written so) and shown upper-case (`CONFIRMED`), the status filter compared letter for letter with the
 * stored value (`where status = ?`, as allowed-review-y-bank-status-filter-takes-stored-lower-case does with the lower
 * case): status=Confirmed lists the records, any other writing lists none (200, an empty list; no 422).
 */
function statusFilterTakesStoredTitleCase(route: string): Mutation {
  return {
    request(request) {
      if (request.method !== 'GET' || routeOf(request) !== route) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      if (typeof query.status !== 'string') return;
      const title = query.status.charAt(0).toUpperCase() + query.status.slice(1).toLowerCase();
      query.status = query.status === title && query.status !== query.status.toUpperCase() ? query.status.toUpperCase() : `not-stored-${query.status}`;
    },
  };
}

const written: Mutant[] = [
  // 2.7 gives an order's payment `lifeSeconds (integer)` and `lifeUntilAt (integer)` and no meaning: a payment window's
  // remaining seconds, computed at read time (a Laravel accessor `life_until_at - now()`, as an exchange's
  // order page counts down), is as ready a reading as the window's configured length. Two reads seconds apart then give
  // two values; nothing says an order's members are the same on every read.
  reading(
    'allowed-review-as-order-life-seconds-remaining',
    'bonuses',
    '2.7',
    'an order\u2019s payment.lifeSeconds is the seconds left until payment.lifeUntilAt at the time of the read (negative once past: an accessor `life_until_at - now()` unclamped), not the window\u2019s length (2.7: "lifeSeconds (integer), lifeUntilAt (integer)", no meaning given)',
    {
      wire(answer: WireAnswer, _reply: FastifyReply) {
        if (answer.method !== 'GET' || (answer.url !== BONUSES && answer.url !== BONUS) || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        // Each answer a second after the one before (reads a second apart, whatever the run's pace): the countdown moves
        // between every two reads, deterministically.
        reads += 1;
        const now = Math.floor(Date.now() / 1000) + reads;
        for (const record of recordsOf(body)) {
          const payment = record?.order?.payment;
          if (!payment || typeof payment.lifeUntilAt !== 'number') continue;
          payment.lifeSeconds = payment.lifeUntilAt - now;
        }
        return JSON.stringify(body);
      },
    },
    only('bonuses'),
  ),
  // suites/bonuses.test.ts 'answers an asset the user has no bonus in with no other asset' compares the entry's symbol
  // with NOBONUSASSET letter for letter, where its twin (the symbol cut by one character) compares in any letter case.
  // A service that keys assets by a lower-case symbol (CoinGecko-style keys: `btc`), lower-cases the {asset} segment
  // before the lookup and answers an asset it has no bonus of as one entry of zeros built from the normalised segment
  // (a LEFT JOIN over the asked symbol, as allowed-r8-bonus-summary-every-asset does for the summary of all assets).
  reading(
    'allowed-review-as-summary-unknown-asset-zero-entry-lower-case',
    'bonuses',
    '4.11',
    'the summary of an {asset} in which the user has no bonus is one entry of zeros (orders 0, each status { bonuses: 0, amount: 0 }) whose asset symbol is the segment as the service normalises it, lower-case (4.11: "asset optional path segment (symbol)", 200 { data: [<Bonus asset summary>] }; neither the entries of an asset without bonuses nor the letter case of a symbol the service keeps is given: storage normalisation, docs/judging.md)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || answer.url !== SUMMARY || answer.status !== 200) return undefined;
        const asked = (reply.request.params as Record<string, unknown> | undefined)?.asset;
        if (typeof asked !== 'string' || asked === '') return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        if (body.data.some((entry: any) => String(entry?.asset?.symbol).toLowerCase() === asked.toLowerCase())) return undefined;
        const zero = { bonuses: 0, amount: 0 };
        body.data.push({ asset: { name: asked.toLowerCase(), symbol: asked.toLowerCase(), alias: null, type: 'coin', precision: '8' }, orders: 0, distributed: { ...zero }, pending: { ...zero }, canceled: { ...zero } });
        return JSON.stringify(body);
      },
    },
    only('bonuses'),
  ),
  // review-ar F3's fix added the title case to filterWritings (helpers/check/filters.ts); helpers/arrange/invariants.ts
  // pastAPageCheck (:2725) still asks the status as shown, upper and lower case only.
  reading(
    'allowed-review-as-card-status-filter-takes-stored-title-case',
    'cards',
    '4.6a',
    'a card’s status is stored in title case (Confirmed) and shown upper-case (CONFIRMED), and the status filter compares the stored value letter for letter: status=Confirmed lists the cards, status=CONFIRMED and status=confirmed list none (4.6a: "query status, company, platform (optional filters, strings)"; how a filter compares and in which letter case it takes a value are not said: review-ar F3 without the 422, review-y with the title case)',
    statusFilterTakesStoredTitleCase(CARDS),
    only('cards'),
  ),
  reading(
    'allowed-review-as-bank-status-filter-takes-stored-title-case',
    'banks',
    '4.10',
    'the bank twin of allowed-review-as-card-status-filter-takes-stored-title-case: a bank’s status stored Confirmed and shown CONFIRMED, the status filter compared letter for letter with the stored value (status=Confirmed lists the banks, CONFIRMED and confirmed none; 4.10: "status, currency, company, platform (all optional filters, strings)")',
    statusFilterTakesStoredTitleCase(BANKS),
    only('banks'),
  ),
  // helpers/check/filters.ts expectFilteredList takes 200 or 422 for a filter value, never 400. 4.11 gives the bonus
  // status filter its values (distributed, pending, canceled): a Java team binds it to an enum (Spring's
  // `@RequestParam BonusStatus status`: a value no constant has is a MethodArgumentTypeMismatchException, 400 by default;
  // ASP.NET [ApiController] enum binding and NestJS's ValidationPipe with @IsEnum answer 400 too). Section 7 names 422
  // for validation of bodies (forgot, reset, bank and card create) and the bonus list's errors are 401, 403 and 409 only,
  // so a 422 is as unlisted here as a 400 (review-y and review-r: a strict validator's 400 advised on).
  reading(
    'allowed-review-as-bonus-status-filter-enum-400',
    'bonuses',
    '4.11',
    'the bonus list refuses a status value that is none of distributed, pending and canceled with 400 { message }, as an enum-bound query parameter does (Spring\u2019s MethodArgumentTypeMismatchException, ASP.NET enum binding, NestJS @IsEnum): 4.11 gives the filter\u2019s values and not what another value gets; its errors are 401, 403 and 409, and section 7 gives 422 for body validation only',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || answer.url !== BONUSES) return undefined;
        const status = ((reply.request.query ?? {}) as Record<string, unknown>).status;
        if (status === undefined || (typeof status === 'string' && ['distributed', 'pending', 'canceled'].includes(status))) return undefined;
        if (answer.status !== 200 && answer.status !== 422) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Failed to convert value of type 'java.lang.String' to required type 'BonusStatus'; No enum constant BonusStatus.${String(status)}` });
      },
    },
    only('bonuses'),
  ),
  reading(
    'allowed-review-as-card-status-filter-enum-400',
    'cards',
    '4.6a',
    'the card list refuses a status value that is no constant of its status enum (CONFIRMED, PENDING, REJECTED, DELETED, letter case exact) with 400 { message }, as Spring\u2019s enum-bound @RequestParam does (4.6a: "query status, company, platform (optional filters, strings)"; section 2 does not give the set of statuses, nor 4.6a what a value outside it gets; the list\u2019s errors are 401, 403 and 409)',
    statusFilterEnum400(CARDS, 'CardStatus'),
    only('cards'),
  ),
  reading(
    'allowed-review-as-bank-status-filter-enum-400',
    'banks',
    '4.10',
    'the bank twin of allowed-review-as-card-status-filter-enum-400: a status value that is no constant of the bank status enum is refused 400 { message } (4.10: "status, currency, company, platform (all optional filters, strings)")',
    statusFilterEnum400(BANKS, 'BankStatus'),
    only('banks'),
  ),
  // The same typed binder on the bank list's currency: Spring binds `@RequestParam Currency currency` through
  // java.util.Currency.getInstance, which throws for anything but an upper-case ISO 4217 alphabetic code (a part of one,
  // a numeric code, another letter case, a non-code): 400 before the lookup. docs/judging.md already advises on "a 400
  // of a typed query binder" for the balances' assets[] (review-z).
  reading(
    'allowed-review-as-bank-currency-filter-typed-400',
    'banks',
    '4.10',
    'the bank list binds its currency filter to java.util.Currency: a value that is no upper-case ISO 4217 alphabetic code (EU, eur, 978, no-such-value-0000) is refused 400 { message } before the lookup (4.10: "status, currency, company, platform (all optional filters, strings)"; what a value the service cannot read gets is not said, and the list\u2019s errors are 401, 403 and 409)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || answer.url !== BANKS) return undefined;
        const currency = ((reply.request.query ?? {}) as Record<string, unknown>).currency;
        if (currency === undefined) return undefined;
        if (typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) && Intl.supportedValuesOf('currency').includes(currency)) return undefined;
        if (answer.status !== 200 && answer.status !== 422) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Failed to convert value of type 'java.lang.String' to required type 'java.util.Currency'; Invalid currency code ${JSON.stringify(currency)}` });
      },
    },
    only('banks'),
  ),
];

export const probesReviewAsMutants: readonly Mutant[] = written;
