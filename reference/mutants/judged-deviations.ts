import type { Mutant } from './types.js';
import { judgedDeviations } from './reading.js';
import { readingsR11Refused } from './readings-r11.js';
import { readingsR12Refused } from './readings-r12.js';
import { readingsR14Refused } from './readings-r14.js';
import { readingsR15Refused } from './readings-r15.js';
import { readingsR17Refused } from './readings-r17.js';
import { readingsR19Refused } from './readings-r19.js';
import { readingsR21Refused } from './readings-r21.js';

/**
 * A reading a round refused as a fair refusal is a deviation the suite was judged right to fail; registered as such, it
 * proves that the suite still fails it (principle 3: a check that cannot fail is a defect). Rounds 9, 16, 18, 22 and 23
 * register theirs in their own files (readingsR*JudgedDeviations); this module does it for rounds 11, 12, 14, 15, 17,
 * 19 and 21, whose refusals were kept unregistered until review-ad found them pinned by no mutant. Each keeps its
 * reading's mutation and description, named without `allowed-` (judgedDeviations); the reasons are the notes above
 * each round's REFUSED.
 */
const ROUNDS: [readonly Mutant[], string][] = [
  [readingsR11Refused, 'r11'],
  [readingsR12Refused, 'r12'],
  [readingsR14Refused, 'r14'],
  [readingsR15Refused, 'r15'],
  [readingsR17Refused, 'r17'],
  [readingsR19Refused, 'r19'],
  [readingsR21Refused, 'r21'],
];

/**
 * The clause a judged deviation breaks, where it is not the clause its reading leaned on: a soft-deleted bank shown 200
 * (round r15) read section 3's open transitions, and breaks 4.10's delete and 7's "404 | bank show | no record found".
 */
const CLAUSE_BROKEN: Record<string, string> = { 'r15-deleted-bank-shown-deleted': '4.10' };

/** Candidates, before the lead's check that the suite kills each (see NOT_KILLED below). */
export const earlierJudgedDeviationsWritten: readonly Mutant[] = ROUNDS.flatMap(([refused, round]) => judgedDeviations(refused, ` (round ${round}: see the note above its REFUSED)`)).map((mutant) => (CLAUSE_BROKEN[mutant.name] ? { ...mutant, clause: CLAUSE_BROKEN[mutant.name]! } : mutant));

/** Judged deviations the suite does not kill (none known). */
const NOT_KILLED = new Set<string>([]);

/** Registered in index.ts. */
export const earlierJudgedDeviations: readonly Mutant[] = earlierJudgedDeviationsWritten.filter((mutant) => !NOT_KILLED.has(mutant.name));
