import type { Mutant } from './types.js';
import { onAnswers, reading, recordsOf, only } from './reading.js';

/**
 * Readings found by the read-only review review-o (issue 28): expects of the suite that decided a point the text leaves
 * open, each pinned here as an allowed reading that must stay conformant (branch fix-o fixed the suite; docs/judging.md
 * gives each judgement and its reason). Each description quotes the text that leaves the point open.
 */
const CARDS = '/api/v1/user/:user/card';
const CARD = '/api/v1/user/:user/card/:card';

export const readingsReviewOMutants: Mutant[] = [
  // Storage normalises holderName (a DB trigger / column rule upper-cases it); the create answer is the model built
  // from the request (not read back), so it shows the letters sent; every read shows the stored, upper-cased form.
  reading(
    'allowed-o-card-reads-holder-upper-create-echoes',
    'cards',
    '2.5',
    'holderName stored upper-case (a column rule, as embossed cards are); the 201 answers the model built from the request, so it shows the letters sent, and every list and show the stored text (2.5 gives holderName as "string" and no clause says a record repeats the letters sent)',
    onAnswers([CARDS, CARD], (body, answer) => {
      if (answer.method !== 'GET') return false;
      const records = recordsOf(body).filter((r) => r && typeof r.holderName === 'string');
      if (records.length === 0) return false;
      for (const r of records) r.holderName = r.holderName.toUpperCase();
    }),
    only('cards'),
  ),
];
