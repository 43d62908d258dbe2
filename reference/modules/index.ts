import type { ReferenceModule } from '../context.js';
import { authentication } from './authentication.js';
import { balances } from './balances.js';
import { banks } from './banks.js';
import { bonuses } from './bonuses.js';
import { cards } from './cards.js';
import { password } from './password.js';

/** The parts of the interface, in the specification's order; authentication first (it owns users and platforms). */
export const MODULES: readonly ReferenceModule[] = [authentication, password, balances, banks, bonuses, cards];
