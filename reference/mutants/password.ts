import type { Mutant } from './types.js';

export const passwordMutants: Mutant[] = [];
