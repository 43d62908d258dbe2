import type { ReferenceModule } from '../context.js';

/** Placeholder until this part of the interface is implemented. */
export const password: ReferenceModule = {
  name: 'password',
  ddl: '',
  deviations: [],
  register() {},
};
