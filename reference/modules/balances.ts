import type { ReferenceModule } from '../context.js';

/** Placeholder until this part of the interface is implemented. */
export const balances: ReferenceModule = {
  name: 'balances',
  ddl: '',
  deviations: [],
  register() {},
};
