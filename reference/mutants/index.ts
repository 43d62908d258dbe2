import { authenticationMutants } from './authentication.js';
import { balancesMutants } from './balances.js';
import { banksMutants } from './banks.js';
import { bonusesMutants } from './bonuses.js';
import { cardsMutants } from './cards.js';
import { passwordMutants } from './password.js';
import { readingsR1Mutants } from './readings-r1.js';
import { readingsR2Mutants } from './readings-r2.js';
import { readingsR3Mutants } from './readings-r3.js';
import { readingsR4Mutants } from './readings-r4.js';
import { readingsR5Mutants } from './readings-r5.js';
import { readingsR6Mutants } from './readings-r6.js';
import { readingsR7Mutants } from './readings-r7.js';
import { readingsR8Mutants } from './readings-r8.js';
import { readingsR9JudgedDeviations, readingsR9Mutants } from './readings-r9.js';
import { readingsR10Mutants } from './readings-r10.js';
import { readingsR11Mutants } from './readings-r11.js';
import { readingsR12Mutants } from './readings-r12.js';
import { readingsR13Mutants } from './readings-r13.js';
import { readingsR14Mutants } from './readings-r14.js';
import { readingsR15Mutants } from './readings-r15.js';
import { readingsR16JudgedDeviations, readingsR16Mutants } from './readings-r16.js';
import { readingsR17Mutants } from './readings-r17.js';
import { readingsR18Mutants } from './readings-r18.js';
import { readingsR19Mutants } from './readings-r19.js';
import { readingsR20Mutants } from './readings-r20.js';
import { readingsR21Mutants } from './readings-r21.js';
import { roundWb1Mutants } from './round-wb1.js';
import { roundWb2Mutants } from './round-wb2.js';
import { roundWb3Mutants } from './round-wb3.js';
import { roundWb4Mutants } from './round-wb4.js';
import { roundWb5Mutants } from './round-wb5.js';
import { roundWb6Mutants } from './round-wb6.js';
import { roundWb7Mutants } from './round-wb7.js';
import { roundWb8Mutants } from './round-wb8.js';
import { roundWb9Mutants } from './round-wb9.js';
import { roundWb10Mutants } from './round-wb10.js';
import { roundWb11Mutants } from './round-wb11.js';
import { roundWb12Mutants } from './round-wb12.js';
import { roundWb13Mutants } from './round-wb13.js';
import { roundWb14Mutants } from './round-wb14.js';
import { roundWb15Mutants } from './round-wb15.js';
import { roundWb16ClassProbes, roundWb16Mutants, roundWb16Readings } from './round-wb16.js';
import { roundWb17Mutants } from './round-wb17.js';
import { readingsReviewOMutants } from './readings-review-o.js';
import { readingsReviewRJudgedDeviations, readingsReviewRMutants } from './readings-review-r.js';
import { readingsReviewSMutants } from './readings-review-s.js';
import { probesReviewTMutants } from './probes-review-t.js';
import { probesReviewUMutants } from './probes-review-u.js';
import { probesReviewVMutants } from './probes-review-v.js';
import { probesReviewWMutants } from './probes-review-w.js';
import { probesReviewYMutants } from './probes-review-y.js';
import { probesReviewXMutants } from './probes-review-x.js';
import { probesReviewAaOpen } from './probes-review-aa.js';
import type { Mutant } from './types.js';

/** Every mutant of the reference, in the specification's order of groups; then the rounds (fairness readings r1 to r21; white-box wb1 to wb17; the reviews' readings). */
export const MUTANTS: readonly Mutant[] = [...authenticationMutants, ...passwordMutants, ...balancesMutants, ...banksMutants, ...bonusesMutants, ...cardsMutants, ...readingsR1Mutants, ...readingsR2Mutants, ...readingsR3Mutants, ...readingsR4Mutants, ...readingsR5Mutants, ...readingsR6Mutants, ...readingsR7Mutants, ...readingsR8Mutants, ...readingsR9Mutants, ...readingsR9JudgedDeviations, ...readingsR10Mutants, ...readingsR11Mutants, ...readingsR12Mutants, ...readingsR13Mutants, ...readingsR14Mutants, ...readingsR15Mutants, ...readingsR16Mutants, ...readingsR16JudgedDeviations, ...readingsR17Mutants, ...readingsR18Mutants, ...readingsR19Mutants, ...readingsR20Mutants, ...readingsR21Mutants, ...roundWb1Mutants, ...roundWb2Mutants, ...roundWb3Mutants, ...roundWb4Mutants, ...roundWb5Mutants, ...roundWb6Mutants, ...roundWb7Mutants, ...roundWb8Mutants, ...roundWb9Mutants, ...roundWb10Mutants, ...roundWb11Mutants, ...roundWb12Mutants, ...roundWb13Mutants, ...roundWb14Mutants, ...roundWb15Mutants, ...roundWb16Mutants, ...roundWb16Readings, ...roundWb16ClassProbes, ...roundWb17Mutants, ...readingsReviewOMutants, ...readingsReviewRMutants, ...readingsReviewRJudgedDeviations, ...readingsReviewSMutants, ...probesReviewTMutants, ...probesReviewUMutants, ...probesReviewVMutants, ...probesReviewWMutants, ...probesReviewYMutants, ...probesReviewXMutants];

/** Probes a review left unregistered (not in MUTANTS, so `npm run mutants` does not judge them), runnable by name with `conformance run --mutant`. */
const UNREGISTERED_PROBES: readonly Mutant[] = [...probesReviewAaOpen];

export function mutantByName(name: string): Mutant | undefined {
  return MUTANTS.find((m) => m.name === name) ?? UNREGISTERED_PROBES.find((m) => m.name === name);
}
