import type { FastifyRequest } from 'fastify';
import type { Mutant } from './types.js';
import { onBankCreate, only, reading } from './reading.js';
import { BANKS } from './routes.js';

/**
 * review-y probes (issue 28's done-when: no expect decides an open point). Each takes a reading the text leaves open
 * and shows the test that fails it; not registered in MUTANTS (the lead decides), run with
 * `node bin/mutants.mjs --shards 1 --mutant NAME` after adding them to index.ts, or by `--mutant` where registered.
 */

/** The members bank create's body table (4.10) names. */
const BANK_MEMBERS = new Set(['bankName', 'iban', 'swift', 'currency']);

/** Bank creates whose JSON body held a member the table does not name, with those members. */
const unknownMembers = new WeakMap<FastifyRequest, string[]>();

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
];
