import type { Group } from '../../helpers/spec/catalogue.js';
import type { Mutation } from '../mutation.js';

/**
 * A mutant: the reference with one deliberate deviation from one clause of the specification.
 * The suite of `group` must fail on it, through a test that cites `clause`.
 */
export interface Mutant {
  /** Unique, kebab-case, says what is wrong: `logout-keeps-token`. */
  name: string;
  /** The section the deviation violates (a clause id of helpers/spec/catalogue.ts). */
  clause: string;
  group: Group;
  /** One line: what the mutant does differently. */
  description: string;
  mutation: Mutation;
  /**
   * An allowed reading, not a deviation: the reference answering one way the specification allows.
   * It must SURVIVE: the tests citing `clause` all pass against it (the verdict stays conformant).
   */
  allowed?: true;
  /**
   * For an allowed reading: the tests it can affect, which must all pass. Default: the tests of
   * `group` citing `clause`. A reading that changes answers other tests also read names them here:
   * more groups (`'all'` for a server-wide one), and the clauses whose tests run there (`'all'`: the
   * groups unfocused). Focused, because `npm test` runs every mutant within its time budget.
   */
  judgedBy?: { groups?: readonly Group[] | 'all'; clauses: readonly string[] | 'all' };
}
