import type { Mutation } from '../mutation.js';
import type { Mutant } from './types.js';
import { only, parse, reading } from './reading.js';
import { BANK, BANKS, BONUSES, CARDS, SUMMARY } from './routes.js';

/**
 * review-ac probes, registered as allowed readings (fix-ac; found by conformance run --mutant on branch review-ac). Each
 * answers where the text leaves the status open with a refusal that is not JSON, as something in front of the interface
 * would (docs/judging.md, "An error answer that is not JSON where the status is open"): conformant, and the tests they
 * touch end not verified with the reason, never passed (principle 7).
 *
 * 1. allowed-review-ac-summary-no-bonus-asset-404-html (finding F3): a bonus summary of an asset in which the user has no
 *    bonus (an empty 200) is answered 404 as an HTML page. The cut-symbol summary test had taken it as an advisory and
 *    passed; it is not verified now, as the NOBONUSASSET test is.
 * 2. allowed-review-ac-owner-query-400-html (finding F4): a bank or card list asked with a query parameter no table names
 *    (user_id, userId, user) is refused 400 as an HTML page (a strict query validator in front). The list invariant test
 *    had skipped there, before its twin and delete parts ran; it now runs them (t.notVerified) and ends not verified.
 * 3. review-ac-bank-delete-removes-user-bonuses (finding F2, a deviation): after a bank delete answered 200, the user's
 *    bonus list answers no bonus. The bank delete test read the bonuses of a fresh user, who has none; it now arranges
 *    them (state bonuses) and catches it (the lead's fix).
 */
const params = (request: { params?: unknown }) => (request.params ?? {}) as Record<string, string | undefined>;
const query = (request: { query?: unknown }) => (request.query ?? {}) as Record<string, unknown>;
const HTML = '<!DOCTYPE html>\n<html><head><title>Error</title></head><body><h1>Error</h1></body></html>\n';

const summaryNoBonus404Html: Mutation = {
  wire(answer, reply) {
    if (answer.method !== 'GET' || answer.url !== SUMMARY || answer.status !== 200 || !params(reply.request).asset) return undefined;
    const body = parse(answer.payload);
    if (!body || !Array.isArray(body.data) || body.data.length > 0) return undefined;
    reply.code(404);
    reply.removeHeader('content-length');
    reply.header('content-type', 'text/html; charset=utf-8');
    return HTML;
  },
};

const ownerQuery400Html: Mutation = {
  wire(answer, reply) {
    if (answer.method !== 'GET' || (answer.url !== BANKS && answer.url !== CARDS)) return undefined;
    const q = query(reply.request);
    if (!['user_id', 'userId', 'user'].some((name) => name in q)) return undefined;
    reply.code(400);
    reply.removeHeader('content-length');
    reply.header('content-type', 'text/html; charset=utf-8');
    return HTML;
  },
};

function bonusesGoneAfterBankDelete(): Mutation {
  const cleared = new Set<string>();
  return {
    wire(answer, reply) {
      const user = String(params(reply.request).user ?? '').toLowerCase();
      if (answer.method === 'DELETE' && answer.url === BANK && answer.status === 200) {
        cleared.add(user);
        return undefined;
      }
      if (answer.method !== 'GET' || answer.url !== BONUSES || answer.status !== 200 || !cleared.has(user)) return undefined;
      const body = parse(answer.payload);
      if (!body || !Array.isArray(body.data)) return undefined;
      reply.removeHeader('content-length');
      return JSON.stringify({ ...body, data: [] });
    },
  };
}

export const probesReviewAcMutants: readonly Mutant[] = [
  { name: 'review-ac-bank-delete-removes-user-bonuses', clause: '4.10', group: 'banks', description: 'section 4.10 (a bank delete deletes that bank): a bank delete also removes the user\u2019s bonuses (the bonus list answers none after it)', mutation: bonusesGoneAfterBankDelete() },
  reading('allowed-review-ac-summary-no-bonus-asset-404-html', 'bonuses', '4.11', 'a bonus summary of an asset in which the user has no bonus is refused 404 as an HTML page (a router or framework in front)', summaryNoBonus404Html, only('bonuses')),
  reading('allowed-review-ac-owner-query-400-html', 'banks', '4.10', 'a bank or card list asked with a query parameter no table names (user_id, userId, user) is refused 400 as an HTML page (a strict query validator in front)', ownerQuery400Html, only('banks', 'cards')),
];
