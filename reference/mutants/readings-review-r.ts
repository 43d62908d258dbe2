import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { judgedDeviations, ALL, onAnswers, only, reading, recordsOf } from './reading.js';

/**
 * Probes of the read-only review review-r (issue 28's done-when: "a review by someone who did not write the change finds
 * no `expect` that decides an open point"). Each takes a reading the text leaves open and shows which test of the suite
 * fails it; the report to the lead says which of them it judges a fair reading (a finding) and which only argued. They
 * are registered so that `node bin/mutants.mjs --mutant NAME` and `conformance run --mutant NAME` can run them; none
 * was conformant on main when written (that was the finding; the lead's judgement is at the end). Each description quotes the text.
 */

/** The filters each records list names (4.10, 4.11, 4.6a). */
const LIST_FILTERS: Readonly<Record<string, readonly string[]>> = {
  '/api/v1/user/:user/bank': ['status', 'currency', 'company', 'platform'],
  '/api/v1/user/:user/bonus': ['status', 'platform'],
  '/api/v1/user/:user/card': ['status', 'company', 'platform'],
};

const readingsReviewRWritten: Mutant[] = [
  // A strict request validator (an OpenAPI middleware such as express-openapi-validator, ASP.NET's model binding, a
  // Go handler that rejects unknown parameters) answers 400 to a query parameter the list does not name, where round
  // r2's reading answered 422. Only a list that would have answered 200 is changed, so 5.3's 401 still comes first.
  reading(
    'allowed-review-r-unknown-query-400',
    'banks',
    '4.10',
    'the bank, bonus and card lists refuse a query parameter they do not name with 400 { message } (a strict OpenAPI validator): 4.10, 4.11 and 4.6a name the filters and say nothing of others, and section 7 names no status for a parameter no table names (round r2 answered such a parameter 422 and stayed conformant)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || answer.status !== 200) return undefined;
        const known = LIST_FILTERS[answer.url];
        if (!known) return undefined;
        const unknown = Object.keys((reply.request.query ?? {}) as Record<string, unknown>).filter((name) => !known.includes(name));
        if (unknown.length === 0) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Unknown query parameter: ${unknown[0]}.` });
      },
    },
    { groups: ['banks', 'bonuses', 'cards'], clauses: 'all' },
  ),
  // RFC 6750 section 2.3 (the URI query parameter access_token) is a standard way to send a bearer token beside the
  // Authorization header of 2.1; a resource server that implements RFC 6750 whole (Spring Security's
  // DefaultBearerTokenResolver with allowUriQueryParameter, many OAuth resource servers) accepts it on GET.
  reading(
    'allowed-review-r-bearer-access-token-query',
    'banks',
    '5',
    'a protected endpoint also takes the bearer token in the RFC 6750 query parameter access_token on a GET (5.3: "Protected endpoints require the header Authorization: Bearer <ACCESS_TOKEN>. Without valid authentication the response is 401": whether a bearer token sent by another RFC 6750 method is "valid authentication" is not said)',
    {
      request(request: FastifyRequest) {
        if (request.method !== 'GET' || request.headers.authorization !== undefined) return;
        const token = ((request.query ?? {}) as Record<string, unknown>).access_token;
        if (typeof token === 'string' && token !== '') request.headers.authorization = `Bearer ${token}`;
      },
    },
    ALL,
  ),
  // `company` kept as an older name of `platform` (an alias a rename left behind): both compare the platform's code, and
  // a request that gives both is read by `platform` alone (`$request->platform ?? $request->company`).
  reading(
    'allowed-review-r-company-alias-of-platform',
    'banks',
    '4.10',
    'company is an older name of platform on the bank and card lists: both compare the platform code, and when both are given platform is read and company ignored (4.10 and 4.6a: "company, platform (all optional filters, strings)", neither defined, nor how filters given together combine)',
    {
      request(request: FastifyRequest) {
        if (request.method !== 'GET' || !/\/api\/v1\/user\/[^/]+\/(bank|card)(\?|$)/.test(request.url)) return;
        const query = (request.query ?? {}) as Record<string, unknown>;
        if (query.platform !== undefined && query.company !== undefined) delete query.company;
      },
    },
    { groups: ['banks', 'cards'], clauses: 'all' },
  ),
  // The card list is answered from a read model (a search index, a denormalised table) that keeps holderName as the
  // embossed card prints it, upper-case; the show reads the card's own row, which keeps the letters sent. Storage
  // normalisation in one store and not in the other: each read gives the text its store keeps.
  reading(
    'allowed-review-r-card-list-holder-upper-show-as-sent',
    'cards',
    '2.5',
    'the card list gives holderName upper-case (its read model keeps the embossed form) while the show gives the letters sent (2.5 gives holderName as "string" and no clause says a record repeats the letters sent, nor that list and show read one store)',
    onAnswers(['/api/v1/user/:user/card'], (body, answer) => {
      if (answer.method !== 'GET') return false;
      const records = recordsOf(body).filter((r) => r && typeof r.holderName === 'string');
      if (records.length === 0) return false;
      for (const r of records) r.holderName = r.holderName.toUpperCase();
    }),
    only('cards'),
  ),
];

/*
 * Judged by the lead (issue 28):
 * - allowed-review-r-unknown-query-400 (a fair reading): the owner checks of the records lists (`?user_id=`, `?userId=`,
 *   `?user=`) now take any client error for a parameter no table names, advised on unless 422, 403 or 409
 *   (helpers/arrange/invariants.ts, expectOwnerNotFromQuery; docs/judging.md, "Precedence of errors").
 * - allowed-review-r-card-list-holder-upper-show-as-sent (a fair reading): a list and a show of one record that differ
 *   only by storage normalisation are advised on, as a read against the create is (comparedReads, differsOnlyInStorage;
 *   suites/cards.test.ts assertSameCard and assertListedAsShown, suites/banks.test.ts the two-platform show).
 * - allowed-review-r-bearer-access-token-query: a judged deviation, row "A token counts only in `Authorization:
 *   Bearer`" (5.3 "require the header"; RFC 6750 advises against the query form).
 * - allowed-review-r-company-alias-of-platform: a judged deviation, row "Filters together list exactly the records every
 *   filter alone lists" (a filter the request sent is never left unread because another is there).
 */
const REFUSED = new Set<string>(['allowed-review-r-bearer-access-token-query', 'allowed-review-r-company-alias-of-platform']);

/** The judged deviations of review-r (not registered: the suite refuses them on purpose). */
export const readingsReviewRRefused: Mutant[] = readingsReviewRWritten.filter((mutant) => REFUSED.has(mutant.name));

/** The judged deviations of review-r as mutants the suite must kill (registered in index.ts; review-s): the suite's refusal of them stays proven. */
export const readingsReviewRJudgedDeviations: Mutant[] = judgedDeviations(readingsReviewRRefused, ' (docs/judging.md: "A token counts only in Authorization: Bearer"; "Filters together list exactly the records every filter alone lists")');

/** The readings of review-r the suite must pass (registered in index.ts). */
export const readingsReviewRMutants: Mutant[] = readingsReviewRWritten.filter((mutant) => !REFUSED.has(mutant.name));
