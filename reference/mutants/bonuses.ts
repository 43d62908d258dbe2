import type { Mutant } from './types.js';

export const bonusesMutants: Mutant[] = [];
