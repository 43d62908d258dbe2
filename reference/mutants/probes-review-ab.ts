import type { FastifyReply } from 'fastify';
import type { ReferenceContext } from '../context.js';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { only, reading } from './reading.js';
import { BANKS, BONUSES, CARDS } from './routes.js';
import { platformByNameUnresolvedIgnored } from './probes-review-aa.js';

/**
 * review-ab probes (unregistered in main: found by conformance run --mutant on branch review-ab only).
 *
 * 1. The registered reading allowed-review-aa-platform-filter-by-name-only-unresolved-ignored, on a target whose hook
 *    registers every `platform` state's platform under one display name (a staging fixture "Staging Platform"; the
 *    contract asks distinct names only of the two-platforms states, not of `platform`). The 2FA/JWT session rows'
 *    "platform registered after the user's records" then shares its name with the JWT user's own platform.
 * 2. allowed-bank-delete-foreign-bank-not-found (a lookup scoped to the user's banks) together with
 *    allowed-r3-bank-delete-idempotent (a delete of a bank the user does not have answers 200): another user's bank
 *    deleted under the caller's own id answers 200 and is kept.
 */
const SHARED_NAME = 'Staging Platform';

const platformState = {
  state(name: string, data: unknown, ctx: ReferenceContext): unknown {
    if (name !== 'platform' || !data || typeof data !== 'object') return data;
    const made = data as Record<string, unknown>;
    ctx.db.prepare('UPDATE platforms SET name = ? WHERE id = ?').run(SHARED_NAME, String(made.id));
    return { ...made, name: SHARED_NAME };
  },
};

const byName = platformByNameUnresolvedIgnored([BANKS, CARDS, BONUSES]);

export const probesReviewAbMutants: readonly Mutant[] = [
  reading(
    'allowed-review-ab-platform-by-name-hook-names-shared',
    'banks',
    '4.10',
    'as allowed-review-aa-platform-filter-by-name-only-unresolved-ignored (platform compared with the name only, a value naming no platform by name dropped), on a target whose `platform` state registers every platform under one display name ("Staging Platform"): platform names are not unique (nothing in 2.4 or 4.1 says they are)',
    { ...byName, ...platformState },
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-review-ab-bank-delete-scoped-idempotent',
    'banks',
    '4.10',
    'allowed-bank-delete-foreign-bank-not-found with allowed-r3-bank-delete-idempotent: a delete looks the bank up among the caller\u2019s own banks, and a bank the user does not have is answered 200 as an idempotent DELETE, so another user\u2019s bank under the caller\u2019s own id is answered 200 and kept',
    {
      deviation: 'banks.foreign-delete-not-found',
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'DELETE' || answer.url !== '/api/v1/user/:user/bank/:bank' || answer.status !== 404) return;
        reply.code(200);
        return JSON.stringify({ message: 'The bank has been deleted.' });
      },
    },
    only('banks'),
  ),
];
