import { GROUPS, type Group } from '../helpers/spec/catalogue.js';
import type { Mutant } from '../reference/mutants/types.js';

/** The groups whose tests judge a mutant: its own, and for an allowed reading those it declares it can affect. */
export function judgedGroups(mutant: Mutant): Group[] {
  const declared = mutant.allowed ? mutant.judgedBy?.groups : undefined;
  if (declared === 'all') return [...GROUPS];
  return [...new Set([mutant.group, ...(declared ?? [])])];
}
