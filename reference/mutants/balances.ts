import type { Mutant } from './types.js';

export const balancesMutants: Mutant[] = [];
