import type { Mutant } from './types.js';

export const cardsMutants: Mutant[] = [];
