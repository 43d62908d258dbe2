import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { only, parse, reading, recordsOf, routeOf } from './reading.js';
import { BANK, BANKS, BONUS, BONUSES, CARD, CARDS, COIN, COINS, NFT, NFTS, SUMMARY } from './routes.js';

/**
 * review-ar (issue 28, "fair to the readings nobody listed"): a read-only fairness review of the checks of fix-wb25b
 * (fb70c81 bebaca9 46ffa71: password forms as findings, the filtered access rows, the bank delete's and logout's
 * query-token rows, a reset carrying another account's id), fix-wb25a (d2016dd: owner and status names as query
 * parameters of creates, ?user_id= on every user-scoped read and delete, the bonus show sent its order's publicId) and
 * the review-aq fixes (3966c60). Each allowed-* probe takes one choice the text leaves open, the other way from the
 * reference; each description quotes the text that leaves the point open. Verdicts (bin/mutants.mjs --shards 1 --mutant
 * NAME, and conformance run --mutant NAME --group G, 2026-11-28):
 * - F1 allowed-review-ar-unknown-body-members-400: REFUSED, one test only (suites/password.test.ts:668, "leaves another
 *   account's password unchanged when a reset carries user_id, userId and id ...": "expected status 403 or 409 or 422,
 *   got 400"); authentication and banks pass (a create's 400 is advised on: expectExtraMemberAnswer).
 * - F3 allowed-review-ar-card-status-filter-validated-against-stored-title-case: REFUSED (suites/cards.test.ts:965 "status=
 *   CONFIRMED must list the card", and the two-platform status test: "status=CONFIRMED must list every record ... it leaves
 *   out"); its bank twin allowed-review-ar-bank-status-filter-validated-against-stored-title-case: REFUSED
 *   (suites/banks.test.ts 'returns every bank whose status matches the status filter': "expected status 200, got 422", and
 *   the two-platform status test). filterWritings tries the status as shown, upper and lower case only.
 * - F2 allowed-review-ar-bonus-id-is-its-orders-id: REFUSED (helpers/arrange/invariants.ts:2536, recordIdChecks on the
 *   bonus show: "expected 404, got 200" for the order's id, which is the bonus's own); arguable (docs/provider-states.md's
 *   optional sharedOrder expects an order that earned two bonuses).
 * - pins, conformant: allowed-review-ar-unknown-query-400-on-every-read, allowed-review-ar-unknown-query-400-on-writes,
 *   allowed-review-ar-order-public-ids-uuids.
 */

/** The 422 of r7.unknown-body-members-refused (reference/validation.ts refuseUnknownMembers): every message "... is prohibited." */
function onlyProhibited(body: any): string[] | undefined {
  const errors = body?.errors;
  if (!errors || typeof errors !== 'object') return undefined;
  const keys = Object.keys(errors);
  const all = keys.length > 0 && keys.every((key) => Array.isArray(errors[key]) && errors[key].every((m: unknown) => typeof m === 'string' && m.endsWith('field is prohibited.')));
  return all ? keys : undefined;
}

/** The query parameters each user-scoped read names (4.6 to 4.11, 4.6a); any other is unknown to a strict validator. */
const NAMED_QUERY: Readonly<Record<string, readonly string[]>> = {
  [COINS]: ['assets[]', 'assets'],
  [NFTS]: ['assets[]', 'assets'],
  [COIN]: [],
  [NFT]: [],
  [BANKS]: ['status', 'currency', 'company', 'platform'],
  [BANK]: [],
  [CARDS]: ['status', 'company', 'platform'],
  [CARD]: [],
  [BONUSES]: ['status', 'platform'],
  [BONUS]: [],
  [SUMMARY]: [],
};

/**
 * Two allowed readings together, as review-aq F1 (allowed-review-aq-card-status-filter-validated-against-stored-lower-case)
 * with the status stored in title case: shown upper-case (`CONFIRMED`), stored `Confirmed` (a Rails/Django choices label,
 * a database enum written so), and the status filter validated against the stored values (`Rule::in(['Confirmed', ...])`),
 * an unknown value refused 422 keyed by the filter (cards/banks.unknown-filter-value-422): status=Confirmed lists the
 * records, and CONFIRMED and confirmed are values it does not know.
 */
function statusFilterValidatedAgainstStoredTitleCase(route: string, deviation: string): Mutation {
  return {
    deviation,
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
  // F1 candidate (suites/password.test.ts, "leaves another account's password unchanged when a reset carries user_id,
  // userId and id naming that account ...": t.expectStatus(response, [403, 409, 422]) for a reset that is not 200).
  // The strict validator of a Java team (Jackson's FAIL_ON_UNKNOWN_PROPERTIES, its default outside Spring Boot), an
  // express-openapi-validator or an ASP.NET [ApiController] with MissingMemberHandling.Error: a JSON body member the
  // endpoint does not name is refused 400 before anything is done (allowed-r7-unknown-body-members-refused answers 422).
  reading(
    'allowed-review-ar-unknown-body-members-400',
    'password',
    '7',
    'a JSON body member the endpoint does not name is refused with 400 { message } before the request is acted on, as a strict request validator answers (Jackson\u2019s FAIL_ON_UNKNOWN_PROPERTIES, express-openapi-validator, ASP.NET MissingMemberHandling.Error): login, forgot-password, reset-password, bank create (4.2 to 4.4 and 4.10 list the fields a body has; whether others are ignored or refused is not given, and section 7 names no status for them; allowed-r7-unknown-body-members-refused answers 422 and stays conformant)',
    {
      deviation: 'r7.unknown-body-members-refused',
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'POST' || answer.status !== 422) return undefined;
        const keys = onlyProhibited(parse(answer.payload));
        if (!keys) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Unrecognized field "${keys[0]}" (not marked as ignorable).` });
      },
    },
    only('password', 'authentication', 'banks'),
  ),
  // Pin (fix-wb25a on the reads: expectNoForeignRecordByQuery, expectHeldNotFromQuery): allowed-review-r-unknown-query-400
  // widened from the three records lists to every user-scoped read (record shows, balance lists and shows, the bonus
  // summary): a GET that would answer 200 with a query parameter the route does not name answers 400 instead (a read
  // acts on nothing, so a 200 turned into 400 is the refusal itself).
  reading(
    'allowed-review-ar-unknown-query-400-on-every-read',
    'balances',
    '4.6',
    'every user-scoped read refuses a query parameter it does not name with 400 { message } (a strict OpenAPI validator in front of the whole interface): 4.6 to 4.11 and 4.6a name the query parameters of the lists and none of a show or the summary, and section 7 names no status for a parameter no table names (allowed-review-r-unknown-query-400 does so on the records lists and stays conformant)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || answer.status !== 200) return undefined;
        const known = NAMED_QUERY[answer.url];
        if (!known) return undefined;
        const unknown = Object.keys((reply.request.query ?? {}) as Record<string, unknown>).filter((name) => !known.includes(name));
        if (unknown.length === 0) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Unknown query parameter: ${unknown[0]}.` });
      },
    },
    only('balances', 'bonuses', 'banks', 'cards'),
  ),
  // Pin (fix-wb25a on the writes: the creates' owner and status query parameters, expectExtraMemberAnswer; the bank
  // delete of another user's bank with ?user_id=, expectNoForeignRecordByQuery): a strict validator refuses any query
  // parameter of a create or a delete (their tables name none) with 400 before the write is done. The request is marked
  // and its bearer header dropped, so the write is refused (401, nothing done), and the marked 401 is answered 400; only a
  // request with a bearer header is marked, so a request without one still gets 5.3's 401.
  reading(
    'allowed-review-ar-unknown-query-400-on-writes',
    'banks',
    '4.10',
    'the bank create, the card create and the bank delete refuse any query parameter with 400 { message } before acting (a strict OpenAPI validator): 4.10 and 4.6a give their bodies and no query parameter, and section 7 names no status for a parameter no table names (allowed-review-r-unknown-query-400 does so on the lists and stays conformant)',
    {
      request(request) {
        const route = routeOf(request);
        const write = (request.method === 'POST' && (route === BANKS || route === CARDS)) || (request.method === 'DELETE' && route === BANK);
        if (!write || !/^Bearer /i.test(String(request.headers.authorization ?? ''))) return;
        const names = Object.keys((request.query ?? {}) as Record<string, unknown>);
        if (names.length === 0) return;
        request.headers['x-review-ar-unknown-query'] = names[0]!;
        delete request.headers.authorization;
      },
      wire(answer: WireAnswer, reply: FastifyReply) {
        const name = reply.request.headers['x-review-ar-unknown-query'];
        if (typeof name !== 'string' || answer.status !== 401) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Unknown query parameter: ${name}.` });
      },
    },
    only('banks', 'cards'),
  ),
  // Pin (fix-wb25a, recordIdChecks: the publicId of the first bonus's order and of its quote, a UUID judged as an id of
  // another kind): an order's and a quote's publicId are UUIDs of their own (2.7 types them "string"), the same in every
  // read (derived from the reference's publicId).
  reading(
    'allowed-review-ar-order-public-ids-uuids',
    'bonuses',
    '2.7',
    'an order\u2019s publicId and its quote\u2019s publicId are UUIDs of their own, distinct from every record id (2.7: "publicId string", quote "{ id: string, publicId: string }"; the form of a public id is not given)',
    {
      wire(answer: WireAnswer) {
        if (answer.method !== 'GET' || (answer.url !== BONUSES && answer.url !== BONUS) || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        const asUuid = (text: string) => {
          const hex = createHash('sha1').update(`review-ar:${text}`).digest('hex');
          return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
        };
        for (const record of recordsOf(body)) {
          const order = record?.order;
          if (!order || typeof order !== 'object') continue;
          if (typeof order.publicId === 'string') order.publicId = asUuid(order.publicId);
          if (order.quote && typeof order.quote.publicId === 'string') order.quote.publicId = asUuid(`quote:${order.quote.publicId}`);
        }
        return JSON.stringify(body);
      },
    },
    only('bonuses', 'banks', 'cards'),
  ),
  // F2 candidate (helpers/arrange/invariants.ts recordIdChecks, "answers 404 to the id of each of the user's records of
  // another kind (a bank, card, bonus or order)": the order ids are sent to the bonus show, which must answer 404).
  // A bonus is one per order, stored with a shared primary key (JPA's @MapsId, a `bonuses.order_id` primary key): the
  // bonus's id is its order's id.
  reading(
    'allowed-review-ar-bonus-id-is-its-orders-id',
    'bonuses',
    '2.5a',
    'a bonus and its order share one id (a one-to-one relation stored with a shared primary key, JPA\u2019s @MapsId): every bonus answers order.id equal to its own id (2.5a gives a bonus an id (UUID) and an order object, 2.7 gives the order an id (UUID); nothing says the two differ, and there is no order endpoint an order id is sent to)',
    {
      wire(answer: WireAnswer) {
        if (answer.method !== 'GET' || (answer.url !== BONUSES && answer.url !== BONUS) || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        for (const record of recordsOf(body)) if (record?.order && typeof record.order === 'object' && typeof record.id === 'string') record.order.id = record.id;
        return JSON.stringify(body);
      },
      // Such a target has no order that earned two bonuses: its hook answers no sharedOrder (optional in the contract).
      state(name, data) {
        if (name !== 'bonuses' || !data || typeof data !== 'object') return data;
        const { sharedOrder: _dropped, ...rest } = data as Record<string, unknown>;
        return rest;
      },
    },
    only('bonuses', 'banks', 'cards'),
  ),
  // F3 candidate (suites/cards.test.ts 'answers 200 with the created card, and its status filter keeps only cards of that
  // status': every writing filterWritings gives (as shown, upper, lower) refused 422, the card is never listed).
  reading(
    'allowed-review-ar-card-status-filter-validated-against-stored-title-case',
    'cards',
    '4.6a',
    'two allowed readings together: a card\u2019s status is stored in title case (Confirmed) and shown upper-case, the status filter compares the stored value, and a value the service does not know is refused with 422 keyed by the filter (allowed-card-list-unknown-filter-value-422): status=CONFIRMED and status=confirmed are 422 keyed by status, status=Confirmed lists the cards (4.6a: "query status, company, platform (optional filters, strings)"; how a filter compares, in which letter case it takes a value and what an unknown value gets are not said; review-aq F1 with the lower case)',
    statusFilterValidatedAgainstStoredTitleCase(CARDS, 'cards.unknown-filter-value-422'),
    only('cards'),
  ),
  reading(
    'allowed-review-ar-bank-status-filter-validated-against-stored-title-case',
    'banks',
    '4.10',
    'the bank twin of allowed-review-ar-card-status-filter-validated-against-stored-title-case: a bank\u2019s status stored Confirmed and shown CONFIRMED, the status filter validated against the stored values (status=CONFIRMED and status=confirmed 422 keyed by status, status=Confirmed lists the banks; 4.10: "status, currency, company, platform (all optional filters, strings)")',
    statusFilterValidatedAgainstStoredTitleCase(BANKS, 'banks.unknown-filter-value-422'),
    only('banks'),
  ),
];

/** The probes of review-ar (registered in index.ts): each must stay conformant. */
export const probesReviewArMutants: Mutant[] = written;
