import type { FastifyRequest } from 'fastify';
import type { Mutant } from './types.js';
import { onBankCreate, only, parse, reading, recordsOf, routeOf } from './reading.js';
import { BANK, BANKS } from './routes.js';

/**
 * review-y probes (issue 28's done-when: no expect decides an open point). Each takes a reading the text leaves open
 * and shows the test that fails it; not registered in MUTANTS (the lead decides), run with
 * `node bin/mutants.mjs --shards 1 --mutant NAME` after adding them to index.ts, or by `--mutant` where registered.
 */

/** The members bank create's body table (4.10) names. */
const BANK_MEMBERS = new Set(['bankName', 'iban', 'swift', 'currency']);

/** Bank creates whose JSON body held a member the table does not name, with those members. */
const unknownMembers = new WeakMap<FastifyRequest, string[]>();

/** Banks created through the interface (POST 201), by id: every other bank a read shows was made by a provider state. */
const createdThroughInterface = new Set<string>();

export const probesReviewYMutants: readonly Mutant[] = [
  // A strict request validator (an OpenAPI schema with additionalProperties: false; NestJS's forbidNonWhitelisted, an
  // express-openapi-validator): a body member the table does not name is refused with 400 Bad Request, nothing stored.
  // Section 4.10 gives the body's members and section 7 the create's errors (401, 403, 422) for the documented fields;
  // neither says what a member no table names gets ("Precedence of errors": an input no section speaks of), and the
  // suite already lets a query parameter no table names answer any client error, a validator's 400 too
  // (allowed-review-r-unknown-query-400).
  reading(
    'allowed-review-y-bank-create-unknown-member-400',
    'banks',
    '4.10',
    'bank create validates its JSON body against the table of 4.10 with no other member allowed (an OpenAPI validator, additionalProperties: false): a body with a member the table does not name (user_id, owner, id, status, createdAt ...) is refused 400 { message } after authentication, nothing stored (4.10 and 7 say nothing of a member no table names)',
    {
      request(request) {
        onBankCreate(request, (body) => {
          const extra = Object.keys(body).filter((key) => !BANK_MEMBERS.has(key));
          if (extra.length === 0) return;
          unknownMembers.set(request, extra);
          delete body.bankName; // the reference then refuses the create (422) after its authentication and policy: nothing stored
        });
      },
      wire(answer, reply) {
        const extra = unknownMembers.get(reply.request);
        if (extra === undefined || answer.status !== 422) return undefined;
        reply.code(400);
        return JSON.stringify({ message: `Unknown body member(s): ${extra.join(', ')}` });
      },
    },
    only('banks'),
  ),
  // Statuses kept lower-case in the store (`confirmed`) and shown upper-case by the resource (a presenter's strtoupper, an
  // enum's display name), the filter compared with the stored value as sent (WHERE status = ?, case-sensitive): status=confirmed
  // lists the user's banks, status=CONFIRMED (the value as the records show it) lists none, as any value no record has.
  // The mirror of allowed-r8-currency-shown-lower-case (shown lower, filter takes upper), which the suite already allows by
  // sending the value also in upper case; section 4.10 says only "status ... (all optional filters, strings)", not how a
  // filter compares or in which letter case it takes a value.
  reading(
    'allowed-review-y-bank-status-filter-takes-stored-lower-case',
    'banks',
    '4.10',
    'a bank\u2019s status is stored lower-case (confirmed) and shown upper-case (CONFIRMED); the status filter compares the stored value case-sensitively, so status=confirmed lists the CONFIRMED banks and status=CONFIRMED lists none (4.10: "status ... all optional filters, strings"; how a filter compares and in which case it takes a value is not said)',
    {
      request(request) {
        if (request.method !== 'GET' || routeOf(request) !== BANKS) return;
        const query = (request.query ?? {}) as Record<string, unknown>;
        if (typeof query.status !== 'string') return;
        // The reference compares with the shown value: a lower-case value is the stored one, any other matches nothing stored.
        query.status = query.status === query.status.toLowerCase() ? query.status.toUpperCase() : `not-stored-${query.status}`;
      },
    },
    only('banks'),
  ),
  // A provider state's bank stored with a typographic apostrophe in its name (the hook writes the store directly), shown
  // as stored by the show, and a list read model (a search index) that writes typographic quotes straight (reading round
  // r19, allowed-r19-texts-typographic-quotes-straightened: a store that normalises typography so that search and matching
  // see one apostrophe), as review-r's list read from another store than the show (allowed-review-r-card-list-holder-
  // upper-show-as-sent). Modelled on the reference's state banks: their name is shown with " Co\u2019s" after it by the
  // show and with " Co's" by the list; banks created through the interface are left as they are.
  reading(
    'allowed-review-y-state-bank-list-straightens-typographic-quotes',
    'banks',
    '2.4',
    'a provider state\u2019s bank is stored with a typographic apostrophe in its bankName; the show gives it as stored, the list (a read model that normalises typography, as reading round r19 allows of a store) writes it straight (2.4: bankName "string"; no clause says two reads repeat the letters of each other)',
    {
      wire(answer) {
        if (answer.method === 'POST' && answer.url === BANKS && answer.status === 201) {
          const id = parse(answer.payload)?.data?.id;
          if (typeof id === 'string') createdThroughInterface.add(id.toLowerCase());
          return undefined;
        }
        if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== BANK && answer.url !== BANKS)) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        const records = recordsOf(body).filter((r) => r && typeof r.id === 'string' && typeof r.bankName === 'string' && !createdThroughInterface.has(r.id.toLowerCase()));
        if (records.length === 0) return undefined;
        for (const r of records) r.bankName = `${r.bankName} Co${answer.url === BANK ? '\u2019' : "'"}s`;
        return JSON.stringify(body);
      },
    },
    only('banks'),
  ),
];
