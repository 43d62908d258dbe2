import type { Mutant } from './types.js';
import { only, reading } from './reading.js';
import { cardsCappedPerUser } from './probes-review-u.js';

/**
 * review-ag probe, registered as an allowed reading: a cap of five cards a user, below the seven creates the image-kind
 * test and the nine the expiry test send to one user (review-ag F1). Section 8 gives field limits only, no count of
 * records a user may hold, and 5.6 answers an unauthorized action 403 or 409: both tests now end not verified, with the
 * reason, once a create after a first 201 is refused so (suites/cards.test.ts capReached), never failed.
 */
export const probesReviewAgMutants: Mutant[] = [
  reading(
    'allowed-review-ag-cards-capped-5-per-user',
    'cards',
    '5',
    'a user may hold at most 5 cards: a card create past them is refused as an unauthorized action (409 "This action is unauthorized.", nothing stored), as a policy that caps a user\u2019s cards answers (5.6; 8 gives field limits only, and no count of records a user may hold, in either direction)',
    cardsCappedPerUser(5),
    only('cards'),
  ),
];
