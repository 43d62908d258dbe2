import type { ReferenceModule } from '../context.js';

/** Placeholder until this part of the interface is implemented. */
export const bonuses: ReferenceModule = {
  name: 'bonuses',
  ddl: '',
  deviations: [],
  register() {},
};
