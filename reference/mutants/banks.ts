import type { Mutant } from './types.js';

export const banksMutants: Mutant[] = [];
