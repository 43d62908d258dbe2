import type { FastifyReply } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { onAnswers, only, reading, recordsOf } from './reading.js';

/**
 * Probes of the read-only review review-s (of the lead's response to review-r, 71d4ac1). The lead judged that a list
 * may be read from another store than the show (a read model keeping the embossed upper-case holder), so a list and a
 * show that differ only by storage normalisation are advised on (docs/judging.md, "Storage normalisation";
 * allowed-review-r-card-list-holder-upper-show-as-sent). The same argument covers a filtered list answered from a
 * search index or a read model other than the unfiltered list's store (CQRS: filtered queries served by a search
 * engine whose keyword normaliser upper-cases or folds the text). Each probe below takes that reading for one text a
 * client sends; none is expected to stay conformant on main (the finding).
 */

/** The filters each records list names (4.10, 4.6a). */
const LIST_FILTERS: Readonly<Record<string, readonly string[]>> = {
  '/api/v1/user/:user/bank': ['status', 'currency', 'company', 'platform'],
  '/api/v1/user/:user/card': ['status', 'company', 'platform'],
};

/** True when the answer is a list read with at least one of its filters (served, in this reading, by another store). */
function filtered(answer: WireAnswer, reply: FastifyReply): boolean {
  if (answer.method !== 'GET') return false;
  const names = LIST_FILTERS[answer.url];
  if (!names) return false;
  const query = (reply.request.query ?? {}) as Record<string, unknown>;
  return names.some((name) => query[name] !== undefined);
}

export const readingsReviewSMutants: Mutant[] = [
  reading(
    'allowed-review-s-card-filtered-list-holder-upper',
    'cards',
    '2.5',
    'a card list read with a filter (status, company, platform) is answered from a search index whose keyword normaliser keeps holderName upper-case (the embossed form), while the unfiltered list and the show read the card\u2019s own row (2.5 gives holderName as "string"; no clause says a record repeats the letters sent, nor that a filtered and an unfiltered list read one store: the lead\u2019s judgement of allowed-review-r-card-list-holder-upper-show-as-sent, applied to a filtered list)',
    onAnswers(['/api/v1/user/:user/card'], (body, answer, reply) => {
      if (!filtered(answer, reply)) return false;
      const records = recordsOf(body).filter((r) => r && typeof r.holderName === 'string');
      if (records.length === 0) return false;
      for (const r of records) r.holderName = r.holderName.toUpperCase();
    }),
    only('cards'),
  ),
  reading(
    'allowed-review-s-bank-filtered-list-iban-print-format',
    'banks',
    '2.4',
    'a bank list read with a filter (status, currency, company, platform) is answered from a read model that keeps the iban in the print format of ISO 13616 (groups of four separated by one space), while the unfiltered list and the show give the electronic format (docs/judging.md, "Equivalent forms": either form may be shown; "Storage normalisation": a list may be read from another store than the show)',
    onAnswers(['/api/v1/user/:user/bank'], (body, answer, reply) => {
      if (!filtered(answer, reply)) return false;
      const records = recordsOf(body).filter((r) => r && typeof r.iban === 'string' && !r.iban.includes(' '));
      if (records.length === 0) return false;
      for (const r of records) r.iban = r.iban.replace(/(.{4})(?=.)/g, '$1 ');
    }),
    only('banks'),
  ),
];
