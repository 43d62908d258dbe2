import type { Mutant } from './types.js';
import type { FastifyReply } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import { only, parse, reading, recordsOf } from './reading.js';
import { BANKS, COINS, NFTS } from './routes.js';

/**
 * review-au (issue 28, "fair to the readings nobody listed"): a read-only fairness review of the newest fixes (6cac814,
 * review-at fixes), helpers/arrange/invariants.ts listInvariantChecks after its assets[] part, filteredFieldsCheck,
 * sharedAssetCheck, ownerQueryAssetCheck, the JWT tests of suites/authentication.test.ts and the meta comparisons of
 * suites/balances.test.ts. Each allowed-* probe takes one choice the text leaves open, the other way from the
 * reference; each description quotes the text that leaves the point open. Verdicts (bin/mutants.mjs --shards 1
 * --mutant NAME), 2026-11-28: see the end of this header (filled in as they come).
 */

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
];

export const probesReviewAuMutants: readonly Mutant[] = written;
