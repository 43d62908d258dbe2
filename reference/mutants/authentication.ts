import type { Mutant } from './types.js';

export const authenticationMutants: Mutant[] = [];
