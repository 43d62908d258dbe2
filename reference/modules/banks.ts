import type { ReferenceModule } from '../context.js';

/** Placeholder until this part of the interface is implemented. */
export const banks: ReferenceModule = {
  name: 'banks',
  ddl: '',
  deviations: [],
  register() {},
};
