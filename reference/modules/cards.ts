import type { ReferenceModule } from '../context.js';

/** Placeholder until this part of the interface is implemented. */
export const cards: ReferenceModule = {
  name: 'cards',
  ddl: '',
  deviations: [],
  register() {},
};
